/** Chinese words for the API's English keys (game families, statuses, boards, option names). */

import { ApiError } from '../api/errors'

export type Family = 'shengong' | 'baohuang' | 'zhenhuan'

/** shengong_a/b/c/d → shengong; baohuang; zhenhuan. */
export function familyOf(gameKey: string): Family {
  if (gameKey.startsWith('shengong')) return 'shengong'
  if (gameKey.startsWith('baohuang')) return 'baohuang'
  return 'zhenhuan'
}

/** The room page of a game family. */
export function familyRoomUrl(family: Family, roomId: string): string {
  return `/pages/room-${family}/index?id=${encodeURIComponent(roomId)}`
}

/** The room page of a game's family. */
export function roomUrl(gameKey: string, roomId: string): string {
  return familyRoomUrl(familyOf(gameKey), roomId)
}

/**
 * The game family a refusal names for its room (`details.family`): a room of another game
 * (WRONG_FAMILY) or one locked by 暗号 (PASSWORD_REQUIRED). Undefined when it names none we have a page for.
 */
export function familyOfError(e: unknown): Family | undefined {
  if (!(e instanceof ApiError) || (e.code !== 'WRONG_FAMILY' && e.code !== 'PASSWORD_REQUIRED')) return undefined
  const family = e.details?.family
  return family === 'shengong' || family === 'baohuang' || family === 'zhenhuan' ? family : undefined
}

/** What the room's title adds to the game's (the server names the 关卡 or the 保皇 牌制): '关卡2'. */
export function titleTag(roomTitle: string, gameTitle: string): string {
  if (roomTitle === gameTitle) return ''
  return roomTitle.startsWith(gameTitle) ? roomTitle.slice(gameTitle.length).replace(/^[·・\s]+/, '') : roomTitle
}

export const STATUS: Record<string, string> = {
  open: '候场',
  active: '对局中',
  finished: '已终局',
  expired: '已散场',
  abandoned: '已弃局',
}

export const COMPETITION: Record<string, string> = {
  free: '自由赛',
  tournament: '锦标赛',
}

/** A viewer's place in a room. */
export const ROLE: Record<string, string> = {
  player: '入席',
  spectator: '观战',
  host: '主持',
}

/** Who runs a room: 血染's storyteller is 说书人; a 深宫杀 锦标赛 is run by the 司礼; elsewhere 主持. */
export const HOST_TITLE: Record<Family, string> = {
  zhenhuan: '说书人',
  shengong: '司礼',
  baohuang: '主持',
}

/** Her seat (0-based) in that game's words: 血染's numbered seats around the storyteller (「3号座」),
 * elsewhere 「第 3 席」. */
export function seatLabel(seat: number, gameKey: string): string {
  return familyOf(gameKey) === 'zhenhuan' ? `${seat + 1}号座` : `第 ${seat + 1} 席`
}

/** A viewer's place in a room of this game, in that game's words. */
export function roleLabel(role: string, gameKey: string): string {
  if (role === 'host') return HOST_TITLE[familyOf(gameKey)]
  return ROLE[role] ?? role
}

/** An account's role. */
export const USER_ROLE: Record<string, string> = {
  player: '宫中佳丽',
  admin: '司礼 · 掌宫中诸事',
}

export const BOARD_GAMES: { key: string; title: string; short: string }[] = [
  { key: 'coop', title: '宫斗杀', short: '宫斗杀' },
  // modes A (竞技局) and B (宫女局) share one board
  { key: 'melee', title: '竞技·宫女局', short: '竞技·宫女' },
  { key: 'cards', title: '深宫杀·卡牌', short: '卡牌局' },
  { key: 'baohuang', title: '保皇', short: '保皇' },
]

export const BOARD_KINDS: { key: 'free' | 'tournament'; title: string }[] = [
  { key: 'free', title: '自由赛' },
  { key: 'tournament', title: '锦标赛' },
]

/** 'coop-free' → '宫斗杀 · 自由赛'. */
export function boardTitle(board: string): string {
  const [game, kind] = board.split('-')
  const g = BOARD_GAMES.find((b) => b.key === game)?.title ?? game
  const k = BOARD_KINDS.find((b) => b.key === kind)?.title ?? kind ?? ''
  return k ? `${g} · ${k}` : g
}

export const STAGES = [1, 2, 3]
export const STAGE_NAME: Record<number, string> = { 1: '关卡1', 2: '关卡2', 3: '关卡3' }

/** Option names in the create-room dialog, by JSON-schema property name. */
export const OPTION_LABEL: Record<string, string> = {
  stage: '关卡',
  turn_seconds: '每回合时限（秒）',
  variant: '牌制',
  baoliu: '保六（六须留到最后一手）',
  script: '剧本',
  mass_drunk_scope: '孙答应醉倒范围',
  auto_end: '胜负已分即终局',
}

/** Enum values in the create-room dialog. */
export const ENUM_LABEL: Record<string, Record<string, string>> = {
  stage: { 1: '关卡1', 2: '关卡2', 3: '关卡3' },
  variant: { simple: '简明 · 168 张', classic: '经典 · 216 张' },
  mass_drunk_scope: { all: '全体', good: '仅好人' },
  script: { zhenhuan: '甄嬛传' },
}

/** Read-only fixed rules shown in the dialog. */
export const RULE_LABEL: Record<string, string> = {
  round_limit: '回合上限',
  end: '终局',
}

export const RARITY_ORDER = ['SSR', 'SR', 'R']
export const RARITY_NAME: Record<string, string> = { SSR: '绝品', SR: '珍品', R: '良品' }
export const SLOT_NAME: Record<string, string> = { attack: '攻', defence: '守', general: '辅' }

/** 宫女图鉴's word to a 妃子 with no 宫女 yet: where they come from and which ones play (seed C①: only R
 * cards enter a deck). null once she has one. */
export function noMaidsHint(held: number): string | null {
  return held > 0 ? null : '尚无宫女在侧。宫女由司礼赏赐；良品（R）在深宫杀里生效，珍品、绝品只作收藏'
}

const CN_DIGITS = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九', '十']
/** A bot's seat name without its 「（机器人）」, where a badge or mark beside it says so already. */
export function botless(name: string): string {
  return name.replace(/（机器人）$/, '')
}

export function cnNumber(n: number): string {
  if (n >= 0 && n <= 10) return CN_DIGITS[n]
  if (n < 20) return `十${CN_DIGITS[n - 10]}`
  return String(n)
}

export function hasCjk(s: string | undefined): boolean {
  return !!s && /[\u4e00-\u9fff]/.test(s)
}

/** A fastest-clear team as the board shows it (seed ⑦: 保留小组三人姓名与各自积分): every name with her
 * score, one who never moved marked 未出手 (she earned no record or unlock from it); one entry a member,
 * so a screen can keep each on one line (a name never breaks in two). */
export function teamMembers(team: { name: string; played?: boolean; score?: number }[]): string[] {
  return team.map((m) => {
    const name = m.played === false ? `${m.name}（未出手）` : m.name
    return m.score === undefined ? name : `${name} ${scoreText(m.score)} 分`
  })
}

/** The team on one line: 「甄嬛 82 分、沈眉庄 80 分、安陵容 90 分」. */
export function teamText(team: { name: string; played?: boolean; score?: number }[]): string {
  return teamMembers(team).join('、')
}

/** A score or figure with at most two decimals (卡牌局's 30.16 is not 30), a loss with the typographic
 * minus (U+2212, as 保皇's score table): '−12', '8.6', '30.16'. */
export function scoreText(x: number): string {
  const n = Math.round(x * 100) / 100
  return n < 0 ? `−${-n}` : String(n === 0 ? 0 : n)
}

export function percent(x: number): string {
  return `${Math.round(x * 100)}%`
}

export function shortDate(ms: number): string {
  const d = new Date(ms)
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${d.getMonth() + 1}月${d.getDate()}日 ${pad(d.getHours())}:${pad(d.getMinutes())}`
}
