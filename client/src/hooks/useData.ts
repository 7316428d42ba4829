import { useCallback, useEffect, useRef, useState } from 'react'
import { useDidShow } from '@tarojs/taro'
import { reportHealth } from '../api/network'
import { isTransient } from '../api/poll'

export interface DataState<T> {
  data: T | undefined
  error: unknown
  loading: boolean
  reload: () => Promise<void>
}

/**
 * Load once on mount and again each time the page is shown (a tab revisited). A lost answer
 * raises the reconnect banner and is retried with backoff until it comes.
 */
export function useData<T>(load: () => Promise<T>, deps: unknown[]): DataState<T> {
  const [data, setData] = useState<T>()
  const [error, setError] = useState<unknown>()
  const [loading, setLoading] = useState(true)
  const alive = useRef(true)
  const retry = useRef<ReturnType<typeof setTimeout> | null>(null)
  const attempts = useRef(0)
  const source = useRef({})
  const run = useCallback(load, deps)

  const reload = useCallback(async () => {
    if (retry.current) clearTimeout(retry.current)
    retry.current = null
    try {
      const value = await run()
      if (!alive.current) return
      attempts.current = 0
      reportHealth(source.current, true)
      setData(value)
      setError(undefined)
    } catch (e) {
      if (!alive.current) return
      if (isTransient(e)) {
        reportHealth(source.current, false)
        attempts.current++
        const ms = Math.min(15000, 1000 * 2 ** attempts.current) * (0.5 + Math.random() * 0.5)
        retry.current = setTimeout(() => void reload(), ms)
      } else {
        setError(e)
      }
    } finally {
      if (alive.current) setLoading(false)
    }
  }, [run])

  useEffect(() => {
    alive.current = true
    setLoading(true)
    void reload()
    return () => {
      alive.current = false
      if (retry.current) clearTimeout(retry.current)
      reportHealth(source.current, true)
    }
  }, [reload])

  const first = useRef(true)
  useDidShow(() => {
    if (first.current) {
      first.current = false
      return
    }
    void reload()
  })

  return { data, error, loading, reload }
}
