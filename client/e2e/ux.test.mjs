// Getting in and out of rooms, in the browser at phone size (390×844): 回大厅 from a room opened by a
// link, 入席 from a link, a 暗号 room's link asking for the 暗号 on the room page, 复制邀请 and the
// creator's own 暗号, 「输入房号」 (a 保皇 暗号 room asking on its own page), 「我的对局」 leading back to a game she left (after confirming; on another phone too),
// the lobby's 对局中 shelf and 关卡 tags, a tap that did not arrive, a player without a 妃子, 离席
// confirmed, 再战此关, the 保皇 spectator's table and a deal's verdict, and the 司礼's desk.
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { apiClient, startServer } from './server.mjs'
import { current, launch, settle, shot, until } from './browser.mjs'

const SHOTS = fileURLToPath(new URL('./shots/', import.meta.url))
mkdirSync(SHOTS, { recursive: true })
const PHONE = { width: 390, height: 844 }

let server
let browser
let api

before(async () => {
  server = process.env.E2E_BASE ? { base: process.env.E2E_BASE, stop: async () => {} } : await startServer()
  api = apiClient(server.base)
  browser = await launch()
})

after(async () => {
  await browser?.close()
  await server?.stop()
})

/** A phone logged in as `name` (token and name where the app keeps them), the lobby open. */
async function phone(name, path = '/pages/lobby/index') {
  const token = await api.login(name)
  const ctx = await browser.newContext({ baseURL: server.base, viewport: PHONE, deviceScaleFactor: 2, isMobile: true, hasTouch: true, locale: 'zh-CN' })
  const me = (await api.call('GET', '/v1/me', token)).body.user
  await ctx.addInitScript(([t, n, u]) => {
    localStorage.setItem('shengong.token', JSON.stringify({ data: t }))
    localStorage.setItem('shengong.name', JSON.stringify({ data: n }))
    localStorage.setItem('shengong.user', JSON.stringify({ data: JSON.stringify(u) }))
  }, [token, name, me])
  const page = await ctx.newPage()
  await page.goto(path)
  await settle(page)
  return { name, token, page }
}

const screen = (p) => current(p.page)
const lobbyShown = (p) => screen(p).locator('.masthead-title', { hasText: '大厅' }).waitFor({ timeout: 15000 })

async function pickGame(p, title) {
  await screen(p).locator('.game', { hasText: title }).first().click()
  await screen(p).locator('.panel-title', { hasText: title }).waitFor()
}


describe('rooms by link, code and 「我的对局」', () => {
  let zhen
  let mei
  let rong
  let jinxi
  let bhRoom
  let dRoom
  let dCode

  it('a room opened by its link: 入席 is offered, and 回大厅 leads to the lobby', async () => {
    const hua = await api.login('华妃')
    const made = await api.call('POST', '/v1/rooms', hua, { game: 'baohuang', options: { variant: 'simple' } })
    assert.equal(made.status, 200, JSON.stringify(made.body))
    bhRoom = made.body.room.id
    const hou = await phone('皇后', `/pages/room-baohuang/index?id=${bhRoom}`)
    const room = screen(hou)
    await room.locator('.seat-taken').first().waitFor()
    await room.getByRole('button', { name: '入席', exact: true }).waitFor()
    await room.getByRole('button', { name: '复制邀请', exact: true }).waitFor()
    // the seal's label on one line (it was squashed to 回大 / 厅)
    const seal = room.getByRole('button', { name: '回大厅', exact: true })
    const box = await seal.boundingBox()
    assert.ok(box.height < 40, `回大厅 stays on one line (${box.height}px high)`)
    await shot(hou.page, `${SHOTS}link-open-room.png`)
    await seal.click()
    await lobbyShown(hou)
  })

  it('复制邀请 copies the link and the 房号 shown; 入席 from the link seats her', async () => {
    const hou = await phone('皇后', `/pages/room-baohuang/index?id=${bhRoom}`)
    const room = screen(hou)
    const code = (await room.locator('.room-code-digits').textContent()).trim()
    assert.match(code, /^[1-9]\d{5}$/)
    await room.getByRole('button', { name: '复制邀请', exact: true }).click()
    await room.getByRole('button', { name: '已复制', exact: true }).waitFor()
    const copied = await hou.page.evaluate(() => JSON.parse(localStorage.getItem('taro_clipboard') ?? '{}').data)
    assert.match(copied, new RegExp(`/pages/room-baohuang/index\\?id=${bhRoom}`))
    assert.match(copied, new RegExp(`房号：${code}$`, 'm'))
    await room.getByRole('button', { name: '入席', exact: true }).click()
    await room.locator('.seat-me .seat-name', { hasText: '皇后' }).waitFor()
  })

  it('a creator leaving a room with others in it is told 房主 passes on, and may stay', async () => {
    const hua = await phone('华妃', `/pages/room-baohuang/index?id=${bhRoom}`)
    await screen(hua).getByRole('button', { name: '离席', exact: true }).click()
    const dialog = hua.page.getByRole('dialog')
    await dialog.getByText('离席后房主之位交给「皇后」').waitFor()
    await dialog.getByRole('button', { name: '留下', exact: true }).click()
    await dialog.waitFor({ state: 'detached' })
    assert.equal(await screen(hua).locator('.seat-me').count(), 1, 'still seated')
  })

  it('a tap in the lobby that got no answer says it did not arrive (not 「正在重连」)', async () => {
    jinxi = await phone('槿汐')
    await pickGame(jinxi, '保皇')
    const row = screen(jinxi).locator(`.room-row[data-room="${bhRoom}"]`)
    await row.waitFor({ timeout: 15000 })
    await jinxi.page.route('**/join', (route) => route.abort('internetdisconnected'))
    await row.getByRole('button', { name: '入席', exact: true }).click()
    await screen(jinxi).getByRole('alert').filter({ hasText: '没有送达' }).waitFor()
    assert.equal(await screen(jinxi).getByRole('alert').filter({ hasText: '正在重连' }).count(), 0)
    await jinxi.page.unroute('**/join')
  })

  it('without a 妃子, 深宫杀 greys 开房 with the reason and offers 去册封', async () => {
    await pickGame(jinxi, '宫斗杀')
    const lobby = screen(jinxi)
    await lobby.getByText('请先认领一位妃子，方可开房、入席').waitFor()
    assert.equal(await lobby.getByRole('button', { name: '开房', exact: true }).getAttribute('aria-disabled'), 'true')
    await shot(jinxi.page, `${SHOTS}lobby-no-consort.png`)
    // the rules are hers to read all the same: 玩法 beside the greyed 开房, and on a plaque still sealed
    await lobby.getByRole('button', { name: '玩法', exact: true }).click()
    const page = jinxi.page.getByRole('dialog', { name: '玩法 · 宫斗杀' })
    await page.locator('.guide-heading', { hasText: '关卡与对手' }).waitFor()
    await page.getByRole('button', { name: '关闭' }).click()
    await page.waitFor({ state: 'detached' })
    await lobby.locator('.game-slot', { has: jinxi.page.locator('.game-locked', { hasText: '卡牌局' }) }).getByRole('button', { name: '玩法 ›' }).click()
    const sealed = jinxi.page.getByRole('dialog', { name: '玩法 · 深宫杀 · 卡牌局' })
    await sealed.locator('.guide-line', { hasText: '开局发 5 张' }).waitFor()
    assert.equal(await sealed.evaluate((el) => getComputedStyle(el.closest('.sheet-mask')).position), 'fixed')
    await sealed.getByRole('button', { name: '关闭' }).click()
    await sealed.waitFor({ state: 'detached' })
    assert.equal(await lobby.locator('.game-on', { hasText: '卡牌局' }).count(), 0, 'reading a sealed mode does not choose it')
    await lobby.getByRole('button', { name: '去册封', exact: true }).click()
    await screen(jinxi).locator('.panel-title', { hasText: '册封妃子' }).waitFor()
  })

  it('the creator of a 暗号 room sees her 暗号; a friend opening its link types it on the room page', async () => {
    zhen = await phone('甄嬛')
    await pickGame(zhen, '宫斗杀')
    await screen(zhen).getByRole('button', { name: '开房', exact: true }).click()
    const dialog = zhen.page.getByRole('dialog')
    // the stages her 妃子 has not unlocked are greyed with the server's reason (GET /v1/games), before 开房
    const stage2 = dialog.locator('.chip[data-choice="2"]')
    assert.equal(await stage2.getAttribute('aria-disabled'), 'true')
    assert.equal(await dialog.locator('.chip[data-choice="1"]').getAttribute('aria-disabled'), 'false')
    assert.equal(await dialog.locator('.field-locked[data-choice="2"]').innerText(), '挑战关卡2须先通关关卡1：甄嬛 尚未通关关卡1')
    await dialog.locator('.field-locked[data-choice="3"]').waitFor()
    await shot(zhen.page, `${SHOTS}create-stage-locked.png`)
    await stage2.click()
    assert.match(await dialog.locator('.chip-on').innerText(), /^关卡1/, 'a greyed stage is not chosen')
    await dialog.getByText('关卡1 · 高明珠', { exact: true }).click()
    await dialog.locator('input').last().fill('碎玉轩')
    await dialog.getByRole('button', { name: '开房', exact: true }).click()
    const room = screen(zhen)
    await room.locator('.room-status', { hasText: '候场' }).waitFor()
    dRoom = await room.locator('.room-invite').getAttribute('data-room')
    dCode = (await room.locator('.room-code-digits').textContent()).trim()
    assert.match(dCode, /^[1-9]\d{5}$/)  // six digits to say aloud, not the long id
    await room.locator('.room-password', { hasText: '碎玉轩' }).waitFor()
    await shot(zhen.page, `${SHOTS}waiting-invite.png`)

    mei = await phone('沈眉庄', `/pages/room-shengong/index?id=${dRoom}`)
    const prompt = mei.page.getByRole('dialog')
    await prompt.locator('input').fill('长春宫')
    await prompt.getByRole('button', { name: '报号', exact: true }).click()
    await prompt.getByRole('alert').filter({ hasText: '暗号不对' }).waitFor()
    await shot(mei.page, `${SHOTS}link-password.png`)
    await prompt.locator('input').fill('碎玉轩')
    await prompt.getByRole('button', { name: '报号', exact: true }).click()
    await prompt.waitFor({ state: 'detached' })
    await screen(mei).locator('.summary-item', { hasText: '观战' }).waitFor()
    await screen(mei).getByRole('button', { name: '入席', exact: true }).click()
    await screen(mei).locator('.seat-me .seat-name', { hasText: '沈眉庄' }).waitFor()
  })

  it('「输入房号」 in the lobby opens the room by its six digits, typed as said (a 暗号 room asks for it there); the third seat starts the game', async () => {
    rong = await phone('安陵容')
    const lobby = screen(rong)
    await lobby.locator('.room-code input').fill('999999')
    await lobby.getByRole('button', { name: '前往', exact: true }).click()
    await lobby.getByRole('alert').filter({ hasText: '没有这个房号' }).waitFor()
    await lobby.locator('.room-code input').fill(`${dCode.slice(0, 3)} ${dCode.slice(3)}`)
    await lobby.getByRole('button', { name: '前往', exact: true }).click()
    const prompt = rong.page.getByRole('dialog')
    await prompt.locator('input').fill('碎玉轩')
    await prompt.getByRole('button', { name: '报号', exact: true }).click()
    await prompt.waitFor({ state: 'detached' })
    await screen(rong).getByRole('button', { name: '入席', exact: true }).click()
    await screen(rong).locator('.room-status', { hasText: '对局中' }).waitFor({ timeout: 20000 })
  })

  it('a 保皇 暗号 room asks for its 暗号 on the 保皇 page: by 「输入房号」, and from a link to another game\'s page', async () => {
    const hua = await api.login('华妃')
    const made = await api.call('POST', '/v1/rooms', hua, { game: 'baohuang', options: { variant: 'simple' }, password: '翊坤宫' })
    assert.equal(made.status, 200, JSON.stringify(made.body))
    const locked = made.body.room.id
    const qi = await phone('祺贵人')
    await screen(qi).locator('.room-code input').fill(locked)
    await screen(qi).getByRole('button', { name: '前往', exact: true }).click()
    const prompt = qi.page.getByRole('dialog')
    await prompt.locator('input').waitFor()
    assert.match(qi.page.url(), new RegExp(`room-baohuang/index\\?id=${locked}`))
    // a link to the 深宫杀 page goes to the 保皇 page before the 暗号 is asked
    const link = await phone('祺贵人', `/pages/room-shengong/index?id=${locked}`)
    await link.page.waitForURL(new RegExp(`room-baohuang/index\\?id=${locked}`))
    const asked = link.page.getByRole('dialog')
    await asked.locator('input').fill('翊坤宫')
    await asked.getByRole('button', { name: '报号', exact: true }).click()
    await asked.waitFor({ state: 'detached' })
    await screen(link).getByRole('button', { name: '入席', exact: true }).waitFor()
  })

  it('the 手牌 tab shows 「牌库余 N 张」 where she sees it, not behind the 落子 bar (390×844)', async () => {
    const room = screen(zhen)
    await room.locator('.sg-seal-btn').waitFor({ timeout: 20000 })
    // an action chosen, as when she picks her cards: the bar says the move it will seal
    await room.locator('.sg-act[data-action="heal"]').click()
    await room.locator('.sg-dock-move', { hasText: '养生' }).waitFor()
    await room.locator('.sg-tab[data-tab="hand"]').click()
    const pile = room.locator('.sg-pile')
    await pile.waitFor()
    await settle(zhen.page)
    assert.match(await pile.innerText(), /^牌库余 \d+ 张$/)
    // beside the hand's heading, above the cards — not at their foot, where the bar covers it
    assert.match(await room.locator('.sg-hand-head').innerText(), /^手牌 5 张\s*牌库余 \d+ 张$/)
    const [line, cards, bar] = await Promise.all([pile, room.locator('.sg-cards'), room.locator('.sg-dock')].map((l) => l.boundingBox()))
    assert.ok(line.y + line.height <= cards.y, `the pile line (${line.y}) heads the cards (${cards.y})`)
    assert.ok(line.y >= 0 && line.y + line.height <= bar.y, `the pile line (${line.y}–${line.y + line.height}) is above the bar (${bar.y})`)
    await shot(zhen.page, `${SHOTS}shengong-hand-pile.png`)
    await room.locator('.sg-tab[data-tab="map"]').click()
  })

  it('回大厅 during a game she sits in is confirmed; 「我的对局」 leads back to it', async () => {
    const room = screen(mei)
    await room.locator('.room-status', { hasText: '对局中' }).waitFor({ timeout: 20000 })
    await room.getByRole('button', { name: '回大厅', exact: true }).click()
    const dialog = mei.page.getByRole('dialog')
    await dialog.getByText('离开期间回合照走：时限一到，未落子者按待机处理。可从大厅「我的对局」回来').waitFor()
    await shot(mei.page, `${SHOTS}leave-running.png`)
    await dialog.getByRole('button', { name: '回大厅', exact: true }).click()
    await lobbyShown(mei)
    const mine = screen(mei).locator(`.my-game[data-room="${dRoom}"]`)
    await mine.waitFor({ timeout: 15000 })
    assert.match(await mine.innerText(), /宫斗杀·关卡1[\s\S]*轮到你[\s\S]*第 2 席[\s\S]*对局中/)  // her move is not in
    assert.match(await screen(mei).locator('.my-games').innerText(), /1 局 · 1 局轮到你/)
    await shot(mei.page, `${SHOTS}lobby-my-games.png`)
    await mine.getByRole('button', { name: '继续', exact: true }).click()
    await screen(mei).locator('.room-status', { hasText: '对局中' }).waitFor()
    assert.match(mei.page.url(), new RegExp(`room-shengong/index\\?id=${dRoom}`))
    // the same account on another phone, which has never shown the room: her game is there too
    const other = await phone('沈眉庄')
    const there = screen(other).locator(`.my-game[data-room="${dRoom}"]`)
    await there.waitFor({ timeout: 15000 })
    assert.match(await there.innerText(), /宫斗杀·关卡1[\s\S]*第 2 席[\s\S]*对局中/)
    await other.page.context().close()
  })

  it('the lobby\'s 对局中 shelf lists games under way with 观战 only; rows name their 关卡', async () => {
    const hua = await api.login('华妃')
    const open = await api.call('POST', '/v1/rooms', hua, { game: 'shengong_d', options: { stage: 1 } })
    assert.equal(open.status, 200)
    const lobby = screen(jinxi)
    await jinxi.page.locator('.taro-tabbar__tabbar').getByText('大厅', { exact: true }).click()
    await lobbyShown(jinxi)
    await pickGame(jinxi, '宫斗杀')
    const waiting = lobby.locator(`.room-row[data-room="${open.body.room.id}"]`)
    await waiting.locator('.room-row-stage', { hasText: '关卡1' }).waitFor({ timeout: 15000 })
    await lobby.locator('[data-shelf="active"]').click()
    const running = lobby.locator(`.room-row[data-room="${dRoom}"]`)
    await running.waitFor({ timeout: 15000 })
    await running.getByRole('button', { name: '观战', exact: true }).waitFor()
    assert.equal(await running.getByRole('button', { name: '入席', exact: true }).count(), 0)
    await shot(jinxi.page, `${SHOTS}lobby-under-way.png`)
    await lobby.locator('[data-shelf="open"]').click()
  })

  it('the 宫斗杀 result offers 再战此关: the first tap opens a room of the same 关卡, her teammates\' taps sit them in it', async () => {
    // 沈眉庄's other phone rests on the lobby, her game listed: it leaves the list when the game ends,
    // told by the socket (the list is not polled)
    const resting = await phone('沈眉庄')
    const listed = screen(resting).locator(`.my-game[data-room="${dRoom}"]`)
    await listed.waitFor({ timeout: 15000 })
    const asked = []
    resting.page.on('request', (r) => { if (r.url().includes('/v1/me/rooms')) asked.push(r.url()) })
    // played to its end through the API (the game's own screens are tested in shengong.test.mjs)
    const tokens = [zhen, mei, rong].map((p) => p.token)
    let last
    for (let i = 0; i < 60; i++) {
      const view = (await api.call('GET', `/v1/rooms/${dRoom}`, tokens[0])).body
      last = `${view.room.status} step ${view.room.step} pending ${JSON.stringify(view.pending)}`
      if (view.room.status !== 'active') break
      for (const t of tokens) {
        const path = `/v1/games/shengong/rooms/${dRoom}/actions`
        const hit = await api.call('POST', path, t, { step: view.room.step, action: { type: 'assassinate', target: 0 } })
        if (hit.status !== 200) {
          const idle = await api.call('POST', path, t, { step: view.room.step, action: { type: 'idle' } })
          last += ` | ${hit.body?.code} ${idle.status} ${idle.body?.code ?? ''}`
        }
      }
    }
    assert.doesNotMatch(last, /^active/, last)
    await listed.waitFor({ state: 'detached', timeout: 15000 })
    assert.ok(asked.length >= 1 && asked.length <= 12, `asked ${asked.length} times`)  // notices coalesced, not a poll
    await resting.page.context().close()
    const room = screen(zhen)
    await room.locator('.sg-verdict').waitFor({ timeout: 20000 })
    await room.getByRole('button', { name: '再战此关', exact: true }).click()
    await until('a new room', async () => (await room.locator('.room-status', { hasText: '候场' }).count()) > 0 || null)
    const fresh = await screen(zhen).locator('.room-invite').getAttribute('data-room')
    assert.notEqual(fresh, dRoom)
    // its waiting screen names the two teammates who have not come yet
    assert.match(await screen(zhen).locator('.room-awaited').innerText(), /^上局同伴未到：\S+、\S+$/)
    // the 再战 room keeps the 暗号, shown to her as in the first room (not 「此房设有暗号」)
    await screen(zhen).locator('.room-password', { hasText: '碎玉轩' }).waitFor()
    await shot(zhen.page, `${SHOTS}again-waiting.png`)
    await screen(zhen).locator('.masthead-sub', { hasText: '宫斗杀' }).waitFor()
    // the ended game is forgotten by 「我的对局」, the new room is there
    await screen(zhen).getByRole('button', { name: '回大厅', exact: true }).click()
    await lobbyShown(zhen)
    await screen(zhen).locator(`.my-game[data-room="${fresh}"]`).waitFor({ timeout: 15000 })
    assert.equal(await screen(zhen).locator(`.my-game[data-room="${dRoom}"]`).count(), 0)
    // her teammates, still on the result, read who opened it; their taps lead into that same room
    const note = screen(mei).locator('.again-note')
    await note.waitFor({ timeout: 15000 })
    assert.match(await note.innerText(), /^\S+ 已开了新房，点「再战此关」前往$/)
    await shot(mei.page, `${SHOTS}shengong-again.png`)
    await screen(mei).getByRole('button', { name: '再战此关', exact: true }).click()
    await until('her seat in the same room', async () => (await screen(mei).locator(`.room-invite[data-room="${fresh}"]`).count()) > 0 || null)
    await screen(mei).locator('.seat-me').waitFor()
    assert.match(await screen(mei).locator('.room-awaited').innerText(), /^上局同伴未到：[^、\s]+$/)  // only the third
    await screen(rong).getByRole('button', { name: '再战此关', exact: true }).click()
    await screen(rong).locator('.room-status', { hasText: '对局中' }).waitFor({ timeout: 20000 })  // the third seat starts it
    assert.match(rong.page.url(), new RegExp(`room-shengong/index\\?id=${fresh}`))
  })
})

describe('保皇: a spectator\'s table and a deal\'s verdict', () => {
  it('a spectator sees all five seats around the felt and 「观战中」; a finished deal says who won', async () => {
    // five players at the table (they go into 托管 below, and the engine plays the deal out at once)
    const five = await Promise.all(['华妃', '皇后', '端妃', '敬妃', '齐妃'].map((n) => api.login(n)))
    const [hua] = five
    const made = await api.call('POST', '/v1/rooms', hua, { game: 'baohuang', options: { variant: 'simple' } })
    const rid = made.body.room.id
    for (const t of five.slice(1)) assert.equal((await api.call('POST', `/v1/rooms/${rid}/join`, t, {})).status, 200)
    assert.equal((await api.call('POST', `/v1/rooms/${rid}/start`, hua)).status, 200)
    const watcher = await phone('小允子', `/pages/room-baohuang/index?id=${rid}`)
    const table = screen(watcher)
    await table.locator('.bh-table').waitFor({ timeout: 15000 })
    await table.getByText('观战中', { exact: false }).waitFor()
    assert.equal(await table.locator('.bh-seat').count(), 5)
    const foot = await table.locator('.bh-seat-foot').boundingBox()
    for (const place of ['left', 'right', 'top-left', 'top-right']) {
      const b = await table.locator(`.bh-seat-${place}`).boundingBox()
      const overlap = foot.x < b.x + b.width && b.x < foot.x + foot.width && foot.y < b.y + b.height && b.y < foot.y + foot.height
      assert.ok(!overlap, `the foot seat is not under the ${place} seat`)
    }
    await shot(watcher.page, `${SHOTS}baohuang-watch.png`)
    // all five go into 托管: the engine plays the deal out (and, with everyone in 托管, ends the table)
    for (const t of five) {
      await until('托管', async () => {
        const view = (await api.call('GET', `/v1/games/baohuang/rooms/${rid}`, t)).body
        if (view.room.status !== 'active' || view.game.seats[view.game.seat].auto) return true
        await api.call('POST', `/v1/games/baohuang/rooms/${rid}/actions`, t, { step: view.room.step, action: { type: 'auto' } })
        return false
      })
    }
    const verdict = table.locator('.bh-verdict-text')
    await verdict.waitFor({ timeout: 60000 })
    const deal = await table.locator('.bh-scores').getAttribute('data-deal')
    const result = (await api.call('GET', `/v1/games/baohuang/rooms/${rid}/result`, hua)).body.results.find((r) => r.unit === `deal-${deal}`)
    // the three's side is 造反方 once one of them declared 造反, else 平民方
    const rebels = result.extra.rebels.length ? '造反方胜' : '平民方胜'
    const expected = { emperor: '皇帝方胜', rebels, draw: '平局' }[result.extra.winner]
    assert.ok(expected, `the result names the deal's winner (${result.extra.winner})`)
    assert.equal((await verdict.textContent()).trim(), expected)
    await table.locator('.bh-scores').scrollIntoViewIfNeeded()
    await shot(watcher.page, `${SHOTS}baohuang-verdict.png`)
  })
})

describe('司礼', () => {
  it('我的 shows the 司礼\'s desk: 添妃子, 赐宫女, 开/封玩法, 举报', async () => {
    const admin = await phone('司礼', '/pages/me/index')
    const me = screen(admin)
    await me.locator('.panel-title', { hasText: '司礼' }).waitFor()
    assert.equal(await me.locator('.panel-title', { hasText: '册封妃子' }).count(), 0)
    const add = me.locator('[data-block="consort"]')
    // a greyed button says what it waits for
    await add.locator('.admin-hint', { hasText: '先写妃子名号' }).waitFor()
    await add.locator('input').first().fill('余答应')
    assert.equal(await add.locator('.admin-hint').count(), 0)
    await add.getByRole('button', { name: '添妃子', exact: true }).click()
    await add.getByText('已添「余答应」').waitFor()
    const grant = me.locator('[data-block="maid"]')
    assert.equal(await grant.locator('.admin-hint').innerText(), '先择妃子与宫女')
    await grant.locator('.chip', { hasText: '余答应' }).click()
    assert.equal(await grant.locator('.admin-hint').innerText(), '先择宫女')
    await grant.locator('.chip').filter({ hasText: '·' }).first().click()
    assert.equal(await grant.locator('.admin-hint').count(), 0)
    await grant.locator('.chip', { hasText: 'Lv.2' }).click()
    await grant.getByRole('button', { name: '赐宫女', exact: true }).click()
    await grant.getByText('已赐「余答应」').waitFor()
    const games = me.locator('[data-block="games"]')
    const melee = games.locator('[data-game="shengong_a"]')
    await melee.getByText('封存').waitFor()
    await melee.locator('input').click({ force: true })
    await games.getByText('已开放').waitFor()
    await melee.getByText('开放', { exact: true }).waitFor()
    const listed = (await api.call('GET', '/v1/games', admin.token)).body.games.find((g) => g.key === 'shengong_a')
    assert.equal(listed.open, true)
    await me.locator('[data-block="reports"]').waitFor()
    await me.locator('.masthead-title').evaluate((el) => el.scrollIntoView({ block: 'start' }))
    await shot(admin.page, `${SHOTS}admin.png`)
  })

  it('the 司礼 opens a 锦标赛 room of a mode still sealed for players, with no 妃子 of her own', async () => {
    const admin = await phone('司礼')
    const lobby = screen(admin)
    const sealed = lobby.locator('.game', { hasText: '宫女局' })
    await sealed.getByText('司礼可开锦标赛').waitFor()  // stamped 封 for players, open to her
    await pickGame(admin, '宫女局')
    await lobby.getByRole('button', { name: '开房', exact: true }).click()
    await admin.page.getByRole('dialog').getByRole('button', { name: '开房', exact: true }).click()
    const room = screen(admin)
    await room.locator('.room-status', { hasText: '候场' }).waitFor()
    await room.locator('.masthead-sub', { hasText: '宫女局 · 锦标赛' }).waitFor()
  })
})
