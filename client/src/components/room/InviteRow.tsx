import { Text, View } from '@tarojs/components'
import { session } from '../../api'
import { passwordOf } from '../../lib/myRooms'
import { InviteButton } from './InviteButton'

type InvitedRoom = { id: string; code: string | null; game: string; title: string; has_password: boolean; awaited?: string[] }

/**
 * The room's 房号 (six digits to say aloud; a friend types them in the lobby's 「输入房号」), the 暗号 as
 * she typed it when she set it or gave it (the server keeps only its hash), and 复制邀请. A room without
 * a code (made before codes, or past their three days) shows its long id instead. A 再战 room first
 * names who from the last table has not come yet (the server's `awaited`): whom to call.
 */
export function InviteRow({ room }: { room: InvitedRoom }) {
  const password = room.has_password ? passwordOf(session.user()?.id, room.id) : undefined
  const awaited = room.awaited ?? []
  return (
    <>
      {awaited.length ? <View className='room-awaited'>上局同伴未到：{awaited.join('、')}</View> : null}
      <View className='room-invite' data-room={room.id}>
        <View className='grow'>
          <View>房号 {room.code
            ? <Text className='room-code-digits'>{room.code}</Text>
            : <Text className='room-id'>{room.id}</Text>}</View>
          {password ? <View>暗号 <Text className='room-password'>{password}</Text></View> : null}
          {room.has_password && !password ? <View className='muted'>此房设有暗号</View> : null}
        </View>
        <InviteButton room={room} password={password} />
      </View>
    </>
  )
}
