/**
 * How bytes travel: `fetch` on H5, `Taro.request` in the mini-program (which has no fetch).
 * Both adapters turn the platform's answer into one RawResponse; both are unit-tested with fakes.
 */
import Taro from '@tarojs/taro'
import { networkError } from './errors'

export interface RawRequest {
  method: 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH'
  url: string
  headers: Record<string, string>
  /** JSON text, when there is a body. */
  body?: string
  timeoutMs?: number
}

export interface RawResponse {
  status: number
  /** Header names lower-cased. */
  headers: Record<string, string>
  /** Parsed JSON, or undefined for an empty body (304, 204). */
  body: unknown
}

/** Sends one request. Rejects with an ApiError whose status is 0 when no answer came. */
export type Transport = (req: RawRequest) => Promise<RawResponse>

function parseJson(text: string): unknown {
  if (!text) return undefined
  try {
    return JSON.parse(text)
  } catch {
    return text
  }
}

type FetchLike = (url: string, init: {
  method: string
  headers: Record<string, string>
  body?: string
  signal?: AbortSignal
}) => Promise<{ status: number; headers: { forEach(cb: (value: string, key: string) => void): void }; text(): Promise<string> }>

/** H5: the browser's fetch (or a fake in tests). */
export function fetchTransport(fetchImpl?: FetchLike): Transport {
  return async (req) => {
    const doFetch: FetchLike = fetchImpl ?? (globalThis.fetch as unknown as FetchLike)
    const controller = typeof AbortController === 'function' ? new AbortController() : undefined
    const timer = req.timeoutMs && controller ? setTimeout(() => controller.abort(), req.timeoutMs) : undefined
    let res: Awaited<ReturnType<FetchLike>>
    let text: string
    try {
      res = await doFetch(req.url, { method: req.method, headers: req.headers, body: req.body, signal: controller?.signal })
      text = await res.text()
    } catch (e) {
      throw networkError(String((e as Error)?.message ?? e))
    } finally {
      if (timer !== undefined) clearTimeout(timer)
    }
    const headers: Record<string, string> = {}
    res.headers.forEach((value, key) => {
      headers[key.toLowerCase()] = value
    })
    return { status: res.status, headers, body: parseJson(text) }
  }
}

type TaroRequestLike = (opts: {
  url: string
  method: RawRequest['method']
  header: Record<string, string>
  data?: string
  dataType: string
  responseType: 'text'
  timeout?: number
}) => Promise<{ statusCode: number; header?: Record<string, unknown>; data: unknown }>

/** Mini-program: Taro.request (wx.request). The response text is parsed here, not by WeChat. */
export function taroTransport(requestImpl?: TaroRequestLike): Transport {
  return async (req) => {
    const request: TaroRequestLike = requestImpl ?? (Taro.request as unknown as TaroRequestLike)
    let res: Awaited<ReturnType<TaroRequestLike>>
    try {
      res = await request({
        url: req.url,
        method: req.method,
        header: req.headers,
        data: req.body,
        // 'text' + our own parse: an empty 304 body must not become a JSON error
        dataType: 'text',
        responseType: 'text',
        timeout: req.timeoutMs,
      })
    } catch (e) {
      throw networkError(String((e as { errMsg?: string })?.errMsg ?? e))
    }
    const headers: Record<string, string> = {}
    for (const [key, value] of Object.entries(res.header ?? {})) {
      headers[key.toLowerCase()] = String(value)
    }
    const body = typeof res.data === 'string' ? parseJson(res.data) : res.data
    return { status: res.statusCode, headers, body }
  }
}

/** The transport of the platform this bundle was built for. */
export function platformTransport(): Transport {
  if (process.env.TARO_ENV === 'h5') {
    return fetchTransport()
  }
  return taroTransport()
}
