import { Text, View } from '@tarojs/components'
import type { Schemas } from '../../api'
import { SealButton } from '../../components/SealButton'
import { COMPETITION, titleTag } from '../../lib/labels'

type LobbyRoom = Schemas['LobbyRoomOut']

/**
 * A room in the lobby: who opened it, what its title adds (宫斗杀's 关卡, 保皇's 牌制), seats taken,
 * the 暗号 lock; 入席 (greyed when she may not sit) and 观战 — or, for a game under way, 观战 alone.
 */
export function RoomRow({ room, gameTitle, busy, blocked, underWay, onJoin, onWatch }: {
  room: LobbyRoom
  /** The game's own title (the panel's): the rest of the room's title is shown as a tag. */
  gameTitle: string
  busy: boolean
  /** Why she may not sit (no 妃子 yet …): 入席 is greyed. */
  blocked?: string
  underWay?: boolean
  onJoin: () => void
  onWatch: () => void
}) {
  const full = room.seat_count >= room.max_seats
  const tag = titleTag(room.title, gameTitle)
  return (
    <View className='room-row' data-room={room.id}>
      <View className='grow'>
        <View className='row'>
          <Text className='room-row-title'>{room.creator_name}的房间</Text>
          {tag ? <Text className='room-row-stage'>{tag}</Text> : null}
          {room.has_password ? <Text className='lock' aria-label='有暗号'>暗</Text> : null}
        </View>
        <View className='muted'>
          <Text className='room-row-seats'>{room.seat_count}/{room.max_seats} 席</Text>
          <Text> · {COMPETITION[room.competition] ?? room.competition}</Text>
          {underWay ? <Text> · 对局中</Text> : null}
        </View>
      </View>
      <SealButton size='small' kind='ghost' busy={busy} onClick={onWatch}>观战</SealButton>
      {underWay ? null : (
        <>
          <View className='gap' />
          <SealButton size='small' busy={busy} disabled={full || !!blocked} onClick={onJoin}>{full ? '已满' : '入席'}</SealButton>
        </>
      )}
    </View>
  )
}
