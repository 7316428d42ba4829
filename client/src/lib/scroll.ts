import Taro from '@tarojs/taro'

/**
 * Bring the element `selector` names to the top of the page. The mini-program scrolls the page to it;
 * on H5, Taro's pageScrollTo measures the element from its positioned parent, not the page (a score
 * sheet inside a panel moved a few pixels), so the element scrolls itself into view (the last one:
 * Taro keeps earlier pages in the DOM).
 */
export function scrollToTop(selector: string, duration = 300): void {
  if (process.env.TARO_ENV === 'h5') {
    const found = document.querySelectorAll(selector)
    found[found.length - 1]?.scrollIntoView({ block: 'start', behavior: 'smooth' })
    return
  }
  Taro.pageScrollTo({ selector, duration }).catch(() => undefined)
}
