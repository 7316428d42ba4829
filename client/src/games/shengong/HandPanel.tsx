import { Text, View } from '@tarojs/components'
import { cardRefusal, MAX_DISCARD, type Compose } from './compose'
import { SLOT_SHORT, SLOT_TITLE, SLOTS } from './labels'
import type { Card, Mine } from './types'

interface Props {
  mine: Mine
  compose: Compose
  /** Sealed already, or nothing may be sent: the hand is shown, not played. */
  locked: boolean
  onPlay: (card: Card) => void
  onDiscard: (card: Card) => void
}

/**
 * My hand (C/D): three slots — 进攻 / 防守 / 通用, each taking only its own kind — and up to two
 * discards; tap 出 to put a card in its slot (again to take it back), 弃 to discard it. With an action
 * chosen, a card the server refuses with it (`refused`) is greyed with the server's reason and has no
 * 出 (弃 stays). The pile (and any frozen cards) head the panel, beside 「手牌 N 张」, where the fixed 落子
 * bar never covers them.
 */
export function HandPanel({ mine, compose, locked, onPlay, onDiscard }: Props) {
  const hand = mine.hand
  if (!hand) return <View className='empty'>此局无手牌</View>
  const byId = new Map(hand.hand.map((c) => [c.copy_id, c]))
  return (
    <View className='sg-handbox' aria-label='手牌'>
      {/* the pile beside the hand's heading, at the top: at the foot of the cards it sat behind the 落子 bar */}
      <View className='sg-hand-head'>
        <Text className='sg-hand-title'>手牌 {hand.hand.length} 张</Text>
        <Text className='sg-pile'>牌库余 {hand.pile} 张</Text>
      </View>
      {hand.frozen.length ? (
        <Text className='sg-frozen'>冻结：{hand.frozen.map((f) => `${f.skill}（第${f.back_in_round}回合归来）`).join('、')}</Text>
      ) : null}
      <View className='sg-slots'>
        {SLOTS.map((s) => {
          const card = compose.cards[s] ? byId.get(compose.cards[s] ?? '') : undefined
          return (
            <View key={s} className={`sg-slot sg-slot-${s} ${card ? 'sg-slot-full' : ''}`} data-slot={s}>
              <Text className='sg-slot-title'>{SLOT_TITLE[s]}</Text>
              <Text className='sg-slot-card'>{card ? card.skill : '空'}</Text>
              {card ? <Text className='sg-slot-lv'>Lv.{card.level}</Text> : null}
            </View>
          )
        })}
        <View className={`sg-slot sg-slot-discard ${compose.discard.length ? 'sg-slot-full' : ''}`} data-slot='discard'>
          <Text className='sg-slot-title'>弃牌 {compose.discard.length}/{MAX_DISCARD}</Text>
          <Text className='sg-slot-card'>{compose.discard.length ? compose.discard.map((id) => byId.get(id)?.skill ?? id).join('、') : '无'}</Text>
        </View>
      </View>

      {hand.empty ? <View className='empty sg-hand-empty'>{hand.empty}</View> : null}
      <View className='sg-cards'>
        {hand.hand.map((c) => {
          const played = compose.cards[c.slot] === c.copy_id
          const discarded = compose.discard.includes(c.copy_id)
          // the server says it may not go with the action she has chosen: greyed, with its reason; 弃 only
          const refused = locked || played ? null : cardRefusal(c, compose.type)
          return (
            <View key={c.copy_id} className={`sg-card sg-card-${c.slot} ${played ? 'sg-card-played' : ''} ${discarded ? 'sg-card-discarded' : ''} ${refused ? 'sg-card-refused' : ''}`}
              data-card={c.copy_id} data-refused={refused ? 'yes' : undefined}>
              <View className='sg-card-top'>
                <Text className='sg-card-slot'>{SLOT_SHORT[c.slot]}</Text>
                <Text className='sg-card-lv'>Lv.{c.level}</Text>
              </View>
              <Text className='sg-card-skill'>{c.skill}</Text>
              <Text className='sg-card-maid'>{c.maid}</Text>
              {/* at her level, as it will act; the per-level rule under it */}
              <Text className='sg-card-text'>{c.text_now || c.text}</Text>
              {c.text_now ? <Text className='sg-card-rule'>{c.text}</Text> : null}
              {/* the server says when a card can do nothing in this mode (送膳 cards in 宫斗杀): only 弃 */}
              {c.unusable ? <Text className='sg-card-unusable'>{c.unusable}</Text> : null}
              {refused && !c.unusable ? <Text className='sg-card-unusable sg-card-refusal'>{refused}</Text> : null}
              {locked ? null : (
                <View className='sg-card-btns'>
                  {c.unusable || refused ? null : <View className={`sg-card-btn ${played ? 'sg-card-btn-on' : ''}`} role='button' onClick={() => onPlay(c)}>{played ? '收回' : '出'}</View>}
                  <View className={`sg-card-btn sg-card-btn-discard ${discarded ? 'sg-card-btn-on' : ''}`} role='button' onClick={() => onDiscard(c)}>{discarded ? '留' : '弃'}</View>
                </View>
              )}
              {played ? <Text className='sg-card-stamp'>出</Text> : discarded ? <Text className='sg-card-stamp sg-card-stamp-discard'>弃</Text> : null}
            </View>
          )
        })}
      </View>

    </View>
  )
}
