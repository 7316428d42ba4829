import { useEffect } from 'react'
import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import { ApiError } from '../../api'
import { SealButton } from '../SealButton'

/**
 * A room page that cannot show its room (a link to a room that is gone, locked by 暗号, or of
 * another game) is never a dead end: a room of another game opens on its own page, anything else
 * offers the way back to the lobby (where a 暗号 is asked for).
 */
export function RoomUnreachable({ error, roomId, onLobby }: { error: unknown; roomId: string; onLobby: () => void }) {
  const family = error instanceof ApiError && error.code === 'WRONG_FAMILY' ? error.details?.family : undefined
  useEffect(() => {
    if (typeof family === 'string') {
      void Taro.redirectTo({ url: `/pages/room-${family}/index?id=${encodeURIComponent(roomId)}` })
    }
  }, [family, roomId])
  if (typeof family === 'string') return <View className='loading'>转往这个房间的玩法…</View>
  const locked = error instanceof ApiError && error.code === 'PASSWORD_REQUIRED'
  return (
    <View className='room-actions room-unreachable'>
      {locked ? <View className='muted'>在大厅里点这个房间，报上暗号即可入席或观战。</View> : null}
      <SealButton kind='ghost' onClick={onLobby}>回大厅</SealButton>
    </View>
  )
}
