import { useState } from 'react'
import { ApiError, api, session } from '../../api'
import { notDelivered } from '../../api/errors'
import { notices } from '../../api/notices'
import { passwordOf, rememberRoom } from '../../lib/myRooms'
import { SealButton } from '../SealButton'
import { PasswordPrompt } from './PasswordPrompt'

/**
 * 入席 for someone looking at a waiting room without a seat (she came by a link, or watched first):
 * shown while a seat is free. A 暗号 room sends the 暗号 she already gave on this phone, and asks for
 * it when the server wants it.
 */
export function JoinSeat({ room, onJoined, onError }: {
  room: { id: string; game: string; has_password: boolean }
  onJoined: () => void
  /** Where a refusal other than the 暗号 is shown (the room page's error line). */
  onError: (e: unknown) => void
}) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  const [asking, setAsking] = useState(false)
  const userId = session.user()?.id

  const join = async (password?: string) => {
    void notices.ask()
    setBusy(true)
    setError(undefined)
    onError(undefined)
    const pw = password ?? passwordOf(userId, room.id)
    try {
      await api.POST('/v1/rooms/{room_id}/join', { params: { path: { room_id: room.id } }, body: pw ? { password: pw } : {} })
      if (userId) rememberRoom(userId, { id: room.id, game: room.game, password: pw })
      setAsking(false)
      onJoined()
    } catch (e) {
      if (e instanceof ApiError && (e.code === 'PASSWORD_REQUIRED' || e.code === 'WRONG_PASSWORD' || e.code === 'PASSWORD_LOCKED') && (asking || e.code === 'PASSWORD_REQUIRED')) {
        setAsking(true)
        setError(e)
      } else if (asking) setError(notDelivered(e))
      else onError(notDelivered(e))
    } finally {
      setBusy(false)
    }
  }

  return (
    <>
      <SealButton busy={busy && !asking} onClick={() => (room.has_password && !passwordOf(userId, room.id) ? setAsking(true) : void join())}>入席</SealButton>
      {asking ? (
        <PasswordPrompt open title='入席 · 报暗号' busy={busy} error={error} onClose={() => { setAsking(false); setError(undefined) }} onSubmit={(pw) => void join(pw)} />
      ) : null}
    </>
  )
}
