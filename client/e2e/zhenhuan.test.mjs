// 血染甄嬛传 in the browser: the storyteller's phone and seven players' phones (and a traveller who asks
// to join) play a game to a win through the UI. After every step, no player's screen (its DOM text)
// holds another player's role, status or information, and at night every player's screen is the same.
import { after, before, describe, it } from 'node:test'
import assert from 'node:assert/strict'
import { mkdirSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { apiClient, startServer } from './server.mjs'
import { current, launch, loggedInPhone, settle, shot, until } from './browser.mjs'

const SHOTS = fileURLToPath(new URL('./shots/', import.meta.url))
mkdirSync(SHOTS, { recursive: true })

// seven players (names that are no role's name) and the roles the storyteller deals them
const NAMES = ['眉庄', '陵容', '采月', '流朱', '小允子', '芳若', '宝鹃']
const ROLES = ['huangshang', 'huafei', 'jinxi', 'wentaiyi', 'jingfei', 'guojunwang', 'huanbi']
const BLUFFS = ['yelanyi', 'taihou', 'sanage']
const STATUS_WORDS = ['中毒', '醉酒', '按住', '受保护', '一丈红', '诅咒', '禁言']
// words of the grimoire that no player's phone may show
const GRIMOIRE_WORDS = ['魔典', '伪装', '真实情况', '建议假答案', '提醒标记', '说书人按钮']

let server
let browser
let api
let st
/** @type {{ name: string, token: string, page: import('playwright-core').Page }[]} */
const players = []
let roomId
let roleNames = {}

const phone = (name) => loggedInPhone(browser, server.base, api, name)

before(async () => {
  server = process.env.E2E_BASE ? { base: process.env.E2E_BASE, stop: async () => {} } : await startServer()
  api = apiClient(server.base)
  browser = await launch()
  st = await phone('说书人')
  for (const name of NAMES) players.push(await phone(name))
  const cat = await api.call('GET', '/v1/games/zhenhuan/catalogue', st.token)
  roleNames = Object.fromEntries(cat.body.catalogue.roles.map((r) => [r.key, r.name]))
})

after(async () => {
  if (process.env.E2E_DUMP) {
    for (const p of [st, ...players]) console.log(`---- ${p?.name}\n${await screen(p).innerText().catch(() => '')}`)
  }
  await browser?.close()
  await server?.stop()
})

const gamePath = () => `/v1/games/zhenhuan/rooms/${roomId}`
async function view(p = st) {
  const res = await api.call('GET', gamePath(), p.token)
  assert.equal(res.status, 200, JSON.stringify(res.body))
  return res.body
}
async function hostAct(action) {
  const v = await view()
  const res = await api.call('POST', `${gamePath()}/actions`, st.token, { step: v.room.step, action })
  assert.equal(res.status, 200, JSON.stringify(res.body))
}
const screen = (p) => current(p.page)
async function scrollTo(p, selector) {
  await screen(p).locator(selector).first().evaluate((el) => el.scrollIntoView({ block: 'start' }))
  await p.page.waitForTimeout(100)
}

/**
 * What no player's phone may show: the other seats' roles (and the bluffs), any status, what the
 * storyteller told anyone else, the grimoire's own words — unless the player was told it herself (her
 * role card, ability text and messages).
 */
async function privacyCheck(step, phones = players) {
  const grim = (await view()).game.grimoire
  const own = await Promise.all(phones.map(async (p) => (await view(p)).game.me))
  const texts = await Promise.all(phones.map(async (p) => {
    const t = await screen(p).innerText()
    return t.replaceAll('血染甄嬛传', '')
  }))
  const told = own.map((me) => (me?.info ?? []).filter((l) => l.kind === 'info' || l.kind === 'tell').map((l) => l.text))
  phones.forEach((p, i) => {
    const me = own[i]
    if (!me) return
    const allowed = [me.role_name ?? '', me.ability ?? '', ...me.info.map((l) => l.text)].join('\n')
    const forbidden = [
      // (a traveller's identity is public: only the alignment the storyteller gave her is hers)
      ...grim.seats.filter((s) => s.seat !== me.seat && s.team !== 'traveller')
        .flatMap((s) => [s.role_name, s.original_role ? roleNames[s.original_role] : null]),
      ...grim.bluffs.map((r) => roleNames[r]),
      ...STATUS_WORDS,
      ...told.filter((_, j) => j !== i).flat(),
      ...GRIMOIRE_WORDS,
    ].filter((w) => w && !allowed.includes(w))
    const leaked = forbidden.filter((w) => texts[i].includes(w))
    assert.deepEqual(leaked, [], `${step}: ${p.name}'s phone (seat ${me.seat + 1}) shows ${leaked.join('、')}`)
  })
}

/** By day a phone lies among the others: until she taps 「看身份 · 我得知的」 it shows neither her role
 * nor anything she was told (a glance across the table learns nothing). */
async function glanceCheck(step, phones = players) {
  const own = await Promise.all(phones.map(async (p) => (await view(p)).game.me))
  await Promise.all(phones.map(async (p, i) => {
    const me = own[i]
    if (!me?.role) return
    const text = await screen(p).innerText()
    const secrets = [me.role_name, ...me.info.map((l) => l.text)].filter(Boolean)
    const shown = secrets.filter((w) => text.includes(w))
    assert.deepEqual(shown, [], `${step}: ${p.name}'s folded phone shows ${shown.join('、')}`)
    assert.equal(await screen(p).locator('.zh-day-peek').getByRole('button', { name: '看身份 · 我得知的' }).count(), 1)
  }))
}

/** She taps the slip: her role card and 「我得知的」 unfold together. */
async function unfold(p) {
  const slip = screen(p).locator('.zh-day-peek').getByRole('button', { name: '看身份 · 我得知的' })
  if (await slip.count()) await slip.click()
  await screen(p).locator('.zh-day-peek .zh-told').waitFor()
}

/** At night every player's phone shows the same thing, woken or not. */
async function nightScreensAlike(step) {
  const texts = await Promise.all(players.map((p) => screen(p).locator('.zh-night-screen').innerText()))
  assert.ok(texts.every((t) => t === texts[0]), `${step}: night screens differ`)
}

let jinxiPreview = ''
/** The storyteller resolves the current night step by clicking: targets, the answer, 确定. */
async function resolveStep(targets, { suggestion } = {}) {
  const before = (await view()).game.grimoire.night.current
  const box = screen(st).locator(`.zh-step-current[data-step="${before.key}"]`)
  await box.waitFor()
  if (before.disabled) {
    // greyed by the rules: nobody wakes, the box says why and offers only 下一步
    assert.ok((await box.innerText()).includes(before.disabled), `${before.key}: the reason it is greyed`)
    await box.getByRole('button', { name: '下一步', exact: true }).click()
    await until(`step ${before.key} to be passed`, async () => ((await view()).game.grimoire.night?.current?.key !== before.key ? true : null))
    return
  }
  for (const [i, seat] of targets.entries()) {
    if (seat === null) continue
    await box.locator('.zh-slot').nth(i).locator(`.chip[data-seat="${seat}"]`).click()
  }
  if (suggestion) await box.locator('.chip', { hasText: '采用建议' }).click()
  if (before.key === 'jinxi') jinxiPreview = await box.locator('.zh-preview').innerText()
  await box.getByRole('button', { name: '确定', exact: true }).click()
  await until(`step ${before.key} to be done`, async () => {
    const n = (await view()).game.grimoire.night
    return !n || n.current?.key !== before.key ? true : null
  })
  // and her screen has it: the step has left the top of the plan for its list
  await screen(st).locator(`.zh-plan-row[data-step="${before.key}"]`).waitFor()
  return before
}

describe('血染甄嬛传 H5', () => {
  it('a storyteller and seven players play a game to a win through the UI; no phone ever shows another player\'s secrets', async () => {
    const created = await api.call('POST', '/v1/rooms', st.token, { game: 'zhenhuan' })
    roomId = created.body.room.id
    for (const p of players) assert.equal((await api.call('POST', `/v1/rooms/${roomId}/join`, p.token, {})).status, 200)
    await Promise.all([st, ...players].map((p) => p.page.goto(`/pages/room-zhenhuan/index?id=${roomId}`)))
    await screen(st).locator('.seat-taken').nth(6).waitFor()
    await screen(st).getByRole('button', { name: '开始布置' }).click()
    await screen(st).locator('.zh-setup').waitFor()
    // nothing to take back yet: 撤销 is greyed with the server's reason, not offered to be refused
    const undoButton = screen(st).locator('.zh-bar').getByRole('button', { name: '撤销' })
    assert.equal(await undoButton.getAttribute('aria-disabled'), 'true')
    assert.equal(await screen(st).locator('.zh-undo-why').innerText(), '撤销：还没有可以撤销的操作')
    // the storyteller deals by hand (浣碧 beside 果郡王: drunk for good) and sets the bluffs
    for (const [seat, role] of ROLES.entries()) await hostAct({ type: 'assign', seat, role })
    await hostAct({ type: 'set_bluffs', roles: BLUFFS })
    await screen(st).locator('.zh-token-role', { hasText: '皇上' }).waitFor()
    await screen(st).getByRole('button', { name: '开始（入第一夜）' }).click()
    // her 记录 gives the 「你是」 every seat was shown as one 开局 line naming each seat's role, not one
    // line a seat (a private line she keeps still says whose it is: 「给N号…：」)
    const dealt = screen(st).locator('.zh-log-line', { hasText: '开局：' }).first()
    await dealt.waitFor({ timeout: 15000 })
    assert.match(await dealt.innerText(), /^开局：1号\S+；2号/)
    assert.equal(await screen(st).locator('.zh-log-line', { hasText: '你是「' }).count(), 0)
    await screen(st).locator('.zh-night').waitFor()
    await Promise.all(players.map((p) => screen(p).locator('.zh-night-screen').waitFor()))
    await privacyCheck('night 1')
    await nightScreensAlike('night 1')
    await shot(players[4].page, `${SHOTS}zhenhuan-player-night.png`)
    // the footer's 回大厅 / 玩法 in the night's palette: moonlit text, not dimmed vermilion on navy
    const footer = await screen(players[4]).locator('.room-actions > .seal-ghost').all()
    assert.equal(footer.length, 2)
    for (const b of footer) {
      const look = await b.evaluate((el) => { const s = getComputedStyle(el); return [s.color, s.opacity] })
      assert.deepEqual(look, ['rgb(232, 226, 244)', '1'])
    }
    // before she is woken she can look at her role, as at a table (every seat has the same button)
    const me2 = (await view(players[2])).game.me
    await screen(players[2]).getByRole('button', { name: '看身份' }).click()
    const peek = screen(players[2]).locator('.zh-peek')
    assert.ok((await peek.innerText()).includes(me2.role_name), 'her role on 看身份')
    await privacyCheck('night 1, looking at her role')
    await peek.click()
    await screen(players[2]).getByRole('button', { name: '看身份' }).waitFor()
    await nightScreensAlike('night 1, after looking')
    // 玩法 at night: the page the server writes (the table by player count), the same for everyone — it
    // names roles of the script, as 角色一览 does, so the privacy check reads the phone once it is closed
    await screen(players[2]).getByRole('button', { name: '玩法' }).click()
    const guide = players[2].page.getByRole('dialog', { name: '玩法 · 血染甄嬛传' })
    await guide.locator('.guide-line', { hasText: '7–9 人：村民 5' }).waitFor()
    await guide.locator('.guide-heading', { hasText: '说书人怎么用这个应用' }).waitFor()
    await guide.getByRole('button', { name: '关闭' }).click()
    await guide.waitFor({ state: 'detached' })
    await privacyCheck('night 1, after reading 玩法')

    // 天亮 with the night's steps not done asks first, naming them; 继续夜晚 keeps the night as it was
    await screen(st).locator('.zh-button-cell[data-button="dawn"]').getByRole('button').click()
    const dawnAsk = st.page.getByRole('dialog', { name: '天亮' })
    assert.match(await dawnAsk.locator('.confirm-text').innerText(), /^今夜还有 \d+ 步未进行：.*华妃.*天亮后这些步骤跳过/)
    await dawnAsk.getByRole('button', { name: '继续夜晚' }).click()
    await dawnAsk.waitFor({ state: 'detached' })
    assert.ok((await view()).game.grimoire.night.current, 'still night: nothing skipped')

    // night 1, step by step from the storyteller's phone
    const plan = {
      huafei: [3], guojunwang: [4], huangshang: [null, null], jinxi: [0, 1], wentaiyi: [6],
    }
    let undone = false
    for (let i = 0; i < 16; i++) {
      const night = (await view()).game.grimoire.night
      const cur = night?.current
      if (!cur) break
      if (cur.key === 'huanbi') {
        // 浣碧 is drunk: the step is flagged and offers a false answer; the storyteller takes it
        await screen(st).locator('.zh-step-current .zh-impaired').waitFor()
        await screen(st).locator('.zh-step-current .zh-suggestion').waitFor()
        await scrollTo(st, '.zh-night')
        await shot(st.page, `${SHOTS}zhenhuan-night-plan.png`)
        await resolveStep([], { suggestion: true })
        const rec = (await view()).game.grimoire.night.records.find((r) => r.step === 'huanbi')
        assert.equal(rec.impaired, true)
        assert.notDeepEqual(rec.given, rec.truth, 'she was given the suggested false answer')
      } else {
        await resolveStep(plan[cur.key] ?? (cur.slots ?? []).map((s) => (s.optional ? null : s.allowed[0])))
      }
      if (cur.key === 'jinxi') {
        // before 确定 she read what to gesture: the same words 瑾汐 finds at dawn
        const jinxi = (await view(players[2])).game.me.info.filter((l) => l.kind === 'info').at(-1)
        assert.ok(jinxiPreview && jinxiPreview.includes(jinxi.text), `preview ${jinxiPreview} vs told ${jinxi.text}`)
        await scrollTo(st, '.zh-grim')
        await shot(st.page, `${SHOTS}zhenhuan-grimoire-night.png`)
      }
      if (cur.key === 'wentaiyi' && !undone) {
        // 撤销: the last press is taken back; the step is current again and is done once more
        undone = true
        await screen(st).locator('.zh-bar').getByRole('button', { name: '撤销' }).click()
        // it asks first, naming the newest line of the record: what she is about to take back
        const asked = st.page.getByRole('dialog', { name: '撤销上一步' })
        const latest = await asked.locator('.zh-undo-latest').innerText()
        const lastLine = (await view()).game.log.at(-1).text
        assert.equal(latest, `最近一条记录：${lastLine}`)
        assert.equal((await view()).game.grimoire.night?.current?.key === 'wentaiyi', false, 'nothing undone before she confirms')
        await asked.getByRole('button', { name: '撤销' }).click()
        await until('the undo', async () => ((await view()).game.grimoire.night?.current?.key === 'wentaiyi' ? true : null))
        await screen(st).locator('.zh-step-current[data-step="wentaiyi"]').waitFor()
        await resolveStep([6])
      }
      await privacyCheck(`night 1, ${cur.key}`)
      await nightScreensAlike(`night 1, ${cur.key}`)
    }
    const grim = (await view()).game.grimoire
    assert.ok(grim.seats[3].statuses.some((s) => s.kind === 'marked'), '温太医 carries 一丈红')
    await screen(st).locator('.zh-token-slot[data-seat="3"] .zh-mark-marked').waitFor()

    // 天亮
    await screen(st).locator('.zh-button-cell[data-button="dawn"]').getByRole('button').click()
    await Promise.all(players.map((p) => screen(p).locator('.zh-square').waitFor()))
    await privacyCheck('dawn 1')
    await glanceCheck('dawn 1')
    // 温太医 sees what he was told once: the telling taken back in the night never reached his screen
    const wen = players[3]
    await unfold(wen)
    await screen(wen).locator('.zh-told-line', { hasText: '7号' }).first().waitFor()
    assert.equal(await screen(wen).locator('.zh-told-line', { hasText: '7号' }).count(), 1)
    assert.equal(await screen(wen).locator('.zh-withdrawn').count(), 0)
    // each thing she was told says when: 第1夜 for a night step's answer
    assert.match(await screen(wen).locator('.zh-told-line', { hasText: '7号' }).first().innerText(), /^第1夜/)
    // his role unfolds with it; a tap folds both away again
    await screen(wen).locator('.zh-rc-name', { hasText: roleNames.wentaiyi }).waitFor()
    await shot(wen.page, `${SHOTS}zhenhuan-role-card.png`)
    await screen(wen).locator('.zh-peek .zh-role-card').click()
    await screen(wen).locator('.zh-day-peek').getByRole('button', { name: '看身份 · 我得知的' }).waitFor()
    assert.equal(await screen(wen).locator('.zh-told-line').count(), 0, 'what he was told folds with his role')
    // the demon sees her minion and the bluffs; 浣碧 sees the (false) distance she was given
    await unfold(players[0])
    await screen(players[0]).locator('.zh-told-line', { hasText: '叶澜依' }).waitFor()
    await unfold(players[6])
    await screen(players[6]).locator('.zh-told-line', { hasText: '间距' }).waitFor()

    // 告知: a private message to 瑾汐姑姑 only
    await screen(st).locator('.zh-bar').getByRole('button', { name: '告知' }).click()
    const tell = st.page.getByRole('dialog')
    await tell.locator('.zh-seat-picker').first().locator('.chip[data-seat="2"]').click()
    await tell.locator('input').last().fill('今晚留意身边的人')
    await tell.getByRole('button', { name: '告知' }).click()
    await unfold(players[2])
    await screen(players[2]).locator('.zh-told-line', { hasText: '今晚留意身边的人' }).waitFor()
    // told by day, it says so (not read as a night's answer)
    assert.match(await screen(players[2]).locator('.zh-told-line', { hasText: '今晚留意身边的人' }).innerText(), /^第1天/)
    await privacyCheck('tell')

    // a seat's sheet: the chosen status chip is what she would add (not a status 6号 has); a reminder
    // placed on 6号 shows on her token by the start of its name
    await screen(st).locator('.zh-token-slot[data-seat="5"]').click()
    const sheet = st.page.getByRole('dialog', { name: /^6号/ })
    await sheet.locator('.zh-subhead', { hasText: '加上状态' }).waitFor()
    assert.equal(await sheet.locator('[data-status]').count(), 0, '6号 has no status')
    const chip = sheet.locator('.zh-ss-add .chip').filter({ hasText: /^\+/ }).first()
    const token = (await chip.innerText()).slice(1).split('·')[0]
    await chip.click()
    await until('the reminder', async () => ((await view()).game.grimoire.seats[5].reminders.some((r) => r.token === token) ? true : null))
    await sheet.getByRole('button', { name: '关闭' }).click()
    await screen(st).locator('.zh-token-slot[data-seat="5"] .zh-mark-reminder', { hasText: token.slice(0, 2) }).waitFor()

    // a traveller asks to join by day; the storyteller seats her with an identity and a secret alignment
    // she reads the 房号 off the storyteller's screen and types it in her lobby
    const code = (await screen(st).locator('.zh-st-code-digits').innerText()).trim()
    const traveller = await phone('小路子')
    await traveller.page.goto('/pages/lobby/index')
    await screen(traveller).locator('.room-code input').fill(code)
    await screen(traveller).getByRole('button', { name: '前往', exact: true }).click()
    await traveller.page.waitForURL(new RegExp(`room-zhenhuan/index\\?id=${roomId}`))
    await screen(traveller).getByRole('button', { name: '请求入座' }).click()
    // her request is in, or the screen says why not (a failure reads as its words, not as a timeout)
    await screen(traveller).locator('.zh-asked, .error-line').first().waitFor()
    assert.equal(await screen(traveller).locator('.zh-asked').count(), 1,
      `not asked: ${await screen(traveller).locator('.error-line').allInnerTexts()}`)
    const req = screen(st).locator('.zh-request')
    await req.waitFor()
    await req.locator('input').nth(0).fill('游方郎中')
    await req.locator('input').nth(1).fill('每天可以为一人把脉')
    await req.locator('.chip', { hasText: '邪恶' }).click()
    await req.getByRole('button', { name: '入座' }).click()
    // by day her role is folded away, a tap from being read (phones lie on the table side by side)
    const slip = screen(traveller).locator('.zh-day-peek').getByRole('button', { name: '看身份' })
    await slip.waitFor({ timeout: 20000 })
    assert.equal(await screen(traveller).locator('.zh-rc-align').count(), 0, 'her alignment is not on the screen until she taps')
    await slip.click()
    await screen(traveller).locator('.zh-role-card', { hasText: '游方郎中' }).waitFor()
    await screen(traveller).locator('.zh-rc-align', { hasText: '邪恶阵营' }).waitFor()
    await screen(traveller).locator('.zh-peek').click()
    await slip.waitFor()
    await Promise.all(players.map((p) => screen(p).locator('.zh-traveller', { hasText: '游方郎中' }).waitFor()))
    const everyone = [...players, traveller]
    await privacyCheck('a traveller joins', everyone)

    // 「死亡」 by day: 7号 dies; her phone says she is still in the game, with one ghost vote
    await screen(st).locator('.zh-token-slot[data-seat="6"]').click()
    const seven = st.page.getByRole('dialog', { name: /^7号/ })
    await seven.getByRole('button', { name: '死亡', exact: true }).click()
    // it asks first (the chains run and the table sees it), naming 「设为死亡」 for a bare change
    const sure = st.page.getByRole('dialog', { name: '确认死亡' })
    assert.match(await sure.locator('.confirm-text').innerText(), /7号[\s\S]*全场立即看到[\s\S]*设为死亡/)
    await sure.getByRole('button', { name: '死亡', exact: true }).click()
    await until('7号 to die', async () => ((await view()).game.grimoire.seats[6].alive ? null : true))
    await seven.getByRole('button', { name: '关闭' }).click()
    const ghost = screen(players[6]).locator('.zh-ghost-note')
    await ghost.waitFor()
    assert.match(await ghost.innerText(), /仍在局中[\s\S]*不能再提名[\s\S]*一张幽灵票/)
    await shot(players[6].page, `${SHOTS}zhenhuan-dead-player.png`)
    await privacyCheck('a death by day', everyone)

    // 瑾汐姑姑 nominates 1号 from her phone
    const jinxi = players[2]
    await screen(jinxi).locator('.zh-square .zh-token-slot[data-seat="0"]').click()
    const nominate = screen(jinxi).locator('.zh-nominate').getByRole('button', { name: '提名' })
    await until('提名 to be allowed', async () => ((await nominate.getAttribute('aria-disabled')) === 'false' ? true : null))
    await nominate.click()
    await until('the nomination', async () => ((await view()).game.day.nominations.length === 1 ? true : null))
    await privacyCheck('nomination', everyone)

    // the storyteller opens the vote clock; the players vote from their phones while it counts down
    await screen(st).locator('.zh-button-cell[data-button="open_vote"]').getByRole('button').click()
    // the sheet names the nomination it opens the vote for
    assert.equal(await st.page.getByRole('dialog').locator('.zh-form-for').innerText(), '3号提名1号 眉庄：为这次提名投票')
    await st.page.getByRole('dialog').locator('.chip', { hasText: '90 秒' }).click()
    await st.page.getByRole('dialog').getByRole('button', { name: '确定' }).click()
    await Promise.all(everyone.map((p) => screen(p).locator('.zh-voting .zh-clock').waitFor()))
    const yes = new Set([2, 3, 4, 5, 6, 7])
    for (const [seat, p] of everyone.entries()) {
      await screen(p).locator('.zh-voting').getByRole('button', { name: yes.has(seat) ? '举手' : '不举手', exact: true }).click()
      await until(`seat ${seat + 1}'s hand`, async () => {
        const d = (await view()).game.day
        return !d.vote || d.vote.hands.some((h) => h.seat === seat) ? true : null
      })
      if (seat === 4) {
        // her hand is in: her 投票 panel stays with the clock and the hands round the circle from the
        // nominee's left (1号 last), not in the order they came; the square marks the one on trial
        const voted = screen(everyone[4]).locator('.zh-voting')
        await voted.locator('.zh-my-hand', { hasText: '你已举手' }).waitFor()
        await voted.locator('.zh-clock').waitFor()
        const d = (await view()).game.day
        const inVote = new Set([...d.vote.hands.map((h) => h.seat), ...d.vote.waiting])
        const round = [1, 2, 3, 4, 5, 6, 7, 0].filter((x) => inVote.has(x))
        const shown = await voted.locator('.zh-hand').evaluateAll((els) => els.map((e) => e.getAttribute('data-seat')))
        assert.deepEqual(shown.map(Number), round)
        assert.equal(await voted.locator('.zh-hand[data-seat="0"]').innerText(), '1号不举')
        assert.equal(await screen(players[1]).locator('.zh-square .zh-token-slot[data-seat="0"] .zh-tag').innerText(), '受审')
        await screen(st).locator('.zh-vote .zh-hand-yes').nth(2).waitFor()
        await scrollTo(st, '.zh-day-panel')
        await shot(st.page, `${SHOTS}zhenhuan-grimoire-day.png`)
        await scrollTo(players[5], '.zh-voting')
        await shot(players[5].page, `${SHOTS}zhenhuan-vote.png`)
      }
      if (seat === 6) {
        // dead 7号 raised her hand: her note says her ghost vote is being spent on this vote (her seat
        // keeps its 「票」 until the vote closes), not that she still has it to use
        await screen(players[6]).locator('.zh-ghost-vote', { hasText: '你的幽灵票正用在这次投票上' }).waitFor()
      }
      await privacyCheck(`vote of seat ${seat + 1}`, everyone)
    }
    const day = await until('the vote to be counted', async () => {
      const d = (await view()).game.day
      return d.vote === null && d.nominations[0].count !== null ? d : null
    })
    assert.equal(day.nominations[0].count, 6)
    assert.equal(day.block, 0)
    await screen(players[6]).locator('.zh-ghost-vote', { hasText: '你的幽灵票已经用掉' }).waitFor()
    // her 记录 says the vote once, as its count naming the hands (not a line per hand, nor the clock's
    // start), and 7号's death once, with its cause (not the public 「7号死亡」 beside it)
    const record = async () => screen(st).locator('.zh-log .zh-log-line').allInnerTexts()
    const counted = await until('the count in her record', async () => {
      const lines = await record()
      return lines.some((l) => l.startsWith('1号得6票')) ? lines : null
    })
    assert.deepEqual(counted.filter((l) => /^\d+号(举手|不举手)$|^开始对/.test(l)), [], counted.join('\n'))
    assert.deepEqual(counted.filter((l) => l.includes('1号得6票')), [`1号得6票（需${day.nominations[0].threshold}票）；举手：3号、4号、5号、6号、7号、8号；处决台：1号`])
    assert.deepEqual(counted.filter((l) => l.startsWith('7号死亡')), ['7号死亡（说书人「死亡」）'])
    await screen(players[1]).locator('.zh-block', { hasText: '1号' }).waitFor()
    await screen(players[1]).locator('.zh-square .zh-token-slot[data-seat="0"] .zh-tag', { hasText: '处决台' }).waitFor()

    // the traveller leaves: her phone says she is out of the game — not that she died or spent a vote
    await screen(st).locator('.zh-token-slot[data-seat="7"]').click()
    const eight = st.page.getByRole('dialog', { name: /^8号/ })
    await eight.getByRole('button', { name: '离场', exact: true }).click()
    await until('8号 to leave', async () => ((await view()).game.grimoire.seats[7].departed ? true : null))
    await eight.getByRole('button', { name: '关闭' }).click()
    const gone = screen(traveller).locator('.zh-ghost-note')
    await gone.filter({ hasText: '你已离开本局' }).waitFor()
    assert.doesNotMatch(await gone.innerText(), /香消玉殒|幽灵票已经用掉/)
    await privacyCheck('a traveller leaves', everyone)

    // 处决: the chopping block is preselected; the demon dies and the storyteller confirms the end. Her
    // screen may still be drawing the closed vote (a loaded machine): tap once 处决 is offered
    const execute = screen(st).locator('.zh-button-cell[data-button="execute"]').getByRole('button')
    await until('the storyteller to be offered 处决', async () =>
      ((await execute.getAttribute('aria-disabled')) === 'false' ? true : null))
    await execute.click()
    await st.page.getByRole('dialog').locator('.chip-on[data-seat="0"]').waitFor()
    await st.page.getByRole('dialog').getByRole('button', { name: '确定' }).click()
    await screen(st).locator('.zh-end', { hasText: '善良阵营胜' }).waitFor()
    // the execution is one line in her record, with why
    const executed = await until('the execution in her record', async () => {
      const lines = await record()
      return lines.some((l) => l.includes('被处决')) ? lines : null
    })
    assert.deepEqual(executed.filter((l) => l.includes('被处决') || l.startsWith('处决')), ['1号被处决（处决台）'])
    await privacyCheck('execution', everyone)
    await screen(st).locator('.zh-end').getByRole('button', { name: '确认结束' }).click()
    await Promise.all(everyone.map((p) => screen(p).locator('.zh-end', { hasText: '善良阵营胜' }).waitFor()))
    // the storyteller's end: the verdict stays on her screen, with nothing left to undo or tell
    await screen(st).locator('.zh-end[role="status"]', { hasText: '善良阵营胜' }).waitFor()
    assert.equal(await screen(st).getByRole('button', { name: '撤销' }).count(), 0)
    const result = await api.call('GET', `${gamePath()}/result`, st.token)
    assert.equal(result.body.results[0].extra.winner, 'good')
    assert.deepEqual(result.body.results[0].results.filter((r) => r.won).map((r) => r.seat), [2, 3, 4, 5, 6])
    // each phone says how it went for her, as the written result has it
    await screen(players[2]).locator('.zh-end-mine', { hasText: '你所在的阵营获胜' }).waitFor()
    // the reveal shows every role, not the storyteller's reminders (6号 still carries one in her grimoire)
    assert.ok((await view()).game.grimoire.seats[5].reminders.length > 0)
    await screen(players[2]).locator('.zh-reveal .zh-token-slot[data-seat="5"]').waitFor()
    assert.equal(await screen(players[2]).locator('.zh-reveal .zh-mark-reminder').count(), 0)
    await screen(players[0]).locator('.zh-end-mine', { hasText: '你所在的阵营落败' }).waitFor()
    await settle(st.page)

    // 再开一局: the next game is the storyteller's to open; her players wait for it, then sit in it
    await screen(players[1]).getByText('等说书人开新局', { exact: true }).waitFor()
    await screen(st).getByRole('button', { name: '再开一局', exact: true }).click()
    await screen(st).locator('.room-invite').waitFor({ timeout: 15000 })
    const next = await screen(st).locator('.room-invite').getAttribute('data-room')
    // her waiting screen names everyone who sat at the last table (the traveller too) and has not come
    const table = (await api.call('GET', `/v1/rooms/${roomId}`, st.token)).body.room.seats.map((s) => s.name)
    assert.ok(table.length > NAMES.length, table.join())
    assert.equal(await screen(st).locator('.room-awaited').innerText(), `上局同伴未到：${table.join('、')}`)
    const note = screen(players[1]).locator('.again-note')
    await note.waitFor({ timeout: 15000 })
    assert.match(await note.innerText(), /已开了新房，点「入席新局」前往/)
    // the storyteller back on the old page (its link) is told it is her own room, and taken back to it
    await st.page.goto(`/pages/room-zhenhuan/index?id=${roomId}`)
    const hers = screen(st).locator('.again-note')
    await hers.waitFor({ timeout: 15000 })
    assert.equal(await hers.innerText(), '你已开好新房')
    await screen(st).getByRole('button', { name: '回新房', exact: true }).click()
    await screen(st).locator(`.room-invite[data-room="${next}"]`).waitFor({ timeout: 15000 })
    await screen(players[1]).getByRole('button', { name: '入席新局', exact: true }).click()
    await screen(players[1]).locator(`.room-invite[data-room="${next}"]`).waitFor({ timeout: 15000 })
    await screen(players[1]).locator('.seat-me').waitFor()
    const rest = table.filter((n) => n !== NAMES[1])
    assert.equal(await screen(players[1]).locator('.room-awaited').innerText(), `上局同伴未到：${rest.join('、')}`)
  })

  it('an execution the rules propose shows where the storyteller watches the nominations', async () => {
    // 纯元皇后 nominated by a 村民: the proposal (execute the nominator) sits in the day's panel, above
    // the nominations, where she looks after a nomination, not at the top of the page
    const open = await api.call('POST', '/v1/rooms', st.token, { game: 'zhenhuan' })
    const room = open.body.room.id
    for (const p of players) assert.equal((await api.call('POST', `/v1/rooms/${room}/join`, p.token, {})).status, 200)
    assert.equal((await api.call('POST', `/v1/rooms/${room}/start`, st.token, {})).status, 200)
    const path = `/v1/games/zhenhuan/rooms/${room}`
    const act = async (action) => {
      const v = (await api.call('GET', path, st.token)).body
      const res = await api.call('POST', `${path}/actions`, st.token, { step: v.room.step, action })
      assert.equal(res.status, 200, JSON.stringify(res.body))
    }
    const dealt = ['huangshang', 'huafei', 'chunyuan', 'jinxi', 'wentaiyi', 'jingfei', 'guojunwang']
    for (const [seat, role] of dealt.entries()) await act({ type: 'assign', seat, role })
    await act({ type: 'begin' })
    await act({ type: 'dawn' })
    await act({ type: 'nominate', nominator: 3, nominee: 2 })
    await st.page.goto(`/pages/room-zhenhuan/index?id=${room}`)
    const proposal = screen(st).locator('.zh-day-panel .zh-proposal')
    await proposal.waitFor()
    assert.match(await proposal.innerText(), /提议处决 4号[\s\S]*纯元皇后首次被提名/)
  })

  it('a square of fifteen long names: no name runs into another, nor over a neighbour\'s seat', async () => {
    const open = await api.call('POST', '/v1/rooms', st.token, { game: 'zhenhuan' })
    const room = open.body.room.id
    const names = Array.from({ length: 14 }, (_, i) => `宫女${i + 2}号长名字`)
    for (const t of [players[0].token, ...await Promise.all(names.map((n) => api.login(n)))]) {
      const joined = await api.call('POST', `/v1/rooms/${room}/join`, t, {})
      assert.equal(joined.status, 200, JSON.stringify(joined.body))
    }
    assert.equal((await api.call('POST', `/v1/rooms/${room}/start`, st.token, {})).status, 200)
    const p = players[0]
    await p.page.goto(`/pages/room-zhenhuan/index?id=${room}`)
    await screen(p).locator('.zh-square .zh-token-slot').nth(14).waitFor()
    await settle(p.page)
    const boxes = await screen(p).locator('.zh-square .zh-token-slot').evaluateAll((slots) => slots.map((slot) => {
      const box = (el) => { const r = el.getBoundingClientRect(); return { l: r.left, r: r.right, t: r.top, b: r.bottom } }
      return { name: box(slot.querySelector('.zh-token-name')), disc: box(slot.querySelector('.zh-token-disc')), text: slot.innerText }
    }))
    assert.equal(boxes.length, 15)
    await shot(p.page, `${SHOTS}zhenhuan-fifteen.png`)
    const meet = (a, b) => a.l < b.r - 0.5 && b.l < a.r - 0.5 && a.t < b.b - 0.5 && b.t < a.b - 0.5
    // a seat is a round disc: a name clashes with it where the rectangle reaches inside the circle
    const overDisc = (a, d) => {
      const cx = (d.l + d.r) / 2
      const cy = (d.t + d.b) / 2
      const x = Math.min(Math.max(cx, a.l), a.r)
      const y = Math.min(Math.max(cy, a.t), a.b)
      return Math.hypot(x - cx, y - cy) < (d.r - d.l) / 2 - 0.5
    }
    const clashes = []
    boxes.forEach((a, i) => boxes.forEach((b, j) => {
      if (i < j && meet(a.name, b.name)) clashes.push(`${i + 1}号 and ${j + 1}号's names`)
      if (i !== j && overDisc(a.name, b.disc)) clashes.push(`${i + 1}号's name over ${j + 1}号's seat`)
    }))
    assert.deepEqual(clashes, [])
    // every name is still there to read, shortened with 「…」 where the square is tight
    assert.ok(boxes.every((b) => /宫女|眉庄/.test(b.text)), boxes.map((b) => b.text).join())
  })
})
