/** Connectivity events: the browser's online/offline on H5, wx.onNetworkStatusChange in the mini-program. */
import Taro from '@tarojs/taro'

export function watchNetwork(onChange: (online: boolean) => void): () => void {
  if (process.env.TARO_ENV === 'h5') {
    const on = () => onChange(true)
    const off = () => onChange(false)
    window.addEventListener('online', on)
    window.addEventListener('offline', off)
    return () => {
      window.removeEventListener('online', on)
      window.removeEventListener('offline', off)
    }
  }
  const handler = (res: { isConnected: boolean }) => onChange(res.isConnected)
  Taro.onNetworkStatusChange(handler)
  return () => Taro.offNetworkStatusChange(handler)
}

/** The banner's state: unhealthy while any poller (or a one-off call) lost its answer. */
type Listener = (unstable: boolean) => void
const listeners = new Set<Listener>()
const troubled = new Set<unknown>()

export function reportHealth(source: unknown, healthy: boolean): void {
  const before = troubled.size > 0
  if (healthy) troubled.delete(source)
  else troubled.add(source)
  const after = troubled.size > 0
  if (before !== after) for (const fn of listeners) fn(after)
}

export function isUnstable(): boolean {
  return troubled.size > 0
}

export function onUnstable(fn: Listener): () => void {
  listeners.add(fn)
  return () => listeners.delete(fn)
}
