import { View } from '@tarojs/components'
import { api } from '../../api'
import { goLobby } from '../../lib/nav'
import { SealButton } from '../SealButton'
import { GuideButton } from '../guide/GuideButton'
import { JoinSeat } from './JoinSeat'
import type { LeaveEffect } from '../../lib/leave'
import { LeaveButton } from './LeaveButton'

type Run = (key: string, fn: () => Promise<unknown>) => Promise<unknown>

export interface WaitingRoom {
  id: string
  game: string
  is_creator: boolean
  has_password: boolean
  leave?: LeaveEffect | null
  seats: { is_me: boolean; bot?: string | null; name: string; seat: number }[]
  min_seats: number
  max_seats: number
}

/** The waiting room's buttons: back to the lobby; 玩法 (the game's rules); the creator's start once enough have joined
 * (`startLabel`: 开战, 开始布置 …); 离席 for a seated player (confirmed when the server says it closes the
 * room or passes 房主 on), who then goes back to the lobby; 入席 for a spectator while a seat is free. */
export function WaitingActions({ room, seated, canSit, busy, run, startLabel, refresh, onError }: {
  room: WaitingRoom
  seated: boolean
  /** She may take a seat (a spectator; a host does not sit). */
  canSit: boolean
  busy?: string
  run: Run
  startLabel: string
  refresh: () => void
  onError: (e: unknown) => void
}) {
  const path = { params: { path: { room_id: room.id } } }
  return (
    <View className='room-actions'>
      <SealButton kind='ghost' onClick={() => void goLobby()}>回大厅</SealButton>
      <GuideButton gameKey={room.game} size='normal' />
      {room.is_creator && room.seats.length >= room.min_seats ? (
        <SealButton kind='gold' busy={busy === 'start'} onClick={() => void run('start', () => api.POST('/v1/rooms/{room_id}/start', path))}>{startLabel}</SealButton>
      ) : null}
      {seated ? (
        <LeaveButton room={room} busy={busy === 'leave'} kind='zhu' onLeave={() => void run('leave', async () => {
          await api.POST('/v1/rooms/{room_id}/leave', path)
          void goLobby()
        })} />
      ) : null}
      {!seated && canSit && room.seats.length < room.max_seats ? <JoinSeat room={room} onJoined={refresh} onError={onError} /> : null}
    </View>
  )
}
