import { useEffect, useRef, useState } from 'react'
import { api } from '../../api'
import { reportHealth } from '../../api/network'
import { isTransient } from '../../api/poll'
import { readWithdrawn, START, type ReadAt, type WithdrawnLine } from './withdrawn'

export interface Withdrawn {
  mine: string[]
  told: string[]
  /** A read the server refused, shown as the page shows its others (a lost answer raises the banner and is read again). */
  error: unknown
}

/**
 * The undo notices, read again after each new view (`version`) — a player's or a spectator's alike —
 * and kept once each (two reads may overlap when views come fast: the older one is dropped).
 */
export function useWithdrawn(roomId: string, version: unknown): Withdrawn {
  const [lines, setLines] = useState<Map<string, WithdrawnLine>>(new Map())
  const [error, setError] = useState<unknown>()
  const [retry, setRetry] = useState(0)
  const at = useRef<ReadAt>(START)
  const source = useRef({})

  useEffect(() => {
    let live = true
    let timer: ReturnType<typeof setTimeout> | undefined
    // the server's cursor, once it gave one: only new entries are read (docs/performance.md)
    const get = (from: ReadAt) => api.GET('/v1/games/zhenhuan/rooms/{room_id}/reports', {
      params: { path: { room_id: roomId }, query: from.cursor ? { cursor: from.cursor, limit: 100 } : { after: from.after, limit: 100 } },
    })
    readWithdrawn(get, at.current, () => live).then((out) => {
      if (!out) return
      at.current = out.at
      if (out.found.length) {
        setLines((x) => {
          const next = new Map(x)
          for (const w of out.found) next.set(w.key, w)
          return next
        })
      }
      setError(undefined)
      reportHealth(source.current, true)
    }).catch((e: unknown) => {
      if (!live) return
      if (isTransient(e)) {
        reportHealth(source.current, false)
        timer = setTimeout(() => setRetry((n) => n + 1), 3000)
      } else {
        setError(e)
      }
    })
    return () => {
      live = false
      if (timer) clearTimeout(timer)
    }
  }, [roomId, version, retry])

  useEffect(() => {
    const src = source.current
    return () => reportHealth(src, true)
  }, [])

  const all = [...lines.values()]
  return { mine: all.filter((l) => l.mine).map((l) => l.text), told: all.filter((l) => !l.mine).map((l) => l.text), error }
}
