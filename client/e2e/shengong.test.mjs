// 深宫杀 in the browser: players play whole games by clicking what the screen shows (the H5 build
// against the local server), a spectator never sees a hidden move, and the phone-size screenshots
// of the game's screens are taken (e2e/shots/shengong-*.png, shown in client/README.md).
import { after, afterEach, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { apiClient, startServer } from './server.mjs'
import { current, launch, phoneContext, settle } from './browser.mjs'

const SHOTS = fileURLToPath(new URL('./shots/', import.meta.url))
mkdirSync(SHOTS, { recursive: true })

/** Every R 宫女's skill: a spectator's screen never names a card. */
const CARD_NAMES = ['寻医问药', '袖里藏针', '巧舌如簧', '密诏传讯', '鹤顶红', '夜行刺', '捕风捉影', '贴身护卫', '银针试毒',
  '谨言慎行', '参汤续命', '姐妹同心', '春风化雨', '御厨妙手']
const VERBS = '下毒|暗杀|诬告|送膳|养生|移动|移驾|驻留|待机'
const TRIO = ['甄嬛', '沈眉庄', '安陵容']
const WEAK = ['冷宫甲', '冷宫乙', '冷宫丙']
const EIGHT = ['甄嬛', '沈眉庄', '安陵容', '华妃', '皇后', '敬妃', '端妃', '叶澜依']
const WATCHER = '小允子'

let server
let browser
let api
const pages = new Map()
const t0 = Date.now()
const log = (msg) => console.log(`[${((Date.now() - t0) / 1000).toFixed(1)}s] ${msg}`)

before(async () => {
  server = await startServer()
  api = apiClient(server.base)
  browser = await launch()
  const admin = await api.login('司礼')
  // mode C is locked by default: the 司礼 opens it
  const opened = await api.call('PUT', '/v1/admin/games', admin, { open: { shengong_c: true } })
  assert.equal(opened.status, 200, JSON.stringify(opened.body))
  // a weak team for the wipe-out: every attribute 0 (气血 10), each 妃子 claimed by a new player
  for (const name of WEAK) await api.withConsort(admin, name, `${name}答应`, 0)
  log('server up, mode C open, weak team claimed')
  await Promise.all([...new Set([...EIGHT, ...WEAK, WATCHER])].map(phone))
  log('twelve phones logged in')
})

afterEach(async (t) => {
  // on a failure, what every phone showed (set E2E_FAIL_SHOTS=dir to keep them)
  const dir = process.env.E2E_FAIL_SHOTS
  if (!dir || !t) return
  mkdirSync(dir, { recursive: true })
  for (const [name, page] of pages) await page.screenshot({ path: `${dir}/${name}.png` }).catch(() => undefined)
})

after(async () => {
  await browser?.close()
  await server?.stop()
  log('done')
})

// ---------- helpers ----------

/** A phone logged in by name through the login page, on the lobby (one per player, kept). */
const phones = new Map()
function phone(name) {
  if (!phones.has(name)) phones.set(name, login(name))
  return phones.get(name)
}

async function login(name) {
  const ctx = await phoneContext(browser, server.base)
  const page = await ctx.newPage()
  await page.goto('/')
  const view = current(page)
  await view.getByText('入宫', { exact: true }).waitFor()
  await view.locator('input').fill(name)
  await view.getByText('入宫', { exact: true }).click()
  await current(page).locator('.masthead-title', { hasText: '大厅' }).waitFor()
  pages.set(name, page)
  return page
}

async function toLobby(page) {
  const tabBar = page.locator('.taro-tabbar__tabbar')
  if (await tabBar.isVisible()) await tabBar.getByText('大厅', { exact: true }).click()
  else {
    await current(page).getByText('回大厅', { exact: true }).click()
    // leaving a game she sits in is confirmed first (an unmoved seat stands by at the deadline; 「我的对局」 leads back)
    const confirm = page.getByRole('dialog', { name: '暂离对局' })
    await confirm.or(current(page).locator('.masthead-title', { hasText: '大厅' })).first().waitFor()
    if (await confirm.count()) await confirm.getByRole('button', { name: '回大厅', exact: true }).click()
  }
  await current(page).locator('.masthead-title', { hasText: '大厅' }).waitFor()
  await settle(page)
}

async function pickGame(page, title) {
  const lobby = current(page)
  // the plaque reads 「深宫杀」 over 「卡牌局」; the panel it opens names the game in full
  await lobby.locator('.game', { hasText: title.replace(' · ', '') }).first().click()
  await lobby.locator('.panel-title', { hasText: title }).waitFor()
}

/** 开房 from the lobby's dialog; returns the room id from the waiting room. */
async function openRoom(page, title, stageLabel) {
  await pickGame(page, title)
  await current(page).getByText('开房', { exact: true }).click()
  const dialog = page.getByRole('dialog')
  if (stageLabel) await dialog.getByText(stageLabel, { exact: true }).click()
  await dialog.locator('.seal', { hasText: '开房' }).click()
  const room = current(page)
  await room.locator('.room-status', { hasText: '候场' }).waitFor()
  return await room.locator('.room-invite').getAttribute('data-room')
}

/**
 * 入席 or 观战 from the lobby's room row. Joins racing each other may be told 「房间状态已变化，请刷新后
 * 重试」 (the API's words, shown in the lobby): the player taps again, as the message says.
 */
async function enterRoom(page, title, roomId, how) {
  await pickGame(page, title)
  const lobby = current(page)
  const row = lobby.locator(`.room-row[data-room="${roomId}"]`)
  await row.waitFor({ timeout: 15000 })
  for (let attempt = 1; ; attempt++) {
    await row.getByText(how, { exact: true }).click()
    const landed = page.locator('.taro_page:visible .masthead-sub').filter({ hasText: title === '宫斗杀' ? '宫斗杀 ·' : '卡牌局 ·' })
    const refused = lobby.locator('.error-line')
    await landed.or(refused).first().waitFor({ timeout: 20000 })
    if (await landed.count()) return
    if (attempt >= 4) throw new Error(`${how}: ${await refused.first().textContent()}`)
  }
}

/** What one page shows of the round: {round, state} with state act | sealed | voided | out | over
 * (voided: 宫斗杀 waits for no move of hers this round, her void is her move). */
async function roundState(page, round) {
  const handle = await page.waitForFunction((want) => {
    const roots = [...document.querySelectorAll('.taro_page')].filter((p) => getComputedStyle(p).display !== 'none')
    const root = roots[roots.length - 1]
    if (!root) return null
    if (root.querySelector('.sg-verdict')) return { round: 0, state: 'over' }
    const m = (root.querySelector('.sg-round-no')?.textContent ?? '').match(/第 (\d+) 回合/)
    if (!m || Number(m[1]) < want) return null
    const r = Number(m[1])
    if (root.querySelector('.sg-watch-out')) return { round: r, state: 'out' }
    if (root.querySelector('.sg-dock-sealed')) return { round: r, state: 'sealed' }
    if (root.querySelector('.sg-seal-btn')) return { round: r, state: 'act' }
    if (root.querySelector('.sg-voided')) return { round: r, state: 'voided' }
    return null
  }, round, { timeout: 30000, polling: 100 })
  return handle.jsonValue()
}

async function isOpen(view, action) {
  return (await openActions(view)).has(action)
}

/** The action seals that are open (not greyed) on this screen. */
async function openActions(view) {
  return new Set(await view.locator('.sg-act[aria-disabled="false"]').evaluateAll((els) => els.map((e) => e.getAttribute('data-action'))))
}

/** 落子, then wait until the move is sealed (shown back) or the round moved on; returns the move as it read. */
async function sealMove(page, round) {
  const view = current(page)
  const composed = (await view.locator('.sg-dock-move').textContent()).trim()
  await view.locator('.sg-seal-btn').click()
  const done = await page.waitForFunction((want) => {
    const roots = [...document.querySelectorAll('.taro_page')].filter((p) => getComputedStyle(p).display !== 'none')
    const root = roots[roots.length - 1]
    const refusal = root.querySelector('.sg-dock [role="alert"]')
    if (refusal) return { error: refusal.textContent }
    const mine = root.querySelector('.sg-my-move')
    if (mine) return { move: mine.textContent }
    const m = (root.querySelector('.sg-round-no')?.textContent ?? '').match(/第 (\d+) 回合/)
    if (root.querySelector('.sg-verdict') || !m || Number(m[1]) > want) return { move: null }
    return null
  }, round, { timeout: 15000, polling: 50 })
  const out = await done.jsonValue()
  if (out.error) throw new Error(`move refused: ${out.error}`)
  return out.move ?? composed
}

/**
 * Plays rounds until the game is over: each round every page that may act runs `decide(page, round)`
 * (which clicks an action, its target and cards) and seals; `afterRound(round, moves)` runs when all
 * have sealed. Returns the number of rounds played.
 */
async function playOut(players, decide, { afterRound, beforeSeal, maxRounds = 21, label = '' } = {}) {
  for (let round = 1; round <= maxRounds; round++) {
    const start = Date.now()
    const states = await Promise.all(players.map((p) => roundState(p, round)))
    const shown = Date.now()
    if (states.every((s) => s.state === 'over')) return round - 1
    const moves = await Promise.all(players.map(async (p, i) => {
      if (states[i].state !== 'act' || states[i].round !== round) return null
      const skip = await decide(p, round, i)
      if (skip === 'skip') return null
      if (beforeSeal) await beforeSeal(p, round, i)
      return sealMove(p, round)
    }))
    const sealed = Date.now()
    if (afterRound) await afterRound(round, moves.filter(Boolean))
    if (process.env.E2E_TIMING) log(`${label} round ${round}: shown ${shown - start} ms, sealed ${sealed - shown} ms, checked ${Date.now() - sealed} ms`)
  }
  throw new Error('the game did not end')
}

/** The D boss's bar as the screen shows it (aria-label 「好感 12.5」). */
async function bossBar(view, kind) {
  const label = await view.locator(`.sg-boss .sg-bar-${kind}`).first().getAttribute('aria-label')
  return Number(label.split(' ')[1])
}

/** Scroll so `locator` is at the top of the screen, then a phone-size screenshot. */
async function shotAt(page, locator, file) {
  if (locator) await locator.evaluate((el) => el.scrollIntoView({ block: 'start' }))
  await settle(page)
  await page.screenshot({ path: `${SHOTS}${file}`, animations: 'disabled' })
}

async function tab(page, key) {
  await current(page).locator(`.sg-tab[data-tab="${key}"]`).click()
}

/** Everything a spectator's room screen shows, over the 宫图 and 战报 tabs (the one open, then the other). */
async function watcherText(page) {
  const view = current(page)
  const read = async () => ({
    text: await view.innerText(),
    lines: await view.locator('.sg-line-own, .sg-line-about_you').count(),
  })
  const first = await read()
  const onMap = (await view.locator('.sg-tab-on').getAttribute('data-tab')) === 'map'
  await tab(page, onMap ? 'report' : 'map')
  if (onMap) await view.locator('.sg-scroll').waitFor()
  const second = await read()
  return { text: `${first.text}\n${second.text}`, privateLines: first.lines + second.lines }
}

function assertNothingHidden(text, privateLines, names, moves, round) {
  assert.equal(privateLines, 0, `round ${round}: the spectator got a private report line`)
  for (const card of CARD_NAMES) assert.ok(!text.includes(card), `round ${round}: the spectator sees the card ${card}`)
  // a move with a target, a place or cards (「诬告 · 景仁宫 · 防守位「贴身护卫」」, 「移动 → 太医院」); a bare 待机 says nothing
  for (const move of moves.filter((m) => m.includes(' · ') || m.includes('→'))) {
    assert.ok(!text.includes(move), `round ${round}: the spectator sees a sealed move: ${move}`)
  }
  assert.ok(!text.includes('已落子：') && !text.includes('拟落子'), `round ${round}: a move shown to the spectator`)
  const named = new RegExp(`(${names.join('|')})[^，。：\\n]{0,8}(${VERBS})`)
  const hit = text.match(named)
  assert.equal(hit, null, `round ${round}: the spectator reads a seat's move: ${hit?.[0]}`)
}

// ---------- the games ----------

describe('深宫杀 H5: 宫斗杀 rooms and a bots room, side by side', { concurrency: true }, () => {
  let clearRoom

  it('宫斗杀 stage 1: three players open and join by clicking and play to a clear', async () => {
    const [zhen, mei, rong] = await Promise.all(TRIO.map(phone))
    clearRoom = await openRoom(zhen, '宫斗杀', '关卡1 · 高明珠')
    await Promise.all([mei, rong].map((p) => enterRoom(p, '宫斗杀', clearRoom, '入席')))
    log(`stage-1 room ${clearRoom} full`)

    // round 1, 甄嬛: the map first, then a card the server refuses with 暗杀, greyed with its reason, and the fix
    const view = current(zhen)
    await view.locator('.sg-seal-btn').waitFor({ timeout: 20000 })
    assert.equal(await view.locator('.sg-tile').count(), 5, 'the five places of 玩法D')
    assert.deepEqual((await view.locator('.sg-token').allTextContents()).sort(), [...TRIO].sort(), 'all three at 御花园')
    await shotAt(zhen, null, 'shengong-stage.png')
    await view.locator('.sg-act[data-action="assassinate"]').click()
    await view.locator('.sg-boss-picked').waitFor()
    // a card that does not go with 暗杀: 寻医问药 (下毒 only), greyed with its reason as soon as 暗杀 is chosen; and
    // 御厨妙手 (送膳 only), which the server marks as only to discard here (宫斗杀 has no 送膳)
    await tab(zhen, 'hand')
    const held = await view.locator('.sg-card').evaluateAll((els) => els.map((e) => e.getAttribute('data-card')))
    const meal = held.find((c) => c.startsWith('chushou'))
    if (meal) {
      const card = view.locator(`.sg-card[data-card="${meal}"]`)
      assert.equal(await card.locator('.sg-card-unusable').innerText(), '此玩法没有送膳：此牌只能弃')
      assert.equal(await card.locator('.sg-card-btn', { hasText: '出' }).count(), 0)
    }
    const misfit = held.find((c) => c.startsWith('xunyi'))
    assert.ok(misfit || meal, `she holds 寻医问药 or 御厨妙手: ${held.join()}`)
    // a card marked for discard fades, but its 留 (take it back) still looks as tappable as any button
    const dropped = view.locator('.sg-card').last()
    await dropped.locator('.sg-card-btn', { hasText: '弃' }).click()
    const keep = dropped.locator('.sg-card-btn', { hasText: '留' })
    const faded = (el) => { let o = 1; for (let e = el; e; e = e.parentElement) o *= Number(getComputedStyle(e).opacity); return o }
    assert.equal(await keep.evaluate(faded), 1, 'the 留 button is not greyed')
    assert.ok(await dropped.locator('.sg-card-skill').evaluate(faded) < 1, 'the discarded card fades')
    await keep.click()
    if (misfit) {
      const card = view.locator(`.sg-card[data-card="${misfit}"]`)
      // the card says what it does at her level, the per-level rule under it
      assert.match(await card.locator('.sg-card-text').innerText(), /^下毒命中 \+\d+%$/)
      assert.equal(await card.locator('.sg-card-rule').innerText(), '下毒命中 +10%/级')
      // with 暗杀 chosen the server refuses it (CardView.refused): greyed with the server's reason while
      // she composes, no 出, 弃 still there — not only at 落子
      await card.locator('.sg-card-refusal', { hasText: '「寻医问药」只对下毒生效（可以弃掉）' }).waitFor()
      assert.equal(await card.getAttribute('data-refused'), 'yes')
      assert.equal(await card.locator('.sg-card-btn', { hasText: '出' }).count(), 0)
      assert.equal(await card.locator('.sg-card-btn', { hasText: '弃' }).count(), 1)
      await shotAt(zhen, null, 'shengong-hand.png')
      // the fix: 下毒, which the card serves — now it goes in its slot
      const playIt = async () => {
        await tab(zhen, 'hand')
        assert.equal(await card.locator('.sg-card-refusal').count(), 0)
        await card.locator('.sg-card-btn', { hasText: '出' }).click()
        await tab(zhen, 'map')
      }
      await tab(zhen, 'map')
      await view.locator('.sg-act[data-action="poison"]').click()
      await playIt()
      // back to 暗杀: the card comes out of its slot and the dock says why
      await view.locator('.sg-act[data-action="assassinate"]').click()
      await view.locator('.sg-dock-note', { hasText: '已收回：「寻医问药」只对下毒生效（可以弃掉）' }).waitFor()
      assert.doesNotMatch(await view.locator('.sg-dock-move').textContent(), /寻医问药/)
      await view.locator('.sg-act[data-action="poison"]').click()
      await playIt()
      assert.match(await view.locator('.sg-dock-move').textContent(), /下毒 · 高明珠 · 进攻位「寻医问药」/)
      // the seal shows the chance with the card on it, as the server worked it out for that card
      const mineNow = (await api.call('GET', `/v1/games/shengong/rooms/${clearRoom}`, await api.login('甄嬛'))).body.game.you
      const withCard = mineNow.options.find((o) => o.type === 'poison').card_chances.find((c) => c.copy_id === misfit).chances[0]
      assert.match(await view.locator('.sg-act[data-action="poison"]').innerText(), new RegExp(`命中 ${withCard}%`))
    } else {
      await shotAt(zhen, null, 'shengong-hand.png')
      await tab(zhen, 'map')
    }
    const mine = await sealMove(zhen, 1)
    assert.match(mine, /(下毒|暗杀) · 高明珠/)
    await shotAt(zhen, null, 'shengong-sealed.png')

    const assassinate = async (page) => {
      const v = current(page)
      await v.locator(`.sg-act[data-action="${(await openActions(v)).has('assassinate') ? 'assassinate' : 'idle'}"]`).click()
    }
    // sealed: shown back to her; the others see that she has moved, not what — when their screens next
    // ask (a sealed move is not announced on the socket: docs/architecture.md, "Push"), here after
    // 沈眉庄's own move
    await assassinate(mei)
    await sealMove(mei, 1)
    await current(mei).locator('.sg-pip[data-seat="0"][data-sealed="yes"]').waitFor()
    assert.ok(!(await current(mei).innerText()).includes('寻医问药'))
    let reportShot = false
    const rounds = await playOut([zhen, mei, rong], async (page, round, i) => {
      if (round === 1 && i < 2) return 'skip'
      await assassinate(page)
    }, {
      afterRound: async (round) => {
        if (round === 2 && !reportShot) {
          reportShot = true
          await tab(mei, 'report')
          await current(mei).locator('.sg-report').nth(1).waitFor()
          assert.ok(await current(mei).locator('.sg-line-own').count() > 0, 'her own lines in full')
          await shotAt(mei, null, 'shengong-report.png')
          await tab(mei, 'map')
        }
      },
    })
    log(`stage 1 cleared after ${rounds} rounds`)

    // the result, as 甄嬛 reads it
    const result = current(zhen)
    await result.locator('.sg-verdict-seal', { hasText: '通关' }).waitFor()
    const names = await result.locator('.sg-score:not(.sg-score-head) .sg-score-name').allTextContents()
    assert.deepEqual([...names].map((n) => n.replace('（我）', '')).sort(), [...TRIO].sort())
    assert.equal(await result.locator('.sg-score-mine').count(), 1)
    const kills = await result.locator('.sg-score:not(.sg-score-head) [aria-label="击败"]').allTextContents()
    assert.ok(kills.map(Number).reduce((a, b) => a + b, 0) >= 1, 'someone is credited with the kill')
    await result.locator('.sg-unlock', { hasText: '关卡2' }).waitFor()
    await result.locator('.sg-fastest-rank', { hasText: '第 1 名' }).waitFor()
    await shotAt(zhen, null, 'shengong-result.png')

    // the boards page lists the clear
    await result.getByText('看榜单', { exact: true }).click()
    const boards = current(zhen)
    await boards.locator('.clear-row', { hasText: '甄嬛' }).first().waitFor()
    assert.match(await boards.locator('.clear-row').first().textContent(), new RegExp(`${rounds}\\s*回合`))
  })

  it('宫斗杀 stage 1 with a weak team: a wipe-out, watched by a spectator who never sees a hidden move', async () => {
    const team = await Promise.all(WEAK.map(phone))
    const watcher = await phone(WATCHER)
    const roomId = await openRoom(team[0], '宫斗杀', '关卡1 · 高明珠')
    await enterRoom(watcher, '宫斗杀', roomId, '观战')
    await Promise.all(team.slice(1).map((p) => enterRoom(p, '宫斗杀', roomId, '入席')))
    await current(watcher).locator('.sg-watch', { hasText: '观战中' }).waitFor({ timeout: 20000 })
    log(`wipe room ${roomId} started`)

    // they spend their own 气血 on 诬告 (and 好感 on 下毒) as long as 高明珠 cannot fall from it —
    // each lady leaves room for the ones before her — then stand and let her strike
    const decide = async (page, round, i) => {
      const v = current(page)
      const [grace, hp, open] = await Promise.all([bossBar(v, 'grace'), bossBar(v, 'hp'), openActions(v)])
      // a voided round (高明珠's 直取 last round) leaves her only 待机: it is chosen for her already
      if (await v.locator('.sg-voided').count()) {
        assert.deepEqual([...open], ['idle'])
        await v.locator('.sg-dock-title', { hasText: '拟落子' }).waitFor({ timeout: 5000 })
      }
      const room = (bar, blow) => bar - blow * (i + 1) > 0.5
      const action = room(grace, 2) && open.has('frame') ? 'frame'
        : room(hp, 2) && open.has('poison') ? 'poison'
          : open.has('stay') ? 'stay' : 'idle'
      await v.locator(`.sg-act[data-action="${action}"]`).click()
    }
    let watched = 0
    const rounds = await playOut(team, decide, {
      afterRound: async (round, moves) => {
        // the watcher's screen after the round: no seat's move, target or card
        await current(watcher).locator('.sg-round-no').filter({ hasText: new RegExp(`第 ${round + 1} 回合|终局`) }).waitFor({ timeout: 30000 })
        const seen = await watcherText(watcher)
        assertNothingHidden(seen.text, seen.privateLines, WEAK, moves, round)
        watched++
        if (round === 3) await shotAt(watcher, null, 'shengong-watch.png')
        if (round === 1) {
          // the round just settled is recapped on her 宫图 in what concerns her, her own move first
          const recap = current(team[0]).locator('.sg-recap')
          await recap.waitFor({ timeout: 15000 })
          assert.match(await recap.locator('.sg-recap-label').innerText(), /回合结算$/)
          assert.equal(await recap.locator('.sg-line').first().getAttribute('data-scope'), 'own')
          await shotAt(team[0], null, 'shengong-recap.png')
        }
      },
    })
    log(`wiped out after ${rounds} rounds (watched ${watched})`)
    const result = current(team[0])
    await result.locator('.sg-verdict-seal', { hasText: '全军覆没' }).waitFor()
    assert.equal(await result.locator('.sg-unlock').count(), 0)
    // how far they got: the boss still standing, with what she has left (as the server's view has it)
    const boss = (await api.call('GET', `/v1/games/shengong/rooms/${roomId}`, await api.login(WEAK[0]))).body.game.opponents[0]
    // figures as players write them: 83, not 83.00
    const num = (x) => String(Number(x.toFixed(2)))
    assert.equal(await result.locator('.sg-verdict-left').innerText(), `${boss.name} 尚余气血 ${num(boss.hp)}/${num(boss.hp_max)}`)
    // nothing left to play: no 手牌 tab, and the strip says how long it went
    assert.equal(await result.locator('.sg-tab[data-tab="hand"]').count(), 0)
    assert.match(await result.locator('.sg-strip').innerText(), /终局\s*打了 \d+ 回合/)
    const w = current(watcher)
    await tab(watcher, 'result')
    await w.locator('.sg-verdict-seal', { hasText: '全军覆没' }).waitFor()
    assert.equal(await w.locator('.sg-score-mine').count(), 0)
    await shotAt(team[0], null, 'shengong-wipe.png')
  })

  it('卡牌局: the creator fills the empty seats with bots, marked 机器人, and they play', async () => {
    const hua = await phone('华妃')
    await openRoom(hua, '深宫杀 · 卡牌局')
    const room = current(hua)
    await room.getByText('进阶', { exact: true }).click()
    await room.getByText('补满空位', { exact: true }).click()
    await room.locator('.seat-taken').nth(7).waitFor()
    assert.equal(await room.locator('.badge', { hasText: '机器人' }).count(), 7)
    await room.locator('.status-practice', { hasText: '练习局' }).waitFor()  // the header says it counts on no board
    await shotAt(hua, room.locator('.masthead'), 'shengong-bots.png')
    await room.getByText('开战', { exact: true }).click()
    await room.locator('.sg-seal-btn').waitFor({ timeout: 20000 })
    assert.equal(await room.locator('.sg-rival .sg-bot-mark').count(), 7, 'bot seats marked in the game too')
    await room.locator('.sg-act[data-action="idle"]').click()
    await sealMove(hua, 1)
    await room.locator('.sg-round-no', { hasText: '第 2 回合' }).waitFor({ timeout: 15000 })
    log('bots room played its first round')
  })

})

describe('深宫杀 H5: 卡牌局', () => {
  it('卡牌局: eight players play a whole game by clicking; the creator 催战; a spectator sees no hidden move', async () => {
    const eight = await Promise.all(EIGHT.map(phone))
    const watcher = await phone(WATCHER)
    await Promise.all([...eight, watcher].map(toLobby))
    const [zhen] = eight
    const roomId = await openRoom(zhen, '深宫杀 · 卡牌局')
    await enterRoom(watcher, '深宫杀 · 卡牌局', roomId, '观战')
    await Promise.all(eight.slice(1).map((p) => enterRoom(p, '深宫杀 · 卡牌局', roomId, '入席')))
    await current(zhen).locator('.seat-taken').nth(7).waitFor({ timeout: 30000 })
    await current(zhen).getByText('开战', { exact: true }).click()
    log(`card room ${roomId} started`)

    // frame the place where most other living ladies stand; 甄嬛 and 沈眉庄 add a defence card
    const decide = async (page, round, i) => {
      if (round === 1 && i === 7) return 'skip' // 叶澜依 dawdles: the creator will 催战
      const v = current(page)
      if (round === 1 && i === 0) {
        // 圣意 「容、宠」 says what it means when tapped
        await v.locator('.sg-decree').click()
        assert.match(await v.locator('.sg-decree-text').innerText(), /^圣意：本回合皇上看重\S+、\S+。在乾清宫送膳的人中/)
        await v.locator('.sg-decree').click()
        assert.equal(await v.locator('.sg-decree-text').count(), 0)
        // who would top it: every lady's 容才宠权 on her row, the round's two picked out
        const rows = v.locator('.sg-court .sg-rival')
        assert.equal(await rows.count(), 8)
        const marked = await rows.first().locator('.sg-attr-decree').allInnerTexts()
        const decree = (await v.locator('.sg-decree-val').innerText()).split('、')
        assert.deepEqual(marked.map((t) => t[0]).sort(), decree.sort())
        await shotAt(page, v.locator('.sg-court'), 'shengong-court.png')
      }
      if (round === 1 && i === 0 && (await openActions(v)).has('meal')) {
        // 送膳 away from 乾清宫 is open, and says what it costs before she seals it (seed: 不在而送＝失仪)
        const away = !(await v.locator('.sg-me-place').innerText()).includes('乾清宫')
        await v.locator('.sg-act[data-action="meal"]').click()
        assert.equal(await v.locator('.sg-warn').count(), away ? 1 : 0)
        if (away) assert.equal(await v.locator('.sg-warn').innerText(), '不在乾清宫，送膳即失仪：好感 −1')
      }
      if (round === 1 && i === 0) {
        // a chosen action says what it does, in the 玩法 page's words
        await v.locator('.sg-act[data-action="stay"]').click()
        assert.equal(await v.locator('.sg-effect').innerText(), '继续驻留：原地不动，无加成。')
        await v.locator('.sg-act[data-action="idle"]').click()
        assert.match(await v.locator('.sg-effect').innerText(), /^待机：自身气血、好感各 ＋0\.5/)
      }
      if (!(await openActions(v)).has('frame')) {
        await v.locator('.sg-act[data-action="idle"]').click()
        return undefined
      }
      if (i < 2) {
        await tab(page, 'hand')
        const guard = v.locator('.sg-card-defence .sg-card-btn', { hasText: '出' })
        if (await guard.count()) await guard.first().click()
        await tab(page, 'map')
      }
      await v.locator('.sg-act[data-action="frame"]').click()
      const place = await v.evaluate((root) => {
        let best = null
        let most = 0
        for (const tile of root.querySelectorAll('.sg-tile[data-state="open"]')) {
          const n = tile.querySelectorAll('.sg-token:not(.sg-token-me):not(.sg-token-down)').length
          if (n > most) {
            most = n
            best = tile.getAttribute('data-place')
          }
        }
        return best
      })
      if (!place) {
        await v.locator('.sg-act[data-action="idle"]').click()
        return undefined
      }
      await v.locator(`.sg-tile[data-place="${place}"]`).click()
      if (round === 2 && i === 0) await shotAt(page, v.locator('.sg-seals'), 'shengong-map.png')
      return undefined
    }
    let hurried = false
    const rounds = await playOut(eight, decide, {
      label: 'cards',
      afterRound: async (round, moves) => {
        if (round === 1 && !hurried) {
          hurried = true
          const v = current(zhen)
          await v.locator('.sg-sealed-count', { hasText: '7/8' }).waitFor()
          // 沈眉庄 sealed early: the others' seals are announced to nobody, so her marks are as of her
          // own move until she taps them for the latest
          const early = current(eight[1])
          await early.locator('.sg-sealed').click()
          await early.locator('.sg-sealed-count', { hasText: '7/8' }).waitFor({ timeout: 10000 })
          await v.locator('.sg-hurry').click()
          // it is confirmed first, naming who has not sealed (叶澜依)
          const sheet = v.getByRole('dialog', { name: '催战' })
          await sheet.getByText('叶澜依').waitFor()
          await sheet.locator('.sg-hurry-confirm').click()
        }
        await current(watcher).locator('.sg-round-no').filter({ hasText: new RegExp(`第 ${round + 1} 回合|终局`) }).waitFor({ timeout: 30000 })
        const seen = await watcherText(watcher)
        assertNothingHidden(seen.text, seen.privateLines, EIGHT, moves, round)
      },
    })
    log(`card game over after ${rounds} rounds`)
    const result = current(zhen)
    await result.locator('.sg-verdict').waitFor()
    const rows = await result.locator('.sg-score:not(.sg-score-head)').count()
    assert.equal(rows, 8)
    const places = await result.locator('.sg-score:not(.sg-score-head) .sg-score-rank').allTextContents()
    assert.equal(places[0], '1')
    // 名次 is who lasted; the score is counted apart, and each is written out below the table
    await result.locator('.sg-score-how', { hasText: '名次按坚持到最后的先后排定' }).waitFor()
    // (a seat that never moved herself, 催战 before her first move and out in that round, adds the 未出手 note)
    const notes = await result.locator('.sg-score-note:not(.sg-score-how):not(.sg-score-unplayed)').allTextContents()
    assert.equal(notes.length, 8)
    assert.match(notes[0], /^第 1 名 \S+ 积分 \S+（击败 \d+×3 ＋ 气血伤害 \d+(\.\d\d?)?×0\.5 ＋ 好感伤害 \d+(\.\d\d?)?×0\.4 − 承伤 \d+(\.\d\d?)?×0\.1 ＋ 名次分 10）$/)
    await tab(watcher, 'result')
    await current(watcher).locator('.sg-verdict').waitFor()
    await shotAt(zhen, null, 'shengong-c-result.png')
    await tab(zhen, 'report')
    assert.ok(await current(zhen).locator('.sg-report').count() >= rounds)
  })
})
