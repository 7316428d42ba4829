import { useEffect, useRef, useState } from 'react'
import { useDidHide, useDidShow } from '@tarojs/taro'
import type { Answer } from '../api/client'
import type { ApiError } from '../api/errors'
import { appLive, type PushedView } from '../api/live'
import { reportHealth, watchNetwork } from '../api/network'
import { Poller } from '../api/poll'

/** What a game action answers besides its ack: the actor's view after it, and that view's ETag. */
export interface Seen {
  view: unknown
  view_etag: string
}

export interface PollState<T> {
  data: T | undefined
  error: ApiError | undefined
  /** After an action of ours: with its answer's view, show that (no second request); without, ask
   * again at once (while the room's notices come: when its notice does). */
  refresh: (seen?: Seen) => void
  /** Poll again after an answer that stopped polling (a 暗号 room, now that the 暗号 was given). */
  retry: () => void
  /** Ask now, notices or not: she tapped to see the latest. One conditional request, a 304 when
   * nothing changed. */
  look: () => void
  /** Whether the room's notices come (the socket is up and subscribed): then who has sealed is marked
   * as it happens, and there is nothing to tap for. */
  live: boolean
}

/** A room view (GET /v1/rooms/{id}, /v1/games/{family}/rooms/{id}): its room id, or null. */
export function roomOf(data: unknown): string | null {
  const d = data as { room?: { id?: unknown }; viewer?: unknown } | null
  return d && typeof d === 'object' && d.viewer && typeof d.room?.id === 'string' ? d.room.id : null
}

/** A room view's version (null where the viewer may not count the steps, or not a room view). */
export function roomVersion(data: unknown): number | null {
  const v = (data as { room?: { version?: unknown } } | null | undefined)?.room?.version
  return typeof v === 'number' ? v : null
}

/** Whether a notice (of `version`, when it names one) is news to a page showing `data`: not when the
 * page already shows that version or a newer one (its own action's answer carried it). */
export function isNews(version: number | undefined, data: unknown): boolean {
  return version === undefined || (roomVersion(data) ?? -1) < version
}

/** The room view `data` with `seat` marked as having sealed, if a sealed notice of round `step` is
 * about the round it shows (its step, a sealed pending); otherwise `data` itself (the same object: a
 * notice of another round, or a seat already marked, changes nothing). A view fetched later replaces
 * it whatever it says. */
export function withSealed<T>(data: T, step: number, seat: number): T {
  const d = data as { room?: { step?: unknown }; pending?: { kind?: unknown; submitted?: unknown } | null } | null | undefined
  if (!d || typeof d !== 'object' || d.room?.step !== step || !d.pending || d.pending.kind !== 'sealed') return data
  const submitted = Array.isArray(d.pending.submitted) ? (d.pending.submitted as number[]) : []
  if (submitted.includes(seat)) return data
  return { ...d, pending: { ...d.pending, submitted: [...submitted, seat].sort((a, b) => a - b) } } as T
}

/** `data` with every seat a sealed notice has told of, for the round it shows (`marks`: step -> seats).
 * A view fetched while a move was being sealed may be answered after that move's notice, and show her
 * unsealed: the marks are kept for the round and put back on each view of it. Marks of earlier rounds
 * are dropped. */
export function withMarks<T>(data: T, marks: Map<number, Set<number>>): T {
  const step = (data as { room?: { step?: unknown } } | null | undefined)?.room?.step
  if (typeof step !== 'number') return data
  for (const old of [...marks.keys()]) if (old < step) marks.delete(old)
  let out = data
  for (const seat of marks.get(step) ?? []) out = withSealed(out, step, seat)
  return out
}

/** How long a page that takes pushed views waits before fetching on a notice without one, once its
 * room's notices have carried a view (not on a stage that pushes none): the notices of one committed
 * burst come together, and only the newest carries the view (a room that committed several versions at
 * once, say three joins and the start). */
export const PUSHED_GRACE_MS = 80

/** What a room notice asks of a page showing `data`: show the view it carried (`accept`) — where the
 * page's own request is the plain view the server pushes (`takesPushed`) and the view is newer than the
 * shown one — fetch (`fetch`), or nothing (`none`: the page already shows that version). */
export function onNotice(version: number | undefined, pushed: PushedView | undefined, data: unknown,
  takesPushed: boolean): 'accept' | 'fetch' | 'none' {
  if (!isNews(version, data)) return 'none'
  if (pushed && takesPushed) return isOlder(pushed.view, data) ? 'none' : 'accept'
  return 'fetch'
}

/** Whether an action's answer (`incoming`) is older than the room view the page already shows (a
 * notice's fetch overtook a slow answer): then it is not shown. Views without a version (steps hidden
 * from her) are taken as they come. */
export function isOlder(incoming: unknown, shown: unknown): boolean {
  const a = roomVersion(incoming)
  const b = roomVersion(shown)
  return a !== null && b !== null && roomOf(incoming) === roomOf(shown) && a < b
}

/** When a room view changes by itself: its deadline passes (the first request after it settles the
 * round), measured on the server's clock from when the view arrived; jittered so phones do not all ask
 * at the same instant. null: no deadline. */
export function roomDueMs(data: unknown, arrivedAt: number, now: number, random: () => number = Math.random): number | null {
  const d = data as { pending?: { deadline_ms?: number | null } | null; server_time?: number } | null
  const deadline = d?.pending?.deadline_ms
  if (typeof deadline !== 'number' || typeof d?.server_time !== 'number') return null
  return Math.max(0, deadline - d.server_time - (now - arrivedAt)) + 300 + Math.round(random() * 1200)
}

/**
 * Keep `data` fresh with ETag polling while the page is visible and the device online
 * (Taro's useDidShow/useDidHide; wx.onNetworkStatusChange or the browser's online/offline).
 * A room view is also watched over the app's socket (api/live): while its notices come, no timed
 * polls — a fetch when told of a change, and at the round's deadline. A page whose request is the plain
 * room view (`takesPushed`) shows the view a notice carries instead of fetching it. A sealed move's
 * notice marks the seat in the view held (`withSealed`), with no request.
 */
export function usePoll<T>(load: (etag: string | undefined) => Promise<Answer<T>>, key: string,
  opts?: { baseMs?: number; takesPushed?: boolean }): PollState<T> {
  const [data, setData] = useState<T>()
  const [error, setError] = useState<ApiError>()
  const [live, setLive] = useState(false)
  const poller = useRef<Poller<T> | null>(null)
  const loadRef = useRef(load)
  loadRef.current = load

  useEffect(() => {
    const source = {}
    const marks = new Map<number, Set<number>>()  // sealed notices, by round: `withMarks`
    let arrivedAt = 0
    let watching: { room: string; stop: () => void } | null = null
    const follow = (room: string | null) => {
      if (watching?.room === room) return
      watching?.stop()
      watching = null
      p.setLive(false)
      setLive(false)
      if (room) {
        let viewsCome = false  // this room's notices have carried a view: the stage pushes them
        const onChange = (version?: number, pushed?: PushedView) => {
          viewsCome ||= pushed !== undefined
          const todo = onNotice(version, pushed, p.currentData, opts?.takesPushed === true)
          if (todo === 'accept' && pushed) p.accept(pushed.view as T, pushed.etag)
          else if (todo === 'fetch' && opts?.takesPushed && viewsCome) p.soon(PUSHED_GRACE_MS)
          else if (todo === 'fetch') p.now()
        }
        const onSealed = (step: number, seat: number) => {
          marks.set(step, (marks.get(step) ?? new Set<number>()).add(seat))
          const held = p.currentData
          const next = held === undefined ? held : withSealed(held, step, seat)
          if (next === undefined || next === held) return
          p.patch(next)
          setData(next)
        }
        const onLive = (up: boolean) => {
          p.setLive(up)
          setLive(up)
        }
        watching = { room, stop: appLive().watch(room, { onChange, onSealed, onLive, etag: () => p.currentEtag }) }
      }
    }
    const p: Poller<T> = new Poller<T>({
      fetch: (etag) => loadRef.current(etag),
      onData: (fetched) => {
        arrivedAt = Date.now()
        const d = withMarks(fetched, marks)
        if (d !== fetched) p.patch(d)
        setData(d)
        setError(undefined)
        follow(roomOf(d))
      },
      dueMs: (d) => roomDueMs(d, arrivedAt, Date.now()),
      onFatal: setError,
      onHealth: (ok) => reportHealth(source, ok),
      baseMs: opts?.baseMs,
    })
    poller.current = p
    p.start()
    const unwatch = watchNetwork((online) => p.setOnline(online))
    return () => {
      unwatch()
      watching?.stop()
      p.stop()
      reportHealth(source, true)
      poller.current = null
    }
  }, [key])

  useDidShow(() => poller.current?.setVisible(true))
  useDidHide(() => poller.current?.setVisible(false))

  return {
    data,
    error,
    refresh: (seen?: Seen) => {
      const p = poller.current
      if (!seen) p?.refresh()
      else if (!isOlder(seen.view, p?.currentData)) p?.accept(seen.view as T, seen.view_etag)
    },
    retry: () => poller.current?.start(),
    look: () => poller.current?.now(),
    live,
  }
}
