import { Text, View } from '@tarojs/components'
import type { Schemas } from '../../api'
import { cnNumber, RARITY_NAME, RARITY_ORDER, SLOT_NAME } from '../../lib/labels'

type Card = Schemas['MaidCardOut']
type Owned = Schemas['MaidOut']

/** Every 宫女 card of the catalogue, by rarity; the ones she holds lit, with their level. */
export function MaidCollection({ cards, owned }: { cards: Card[]; owned: Owned[] }) {
  const level = new Map(owned.map((m) => [m.card, m.level]))
  const groups = RARITY_ORDER.map((r) => ({ rarity: r, cards: cards.filter((c) => c.rarity === r) }))
    .concat([{ rarity: '', cards: cards.filter((c) => !RARITY_ORDER.includes(c.rarity)) }])
    .filter((g) => g.cards.length)
  return (
    <View>
      {groups.map((g) => (
        <View key={g.rarity} className='maid-group'>
          <View className='maid-group-title'>
            <Text className={`rarity rarity-${g.rarity}`}>{g.rarity}</Text>
            <Text className='kai'>{RARITY_NAME[g.rarity] ?? '其他'}</Text>
            <Text className='muted maid-count'>已得 {g.cards.filter((c) => level.has(c.id)).length}/{g.cards.length}</Text>
          </View>
          <View className='maid-grid'>
            {g.cards.map((c) => {
              const lv = level.get(c.id)
              return (
                <View key={c.id} className={`maid ${lv ? 'maid-owned' : 'maid-missing'}`}>
                  <View className='row-between'>
                    <Text className='maid-name'>{c.maid}</Text>
                    <Text className='maid-slot'>{SLOT_NAME[c.slot] ?? c.slot}</Text>
                  </View>
                  <View className='maid-skill'>{c.skill}</View>
                  <View className='maid-text'>{c.text}</View>
                  <View className='maid-level'>{lv ? `${cnNumber(lv)}级` : '未得'}</View>
                </View>
              )
            })}
          </View>
        </View>
      ))}
    </View>
  )
}
