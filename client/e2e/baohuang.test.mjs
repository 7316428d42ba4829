// 保皇 in the browser: five phone contexts at one table, clicking what players click (开战, 让位/登基,
// the sealed declaration, 提示/出牌/不出, an illegal selection explained before sending, 取消托管 after a
// timer expiry, 托管, 退出 with its −30 warning, the score table, the replay, bots). The long stretch of a
// deal is finished the way the rules allow: each phone clicks 托管, and with all five in 托管 the engine
// plays the deal out (and the table ends).
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { apiClient, startServer } from './server.mjs'
import { current, launch, loggedInPhone, shot, until } from './browser.mjs'

const SHOTS = fileURLToPath(new URL('./shots/', import.meta.url))
mkdirSync(SHOTS, { recursive: true })
const NAMES = ['甄嬛', '华妃', '皇后', '沈眉庄', '安陵容']

let server
let browser
let api
/** @type {{ name: string, token: string, page: import('playwright-core').Page }[]} */
const ps = []

before(async () => {
  // E2E_BASE: a server already running (developing against a watch build); otherwise start our own
  server = process.env.E2E_BASE ? { base: process.env.E2E_BASE, stop: async () => {} } : await startServer()
  api = apiClient(server.base)
  browser = await launch()
  for (const name of NAMES) ps.push(await loggedInPhone(browser, server.base, api, name))
})

after(async () => {
  if (process.env.E2E_DUMP) {
    for (const p of ps) console.log(`---- ${p.name}\n${await screen(p).innerText().catch(() => '')}`)
  }
  await browser?.close()
  await server?.stop()
})

const gamePath = (rid) => `/v1/games/baohuang/rooms/${rid}`
async function view(rid, p = ps[0]) {
  const res = await api.call('GET', gamePath(rid), p.token)
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}
async function act(rid, p, action) {
  const v = await view(rid, p)
  return api.call('POST', `${gamePath(rid)}/actions`, p.token, { step: v.room.step, action })
}
function screen(p) {
  return current(p.page)
}
function button(p, name) {
  return screen(p).getByRole('button', { name, exact: typeof name === 'string' })
}

async function openTable(options) {
  const created = await api.call('POST', '/v1/rooms', ps[0].token, { game: 'baohuang', options })
  assert.equal(created.status, 200)
  const rid = created.body.room.id
  for (const p of ps.slice(1)) assert.equal((await api.call('POST', `/v1/rooms/${rid}/join`, p.token, {})).status, 200)
  await Promise.all(ps.map((p) => p.page.goto(`/pages/room-baohuang/index?id=${rid}`)))
  await screen(ps[0]).locator('.seat-taken').nth(4).waitFor()
  await button(ps[0], '开战').click()
  await Promise.all(ps.map((p) => screen(p).locator('.bh-table').waitFor({ timeout: 15000 })))
  return rid
}

/** The throne by clicking: the holder yields once (让位) when she may, the next takes it (classic: with a call). */
async function throneByClicking(rid, { yieldFirst }) {
  let yielded = false
  for (let i = 0; i < 12; i++) {
    const v = await view(rid)
    if (v.game.phase !== 'throne') return
    const cand = v.game.candidate
    const p = ps[cand]
    const mine = (await view(rid, p)).game
    // the button names her 上家, the seat the pass offers the throne to
    const yieldLabel = mine.must_take ? '让位' : `让位给${mine.seats[mine.yield_to].name}`
    await button(p, yieldLabel).waitFor()
    // the offer comes up with her hand in sight below it (it sat below the fold of a phone)
    await until('her hand in sight with the throne offer', async () => {
      const [panel, card] = await Promise.all([screen(p).locator('.bh-decide').boundingBox(), screen(p).locator('.hand .card').last().boundingBox()])
      const height = p.page.viewportSize().height
      return panel && card && panel.y >= -1 && card.y + card.height <= height ? true : null
    }, 5000)
    let passedTo = null
    if (yieldFirst && !yielded && !mine.must_take) {
      await button(p, yieldLabel).click()
      yielded = true
      passedTo = mine.yield_to
    } else if (mine.variant === 'classic') {
      if (!mine.callable.length) {
        // nothing to call: the grey 登基 says why, and what she may do instead
        await button(p, '登基（无牌可叫）').waitFor()
        await screen(p).locator('.bh-nocall', { hasText: '无牌可叫' }).waitFor()
        await button(p, yieldLabel).click()
        passedTo = mine.yield_to
      } else {
        // beside 「明独保」 she reads what it stakes
        if (mine.can_open_solo) await screen(p).locator('.bh-stakes', { hasText: '明独保：一人对四家，头名 +24（四家各 −6）' }).waitFor()
        await shot(p.page, `${SHOTS}baohuang-throne.png`)
        await screen(p).locator(`.chip[data-face="${mine.callable[0]}"]`).click()
        await button(p, new RegExp(`^登基 · 叫`)).click()
      }
    } else {
      await button(p, '登基').click()
    }
    const moved = await until('the throne to move on', async () => {
      const w = await view(rid)
      return w.game.phase !== 'throne' || w.game.candidate !== cand ? w : null
    })
    if (passedTo !== null && moved.game.phase === 'throne') assert.equal(moved.game.candidate, passedTo)
  }
}

/** The sealed declaration: every non-emperor clicks at once; `loud` clicks 明保/造反, the others 不声明. */
async function declareByClicking(rid, loud) {
  const v = await view(rid)
  if (v.game.phase !== 'declare') return null
  let label = null
  // every phone shows the choice first, then all four click (the declaration has one timer for all)
  await Promise.all(v.pending.seats.map((s) => button(ps[s], '不声明').waitFor()))
  await Promise.all(v.pending.seats.map(async (s) => {
    const p = ps[s]
    if (s === loud) {
      const b = screen(p).locator('.bh-panel .seal', { hasText: /^(明保|造反)$/ })
      label = (await b.textContent()).trim()
      await b.click()
    } else {
      await button(p, '不声明').click()
    }
  }))
  const w = await until('the declaration to settle', async () => {
    const x = await view(rid)
    return x.game.phase === 'play' ? x : null
  })
  if (label === '造反') assert.deepEqual(w.game.rebels, [loud], 'her 造反 was in before the declaration\'s timer ran out')
  return label
}

/**
 * One turn by clicking on the page of the seat to play: 提示 then 出牌, or 不出. Returns false when the
 * turn moved on without her (a slow phone whose timer ran out: 托管 played for her).
 */
async function clickTurn(rid, { pass, beforePlay } = {}) {
  const v = await view(rid)
  assert.equal(v.game.phase, 'play')
  const seat = v.game.turn
  const p = ps[seat]
  const mine = (await view(rid, p)).game
  const moved = () => until('the turn to pass', async () => {
    const w = await view(rid)
    return w.game.phase !== 'play' || w.room.step !== v.room.step ? w : null
  }, 40000)
  const shown = await Promise.race([button(p, '出牌').waitFor({ timeout: 40000 }).then(() => true), moved().then(() => false)])
  if (!shown) return false
  if ((pass && mine.can_pass) || !mine.hints.length) {
    await button(p, '不出').click()
  } else {
    await button(p, '提示').click()
    await screen(p).locator('.hand .card-on').first().waitFor()
    const raised = await screen(p).locator('.hand .card-on').evaluateAll((els) => els.map((e) => e.dataset.code))
    assert.deepEqual([...raised].sort(), [...mine.hints[0]].sort(), '提示 raises the server\'s cheapest hint')
    // under the buttons: how many plays she has, and (the list capped at 50) which of the listed ones is up
    const line = await screen(p).locator('.bh-hint-line').innerText()
    const capped = mine.hints.length < mine.hints_total
    assert.equal(line, `可出 ${mine.hints_total} 种，提示第 1${capped ? `/${mine.hints.length}` : ''} 种${capped ? '（由小到大）' : ''}`)
    if (beforePlay) await beforePlay(p)
    await button(p, '出牌').click()
  }
  await moved()
  return true
}

/** Each phone clicks 托管; with all five in 托管 the engine plays the deal out and the table ends. The
 * last person playing is asked first (her 托管 ends the table) and confirms. */
async function everyoneTuoguan(rid) {
  for (const [i, p] of ps.entries()) {
    const g = (await view(rid, p)).game
    if (g.phase === 'over') break
    if (g.seats[i].auto) continue
    await button(p, '托管').click()
    const ask = p.page.getByRole('dialog', { name: '托管' })
    await until(`${p.name} in 托管`, async () => {
      // her phone asks when it knows she is the last one playing (it may learn it a moment after the API)
      if (await ask.isVisible().catch(() => false)) await ask.getByRole('button', { name: '仍要托管' }).click()
      const w = (await view(rid, p)).game
      return w.phase === 'over' || w.seats[i].auto ? true : null
    })
  }
  await until('the deal to be played out', async () => ((await view(rid)).game.phase === 'over' ? true : null))
}

/** Every page's score table says what GET …/result says about the last finished deal. */
async function scoreTablesMatch(rid, pages = ps) {
  const result = (await api.call('GET', `${gamePath(rid)}/result`, ps[0].token)).body
  const last = result.results[result.results.length - 1]
  const deal = last.unit.replace('deal-', '')
  // all pages at once: between deals the next deal is dealt when the 继续 timer runs out
  await Promise.all(pages.map(async (p) => {
    const table = screen(p).locator(`.bh-scores[data-deal="${deal}"]`)
    await table.waitFor({ timeout: 30000 })
    const rows = await table.locator('.bh-score-row[data-seat]').evaluateAll((els) => els.map((e) => ({
      seat: Number(e.dataset.seat),
      text: e.textContent,
      score: Number(e.querySelector('.bh-sc-score').dataset.score),
      total: Number(e.querySelector('.bh-sc-total').dataset.total),
    })))
    assert.equal(rows.length, 5)
    // under the verdict, how the places made the score, in the server's words (none for a deal without a result)
    const basis = table.locator('.bh-basis')
    if (last.extra.basis) assert.equal(await basis.innerText(), last.extra.basis)
    else assert.equal(await basis.count(), 0)
    for (const r of last.results) {
      const row = rows.find((x) => x.seat === r.seat)
      assert.equal(row.score, r.score, `${p.name} sees seat ${r.seat}'s score`)
      assert.equal(row.total, last.extra.totals[r.seat], `${p.name} sees seat ${r.seat}'s total`)
      assert.ok(row.text.includes(r.name))
    }
  }))
  return last
}

describe('保皇 H5', () => {
  it('simple mode: five phones play a whole deal — 让位/登基, the sealed declaration, an illegal selection explained, 提示/出牌/不出, a timer expiry into 托管 and back, 托管 to the end — and every score table matches the result', async () => {
    const rid = await openTable({ variant: 'simple', turn_seconds: 20 })
    await throneByClicking(rid, { yieldFirst: true })
    const v0 = await view(rid)
    const emperor = v0.game.emperor
    assert.equal(v0.game.log.filter((e) => e.act === 'yield').length, 1, 'the holder yielded once by clicking')
    // the sealed declaration: the seat after the emperor speaks up (明保 if she is the guard, else 造反)
    const loud = (emperor + 1) % 5
    const label = await declareByClicking(rid, loud)
    const badge = label === '造反' ? '锄' : '侍卫·明保'
    await Promise.all(ps.filter((_, i) => i !== loud).map((p) =>
      screen(p).locator(`.bh-seat[data-seat="${loud}"] .bh-badge`, { hasText: badge }).waitFor()))
    await screen(ps[loud]).locator('.bh-seat-me .bh-badge', { hasText: badge }).waitFor()
    await screen(ps[loud]).locator(`.bh-seat[data-seat="${emperor}"] .bh-badge`, { hasText: '皇帝' }).waitFor()

    // the emperor leads: first an illegal selection, explained in the server's own words before sending
    const lead = ps[emperor]
    const hand = (await view(rid, lead)).game.hand
    const rank = (c) => c.split('#')[0].slice(1)
    const a = hand.find((c) => !c.startsWith('BJ') && !c.startsWith('LJ'))
    const b = hand.find((c) => !c.startsWith('BJ') && !c.startsWith('LJ') && rank(c) !== rank(a))
    await button(lead, '出牌').waitFor()
    // a fanned card is tapped on its visible edge, as a finger does
    const tap = (code) => screen(lead).locator(`.hand .card[data-code="${code}"]`).click({ position: { x: 6, y: 30 } })
    await tap(a)
    await tap(b)
    const said = (await api.call('POST', `${gamePath(rid)}/check`, lead.token, { action: { type: 'play', cards: [a, b] } })).body
    assert.equal(said.legal, false)
    await screen(lead).locator('.bh-illegal', { hasText: said.message }).waitFor()
    assert.equal(await button(lead, '出牌').getAttribute('aria-disabled'), 'true', 'an illegal selection cannot be sent')
    await tap(a)
    await tap(b)
    await screen(lead).locator('.bh-illegal').waitFor({ state: 'detached' })

    // a finger swept sideways across the first three cards raises the three; swept back, it lowers them
    const row = screen(lead).locator('.hand .hand-row').first().locator('.card')
    const three = await row.evaluateAll((els) => els.slice(0, 3).map((e) => e.dataset.code))
    const edges = await Promise.all([0, 1, 2].map((i) => row.nth(i).boundingBox()))
    const touch = await lead.page.context().newCDPSession(lead.page)
    const sweep = async (xs) => {
      const y = edges[0].y + 30
      await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: xs[0], y }] })
      for (const x of xs.slice(1)) {
        await lead.page.waitForTimeout(40)
        await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x, y }] })
      }
      await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    }
    const across = [edges[0].x + 4, edges[0].x + 10, edges[1].x + 6, edges[1].x + 12, edges[2].x + 6, edges[2].x + 12]
    await sweep(across)
    const raised = () => screen(lead).locator('.hand .card-on').evaluateAll((els) => els.map((e) => e.dataset.code))
    await until('three cards raised by the sweep', async () => (await raised()).length === 3 || null, 5000)
    assert.deepEqual(await raised(), three)
    await sweep([...across].reverse())
    await until('the sweep back to lower them', async () => (await raised()).length === 0 || null, 5000)
    await touch.detach()

    await clickTurn(rid, { beforePlay: async (p) => shot(p.page, `${SHOTS}baohuang-table.png`) })
    await clickTurn(rid, { pass: true })
    for (let i = 0; i < 3; i++) await clickTurn(rid)

    // the trick at a glance, as the server counts it: each seat's play in it (or 不出) by her seat, and
    // the trick last won on the felt — what a player who looks again after bots played in a moment reads
    const now = await view(rid)
    const looker = ps[now.game.turn]
    await screen(looker).locator('.bh-waiting', { hasText: '轮到你出牌' }).waitFor()  // her screen is as of now
    const seen = (await view(rid, looker)).game
    let shown = 0
    for (const s of seen.seats.filter((x) => x.seat !== seen.seat)) {
      const box = screen(looker).locator(`.bh-seat[data-seat="${s.seat}"]`)
      if (s.played?.length) {
        await box.locator('.bh-play-bubble').waitFor()
        // one card is said with its suit (a bare 「6」 in a red bubble read as a count)
        if (s.played.length === 1) {
          const c = s.played[0].split('#')[0]
          const label = c === 'BJ' ? '大王' : c === 'LJ' ? '小王' : `${{ S: '♠', H: '♥', C: '♣', D: '♦' }[c[0]]}${c.slice(1)}`
          assert.equal(await box.locator('.bh-play-bubble').innerText(), label)
        }
        shown++
      } else {
        assert.equal(await box.locator('.bh-play-bubble').count(), 0)
      }
      assert.equal(await box.locator('.bh-pass-bubble', { hasText: '不出' }).count(), s.passed ? 1 : 0)
    }
    if (seen.last_trick) {
      assert.match(await screen(looker).locator('.bh-last-trick').innerText(), /^上一墩 \S+收 · /)
      // it stays in the clear middle of the felt, not under the side seats
      const [line, left, right] = await Promise.all(['.bh-last-trick', '.bh-seat-left', '.bh-seat-right']
        .map((sel) => screen(looker).locator(sel).boundingBox()))
      assert.ok(line.x >= left.x + left.width - 1 && line.x + line.width <= right.x + 1, JSON.stringify({ line, left, right }))
      shown++
    }
    assert.ok(shown > 0, 'after five turns something of the trick is on the table')
    if (seen.trick) {
      // whose cards stand in the trick, said so (「领先」 read like the score)
      const holder = seen.trick.seat === seen.seat ? '你' : seen.seats[seen.trick.seat].name
      assert.equal(await screen(looker).locator('.bh-trick-who').innerText(), `${holder}的牌最大`)
    }
    await shot(looker.page, `${SHOTS}baohuang-trick.png`)

    // a timer expiry: the seat to play does nothing; the scheduler puts her in 托管, and everyone sees it
    const late = (await view(rid)).game.turn
    const lateP = ps[late]
    await screen(ps[(late + 1) % 5]).locator(`.bh-seat[data-seat="${late}"] .bh-timer`).waitFor()
    await button(lateP, '取消托管').waitFor({ timeout: 40000 })
    await Promise.all(ps.filter((_, i) => i !== late).map((p) =>
      screen(p).locator(`.bh-seat[data-seat="${late}"] .bh-badge`, { hasText: '托管' }).waitFor()))
    // and back from it
    await button(lateP, '取消托管').click()
    await until('her 托管 to end', async () => ((await view(rid)).game.seats[late].auto ? null : true))
    await screen(lateP).locator('.bh-auto').waitFor({ state: 'detached' })
    await screen(ps[(late + 2) % 5]).locator(`.bh-seat[data-seat="${late}"] .bh-badge`, { hasText: '托管' }).waitFor({ state: 'detached' })

    await everyoneTuoguan(rid)
    const last = await scoreTablesMatch(rid)
    assert.equal(last.unit, 'deal-1')
    assert.equal(last.extra.variant, 'simple')
    assert.equal(last.results.reduce((n, r) => n + r.score, 0), 0, 'a deal\'s scores sum to 0')
    await screen(ps[0]).locator('.bh-over', { hasText: '托管' }).waitFor()
    // the score sheet is brought up to her, not left below the table
    const sheet = screen(ps[0]).locator('.bh-scores')
    await until('the score sheet in sight', async () => {
      const [top, inner] = await sheet.evaluate((el) => [el.getBoundingClientRect().top, window.innerHeight])
      return top >= -1 && top < inner / 2
    }, 5000)
  })

  it('classic mode: a call on the throne, the declaration and plays by clicking, 托管 to the end; the score table matches and the replay steps through the deal', async () => {
    const rid = await openTable({ variant: 'classic', turn_seconds: 30 })
    await throneByClicking(rid, { yieldFirst: false })
    const v0 = await view(rid)
    assert.ok(v0.game.called || v0.game.solo === 'open', 'the emperor called a face (or went 明独保)')
    if (v0.game.called) await screen(ps[(v0.game.emperor + 2) % 5]).locator('.bh-tag', { hasText: '叫' }).waitFor()
    await declareByClicking(rid, -1)
    for (let i = 0; i < 4; i++) await clickTurn(rid, { pass: i === 2 })
    await everyoneTuoguan(rid)
    const last = await scoreTablesMatch(rid)
    assert.equal(last.extra.variant, 'classic')
    // the called face in the sheet's header wears its suit's colour, as on the cards (♥ ♦ red, ♠ ♣ not)
    if (last.extra.called) {
      const face = `${{ S: '♠', H: '♥', C: '♣', D: '♦' }[last.extra.called[0]]}${last.extra.called.slice(1)}`
      const notes = screen(ps[0]).locator('.bh-scores-notes')
      assert.ok((await notes.innerText()).includes(`叫 ${face}`))
      const reds = await notes.locator('.card-red').evaluateAll((els) => els.map((e) => [e.textContent, getComputedStyle(e).color]))
      if ('HD'.includes(last.extra.called[0])) assert.deepEqual(reds, [[face, 'rgb(179, 38, 30)']])
      else assert.deepEqual(reds, [])
    }
    await screen(ps[0]).locator('.bh-scores').evaluate((el) => el.scrollIntoView({ block: 'center' }))
    await shot(ps[0].page, `${SHOTS}baohuang-scores.png`)

    // 复盘: step through the deal from the result's replay
    const record = last.extra.replay
    const n = record.log.length
    const viewer = ps[1]
    await button(viewer, '复盘').click()
    const replay = viewer.page.getByRole('dialog')
    await replay.locator('.bh-replay-count').filter({ hasText: new RegExp(`^0/${n}$`) }).waitFor()
    await replay.getByRole('button', { name: '下一步' }).click()
    await replay.locator('.bh-replay-count').filter({ hasText: new RegExp(`^1/${n}$`) }).waitFor()
    assert.ok((await replay.locator('.bh-replay-line').textContent()).includes(last.results.find((r) => r.seat === record.log[0].seat).name))
    await replay.getByRole('button', { name: '跳到出牌' }).click()
    const firstPlay = record.log.findIndex((e) => e.act === 'play') + 1
    await replay.locator('.bh-replay-count').filter({ hasText: new RegExp(`^${firstPlay}/${n}$`) }).waitFor()
    const leader = record.log[firstPlay - 1].seat
    const left = await replay.locator(`.bh-replay-hand[data-seat="${leader}"] .bh-replay-cards`).textContent()
    assert.match(left, new RegExp(`^${record.dealt[leader].length - record.log[firstPlay - 1].cards.length} 张`))
    await shot(viewer.page, `${SHOTS}baohuang-replay.png`)
    // a finger drags the scrubber's knob to the middle of its track: the replay jumps to the middle of the deal
    const knob = await replay.locator('.weui-slider__handler').boundingBox()
    const track = await replay.locator('.weui-slider__inner').boundingBox()
    const touch = await viewer.page.context().newCDPSession(viewer.page)
    const y = knob.y + knob.height / 2
    const mid = track.x + track.width / 2
    await touch.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x: knob.x + knob.width / 2, y }] })
    for (const f of [0.25, 0.5, 0.75, 1]) {
      await viewer.page.waitForTimeout(40)
      await touch.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: [{ x: knob.x + knob.width / 2 + (mid - knob.x - knob.width / 2) * f, y }] })
    }
    await touch.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] })
    await touch.detach()
    const at = await until('the replay to follow the scrubber', async () => {
      const k = Number((await replay.locator('.bh-replay-count').textContent()).split('/')[0])
      return Math.abs(k - n / 2) <= Math.max(3, n * 0.05) ? k : null
    }, 5000)
    assert.ok((await replay.locator('.bh-replay-line').textContent()).includes(last.results.find((r) => r.seat === record.log[at - 1].seat).name))
  })

  it('退出 mid-deal warns of the −30 first, then ends the deal with the penalty and the table', async () => {
    const rid = await openTable({ variant: 'simple', turn_seconds: 30 })
    const p = ps[2]
    await button(p, '退出').click()
    const dialog = p.page.getByRole('dialog')
    await dialog.getByText('−30').waitFor()
    await dialog.getByRole('button', { name: '确定退出' }).click()
    await until('the table to end', async () => ((await view(rid)).game.phase === 'over' ? true : null))
    const quit = await scoreTablesMatch(rid, [p, ps[3]])
    assert.equal(quit.reason, 'quit')
    assert.deepEqual(quit.results.map((r) => r.score), [0, 0, -30, 0, 0])
    await screen(p).locator('.bh-over', { hasText: '强退' }).waitFor()
    // the table has ended for all five: another player opens the next one in a tap, and it names who opened it
    await button(ps[3], '再开一桌').click()
    const invite = screen(ps[3]).locator('.room-invite')
    await invite.waitFor({ timeout: 15000 })
    assert.notEqual(await invite.getAttribute('data-room'), rid)
    await screen(p).getByText(`${ps[3].name} 已开了新房，点「再开一桌」前往`).waitFor({ timeout: 15000 })
  })

  it('the creator fills the empty seats with bots; bot seats carry the 机器人 mark at the table', async () => {
    const created = await api.call('POST', '/v1/rooms', ps[0].token, { game: 'baohuang', options: { variant: 'simple' } })
    const rid = created.body.room.id
    const p = ps[0]
    await p.page.goto(`/pages/room-baohuang/index?id=${rid}`)
    await button(p, '补满空位').click()
    await screen(p).locator('.seat-taken').nth(4).waitFor()
    assert.equal(await screen(p).locator('.seat .badge', { hasText: '机器人' }).count(), 4)
    assert.equal(await screen(p).locator('.status-practice').textContent(), '练习局')
    await button(p, '开战').click()
    await screen(p).locator('.bh-table').waitFor()
    assert.equal(await screen(p).locator('.bh-table .bh-badge', { hasText: '机器人' }).count(), 4)

    // her throne and declaration by the API; then she plays by clicking, and the bots' answers (made
    // within her request) come up on their seats one after another, in the order they were said
    const waitingOnHer = async () => {
      const v = await view(rid, p)
      if (v.game.phase === 'play' && v.game.turn === 0) return v
      if ((v.pending?.seats ?? []).includes(0)) {
        const action = v.game.phase === 'throne' ? { type: 'take_throne' } : { type: 'stay_hidden' }
        await act(rid, p, action)
      }
      return null
    }
    // (if all four pass, the trick is hers and empty again: she plays once more)
    let after
    let shown = []
    for (let attempt = 0; attempt < 8 && !shown.length; attempt++) {
      const before = await until('her turn to play', waitingOnHer, 30000)
      const said = before.game.log.length
      if (!(before.game.hints ?? []).length) {
        // nothing of hers beats the trick (it depends on the deal): she passes, and plays when she can
        assert.equal((await act(rid, p, { type: 'pass' })).status, 200)
        continue
      }
      await button(p, '提示').click()
      await button(p, '出牌').click()
      after = await until('the bots to answer', async () => {
        const v = await view(rid, p)
        return v.game.log.slice(said).some((e) => e.seat !== 0 && (e.act === 'play' || e.act === 'pass')) ? v : null
      })
      const order = []
      for (const e of after.game.log.slice(said)) {
        if (e.seat !== 0 && (e.act === 'play' || e.act === 'pass')) order.push(e.seat)
      }
      const last = new Map(order.map((seat, i) => [seat, i]))
      shown = [...last.entries()].filter(([seat]) => {
        const s = after.game.seats[seat]
        return s.passed || (s.played ?? []).length
      })
    }
    assert.ok(shown.length, 'a bot said something in this trick')
    // the page animates the words new since the view it showed before (on a loaded machine the bots may
    // answer over two requests, and then only the second batch comes up anew): at least one bubble does,
    // and those that do come up in the order the log has them
    const order = new Map(shown)
    await screen(p).locator('.bh-seat .bh-bubble-fresh').first().waitFor()
    const fresh = await screen(p).locator('.bh-seat').evaluateAll((els) => els
      .map((el) => [Number(el.getAttribute('data-seat')), el.querySelector('.bh-bubble-fresh')])
      .filter(([, b]) => b)
      .map(([seat, b]) => [seat, parseFloat(getComputedStyle(b).animationDelay)]))
    const delays = fresh.filter(([seat]) => order.has(seat)).map(([seat, delay]) => [order.get(seat), delay])
    assert.ok(delays.length, `a bot's word comes up anew: ${JSON.stringify(fresh)}`)
    delays.sort((x, y) => x[0] - y[0])
    for (let k = 1; k < delays.length; k++) assert.ok(delays[k][1] > delays[k - 1][1], `later words come up later: ${JSON.stringify(delays)}`)

    // among four bots she is the last person playing: 托管 asks first (it would end the table). (On a
    // loaded machine her turn's clock may have run out meanwhile and put her in 托管: back first.)
    if ((await view(rid, p)).game.seats[0].auto) assert.equal((await act(rid, p, { type: 'resume' })).status, 200)
    await button(p, '托管').click()
    const ask = p.page.getByRole('dialog', { name: '托管' })
    await ask.getByText('在座只剩你一人在打：托管后，这一局打完本桌即结束。').waitFor()
    await ask.getByRole('button', { name: '再想想' }).click()
    await ask.waitFor({ state: 'detached' })
    assert.equal((await view(rid, p)).game.seats[0].auto, false, 'nothing sent on 再想想')
  })
})
