/** 「我的对局」: the remembered rooms checked against the server (GET /v1/rooms/{id}). */
import { ApiError } from '../../api/errors'
import { roleLabel, STATUS } from '../../lib/labels'
import { forgetRooms, listRooms, verdictOf, type SummaryLike } from '../../lib/myRooms'

export interface MyGame<S> {
  id: string
  game: string
  summary: S
}

/**
 * Ask for each remembered room's summary: the ones to show, in the order remembered (newest first);
 * ended rooms and rooms that are gone are forgotten; one that did not answer stays for next time.
 */
export async function loadMyGames<S extends SummaryLike>(userId: string, ask: (id: string) => Promise<S>): Promise<MyGame<S>[]> {
  const rows = listRooms(userId)
  const answers = await Promise.all(rows.map(async (r) => {
    try {
      return { r, summary: await ask(r.id) }
    } catch (e) {
      return { r, error: e }
    }
  }))
  const forget: string[] = []
  const shown: MyGame<S>[] = []
  for (const a of answers) {
    if ('summary' in a && a.summary) {
      const v = verdictOf(a.summary)
      if (v === 'forget') forget.push(a.r.id)
      if (v === 'show') shown.push({ id: a.r.id, game: a.r.game, summary: a.summary })
    } else if (a.error instanceof ApiError && (a.error.code === 'ROOM_NOT_FOUND' || a.error.status === 404)) {
      forget.push(a.r.id)
    }
  }
  forgetRooms(userId, forget)
  return shown
}

/** What the line under a game of hers reads from its summary. */
export interface LineSummary {
  room: { game: string; status: string; seats: { seat: number; is_me: boolean }[]; max_seats: number }
}

/** The line under a game of mine: where she sits (or that she runs it, in that game's word: 血染's
 * 说书人), and whether it waits for her. */
export function lineOf(s: LineSummary): string {
  const seat = s.room.seats.find((x) => x.is_me)
  const where = seat ? `第 ${seat.seat + 1} 席` : roleLabel('host', s.room.game)
  const parts = [where, STATUS[s.room.status] ?? s.room.status]
  if (s.room.status === 'open') parts.push(`${s.room.seats.length}/${s.room.max_seats} 席`)
  return parts.filter(Boolean).join(' · ')
}
