/** Moving between pages the same way on both targets. */
import Taro from '@tarojs/taro'

export const LOBBY = '/pages/lobby/index'

/**
 * Back to the lobby. Back through the page stack only when there is a page to go back to: on H5 a
 * page opened by a link or a reload is alone in the stack, and navigateBack then neither navigates
 * nor fails — so it is never asked to.
 */
export function goLobby(): Promise<unknown> {
  const pages = Taro.getCurrentPages?.() ?? []
  if (pages.length > 1) return Promise.resolve(Taro.navigateBack()).catch(() => Taro.switchTab({ url: LOBBY }))
  return Promise.resolve(Taro.switchTab({ url: LOBBY }))
}
