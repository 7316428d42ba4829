import { Text, View } from '@tarojs/components'
import type { Schemas } from '../../api'
import { SealButton } from '../../components/SealButton'
import { COMPETITION } from '../../lib/labels'

type LobbyRoom = Schemas['LobbyRoomOut']

/** An open room: who opened it, seats taken, the 暗号 lock; 入席 and 观战. */
export function RoomRow({ room, busy, onJoin, onWatch }: {
  room: LobbyRoom
  busy: boolean
  onJoin: () => void
  onWatch: () => void
}) {
  const full = room.seat_count >= room.max_seats
  return (
    <View className='room-row' data-room={room.id}>
      <View className='grow'>
        <View className='row'>
          <Text className='room-row-title'>{room.creator_name}的房间</Text>
          {room.has_password ? <Text className='lock' aria-label='有暗号'>暗</Text> : null}
        </View>
        <View className='muted'>
          <Text className='room-row-seats'>{room.seat_count}/{room.max_seats} 席</Text>
          <Text> · {COMPETITION[room.competition] ?? room.competition}</Text>
        </View>
      </View>
      <SealButton size='small' kind='ghost' busy={busy} onClick={onWatch}>观战</SealButton>
      <View className='gap' />
      <SealButton size='small' busy={busy} disabled={full} onClick={onJoin}>{full ? '已满' : '入席'}</SealButton>
    </View>
  )
}
