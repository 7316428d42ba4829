/** 离席 in a waiting room: what else it does, said before she confirms. */

export interface RoomLike {
  is_creator: boolean
  /** A room run by a host (血染's storyteller, a 司礼's 锦标赛): the host keeps it, not the seats. */
  hosted: boolean
  seats: { is_me: boolean; bot?: string | null; name: string; seat: number }[]
}

/**
 * What 离席 does beyond taking her off her seat, if anything (the server's rule, said before she
 * confirms): when the creator of a room without a host leaves, the room passes to the next person
 * seated, and with only bots left it closes.
 */
export function leaveWarning(room: RoomLike): string | null {
  if (!room.is_creator || room.hosted) return null
  const others = room.seats.filter((s) => !s.is_me && !s.bot).sort((a, b) => a.seat - b.seat)
  if (!others.length) return '房中再无旁人：你离席后，这个房间即关闭。'
  return `你是房主：离席后房主之位交给「${others[0].name}」。`
}
