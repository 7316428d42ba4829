import { useCallback, useEffect, useMemo, useRef, useState } from 'react'
import { api } from '../../api'
import { reportHealth } from '../../api/network'
import { isTransient } from '../../api/poll'
import { clockOffset, remainingMs } from './clock'
import { mergeReports } from './reports'
import type { Report } from './types'

/**
 * Milliseconds left until `deadline` (server clock), ticking each second; null without a deadline.
 * A new `serverTime` (a fresh view) re-anchors the offset between the server's clock and this phone's.
 */
export function useCountdown(deadline: number | null | undefined, serverTime: number | undefined): number | null {
  const offset = useMemo(() => (serverTime === undefined ? 0 : clockOffset(serverTime, Date.now())), [serverTime])
  const [now, setNow] = useState(() => Date.now())
  useEffect(() => {
    if (deadline === null || deadline === undefined) return undefined
    setNow(Date.now())
    const id = setInterval(() => setNow(Date.now()), 500)
    return () => clearInterval(id)
  }, [deadline])
  if (deadline === null || deadline === undefined) return null
  return remainingMs(deadline, offset, now)
}

export interface ReportsState {
  reports: Report[]
  error: unknown
  /** Where the reports read so far end: the page's view fetch asks `reports_after=` it, so the
   * answer that tells of a settled round brings that round's report too (one request, not two). */
  after: { readonly current: number }
}

/** Reports folded into a view's answer (`?reports_after=`). */
export interface Folded {
  reports: Report[]
  next_after: number
}

const PAGE = 100

/**
 * The 战报, read incrementally with the page's view: each view answer asked with `reports_after=`
 * (`after`) carries what is new (`folded`), merged as it comes. `/reports` itself is asked only when
 * a view brought a full page (more may follow). A move's answer carries its view asked the same way,
 * so the actor of the move that settles a round has that round's 战报 without a second request.
 */
export function useReports(roomId: string, folded?: Folded | null): ReportsState {
  const [reports, setReports] = useState<Report[]>([])
  const [error, setError] = useState<unknown>()
  const after = useRef(-1)
  const loading = useRef(false)
  const again = useRef(false)
  const alive = useRef(true)
  const retry = useRef<ReturnType<typeof setTimeout> | null>(null)
  const source = useRef({})

  const load = useCallback(async (): Promise<void> => {
    if (loading.current) {
      again.current = true
      return
    }
    loading.current = true
    if (retry.current) clearTimeout(retry.current)
    retry.current = null
    try {
      for (let page = 0; page < 10; page++) {
        const out = await api.GET('/v1/games/shengong/rooms/{room_id}/reports', {
          params: { path: { room_id: roomId }, query: { after: after.current, limit: PAGE } },
        })
        if (!alive.current) return
        after.current = Math.max(after.current, out.next_after)
        if (out.reports.length) setReports((old) => mergeReports(old, out.reports))
        if (out.reports.length < PAGE) break
      }
      setError(undefined)
      reportHealth(source.current, true)
    } catch (e) {
      if (!alive.current) return
      if (isTransient(e)) {
        reportHealth(source.current, false)
        retry.current = setTimeout(() => void load(), 3000)
      } else {
        setError(e)
      }
    } finally {
      loading.current = false
    }
    if (again.current && alive.current) {
      again.current = false
      void load()
    }
  }, [roomId])

  useEffect(() => {
    alive.current = true
    const src = source.current
    return () => {
      alive.current = false
      if (retry.current) clearTimeout(retry.current)
      reportHealth(src, true)
    }
  }, [])

  useEffect(() => {
    if (!folded) return
    if (folded.reports.length) setReports((old) => mergeReports(old, folded.reports))
    after.current = Math.max(after.current, folded.next_after)
    if (folded.reports.length >= PAGE) void load()
  }, [folded, load])

  return { reports, error, after }
}
