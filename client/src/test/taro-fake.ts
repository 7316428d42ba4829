/** Stand-in for @tarojs/taro in unit tests (aliased in vitest.config.ts). */
import { vi } from 'vitest'

const storage = new Map<string, unknown>()

const Taro = {
  request: vi.fn(),
  login: vi.fn(async () => ({ code: 'wx-code', errMsg: 'login:ok' })),
  getStorageSync: vi.fn((key: string) => (storage.has(key) ? storage.get(key) : '')),
  setStorageSync: vi.fn((key: string, value: unknown) => void storage.set(key, value)),
  removeStorageSync: vi.fn((key: string) => void storage.delete(key)),
  onNetworkStatusChange: vi.fn(),
  offNetworkStatusChange: vi.fn(),
  getCurrentPages: vi.fn((): unknown[] => []),
  navigateBack: vi.fn(async () => ({ errMsg: 'navigateBack:ok' })),
  switchTab: vi.fn(async (_: { url: string }) => ({ errMsg: 'switchTab:ok' })),
  reLaunch: vi.fn(async (_: { url: string }) => ({ errMsg: 'reLaunch:ok' })),
  _storage: storage,
}

export default Taro
