import { describe, expect, it } from 'vitest'
import { entryText, maidLines, mapRows, occupants, shutNote, tileState, tokenName } from './board'
import { clockOffset, formatClock, remainingMs, urgency } from './clock'
import { hurryOffered } from './hurry'
import { battleBegan } from './start'
import {
  actionBody, buttons, cardRefusal, chanceOf, chooseAction, shutReason, choosePlace, chooseTarget, describeMove, EMPTY, fitCards, hasCards,
  keepHeld, readiness, toggleCard, toggleDiscard, voidedBanner, type Compose,
} from './compose'
import { gameTabs, roundName, tenths } from './labels'
import { foldText, mergeReports, orderLines, recapOf, scoreLines, scrollOrder } from './reports'
import { fastestRow, notesInTableOrder, placeLine, points, resultRows, scoreName, unlockedStage, verdictOf } from './result'
import type { Card, ClearRow, Line, Option, Outcome, PlaceView, Player, Report } from './types'

// ---------- fixtures shaped like the API's answers ----------

const D_OPTIONS: Option[] = [
  { type: 'poison', label: '下毒', allowed: true, targets: [0, 2], places: [] },
  { type: 'assassinate', label: '暗杀', allowed: false, reason: '上回合遭暗杀，本回合只能待机', code: 'ACTION_VOIDED', targets: [], places: [] },
  { type: 'frame', label: '诬告', allowed: true, targets: [2], places: [] },
  { type: 'heal', label: '养生', allowed: true },
  { type: 'move', label: '移动', allowed: true, places: ['太医院', '醉江南'] },
  { type: 'idle', label: '待机', allowed: true },
]

const ABC_OPTIONS: Option[] = [
  { type: 'poison', label: '下毒', allowed: true, places: ['景仁宫', '御膳房'] },
  { type: 'frame', label: '诬告', allowed: true, places: ['景仁宫', '摘星楼'] },
  { type: 'meal', label: '送膳', allowed: true },
  { type: 'move', label: '移动', allowed: true, places: ['乾清宫', '承乾宫'] },
  { type: 'idle', label: '待机', allowed: true },
]

function card(copy_id: string, slot: Card['slot'], skill = copy_id.split('#')[0]): Card {
  return { copy_id, card: copy_id.split('#')[0], maid: '宫女', skill, slot, level: 1, effect: 'poison_hit', amount: 10, text: '' }
}

const HAND = [card('xunyi#1', 'attack', '寻医问药'), card('xiuzhen#1', 'attack', '袖里藏针'), card('tieshen#2', 'defence', '贴身护卫'),
  card('tongxin#1', 'general', '姐妹同心'), card('chushou#2', 'general', '御厨妙手')]

function place(name: PlaceView['place'], extra: Partial<PlaceView> = {}): PlaceView {
  return { place: name, text: `${name}之规`, ...extra }
}

function player(seat: number, placeName: Player['place'], alive = true): Player {
  return {
    seat, name: `妃${seat}`, consort: `妃${seat}`, looks: 80, talent: 80, favor: 80, power: 80, hp: 10, hp_max: 12, grace: 5,
    grace_max: null, place: placeName, alive,
  }
}

// ---------- the countdown ----------

describe('countdown from the server clock', () => {
  it('counts from deadline − server_time, not from the phone clock', () => {
    // the phone is five minutes slow: its clock says 1 000 000 while the server says 1 300 000
    const offset = clockOffset(1_300_000, 1_000_000)
    expect(offset).toBe(300_000)
    // deadline 90 s after the server's time: 90 s left at fetch, 60 s left 30 phone-seconds later
    expect(remainingMs(1_390_000, offset, 1_000_000)).toBe(90_000)
    expect(remainingMs(1_390_000, offset, 1_030_000)).toBe(60_000)
  })

  it('never goes below zero and shows whole seconds rounded up', () => {
    expect(remainingMs(1000, 0, 5000)).toBe(0)
    expect(formatClock(83_000)).toBe('01:23')
    expect(formatClock(82_001)).toBe('01:23')
    expect(formatClock(400)).toBe('00:01')
    expect(formatClock(0)).toBe('00:00')
    expect(formatClock(600_000)).toBe('10:00')
  })

  it('turns urgent in the last fifth (at least 15 s) and up at zero', () => {
    expect(urgency(60_000, 90)).toBe('calm')
    expect(urgency(15_000, 90)).toBe('soon')
    expect(urgency(100_000, 600)).toBe('soon')
    expect(urgency(0, 90)).toBe('up')
  })
})

// ---------- options → buttons, composing ----------

describe('buttons from you.options', () => {
  it('keeps the server order and greys with the server\'s own reason', () => {
    const b = buttons(D_OPTIONS, EMPTY, 'D')
    expect(b.map((x) => x.label)).toEqual(['下毒', '暗杀', '诬告', '养生', '移动', '待机'])
    expect(b[1]).toMatchObject({ type: 'assassinate', allowed: false, reason: '上回合遭暗杀，本回合只能待机' })
    expect(b.filter((x) => x.allowed).every((x) => x.reason === null)).toBe(true)
    expect(b.map((x) => x.pick)).toEqual(['target', 'target', 'target', null, 'place', null])
  })

  it('marks the chosen action; A/B/C attacks aim at places', () => {
    const c = chooseAction(EMPTY, ABC_OPTIONS[0], 'C')
    const b = buttons(ABC_OPTIONS, c, 'C')
    expect(b.find((x) => x.selected)?.type).toBe('poison')
    expect(b[0].pick).toBe('place')
    expect(b[2].pick).toBe(null)
  })

  it('a voided round says the server\'s reason once under its banner, whatever the seals say', () => {
    const reason = '你本回合的行动已被暗杀作废，只能待机（无加成），可弃牌'
    expect(voidedBanner({ voided: true, voided_reason: reason })).toEqual({ reason })
    expect(voidedBanner({ voided: true, voided_reason: null })).toEqual({ reason: null })
    expect(voidedBanner({ voided: false, voided_reason: null })).toBe(null)
    expect(voidedBanner(null)).toBe(null)
  })

  it('a greyed action cannot be chosen', () => {
    expect(chooseAction(EMPTY, D_OPTIONS[1], 'D')).toBe(EMPTY)
  })

  it('an attack seal shows the server\'s chance: in D against the opponent aimed at, in A/B/C at her place', () => {
    const frame: Option = { type: 'frame', label: '诬告', allowed: true, targets: [0, 2], chances: [65, 85], places: [] }
    const mine = { chances: { poison: 90, assassinate: 75, frame: 85 } }
    expect(chanceOf(frame, EMPTY, mine)).toBe(65)
    expect(chanceOf(frame, chooseTarget(chooseAction(EMPTY, frame, 'D'), frame, 2), mine)).toBe(85)
    expect(chanceOf(ABC_OPTIONS[1], EMPTY, mine)).toBe(85)
    expect(chanceOf(ABC_OPTIONS[2], EMPTY, mine)).toBe(null)
    expect(buttons([frame], EMPTY, 'D', mine)[0].chance).toBe(65)
  })

  it('with an attack card on it, the seal shows the server\'s chance for that card (寻医问药 Lv.3 on 下毒: 95)', () => {
    const poison: Option = { type: 'poison', label: '下毒', allowed: true, targets: [0], chances: [90], places: [],
      card_chances: [{ copy_id: 'xunyi#1', chances: [95] }] }
    const mine = { chances: { poison: 90, assassinate: 75, frame: 85 } }
    const aimed = chooseAction(EMPTY, poison, 'D')
    expect(chanceOf(poison, aimed, mine)).toBe(90)
    expect(chanceOf(poison, { ...aimed, cards: { attack: 'xunyi#1' } }, mine)).toBe(95)
    expect(chanceOf(poison, { ...aimed, cards: { attack: 'xiuzhen#1' } }, mine)).toBe(90)  // a card not listed adds nothing
    const palace: Option = { type: 'poison', label: '下毒', allowed: true, places: ['景仁宫'], card_chances: [{ copy_id: 'xunyi#2', chances: [95] }] }
    expect(chanceOf(palace, { ...chooseAction(EMPTY, palace, 'C'), cards: { attack: 'xunyi#2' } }, mine)).toBe(95)
  })
})

describe('a shut tile says why only from what the server says', () => {
  it('an attack on a place that is no target of it, 移动 to her own place or past an entry bar', () => {
    const frame = { type: 'frame' as const, label: '诬告' }
    const move = { type: 'move' as const, label: '移动' }
    expect(shutReason(frame, place('御膳房', { targets: ['poison', 'assassinate'], entry_bar: 'grace' }), false)).toBe('此处不是诬告的目标')
    expect(shutReason(frame, place('景仁宫', { targets: ['poison', 'assassinate', 'frame'] }), false)).toBe('此处不可诬告')
    expect(shutReason(move, place('景仁宫'), true)).toBe('你已身在此处')
    expect(shutReason(move, place('乾清宫', { entry_bar: 'grace', text: '准入好感≥5' }), false)).toBe('此处不可移动（准入好感≥5）')
    // the server's reason for that very place, when it gave one: her own value beside the bar
    const told = { ...move, shut: [{ place: '乾清宫' as const, reason: '乾清宫 须好感≥5方可进入（你的好感 4.2）' }] }
    expect(shutReason(told, place('乾清宫', { entry_bar: 'grace', text: '准入好感≥5' }), false)).toBe('此处不可移动：乾清宫 须好感≥5方可进入（你的好感 4.2）')
  })
})

describe('target selection', () => {
  it('a D attack aims at the first opponent it may hit; only its targets may be tapped', () => {
    let c = chooseAction(EMPTY, D_OPTIONS[0], 'D')
    expect(c.target).toBe(0)
    c = chooseTarget(c, D_OPTIONS[0], 2)
    expect(c.target).toBe(2)
    expect(chooseTarget(c, D_OPTIONS[0], 1)).toBe(c)
    // switching to 诬告 keeps the target when 诬告 may hit it too, else takes its first
    expect(chooseAction(c, D_OPTIONS[2], 'D').target).toBe(2)
    expect(chooseAction({ ...c, target: 0 }, D_OPTIONS[2], 'D').target).toBe(2)
  })

  it('a place must be picked on the map among the option\'s places; tapping it again clears it', () => {
    let c = chooseAction(EMPTY, ABC_OPTIONS[1], 'C')
    expect(readiness(c, ABC_OPTIONS, 'C')).toEqual({ ready: false, hint: '在宫图上点选目标地' })
    expect(choosePlace(c, ABC_OPTIONS[1], '御膳房')).toBe(c)
    c = choosePlace(c, ABC_OPTIONS[1], '摘星楼')
    expect(c.place).toBe('摘星楼')
    expect(readiness(c, ABC_OPTIONS, 'C').ready).toBe(true)
    expect(choosePlace(c, ABC_OPTIONS[1], '摘星楼').place).toBeUndefined()
    // a place the next action cannot use is dropped
    expect(chooseAction(c, ABC_OPTIONS[0], 'C').place).toBeUndefined()
    expect(chooseAction({ ...c, place: '景仁宫' }, ABC_OPTIONS[0], 'C').place).toBe('景仁宫')
  })

  it('移动 asks for a destination, 待机 for nothing', () => {
    const move = chooseAction(EMPTY, D_OPTIONS[4], 'D')
    expect(readiness(move, D_OPTIONS, 'D')).toEqual({ ready: false, hint: '在宫图上点选去处' })
    expect(readiness(chooseAction(EMPTY, D_OPTIONS[5], 'D'), D_OPTIONS, 'D').ready).toBe(true)
    expect(readiness(EMPTY, D_OPTIONS, 'D')).toEqual({ ready: false, hint: '先择一行动' })
  })

  it('map tiles: open, picked, shut, and her own place for 移动', () => {
    const c = choosePlace(chooseAction(EMPTY, ABC_OPTIONS[3], 'C'), ABC_OPTIONS[3], '乾清宫')
    expect(tileState('乾清宫', c, ABC_OPTIONS[3], 'C', '景仁宫')).toBe('picked')
    expect(tileState('承乾宫', c, ABC_OPTIONS[3], 'C', '景仁宫')).toBe('open')
    expect(tileState('景仁宫', c, ABC_OPTIONS[3], 'C', '景仁宫')).toBe('here')
    expect(tileState('御膳房', c, ABC_OPTIONS[3], 'C', '景仁宫')).toBe('shut')
    expect(tileState('御膳房', c, undefined, 'C', '景仁宫')).toBe('plain')
    // a D attack aims at opponents, not places
    expect(tileState('醉江南', EMPTY, D_OPTIONS[0], 'D')).toBe('plain')
  })
})

describe('cards in their slots and discards', () => {
  it('a card goes into its own slot, replacing the one there; again takes it back', () => {
    let c: Compose = toggleCard(EMPTY, HAND[0])
    expect(c.cards).toEqual({ attack: 'xunyi#1' })
    c = toggleCard(c, HAND[1])
    expect(c.cards).toEqual({ attack: 'xiuzhen#1' })
    c = toggleCard(toggleCard(c, HAND[2]), HAND[3])
    expect(c.cards).toEqual({ attack: 'xiuzhen#1', defence: 'tieshen#2', general: 'tongxin#1' })
    c = toggleCard(c, HAND[2])
    expect(c.cards).toEqual({ attack: 'xiuzhen#1', general: 'tongxin#1' })
  })

  it('at most two discards; a discarded card leaves its slot and a played one leaves the discards', () => {
    let c = toggleCard(EMPTY, HAND[4])
    c = toggleDiscard(c, 'chushou#2')
    expect(c.cards).toEqual({})
    expect(c.discard).toEqual(['chushou#2'])
    c = toggleDiscard(c, 'xunyi#1')
    const full = toggleDiscard(c, 'tieshen#2')
    expect(full).toBe(c)
    c = toggleCard(c, HAND[0])
    expect(c.discard).toEqual(['chushou#2'])
    expect(c.cards.attack).toBe('xunyi#1')
    expect(hasCards(c)).toBe(true)
    expect(hasCards(EMPTY)).toBe(false)
  })

  it('cards that left the hand drop out', () => {
    const c: Compose = { type: 'idle', cards: { attack: 'gone#1', general: 'tongxin#1' }, discard: ['gone#2', 'xunyi#1'] }
    expect(keepHeld(c, HAND)).toEqual({ type: 'idle', cards: { general: 'tongxin#1' }, discard: ['xunyi#1'] })
  })
})

describe('a card that does not fit the chosen action, as the server says (CardView.refused)', () => {
  const XUNYI_NO = '「寻医问药」只对下毒生效（可以弃掉）'
  // as the server sends C's hand: 寻医问药 serves 下毒 only, 贴身护卫 goes with anything
  const xunyi: Card = { ...HAND[0], refused: (['assassinate', 'frame', 'meal', 'heal', 'idle', 'move'] as const).map((type) => ({ type, reason: XUNYI_NO })) }
  const guard: Card = { ...HAND[2], refused: [] }
  const poison = ABC_OPTIONS.find((o) => o.type === 'poison')!
  const idle = ABC_OPTIONS.find((o) => o.type === 'idle')!

  it('greys only once an action is chosen, with the server\'s reason for that action', () => {
    expect(cardRefusal(xunyi, undefined)).toBeNull()
    expect(cardRefusal(xunyi, 'poison')).toBeNull()
    expect(cardRefusal(xunyi, 'idle')).toBe(XUNYI_NO)
    expect(cardRefusal(guard, 'idle')).toBeNull()
  })

  it('cannot be put in a slot with that action, but may still be discarded', () => {
    const c = chooseAction(EMPTY, idle, 'C')
    expect(toggleCard(c, xunyi)).toBe(c)
    expect(toggleCard(c, guard).cards).toEqual({ defence: 'tieshen#2' })
    expect(toggleDiscard(c, xunyi.copy_id).discard).toEqual(['xunyi#1'])
    expect(toggleCard(chooseAction(EMPTY, poison, 'C'), xunyi).cards).toEqual({ attack: 'xunyi#1' })
  })

  it('changing the action takes out a card it refuses, with the reason; the fitting ones stay', () => {
    const played = toggleCard(toggleCard(chooseAction(EMPTY, poison, 'C'), xunyi), guard)
    const same = fitCards(chooseAction(played, poison, 'C'), [xunyi, guard])
    expect(same.taken).toEqual([])
    expect(same.compose.cards).toEqual({ attack: 'xunyi#1', defence: 'tieshen#2' })
    const moved = fitCards(chooseAction(played, idle, 'C'), [xunyi, guard])
    expect(moved.taken).toEqual([XUNYI_NO])
    expect(moved.compose.cards).toEqual({ defence: 'tieshen#2' })
    expect(moved.compose.type).toBe('idle')
  })
})

describe('the body sent and the move shown back', () => {
  it('D: target and cards; no place on an attack', () => {
    let c = chooseTarget(chooseAction(EMPTY, D_OPTIONS[0], 'D'), D_OPTIONS[0], 2)
    c = toggleDiscard(toggleCard(c, HAND[0]), 'chushou#2')
    expect(actionBody({ ...c, place: '太医院' }, 'D')).toEqual({
      type: 'poison', target: 2, cards: { attack: 'xunyi#1', defence: null, general: null, discard: ['chushou#2'] },
    })
  })

  it('A/B/C: place, no target; no cards field without cards', () => {
    const c = choosePlace(chooseAction(EMPTY, ABC_OPTIONS[0], 'A'), ABC_OPTIONS[0], '御膳房')
    expect(actionBody({ ...c, target: 1 }, 'A')).toEqual({ type: 'poison', place: '御膳房' })
    expect(actionBody(chooseAction(EMPTY, ABC_OPTIONS[2], 'A'), 'A')).toEqual({ type: 'meal' })
  })

  it('describes a sealed move with names, never ids when a name is known', () => {
    const names = { opponent: (i: number) => ['高明珠', '西域间谍', '哑巴宫女'][i], card: (id: string) => HAND.find((h) => h.copy_id === id)?.skill }
    expect(describeMove({ type: 'poison', target: 0, cards: { attack: 'xunyi#1', discard: ['chushou#2'] } }, 'D', names))
      .toBe('下毒 · 高明珠 · 进攻位「寻医问药」 · 弃「御厨妙手」')
    expect(describeMove({ type: 'move', place: '太医院' }, 'D', names)).toBe('移动 → 太医院')
    expect(describeMove({ type: 'frame', place: '摘星楼' }, 'C', names)).toBe('诬告 · 摘星楼')
    expect(describeMove({ type: 'assassinate', cards: { general: 'lost#1' } }, 'D', names)).toBe('暗杀 · 首位对手 · 通用位「lost」')
  })
})

// ---------- the map ----------

describe('the palace plan', () => {
  it('A/B/C: 乾清宫 between 摘星楼 and 御膳房 above the six palaces', () => {
    const names = ['景仁宫', '承乾宫', '钟粹宫', '延禧宫', '永寿宫', '长春宫', '御膳房', '摘星楼', '乾清宫'] as const
    const rows = mapRows(names.map((n) => place(n)), 'C')
    expect(rows.map((r) => r.map((p) => p.place))).toEqual([
      ['摘星楼', '乾清宫', '御膳房'], ['景仁宫', '承乾宫', '钟粹宫'], ['延禧宫', '永寿宫', '长春宫'],
    ])
  })

  it('D: its five places; a place the plan does not know is still shown', () => {
    const rows = mapRows(['御花园', '醉江南', '御膳房', '太医院', '摘星楼', '景仁宫'].map((n) => place(n as PlaceView['place'])), 'D')
    expect(rows.map((r) => r.map((p) => p.place))).toEqual([['摘星楼', '醉江南', '御膳房'], ['御花园', '太医院'], ['景仁宫']])
  })

  it('who stands where, the fallen last; entry thresholds in words', () => {
    const ps = [player(0, '景仁宫', false), player(1, '景仁宫'), player(2, '承乾宫')]
    expect(occupants(ps, '景仁宫').map((p) => p.seat)).toEqual([1, 0])
    expect(entryText(place('御膳房', { entry_bar: 'grace', entry_min: 6 }))).toBe('准入 好感≥6')
    expect(entryText(place('摘星楼', { entry_bar: 'hp', entry_min: 6 }))).toBe('准入 气血≥6')
    expect(entryText(place('景仁宫'))).toBeNull()
  })

  it('numbers in tenths and round names', () => {
    expect(tenths(19.2)).toBe('19.2')
    expect(tenths(10)).toBe('10')
    expect(tenths(-0.5)).toBe('−0.5')
    expect(tenths(0.30000000000000004)).toBe('0.3')
    expect(roundName(1)).toBe('第一回合')
    expect(roundName(12)).toBe('第十二回合')
    expect(roundName(20)).toBe('第二十回合')
  })
})

// ---------- 战报 ----------

function line(scope: Line['scope'], text: string, kind: Line['kind'] = 'action'): Line {
  return { round: 1, scope, kind, text }
}
function report(step: number, lines: Line[]): Report {
  return { step, label: `第${step}回合`, kind: 'settle', trigger: 'player', at_ms: step, lines }
}

describe('the 战报 scroll', () => {
  it('merges incremental pages by step, oldest first; shows newest first without the empty setup', () => {
    const a = [report(0, []), report(1, [line('public', 'a')])]
    const merged = mergeReports(a, [report(2, [line('public', 'b')]), report(1, [line('public', 'a2')])])
    expect(merged.map((r) => r.step)).toEqual([0, 1, 2])
    expect(merged[1].lines[0].text).toBe('a2')
    expect(scrollOrder(merged).map((r) => r.step)).toEqual([2, 1])
  })

  it('the score lines of the last report that has them, in the server\'s words', () => {
    const reports = [report(4, [line('public', '甄嬛 积分 80', 'score')]), report(5, [line('public', '甄嬛 积分 89（输出 14 ＋ 存活 30）', 'score'), line('public', 'x', 'end')]), report(6, [])]
    expect(scoreLines(reports).map((l) => l.text)).toEqual(['甄嬛 积分 89（输出 14 ＋ 存活 30）'])
    expect(scoreLines([])).toEqual([])
  })

  it('my own lines lead, then what struck me, then the rest; the round line closes', () => {
    const lines = [line('public', 'p'), line('public', '第 1 回合结算完毕', 'round'), line('anonymous', 'n'), line('about_you', 'y'), line('own', 'o')]
    expect(orderLines(lines).map((l) => l.text)).toEqual(['o', 'y', 'p', 'n', '第 1 回合结算完毕'])
  })
})

// ---------- the result ----------

const OUTCOME: Outcome = {
  unit: 'game', reason: 'clear', clear: { stage: 1, rounds: 5 }, extra: { mode: 'D', rounds: 5, stage: 1, cleared: true },
  results: [
    { seat: 0, name: '甄嬛', consort: 'demo00', place: null, score: 78, won: true, stats: { kills: 0, hp_damage: 3, grace_damage: 0, taken: 11, survived: 1, clear_bonus: 45 } },
    { seat: 1, name: '沈眉庄', consort: 'demo01', place: null, score: 89, won: true, stats: { kills: 1, hp_damage: 12, grace_damage: 2, taken: 4, survived: 1, clear_bonus: 45 } },
    { seat: 2, name: '安陵容', consort: 'demo02', place: null, score: 78, won: true, stats: { kills: 0, hp_damage: 3, grace_damage: 0, taken: 3, survived: 0, clear_bonus: 45 } },
  ],
}

describe('the result', () => {
  it('rows by score (seat breaks ties) with kill credit, damage and the clear bonus; mine marked', () => {
    const rows = resultRows(OUTCOME, 2)
    expect(rows.map((r) => r.seat)).toEqual([1, 0, 2])
    expect(rows[0]).toMatchObject({ name: '沈眉庄', kills: 1, damage: 14, clearBonus: 45, survived: true, mine: false })
    expect(rows[2]).toMatchObject({ mine: true, survived: false })
  })

  it('a seat that never moved is marked so (the server\'s `played`; a result written before it counts as played)', () => {
    const idle: Outcome = { ...OUTCOME, results: OUTCOME.results.map((r, i) => (i === 2 ? { ...r, played: false } : r)) }
    expect(resultRows(idle, null).map((r) => [r.seat, r.played])).toEqual([[1, true], [0, true], [2, false]])
  })

  it('A/B/C rows by place', () => {
    const abc: Outcome = { ...OUTCOME, reason: 'last_standing', clear: null, extra: { mode: 'C', rounds: 8 },
      results: OUTCOME.results.map((r, i) => ({ ...r, place: [3, 1, 2][i] })) }
    expect(resultRows(abc, null).map((r) => r.place)).toEqual([1, 2, 3])
  })

  it('takes the end\'s seal and sentence from the server (宫斗杀 out of rounds: 「闯关失败」), an older result its reason\'s name', () => {
    const limit = { reason: 'limit', extra: { mode: 'D' as const, rounds: 20, stage: 1, cleared: false, verdict: '闯关失败', ending: '20 回合已满，对手仍未倒下，闯关失败' } }
    expect(verdictOf(limit)).toEqual({ seal: '闯关失败', sentence: '20 回合已满，对手仍未倒下，闯关失败' })
    expect(verdictOf({ reason: 'limit', extra: { mode: 'D', rounds: 20, stage: 1, cleared: false } })).toEqual({ seal: '回合已满', sentence: null })
    expect(verdictOf({ reason: 'wipe', extra: { mode: 'D', rounds: 7 } }).seal).toBe('全军覆没')
  })

  it('a clear unlocks the next stage once my 妃子 has it cleared; never past the last', () => {
    expect(unlockedStage(1, true, [1])).toBe(2)
    expect(unlockedStage(1, true, [])).toBeNull()
    expect(unlockedStage(1, false, [1])).toBeNull()
    expect(unlockedStage(3, true, [1, 2, 3])).toBeNull()
  })

  it('writes every figure as players write numbers, as the server\'s score lines do: no trailing zeros, a loss with the minus sign', () => {
    expect([89, 8.6, 30.16, 0, -0.6, -0.001, 12.345, 100, 0.1].map(points)).toEqual(['89', '8.6', '30.16', '0', '−0.6', '0', '12.35', '100', '0.1'])
  })

  it('lists the server\'s score lines in the table\'s order (each names its seat), lines of no seat after', () => {
    const rows = resultRows(OUTCOME, 2)  // by score: seats 1, 0, 2
    const score = (seat: number | null, text: string): Line => ({ round: 5, scope: 'public', kind: 'score', text, seat })
    const lines = [score(0, 'a0'), score(null, 'x'), score(1, 'a1'), score(2, 'a2')]
    expect(rows.map((r) => r.seat)).toEqual([1, 0, 2])
    expect(notesInTableOrder(lines, rows)).toEqual(['a1', 'a0', 'a2', 'x'])
  })

  it('finds this room on the fastest-clear board', () => {
    const rows: ClearRow[] = [
      { rank: 1, rounds: 4, ended_ms: 1, room: 'r1', team: [] },
      { rank: 2, rounds: 5, ended_ms: 2, room: 'r2', team: [] },
    ]
    expect(fastestRow(rows, 'r2')?.rank).toBe(2)
    expect(fastestRow(rows, 'r3')).toBeUndefined()
  })
})

describe('names on tokens and pips', () => {
  it('keep three characters of the name, a bot\'s without its 「（机器人）」', () => {
    expect(tokenName('柳答应（机器人）')).toBe('柳答应')
    expect(tokenName('瓜尔佳文鸳')).toBe('瓜尔佳')
    expect(tokenName('甄嬛')).toBe('甄嬛')
    expect(tokenName('（机器人）先生')).toBe('（机器')  // only a trailing mark is a bot's
  })
})

describe('the end says who came first, and where I came', () => {
  const row = (seat: number, name: string, place: number | null, mine = false) => ({
    seat, name, place, score: 0, won: place === 1, kills: 0, damage: 0, taken: 0, clearBonus: null, survived: null, mine, played: true,
  })
  it('names the one left standing and my own place (the seal alone read as my win)', () => {
    const rows = [row(3, '柳答应（机器人）', 1), row(0, '甄嬛', 7, true), row(1, '沈眉庄', 2)]
    expect(placeLine(rows, 'last_standing')).toBe('柳答应（机器人） 独占鳌头 · 你位列第 7')
    expect(placeLine(rows.map((r) => ({ ...r, mine: false })), 'limit')).toBe('柳答应（机器人） 位列第一')
  })
  it('names every first place when they share it; says nothing without places (宫斗杀)', () => {
    expect(placeLine([row(0, '甄嬛', 1, true), row(1, '沈眉庄', 1)], 'limit')).toBe('你与沈眉庄并列第一')
    expect(placeLine([row(0, '甄嬛', 1), row(1, '沈眉庄', 1), row(2, '安陵容', 3, true)], 'limit')).toBe('甄嬛、沈眉庄 并列第一 · 你位列第 3')
    expect(placeLine([row(0, '甄嬛', 1, true), row(1, '沈眉庄', 2)], 'last_standing')).toBe('你独占鳌头')
    expect(placeLine([row(0, '甄嬛', null, true)], 'clear')).toBeNull()
  })
})

describe('催战', () => {
  const round = (submitted: number[]) => ({ kind: 'sealed', seats: [0, 1, 2, 3], submitted })
  it('is offered once someone has sealed and someone has not, to the one who may press it', () => {
    expect(hurryOffered(true, 0, round([0, 2]))).toBe(true)
    expect(hurryOffered(true, null, round([1]))).toBe(true)  // the 司礼 hosting (no seat)
    expect(hurryOffered(true, 0, round([]))).toBe(false)
    expect(hurryOffered(true, 0, round([0, 1, 2, 3]))).toBe(false)
    expect(hurryOffered(false, 0, round([0, 2]))).toBe(false)
    expect(hurryOffered(true, 0, { kind: 'turn', seats: [0], submitted: null })).toBe(false)
  })
  it('is not offered while her own move is missing: she would hurry herself, so she moves instead', () => {
    expect(hurryOffered(true, 3, round([0, 1, 2]))).toBe(false)
    expect(hurryOffered(true, 3, round([0]))).toBe(false)
  })
})

describe('the recap of the round just settled, on 宫图', () => {
  it('is the last round\'s lines about her (hers first), three at most, and counts what it leaves to 战报', () => {
    const reports = [report(1, [line('own', 'old')]), report(2, [line('anonymous', 'n1'), line('about_you', '有人下毒，你气血 −1.9'),
      line('own', '你在永寿宫诬告'), line('about_you', 'y2'), line('about_you', 'y3'), line('public', 'p')]), report(3, [])]
    const recap = recapOf(reports)
    expect(recap?.label).toBe('第2回合')
    expect(recap?.lines.map((l) => l.text)).toEqual(['你在永寿宫诬告', '有人下毒，你气血 −1.9', 'y2'])
    expect(recap?.more).toBe(3)  // y3, n1 and p are in 战报
  })
  it('never folds her heavy lines away (blows taken or dealt, her 击败, her fall) and says how many folded lines are about her', () => {
    const l = (x: Partial<Line> & Pick<Line, 'scope' | 'text'>): Line => ({ round: 2, kind: 'action', ...x })
    const lines: Line[] = [
      l({ scope: 'own', kind: 'cards', text: '你打出：进攻位「袖里藏针」Lv.1' }),
      l({ scope: 'own', kind: 'passive', text: '你身处御膳房；养生/待机者 0 人受损', count: 0 }),
      l({ scope: 'own', text: '你在永寿宫养生', action: 'heal', result: 'done' }),
      l({ scope: 'own', text: '你在永寿宫对景仁宫下毒：命中，夏荷 气血 −2', action: 'poison', result: 'hit' }),
      l({ scope: 'about_you', kind: 'hit', text: '有人暗杀，你气血 −3', hp: -3 }),
      l({ scope: 'about_you', kind: 'hit', text: '有人下毒，你无损（挡下 气血 1）', hp: 0 }),
      l({ scope: 'anonymous', text: '有人诬告，未中' }),
      l({ scope: 'public', kind: 'tally', text: '你：气血 5 → 0，倒下', seat: 3, hp: -5 }),
      l({ scope: 'public', kind: 'fell', text: '你出局（气血耗尽），名列第 8', seat: 3, placement: 8 }),
      l({ scope: 'own', kind: 'kill', text: '你击败了夏荷', seat: 3 }),
      l({ scope: 'public', kind: 'fell', text: '夏荷出局（气血耗尽），名列第 7', seat: 1, placement: 7 }),
    ]
    const recap = recapOf([report(2, lines)], 3)
    expect(recap?.lines.map((x) => x.text)).toEqual([
      '你在永寿宫对景仁宫下毒：命中，夏荷 气血 −2', '你击败了夏荷', '有人暗杀，你气血 −3', '你出局（气血耗尽），名列第 8',
    ])
    expect(recap?.more).toBe(7)
    expect(recap?.moreMine).toBe(5)  // cards, passive, heal, the blow she stood off, her bars
    expect(recap && foldText(recap)).toBe('另有 7 条（5 条与你有关）')
    expect(foldText({ more: 3, moreMine: 0 })).toBe('另有 3 条')
    expect(foldText({ more: 0, moreMine: 0 })).toBeNull()
  })
  it('fills up to three lines with her light ones when no heavy line takes the room', () => {
    const recap = recapOf([report(2, [line('own', 'a'), line('own', 'b'), line('about_you', 'c'), line('own', 'd', 'cards')])], 0)
    expect(recap?.lines.map((x) => x.text)).toEqual(['a', 'b', 'd'])
    expect(recap && foldText(recap)).toBe('另有 1 条（1 条与你有关）')
  })
  it('is nothing when the round did not touch her, or none has settled', () => {
    expect(recapOf([report(1, [line('anonymous', 'n'), line('public', 'p')])])).toBeNull()
    expect(recapOf([report(0, [])])).toBeNull()
  })
})

describe('开战', () => {
  it('takes the page back to its top when the room turns from waiting to playing, and only then', () => {
    expect(battleBegan('open', 'active')).toBe(true)
    expect(battleBegan(undefined, 'active')).toBe(false)  // opened on a game under way: stays put
    expect(battleBegan('active', 'active')).toBe(false)
    expect(battleBegan('active', 'finished')).toBe(false)
    expect(battleBegan('open', 'open')).toBe(false)
  })
})

describe('the map says why a tile is shut, and 玩法B her 宫女 say what they do', () => {
  const move: Option = { type: 'move', label: '移动', allowed: true, places: ['乾清宫'],
    shut: [{ place: '御膳房', reason: '御膳房 须好感≥6方可进入（你的好感 5）', short: '好感 5＜6' },
      { place: '摘星楼', reason: '摘星楼 须气血≥6方可进入（你的气血 4）' }] }
  it('a shut tile carries the server\'s few words (its full refusal when it has none); an open tile nothing', () => {
    expect(shutNote('御膳房', 'shut', move)).toBe('好感 5＜6')
    expect(shutNote('摘星楼', 'shut', move)).toBe('摘星楼 须气血≥6方可进入（你的气血 4）')
    expect(shutNote('乾清宫', 'open', move)).toBeNull()
    expect(shutNote('乾清宫', 'shut', ABC_OPTIONS[0])).toBe('非下毒目标')
    expect(shutNote('乾清宫', 'plain', undefined)).toBeNull()
  })
  it('her passive 宫女 as effect lines at her level', () => {
    expect(maidLines([{ skill: '寻医问药', level: 3, text: '下毒命中 +10%/级', text_now: '下毒命中 +30%' },
      { skill: '贴身护卫', level: 1, text: '所受气血伤害 −0.2/级' }])).toEqual(['寻医问药 Lv.3：下毒命中 +30%', '贴身护卫 Lv.1：所受气血伤害 −0.2/级'])
  })
})

describe('gameTabs', () => {
  const keys = (t: { key: string }[]) => t.map((x) => x.key)
  it('a lady in play has her 手牌 with how many she holds', () => {
    expect(gameTabs(false, 5, true)).toEqual([{ key: 'map', label: '宫图' }, { key: 'hand', label: '手牌 5' }, { key: 'report', label: '战报' }])
  })
  it('a fallen lady has no 手牌 tab: nothing is left for her to play (the view still carries her cards)', () => {
    expect(keys(gameTabs(false, 5, false))).toEqual(['map', 'report'])
  })
  it('no hand in the mode (A/B) or a spectator: no 手牌; over: 结果 first and no 手牌', () => {
    expect(keys(gameTabs(false, null, true))).toEqual(['map', 'report'])
    expect(keys(gameTabs(true, 3, true))).toEqual(['result', 'map', 'report'])
  })
})

describe('scoreName', () => {
  it('names her row with 「（我）」 and puts 未出手 apart, never two brackets side by side', () => {
    expect(scoreName({ name: '甄嬛', mine: true, played: false })).toEqual({ name: '甄嬛（我）', note: '未出手' })
    expect(scoreName({ name: '叶澜依', mine: false, played: true })).toEqual({ name: '叶澜依', note: null })
  })
})
