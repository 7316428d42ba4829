/**
 * Countdowns from the server's clock: a view carries `server_time` and a pending `deadline_ms`, both
 * on the server's clock. The phone's own clock may be minutes off, so it is used only to measure
 * the time elapsed since the view arrived (shared by the 保皇 turn timer and the 血染 vote clock).
 */

/** Server clock minus the phone's clock, taken when a view arrived. */
export function clockOffset(serverTime: number, receivedAt: number): number {
  return serverTime - receivedAt
}

/** Milliseconds left until `deadline` (server clock) at local time `now`; never negative. */
export function remainingMs(deadline: number, offset: number, now: number): number {
  return Math.max(0, deadline - (now + offset))
}

/** Whole seconds shown on a countdown: 9.2 s left shows 10, 0 shows 0. */
export function secondsLeft(ms: number): number {
  return Math.ceil(ms / 1000)
}

/** '0:09', '1:05'. */
export function clockText(ms: number): string {
  const s = secondsLeft(ms)
  return `${Math.floor(s / 60)}:${String(s % 60).padStart(2, '0')}`
}

/** Between deals: the next deal starts by itself when the clock runs out (「两局之间没点继续的，超时自动继续」,
 * the rules card), said under 继续 — a timer on the seats alone did not say what it counted down to. */
export function autoNextText(ms: number): string {
  const s = secondsLeft(ms)
  return s > 0 ? `${s} 秒后自动继续下一局` : '即将开始下一局'
}
