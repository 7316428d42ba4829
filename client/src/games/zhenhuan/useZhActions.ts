import { useRef, useState } from 'react'
import { api, ApiError, type Schemas } from '../../api'
import { ActionKeys } from '../../api/actionKeys'
import { notDelivered } from '../../api/errors'
import type { Seen } from '../../hooks/usePoll'
import type { ZAction } from './model'

export type ZCheck = Schemas['ZhenhuanCheckOut']

/**
 * Sending 血染 actions. The storyteller's carry the room's step (a retried press is safe); a player's
 * room has no step (the count is hidden from her), so hers go without one, with an Idempotency-Key.
 */
export function useZhActions(roomId: string, step: number | null | undefined, refresh: (seen?: Seen) => void) {
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()
  const path = { params: { path: { room_id: roomId } } }

  /** Runs `fn`; an action's answer (`view` and `view_etag`) is shown at once, anything else asks again. */
  const run = async (key: string, fn: () => Promise<unknown>): Promise<boolean> => {
    setBusy(key)
    setError(undefined)
    let answer: unknown
    try {
      answer = await fn()
      return true
    } catch (e) {
      setError(notDelivered(e))
      return false
    } finally {
      setBusy(undefined)
      refresh(seenIn(answer))
    }
  }

  const keys = useRef(new ActionKeys()).current
  // the storyteller's press names its step; a player's has none, so its Idempotency-Key tells the server
  // a tap again after a lost answer from a new action
  const post = (action: ZAction, at: number | null | undefined, intent?: unknown) => at === null || at === undefined
    ? keys.send(action, (key) => api.POST('/v1/games/zhenhuan/rooms/{room_id}/actions',
      { ...path, body: { action }, headers: { 'Idempotency-Key': key } }), intent ?? action)
    : api.POST('/v1/games/zhenhuan/rooms/{room_id}/actions', { ...path, body: { step: at, action } })

  // The storyteller's press carries the step her screen showed. Players' nominations and hands move
  // the room on meanwhile; the press means the same a moment later, so it goes once more at the
  // room's step now (the server still refuses it if it no longer fits, and says why).
  /** `intent`: what the action is for, when its body does not say (a hand: which vote). */
  const send = (action: ZAction, key: string = action.type ?? 'act', intent?: unknown) =>
    run(key, async () => {
      try {
        return await post(action, step, intent)
      } catch (e) {
        if (!(e instanceof ApiError && e.code === 'STALE_STEP') || step === null || step === undefined) throw e
        const now = await api.GET('/v1/games/zhenhuan/rooms/{room_id}', path)
        return await post(action, now.room.step)
      }
    })

  const check = (action: ZAction): Promise<ZCheck> =>
    api.POST('/v1/games/zhenhuan/rooms/{room_id}/check', { ...path, body: { action } })

  // 撤销 takes back the last press only if nothing happened since: never retried at a newer step
  const undo = () => run('undo', () => api.POST('/v1/rooms/{room_id}/undo', { ...path, body: { step: step ?? 0 } }))

  return { send, check, undo, run, busy, error, setError }
}

function seenIn(answer: unknown): Seen | undefined {
  const a = answer as Partial<Seen> | null | undefined
  return a && typeof a === 'object' && a.view && typeof a.view_etag === 'string' ? { view: a.view, view_etag: a.view_etag } : undefined
}
