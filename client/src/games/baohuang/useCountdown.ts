import { useEffect, useMemo, useState } from 'react'
import { clockOffset, remainingMs } from './clock'

/**
 * Milliseconds left until `deadline` (server clock), ticking; null without a deadline. `serverTime`
 * is the view's `server_time`: a new view re-anchors the offset, a 304 keeps the last one.
 */
export function useCountdown(deadline: number | null | undefined, serverTime: number | undefined, tickMs = 250): number | null {
  const offset = useMemo(() => (serverTime === undefined ? 0 : clockOffset(serverTime, Date.now())), [serverTime])
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (deadline === null || deadline === undefined) return undefined
    setNow(Date.now())
    const id = setInterval(() => setNow(Date.now()), tickMs)
    return () => clearInterval(id)
  }, [deadline, tickMs])
  if (deadline === null || deadline === undefined) return null
  return remainingMs(deadline, offset, now)
}
