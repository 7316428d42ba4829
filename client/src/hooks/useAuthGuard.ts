import { useEffect } from 'react'
import Taro from '@tarojs/taro'
import { session } from '../api'

/** Pages behind the gate: without a token, go and log in. */
export function useAuthGuard(): boolean {
  const ok = session.isLoggedIn()
  useEffect(() => {
    if (!ok) void Taro.reLaunch({ url: '/pages/login/index' })
  }, [ok])
  return ok
}
