import { describe, expect, it, vi } from 'vitest'
import { ApiError, networkError } from './errors'
import { backoffDelay, Poller } from './poll'
import type { Answer } from './client'

/** Manual timers: the test decides when the scheduled poll runs. */
function manualTimers() {
  const pending: { fn: () => void; ms: number; id: number }[] = []
  let next = 1
  return {
    pending,
    timers: {
      set: (fn: () => void, ms: number) => {
        const id = next++
        pending.push({ fn, ms, id })
        return id
      },
      clear: (h: unknown) => {
        const i = pending.findIndex((p) => p.id === h)
        if (i >= 0) pending.splice(i, 1)
      },
    },
    async fire() {
      const p = pending.shift()
      if (!p) throw new Error('nothing scheduled')
      p.fn()
      await flush()
      return p.ms
    },
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0))

describe('backoffDelay', () => {
  it('doubles up to the ceiling, with half of it random', () => {
    expect(backoffDelay(1, 1000, 20000, () => 0)).toBe(1000)
    expect(backoffDelay(1, 1000, 20000, () => 1)).toBe(2000)
    expect(backoffDelay(3, 1000, 20000, () => 0.5)).toBe(6000)
    expect(backoffDelay(10, 1000, 20000, () => 1)).toBe(20000)
  })
})

describe('Poller', () => {
  it("takes an action's answer as its data and ETag, and drops a fetch that was already on its way", async () => {
    const t = manualTimers()
    const etags: (string | undefined)[] = []
    let answer: (a: Answer<string>) => void = () => {}
    const onData = vi.fn()
    const p = new Poller<string>({
      fetch: (etag) => {
        etags.push(etag)
        return new Promise<Answer<string>>((resolve) => { answer = resolve })
      },
      onData, baseMs: 1000, timers: t.timers,
    })
    p.start()  // a fetch sent before the action …
    p.accept('after my move', '"9"')  // … whose answer (with the view after it) arrives first
    expect(onData).toHaveBeenLastCalledWith('after my move')
    answer({ status: 200, data: 'before my move', etag: '"8"' })
    await flush()
    expect(onData).toHaveBeenCalledTimes(1)  // the older answer is not shown
    // the next ask (at once: the dropped answer might have been the newer) is for what the action showed
    expect(etags).toEqual([undefined, '"9"'])
    answer({ status: 304, data: undefined })
    await flush()
    expect(onData).toHaveBeenCalledTimes(1)
  })

  it('a newer view on its way when her action\'s answer lands is fetched again, not lost (live: no timed poll would)', async () => {
    const t = manualTimers()
    const etags: (string | undefined)[] = []
    const pending: ((a: Answer<string>) => void)[] = []
    const onData = vi.fn()
    const p = new Poller<string>({
      fetch: (etag) => {
        etags.push(etag)
        return new Promise<Answer<string>>((resolve) => { pending.push(resolve) })
      },
      onData, baseMs: 1000, timers: t.timers,
    })
    p.setLive(true)
    p.start()
    pending[0]({ status: 200, data: 'round 12', etag: '"4"' })
    await flush()
    p.now()  // a notice: the round settled (a bot sealed after her) …
    p.accept('round 12, my move sealed', '"5"')  // … her slow seal's answer lands while that fetch is out
    pending[1]({ status: 200, data: 'round 13', etag: '"6"' })  // dropped (it cannot tell which is newer) …
    await flush()
    expect(etags).toEqual([undefined, '"4"', '"5"'])  // … so it asks once more, with her action's ETag
    pending[2]({ status: 200, data: 'round 13', etag: '"6"' })
    await flush()
    expect(onData.mock.calls.map((c) => c[0])).toEqual(['round 12', 'round 12, my move sealed', 'round 13'])
    expect(t.pending.length).toBe(0)  // live, and nothing due: no timed poll
  })

  it('a notice that came while a dropped request was out still asks again', async () => {
    const t = manualTimers()
    const etags: (string | undefined)[] = []
    const pending: ((a: Answer<string>) => void)[] = []
    const onData = vi.fn()
    const p = new Poller<string>({
      fetch: (etag) => {
        etags.push(etag)
        return new Promise<Answer<string>>((resolve) => { pending.push(resolve) })
      },
      onData, baseMs: 1000, timers: t.timers,
    })
    p.setLive(true)
    p.start()  // a fetch goes out …
    p.accept('my move', '"5"')  // … my action's answer comes first …
    p.now()  // … and a notice (another seat's move) while that fetch is still out
    pending[0]({ status: 200, data: 'old', etag: '"4"' })  // the old answer: dropped …
    await flush()
    expect(etags).toEqual([undefined, '"5"'])  // … and the notice's fetch goes out at once
    pending[1]({ status: 200, data: 'their move', etag: '"6"' })
    await flush()
    expect(onData.mock.calls.map((c) => c[0])).toEqual(['my move', 'their move'])
  })

  it('sends the last ETag, delivers changes only, slows down a little while nothing changes', async () => {
    const t = manualTimers()
    const seen: (string | undefined)[] = []
    const answers: Answer<string>[] = [
      { status: 200, data: 'A', etag: '"1"' },
      { status: 304, data: undefined },
      { status: 200, data: 'B', etag: '"2"' },
    ]
    const onData = vi.fn()
    const p = new Poller<string>({
      fetch: async (etag) => {
        seen.push(etag)
        return answers.shift()!
      },
      onData, baseMs: 1000, idleMaxMs: 4000, timers: t.timers,
    })
    p.start()
    await flush()
    expect(await t.fire()).toBe(1000)
    expect(await t.fire()).toBe(1200)
    expect(seen).toEqual([undefined, '"1"', '"1"'])
    expect(onData.mock.calls).toEqual([['A'], ['B']])
    p.stop()
  })

  it('backs off on network loss, reports the banner, and recovers', async () => {
    const t = manualTimers()
    const health = vi.fn()
    let fail = 3
    const p = new Poller<string>({
      fetch: async () => {
        if (fail-- > 0) throw networkError()
        return { status: 200, data: 'ok', etag: '"1"' }
      },
      onData: () => {}, onHealth: health, baseMs: 1000, maxBackoffMs: 20000, random: () => 1, timers: t.timers,
    })
    p.start()
    await flush()
    expect(health.mock.calls).toEqual([[false]])
    expect(t.pending[0].ms).toBe(2000)
    await t.fire()
    expect(t.pending[0].ms).toBe(4000)
    await t.fire()
    expect(t.pending[0].ms).toBe(8000)
    await t.fire()
    expect(health.mock.calls).toEqual([[false], [true]])
    expect(t.pending[0].ms).toBe(1000)
    p.stop()
    expect(t.pending).toEqual([])
  })

  it('stops while hidden or offline and polls at once when back', async () => {
    const t = manualTimers()
    const fetch = vi.fn(async () => ({ status: 304, data: undefined }))
    const p = new Poller<string>({ fetch, onData: () => {}, timers: t.timers })
    p.start()
    await flush()
    expect(fetch).toHaveBeenCalledTimes(1)
    p.setVisible(false)
    expect(t.pending).toEqual([])
    p.setVisible(true)
    await flush()
    expect(fetch).toHaveBeenCalledTimes(2)
    const health = vi.fn()
    const q = new Poller<string>({ fetch, onData: () => {}, onHealth: health, timers: t.timers })
    p.stop()
    q.start()
    await flush()
    q.setOnline(false)
    expect(t.pending).toEqual([])
    expect(health).toHaveBeenCalledWith(false)
    q.setOnline(true)
    await flush()
    expect(fetch).toHaveBeenCalledTimes(4)
    expect(health).toHaveBeenLastCalledWith(true)
    q.stop()
  })

  it('a hidden page never keeps the banner up', async () => {
    const t = manualTimers()
    const health = vi.fn()
    const p = new Poller<string>({ fetch: async () => ({ status: 304, data: undefined }), onData: () => {}, onHealth: health, timers: t.timers })
    p.start()
    await flush()
    p.setVisible(false)
    p.setOnline(false)
    expect(health).not.toHaveBeenCalled()
    p.setVisible(true)
    expect(health.mock.calls).toEqual([[false]])
    p.setVisible(false)
    expect(health.mock.calls).toEqual([[false], [true]])
    p.setOnline(true)
    expect(t.pending).toEqual([])
    p.stop()
  })

  it('gives up on an answer that polling will not fix', async () => {
    const t = manualTimers()
    const onFatal = vi.fn()
    const p = new Poller<string>({
      fetch: async () => {
        throw new ApiError(404, 'ROOM_NOT_FOUND', '房间不存在')
      },
      onData: () => {}, onFatal, timers: t.timers,
    })
    p.start()
    await flush()
    expect(onFatal.mock.calls[0][0].message).toBe('房间不存在')
    expect(t.pending).toEqual([])
  })
})
