/**
 * Stepping through a finished deal (牌局回放) from its record (the result's `extra.replay`): the
 * hands as dealt, then one public move at a time.
 */
import { sortHand } from './cards'
import { logLine, type DealRecord } from './table'

export interface ReplayFrame {
  /** 0 = as dealt; i = after the i-th move. */
  index: number
  total: number
  /** What happened at this move ('' for the deal itself). */
  line: string
  /** The seat that moved at this frame, if any. */
  seat: number | null
  /** Each seat's cards at this frame, strongest first. */
  hands: string[][]
  /** The last cards played up to this frame, and by whom. */
  lastPlay: { seat: number; cards: string[] } | null
}

export function replayFrame(record: DealRecord, index: number, names: readonly string[]): ReplayFrame {
  const total = record.log.length
  const upto = Math.max(0, Math.min(index, total))
  const hands = record.dealt.map((h) => [...h])
  let lastPlay: ReplayFrame['lastPlay'] = null
  for (let i = 0; i < upto; i++) {
    const e = record.log[i]
    if (e.act === 'play' && e.cards) {
      const gone = new Set(e.cards)
      hands[e.seat] = hands[e.seat].filter((c) => !gone.has(c))
      lastPlay = { seat: e.seat, cards: [...e.cards] }
    }
  }
  const entry = upto > 0 ? record.log[upto - 1] : null
  // the cards on the table belong to a play or a pass; after a 强退 (or a kick) nothing is on the table:
  // showing the last play there read as if the quit had carried cards
  const inTrick = entry !== null && (entry.act === 'play' || entry.act === 'pass')
  return {
    index: upto,
    total,
    line: entry ? logLine(entry, names) : `第${record.no}局发牌`,
    seat: entry ? entry.seat : null,
    hands: hands.map(sortHand),
    lastPlay: inTrick ? lastPlay : null,
  }
}

/** The next frame that is a play (skipping passes), for 「跳到出牌」; the end when none is left. */
export function nextPlayIndex(record: DealRecord, index: number): number {
  for (let i = index; i < record.log.length; i++) if (record.log[i].act === 'play') return i + 1
  return record.log.length
}
