/**
 * ETag polling: ask with If-None-Match; 304 means nothing changed. A lost answer (network, 5xx, 429)
 * backs off exponentially with jitter and reports the connection unhealthy (the 「网络不稳，正在重连…」
 * banner) until an answer comes back. A page that is hidden, or a device that is offline, stops
 * polling; showing it again or coming back online polls at once. Framework-free: the React hook
 * (hooks/usePoll) drives it with Taro's page events.
 *
 * While room notices are up for what it polls (`setLive(true)`, see api/live.ts) it makes no timed
 * polls: it asks only when told something changed (`now()`) and when the data itself says it will
 * change (`dueMs`: a round's deadline, which the first request after it settles).
 */
import { ApiError } from './errors'
import type { Answer } from './client'

export interface Timers {
  set(fn: () => void, ms: number): unknown
  clear(handle: unknown): void
}

export const realTimers: Timers = {
  set: (fn, ms) => setTimeout(fn, ms),
  clear: (h) => clearTimeout(h as ReturnType<typeof setTimeout>),
}

export interface PollerOptions<T> {
  /** One request: resolve the answer (data undefined on 304) or reject with an ApiError. */
  fetch: (etag: string | undefined) => Promise<Answer<T>>
  onData: (data: T) => void
  /** An answer that polling again will not fix (403, 404 …): polling stops. */
  onFatal?: (error: ApiError) => void
  /** false after a lost answer, true when answers come again. */
  onHealth?: (healthy: boolean) => void
  /** Delay between polls while answers come (ms). */
  baseMs?: number
  /** Slowest poll while nothing changes (ms). */
  idleMaxMs?: number
  /** Longest backoff after failures (ms). */
  maxBackoffMs?: number
  /** While live: in how many ms this data changes by itself (a deadline), or null. */
  dueMs?: (data: T) => number | null
  random?: () => number
  timers?: Timers
}

/** Exponential backoff with "equal jitter": half fixed, half random. */
export function backoffDelay(failures: number, baseMs: number, maxMs: number, random: () => number): number {
  const ceiling = Math.min(maxMs, baseMs * 2 ** Math.max(0, failures))
  return Math.round(ceiling / 2 + random() * (ceiling / 2))
}

export function isTransient(e: unknown): boolean {
  return e instanceof ApiError && (e.isNetwork || e.status === 429 || e.status >= 500)
}

export class Poller<T> {
  private etag: string | undefined
  private timer: unknown = null
  private running = false
  private visible = true
  private online = true
  private inFlight = false
  private again = false
  private failures = 0
  private unchanged = 0
  private healthy = true
  private generation = 0
  private live = false
  private grace = false
  private last: { data: T } | null = null
  private readonly o: Required<Omit<PollerOptions<T>, 'onFatal' | 'onHealth' | 'dueMs'>> & PollerOptions<T>

  constructor(opts: PollerOptions<T>) {
    this.o = {
      baseMs: 1500, idleMaxMs: 4000, maxBackoffMs: 20000, random: Math.random, timers: realTimers, ...opts,
    }
  }

  get failureCount(): number {
    return this.failures
  }

  /** The ETag of the data this poller holds (undefined before its first answer). */
  get currentEtag(): string | undefined {
    return this.etag
  }

  /** The data this poller holds (undefined before its first answer). */
  get currentData(): T | undefined {
    return this.last?.data
  }

  /** Begin polling now. */
  start(): void {
    if (this.running) return
    this.running = true
    this.generation++
    this.poll()
  }

  /** Stop for good (page unloaded). */
  stop(): void {
    this.running = false
    this.generation++
    this.cancel()
  }

  /** Page hidden (useDidHide) / shown (useDidShow). */
  setVisible(visible: boolean): void {
    if (this.visible === visible) return
    this.visible = visible
    if (!visible) {
      this.cancel()
      // a hidden page shows no banner: withdraw its complaint until it polls again
      this.health(true)
    } else {
      if (this.running && !this.online) this.health(false)
      this.now()
    }
  }

  /** Network lost / back. */
  setOnline(online: boolean): void {
    if (this.online === online) return
    this.online = online
    if (!online) {
      this.cancel()
      if (this.running && this.visible) this.health(false)
    } else {
      this.failures = 0
      if (this.active()) this.now()
      else this.health(true)
    }
  }

  /** Notices are up (true: no timed polls) or down (false: poll at once, and on as before). */
  setLive(live: boolean): void {
    if (this.live === live) return
    this.live = live
    if (live) this.schedule(this.dueDelay())
    else this.now()
  }

  private dueDelay(): number | null {
    return this.last && this.o.dueMs ? this.o.dueMs(this.last.data) : null
  }

  /** An action's answer carried this data (the view after it) and its ETag: take it as if polled,
   * and drop any answer still on its way — sent before the action's answer came, it may be older, or
   * newer (a notice of another seat's move that came first): so once it is in, ask once more with
   * this ETag (a 304 when the action's view is still the latest). */
  accept(data: T, etag: string | undefined): void {
    if (!this.running) return
    this.generation++
    if (this.inFlight) this.again = true
    this.cancel()
    this.etag = etag
    this.unchanged = 0
    this.last = { data }
    this.o.onData(data)
    this.schedule(this.live ? this.dueDelay() : this.o.baseMs)
  }

  /** The data held, amended in place of a fetch (a notice said what changed, e.g. a seat sealed):
   * kept as if polled — the same ETag, no schedule touched, and an answer already on its way still
   * replaces it (a fetched view wins). Nothing before the first answer. */
  patch(data: T): void {
    if (!this.running || !this.last) return
    this.last = { data }
  }

  /** After an action of ours: poll at once — or, while notices come, when the action's own notice
   * arrives (it follows within a round trip; one fetch instead of two), at the latest `fallbackMs`. */
  refresh(fallbackMs = 1500): void {
    if (!this.live) this.now()
    else this.schedule(fallbackMs)
  }

  /** Poll in `ms` — unless a view comes first (`accept`, which cancels it): a plain notice in a burst
   * whose last notice carries the view. A grace already running is kept, not restarted, so notices
   * that keep coming cannot put the fetch off. */
  soon(ms: number): void {
    if (this.grace && this.timer !== null) return
    this.schedule(ms)
    this.grace = this.timer !== null
  }

  /** Poll at once (a notice, or the page shown again). */
  now(): void {
    if (!this.active()) return
    this.cancel()
    this.poll()
  }

  private active(): boolean {
    return this.running && this.visible && this.online
  }

  private cancel(): void {
    if (this.timer !== null) this.o.timers.clear(this.timer)
    this.timer = null
    this.grace = false
  }

  private schedule(ms: number | null): void {
    this.cancel()
    if (ms === null || !this.active()) return
    this.timer = this.o.timers.set(() => {
      this.timer = null
      this.poll()
    }, ms)
  }

  private health(ok: boolean): void {
    if (this.healthy === ok) return
    this.healthy = ok
    this.o.onHealth?.(ok)
  }

  private async poll(): Promise<void> {
    if (!this.active()) return
    if (this.inFlight) {
      this.again = true
      return
    }
    this.inFlight = true
    const gen = this.generation
    let delay: number | null = null
    try {
      const answer = await this.o.fetch(this.etag)
      // an answer to a request sent before `accept` (or a restart) is older than what is shown: dropped
      if (gen === this.generation) {
        this.failures = 0
        this.health(true)
        if (answer.data === undefined) {
          this.unchanged++
          delay = Math.min(this.o.idleMaxMs, Math.round(this.o.baseMs * 1.2 ** this.unchanged))
        } else {
          this.unchanged = 0
          this.etag = answer.etag
          this.last = { data: answer.data }
          this.o.onData(answer.data)
          delay = this.o.baseMs
        }
        if (this.live) delay = this.dueDelay()
      }
    } catch (e) {
      if (gen === this.generation) {
        if (isTransient(e)) {
          this.failures++
          this.health(false)
          delay = backoffDelay(this.failures, this.o.baseMs, this.o.maxBackoffMs, this.o.random)
        } else {
          this.running = false
          this.o.onFatal?.(e instanceof ApiError ? e : new ApiError(0, 'CLIENT', String(e)))
        }
      }
    } finally {
      this.inFlight = false
    }
    // a notice that came while this request was out asks again, even when its answer was dropped
    if (this.again) {
      this.again = false
      this.cancel()
      this.poll()
      return
    }
    if (delay !== null) this.schedule(delay)
  }
}
