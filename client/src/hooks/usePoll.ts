import { useEffect, useRef, useState } from 'react'
import { useDidHide, useDidShow } from '@tarojs/taro'
import type { Answer } from '../api/client'
import type { ApiError } from '../api/errors'
import { reportHealth, watchNetwork } from '../api/network'
import { Poller } from '../api/poll'

export interface PollState<T> {
  data: T | undefined
  error: ApiError | undefined
  /** Poll at once (after an action of ours). */
  refresh: () => void
}

/**
 * Keep `data` fresh with ETag polling while the page is visible and the device online
 * (Taro's useDidShow/useDidHide; wx.onNetworkStatusChange or the browser's online/offline).
 */
export function usePoll<T>(load: (etag: string | undefined) => Promise<Answer<T>>, key: string, opts?: { baseMs?: number }): PollState<T> {
  const [data, setData] = useState<T>()
  const [error, setError] = useState<ApiError>()
  const poller = useRef<Poller<T> | null>(null)
  const loadRef = useRef(load)
  loadRef.current = load

  useEffect(() => {
    const source = {}
    const p = new Poller<T>({
      fetch: (etag) => loadRef.current(etag),
      onData: (d) => {
        setData(d)
        setError(undefined)
      },
      onFatal: setError,
      onHealth: (ok) => reportHealth(source, ok),
      baseMs: opts?.baseMs,
    })
    poller.current = p
    p.start()
    const unwatch = watchNetwork((online) => p.setOnline(online))
    return () => {
      unwatch()
      p.stop()
      reportHealth(source, true)
      poller.current = null
    }
  }, [key])

  useDidShow(() => poller.current?.setVisible(true))
  useDidHide(() => poller.current?.setVisible(false))

  return { data, error, refresh: () => poller.current?.now() }
}
