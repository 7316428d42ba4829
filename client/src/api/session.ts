/**
 * The logged-in player: token (and later refresh token) in Taro storage, who she is, and how to log
 * in again when the token expires — H5's local stage: dev login by the stored name; the
 * mini-program: Taro.login → POST /v1/auth/wechat.
 */
import Taro from '@tarojs/taro'
import type { ApiClient, TokenSource } from './client'
import type { ApiError } from './errors'
import type { Schemas } from './types'

export type LoginOut = Schemas['LoginOut']
export type User = Schemas['UserOut']

export interface KeyValueStore {
  get(key: string): string | null
  set(key: string, value: string): void
  remove(key: string): void
}

/** Taro's synchronous storage: wx storage in the mini-program, localStorage on H5. */
export const taroStore: KeyValueStore = {
  get(key) {
    const v: unknown = Taro.getStorageSync(key)
    return typeof v === 'string' && v !== '' ? v : null
  },
  set(key, value) {
    Taro.setStorageSync(key, value)
  },
  remove(key) {
    Taro.removeStorageSync(key)
  },
}

export const KEYS = {
  token: 'shengong.token',
  refresh: 'shengong.refresh',
  expires: 'shengong.expires',
  name: 'shengong.name',
  user: 'shengong.user',
} as const

export type Platform = 'h5' | 'weapp'

export class Session implements TokenSource {
  private renewing: Promise<string | null> | null = null
  private listeners = new Set<(error: ApiError) => void>()
  api?: ApiClient

  constructor(private readonly store: KeyValueStore, private readonly platform: Platform) {}

  token(): string | null {
    return this.store.get(KEYS.token)
  }

  user(): User | null {
    const raw = this.store.get(KEYS.user)
    if (!raw) return null
    try {
      return JSON.parse(raw) as User
    } catch {
      return null
    }
  }

  /** The name used for the H5 dev login (kept for re-login). */
  name(): string | null {
    return this.store.get(KEYS.name)
  }

  isLoggedIn(): boolean {
    return this.token() !== null
  }

  save(out: LoginOut, name?: string): void {
    this.store.set(KEYS.token, out.token)
    // contract v2 adds a refresh token; keep it when the server sends one
    const refresh = (out as { refresh_token?: unknown }).refresh_token
    if (typeof refresh === 'string' && refresh) this.store.set(KEYS.refresh, refresh)
    this.store.set(KEYS.expires, String(out.expires_at))
    this.store.set(KEYS.user, JSON.stringify(out.user))
    if (name) this.store.set(KEYS.name, name)
  }

  setUser(user: User): void {
    this.store.set(KEYS.user, JSON.stringify(user))
  }

  logout(): void {
    for (const key of Object.values(KEYS)) this.store.remove(key)
  }

  /** H5, local stage: POST /v1/auth/dev {name}. */
  async loginByName(name: string): Promise<User> {
    const out = await this.client().POST('/v1/auth/dev', { body: { name }, noAuth: true })
    this.save(out, name)
    return out.user
  }

  /** Mini-program: wx.login's code → POST /v1/auth/wechat {code}. */
  async loginWeChat(nickname?: string): Promise<User> {
    const { code } = await Taro.login()
    const out = await this.client().POST('/v1/auth/wechat', { body: nickname ? { code, nickname } : { code }, noAuth: true })
    this.save(out)
    return out.user
  }

  /** A new token the way this platform logs in; concurrent callers share one attempt. */
  renew(): Promise<string | null> {
    if (!this.renewing) {
      this.renewing = this.doRenew().finally(() => {
        this.renewing = null
      })
    }
    return this.renewing
  }

  private async doRenew(): Promise<string | null> {
    const refreshed = await this.refresh()
    if (refreshed) return refreshed
    if (this.platform === 'weapp') {
      await this.loginWeChat()
      return this.token()
    }
    const name = this.name()
    if (!name) return null
    await this.loginByName(name)
    return this.token()
  }

  /**
   * POST /v1/auth/refresh with the stored refresh token, where the API has it (contract v2); any
   * failure (no such route yet, refresh token expired) falls back to logging in again.
   */
  private async refresh(): Promise<string | null> {
    const refreshToken = this.store.get(KEYS.refresh)
    if (!refreshToken) return null
    try {
      const answer = await this.client().send('post', '/v1/auth/refresh', { body: { refresh_token: refreshToken }, noAuth: true })
      const out = answer.data as LoginOut | undefined
      if (!out?.token) return null
      this.save(out)
      return out.token
    } catch (e) {
      if ((e as ApiError).isNetwork) throw e
      this.store.remove(KEYS.refresh)
      return null
    }
  }

  signedOut(error: ApiError): void {
    this.store.remove(KEYS.token)
    for (const fn of this.listeners) fn(error)
  }

  onSignedOut(fn: (error: ApiError) => void): () => void {
    this.listeners.add(fn)
    return () => this.listeners.delete(fn)
  }

  private client(): ApiClient {
    if (!this.api) throw new Error('Session.api is not set')
    return this.api
  }
}
