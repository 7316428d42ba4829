import { useEffect, useRef, useState } from 'react'
import { useDidHide, useDidShow } from '@tarojs/taro'
import { appLive, type RoomWatch } from '../api/live'
import { realTimers, type Timers } from '../api/poll'

/**
 * Call `reload` when any of `rooms` changes, as the app's one socket tells it (the room pages' own
 * notices: "room R changed"), at most once per `gapMs` however many notices come; returns the stop.
 * Without a socket nothing is heard, and nothing is polled: the caller asks again when shown.
 */
export function followRooms(
  live: { watch(room: string, w: RoomWatch): () => void },
  rooms: string[],
  reload: () => void,
  gapMs: number,
  timers: Timers = realTimers,
  now: () => number = Date.now,
): () => void {
  let pending: unknown = null
  let last = -Infinity
  const onChange = () => {
    if (pending !== null) return  // one reload takes in every notice until it runs
    pending = timers.set(() => {
      pending = null
      last = now()
      reload()
    }, Math.max(0, last + gapMs - now()))
  }
  const stops = rooms.map((room) => live.watch(room, { onChange, onLive: () => {} }))
  return () => {
    for (const stop of stops) stop()
    if (pending !== null) timers.clear(pending)
  }
}

/** `followRooms` while the page is shown (a tab left for another stops listening). */
export function useRoomNotices(rooms: string[], reload: () => void, gapMs = 3000): void {
  const [shown, setShown] = useState(true)
  useDidShow(() => setShown(true))
  useDidHide(() => setShown(false))
  const reloadRef = useRef(reload)
  reloadRef.current = reload
  const key = rooms.join(',')
  useEffect(() => {
    if (!shown || !key) return undefined
    return followRooms(appLive(), key.split(','), () => reloadRef.current(), gapMs)
  }, [key, shown, gapMs])
}
