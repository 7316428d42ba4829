/**
 * 血染甄嬛传 as the screens show it: Chinese words for the API's keys, the night plan's order, the
 * town square's circle. The engine decides everything; these only arrange what it says.
 */
import type { Schemas } from '../../api'
import { clockText, secondsLeft } from '../baohuang/clock'

export type ZView = Schemas['ZhenhuanView']
export type RoomView = Schemas['ZhenhuanRoomViewOut']
export type GrimSeat = Schemas['ZhenhuanGrimSeat']
export type Grimoire = Schemas['ZhenhuanGrimoire']
export type NightView = Schemas['ZhenhuanNightView']
export type StepView = Schemas['ZhenhuanStepView']
export type StepRecord = Schemas['ZhenhuanStepRecord']
export type Status = Schemas['ZhenhuanStatus']
export type PublicSeat = Schemas['ZhenhuanPublicSeat']
export type PublicDay = Schemas['ZhenhuanPublicDay']
export type ButtonView = Schemas['ZhenhuanButtonView']
export type ZAction = Schemas['ZhenhuanAction']
export type RoleKey = Schemas['ZhenhuanRoleKey']
export type RoleCard = Schemas['ZhenhuanRoleCard']
export type StatusKind = Schemas['ZhenhuanStatusKind']
export type LogLine = ZView['log'][number]
export type Me = Schemas['ZhenhuanMe']

/** A role's name from the catalogue: 「…」 while it is still on its way (not its key — 「qiguiren、jinxi」
 * flashed on the storyteller's bluffs), the key only if the catalogue came without it. */
export function roleNamer(roles: RoleCard[] | undefined): (key: string) => string {
  return (key) => (roles ? roles.find((r) => r.key === key)?.name ?? key : '…')
}

/** The vote clock: its minutes and seconds, then 「时间到 · 计票中」 — the vote closes at the first ask after
 * its deadline, a moment later, and a clock resting on 0:00 looked stuck. */
export function voteClockText(ms: number): string {
  return secondsLeft(ms) > 0 ? clockText(ms) : '时间到 · 计票中'
}

/** Seats are 0-based in the API and 1-based ('3号') in every Chinese text. */
export function seatNo(seat: number): string {
  return `${seat + 1}号`
}

export const TEAM_NAME: Record<string, string> = {
  townsfolk: '村民', outsider: '外来者', minion: '爪牙', demon: '恶魔', traveller: '旅行者',
}
export const ALIGNMENT_NAME: Record<string, string> = { good: '善良阵营', evil: '邪恶阵营' }
export const STATUS_NAME: Record<StatusKind, string> = {
  poisoned: '中毒', drunk: '醉酒', pinned: '按住', protected: '受保护', marked: '一丈红', cursed: '诅咒', silenced: '禁言',
}
/** One character for a token on the circle. */
export const STATUS_SHORT: Record<StatusKind, string> = {
  poisoned: '毒', drunk: '醉', pinned: '按', protected: '护', marked: '红', cursed: '咒', silenced: '禁',
}
export const STATUS_KINDS = Object.keys(STATUS_NAME) as StatusKind[]

/** A reminder token on the circle: its name, or a short form of a long one (the sheet shows it whole). */
const REMINDER_SHORT: Record<string, string> = { 雨露均沾: '雨露', 全场醉酒: '全醉', 已被提名: '已提名', 强制处决: '强处' }
export function reminderShort(token: string): string {
  return REMINDER_SHORT[token] ?? (token.length <= 3 ? token : token.slice(0, 2))
}

/** Marks room on a token: more go under 「+n」 (all of them are in the seat's sheet). */
const MARKS_SHOWN = 4

/** What a seat's token shows: her statuses, then the reminders that say something the statuses do not
 * (a token of the role whose status is on her — 果郡王's 受保护 beside 护 — is the same fact twice). */
export function tokenMarks(seat: Pick<GrimSeat, 'statuses' | 'reminders'>): { statuses: GrimSeat['statuses']; reminders: GrimSeat['reminders']; more: number } {
  const sources = new Set(seat.statuses.map((s) => s.source).filter(Boolean))
  const reminders = seat.reminders.filter((r) => !(r.auto && r.role && sources.has(r.role)))
  const statuses = seat.statuses.slice(0, MARKS_SHOWN)
  const room = Math.max(0, MARKS_SHOWN - statuses.length)
  const shown = reminders.slice(0, room)
  return { statuses, reminders: shown, more: seat.statuses.length - statuses.length + reminders.length - shown.length }
}
/** Why a player died tonight, in words that say it whoever she is (「孙答应」 alone read as her role). */
export const DEATH_CAUSE: Record<Schemas['ZhenhuanDeathCause'], string> = {
  demon: '恶魔击杀', counter: '甄嬛反杀', niangengyao: '年羹尧带走', sanage: '三阿哥被处死', yurao: '玉娆连带',
  sundaying: '孙答应随狂徒', storyteller: '说书人「死亡」', curse: '安陵容诅咒', qiguiren: '祺贵人检举',
}
/** Tonight's deaths with their causes (and who did it), for the storyteller before 天亮 announces them
 * without: 「2号（安陵容诅咒）、7号（恶魔击杀，1号）」. */
export function nightDeathsText(deaths: NightView['deaths']): string {
  return deaths.map((d) => {
    const by = d.by !== null && d.by !== undefined && d.by !== d.seat ? `，${seatNo(d.by)}` : ''
    return `${seatNo(d.seat)}（${DEATH_CAUSE[d.cause]}${by}）`
  }).join('、')
}
export const ABILITY_NAME: Record<string, string> = {
  convert: '雨露均沾', revive: '复活', take: '带走', force_execution: '强制处决', chunyuan: '白月光', accuse: '检举',
  silence: '禁言', toast: '炫一个', guojunwang: '守护', chongfei: '按住',
}
export const TELL_CARD: Record<string, string> = {
  text: '文字', role: '你是', alignment: '阵营', seats: '这些玩家', seat_role: '某人是某角色', demon: '这是恶魔',
  minions: '这些是你的爪牙', bluffs: '这些角色不在场',
}
export const PHASE_NAME: Record<string, string> = { setup: '布置', night: '夜晚', day: '白天', over: '终局' }
export const UNTIL_NAME: Record<string, string> = { dusk: '到下一个黄昏', dawn: '到天亮', never: '永久' }

export function phaseTitle(v: Pick<ZView, 'phase' | 'number'>): string {
  if (v.phase === 'night') return `第${v.number}夜`
  if (v.phase === 'day') return `第${v.number}天`
  return PHASE_NAME[v.phase] ?? v.phase
}

/** When a status ends: '入第2夜时' (dusk), '第1夜天亮时' (dawn), '永久'. */
export function expiryText(until: Status['until']): string {
  if (!until) return '永久'
  return until.at === 'dusk' ? `入第${until.night}夜时` : `第${until.night}夜天亮时`
}

/** '中毒 · 来自安陵容（3号）· 至入第2夜时'. */
export function statusText(s: Status, roleName: (r: string) => string): string {
  const from = s.source ? `来自${roleName(s.source)}${s.source_seat !== null && s.source_seat !== undefined ? `（${seatNo(s.source_seat)}）` : ''}` : '说书人'
  return `${STATUS_NAME[s.kind]} · ${from} · 至${expiryText(s.until)}`
}

export interface PlanRow {
  step: StepView
  /** Its place in tonight's order (1-based). */
  order: number
  kind: 'current' | 'upcoming' | 'greyed' | 'passed' | 'done'
  /** Why it is greyed or what was recorded. */
  note: string
  /** A passed step she may reopen: not one the server says is greyed now (it would only be greyed again). */
  reopen: boolean
}

/**
 * The night plan as the storyteller reads it: the current step on top, then what is still to come in
 * the night's order (greyed steps where they fall, with the reason), then the steps already passed
 * (they may be reopened) and done (with what was recorded).
 */
export function nightPlan(night: NightView): PlanRow[] {
  const notes = new Map<string, StepRecord>()
  for (const r of night.records) notes.set(r.step, r)
  const rows = night.steps.map((step, i): PlanRow => {
    const rec = notes.get(step.key)
    const row = { step, order: i + 1, reopen: false }
    if (step.state === 'current') return { ...row, kind: 'current', note: '' }
    if (step.state === 'upcoming') {
      return step.disabled ? { ...row, kind: 'greyed', note: step.disabled } : { ...row, kind: 'upcoming', note: '' }
    }
    if (step.passed || rec?.skipped || rec?.disabled) {
      return { ...row, kind: 'passed', note: rec?.disabled ?? step.disabled ?? (rec?.skipped ? '已跳过' : '已略过'), reopen: !step.disabled }
    }
    return { ...row, kind: 'done', note: rec?.note ?? '' }
  })
  const rank = { current: 0, upcoming: 1, greyed: 1, passed: 2, done: 3 }
  return rows.slice().sort((a, b) => rank[a.kind] - rank[b.kind] || a.order - b.order)
}

/** The circle's radius in % of the square: a crowded square (more than 12 seats) uses more of it. */
const radius = (n: number) => (n > 12 ? 42 : 38)

/**
 * Where seat i of n sits on the town square, as percentages of the square: seat 1 at the top, then
 * clockwise, like the official town square.
 */
export function circlePosition(i: number, n: number): { left: number; top: number } {
  const angle = (2 * Math.PI * i) / Math.max(n, 1) - Math.PI / 2
  const r = radius(n)
  return { left: Math.round((50 + r * Math.cos(angle)) * 10) / 10, top: Math.round((50 + r * Math.sin(angle)) * 10) / 10 }
}

/** A crowded square (more than 12 seats): how wide each seat's slot may be, as a share of the square's
 * width, so that neighbours' names do not run into each other — the distance between two neighbours'
 * centres on the circle (less a little air). Up to 12 seats the slot keeps its 70 px. */
export function slotWidth(n: number): number | null {
  if (n <= 12) return null
  return Math.round((2 * radius(n) * Math.sin(Math.PI / n) - 1) * 10) / 10
}

/** A night answer in words (what the storyteller gives or the engine suggests). */
export function answerText(value: unknown, roleName: (r: string) => string): string {
  if (value === null || value === undefined) return '—'
  if (typeof value === 'boolean') return value ? '是' : '否'
  if (typeof value === 'number') return String(value)
  if (Array.isArray(value)) return value.length ? value.map((s) => seatNo(Number(s))).join('、') : '无'
  if (typeof value === 'object' && 'seat' in (value as object)) {
    const v = value as { seat: number; role: string }
    return `${seatNo(v.seat)}是${roleName(v.role)}`
  }
  return String(value)
}

export interface NamedButton {
  key: string
  label: string
  disabled: string | null
  impaired: string
  by: number | null
}

/**
 * The storyteller's buttons: the day buttons the grimoire lists (with the reason each is greyed), and
 * for 入夜 / 天亮 / 死亡 / 处决 / 醉酒 not listed now, the server's own reason from `/check`.
 */
export const CORE_BUTTONS: { key: string; label: string }[] = [
  { key: 'dusk', label: '入夜' },
  { key: 'dawn', label: '天亮' },
  { key: 'kill', label: '死亡' },
  { key: 'execute', label: '处决' },
  { key: 'drunk', label: '醉酒' },
]

export function storytellerButtons(g: Grimoire, checked: Record<string, string | null>): NamedButton[] {
  const out: NamedButton[] = CORE_BUTTONS.map(({ key, label }) => {
    const listed = g.buttons.find((b) => b.type === key && (b.by === null || b.by === undefined))
    if (listed) return { key, label: listed.label || label, disabled: listed.disabled ?? null, impaired: listed.impaired ?? '', by: null }
    return { key, label, disabled: key in checked ? checked[key] : null, impaired: '', by: null }
  })
  for (const b of g.buttons) {
    if (CORE_BUTTONS.some((c) => c.key === b.type) && (b.by === null || b.by === undefined)) continue
    out.push({ key: b.by !== null && b.by !== undefined ? `${b.type}-${b.by}` : b.type, label: b.label, disabled: b.disabled ?? null, impaired: b.impaired ?? '', by: b.by ?? null })
  }
  return out
}

/** The action a core button stands for, with a placeholder seat (for asking `/check` why it is greyed). */
export function probeAction(key: string, seat: number): ZAction | null {
  switch (key) {
    case 'dusk': return { type: 'dusk', execute_block: true }
    case 'dawn': return { type: 'dawn' }
    case 'kill': return { type: 'kill', seat }
    case 'execute': return { type: 'execute', seat }
    case 'drunk': return { type: 'drunk', seat }
    default: return null
  }
}

/** What a player has been told, newest last, as plain lines. */
export function toldLines(me: Me | null | undefined): string[] {
  return (me?.info ?? []).map((l) => l.text)
}

/**
 * What a hand is for, beyond its body (`{type: 'vote', yes}` is the same in every vote): the day, which
 * nomination, whom — so a key kept after one vote's lost answer is never sent with the next vote's hand.
 */
export function handIntent(day: Pick<PublicDay, 'number' | 'nominations' | 'vote'> | null | undefined, yes: boolean): unknown {
  return { vote: [day?.number ?? null, day?.nominations.length ?? null, day?.vote?.nominee ?? null], yes }
}

/** A dead player's line about her ghost vote, from her seat (`ghost_vote`) and her hand in the open
 * vote: raised, the vote is being spent on it (the seat's 「票」 stays until the vote closes). */
export function ghostVoteText(ghostVote: boolean, hand: { yes: boolean } | undefined): string {
  if (ghostVote && hand?.yes) return '你的幽灵票正用在这次投票上：投票结束时用掉（座位上的「票」那时收起），此后投票不再举手。'
  if (ghostVote) return '你还留有一张幽灵票：可在任意一次投票中举手，只此一次。'
  return '你的幽灵票已经用掉，此后投票不再举手。'
}

/**
 * 入夜 (or 开始) pressed at the buttons below the day: the night's first step is above, where the day's
 * panel was, and she would be left reading the log. True when the phase turns to night while she looks;
 * a page opened at night stays where it is.
 */
export function nightBegan(before: string | undefined, now: string | undefined): boolean {
  return before !== undefined && before !== 'night' && now === 'night'
}

/** Tonight's steps not yet done that still wake someone (a step greyed with its reason wakes no one). */
export function stepsLeft(night: NightView | null | undefined): string[] {
  return (night?.steps ?? []).filter((s) => s.state !== 'done' && !s.disabled).map((s) => s.label.split('：')[0])
}

/** What 天亮 asks before it skips steps; the steps may all be done by then (on another phone, or
 * while the sheet was open), and then it says so. */
export function dawnText(left: readonly string[]): string {
  return left.length ? `今夜还有 ${left.length} 步未进行：${left.join('、')}。天亮后这些步骤跳过，记入记录。` : '今夜的步骤都已进行完毕，可以天亮。'
}

/** The open vote's hands as they are counted, round the circle from the nominee's left with the
 * nominee last (not in the order they came in); `yes` null: still to come. */
export function handsRound(vote: NonNullable<PublicDay['vote']>, count: number): { seat: number; yes: boolean | null }[] {
  const round = (s: number) => (s - vote.nominee - 1 + count) % count
  return [...vote.hands.map((h) => ({ seat: h.seat, yes: h.yes as boolean | null })), ...vote.waiting.map((s) => ({ seat: s, yes: null }))]
    .sort((a, b) => round(a.seat) - round(b.seat))
}

/** What became of a nomination not (yet) counted: its vote is on, still to come, or will not come —
 * the day's execution ended nominating (纯元皇后's nominator executed instead, say). */
export function nominationState(day: Pick<PublicDay, 'vote' | 'executed'>, nominee: number): string {
  if (day.vote?.nominee === nominee) return '投票中'
  return day.executed !== null && day.executed !== undefined ? '未投票（今日已处决）' : '待投票'
}
