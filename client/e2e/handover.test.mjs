// 代打, in the browser at phone size: a 宫斗杀 teammate gone three rounds; the creator's screen offers
// her seat to a bot, the creator proposes, the gone player's own screen says what her return does, the
// third player votes it through by clicking, and every screen shows the bot in her seat.
import { describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { current, loggedInPhone, shot } from './browser.mjs'
import { liveSuite, SHOTS } from './suite.mjs'

const live = liveSuite()
const screen = (p) => current(p.page)

describe('代打', () => {
  let zhen
  let mei
  let rong
  let roomId

  it('the creator is offered the seat of a teammate gone three rounds, and proposes a bot', async () => {
    ;[zhen, mei, rong] = await Promise.all(['甄嬛', '沈眉庄', '安陵容'].map((n) => loggedInPhone(live.browser, live.server.base, live.api, n)))
    const open = await live.api.call('POST', '/v1/rooms', zhen.token, { game: 'shengong_d', options: { stage: 1 } })
    assert.equal(open.status, 200, JSON.stringify(open.body))
    roomId = open.body.room.id
    for (const p of [mei, rong]) assert.equal((await live.api.call('POST', `/v1/rooms/${roomId}/join`, p.token, {})).status, 200)
    // 安陵容 sends nothing for three rounds that wait for her; 甄嬛 presses 催战 each time (through the API:
    // the 催战 button has its own test). A round whose move a boss's 暗杀 voided waits for no move of
    // that seat, and a round that did not wait for 安陵容 does not count her absent: such rounds go by.
    for (let absent = 0, round = 0; absent < 3; round++) {
      assert.ok(round < 15, `three rounds waiting for 安陵容 within ${round}`)
      const view = (await live.api.call('GET', `/v1/games/shengong/rooms/${roomId}`, zhen.token)).body
      const step = view.room.step
      const waiting = view.pending?.seats ?? []
      for (const [seat, p] of [[0, zhen], [1, mei]]) {
        if (!waiting.includes(seat)) continue
        const moved = await live.api.call('POST', `/v1/games/shengong/rooms/${roomId}/actions`, p.token, { step, action: { type: 'idle' } })
        assert.equal(moved.status, 200, JSON.stringify(moved.body))
      }
      if (!waiting.includes(2)) continue
      assert.equal((await live.api.call('POST', `/v1/rooms/${roomId}/hurry`, zhen.token, { step })).status, 200)
      absent++
    }
    for (const p of [zhen, mei, rong]) await p.page.goto(`/pages/room-shengong/index?id=${roomId}`)
    const bar = screen(zhen).getByRole('region', { name: '代打' })
    await bar.getByText('「安陵容」久未亲自出手，似已离席').waitFor({ timeout: 15000 })
    // nobody else is offered it
    await screen(mei).locator('.sg-tabs').waitFor()
    assert.equal(await screen(mei).getByRole('region', { name: '代打' }).count(), 0)
    await shot(zhen.page, `${SHOTS}handover-offer.png`)
    await bar.getByRole('button', { name: '请机器人代打' }).click()
    const ask = zhen.page.getByRole('dialog', { name: '请机器人代打' })
    await ask.getByText('过半同意即交出', { exact: false }).waitFor()
    await ask.getByRole('button', { name: '进阶机器人' }).click()
    await ask.waitFor({ state: 'detached' })
    await bar.getByText('提议由进阶机器人代打「安陵容」的座位。').waitFor()
    assert.match(await bar.locator('.handover-count').innerText(), /同意 1 · 不同意 0 · 共 2 票/)
    await bar.getByRole('button', { name: '已同意' }).waitFor()
  })

  it('the gone player reads what her return does and has no vote; the third votes it through', async () => {
    const hers = screen(rong).getByRole('region', { name: '代打' })
    await hers.getByText('有人提议由进阶机器人代打你的座位：你一落子，座位就回到你手里。').waitFor({ timeout: 15000 })
    assert.equal(await hers.getByRole('button', { name: '同意' }).count(), 0)
    const bar = screen(mei).getByRole('region', { name: '代打' })
    await bar.getByText('提议由进阶机器人代打「安陵容」的座位。').waitFor({ timeout: 15000 })
    await shot(mei.page, `${SHOTS}handover-vote.png`)
    await bar.getByRole('button', { name: '同意', exact: true }).click()
    // handed over: the vote is gone from every screen and her row carries the bot's mark
    for (const p of [mei, zhen]) {
      await screen(p).getByRole('region', { name: '代打' }).waitFor({ state: 'detached', timeout: 15000 })
      const row = screen(p).locator('.sg-rival', { hasText: '安陵容' })
      await row.locator('.sg-bot-mark').waitFor({ timeout: 15000 })
    }
    const seats = (await live.api.call('GET', `/v1/rooms/${roomId}`, zhen.token)).body.room.seats
    assert.equal(seats[2].bot, 'advanced')
  })
})
