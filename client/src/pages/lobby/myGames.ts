/** 「我的对局」: her rooms still open or under way, as the server keeps them (GET /v1/me/rooms). */
import type { Schemas } from '../../api/types'
import { roleLabel, seatLabel, STATUS } from '../../lib/labels'

export type MyRoom = Schemas['MyRoomOut']

/** The line under a game of mine: where she sits (or that she runs it, in that game's word: 血染's
 * 说书人), and whether it waits for her. */
export function lineOf(r: Pick<MyRoom, 'game' | 'status' | 'seat' | 'seat_count' | 'max_seats'>): string {
  const where = r.seat !== null ? seatLabel(r.seat, r.game) : roleLabel('host', r.game)
  const parts = [where, STATUS[r.status] ?? r.status]
  if (r.status === 'open') parts.push(`${r.seat_count}/${r.max_seats} 席`)
  return parts.filter(Boolean).join(' · ')
}

/** The panel's count: how many, and how many wait on her. */
export function countLine(rows: Pick<MyRoom, 'my_turn'>[]): string {
  const waiting = rows.filter((r) => r.my_turn).length
  return waiting ? `${rows.length} 局 · ${waiting} 局轮到你` : `${rows.length} 局`
}
