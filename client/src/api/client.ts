/**
 * A tiny typed client in the manner of openapi-fetch, over any Transport:
 *
 *   const view = await api.GET('/v1/rooms/{room_id}', { params: { path: { room_id } } })
 *   await api.POST('/v1/rooms/{room_id}/join', { params: { path: { room_id } }, body: { password } })
 *
 * Paths, parameters, bodies and results are checked against `schema.d.ts`. Non-2xx answers throw an
 * ApiError carrying the API's `{code, message, details}`. An expired token is renewed once through
 * the Session and the request retried once.
 */
import { ApiError, errorFromResponse } from './errors'
import type { Transport, RawRequest } from './transport'
import type { HttpMethod, InitArg, Op, PathsWith, SuccessData } from './types'

/** Where the token lives and how to get a new one. */
export interface TokenSource {
  token(): string | null
  /** A fresh token after TOKEN_EXPIRED (one renewal at a time), or null when impossible. */
  renew(): Promise<string | null>
  /** The renewal failed or the new token was refused too: the player must log in again. */
  signedOut(error: ApiError): void
}

/** Codes after which a new login is worth one retry. */
export const RENEW_CODES = new Set(['TOKEN_EXPIRED', 'BAD_TOKEN'])

export interface Answer<T> {
  status: number
  /** undefined for 304 Not Modified. */
  data: T | undefined
  etag?: string
}

interface LooseInit {
  params?: { path?: Record<string, unknown>; query?: Record<string, unknown>; header?: Record<string, unknown> }
  body?: unknown
  headers?: Record<string, string>
  noAuth?: boolean
}

export interface ClientOptions {
  baseUrl: string
  transport: Transport
  auth?: TokenSource
  timeoutMs?: number
}

export function buildUrl(baseUrl: string, path: string, init: LooseInit): string {
  const pathParams = init.params?.path ?? {}
  let url = path.replace(/\{([^}]+)\}/g, (_, name: string) => {
    const value = pathParams[name]
    if (value === undefined || value === null) throw new Error(`missing path parameter ${name} for ${path}`)
    return encodeURIComponent(String(value))
  })
  const query = Object.entries(init.params?.query ?? {})
    .filter(([, v]) => v !== undefined && v !== null)
    .map(([k, v]) => `${encodeURIComponent(k)}=${encodeURIComponent(String(v))}`)
  if (query.length) url += `?${query.join('&')}`
  return baseUrl + url
}

export class ApiClient {
  readonly baseUrl: string
  private readonly transport: Transport
  private readonly auth?: TokenSource
  private readonly timeoutMs: number

  constructor(opts: ClientOptions) {
    this.baseUrl = opts.baseUrl
    this.transport = opts.transport
    this.auth = opts.auth
    this.timeoutMs = opts.timeoutMs ?? 15000
  }

  GET<P extends PathsWith<'get'>>(path: P, ...init: InitArg<Op<P, 'get'>>): Promise<SuccessData<Op<P, 'get'>>> {
    return this.data('get', path, init[0] as LooseInit | undefined)
  }

  POST<P extends PathsWith<'post'>>(path: P, ...init: InitArg<Op<P, 'post'>>): Promise<SuccessData<Op<P, 'post'>>> {
    return this.data('post', path, init[0] as LooseInit | undefined)
  }

  PUT<P extends PathsWith<'put'>>(path: P, ...init: InitArg<Op<P, 'put'>>): Promise<SuccessData<Op<P, 'put'>>> {
    return this.data('put', path, init[0] as LooseInit | undefined)
  }

  /** A GET that may answer 304: pass the last ETag; `data` is undefined when nothing changed. */
  GETIfChanged<P extends PathsWith<'get'>>(
    path: P, etag: string | undefined, ...init: InitArg<Op<P, 'get'>>
  ): Promise<Answer<SuccessData<Op<P, 'get'>>>> {
    const loose = (init[0] ?? {}) as LooseInit
    const headers = etag ? { ...loose.headers, 'If-None-Match': etag } : loose.headers
    return this.send('get', path, { ...loose, headers }) as Promise<Answer<SuccessData<Op<P, 'get'>>>>
  }

  private async data<T>(method: HttpMethod, path: string, init: LooseInit | undefined): Promise<T> {
    const answer = await this.send(method, path, init ?? {})
    return answer.data as T
  }

  /** One call: build, send, renew the token once if it expired, map errors. */
  async send(method: HttpMethod, path: string, init: LooseInit): Promise<Answer<unknown>> {
    const url = buildUrl(this.baseUrl, path, init)
    const headers: Record<string, string> = { Accept: 'application/json' }
    for (const [k, v] of Object.entries(init.params?.header ?? {})) {
      if (v !== undefined && v !== null) headers[k] = String(v)
    }
    Object.assign(headers, init.headers)
    const req: RawRequest = { method: method.toUpperCase() as RawRequest['method'], url, headers, timeoutMs: this.timeoutMs }
    if (init.body !== undefined) {
      headers['Content-Type'] = 'application/json'
      req.body = JSON.stringify(init.body)
    }
    const token = init.noAuth ? null : this.auth?.token() ?? null
    let res = await this.transport(withToken(req, token))
    if (res.status === 401 && !init.noAuth && this.auth) {
      const first = errorFromResponse(res.status, res.body)
      if (!RENEW_CODES.has(first.code) && token) {
        this.auth.signedOut(first)
        throw first
      }
      let fresh: string | null = null
      try {
        fresh = await this.auth.renew()
      } catch (e) {
        if (e instanceof ApiError && e.isNetwork) throw e
      }
      if (!fresh) {
        this.auth.signedOut(first)
        throw first
      }
      res = await this.transport(withToken(req, fresh))
      if (res.status === 401) {
        const second = errorFromResponse(res.status, res.body)
        this.auth.signedOut(second)
        throw second
      }
    }
    if (res.status === 304) return { status: 304, data: undefined, etag: res.headers.etag }
    if (res.status < 200 || res.status >= 300) throw errorFromResponse(res.status, res.body)
    return { status: res.status, data: res.body, etag: res.headers.etag }
  }
}

function withToken(req: RawRequest, token: string | null): RawRequest {
  if (!token) return req
  return { ...req, headers: { ...req.headers, Authorization: `Bearer ${token}` } }
}
