import { useState } from 'react'
import { Slider, Text, View } from '@tarojs/components'
import { Sheet } from '../../components/Sheet'
import { SealButton } from '../../components/SealButton'
import { cardLabel, faceLabel, handSummary } from './cards'
import { CardRow, MarksContext, SuitText } from './Hand'
import { nextPlayIndex, replayFrame } from './replay'
import { dealNo, dealVerdict, PLACE_NAME, scoreRows, signed, VARIANT_NAME, type Outcome } from './table'

/** A finished deal's score table: place, this deal, running total; roles and multiplier. */
export function ScoreTable({ outcome }: { outcome: Outcome }) {
  const rows = scoreRows(outcome)
  const verdict = dealVerdict(outcome)
  const x = outcome.extra
  const notes: string[] = []
  if (x.called) notes.push(`叫 ${faceLabel(x.called)}`)
  if (x.grabbed) notes.push('抢独')
  if (outcome.reason === 'quit') notes.push('强退结束')
  if (outcome.reason === 'kicked') notes.push('被请出')
  return (
    <View className='bh-scores' data-deal={dealNo(outcome)}>
      <View className={`bh-verdict bh-verdict-${verdict.side}`} role='status'>
        <Text className='bh-verdict-text'>{verdict.text}</Text>
        {verdict.times ? <Text className='bh-verdict-times'>{verdict.times}</Text> : null}
      </View>
      {/* how the places made it (the server's words): 「皇帝方胜」 beside a 四游 emperor reads as a mistake without it */}
      {x.basis ? <View className='bh-basis muted'>{x.basis}</View> : null}
      <View className='bh-scores-head'>
        <Text className='bh-scores-title'>第{dealNo(outcome)}局 · {VARIANT_NAME[x.variant] ?? x.variant}</Text>
        {notes.length ? <Text className='muted bh-scores-notes'><SuitText text={notes.join(' · ')} /></Text> : null}
      </View>
      <View className='bh-score-row bh-score-th'>
        <Text className='bh-sc-name'>席</Text>
        <Text className='bh-sc-place'>名次</Text>
        <Text className='bh-sc-score'>本局</Text>
        <Text className='bh-sc-total'>累计</Text>
      </View>
      {rows.map((r) => (
        <View key={r.seat} className='bh-score-row' data-seat={r.seat}>
          <View className='bh-sc-name'>
            <Text>{r.name}</Text>
            {r.role ? <Text className='bh-sc-role'>{r.role}</Text> : null}
          </View>
          <Text className='bh-sc-place'>{r.place ? PLACE_NAME[r.place - 1] : '—'}</Text>
          <Text className={`bh-sc-score ${r.score > 0 ? 'up' : r.score < 0 ? 'down' : ''}`} data-score={r.score}>{signed(r.score)}</Text>
          <Text className='bh-sc-total' data-total={r.total}>{signed(r.total)}</Text>
        </View>
      ))}
    </View>
  )
}

/** 牌局回放: step through a finished deal's moves from its record. */
export function ReplaySheet({ outcomes, open, onClose }: { outcomes: Outcome[]; open: boolean; onClose: () => void }) {
  const [pick, setPick] = useState(outcomes.length - 1)
  const [index, setIndex] = useState(0)
  const outcome = outcomes[Math.min(Math.max(pick, 0), outcomes.length - 1)]
  if (!outcome) return null
  const record = outcome.extra.replay
  const names = outcome.results.slice().sort((a, b) => a.seat - b.seat).map((r) => r.name ?? `${r.seat + 1}号`)
  const frame = replayFrame(record, index, names)
  return (
    // the replayed deal's own variant and called face mark its cards
    <MarksContext.Provider value={{ variant: record.variant, called: record.called ?? null }}>
      <Sheet title='牌局回放' open={open} onClose={onClose}>
        {outcomes.length > 1 ? (
          <View className='chip-row bh-replay-deals'>
            {outcomes.map((o, i) => (
              <View key={o.unit} className={`chip ${i === pick ? 'chip-on' : ''}`} onClick={() => { setPick(i); setIndex(0) }}>第{dealNo(o)}局</View>
            ))}
          </View>
        ) : null}
        <View className='bh-replay-step' data-index={frame.index}>
          <Text className='bh-replay-count'>{frame.index}/{frame.total}</Text>
          <Text className='bh-replay-line'><SuitText text={frame.line} /></Text>
        </View>
        {/* a deal runs to some 200 moves: a finger drags straight to the part she wants to see again */}
        <Slider className='bh-replay-scrub' min={0} max={Math.max(frame.total, 1)} step={1} value={frame.index}
          disabled={frame.total === 0} activeColor='#8b1a1a' backgroundColor='#e6dcc4' blockColor='#c9a227' blockSize={24}
          onChanging={(e) => setIndex(Number(e.detail.value))} onChange={(e) => setIndex(Number(e.detail.value))} />
        {frame.lastPlay ? (
          <View className='bh-replay-last'>
            <Text className='muted'>{names[frame.lastPlay.seat]}：</Text>
            <CardRow cards={frame.lastPlay.cards} small />
          </View>
        ) : null}
        <View className='bh-replay-hands'>
          {frame.hands.map((h, s) => (
            <View key={s} className={`bh-replay-hand ${frame.seat === s ? 'bh-replay-hand-on' : ''}`} data-seat={s}>
              <Text className='bh-replay-name'>{names[s]}{record.emperor === s ? ' · 皇帝' : ''}{record.guard === s && record.emperor !== s ? ' · 侍卫' : ''}</Text>
              <Text className='bh-replay-cards'>{h.length} 张：{handSummary(h) || '出完'}</Text>
            </View>
          ))}
        </View>
        <View className='bh-replay-nav'>
          <SealButton kind='ghost' size='small' disabled={frame.index === 0} onClick={() => setIndex(0)}>从头</SealButton>
          <SealButton kind='ghost' size='small' disabled={frame.index === 0} onClick={() => setIndex(frame.index - 1)}>上一步</SealButton>
          <SealButton size='small' disabled={frame.index >= frame.total} onClick={() => setIndex(frame.index + 1)}>下一步</SealButton>
          <SealButton kind='gold' size='small' disabled={frame.index >= frame.total} onClick={() => setIndex(nextPlayIndex(record, frame.index))}>跳到出牌</SealButton>
        </View>
        {record.called ? <View className='muted'><SuitText text={`叫牌：${faceLabel(record.called)}`} /></View> : null}
        {record.dealt.length && frame.index === 0 ? <View className='muted'>皇牌 {cardLabel('BJ#1')}·权杖 在 {names[record.holder]} 手中</View> : null}
      </Sheet>
    </MarksContext.Provider>
  )
}
