import { describe, expect, it } from 'vitest'
import type { RoomWatch } from '../api/live'
import { followRooms } from './useRoomNotices'

/** Timers run by hand, with a clock they move. */
function manual() {
  let t = 0
  const due: { at: number; fn: () => void; h: number }[] = []
  let next = 0
  return {
    now: () => t,
    timers: {
      set: (fn: () => void, ms: number) => { due.push({ at: t + ms, fn, h: ++next }); return next },
      clear: (h: unknown) => { const i = due.findIndex((d) => d.h === h); if (i >= 0) due.splice(i, 1) },
    },
    advance(ms: number) {
      t += ms
      for (const d of [...due].sort((a, b) => a.at - b.at)) {
        if (d.at <= t) { due.splice(due.indexOf(d), 1); d.fn() }
      }
    },
    pending: () => due.length,
  }
}

function fakeLive() {
  const watching = new Map<string, RoomWatch>()
  return {
    watching,
    watch(room: string, w: RoomWatch) {
      watching.set(room, w)
      return () => { watching.delete(room) }
    },
  }
}

describe('「我的对局」 follows her rooms\' notices', () => {
  it('reloads once for a burst of notices from any of her rooms, then no more often than the gap', () => {
    const live = fakeLive()
    const clock = manual()
    let reloads = 0
    const stop = followRooms(live, ['a', 'b'], () => { reloads++ }, 3000, clock.timers, clock.now)
    expect([...live.watching.keys()]).toEqual(['a', 'b'])
    live.watching.get('a')!.onChange(5)
    live.watching.get('b')!.onChange()
    live.watching.get('a')!.onChange(6)
    clock.advance(0)
    expect(reloads).toBe(1)  // the first comes at once, taking in the whole burst
    live.watching.get('b')!.onChange()
    clock.advance(1000)
    expect(reloads).toBe(1)  // within the gap: held
    clock.advance(2000)
    expect(reloads).toBe(2)
    live.watching.get('a')!.onChange()
    stop()
    clock.advance(5000)
    expect(reloads).toBe(2)  // stopped: a held reload is dropped, and no room is watched
    expect(live.watching.size).toBe(0)
    expect(clock.pending()).toBe(0)
  })
})
