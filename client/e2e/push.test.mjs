// Room notices in the browser (the local server's WebSocket endpoint and stream poller): a waiting
// player's page makes no requests; when another player acts, her screen shows it within a second,
// through one fetch that follows the socket's notice — no poll. In 保皇 (whose notices carry views by
// default, PUSH_VIEWS) the notice carries her own view and her screen changes with no request at all.
// In 宫斗杀 a teammate's sealed move reaches the others' strip with no request: its notice says only the
// round's step and her seat.
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { apiClient, startServer } from './server.mjs'
import { current, launch, phoneContext, settle } from './browser.mjs'

let server
let browser
let api

before(async () => {
  server = await startServer()
  api = apiClient(server.base)
  browser = await launch()
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

async function loginByName(context, name) {
  const page = await context.newPage()
  await page.goto('/')
  const view = current(page)
  await view.getByText('入宫', { exact: true }).waitFor()
  await view.locator('input').fill(name)
  await view.getByText('入宫', { exact: true }).click()
  await current(page).locator('.masthead-title', { hasText: '大厅' }).waitFor()
  await settle(page)
  return page
}

/** Every API request the page makes, and every frame its sockets receive, with their times. */
function watch(page) {
  const log = { requests: [], frames: [] }
  page.on('request', (r) => {
    const url = new URL(r.url())
    if (url.pathname.startsWith('/v1/')) log.requests.push({ at: Date.now(), method: r.method(), path: url.pathname })
  })
  page.on('websocket', (ws) => {
    ws.on('framereceived', (f) => log.frames.push({ at: Date.now(), message: JSON.parse(String(f.payload)) }))
  })
  return log
}

async function until(pred, timeoutMs = 15000) {
  const end = Date.now() + timeoutMs
  while (!pred()) {
    if (Date.now() > end) throw new Error('timed out')
    await new Promise((r) => setTimeout(r, 25))
  }
}

describe('room notices', () => {
  it('one player joins; the other\'s screen shows her within a second, by one fetch after the notice', async () => {
    const zhen = await loginByName(await phoneContext(browser, server.base), '甄嬛')
    const token = await api.login('甄嬛')
    const created = await api.call('POST', '/v1/rooms', token, { game: 'shengong_d', options: { stage: 1 } })
    assert.equal(created.status, 200)
    const roomId = created.body.room.id

    const log = watch(zhen)
    await zhen.goto(`/pages/room-shengong/index?id=${roomId}`)
    const room = current(zhen)
    await room.locator('.room-status', { hasText: '候场' }).waitFor()
    await until(() => log.frames.some((f) => f.message.type === 'subscribed' && f.message.room === roomId))
    await settle(zhen)

    // waiting: no requests at all (the socket is up; nothing happens in the room)
    const quietFrom = Date.now()
    await new Promise((r) => setTimeout(r, 3000))
    assert.deepEqual(log.requests.filter((r) => r.at >= quietFrom), [], 'a waiting page asks nothing')

    // 沈眉庄 joins from her own phone
    const shen = await loginByName(await phoneContext(browser, server.base), '沈眉庄')
    const row = current(shen).locator(`.room-row[data-room="${roomId}"]`)
    await row.waitFor()
    const joined = shen.waitForResponse((r) => r.url().endsWith(`/v1/rooms/${roomId}/join`) && r.status() === 200)
    // the notice and the fetch it prompts may reach her page before this process hears of the join's
    // response (two pages, two event streams): both are looked for from the tap on
    const tapped = Date.now()
    await row.getByText('入席', { exact: true }).click()
    await joined
    const committed = Date.now()
    await room.locator('.seat-name', { hasText: '沈眉庄' }).waitFor({ timeout: 1000 })
    const shown = Date.now()
    assert.ok(shown - committed < 1000, `shown ${shown - committed} ms after the join`)

    await new Promise((r) => setTimeout(r, Math.max(0, committed + 1000 - Date.now())))
    const during = log.requests.filter((r) => r.at >= tapped && r.at <= committed + 1000)
    const notice = log.frames.find((f) => f.at >= tapped && f.message.type === 'changed')
    assert.ok(notice, 'a notice came on the socket')
    // nothing but the room and its version (which her view shows anyway) travels
    assert.deepEqual(Object.keys(notice.message).sort(), ['room', 'type', 'version'], 'nothing but the room travels')
    assert.equal(notice.message.room, roomId)
    assert.ok(Number.isInteger(notice.message.version))
    // its one view of the room (the summary, or the game's view: whichever the page shows)
    assert.equal(during.length, 1, `one fetch, no poll: ${JSON.stringify(during)}`)
    assert.equal(during[0].method, 'GET')
    assert.match(during[0].path, new RegExp(`^/v1/(games/shengong/)?rooms/${roomId}(\\?reports_after=-?\\d+)?$`))
    assert.ok(during[0].at >= notice.at, 'the fetch follows the notice')
  })
})

describe('sealed moves', () => {
  it('in 宫斗杀 D one seals; the other two strips show her 已落子 within a second, with no request', async () => {
    const admin = await api.login('司礼')
    const names = ['瑛贵人', '祺贵人', '恬贵人']
    const tokens = []
    for (const n of names) tokens.push(await api.withConsort(admin, n, `${n}娘娘`, 60))
    const created = await api.call('POST', '/v1/rooms', tokens[0], { game: 'shengong_d', options: { stage: 1 } })
    assert.equal(created.status, 200, JSON.stringify(created.body))
    const roomId = created.body.room.id
    for (const t of tokens.slice(1)) assert.equal((await api.call('POST', `/v1/rooms/${roomId}/join`, t, {})).status, 200)

    // the creator (seat 0) and seat 1 watch the round on their phones; seat 2 seals
    const watchers = []
    for (const n of names.slice(0, 2)) {
      const page = await loginByName(await phoneContext(browser, server.base), n)
      const log = watch(page)
      await page.goto(`/pages/room-shengong/index?id=${roomId}`)
      const strip = current(page).locator('.sg-sealed')
      await strip.waitFor()
      await until(() => log.frames.some((f) => f.message.type === 'subscribed' && f.message.room === roomId))
      await settle(page)
      assert.match(await strip.locator('.sg-sealed-count').innerText(), /已落子 0\/3/)
      assert.equal(await strip.locator('.sg-sealed-look').count(), 0, 'no 「轻触刷新」 while the socket is up')
      watchers.push({ page, log, strip })
    }
    const step = (await api.call('GET', `/v1/games/shengong/rooms/${roomId}`, tokens[2])).body.room.step

    const from = Date.now()
    const sealed = await api.call('POST', `/v1/games/shengong/rooms/${roomId}/actions`, tokens[2], { step, action: { type: 'heal' } })
    assert.equal(sealed.status, 200, JSON.stringify(sealed.body))
    const committed = Date.now()
    for (const { strip } of watchers) {
      await strip.locator('.sg-pip[data-seat="2"][data-sealed="yes"]').waitFor({ timeout: 1000 })
      assert.ok(Date.now() - committed < 1000, `shown ${Date.now() - committed} ms after the move`)
      assert.match(await strip.locator('.sg-sealed-count').innerText(), /已落子 1\/3/)
      assert.equal(await strip.locator('.sg-pip[data-seat="0"]').getAttribute('data-sealed'), 'no')
    }
    await new Promise((r) => setTimeout(r, Math.max(0, committed + 1000 - Date.now())))
    for (const { log } of watchers) {
      assert.deepEqual(log.requests.filter((r) => r.at >= from), [], 'no request: the notice was enough')
      const notices = log.frames.filter((f) => f.at >= from).map((f) => f.message)
      // who, in which round: nothing of the move, no version to fetch
      assert.deepEqual(notices, [{ type: 'sealed', room: roomId, step, seat: 2 }])
    }
  })
})

describe('room notices carrying her view (PUSH_VIEWS: 保皇 by default)', () => {
  it('a join and the deal reach the creator\'s 保皇 screen with no request: the notice carries her own view', async () => {
    const names = ['甄嬛', '华妃', '皇后', '沈眉庄', '安陵容']
    const tokens = []
    for (const n of names) tokens.push(await api.login(n))
    const created = await api.call('POST', '/v1/rooms', tokens[0], { game: 'baohuang', options: {} })
    assert.equal(created.status, 200)
    const roomId = created.body.room.id

    const zhen = await loginByName(await phoneContext(browser, server.base), '甄嬛')
    const log = watch(zhen)
    await zhen.goto(`/pages/room-baohuang/index?id=${roomId}`)
    const room = current(zhen)
    await until(() => log.frames.some((f) => f.message.type === 'subscribed' && f.message.room === roomId))
    await settle(zhen)

    const from = Date.now()
    assert.equal((await api.call('POST', `/v1/rooms/${roomId}/join`, tokens[1], {})).status, 200)
    const joined = Date.now()
    await room.locator('.seat-name', { hasText: '华妃' }).waitFor({ timeout: 1000 })
    assert.ok(Date.now() - joined < 1000, 'shown within a second of the join')
    const notice = log.frames.find((f) => f.at >= from && f.message.type === 'changed')
    assert.ok(notice, 'a notice came on the socket')
    assert.deepEqual(Object.keys(notice.message).sort(), ['etag', 'room', 'type', 'version', 'view'])
    assert.deepEqual(notice.message.view.viewer, { role: 'player', seat: 0 })  // her own view: seat 0's

    for (const t of tokens.slice(2)) assert.equal((await api.call('POST', `/v1/rooms/${roomId}/join`, t, {})).status, 200)
    assert.equal((await api.call('POST', `/v1/rooms/${roomId}/start`, tokens[0], {})).status, 200)
    await room.locator('.bh-table').waitFor({ timeout: 2000 })
    await settle(zhen)
    assert.deepEqual(log.requests.filter((r) => r.at >= from), [], 'no request: every change came with its view')

    // what came is hers alone: her own hand, every other seat only as a count
    const dealt = log.frames.filter((f) => f.message.type === 'changed' && f.message.view?.game).at(-1).message.view
    const mine = await api.call('GET', `/v1/games/baohuang/rooms/${roomId}`, tokens[0])
    assert.deepEqual(dealt.game.hand, mine.body.game.hand)
    assert.ok(dealt.game.hand.length > 0 && dealt.game.hands == null)
    assert.ok(dealt.game.seats.every((s) => !('hand' in s)))
    assert.equal(await room.locator('.hand .card-face').count(), dealt.game.hand.length, 'her hand, as it came, on the screen')
  })
})
