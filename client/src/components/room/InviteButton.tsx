import { useState } from 'react'
import Taro from '@tarojs/taro'
import { inviteText, roomLink } from '../../lib/invite'
import { roomUrl } from '../../lib/labels'
import { SealButton } from '../SealButton'

/**
 * 复制邀请: the room's link (H5), its 房号 and — for the creator who set one — its 暗号, copied for a
 * friend. In the mini-program the page also offers WeChat's own share (useShareAppMessage).
 */
export function InviteButton({ room, password }: { room: { id: string; code: string | null; game: string; title: string }; password?: string }) {
  const [copied, setCopied] = useState(false)
  const copy = async () => {
    const data = inviteText({ title: room.title, roomCode: room.code ?? room.id, url: roomLink(roomUrl(room.game, room.id)), password })
    try {
      await Taro.setClipboardData({ data })
      setCopied(true)
      setTimeout(() => setCopied(false), 2500)
    } catch {
      void Taro.showToast({ title: `房号 ${room.code ?? room.id}`, icon: 'none' })
    }
  }
  return <SealButton kind='gold' onClick={() => void copy()}>{copied ? '已复制' : '复制邀请'}</SealButton>
}
