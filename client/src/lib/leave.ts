import type { Schemas } from '../api'

/** What her 离席 would do, as the room summary says it (`room.leave`; null when she cannot leave now). */
export type LeaveEffect = Schemas['LeaveEffectOut']

/**
 * 离席 in a waiting room: what else it does, said before she confirms — in the server's word
 * (`room.leave`): the room closes (no one but bots left), or 房主 passes to the one it names.
 * Null when it does nothing more than take her off her seat.
 */
export function leaveWarning(leave: LeaveEffect | null | undefined): string | null {
  if (!leave) return null
  if (leave.closes) return '房中再无旁人：你离席后，这个房间即关闭。'
  if (leave.passes_to) return `你是房主：离席后房主之位交给「${leave.passes_to}」。`
  return null
}
