import type { Schemas } from '../api'
import type { Family } from './labels'

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

/**
 * 回大厅 from a game under way in which she holds a seat: what happens to her seat meanwhile, in
 * that game's terms. Only 保皇 has 托管; in 深宫杀 a seat that has not moved when the round's time
 * runs out stands by (待机); in 血染 nobody plays for her — the storyteller runs on, and a vote she
 * does not raise a hand in counts as no.
 */
export const LEAVE_RUNNING: Record<Family, string> = {
  baohuang: '离开后由托管代打，可从大厅「我的对局」回来',
  shengong: '离开期间回合照走：时限一到，未落子者按待机处理。可从大厅「我的对局」回来',
  zhenhuan: '离开期间说书人照常主持，无人代你提名、举手（投票时未举手即算不举）。可从大厅「我的对局」回来',
}
