import { Text, View } from '@tarojs/components'
import { session } from '../../api'
import { passwordOf } from '../../lib/myRooms'
import { InviteButton } from './InviteButton'

/**
 * The room's id (to type into the lobby's 「输入房号」), the 暗号 as she typed it when she set it or
 * gave it (the server keeps only its hash), and 复制邀请.
 */
export function InviteRow({ room }: { room: { id: string; game: string; title: string; has_password: boolean } }) {
  const password = room.has_password ? passwordOf(session.user()?.id, room.id) : undefined
  return (
    <View className='room-invite'>
      <View className='grow'>
        <View>房号 <Text className='room-id'>{room.id}</Text></View>
        {password ? <View>暗号 <Text className='room-password'>{password}</Text></View> : null}
        {room.has_password && !password ? <View className='muted'>此房设有暗号</View> : null}
      </View>
      <InviteButton room={room} password={password} />
    </View>
  )
}
