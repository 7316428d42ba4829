// Browser tests of the H5 build against the local server (demo data): what the screen shows.
// Screenshots at phone size go to e2e/shots/ (shown in client/README.md).
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { apiClient, startServer } from './server.mjs'
import { current, launch, phoneContext, settle, shot, until } from './browser.mjs'

const SHOTS = fileURLToPath(new URL('./shots/', import.meta.url))
mkdirSync(SHOTS, { recursive: true })

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

async function loginByName(context, name, { screenshot } = {}) {
  const page = await context.newPage()
  await page.goto('/')
  const view = current(page)
  await view.getByText('入宫', { exact: true }).waitFor()
  await view.locator('input').fill(name)
  if (screenshot) await shot(page, `${SHOTS}login.png`)
  await view.getByText('入宫', { exact: true }).click()
  await current(page).locator('.masthead-title', { hasText: '大厅' }).waitFor()
  await settle(page)
  return page
}

async function tab(page, label) {
  await page.locator('.taro-tabbar__tabbar').getByText(label, { exact: true }).click()
  await settle(page)
}

describe('深宫 H5', () => {
  let zhen
  let roomId

  it('logs in by name and shows 我的 with the 妃子 and her four bars', async () => {
    const ctx = await phoneContext(browser, server.base)
    zhen = await loginByName(ctx, '甄嬛', { screenshot: true })
    await tab(zhen, '我的')
    const me = current(zhen)
    await me.locator('.consort-name', { hasText: '甄嬛' }).waitFor()
    const bars = await me.locator('.panel').first().locator('.stat').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))
    assert.deepEqual(bars, ['容貌 92', '才情 95', '圣宠 88', '权势 60'])
    await me.locator('.maid-owned').nth(4).waitFor()
    assert.equal(await me.locator('.maid-owned').count(), 5, 'her five maids are lit in the collection')
  })

  it('shows the games in the lobby, locked ones greyed with their reason', async () => {
    // another player's room with a 暗号, so the lobby shows a lock
    const hua = await api.login('华妃')
    const created = await api.call('POST', '/v1/rooms', hua, { game: 'shengong_d', options: { stage: 1 }, password: '翊坤宫' })
    assert.equal(created.status, 200)
    await tab(zhen, '大厅')
    const lobby = current(zhen)
    await lobby.locator('.game', { hasText: '宫斗杀' }).first().waitFor()
    // a mode's plaque shows its family and, on its own line, the mode: the cards are told apart
    const locked = lobby.locator('.game-locked', { hasText: '深宫杀竞技局' })
    await locked.getByText('暂未开放，敬请期待').waitFor()
    const row = lobby.locator('.room-row', { hasText: '华妃的房间' })
    await row.waitFor()
    assert.equal(await row.locator('.lock').count(), 1, 'the 暗号 room shows its lock')
    await shot(zhen, `${SHOTS}lobby.png`)
  })

  it('asks for the 暗号 to watch a locked room and shows the API\'s own words when it is wrong', async () => {
    const lobby = current(zhen)
    await lobby.locator('.room-row', { hasText: '华妃的房间' }).getByText('观战', { exact: true }).click()
    const dialog = zhen.getByRole('dialog')
    await dialog.locator('input').fill('长春宫')
    await dialog.getByText('报号', { exact: true }).click()
    await dialog.getByRole('alert').filter({ hasText: '暗号不对' }).waitFor()
    await shot(zhen, `${SHOTS}password.png`)
    await dialog.locator('input').fill('翊坤宫')
    await dialog.getByText('报号', { exact: true }).click()
    const room = current(zhen)
    await room.locator('.summary-item', { hasText: '观战' }).waitFor()
    assert.match(zhen.url(), /\/pages\/room-shengong\/index\?id=/)
    await room.getByText('回大厅', { exact: true }).click()
    await current(zhen).locator('.masthead-title', { hasText: '大厅' }).waitFor()
    await settle(zhen)
  })

  it('creates a 宫斗杀 room (stage 1) from the generated dialog and lands in its room page', async () => {
    const lobby = current(zhen)
    await lobby.getByText('开房', { exact: true }).click()
    const dialog = zhen.getByRole('dialog')
    await dialog.getByText('关卡1 · 高明珠', { exact: true }).waitFor()
    await dialog.getByText('回合上限').waitFor()
    await dialog.getByText('关卡1 · 高明珠', { exact: true }).click()
    await shot(zhen, `${SHOTS}create-room.png`)
    // 先看玩法: the rules, as the server writes them, over the dialog; closing it leaves the dialog as it was
    await dialog.getByText('先看玩法 ›', { exact: true }).click()
    const guide = zhen.getByRole('dialog', { name: '玩法 · 宫斗杀' })
    await guide.locator('.guide-heading', { hasText: '关卡与对手' }).waitFor()
    const stageOne = guide.locator('.guide-line', { hasText: '关卡1 · 高明珠' })
    assert.match(await stageOne.textContent(), /气血 24、好感 20，命中 ＋10%/)
    await shot(zhen, `${SHOTS}guide.png`)
    // the strip of contents: a tap brings its section's heading to the top of the page, a second tap
    // on the same name (after scrolling away) brings it back again
    const page = guide.locator('.guide-scroll')
    const heading = guide.locator('.guide-heading', { hasText: '关卡与对手' })
    const atTop = async () => {
      const [box, top] = await Promise.all([heading.boundingBox(), page.boundingBox()])
      return Math.abs(box.y - top.y) < 24
    }
    const toc = guide.getByRole('button', { name: '关卡与对手', exact: true })
    assert.equal(await atTop(), false, 'the stages are further down the page')
    await toc.click()
    await until('the stages at the top', atTop, 3000)
    await stageOne.waitFor({ state: 'visible' })
    await shot(zhen, `${SHOTS}guide-stages.png`)
    await guide.getByRole('button', { name: '一局怎么走', exact: true }).click()
    await until('the start at the top', async () => !(await atTop()), 3000)
    await toc.click()
    await until('the stages at the top again', atTop, 3000)
    // the name of the section she is reading is lit, and follows her reading down to the page's end
    const lit = guide.locator('.guide-toc-item-on')
    assert.equal(await lit.innerText(), '关卡与对手')
    await page.evaluate((el) => { el.scrollTop = el.scrollHeight })
    await until('the last section lit at the end', async () => (await lit.innerText()) === '计分与战绩', 3000)
    const [strip, last] = await Promise.all([guide.locator('.guide-toc').boundingBox(), lit.boundingBox()])
    await until('the lit name in the strip\'s sight', async () => {
      const box = await lit.boundingBox()
      return box.x >= strip.x - 1 && box.x + box.width <= strip.x + strip.width + 1
    }, 3000)
    assert.ok(last, 'the lit name is on the page')
    await guide.getByRole('button', { name: '关闭' }).click()
    await guide.waitFor({ state: 'detached' })
    assert.equal(await zhen.locator('.taro-tabbar__tabbar').isVisible(), false, 'the tab bar stays hidden under the 开房 dialog')
    await dialog.locator('.seal', { hasText: '开房' }).click()
    const room = current(zhen)
    await room.locator('.room-status', { hasText: '候场' }).waitFor()
    // the waiting room has the rules too
    await room.locator('.seal', { hasText: '玩法' }).click()
    const again = zhen.getByRole('dialog', { name: '玩法 · 宫斗杀' })
    await again.locator('.guide-heading', { hasText: '一局怎么走' }).waitFor()
    await again.getByRole('button', { name: '关闭' }).click()
    await again.waitFor({ state: 'detached' })
    roomId = await room.locator('.room-invite').getAttribute('data-room')
    assert.match(zhen.url(), /\/pages\/room-shengong\/index\?id=/)
    assert.equal(await room.locator('.seat-taken').count(), 1)
  })

  it('two more players join by clicking; the room fills and starts', async () => {
    for (const name of ['沈眉庄', '安陵容']) {
      const ctx = await phoneContext(browser, server.base)
      const page = await loginByName(ctx, name)
      const row = current(page).locator(`.room-row[data-room="${roomId}"]`)
      await row.waitFor()
      await row.getByText('入席', { exact: true }).click()
      await current(page).locator('.seat-me .seat-name', { hasText: name }).waitFor()
    }
    const room = current(zhen)
    await room.locator('.room-status', { hasText: '对局中' }).waitFor({ timeout: 15000 })
    const names = await room.locator('.seat-taken .seat-name').allTextContents()
    assert.deepEqual(names, ['甄嬛', '沈眉庄', '安陵容'])
    assert.equal(await room.locator('.seat-empty').count(), 0)
    await shot(zhen, `${SHOTS}room.png`)
  })

  it('shows 「网络不稳，正在重连…」 while offline and drops it when the answers come back', async () => {
    const ctx = zhen.context()
    await ctx.setOffline(true)
    const banner = current(zhen).locator('.net-banner')
    await banner.filter({ hasText: '网络不稳，正在重连…' }).waitFor()
    await ctx.setOffline(false)
    await banner.waitFor({ state: 'detached' })
    await current(zhen).locator('.room-status', { hasText: '对局中' }).waitFor()
  })

  it('the boards list rows once a game has ended', async () => {
    // play the room to its end through the API (the game screen comes later)
    const tokens = await Promise.all(['甄嬛', '沈眉庄', '安陵容'].map((n) => api.login(n)))
    for (let i = 0; i < 40; i++) {
      const view = (await api.call('GET', `/v1/rooms/${roomId}`, tokens[0])).body
      if (view.room.status !== 'active') break
      for (const t of tokens) {
        const path = `/v1/games/shengong/rooms/${roomId}/actions`
        const hit = await api.call('POST', path, t, { step: view.room.step, action: { type: 'assassinate', target: 0 } })
        // a move the rules refuse this round (voided by an assassination …): wait instead
        if (hit.status !== 200) await api.call('POST', path, t, { step: view.room.step, action: { type: 'idle' } })
      }
    }
    const room = current(zhen)
    await room.locator('.room-status', { hasText: '已终局' }).waitFor({ timeout: 15000 })
    await room.getByText('回大厅', { exact: true }).click()
    await current(zhen).locator('.masthead-title', { hasText: '大厅' }).waitFor()
    await tab(zhen, '榜单')
    const boards = current(zhen)
    await boards.locator('.board-row', { hasText: '甄嬛' }).first().waitFor()
    const rows = await boards.locator('.panel').first().locator('.board-row .board-name').allTextContents()
    assert.deepEqual([...rows].sort(), ['安陵容', '沈眉庄', '甄嬛'].sort())
    await boards.locator('.my-rank-value', { hasText: '第' }).waitFor()
    await boards.locator('.clear-row').first().waitFor()
    // seed ⑦: the fastest clear keeps the three names and each one's score; seed: 派生胜率 · KD · 场均杀伤
    const clear = (await api.call('GET', '/v1/stages/1/fastest?competition=free', tokens[0])).body.rows[0]
    const figure = (x) => String(Number(x.toFixed(2)))
    assert.equal(await boards.locator('.clear-row .board-name').first().innerText(),
      clear.team.map((m) => `${m.name}${m.played === false ? '（未出手）' : ''} ${figure(m.score)} 分`).join('、'))
    // each of the three on one line at phone width: a name never breaks in two (「安陵」 / 「容」)
    const members = boards.locator('.clear-row').first().locator('.clear-member')
    assert.equal(await members.count(), clear.team.length)
    const split = await members.evaluateAll((els) => els
      .filter((e) => new Set([...e.getClientRects()].map((r) => Math.round(r.top))).size > 1).map((e) => e.textContent))
    assert.deepEqual(split, [], 'a fastest-clear member broken over two lines')
    const mine = (await api.call('GET', '/v1/boards/coop-free/me', tokens[0])).body.record
    assert.equal(await boards.locator('.board-row', { hasText: '甄嬛' }).first().locator('.board-figures').innerText(),
      `KD ${figure(mine.kd)} · 场均杀伤 ${figure(mine.avg_damage)}`)
    await shot(zhen, `${SHOTS}boards.png`)
  })

  it('我的 shows her 群芳战绩 with a 品级', async () => {
    await tab(zhen, '我的')
    const me = current(zhen)
    await me.locator('.record', { hasText: '宫斗杀 · 自由赛' }).waitFor()
    await me.locator('.record', { hasText: '宫斗杀 · 自由赛' }).getByText('场均杀伤', { exact: false }).waitFor()
    assert.ok((await me.locator('.record-title').first().textContent()).trim().length > 0)
    await me.evaluate(() => window.scrollTo(0, 0))
    await shot(zhen, `${SHOTS}me.png`)
  })

  it('a newcomer without a 妃子 claims an unclaimed one from 我的', async () => {
    const ctx = await phoneContext(browser, server.base)
    const page = await loginByName(ctx, '槿汐')
    await tab(page, '我的')
    const me = current(page)
    const card = me.locator('.claim', { hasText: '祺贵人' })
    await card.waitFor()
    await shot(page, `${SHOTS}claim.png`)
    await card.getByText('册封', { exact: true }).click()
    const dialog = page.getByRole('dialog')
    await dialog.getByText('此后不可更换', { exact: false }).waitFor()
    await dialog.locator('.seal', { hasText: '册封' }).click()
    await me.locator('.panel-title', { hasText: '我的妃子' }).waitFor()
    await me.locator('.consort-name', { hasText: '祺贵人' }).waitFor()
    assert.equal(await me.locator('.claim').count(), 0)
    const bars = await me.locator('.panel').first().locator('.stat').evaluateAll((els) => els.map((e) => e.getAttribute('aria-label')))
    assert.deepEqual(bars, ['容貌 78', '才情 55', '圣宠 62', '权势 45'])
  })
})
