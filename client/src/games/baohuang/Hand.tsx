import { createContext, useContext, useRef } from 'react'
import Taro from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { cardAt, handRows, isRed, isSweep, markOf, parseCard, sortHand, suitRuns, type CardBox, type Marks } from './cards'

/** The table's variant and called face, for the marks its cards show (`markOf`). */
export const MarksContext = createContext<Marks>({ variant: 'simple', called: null })

interface Props {
  cards: readonly string[]
  selected: readonly string[]
  onTap?: (code: string) => void
  /** 保六: the sixes are marked (they must go last, all at once). */
  baoliu?: boolean
  perRow?: number
  small?: boolean
}

/** A card face: rank over suit in the corner (the part left visible when fanned). */
export function CardFace({ code, small }: { code: string; small?: boolean }) {
  const c = parseCard(code)
  const mark = markOf(c, useContext(MarksContext))
  const red = isRed(code)
  return (
    <View className={`card-face ${red ? 'card-red' : 'card-black'} ${c.joker ? 'card-joker' : ''} ${small ? 'card-small' : ''}`}>
      {c.joker ? (
        <>
          <Text className='card-rank card-joker-text'>{c.rank === 'BJ' ? '大' : '小'}</Text>
          <Text className='card-rank card-joker-text'>王</Text>
        </>
      ) : (
        <>
          <Text className='card-rank'>{c.rank}</Text>
          <Text className='card-suit'>{c.suit ? { S: '♠', H: '♥', C: '♣', D: '♦' }[c.suit] : ''}</Text>
        </>
      )}
      {mark ? <Text className={`card-mark ${mark === '叫' ? 'card-mark-called' : ''}`}>{mark}</Text> : null}
    </View>
  )
}

interface Touchish { touches?: ArrayLike<{ clientX: number; clientY: number }>; changedTouches?: ArrayLike<{ clientX: number; clientY: number }> }

function point(e: Touchish): { x: number; y: number } | null {
  const t = e.touches?.[0] ?? e.changedTouches?.[0]
  return t ? { x: t.clientX, y: t.clientY } : null
}

/** A finger swept sideways across the hand raises or lowers each card it passes, once (fanned, a
 * classic hand leaves ~19 px of each card to tap); a tap still toggles one card. The cards' boxes are
 * measured when the finger comes down (a selector query: both targets). */
function useSweep(onTap: ((code: string) => void) | undefined, handId: string) {
  const sweep = useRef<{ x: number; y: number; boxes: CardBox[]; start: string | null; passed: Set<string>; on: boolean } | null>(null)
  const endedAt = useRef(0)
  const start = (e: Touchish) => {
    const p = point(e)
    if (!p || !onTap) return
    const s = { ...p, boxes: [] as CardBox[], start: null as string | null, passed: new Set<string>(), on: false }
    sweep.current = s
    Taro.createSelectorQuery().selectAll(`#${handId} .card`).fields({ rect: true, dataset: true }, () => undefined)
      .exec(([found]) => {
        const list = (found ?? []) as { left: number; right: number; top: number; bottom: number; dataset?: { code?: string } }[]
        s.boxes = list.filter((b) => b.dataset?.code).map((b) => ({ code: b.dataset!.code!, left: b.left, right: b.right, top: b.top, bottom: b.bottom }))
        s.start = cardAt(s.boxes, s.x, s.y)
      })
  }
  const move = (e: Touchish) => {
    const s = sweep.current
    const p = point(e)
    if (!s || !p || !s.boxes.length || !onTap) return
    if (!s.on) {
      if (!isSweep(p.x - s.x, p.y - s.y)) return
      s.on = true
      if (s.start) { s.passed.add(s.start); onTap(s.start) }
    }
    const code = cardAt(s.boxes, p.x, p.y)
    if (code && !s.passed.has(code)) { s.passed.add(code); onTap(code) }
  }
  const end = () => {
    if (sweep.current?.on) endedAt.current = Date.now()
    sweep.current = null
  }
  // the click that may follow a sweep's touchend is not a tap
  const tapped = (code: string) => { if (Date.now() - endedAt.current > 400) onTap?.(code) }
  return { start, move, end, tapped }
}

let handCount = 0

/** My hand, strongest first, fanned in rows; a tap raises or lowers a card, a sideways sweep each card
 * it passes. */
export function Hand({ cards, selected, onTap, baoliu, perRow = 18, small }: Props) {
  const chosen = new Set(selected)
  const rows = handRows(sortHand(cards), perRow)
  const id = useRef(`hand-${++handCount}`).current
  const sweep = useSweep(onTap, id)
  return (
    <View id={id} className={`hand ${small ? 'hand-small' : ''} ${onTap ? 'hand-live' : ''}`}
      onTouchStart={(e) => sweep.start(e as unknown as Touchish)} onTouchMove={(e) => sweep.move(e as unknown as Touchish)}
      onTouchEnd={sweep.end} onTouchCancel={sweep.end}>
      {rows.map((row, r) => (
        <View key={r} className='hand-row'>
          {row.map((code) => {
            const six = baoliu && parseCard(code).rank === '6'
            return (
              <View
                key={code}
                className={`card ${chosen.has(code) ? 'card-on' : ''} ${six ? 'card-six' : ''}`}
                data-code={code}
                onClick={() => sweep.tapped(code)}
              >
                <CardFace code={code} small={small} />
              </View>
            )
          })}
        </View>
      ))}
    </View>
  )
}

/** Cards laid flat (a play on the table, a replay line). */
export function CardRow({ cards, small }: { cards: readonly string[]; small?: boolean }) {
  return (
    // a long play (a bomb of eight) packs its cards closer, so it stays within the felt between the seats
    <View className={`card-row ${small ? 'card-row-small' : ''} ${cards.length > 5 ? 'card-row-dense' : ''}`}>
      {sortHand(cards).map((code) => (
        <View key={code} className='card card-flat' data-code={code}>
          <CardFace code={code} small={small} />
        </View>
      ))}
    </View>
  )
}

/** A line of words with its red suits in red ('叫♥J', '华妃出 ♠3 ♥3'), as on the cards. */
export function SuitText({ text }: { text: string }) {
  return (
    <>
      {suitRuns(text).map((r, i) => (r.red ? <Text key={i} className='card-red'>{r.text}</Text> : r.text))}
    </>
  )
}
