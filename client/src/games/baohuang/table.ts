/**
 * The 保皇 table as the screen lays it out, from the server's view of it (BaohuangView). Labels and
 * layout only: whose turn it is, what may be played and what each seat is, the server says.
 */
import type { Schemas } from '../../api'
import { cardLabel, faceLabel, playLabel } from './cards'
import { botless } from '../../lib/labels'

export type BaohuangView = Schemas['BaohuangView']
export type SeatView = Schemas['BaohuangSeatView']
export type LogEntry = Schemas['BaohuangLogEntry']
export type DealRecord = Schemas['BaohuangDealRecord']
export type RoomView = Schemas['BaohuangRoomViewOut']
export type Outcome = Schemas['BaohuangOutcomeOut']

export const SEATS = 5

/**
 * Where each seat sits on my screen. Seats are numbered counter-clockwise and play goes to the next
 * seat, so seen from above: me at the bottom, my 下家 on the right, then the top right, the top left,
 * and my 上家 on the left. A spectator has no bar of her own: she sees all five around the felt,
 * seat 0 at its foot (an absolute place like the other four).
 */
export const PLACES = ['bottom', 'right', 'top-right', 'top-left', 'left'] as const
export type Place = (typeof PLACES)[number] | 'foot'

export function placeOf(seat: number, me: number | null | undefined): Place {
  const base = me ?? 0
  const place = PLACES[(seat - base + SEATS) % SEATS]
  return place === 'bottom' && (me === null || me === undefined) ? 'foot' : place
}

export const VARIANT_NAME: Record<string, string> = { simple: '简明', classic: '经典' }
export const PLACE_NAME = ['头游', '二游', '三游', '四游', '末游']
export const ROLE_NAME: Record<string, string> = { emperor: '皇帝', guard: '侍卫', commoner: '平民' }
const SOLO_NAME: Record<string, string> = { hidden: '暗独保', open: '明独保' }
const OVER_REASON: Record<string, string> = {
  quit: '有人强退，本桌结束',
  kicked: '有人被请出，本桌结束',
  left: '有人离桌，本桌结束',
  all_auto: '在座的人都已托管，本桌结束',
}
export const PHASE_NAME: Record<string, string> = {
  throne: '选皇帝',
  declare: '声明',
  play: '出牌',
  between: '本局结束',
  over: '终局',
}

export function overText(reason: string | null | undefined): string {
  return reason ? OVER_REASON[reason] ?? reason : '本桌结束'
}

/** The marks on a seat, in the order the screen shows them. */
export function seatBadges(seat: SeatView, view: BaohuangView, bots: ReadonlySet<number>): string[] {
  const out: string[] = []
  if (seat.emperor) out.push(view.solo && view.solo !== 'none' ? `皇帝·${SOLO_NAME[view.solo]}` : '皇帝')
  if (seat.guard) out.push(view.open_guard ? '侍卫·明保' : '侍卫')
  if (seat.rebel) out.push('锄')
  if (seat.place) out.push(PLACE_NAME[seat.place - 1] ?? `第${seat.place}`)
  if (seat.auto) out.push('托管')
  if (bots.has(seat.seat)) out.push('机器人')
  if (view.phase === 'between' && seat.ready) out.push('已准备')
  return out
}

/** The partners she knows, less the emperor when her role line names the emperor already. */
export function partnersBesides(view: BaohuangView): number[] {
  const named = view.my_role !== 'emperor' ? view.emperor : null
  return (view.partners ?? []).filter((p) => p !== named)
}

/**
 * My own line under my seat once I have gone out in this deal: '你已出完，头游 · 等其他人打完' (with
 * 托管 on: '已托管 · 你已出完，头游' — 「系统代你出牌」 would promise plays of an empty hand). '' while
 * I still hold cards.
 */
export function outLine(seat: SeatView): string {
  if (!seat.place) return ''
  const place = PLACE_NAME[seat.place - 1] ?? `第${seat.place}`
  return seat.auto ? `已托管 · 你已出完，${place}` : `你已出完，${place} · 等其他人打完`
}

/**
 * The 登基 button on a throne offer: simple '登基'; classic names the call chosen ('登基 · 叫♥J'), asks
 * for one ('登基（先叫牌）'), or — the server offering no face to call (`callable` empty) — says why it
 * is grey: '登基（无牌可叫）'.
 */
export function takeLabel(variant: string, call: string | undefined, callable: number): string {
  if (variant !== 'classic') return '登基'
  if (call) return `登基 · 叫${faceLabel(call)}`
  return callable ? '登基（先叫牌）' : '登基（无牌可叫）'
}

/** At the table's end, who leads the running totals over all its deals (the last deal's verdict
 * below says only that deal): '本桌累计：冬梅 +15 居首' (ties named together). */
export function tableLead(view: BaohuangView): string {
  const best = Math.max(...view.seats.map((s) => s.total))
  const names = view.seats.filter((s) => s.total === best).map((s) => (s.seat === view.seat ? '你' : botless(s.name)))
  return `本桌累计：${names.join('、')} ${signed(best)} ${names.length > 1 ? '并列居首' : '居首'}`
}

/**
 * A choice that waits on me and wants my hand in sight: the throne offered to me, or my sealed
 * declaration not yet made (the emperor and a seat in 托管 have none). The page brings its panel up
 * so the hand below it shows too — on a phone the hand sat below the fold while she decided.
 */
export function myDecision(view: BaohuangView, pending: { seats?: number[]; my_move?: unknown } | null | undefined): 'throne' | 'declare' | null {
  const me = view.seat
  if (me === null || me === undefined) return null
  if (view.phase === 'throne') return view.candidate === me ? 'throne' : null
  if (view.phase !== 'declare' || view.emperor === me || view.seats[me]?.auto) return null
  return (pending?.seats ?? []).includes(me) && !pending?.my_move ? 'declare' : null
}

/** Who the pending step waits for, on my screen ('轮到你出牌' …). */
export function waitingText(view: BaohuangView, pendingSeats: readonly number[]): string {
  const me = view.seat
  const name = (s: number) => (s === me ? '你' : view.seats[s]?.name ?? `${s + 1}号`)
  switch (view.phase) {
    case 'throne':
      return view.candidate === null || view.candidate === undefined ? '' : `${name(view.candidate)}${view.candidate === me ? '来' : ''}决定是否登基`
    case 'declare':
      return '众人暗中声明'
    case 'play':
      return view.turn === null || view.turn === undefined ? '' : view.turn === me ? '轮到你出牌' : `轮到${name(view.turn)}出牌`
    case 'between':
      return pendingSeats.length ? `等待 ${pendingSeats.map(name).join('、')} 继续` : ''
    default:
      return ''
  }
}

/**
 * 接风: the seat to lead after the trick winner went out. When the trick last won (the server's
 * `last_trick`) went to a player with no cards left and another seat now leads, that seat 接风.
 */
export function jiefeng(view: BaohuangView): { from: number; to: number } | null {
  if (view.phase !== 'play' || view.trick || view.turn === null || view.turn === undefined) return null
  const won = view.last_trick
  if (!won || won.seat === view.turn) return null
  const winner = view.seats[won.seat]
  if (!winner || winner.cards > 0) return null
  return { from: won.seat, to: view.turn }
}

/** One line of a deal's public log, in Chinese. */
export function logLine(entry: LogEntry, names: readonly string[]): string {
  const who = names[entry.seat] ?? `${entry.seat + 1}号`
  const auto = entry.auto ? '（托管）' : ''
  switch (entry.act) {
    case 'take':
      if (entry.note === 'open_solo') return `${who}登基，明独保${auto}`
      return entry.note ? `${who}登基，叫${faceLabel(entry.note)}${auto}` : `${who}登基${auto}`
    case 'yield':
      return `${who}让位${auto}`
    case 'rebel':
      return `${who}造反`
    case 'grab':
      return `${who}抢独成功`
    case 'reveal':
      return entry.note === 'declared' ? `${who}明保` : `${who}亮明侍卫身份`
    case 'play':
      return `${who}出 ${playLabel(entry.cards ?? [])}${auto}`
    case 'pass':
      return `${who}不出${auto}`
    case 'quit':
      return `${who}强退`
    case 'kick':
      return `${who}被请出`
    default:
      return `${who} ${entry.act}`
  }
}

/**
 * Under the play buttons: how many plays she has and which hint is raised. The view lists at most 50
 * hints, cheapest first (`hints` of `hints_total`); when there are more, the line says 提示 goes round
 * those 50 — otherwise its 50th would wrap to the 1st while 「可出 278 种」 promised more.
 */
export function hintLine(total: number, listed: number, at: number): string {
  if (!total) return ''
  const capped = listed < total
  if (at < 0) return capped ? `可出 ${total} 种；「提示」由小到大轮换其中 ${listed} 种` : `可出 ${total} 种`
  return capped ? `可出 ${total} 种，提示第 ${at + 1}/${listed} 种（由小到大）` : `可出 ${total} 种，提示第 ${at + 1} 种`
}

/** The trick on the table in words: '华妃的 ♠7 ♥7'. */
export function trickText(view: BaohuangView): string {
  if (!view.trick) return ''
  const name = view.trick.seat === view.seat ? '你' : view.seats[view.trick.seat]?.name ?? ''
  return `${name}的 ${view.trick.cards.map(cardLabel).join(' ')}`
}

export interface ScoreRow {
  seat: number
  name: string
  place: number | null
  score: number
  total: number
  role: string
}

/** The score table of a finished deal from its result (the API's /result), in seat order. */
export function scoreRows(outcome: Outcome): ScoreRow[] {
  const x = outcome.extra
  return outcome.results.map((r) => {
    const roles: string[] = []
    if (x.emperor === r.seat) roles.push(x.solo === 'open' ? '皇帝·明独保' : x.solo === 'hidden' ? '皇帝·暗独保' : '皇帝')
    if (x.guard === r.seat && x.emperor !== r.seat) roles.push(x.open_guard ? '侍卫·明保' : '侍卫')
    if (x.rebels.includes(r.seat)) roles.push('锄')
    if (x.left_seat === r.seat) roles.push(`强退 ${signed(-Math.abs(x.penalty ?? 30))}`)
    return {
      seat: r.seat,
      name: r.name ?? `${r.seat + 1}号`,
      place: r.place ?? null,
      score: r.score,
      total: x.totals[r.seat] ?? 0,
      role: roles.join(' '),
    }
  })
}

export interface DealVerdict {
  /** 皇帝方胜 / 造反方胜 (平民方胜 when nobody declared 造反) / 平局, or how the deal was cut short. */
  text: string
  side: 'emperor' | 'rebels' | 'draw' | 'void'
  /** The deal's multiplier when above 1, with why ('×2 明保', '×4 明保·造反成功'), else ''. */
  times: string
}

const WINNER_TEXT = { emperor: '皇帝方胜', rebels: '平民方胜', draw: '平局' } as const

/**
 * Who won the deal: the server's `extra.winner`. It is null for a deal cut short by 强退 or 请出,
 * which has no winner (said as such).
 */
export function dealVerdict(outcome: Outcome): DealVerdict {
  const x = outcome.extra
  const winner = x.winner ?? null
  if (winner === null) {
    const text = outcome.reason === 'quit' ? '有人强退 · 不计胜负' : outcome.reason === 'kicked' ? '有人被请出 · 不计胜负' : '不计胜负'
    return { text, side: 'void', times: '' }
  }
  // the three's side is 造反方 only when one of them declared 造反 (seed: 造反者显示锄头标识)
  const text = winner === 'rebels' && x.rebels.length ? '造反方胜' : WINNER_TEXT[winner]
  const why = (x.doubled ?? []).join('·')
  return { text, side: winner, times: x.multiplier > 1 ? `×${x.multiplier}${why ? ` ${why}` : ''}` : '' }
}

/** The last deal in a line over the table: '第1局 皇帝方胜×2 · 你 −3 · 复盘 ›'. */
export function lastDealLine(outcome: Outcome, me: number | null): string {
  const v = dealVerdict(outcome)
  const mine = me === null ? undefined : outcome.results.find((r) => r.seat === me)
  return [`第${dealNo(outcome)}局 ${v.text}${v.times}`, mine ? `你 ${signed(mine.score)}` : '', '复盘 ›'].filter(Boolean).join(' · ')
}

/**
 * Getting up from the table, asked first with its sheet: 退出 mid-deal costs her 30, 离桌 between
 * deals costs nothing; either ends the table for all five (保皇 is not played with four). In a 练习局
 * (`room.practice`: a bot at the table) the −30 is this table's score only: a practice game reaches no
 * board and no 战绩 (platform P1) — `exitText`.
 */
export const EXIT_SHEET = {
  quit: {
    title: '强行退出', text: '对局中强行退出将被扣去 30 分（−30），本桌随即结束。', ok: '确定退出',
    practice: '对局中强行退出，本桌比分记你 −30；这是练习局，不计入任何榜单与战绩。本桌随即结束。',
  },
  leave: { title: '离桌', text: '此时离桌不扣分；但保皇须五人成局，你一走，本桌即散，五人都不能再开下一局。', ok: '确定离桌' },
  // asked only when the server says she is the last person playing (`last_player`)
  auto: { title: '托管', text: '在座只剩你一人在打：托管后，这一局打完本桌即结束。', ok: '仍要托管' },
} as const
export type ExitKind = keyof typeof EXIT_SHEET

/** The getting-up sheet's words: a 练习局's 退出 says where its −30 counts (this table only). */
export function exitText(kind: ExitKind, practice: boolean): string {
  return kind === 'quit' && practice ? EXIT_SHEET.quit.practice : EXIT_SHEET[kind].text
}

/** '+4', '0', '−2'. */
export function signed(n: number): string {
  if (n > 0) return `+${n}`
  if (n < 0) return `−${Math.abs(n)}`
  return '0'
}

/** The deal number of a result unit ('deal-3' → 3). */
export function dealNo(outcome: Outcome): number {
  return Number(outcome.unit.replace(/^deal-/, '')) || 0
}

/** Seconds between one new word and the next as the bubbles come up. */
export const WORD_GAP_S = 0.45

/**
 * The words (出牌 / 不出) the others said since the table was last seen, in the order they were said:
 * seat -> its place in that order. Bots answer within the same request, so a play of hers comes back
 * with theirs already made; the bubbles then come up one after another, as at a real table, instead of
 * all at once (the felt shows where the trick stands at once).
 */
export function freshWords(said: readonly LogEntry[], me: number | null | undefined): Map<number, number> {
  const order = new Map<number, number>()
  let n = 0
  for (const entry of said) {
    if ((entry.act !== 'play' && entry.act !== 'pass') || entry.seat === me) continue
    order.set(entry.seat, n++)
  }
  return order
}
