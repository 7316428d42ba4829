import { useEffect } from 'react'
import { useRouter } from '@tarojs/taro'
import { session } from '../api'
import { toLogin } from '../lib/nav'

/** Pages behind the gate: without a token, go and log in — and come back here after (a room's
 * invitation link or WeChat 转发 card leads to its room, not to the lobby). */
export function useAuthGuard(): boolean {
  const ok = session.isLoggedIn()
  const router = useRouter()
  useEffect(() => {
    if (!ok) void toLogin(router)
  }, [ok])
  return ok
}
