/**
 * Room notices over a WebSocket, so a waiting phone makes no requests: the server tells a socket
 * `{"type": "changed", "room": R, "version": V}` when what this player may see in room R changed
 * (no state of the room; the version only to a player whose view shows it anyway), and the page
 * fetches its own view with If-None-Match — unless it already holds version V. Where the stage pushes
 * views for the game (PUSH_VIEWS: by default 保皇 and 血染), the notice also carries her own view and its
 * ETag, exactly as her GET would answer them, and a page that asks for that plain view shows it without
 * a request. A sealed move is told as `{"type": "sealed", "room": R, "step": S, "seat": k}` (who has
 * sealed in round S: what every viewer's own view shows anyway, never the move): no fetch, the page
 * marks the seat in the view it holds (hooks/usePoll, `withSealed`).
 *
 * One socket for the app (`live`), shared by every page that watches a room. GET /v1/live says where
 * it is (null: this stage has none, so pages keep polling). The token travels as a query parameter
 * (a browser cannot set headers on a WebSocket). While the socket is up and a room's subscription is
 * confirmed, its watchers are `live` (the Poller stops its timed polls); when the socket drops they are
 * told at once (polling resumes, with its backoff) and it reconnects with jittered exponential backoff.
 * Both targets: `WebSocket` on H5, `Taro.connectSocket` in the mini-program.
 */
import Taro from '@tarojs/taro'
import { api, session } from './index'
import { backoffDelay, realTimers, type Timers } from './poll'

/** The little the Live channel needs from a socket (both platforms adapt to it; tests fake it). */
export interface SocketLike {
  send(text: string): void
  close(): void
  onOpen(fn: () => void): void
  onMessage(fn: (text: string) => void): void
  /** Closed or failed: called once. */
  onClose(fn: () => void): void
}

export type SocketFactory = (url: string) => SocketLike

/** A socket on the platform this bundle was built for. */
export function platformSocket(url: string): SocketLike {
  if (process.env.TARO_ENV === 'h5') {
    const ws = new WebSocket(url)
    let closed = false
    return {
      send: (text) => ws.send(text),
      close: () => ws.close(),
      onOpen: (fn) => ws.addEventListener('open', () => fn()),
      onMessage: (fn) => ws.addEventListener('message', (e: MessageEvent) => fn(String(e.data))),
      onClose: (fn) => {
        const once = () => {
          if (!closed) {
            closed = true
            fn()
          }
        }
        ws.addEventListener('close', once)
        ws.addEventListener('error', once)
      },
    }
  }
  return taroSocket(url)
}

interface TaskLike {
  send(o: { data: string }): void
  close(o: { code?: number }): void
  onOpen(fn: () => void): void
  onMessage(fn: (res: { data: unknown }) => void): void
  onClose(fn: () => void): void
  onError(fn: () => void): void
}

/** Mini-program: Taro.connectSocket (wx.connectSocket), whose task arrives through a promise. */
export function taroSocket(url: string, connect?: (o: { url: string }) => Promise<TaskLike>): SocketLike {
  const open = connect ?? (Taro.connectSocket as unknown as (o: { url: string }) => Promise<TaskLike>)
  const handlers: { open?: () => void; message?: (t: string) => void; close?: () => void } = {}
  let task: TaskLike | null = null
  let done = false
  let closing = false
  const closed = () => {
    if (!done) {
      done = true
      handlers.close?.()
    }
  }
  open({ url }).then((t) => {
    task = t
    if (closing) {
      t.close({})
      return
    }
    t.onOpen(() => handlers.open?.())
    t.onMessage((res) => handlers.message?.(typeof res.data === 'string' ? res.data : ''))
    t.onClose(closed)
    t.onError(closed)
  }, closed)
  return {
    send: (text) => task?.send({ data: text }),
    close: () => {
      closing = true
      task?.close({})
    },
    onOpen: (fn) => { handlers.open = fn },
    onMessage: (fn) => { handlers.message = fn },
    onClose: (fn) => { handlers.close = fn },
  }
}

/** Her own view of the room as `GET /v1/games/{family}/rooms/{id}` answers it, and that answer's
 * ETag: carried by a notice where the server pushes views for the room's game. */
export interface PushedView {
  view: unknown
  etag: string
}

/** A page watching one room. */
export interface RoomWatch {
  /** Something this player may see changed (in `version`, when the notice names it): fetch the view
   * (If-None-Match) unless it is already that version or newer — or show `pushed`, when it came. */
  onChange(version?: number, pushed?: PushedView): void
  /** Seat `seat` sealed its move in the round of step `step` (nothing to fetch: mark it in the view
   * held, if that view is of the same step). */
  onSealed?(step: number, seat: number): void
  /** true: notices come for this room (stop polling); false: they do not (poll). */
  onLive(live: boolean): void
  /** The ETag of the view this page holds: sent with the subscription, whose answer says whether
   * it is still current (a change between the page's fetch and the subscription is not lost). */
  etag?(): string | undefined
}

export interface LiveInfo {
  url: string | null
  keepalive_s: number
}

export interface LiveOptions {
  /** GET /v1/live. */
  discover: () => Promise<LiveInfo>
  /** The current access token (null: not logged in). */
  token: () => string | null
  connect?: SocketFactory
  timers?: Timers
  random?: () => number
  /** First reconnect delay (ms); doubles per failure up to maxBackoffMs, half of it random. */
  baseMs?: number
  maxBackoffMs?: number
  /** How long an unused socket stays open (moving from one room page to the next keeps it). */
  idleCloseMs?: number
  /** After a ping, how long to wait for any message before taking the socket for dead (ms): a
   * half-open connection (a phone that changed networks) would otherwise hear nothing, silently. */
  pongWaitMs?: number
}

interface ServerMessage {
  type?: string
  room?: string | null
  code?: string
  /** On `subscribed`: the view whose ETag was sent is no longer current. */
  changed?: boolean
  /** On `changed`, for a viewer who sees the room's version. */
  version?: number
  /** On `changed`, where the server pushes views: hers, and its ETag. */
  view?: unknown
  etag?: string
  /** On `sealed`: the round's step, and the seat that sealed. */
  step?: number
  seat?: number
}

export class Live {
  private readonly o: Required<Omit<LiveOptions, 'connect'>> & { connect: SocketFactory }
  private readonly rooms = new Map<string, Set<RoomWatch>>()
  private readonly confirmed = new Set<string>()
  private socket: SocketLike | null = null
  private open = false
  private connecting = false
  private info: LiveInfo | null | undefined
  private failures = 0
  private retry: unknown = null
  private idle: unknown = null
  private keepalive: unknown = null
  private pong: unknown = null

  constructor(opts: LiveOptions) {
    this.o = {
      timers: realTimers, random: Math.random, baseMs: 1000, maxBackoffMs: 30000, idleCloseMs: 10000, pongWaitMs: 20000,
      connect: platformSocket, ...opts,
    }
  }

  /** Whether notices come for this room now. */
  isLive(room: string): boolean {
    return this.open && this.confirmed.has(room)
  }

  /** Watch a room until the returned function is called. */
  watch(room: string, watcher: RoomWatch): () => void {
    let set = this.rooms.get(room)
    const fresh = !set
    if (!set) {
      set = new Set()
      this.rooms.set(room, set)
    }
    set.add(watcher)
    this.clear('idle')
    if (this.isLive(room)) watcher.onLive(true)
    else if (fresh && this.open) this.subscribe(room)
    this.ensure()
    return () => this.unwatch(room, watcher)
  }

  private unwatch(room: string, watcher: RoomWatch): void {
    const set = this.rooms.get(room)
    if (!set?.delete(watcher) || set.size) return
    this.rooms.delete(room)
    this.confirmed.delete(room)
    if (this.open) this.send({ action: 'unsubscribe', room })
    if (!this.rooms.size) {
      this.clear('retry')
      this.clear('idle')
      this.idle = this.o.timers.set(() => {
        this.idle = null
        if (!this.rooms.size) this.drop()
      }, this.o.idleCloseMs)
    }
  }

  private subscribe(room: string): void {
    let etag: string | undefined
    for (const w of this.rooms.get(room) ?? []) etag ??= w.etag?.()
    this.send(etag ? { action: 'subscribe', room, etag } : { action: 'subscribe', room })
  }

  private clear(which: 'retry' | 'idle' | 'keepalive' | 'pong'): void {
    const handle = this[which]
    if (handle !== null) this.o.timers.clear(handle)
    this[which] = null
  }

  private send(message: object): void {
    try {
      this.socket?.send(JSON.stringify(message))
    } catch {
      // closing: onClose follows
    }
  }

  private ensure(): void {
    if (this.socket || this.connecting || this.retry !== null || !this.rooms.size || this.info === null) return
    this.connecting = true
    void this.connect().finally(() => { this.connecting = false })
  }

  private async connect(): Promise<void> {
    if (this.info === undefined) {
      try {
        this.info = await this.o.discover()
      } catch {
        this.later()
        return
      }
    }
    const token = this.o.token()
    if (!this.info?.url || this.socket || !this.rooms.size) return
    if (!token) {
      this.later()
      return
    }
    const sep = this.info.url.includes('?') ? '&' : '?'
    const socket = this.o.connect(`${this.info.url}${sep}token=${encodeURIComponent(token)}`)
    this.socket = socket
    socket.onOpen(() => {
      if (this.socket !== socket) return
      this.open = true
      this.failures = 0
      for (const room of this.rooms.keys()) this.subscribe(room)
      this.ping()
    })
    socket.onMessage((text) => {
      if (this.socket === socket) this.receive(text)
    })
    socket.onClose(() => {
      if (this.socket === socket) this.closed()
    })
  }

  private ping(): void {
    this.clear('keepalive')
    const every = Math.max(30, this.info?.keepalive_s ?? 480) * 1000
    this.keepalive = this.o.timers.set(() => {
      this.keepalive = null
      if (!this.open) return
      // where rooms are watched, the keep-alive is their subscriptions renewed with the views' ETags:
      // the answers say whether a notice went missing since (a post the gateway failed), and a page
      // whose view is stale fetches it — a lost notice costs minutes at most, never the whole wait
      if (this.confirmed.size) for (const room of this.confirmed) this.subscribe(room)
      else this.send({ action: 'ping' })
      const socket = this.socket
      this.clear('pong')
      this.pong = this.o.timers.set(() => {
        this.pong = null
        if (this.socket !== socket || !socket) return
        this.closed() // no answer to the ping: take it for dead, poll, and connect afresh …
        socket.close() // … and its own close event, if one ever comes, finds it already forgotten
      }, this.o.pongWaitMs)
      this.ping()
    }, every)
  }

  private receive(text: string): void {
    this.clear('pong') // anything heard means the socket is alive
    let msg: ServerMessage
    try {
      msg = JSON.parse(text) as ServerMessage
    } catch {
      return
    }
    const room = typeof msg.room === 'string' ? msg.room : null
    if (msg.type === 'error' && msg.code === 'TOKEN_EXPIRED') {
      this.socket?.close() // a fresh connection carries the renewed token
      return
    }
    if (!room) return
    const watchers = [...(this.rooms.get(room) ?? [])]
    if (msg.type === 'subscribed') {
      if (!this.rooms.has(room)) return
      this.confirmed.add(room)
      for (const w of watchers) w.onLive(true)
      if (msg.changed === true) for (const w of watchers) w.onChange()
    } else if (msg.type === 'changed') {
      const version = typeof msg.version === 'number' ? msg.version : undefined
      const pushed = msg.view && typeof msg.view === 'object' && typeof msg.etag === 'string'
        ? { view: msg.view, etag: msg.etag } : undefined
      for (const w of watchers) w.onChange(version, pushed)
    } else if (msg.type === 'sealed') {
      const { step, seat } = msg
      if (typeof step === 'number' && typeof seat === 'number') for (const w of watchers) w.onSealed?.(step, seat)
    } else if (msg.type === 'error' || msg.type === 'unsubscribed') {
      // refused (a 暗号 room, too many rooms) or no longer allowed: this room's pages poll
      if (this.confirmed.delete(room) || msg.type === 'error') for (const w of watchers) w.onLive(false)
    }
  }

  private closed(): void {
    const was = [...this.confirmed]
    this.socket = null
    this.open = false
    this.confirmed.clear()
    this.clear('keepalive')
    this.clear('pong')
    for (const room of was) for (const w of this.rooms.get(room) ?? []) w.onLive(false)
    if (this.rooms.size) this.later()
  }

  private later(): void {
    this.failures++
    this.clear('retry')
    this.retry = this.o.timers.set(() => {
      this.retry = null
      this.ensure()
    }, backoffDelay(this.failures, this.o.baseMs, this.o.maxBackoffMs, this.o.random))
  }

  private drop(): void {
    const socket = this.socket
    this.socket = null
    this.open = false
    this.confirmed.clear()
    this.clear('keepalive')
    this.clear('pong')
    socket?.close()
  }
}

let shared: Live | null = null

/** The app's one channel (built on first use): GET /v1/live through the app's client, its token. */
export function appLive(): Live {
  if (!shared) {
    shared = new Live({
      discover: () => api.GET('/v1/live'),
      token: () => session.token(),
    })
  }
  return shared
}
