/** Moving between pages the same way on both targets. */
import Taro from '@tarojs/taro'
import { taroStore, type KeyValueStore } from '../api/session'

export const LOBBY = '/pages/lobby/index'

/**
 * Back to the lobby. Back through the page stack only when there is a page to go back to: on H5 a
 * page opened by a link or a reload is alone in the stack, and navigateBack then neither navigates
 * nor fails — so it is never asked to.
 */
export function goLobby(): Promise<unknown> {
  const pages = Taro.getCurrentPages?.() ?? []
  if (pages.length > 1) return Promise.resolve(Taro.navigateBack()).catch(() => Taro.switchTab({ url: LOBBY }))
  return Promise.resolve(Taro.switchTab({ url: LOBBY }))
}

export const LOGIN = '/pages/login/index'

/** The pages of the tab bar: reached with switchTab (and never carrying a query). */
export const TAB_PAGES = ['/pages/lobby/index', '/pages/boards/index', '/pages/me/index']

/** Where she was going when the gate sent her to log in, kept across the login (and an H5 reload). */
const RETURN_KEY = 'shengong.return'
/** A page remembered longer ago than this is not where she is going now. */
export const RETURN_TTL_MS = 60 * 60 * 1000

/** A page as Taro's router names it (useRouter(), getCurrentInstance().router). */
export interface PageRouter {
  path?: string
  params?: Record<string, string | undefined>
}

function decoded(v: string): string {
  try {
    return decodeURIComponent(v)
  } catch {
    return v
  }
}

/**
 * The page's address to come back to: its path without a query (H5 puts Taro's `stamp` there) and
 * the params her link or 转发 card gave it (`?id=…`), without Taro's own (`$taroTimestamp`, `stamp`).
 * Null for no page or the login page.
 */
export function pageUrl(router: PageRouter | null | undefined): string | null {
  const raw = router?.path?.split('?')[0]
  if (!raw) return null
  const path = raw.startsWith('/') ? raw : `/${raw}`
  if (!/^\/pages\/[\w-]+\/index$/.test(path) || path === LOGIN) return null
  const query = Object.entries(router?.params ?? {})
    .filter(([k, v]) => v !== undefined && !k.startsWith('$') && k !== 'stamp')
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(decoded(String(v)))}`)
    .join('&')
  return query ? `${path}?${query}` : path
}

/** Remember the page she was sent away from to log in (a room's link, a WeChat 转发 card). */
export function rememberReturn(router: PageRouter | null | undefined, store: KeyValueStore = taroStore, now = Date.now()): void {
  const url = pageUrl(router)
  if (url) store.set(RETURN_KEY, JSON.stringify({ url, at: now }))
  else store.remove(RETURN_KEY)
}

/** The page to go to after logging in, once (forgotten as it is read); null when none or too old. */
export function takeReturn(store: KeyValueStore = taroStore, now = Date.now()): string | null {
  const raw = store.get(RETURN_KEY)
  if (!raw) return null
  store.remove(RETURN_KEY)
  try {
    const { url, at } = JSON.parse(raw) as { url?: unknown; at?: unknown }
    if (typeof url !== 'string' || typeof at !== 'number' || now - at > RETURN_TTL_MS) return null
    return /^\/pages\/[\w-]+\/index(\?.*)?$/.test(url) && pathOf(url) !== LOGIN ? url : null
  } catch {
    return null
  }
}

const pathOf = (url: string) => url.split('?')[0]

/** In after logging in: back to the page she was going to (a tab by switchTab, any other page in
 * place of the login page), else the lobby. */
export function enterAfterLogin(store: KeyValueStore = taroStore): Promise<unknown> {
  const url = takeReturn(store)
  if (!url) return Promise.resolve(Taro.switchTab({ url: LOBBY }))
  if (TAB_PAGES.includes(pathOf(url))) return Promise.resolve(Taro.switchTab({ url: pathOf(url) }))
  return Promise.resolve(Taro.reLaunch({ url })).catch(() => Taro.switchTab({ url: LOBBY }))
}

/** To the login page, remembering the page she is on (`router`) to come back to after it. */
export function toLogin(router: PageRouter | null | undefined): Promise<unknown> {
  rememberReturn(router)
  return Promise.resolve(Taro.reLaunch({ url: LOGIN }))
}

const BOARD_KEY = 'shengong.board'
export const BOARDS = '/pages/boards/index'

/** To the boards tab showing `board` (e.g. 'cards-tournament': the room's, as the server names it):
 * a tab takes no query, so the wish waits in storage for the boards page to read on show. */
export function goBoards(board: string | null | undefined, store: KeyValueStore = taroStore): Promise<unknown> {
  if (board) store.set(BOARD_KEY, board)
  return Promise.resolve(Taro.switchTab({ url: BOARDS }))
}

/** The board asked for by goBoards, split as the boards page shows it ({game: 'cards', kind:
 * 'tournament'}), once (forgotten as it is read); null when none was asked for. */
export function takeBoard(store: KeyValueStore = taroStore): { game: string; kind: 'free' | 'tournament' } | null {
  const raw = store.get(BOARD_KEY)
  if (!raw) return null
  store.remove(BOARD_KEY)
  const m = /^([a-z]+)-(free|tournament)$/.exec(raw)
  return m ? { game: m[1], kind: m[2] as 'free' | 'tournament' } : null
}
