import { useState } from 'react'
import { api, ApiError, type Schemas } from '../../api'
import { notDelivered } from '../../api/errors'
import type { Seen } from '../../hooks/usePoll'

export type BaohuangAction = Schemas['BaohuangAction']
export type CheckOut = Schemas['BaohuangCheckOut']

/** Wishes that do not depend on the table's moment: sent again at the new step when the room moved on. */
const STEADY = new Set(['auto', 'resume', 'quit', 'next_deal', 'leave'])

/**
 * Sending 保皇 actions for the step the view was made at (a retry of the same action is safe), and
 * asking the server whether one would be accepted (`/check`, nothing sent).
 */
export function useActions(roomId: string, step: number | null | undefined, refresh: (seen?: Seen) => void) {
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()

  const send = async (action: BaohuangAction, key: string = action.type ?? 'act'): Promise<boolean> => {
    setBusy(key)
    setError(undefined)
    const path = { params: { path: { room_id: roomId } } }
    let seen: Seen | undefined
    try {
      try {
        seen = await api.POST('/v1/games/baohuang/rooms/{room_id}/actions', { ...path, body: { step: step ?? undefined, action } })
      } catch (e) {
        // 托管, 取消托管, 退出 … mean the same at any step: once more at the room's step now
        if (!(e instanceof ApiError && e.code === 'STALE_STEP' && STEADY.has(action.type ?? ''))) throw e
        const now = await api.GET('/v1/games/baohuang/rooms/{room_id}', path)
        seen = await api.POST('/v1/games/baohuang/rooms/{room_id}/actions', { ...path, body: { step: now.room.step ?? undefined, action } })
      }
      return true
    } catch (e) {
      setError(notDelivered(e))
      return false
    } finally {
      setBusy(undefined)
      refresh(seen) // the answer carries her view after the action: shown at once
    }
  }

  const check = (action: BaohuangAction): Promise<CheckOut> =>
    api.POST('/v1/games/baohuang/rooms/{room_id}/check', { params: { path: { room_id: roomId } }, body: { action } })

  return { send, check, busy, error, setError }
}
