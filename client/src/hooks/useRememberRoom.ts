import { useEffect } from 'react'
import { session } from '../api'
import { rememberRoom } from '../lib/myRooms'

/** A room page remembers the room it shows (for the lobby's 「我的对局」), however she came to it. */
export function useRememberRoom(room: { id: string; game: string } | undefined) {
  const id = room?.id
  const game = room?.game
  useEffect(() => {
    const userId = session.user()?.id
    if (id && game && userId) rememberRoom(userId, { id, game })
  }, [id, game])
}
