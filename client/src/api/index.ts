/** The app's one API client and session, wired for the platform this bundle was built for. */
import { ApiClient } from './client'
import { Session, taroStore } from './session'
import { platformTransport } from './transport'

export const session = new Session(taroStore, process.env.TARO_ENV === 'h5' ? 'h5' : 'weapp')

export const api = new ApiClient({
  // '' on H5 (same origin as the page); the configured absolute URL in the mini-program
  baseUrl: typeof API_BASE === 'string' ? API_BASE : '',
  transport: platformTransport(),
  auth: session,
})
session.api = api

export { ApiClient } from './client'
export { ApiError, messageOf, NETWORK_MESSAGE } from './errors'
export type { Schemas } from './types'
