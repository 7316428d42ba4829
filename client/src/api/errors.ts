/** Errors as the player reads them: the API's `message` is already Chinese, shown as it is. */

export const NETWORK_MESSAGE = '网络不稳，正在重连…'

export class ApiError extends Error {
  readonly status: number
  readonly code: string
  readonly details?: Record<string, unknown> | null

  constructor(status: number, code: string, message: string, details?: Record<string, unknown> | null) {
    super(message)
    this.name = 'ApiError'
    this.status = status
    this.code = code
    this.details = details
  }

  /** No answer at all: offline, DNS, timeout, connection refused. */
  get isNetwork(): boolean {
    return this.status === 0
  }
}

function isErrorBody(body: unknown): body is { code: string; message: string; details?: Record<string, unknown> | null } {
  return typeof body === 'object' && body !== null &&
    typeof (body as { code?: unknown }).code === 'string' &&
    typeof (body as { message?: unknown }).message === 'string'
}

/** An ApiError from a non-2xx response; a body that is not ours (a proxy's page) gets a generic line. */
export function errorFromResponse(status: number, body: unknown): ApiError {
  if (isErrorBody(body)) return new ApiError(status, body.code, body.message, body.details)
  if (status === 429) return new ApiError(status, 'THROTTLED', '请求太频繁，请稍候再试')
  if (status >= 500) return new ApiError(status, 'SERVER_ERROR', `服务器开小差了（${status}），请稍后再试`)
  return new ApiError(status, 'HTTP_' + status, `请求未成功（${status}）`)
}

export function networkError(detail?: string): ApiError {
  return new ApiError(0, 'NETWORK', NETWORK_MESSAGE, detail ? { detail } : undefined)
}

/** What a tap that got no answer shows: not the banner's "reconnecting" (a tap is not resent by
 * itself), but that it did not arrive and she may tap again (the request is safe to send twice). */
export function notDelivered(e: unknown): unknown {
  return e instanceof ApiError && e.isNetwork
    ? new ApiError(0, 'NOT_DELIVERED', '没有送达：网络断了。网络恢复后请再点一次', e.details)
    : e
}

/** The line to show the player for anything thrown. */
export function messageOf(e: unknown): string {
  if (e instanceof ApiError) return e.message
  return '出了点意外，请稍后再试'
}
