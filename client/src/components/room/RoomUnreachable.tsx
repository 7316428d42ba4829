import { useEffect, useState } from 'react'
import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import { ApiError, api, session } from '../../api'
import { notDelivered } from '../../api/errors'
import { familyOfError, familyRoomUrl, type Family } from '../../lib/labels'
import { rememberRoom } from '../../lib/myRooms'
import { goLobby } from '../../lib/nav'
import { SealButton } from '../SealButton'
import { PasswordPrompt } from './PasswordPrompt'

/**
 * A room page that cannot show its room (a link to a room that is gone, locked by 暗号, or of
 * another game) is never a dead end: a room of another game — named by the refusal's
 * `details.family`, a 暗号 room's too — opens on its own page; a 暗号 room of this page's game asks
 * for its 暗号 right here (once it is right she watches, and may take a free seat); anything else
 * offers the way back to the lobby.
 */
export function RoomUnreachable({ error, roomId, family, onEntered }: {
  error: unknown
  roomId: string
  /** This page's game family. */
  family: Family
  onEntered: () => void
}) {
  const named = familyOfError(error)
  const elsewhere = named && named !== family ? named : undefined
  useEffect(() => {
    if (elsewhere) void Taro.redirectTo({ url: familyRoomUrl(elsewhere, roomId) })
  }, [elsewhere, roomId])
  const locked = error instanceof ApiError && error.code === 'PASSWORD_REQUIRED'
  const [asking, setAsking] = useState(true)
  const [busy, setBusy] = useState(false)
  const [wrong, setWrong] = useState<unknown>()
  if (elsewhere) return <View className='loading'>转往这个房间的玩法…</View>

  const enter = async (password: string) => {
    setBusy(true)
    setWrong(undefined)
    try {
      const view = await api.POST('/v1/rooms/{room_id}/spectate', { params: { path: { room_id: roomId } }, body: password ? { password } : {} })
      const userId = session.user()?.id
      if (userId) rememberRoom(userId, { id: roomId, game: view.room.game, password })
      setAsking(false)
      onEntered()
    } catch (e) {
      setWrong(notDelivered(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <View className='room-unreachable'>
      <View className='room-actions'>
        {locked ? <SealButton onClick={() => setAsking(true)}>报暗号</SealButton> : null}
        <SealButton kind='ghost' onClick={() => void goLobby()}>回大厅</SealButton>
      </View>
      {locked && asking ? (
        <PasswordPrompt open title='报暗号' busy={busy} error={wrong} onClose={() => setAsking(false)} onSubmit={(pw) => void enter(pw)} />
      ) : null}
    </View>
  )
}
