// What a browser-test file shares: the local server and Chromium for its tests, and where screenshots go.
import { after, before } from 'node:test'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { apiClient, startServer } from './server.mjs'
import { launch } from './browser.mjs'

/** Screenshots at phone size (shown in client/README.md). */
export const SHOTS = fileURLToPath(new URL('./shots/', import.meta.url))
mkdirSync(SHOTS, { recursive: true })

/** A local server (demo data) and a browser for this file's tests: filled in before they run, closed
 * after. Read its fields inside the tests (`live.api`, `live.browser`, `live.server.base`). */
export function liveSuite() {
  const live = { server: null, api: null, browser: null }
  before(async () => {
    live.server = await startServer()
    live.api = apiClient(live.server.base)
    live.browser = await launch()
  })
  after(async () => {
    await live.browser?.close()
    await live.server?.stop()
  })
  return live
}
