/// <reference types="@tarojs/taro" />

declare module '*.png'
declare module '*.css'

/** Injected at build time by config/index.ts (defineConstants): '' on H5 (same origin), absolute on weapp. */
declare const API_BASE: string

declare namespace NodeJS {
  interface ProcessEnv {
    NODE_ENV: 'development' | 'production' | 'test'
    TARO_ENV: 'weapp' | 'h5' | undefined
    TARO_APP_ID?: string
  }
}
