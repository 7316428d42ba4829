/**
 * Compile-time tests of the typed client, checked by `npm run typecheck` (tsc --strict --noEmit):
 * valid calls compile; a wrong path, a missing field and a wrong enum value do not. Never run.
 */
import type { ApiClient } from './client'

declare const api: ApiClient

export async function valid(): Promise<void> {
  const rooms = await api.GET('/v1/rooms', { params: { query: { game: 'shengong_d' } } })
  const first: string | undefined = rooms.rooms[0]?.id
  const view = await api.POST('/v1/rooms', { body: { game: 'shengong_d', options: { stage: 1 } } })
  const status: string = view.room.status
  const me = await api.GET('/v1/me')
  const looks: number | undefined = me.consort?.looks
  const answer = await api.GETIfChanged('/v1/rooms/{room_id}', '"etag"', { params: { path: { room_id: 'r1' } } })
  const seats: number | undefined = answer.data?.room.seats.length
  await api.POST('/v1/rooms/{room_id}/join', { params: { path: { room_id: 'r1' } }, body: { password: '暗号' } })
  const act = await api.POST('/v1/games/shengong/rooms/{room_id}/actions', {
    params: { path: { room_id: 'r1' } },
    body: { step: 1, action: { type: 'assassinate', target: 0 } },
  })
  void [first, status, looks, seats, act]
}

export async function invalid(): Promise<void> {
  // @ts-expect-error a path the API does not have
  await api.GET('/v1/roomz')
  // @ts-expect-error GET on a POST-only path
  await api.GET('/v1/auth/dev')
  // @ts-expect-error the path parameter room_id is missing
  await api.GET('/v1/rooms/{room_id}', { params: { path: {} } })
  // @ts-expect-error the required path parameter `board` is missing
  await api.GET('/v1/boards/{board}', { params: {} })
  // @ts-expect-error a game key that is not in the enum
  await api.GET('/v1/rooms', { params: { query: { game: 'chess' } } })
  // @ts-expect-error the required body field `name` is missing
  await api.POST('/v1/auth/dev', { body: {} })
  // @ts-expect-error a wrong enum value for an action's `type`
  await api.POST('/v1/games/shengong/rooms/{room_id}/actions', { params: { path: { room_id: 'r1' } }, body: { step: 1, action: { type: 'fly' } } })
  // @ts-expect-error a 保皇 action sent to a 深宫杀 room
  await api.POST('/v1/games/shengong/rooms/{room_id}/actions', { params: { path: { room_id: 'r1' } }, body: { step: 1, action: { type: 'pass' } } })
  // @ts-expect-error a wrong enum value for 保皇's variant
  await api.POST('/v1/rooms', { body: { game: 'baohuang', options: { variant: 'bogus' } } })
  const me = await api.GET('/v1/me')
  // @ts-expect-error a field the response does not have
  void me.user.nickname
}
