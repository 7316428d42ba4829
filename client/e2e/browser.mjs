// Debian's Chromium driven by playwright-core (no browser download), phone-sized pages.
import { chromium } from 'playwright-core'

export const PHONE = { width: 375, height: 667 }

export function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking',
      '--disable-component-update', '--disable-sync'],
  })
}

export function phoneContext(browser, base) {
  return browser.newContext({
    baseURL: base,
    viewport: PHONE,
    deviceScaleFactor: 2,
    isMobile: true,
    hasTouch: true,
    locale: 'zh-CN',
  })
}

/** Taro slides pages in: wait until no animation or transition is running. */
export async function settle(page) {
  await page.waitForFunction(() => document.getAnimations().every((a) => a.playState !== 'running'), null, { timeout: 10000 })
  await page.waitForTimeout(150)
}

/** The page on top (Taro keeps earlier pages and tab pages in the DOM, hidden). */
export function current(page) {
  return page.locator('.taro_page:visible').last()
}

export async function shot(page, file) {
  await settle(page)
  await page.screenshot({ path: file, animations: 'disabled' })
}

/** A phone already logged in as `name` (the token where the app keeps it: Taro storage on H5 is
 * localStorage, JSON-wrapped), with one page open. */
export async function loggedInPhone(browser, base, api, name) {
  const token = await api.login(name)
  const ctx = await phoneContext(browser, base)
  await ctx.addInitScript(([t, n]) => {
    localStorage.setItem('shengong.token', JSON.stringify({ data: t }))
    localStorage.setItem('shengong.name', JSON.stringify({ data: n }))
  }, [token, name])
  return { name, token, page: await ctx.newPage() }
}

/** Wait until `fn()` gives something truthy, and give it back: for what the page or the server does
 * over a few frames or requests (a scroll, bots answering). */
export async function until(what, fn, timeout = 30000) {
  const end = Date.now() + timeout
  for (;;) {
    const v = await fn()
    if (v) return v
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 150))
  }
}
