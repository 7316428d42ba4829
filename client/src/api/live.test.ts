import { describe, expect, it, vi } from 'vitest'
import { Live, taroSocket, type LiveInfo, type SocketLike } from './live'
import { Poller } from './poll'
import { networkError } from './errors'
import type { Answer } from './client'
import { isNews, isOlder, onNotice, PUSHED_GRACE_MS, roomDueMs, roomOf, withMarks, withSealed } from '../hooks/usePoll'

/** A socket the test drives: what the client sent, and server-side events on demand. */
class FakeSocket implements SocketLike {
  sent: Record<string, unknown>[] = []
  closed = false
  private h: { open?: () => void; message?: (t: string) => void; close?: () => void } = {}
  constructor(readonly url: string) {}
  send(text: string) { this.sent.push(JSON.parse(text)) }
  close() { this.closed = true; this.h.close?.() }
  onOpen(fn: () => void) { this.h.open = fn }
  onMessage(fn: (t: string) => void) { this.h.message = fn }
  onClose(fn: () => void) { this.h.close = fn }
  open() { this.h.open?.() }
  push(msg: object) { this.h.message?.(JSON.stringify(msg)) }
  drop() { this.h.close?.() }
}

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
    fire(ms?: number) {
      const i = ms === undefined ? 0 : pending.findIndex((p) => p.ms === ms)
      if (i < 0) throw new Error(`nothing scheduled in ${ms} ms: ${pending.map((p) => p.ms)}`)
      const [p] = pending.splice(i, 1)
      p.fn()
      return p.ms
    },
  }
}

const flush = () => new Promise((r) => setTimeout(r, 0))

function setup(info: LiveInfo | Error = { url: 'wss://game.example/v', keepalive_s: 480 }, token: string | null = 'tok en') {
  const t = manualTimers()
  const sockets: FakeSocket[] = []
  const discover = vi.fn(async () => {
    if (info instanceof Error) throw info
    return info
  })
  const live = new Live({
    discover, token: () => token, timers: t.timers, random: () => 0.5, baseMs: 1000, maxBackoffMs: 30000,
    connect: (url) => {
      const s = new FakeSocket(url)
      sockets.push(s)
      return s
    },
  })
  const watcher = () => ({ onChange: vi.fn(), onLive: vi.fn() })
  return { t, sockets, discover, live, watcher }
}

describe('Live', () => {
  it('connects once with the token, subscribes each room, and passes notices to its watchers only', async () => {
    const { sockets, discover, live, watcher } = setup()
    const a = watcher()
    const b = watcher()
    live.watch('rooma', a)
    live.watch('roomb', b)
    await flush()
    expect(discover).toHaveBeenCalledTimes(1)
    expect(sockets.map((s) => s.url)).toEqual(['wss://game.example/v?token=tok%20en'])
    const s = sockets[0]
    s.open()
    expect(s.sent).toEqual([{ action: 'subscribe', room: 'rooma' }, { action: 'subscribe', room: 'roomb' }])
    s.push({ type: 'subscribed', room: 'rooma' })
    expect(a.onLive).toHaveBeenLastCalledWith(true)
    expect(b.onLive).not.toHaveBeenCalled()
    s.push({ type: 'changed', room: 'rooma' })
    s.push({ type: 'changed', room: 'elsewhere' })
    expect(a.onChange).toHaveBeenCalledTimes(1)
    s.push({ type: 'changed', room: 'rooma', version: 7 })
    expect(a.onChange).toHaveBeenLastCalledWith(7, undefined)
    const view = { room: { id: 'rooma', version: 8 }, viewer: {} }
    s.push({ type: 'changed', room: 'rooma', version: 8, view, etag: 'W/"v8"' })
    expect(a.onChange).toHaveBeenLastCalledWith(8, { view, etag: 'W/"v8"' })
    s.push({ type: 'changed', room: 'rooma', version: 9, view })  // a view without its ETag is not taken
    expect(a.onChange).toHaveBeenLastCalledWith(9, undefined)
    expect(b.onChange).not.toHaveBeenCalled()
    expect(live.isLive('rooma')).toBe(true)
    expect(live.isLive('roomb')).toBe(false)
  })

  it('a refused subscription leaves that room polling, the others live', async () => {
    const { sockets, live, watcher } = setup()
    const locked = watcher()
    const open = watcher()
    live.watch('locked', locked)
    live.watch('open', open)
    await flush()
    sockets[0].open()
    sockets[0].push({ type: 'error', room: 'locked', code: 'PASSWORD_REQUIRED', message: '这个房间设了暗号' })
    sockets[0].push({ type: 'subscribed', room: 'open' })
    expect(locked.onLive).toHaveBeenLastCalledWith(false)
    expect(open.onLive).toHaveBeenLastCalledWith(true)
    sockets[0].push({ type: 'unsubscribed', room: 'open' })  // no longer allowed
    expect(open.onLive).toHaveBeenLastCalledWith(false)
  })

  it('when the socket drops, watchers poll again at once and it reconnects with jittered backoff', async () => {
    const { t, sockets, live, watcher } = setup()
    const w = watcher()
    live.watch('room', w)
    await flush()
    sockets[0].open()
    sockets[0].push({ type: 'subscribed', room: 'room' })
    sockets[0].drop()
    expect(w.onLive).toHaveBeenLastCalledWith(false)
    // equal jitter: half of 2^n × 1 s fixed, half random (0.5 here)
    expect(t.fire(1500)).toBe(1500)
    await flush()
    expect(sockets).toHaveLength(2)
    sockets[1].drop()  // failed to connect again
    expect(t.fire(3000)).toBe(3000)
    await flush()
    sockets[2].drop()
    expect(t.fire(6000)).toBe(6000)
    await flush()
    sockets[3].open()
    expect(sockets[3].sent).toEqual([{ action: 'subscribe', room: 'room' }])
    sockets[3].push({ type: 'subscribed', room: 'room' })
    expect(w.onLive).toHaveBeenLastCalledWith(true)
    sockets[3].drop()
    expect(t.fire(1500)).toBe(1500)  // a good connection resets the backoff
  })

  it('pings to stay open, reconnects on an expired token, and closes when no page watches', async () => {
    const { t, sockets, live, watcher } = setup({ url: 'wss://game.example/v', keepalive_s: 300 })
    const stop = live.watch('room', watcher())
    await flush()
    sockets[0].open()
    t.fire(300_000)
    expect(sockets[0].sent.at(-1)).toEqual({ action: 'ping' })
    expect(t.pending.map((p) => p.ms)).toContain(300_000)
    sockets[0].push({ type: 'error', room: 'room', code: 'TOKEN_EXPIRED', message: '登录已过期' })
    expect(sockets[0].closed).toBe(true)
    t.fire(1500)
    await flush()
    sockets[1].open()
    stop()
    expect(sockets[1].sent.at(-1)).toEqual({ action: 'unsubscribe', room: 'room' })
    expect(sockets[1].closed).toBe(false)  // a moment's grace: the next room page reuses it
    const again = live.watch('next', watcher())
    expect(sockets[1].sent.at(-1)).toEqual({ action: 'subscribe', room: 'next' })
    again()
    t.fire(10_000)
    expect(sockets[1].closed).toBe(true)
    expect(sockets).toHaveLength(2)
  })

  it('subscribes with the ETag its page holds, and a view gone stale meanwhile is fetched at once', async () => {
    const { sockets, live } = setup()
    const held = { onChange: vi.fn(), onLive: vi.fn(), etag: () => 'W/"abc"' }
    const fresh = { onChange: vi.fn(), onLive: vi.fn(), etag: () => 'W/"def"' }
    const blank = { onChange: vi.fn(), onLive: vi.fn(), etag: () => undefined }
    live.watch('stale', held)
    live.watch('same', fresh)
    live.watch('new', blank)
    await flush()
    sockets[0].open()
    expect(sockets[0].sent).toEqual([
      { action: 'subscribe', room: 'stale', etag: 'W/"abc"' },
      { action: 'subscribe', room: 'same', etag: 'W/"def"' },
      { action: 'subscribe', room: 'new' },  // nothing fetched yet: nothing to compare
    ])
    sockets[0].push({ type: 'subscribed', room: 'stale', changed: true })
    sockets[0].push({ type: 'subscribed', room: 'same', changed: false })
    sockets[0].push({ type: 'subscribed', room: 'new' })
    expect(held.onChange).toHaveBeenCalledTimes(1)  // changed between its fetch and the subscription
    expect(fresh.onChange).not.toHaveBeenCalled()
    expect(blank.onChange).not.toHaveBeenCalled()
    expect([held, fresh, blank].map((w) => w.onLive.mock.lastCall)).toEqual([[true], [true], [true]])
  })

  it('a keep-alive nobody answers takes the socket for dead: its pages poll and it connects afresh', async () => {
    const { t, sockets, live, watcher } = setup({ url: 'wss://game.example/v', keepalive_s: 300 })
    const w = watcher()
    live.watch('room', w)
    await flush()
    sockets[0].open()
    sockets[0].push({ type: 'subscribed', room: 'room' })
    t.fire(300_000)
    // a watched room's keep-alive is its subscription renewed: the answer also says if a notice was lost
    expect(sockets[0].sent.at(-1)).toEqual({ action: 'subscribe', room: 'room' })
    sockets[0].push({ type: 'subscribed', room: 'room', changed: true })  // answered: no watchdog left
    expect(t.pending.map((p) => p.ms)).not.toContain(20_000)
    expect(w.onChange).toHaveBeenCalledTimes(1)
    w.onChange.mockClear()
    t.fire(300_000)
    expect(sockets[0].sent.at(-1)).toEqual({ action: 'subscribe', room: 'room' })
    expect(w.onLive).toHaveBeenLastCalledWith(true)
    t.fire(20_000)  // half-open: nothing came back
    expect(sockets[0].closed).toBe(true)
    expect(w.onLive).toHaveBeenLastCalledWith(false)
    t.fire(1500)
    await flush()
    expect(sockets).toHaveLength(2)
    sockets[0].push({ type: 'changed', room: 'room' })  // the dead socket is no longer listened to
    expect(w.onChange).not.toHaveBeenCalled()
  })

  it('stays off where the stage has no socket, and retries discovery after a network failure', async () => {
    const off = setup({ url: null, keepalive_s: 480 })
    const w = off.watcher()
    off.live.watch('room', w)
    await flush()
    expect(off.sockets).toHaveLength(0)
    expect(w.onLive).not.toHaveBeenCalled()
    expect(off.t.pending).toHaveLength(0)

    const down = setup(networkError())
    down.live.watch('room', down.watcher())
    await flush()
    expect(down.sockets).toHaveLength(0)
    expect(down.t.pending.map((p) => p.ms)).toEqual([1500])
  })

  it('waits for a login before it connects', async () => {
    const { t, sockets, live, watcher } = setup(undefined, null)
    live.watch('room', watcher())
    await flush()
    expect(sockets).toHaveLength(0)
    expect(t.pending.map((p) => p.ms)).toEqual([1500])
  })
})

describe('taroSocket (mini-program)', () => {
  it('adapts Taro.connectSocket\'s task, whose handlers arrive after its promise', async () => {
    const handlers: Record<string, (arg?: unknown) => void> = {}
    const task = {
      send: vi.fn(), close: vi.fn(),
      onOpen: (fn: () => void) => { handlers.open = fn },
      onMessage: (fn: (r: { data: unknown }) => void) => { handlers.message = fn as (arg?: unknown) => void },
      onClose: (fn: () => void) => { handlers.close = fn },
      onError: (fn: () => void) => { handlers.error = fn },
    }
    const connect = vi.fn(async () => task)
    const s = taroSocket('wss://x/v?token=t', connect)
    const got: string[] = []
    const closed = vi.fn()
    s.onOpen(() => got.push('open'))
    s.onMessage((text) => got.push(text))
    s.onClose(closed)
    await flush()
    expect(connect).toHaveBeenCalledWith({ url: 'wss://x/v?token=t' })
    handlers.open()
    handlers.message({ data: '{"type":"pong"}' })
    s.send('{"action":"ping"}')
    expect(task.send).toHaveBeenCalledWith({ data: '{"action":"ping"}' })
    handlers.error()
    handlers.close()
    expect(got).toEqual(['open', '{"type":"pong"}'])
    expect(closed).toHaveBeenCalledTimes(1)
  })
})

describe('Poller with notices', () => {
  it('makes no timed polls while live: a fetch per notice and at the deadline, polling again when down', async () => {
    const t = manualTimers()
    const seen: (string | undefined)[] = []
    let n = 0
    const fetch = vi.fn(async (etag: string | undefined): Promise<Answer<{ v: number }>> => {
      seen.push(etag)
      n++
      return { status: 200, data: { v: n }, etag: `"${n}"` }
    })
    const p = new Poller<{ v: number }>({
      fetch, onData: () => {}, baseMs: 1500, timers: t.timers, dueMs: (d) => (d.v === 3 ? 90_000 : null),
    })
    p.start()
    await flush()
    expect(t.pending.map((x) => x.ms)).toEqual([1500])
    p.setLive(true)
    expect(t.pending).toEqual([])  // nothing until told
    p.now()  // a notice
    await flush()
    expect(t.pending).toEqual([])
    p.now()
    await flush()
    expect(t.pending.map((x) => x.ms)).toEqual([90_000])  // this view has a deadline: ask when it passes
    expect(seen).toEqual([undefined, '"1"', '"2"'])
    p.setLive(false)
    await flush()
    expect(fetch).toHaveBeenCalledTimes(4)  // polling again at once
    expect(t.pending.map((x) => x.ms)).toEqual([1500])
    p.stop()
  })

  it('after an action of ours, while live, waits for its notice (one fetch), at most 1.5 s', async () => {
    const t = manualTimers()
    const fetch = vi.fn(async (): Promise<Answer<string>> => ({ status: 200, data: 'x', etag: '"x"' }))
    const p = new Poller<string>({ fetch, onData: () => {}, baseMs: 1000, timers: t.timers })
    p.start()
    await flush()
    p.setLive(true)
    p.refresh()
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(t.pending.map((x) => x.ms)).toEqual([1500])
    p.now()  // the notice came
    await flush()
    expect(fetch).toHaveBeenCalledTimes(2)
    expect(t.pending).toEqual([])
    p.refresh()
    t.fire(1500)  // no notice: ask anyway
    await flush()
    expect(fetch).toHaveBeenCalledTimes(3)
    p.setLive(false)
    await flush()
    p.refresh()
    await flush()
    expect(fetch).toHaveBeenCalledTimes(5)  // polling: at once
    p.stop()
  })

  it('a notice that finds the network down backs off as before, and a hidden page asks nothing', async () => {
    const t = manualTimers()
    let fail = true
    const fetch = vi.fn(async (): Promise<Answer<string>> => {
      if (fail) throw networkError()
      return { status: 200, data: 'x', etag: '"x"' }
    })
    const p = new Poller<string>({ fetch, onData: () => {}, baseMs: 1000, timers: t.timers, random: () => 1 })
    p.setLive(true)
    p.start()
    await flush()
    expect(t.pending.map((x) => x.ms)).toEqual([2000])
    fail = false
    t.fire()
    await flush()
    expect(t.pending).toEqual([])
    p.setVisible(false)
    p.now()
    await flush()
    expect(fetch).toHaveBeenCalledTimes(2)
    p.stop()
  })
})

describe('room views', () => {
  it('knows a room view and when its deadline passes, by the server clock', () => {
    expect(roomOf({ room: { id: 'abc' }, viewer: { role: 'player' } })).toBe('abc')
    expect(roomOf({ rooms: [], cursor: null })).toBeNull()
    const view = { room: { id: 'abc' }, viewer: {}, pending: { deadline_ms: 100_000 }, server_time: 40_000 }
    expect(roomDueMs(view, 5_000, 15_000, () => 0)).toBe(50_300)
    expect(roomDueMs(view, 5_000, 500_000, () => 1)).toBe(1_500)
    expect(roomDueMs({ ...view, pending: null }, 0, 0)).toBeNull()
  })
})

describe('isNews', () => {
  it('skips a notice of a version the page already shows, never one it cannot compare', () => {
    const view = (version: number | null) => ({ room: { id: 'r', version }, viewer: {} })
    expect(isNews(7, view(7))).toBe(false)  // her own action's answer carried it
    expect(isNews(7, view(8))).toBe(false)
    expect(isNews(8, view(7))).toBe(true)
    expect(isNews(undefined, view(7))).toBe(true)  // a notice without a version (steps hidden from her)
    expect(isNews(3, view(null))).toBe(true)
    expect(isNews(3, undefined)).toBe(true)  // nothing shown yet
  })
})

describe('onNotice', () => {
  it('shows a pushed view only on a page that asks for the plain view, and only when it is news', () => {
    const view = (version: number | null) => ({ room: { id: 'r', version }, viewer: {} })
    const pushed = (version: number | null) => ({ view: view(version), etag: `W/"${version}"` })
    expect(onNotice(8, pushed(8), view(7), true)).toBe('accept')
    expect(onNotice(8, pushed(8), view(7), false)).toBe('fetch')  // 深宫杀 asks with its reports folded in
    expect(onNotice(8, undefined, view(7), true)).toBe('fetch')  // too large to carry: fetch it
    expect(onNotice(7, pushed(7), view(7), true)).toBe('none')  // her own action's answer showed it
    expect(onNotice(undefined, pushed(null), view(null), true)).toBe('accept')  // steps hidden: no version
    expect(onNotice(undefined, pushed(5), view(6), true)).toBe('none')  // never back to an older view
  })
})

describe('Poller with a pushed view', () => {
  it('shows it without a request, and asks with its ETag next', async () => {
    const t = manualTimers()
    const seen: unknown[] = []
    const fetch = vi.fn(async (etag: string | undefined): Promise<Answer<unknown>> => ({ status: 200, data: { etag }, etag: 'W/"1"' }))
    const p = new Poller<unknown>({ fetch, onData: (d) => seen.push(d), timers: t.timers, random: () => 0 })
    p.start()
    await flush()
    p.setLive(true)
    expect(fetch).toHaveBeenCalledTimes(1)
    p.accept({ pushed: true }, 'W/"2"')
    await flush()
    expect(fetch).toHaveBeenCalledTimes(1)
    expect(seen.at(-1)).toEqual({ pushed: true })
    expect(p.currentEtag).toBe('W/"2"')
    expect(t.pending).toEqual([])  // live: no timed poll after it either
    p.now()
    await flush()
    expect(fetch).toHaveBeenLastCalledWith('W/"2"')
  })

  it('a notice without a view waits a moment for the burst\'s last notice, whose view spares the fetch', async () => {
    const t = manualTimers()
    const fetch = vi.fn(async (): Promise<Answer<unknown>> => ({ status: 200, data: {}, etag: 'W/"1"' }))
    const p = new Poller<unknown>({ fetch, onData: () => {}, timers: t.timers, random: () => 0 })
    p.start()
    await flush()
    p.setLive(true)
    p.soon(PUSHED_GRACE_MS)  // version 5, without its view
    expect(t.pending.map((x) => x.ms)).toEqual([PUSHED_GRACE_MS])
    p.accept({ v: 6 }, 'W/"6"')  // version 6 with its view, in the same burst
    expect(t.pending).toEqual([])
    expect(fetch).toHaveBeenCalledTimes(1)  // the first view only
    p.soon(PUSHED_GRACE_MS)  // a notice whose view never comes (too large): it fetches
    const first = t.pending[0]
    p.soon(PUSHED_GRACE_MS)  // more plain notices while the grace runs do not put the fetch off
    p.soon(PUSHED_GRACE_MS)
    expect(t.pending).toEqual([first])
    t.fire(PUSHED_GRACE_MS)
    await flush()
    expect(fetch).toHaveBeenCalledTimes(2)
  })
})

describe('sealed notices', () => {
  it('reach the room\'s watchers as (step, seat), never as a change; a malformed one is dropped', async () => {
    const { sockets, live } = setup()
    const w = { onChange: vi.fn(), onLive: vi.fn(), onSealed: vi.fn() }
    const other = { onChange: vi.fn(), onLive: vi.fn(), onSealed: vi.fn() }
    const plain = { onChange: vi.fn(), onLive: vi.fn() }  // a list page: no onSealed, nothing asked
    live.watch('room', w)
    live.watch('room', plain)
    live.watch('elsewhere', other)
    await flush()
    sockets[0].open()
    sockets[0].push({ type: 'subscribed', room: 'room' })
    sockets[0].push({ type: 'sealed', room: 'room', step: 4, seat: 2 })
    sockets[0].push({ type: 'sealed', room: 'room', step: '4', seat: 1 })
    sockets[0].push({ type: 'sealed', room: 'room', step: 4 })
    expect(w.onSealed.mock.calls).toEqual([[4, 2]])
    expect(w.onChange).not.toHaveBeenCalled()
    expect(plain.onChange).not.toHaveBeenCalled()
    expect(other.onSealed).not.toHaveBeenCalled()
  })

  const held = {
    room: { id: 'r', step: 4, version: 9 }, viewer: { role: 'player', seat: 0 },
    pending: { kind: 'sealed', seats: [0, 1, 2], submitted: [2], my_move: null }, reports: { reports: [] },
  }

  it('mark the seat in a held view of the same step, once; a notice of another step changes nothing', () => {
    const marked = withSealed(held, 4, 0)
    expect(marked.pending.submitted).toEqual([0, 2])
    expect(marked.room).toBe(held.room)  // the rest as it was (the folded reports are not taken in twice)
    expect(marked.reports).toBe(held.reports)
    expect(held.pending.submitted).toEqual([2])  // the held view is not changed under the page
    expect(withSealed(marked, 4, 0)).toBe(marked)  // idempotent: a redelivered notice
    expect(withSealed(held, 3, 1)).toBe(held)  // a round already settled
    expect(withSealed(held, 5, 1)).toBe(held)  // a round this view does not show yet: its fetch will
    const hidden = { ...held, room: { ...held.room, step: null } }
    expect(withSealed(hidden, 4, 1)).toBe(hidden)  // no step to compare: nothing
    const turn = { ...held, pending: { ...held.pending, kind: 'turn', submitted: null } }
    expect(withSealed(turn, 4, 1)).toBe(turn)
    expect(withSealed({ ...held, pending: { ...held.pending, submitted: null } }, 4, 1).pending.submitted).toEqual([1])
    expect(withSealed(undefined, 4, 1)).toBeUndefined()
  })

  it('a view of the round fetched across a sealed notice keeps the seat it told of; older rounds are forgotten', () => {
    const marks = new Map([[3, new Set([1])], [4, new Set([0])]])
    const fetched = withMarks(held, marks)  // asked before 0 sealed, answered after her notice
    expect(fetched.pending.submitted).toEqual([0, 2])
    expect([...marks.keys()]).toEqual([4])  // round 3 has settled: its marks go
    expect(withMarks(held, new Map())).toBe(held)
    const next = { ...held, room: { ...held.room, step: 5 }, pending: { ...held.pending, submitted: [] } }
    expect(withMarks(next, marks)).toBe(next)  // the next round starts with no one sealed
    expect(marks.size).toBe(0)
  })

  it('a marked view is kept without a request, and a view fetched later wins', async () => {
    const t = manualTimers()
    const seen: unknown[] = []
    let answer: unknown = held
    const fetch = vi.fn(async (): Promise<Answer<unknown>> => ({ status: 200, data: answer, etag: 'W/"f"' }))
    const p = new Poller<unknown>({ fetch, onData: (d) => seen.push(d), timers: t.timers, random: () => 0 })
    p.patch(withSealed(held, 4, 1))  // before the first answer: nothing held, nothing marked
    expect(p.currentData).toBeUndefined()
    p.start()
    await flush()
    p.setLive(true)
    const marked = withSealed(p.currentData, 4, 1)
    p.patch(marked)
    await flush()
    expect(fetch).toHaveBeenCalledTimes(1)  // no request
    expect(p.currentData).toBe(marked)
    expect(p.currentEtag).toBe('W/"f"')  // the fetched view's tag: a fetch with it is answered afresh
    expect(seen).toHaveLength(1)  // the page shows it itself (usePoll sets it), onData is for answers
    answer = { ...held, room: { ...held.room, step: 5, version: 10 }, pending: { ...held.pending, submitted: [] } }
    p.now()
    await flush()
    expect(p.currentData).toBe(answer)  // the round settled: the fetched view, whatever the marks said
    expect(withSealed(p.currentData, 4, 0)).toBe(answer)  // a late notice of the old round: ignored
  })
})

describe('isOlder', () => {
  it('keeps a newer view on screen when a slow action answer lands after it; takes what it cannot compare', () => {
    const view = (version: number | null, id = 'r') => ({ room: { id, version }, viewer: {} })
    expect(isOlder(view(5), view(6))).toBe(true)  // a notice's fetch overtook her action's answer
    expect(isOlder(view(6), view(6))).toBe(false)
    expect(isOlder(view(7), view(6))).toBe(false)
    expect(isOlder(view(null), view(6))).toBe(false)  // steps hidden from her: no version to compare
    expect(isOlder(view(5, 'other'), view(6))).toBe(false)  // another room's view (a 再战 room)
    expect(isOlder(view(5), undefined)).toBe(false)
  })
})
