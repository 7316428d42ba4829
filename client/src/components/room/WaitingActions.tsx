import { View } from '@tarojs/components'
import { api } from '../../api'
import { SealButton } from '../SealButton'

type Run = (key: string, fn: () => Promise<unknown>) => Promise<unknown>

/** The waiting room's buttons: back to the lobby; the creator's start once enough have joined
 * (`startLabel`: 开战, 开始布置 …); 离席 for a seated player, who then goes back to the lobby. */
export function WaitingActions({ room, seated, busy, run, lobby, startLabel }: {
  room: { id: string; is_creator: boolean; seats: unknown[]; min_seats: number }
  seated: boolean
  busy?: string
  run: Run
  lobby: () => void
  startLabel: string
}) {
  const path = { params: { path: { room_id: room.id } } }
  return (
    <View className='room-actions'>
      <SealButton kind='ghost' onClick={lobby}>回大厅</SealButton>
      {room.is_creator && room.seats.length >= room.min_seats ? (
        <SealButton kind='gold' busy={busy === 'start'} onClick={() => void run('start', () => api.POST('/v1/rooms/{room_id}/start', path))}>{startLabel}</SealButton>
      ) : null}
      {seated ? (
        <SealButton busy={busy === 'leave'} onClick={() => void run('leave', async () => {
          await api.POST('/v1/rooms/{room_id}/leave', path)
          lobby()
        })}>离席</SealButton>
      ) : null}
    </View>
  )
}
