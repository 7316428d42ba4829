import { Text, View } from '@tarojs/components'
import { STATUS } from '../../lib/labels'
import './room.css'

/**
 * The room's status stamped in the header (候场 / 对局中 / 已终局…), and under it 「练习局」 when the
 * server says a bot sits at the table or has played in this game: it counts on no board.
 */
export function StatusSeal({ room, className = '' }: { room: { status: string; practice?: boolean }; className?: string }) {
  return (
    <View className='status-stack'>
      <View className={`status-seal status-${room.status} ${className}`} data-status={room.status}>{STATUS[room.status] ?? room.status}</View>
      {room.practice ? <Text className='status-practice' aria-label='练习局，不计入榜单'>练习局</Text> : null}
    </View>
  )
}
