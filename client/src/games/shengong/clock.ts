/**
 * The round clock from the server's own time: the phone's clock may be wrong by minutes, so the
 * countdown is `deadline_ms − (local now + offset)` with `offset = server_time − local now` taken
 * when the view arrived.
 */

/** How far the server's clock is ahead of this phone's (ms; negative when behind). */
export function clockOffset(serverTime: number, localNowAtFetch: number): number {
  return serverTime - localNowAtFetch
}

/** Milliseconds left until `deadline` (server clock) at local time `localNow`; never below 0. */
export function remainingMs(deadline: number, offset: number, localNow: number): number {
  return Math.max(0, deadline - (localNow + offset))
}

/** 83 000 ms → "01:23" (whole seconds, rounded up: 0:00 only when the time is really up). */
export function formatClock(ms: number): string {
  const s = Math.max(0, Math.ceil(ms / 1000))
  const pad = (n: number) => String(n).padStart(2, '0')
  return `${pad(Math.floor(s / 60))}:${pad(s % 60)}`
}

/** calm, then soon (last fifth or 15 s), then up (time is up: the next poll settles the round). */
export function urgency(ms: number, turnSeconds: number): 'calm' | 'soon' | 'up' {
  if (ms <= 0) return 'up'
  return ms <= Math.max(15000, turnSeconds * 200) ? 'soon' : 'calm'
}
