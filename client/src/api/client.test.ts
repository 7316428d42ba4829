import { beforeEach, describe, expect, it, vi } from 'vitest'
import Taro from '@tarojs/taro'
import { ApiClient, buildUrl } from './client'
import { ApiError, messageOf, NETWORK_MESSAGE, networkError, notDelivered } from './errors'
import { KEYS, Session, taroStore } from './session'
import { fetchTransport, taroTransport, type Transport } from './transport'

const fake = Taro as unknown as {
  request: ReturnType<typeof vi.fn>
  login: ReturnType<typeof vi.fn>
  _storage: Map<string, unknown>
}

function json(status: number, body: unknown, headers: Record<string, string> = {}) {
  return {
    status,
    headers: new Headers({ 'Content-Type': 'application/json', ...headers }),
    text: async () => (body === undefined ? '' : JSON.stringify(body)),
  }
}

const user = { id: 'u1', name: '甄嬛', role: 'player', consort: 'demo00' }
const loginOut = (token: string) => ({ token, expires_at: 9e12, user })

beforeEach(() => {
  fake._storage.clear()
  fake.request.mockReset()
  fake.login.mockClear()
})

describe('buildUrl', () => {
  it('fills path parameters, encodes them and drops empty query values', () => {
    expect(buildUrl('', '/v1/rooms/{room_id}', { params: { path: { room_id: 'a b/c' } } })).toBe('/v1/rooms/a%20b%2Fc')
    expect(buildUrl('http://x', '/v1/rooms', { params: { query: { game: '宫斗', cursor: null, limit: 5 } } }))
      .toBe('http://x/v1/rooms?game=%E5%AE%AB%E6%96%97&limit=5')
  })
})

describe('over fetch (H5)', () => {
  it('sends JSON with the bearer token and returns the parsed body', async () => {
    fake._storage.set(KEYS.token, 'T1')
    const fetchFake = vi.fn(async () => json(200, { rooms: [], cursor: null }))
    const session = new Session(taroStore, 'h5')
    const api = new ApiClient({ baseUrl: '', transport: fetchTransport(fetchFake), auth: session })
    const out = await api.GET('/v1/rooms', { params: { query: { game: 'shengong_d' } } })
    expect(out.rooms).toEqual([])
    const [url, init] = fetchFake.mock.calls[0] as unknown as [string, { method: string; headers: Record<string, string> }]
    expect(url).toBe('/v1/rooms?game=shengong_d')
    expect(init.method).toBe('GET')
    expect(init.headers.Authorization).toBe('Bearer T1')
  })

  it('throws the API error with its Chinese message', async () => {
    const fetchFake = vi.fn(async () => json(409, { code: 'ROOM_FULL', message: '房间已满' }))
    const api = new ApiClient({ baseUrl: '', transport: fetchTransport(fetchFake) })
    const err = await api.POST('/v1/rooms/{room_id}/join', { params: { path: { room_id: 'r1' } }, body: {} }).catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.code).toBe('ROOM_FULL')
    expect(messageOf(err)).toBe('房间已满')
  })

  it('turns a failed fetch into a network error with the reconnect line', async () => {
    const fetchFake = vi.fn(async () => {
      throw new TypeError('Failed to fetch')
    })
    const api = new ApiClient({ baseUrl: '', transport: fetchTransport(fetchFake) })
    const err = await api.GET('/v1/games').catch((e) => e)
    expect(err.isNetwork).toBe(true)
    expect(err.message).toBe('网络不稳，正在重连…')
  })

  it('answers 304 with no data and keeps the ETag', async () => {
    const fetchFake = vi.fn(async () => json(304, undefined, { ETag: '"v7"' }))
    const api = new ApiClient({ baseUrl: '', transport: fetchTransport(fetchFake) })
    const answer = await api.GETIfChanged('/v1/rooms/{room_id}', '"v7"', { params: { path: { room_id: 'r1' } } })
    expect(answer).toEqual({ status: 304, data: undefined, etag: '"v7"' })
    const init = (fetchFake.mock.calls[0] as unknown as [string, { headers: Record<string, string> }])[1]
    expect(init.headers['If-None-Match']).toBe('"v7"')
  })

  it('on TOKEN_EXPIRED logs in again by the stored name and retries once', async () => {
    fake._storage.set(KEYS.token, 'OLD')
    fake._storage.set(KEYS.name, '甄嬛')
    const calls: string[] = []
    const fetchFake = vi.fn(async (url: string, init: { headers: Record<string, string>; body?: string }) => {
      calls.push(`${url} ${init.headers.Authorization ?? '-'} ${init.body ?? ''}`)
      if (url === '/v1/auth/dev') return json(200, loginOut('NEW'))
      if (init.headers.Authorization === 'Bearer OLD') return json(401, { code: 'TOKEN_EXPIRED', message: '登录已过期，请重新登录' })
      return json(200, { user, consort: null })
    })
    const session = new Session(taroStore, 'h5')
    const api = new ApiClient({ baseUrl: '', transport: fetchTransport(fetchFake), auth: session })
    session.api = api
    const me = await api.GET('/v1/me')
    expect(me.user.name).toBe('甄嬛')
    expect(calls).toEqual([
      '/v1/me Bearer OLD ',
      '/v1/auth/dev - {"name":"甄嬛"}',
      '/v1/me Bearer NEW ',
    ])
    expect(fake._storage.get(KEYS.token)).toBe('NEW')
  })

  it('concurrent expired calls share one re-login; a second refusal signs out', async () => {
    fake._storage.set(KEYS.token, 'OLD')
    fake._storage.set(KEYS.name, '甄嬛')
    let logins = 0
    const fetchFake = vi.fn(async (url: string) => {
      if (url === '/v1/auth/dev') {
        logins++
        return json(200, loginOut('NEW'))
      }
      return json(401, { code: 'TOKEN_EXPIRED', message: '登录已过期，请重新登录' })
    })
    const session = new Session(taroStore, 'h5')
    const api = new ApiClient({ baseUrl: '', transport: fetchTransport(fetchFake), auth: session })
    session.api = api
    const signedOut = vi.fn()
    session.onSignedOut(signedOut)
    const results = await Promise.allSettled([api.GET('/v1/me'), api.GET('/v1/games')])
    expect(results.every((r) => r.status === 'rejected')).toBe(true)
    expect(logins).toBe(1)
    expect(signedOut).toHaveBeenCalled()
    expect(fake._storage.has(KEYS.token)).toBe(false)
  })
})

describe('refresh token (contract v2)', () => {
  it('renews with POST /v1/auth/refresh when a refresh token is stored, else falls back to login', async () => {
    fake._storage.set(KEYS.token, 'OLD')
    fake._storage.set(KEYS.name, '甄嬛')
    const calls: string[] = []
    let refreshWorks = true
    const fetchFake = vi.fn(async (url: string, init: { headers: Record<string, string>; body?: string }) => {
      calls.push(url)
      if (url === '/v1/auth/dev') return json(200, { ...loginOut('VIA-LOGIN'), refresh_token: 'R2' })
      if (url === '/v1/auth/refresh') {
        expect(JSON.parse(init.body!)).toEqual({ refresh_token: 'R1' })
        return refreshWorks ? json(200, { ...loginOut('VIA-REFRESH'), refresh_token: 'R1' })
          : json(401, { code: 'TOKEN_EXPIRED', message: '登录已过期，请重新登录' })
      }
      if (init.headers.Authorization === 'Bearer OLD') return json(401, { code: 'TOKEN_EXPIRED', message: '登录已过期，请重新登录' })
      return json(200, { games: [] })
    })
    const session = new Session(taroStore, 'h5')
    const api = new ApiClient({ baseUrl: '', transport: fetchTransport(fetchFake), auth: session })
    session.api = api
    fake._storage.set(KEYS.refresh, 'R1')
    await api.GET('/v1/games')
    expect(calls).toEqual(['/v1/games', '/v1/auth/refresh', '/v1/games'])
    expect(fake._storage.get(KEYS.token)).toBe('VIA-REFRESH')
    calls.length = 0
    fake._storage.set(KEYS.token, 'OLD')
    refreshWorks = false
    await api.GET('/v1/games')
    expect(calls).toEqual(['/v1/games', '/v1/auth/refresh', '/v1/auth/dev', '/v1/games'])
    expect(fake._storage.get(KEYS.token)).toBe('VIA-LOGIN')
    expect(fake._storage.get(KEYS.refresh)).toBe('R2')
  })
})

describe('over Taro.request (weapp)', () => {
  it('passes method, header and JSON text; parses the text answer; lower-cases headers', async () => {
    fake._storage.set(KEYS.token, 'T1')
    fake.request.mockResolvedValue({ statusCode: 200, header: { ETag: '"v3"' }, data: JSON.stringify({ board: 'coop-free', rows: [] }) })
    const api = new ApiClient({ baseUrl: 'https://api.example', transport: taroTransport(), auth: new Session(taroStore, 'weapp') })
    const answer = await api.GETIfChanged('/v1/boards/{board}', undefined, { params: { path: { board: 'coop-free' } } })
    expect(answer).toEqual({ status: 200, data: { board: 'coop-free', rows: [] }, etag: '"v3"' })
    const opts = fake.request.mock.calls[0][0]
    expect(opts.url).toBe('https://api.example/v1/boards/coop-free')
    expect(opts.method).toBe('GET')
    expect(opts.header.Authorization).toBe('Bearer T1')
    expect(opts.dataType).toBe('text')
  })

  it('sends a body as JSON text with its content type', async () => {
    fake.request.mockResolvedValue({ statusCode: 200, header: {}, data: JSON.stringify({ room: {} }) })
    const api = new ApiClient({ baseUrl: '', transport: taroTransport() })
    await api.POST('/v1/rooms', { body: { game: 'shengong_d', options: { stage: 1 } } })
    const opts = fake.request.mock.calls[0][0]
    expect(opts.method).toBe('POST')
    expect(opts.header['Content-Type']).toBe('application/json')
    expect(JSON.parse(opts.data)).toEqual({ game: 'shengong_d', options: { stage: 1 } })
  })

  it('maps a failed request (no network) to the reconnect line', async () => {
    fake.request.mockRejectedValue({ errMsg: 'request:fail timeout' })
    const api = new ApiClient({ baseUrl: '', transport: taroTransport() })
    const err = await api.GET('/v1/games').catch((e) => e)
    expect(err).toBeInstanceOf(ApiError)
    expect(err.isNetwork).toBe(true)
    expect(err.details).toEqual({ detail: 'request:fail timeout' })
  })

  it('on TOKEN_EXPIRED calls Taro.login, POSTs the code to /v1/auth/wechat and retries', async () => {
    fake._storage.set(KEYS.token, 'OLD')
    fake.request.mockImplementation(async (opts: { url: string; header: Record<string, string>; data?: string }) => {
      if (opts.url.endsWith('/v1/auth/wechat')) {
        expect(JSON.parse(opts.data!)).toEqual({ code: 'wx-code' })
        return { statusCode: 200, header: {}, data: JSON.stringify(loginOut('NEW')) }
      }
      if (opts.header.Authorization === 'Bearer OLD') {
        return { statusCode: 401, header: {}, data: JSON.stringify({ code: 'TOKEN_EXPIRED', message: '登录已过期，请重新登录' }) }
      }
      return { statusCode: 200, header: {}, data: JSON.stringify({ games: [] }) }
    })
    const session = new Session(taroStore, 'weapp')
    const api = new ApiClient({ baseUrl: 'https://api.example', transport: taroTransport(), auth: session })
    session.api = api
    expect(await api.GET('/v1/games')).toEqual({ games: [] })
    expect(fake.login).toHaveBeenCalledTimes(1)
    expect(fake.request).toHaveBeenCalledTimes(3)
    expect(fake._storage.get(KEYS.token)).toBe('NEW')
  })

  it('a non-JSON error page becomes a generic message with the status', async () => {
    fake.request.mockResolvedValue({ statusCode: 502, header: {}, data: '<html>Bad gateway</html>' })
    const api = new ApiClient({ baseUrl: '', transport: taroTransport() })
    const err = await api.GET('/v1/games').catch((e) => e)
    expect(err.message).toBe('服务器开小差了（502），请稍后再试')
  })
})

describe('platform choice', () => {
  it('H5 uses fetch and the mini-program Taro.request', async () => {
    const { platformTransport } = await import('./transport')
    const fetchSpy = vi.fn(async () => json(200, { ok: true }))
    vi.stubGlobal('fetch', fetchSpy)
    vi.stubEnv('TARO_ENV', 'h5')
    let t: Transport = platformTransport()
    await t({ method: 'GET', url: '/x', headers: {} })
    expect(fetchSpy).toHaveBeenCalledTimes(1)
    vi.stubEnv('TARO_ENV', 'weapp')
    fake.request.mockResolvedValue({ statusCode: 200, header: {}, data: '{}' })
    t = platformTransport()
    await t({ method: 'GET', url: '/x', headers: {} })
    expect(fake.request).toHaveBeenCalledTimes(1)
    expect(fetchSpy).toHaveBeenCalledTimes(1)
    vi.unstubAllEnvs()
    vi.unstubAllGlobals()
  })
})

describe('a tap that got no answer', () => {
  it('says 「没有送达」 (tap again), not the banner\'s 「正在重连」: nothing sends a tap again by itself', () => {
    const lost = notDelivered(networkError('timeout'))
    expect(messageOf(lost)).toMatch(/^没有送达/)
    expect(messageOf(lost)).not.toBe(NETWORK_MESSAGE)
    // the server's refusal is shown in its own words
    const refused = new ApiError(409, 'CONSORT_TAKEN', '这位妃子已有主')
    expect(notDelivered(refused)).toBe(refused)
  })
})
