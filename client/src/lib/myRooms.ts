/**
 * The 暗号 she typed on this phone for each room (creating it, or to get in) — the server keeps only
 * its hash — so the waiting room can show the creator her own 暗号. Kept per account in Taro storage.
 * (「我的对局」 itself is the server's: GET /v1/me/rooms.)
 */
import { taroStore, type KeyValueStore } from '../api/session'

export interface RememberedRoom {
  id: string
  game: string
  /** The 暗号 she typed for this room (creating it, or to get in), if any. */
  password?: string
  at: number
}

/** At most this many rooms are remembered (the oldest go first). */
export const KEEP = 20

const keyOf = (userId: string) => `shengong.rooms.${userId}`

export function listRooms(userId: string, store: KeyValueStore = taroStore): RememberedRoom[] {
  const raw = store.get(keyOf(userId))
  if (!raw) return []
  try {
    const rows = JSON.parse(raw) as unknown
    return Array.isArray(rows) ? rows.filter((r): r is RememberedRoom => !!r && typeof r.id === 'string' && typeof r.game === 'string') : []
  } catch {
    return []
  }
}

function save(userId: string, rows: RememberedRoom[], store: KeyValueStore) {
  store.set(keyOf(userId), JSON.stringify(rows.slice(0, KEEP)))
}

/** Remember a room (newest first); a 暗号 already known is kept unless a new one is given. */
export function rememberRoom(userId: string, room: { id: string; game: string; password?: string | null }, store: KeyValueStore = taroStore, now = Date.now()) {
  const rows = listRooms(userId, store)
  const old = rows.find((r) => r.id === room.id)
  const password = room.password || old?.password
  const row: RememberedRoom = { id: room.id, game: room.game, at: now, ...(password ? { password } : {}) }
  save(userId, [row, ...rows.filter((r) => r.id !== room.id)], store)
}

export function passwordOf(userId: string | undefined, roomId: string, store: KeyValueStore = taroStore): string | undefined {
  if (!userId) return undefined
  return listRooms(userId, store).find((r) => r.id === roomId)?.password
}

/** 再战 keeps the finished room's 暗号 (platform P13): the one she typed for that room is remembered for
 * the new one, so its waiting room shows it to her as it did the first (a 暗号-less room takes none). */
export function carryPassword(userId: string | undefined, fromRoomId: string, to: { id: string; game: string; has_password: boolean },
  store: KeyValueStore = taroStore, now = Date.now()) {
  if (!userId || !to.has_password) return
  const password = passwordOf(userId, fromRoomId, store)
  if (password) rememberRoom(userId, { id: to.id, game: to.game, password }, store, now)
}
