/**
 * 保皇 cards as the API writes them: suit + rank + `#` + pack copy ("S10#2", "HA#1"); jokers
 * "BJ#n" 大王 and "LJ#n" 小王. Presentation only — which plays are legal is the server's word.
 */

export type Suit = 'S' | 'H' | 'C' | 'D'

export interface Card {
  code: string
  /** null for jokers. */
  suit: Suit | null
  /** '3' … '10', 'J', 'Q', 'K', 'A', '2', 'LJ' (小王), 'BJ' (大王). */
  rank: string
  copy: number
  joker: boolean
  /** Higher is stronger: 3 → 3 … A → 14, 2 → 15, 小王 16, 大王 17. */
  order: number
  /** The marked cards: BJ#1 皇 (权杖), LJ#1 侍卫 (宝剑). */
  mark: '皇' | '卫' | null
}

export const SUIT_SIGN: Record<Suit, string> = { S: '♠', H: '♥', C: '♣', D: '♦' }
const SUIT_ORDER: Record<Suit, number> = { S: 0, H: 1, C: 2, D: 3 }
const RANKS = ['3', '4', '5', '6', '7', '8', '9', '10', 'J', 'Q', 'K', 'A', '2']

export function rankOrder(rank: string): number {
  if (rank === 'BJ') return 17
  if (rank === 'LJ') return 16
  const i = RANKS.indexOf(rank)
  return i < 0 ? 0 : i + 3
}

export function parseCard(code: string): Card {
  const [face, copyText] = code.split('#')
  const copy = Number(copyText ?? 0) || 0
  if (face === 'BJ' || face === 'LJ') {
    const mark = copy === 1 ? (face === 'BJ' ? '皇' : '卫') : null
    return { code, suit: null, rank: face, copy, joker: true, order: rankOrder(face), mark }
  }
  const suit = face.charAt(0) as Suit
  const rank = face.slice(1)
  return { code, suit, rank, copy, joker: false, order: rankOrder(rank), mark: null }
}

/** What decides a card's mark at a table: the variant and, in classic, the face the emperor called. */
export interface Marks {
  variant: string
  called: string | null
}

/**
 * The mark a card shows at this table (from the view's `variant` and `called`): 皇 on the 皇牌 (the
 * 大王 with the 权杖, in both variants); 卫 on the 侍卫牌 (the 小王 with the 宝剑) only in 简明 — in 经典
 * the guard is whoever holds the fourth copy of the called card, so the 宝剑 means nothing there and
 * every copy of the called face is marked 叫 instead (the guard finds hers among 43 cards).
 */
export function markOf(card: Card, marks: Marks): string | null {
  if (card.mark === '皇') return '皇'
  if (marks.variant === 'simple') return card.mark
  const face = card.code.split('#')[0]
  return marks.called !== null && face === marks.called ? '叫' : null
}

/** What the corner of a card shows: 'A', '10', '大' / '小' for jokers. */
export function rankText(rank: string): string {
  if (rank === 'BJ') return '大王'
  if (rank === 'LJ') return '小王'
  return rank
}

/** '♠7', '♥A', '大王', '小王'. */
export function cardLabel(code: string): string {
  const c = parseCard(code)
  return c.suit ? `${SUIT_SIGN[c.suit]}${c.rank}` : rankText(c.rank)
}

/** A face (a code without its copy, as the classic call names it): 'HA' → '♥A'. */
export function faceLabel(face: string): string {
  return cardLabel(`${face}#0`)
}

export function isRed(code: string): boolean {
  const c = parseCard(code)
  return c.suit === 'H' || c.suit === 'D' || c.rank === 'BJ'
}

/**
 * A line of text cut where a red suit starts and ends ('华妃出 ♠3 ♥3' → …, {'♥3', red}), so a suit
 * written in words takes the colour it has on the cards: ♥ and ♦ red, ♠ and ♣ black.
 */
export function suitRuns(text: string): { text: string; red: boolean }[] {
  const out: { text: string; red: boolean }[] = []
  const re = /[♥♦](?:10|[2-9JQKA])?/g
  let at = 0
  for (let m = re.exec(text); m !== null; m = re.exec(text)) {
    const i = m.index
    if (i > at) out.push({ text: text.slice(at, i), red: false })
    out.push({ text: m[0], red: true })
    at = i + m[0].length
  }
  if (at < text.length) out.push({ text: text.slice(at), red: false })
  return out
}

/** Strongest first: 大王, 小王, 2, A, K … 3; within a rank ♠ ♥ ♣ ♦, then the pack copy. */
export function compareCards(a: string, b: string): number {
  const x = parseCard(a)
  const y = parseCard(b)
  if (x.order !== y.order) return y.order - x.order
  const sx = x.suit ? SUIT_ORDER[x.suit] : 0
  const sy = y.suit ? SUIT_ORDER[y.suit] : 0
  if (sx !== sy) return sx - sy
  return x.copy - y.copy
}

export function sortHand(cards: readonly string[]): string[] {
  return [...cards].sort(compareCards)
}

/** Plays read in a log: '♠7 ♥7 大王' (sorted the same way as a hand). */
export function playLabel(cards: readonly string[]): string {
  return sortHand(cards).map(cardLabel).join(' ')
}

/** A hand in short: '大王×2 小王 2×3 A …' (ranks strongest first, counts when more than one). */
export function handSummary(cards: readonly string[]): string {
  const counts = new Map<string, number>()
  for (const code of sortHand(cards)) {
    const r = parseCard(code).rank
    counts.set(r, (counts.get(r) ?? 0) + 1)
  }
  return [...counts.entries()].map(([r, n]) => (n > 1 ? `${rankText(r)}×${n}` : rankText(r))).join(' ')
}

/**
 * A play in a few characters, for a seat's bubble and the 上一墩 line: one card with its suit ('♣6',
 * '大王': a bare '6' in a red bubble read as a count), more by rank ('6×3', '大王×2 A×2').
 */
export function playShort(cards: readonly string[]): string {
  return cards.length === 1 ? cardLabel(cards[0]) : handSummary(cards)
}

/** How many copies of a face ('HA') a hand holds. */
export function copiesOf(hand: readonly string[], face: string): number {
  return hand.filter((c) => c.split('#')[0] === face).length
}

/** Tap a card: in or out of the selection (kept in hand order). */
export function toggleCard(selected: readonly string[], code: string, hand: readonly string[]): string[] {
  const set = new Set(selected)
  if (set.has(code)) set.delete(code)
  else set.add(code)
  return sortHand(hand).filter((c) => set.has(c))
}

/** Drop from a selection the cards no longer in hand (after a play, a new deal). */
export function keepInHand(selected: readonly string[], hand: readonly string[]): string[] {
  const inHand = new Set(hand)
  return selected.filter((c) => inHand.has(c))
}

/** The call she chose (经典), kept only while the server still offers it (`callable` of this view):
 * a face chosen in an earlier deal, or no longer offered, is dropped — never sent to be refused. */
export function keptCall(call: string | undefined, callable: readonly string[] | null | undefined): string | undefined {
  return call !== undefined && (callable ?? []).includes(call) ? call : undefined
}

/** The hint after `current` in the server's list (cheapest first), wrapping around; -1 when none. */
export function nextHint(hints: readonly (readonly string[])[], current: number): number {
  if (hints.length === 0) return -1
  return (current + 1) % hints.length
}

/** The same cards, whatever their order. */
export function sameCards(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false
  const x = [...a].sort()
  const y = [...b].sort()
  return x.every((c, i) => c === y[i])
}

/** Split a long hand into rows for a phone (at most `perRow` a row, rows as even as possible). */
export function handRows<T>(cards: readonly T[], perRow: number): T[][] {
  if (cards.length === 0) return []
  const rows = Math.ceil(cards.length / perRow)
  const size = Math.ceil(cards.length / rows)
  const out: T[][] = []
  for (let i = 0; i < cards.length; i += size) out.push(cards.slice(i, i + size))
  return out
}

/** A card's box on screen (as a selector query measures it). */
export interface CardBox { code: string; left: number; right: number; top: number; bottom: number }

/** The card under a finger in a fanned hand: a later card lies over the one before it, so the last
 * box (in the hand's order) holding the point; null off the cards. */
export function cardAt(boxes: readonly CardBox[], x: number, y: number): string | null {
  for (let i = boxes.length - 1; i >= 0; i--) {
    const b = boxes[i]
    if (x >= b.left && x < b.right && y >= b.top && y < b.bottom) return b.code
  }
  return null
}

/** Whether a finger that moved (dx, dy) from where it touched the hand means to sweep across the cards:
 * sideways, past a few pixels. A mostly vertical move is the page being scrolled. */
export function isSweep(dx: number, dy: number): boolean {
  return Math.abs(dx) > 8 && Math.abs(dx) > Math.abs(dy)
}
