import { useShareAppMessage } from '@tarojs/taro'
import { roomUrl } from '../lib/labels'

/** WeChat's 转发 on a room page: the card opens this room (no-op on H5, where 复制邀请 copies the link). */
export function useRoomShare(room: { id: string; code: string | null; game: string; title: string } | undefined) {
  useShareAppMessage(() => ({
    title: room ? `邀你入宫同玩「${room.title}」` + (room.code ? ` · 房号 ${room.code}` : '') : '深宫',
    path: room ? roomUrl(room.game, room.id) : '/pages/lobby/index',
  }))
}
