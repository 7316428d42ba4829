import { useState } from 'react'
import { api, type Schemas } from '../../api'

export type BaohuangAction = Schemas['BaohuangAction']
export type CheckOut = Schemas['BaohuangCheckOut']

/**
 * Sending 保皇 actions for the step the view was made at (a retry of the same action is safe), and
 * asking the server whether one would be accepted (`/check`, nothing sent).
 */
export function useActions(roomId: string, step: number | null | undefined, refresh: () => void) {
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()

  const send = async (action: BaohuangAction, key: string = action.type ?? 'act'): Promise<boolean> => {
    setBusy(key)
    setError(undefined)
    try {
      await api.POST('/v1/games/baohuang/rooms/{room_id}/actions', {
        params: { path: { room_id: roomId } },
        body: { step: step ?? undefined, action },
      })
      return true
    } catch (e) {
      setError(e)
      return false
    } finally {
      setBusy(undefined)
      refresh()
    }
  }

  const check = (action: BaohuangAction): Promise<CheckOut> =>
    api.POST('/v1/games/baohuang/rooms/{room_id}/check', { params: { path: { room_id: roomId } }, body: { action } })

  return { send, check, busy, error, setError }
}
