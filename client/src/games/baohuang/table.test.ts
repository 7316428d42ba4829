import { describe, expect, it } from 'vitest'
import { dealVerdict, EXIT_SHEET, exitText, freshWords, hintLine, jiefeng, lastDealLine, myDecision, logLine, outLine, partnersBesides, placeOf, scoreRows, seatBadges, signed, tableLead, takeLabel, waitingText, type BaohuangView, type Outcome, type SeatView } from './table'

function seat(s: number, extra: Partial<SeatView> = {}): SeatView {
  return { seat: s, name: `玩家${s}`, cards: 10, total: 0, wins: 0, auto: false, ready: false, ...extra }
}

function view(extra: Partial<BaohuangView> = {}): BaohuangView {
  return {
    viewer: 'player', seat: 2, variant: 'simple', baoliu: false, turn_seconds: 30, phase: 'play', deal_no: 1,
    seats: [0, 1, 2, 3, 4].map((s) => seat(s)), ...extra,
  }
}

describe('保皇 table layout', () => {
  it('puts me at the bottom and the others counter-clockwise: 下家 right, then top, 上家 left', () => {
    expect(placeOf(2, 2)).toBe('bottom')
    expect(placeOf(3, 2)).toBe('right')
    expect(placeOf(4, 2)).toBe('top-right')
    expect(placeOf(0, 2)).toBe('top-left')
    expect(placeOf(1, 2)).toBe('left')
    // a spectator has no bar of her own: seat 0 sits at the felt's foot, all five placed around it
    expect(placeOf(0, null)).toBe('foot')
    expect([1, 2, 3, 4].map((s) => placeOf(s, null))).toEqual(['right', 'top-right', 'top-left', 'left'])
    expect(placeOf(0, undefined)).toBe('foot')
  })

  it('marks a seat: emperor (and her solo), guard, the hoe, place, 托管, 机器人', () => {
    const v = view({ solo: 'open' })
    expect(seatBadges(seat(0, { emperor: true }), v, new Set())).toEqual(['皇帝·明独保'])
    expect(seatBadges(seat(1, { guard: true }), view({ open_guard: true }), new Set())).toEqual(['侍卫·明保'])
    expect(seatBadges(seat(3, { rebel: true, place: 1, auto: true }), v, new Set([3]))).toEqual(['锄', '头游', '托管', '机器人'])
  })

  it('names who leads the table\'s totals at its end (the last deal\'s verdict says only that deal)', () => {
    const totals = (t: number[]) => view({ phase: 'over', seats: t.map((total, s) => seat(s, { total, name: s === 1 ? '冬梅（机器人）' : `玩家${s}` })) })
    expect(tableLead(totals([-4, 15, -3, -8, 0]))).toBe('本桌累计：冬梅 +15 居首')
    expect(tableLead(totals([6, 0, 6, -6, -6]))).toBe('本桌累计：玩家0、你 +6 并列居首')
  })

  it('names partners besides the emperor her role line has named already', () => {
    expect(partnersBesides(view({ my_role: 'guard', emperor: 1, partners: [1] }))).toEqual([])
    expect(partnersBesides(view({ my_role: 'commoner', emperor: 1, partners: [0, 4] }))).toEqual([0, 4])
    expect(partnersBesides(view({ my_role: 'emperor', emperor: 2, partners: [3] }))).toEqual([3])
  })

  it('says whose turn it is', () => {
    expect(waitingText(view({ turn: 2 }), [2])).toBe('轮到你出牌')
    expect(waitingText(view({ turn: 4 }), [4])).toBe('轮到玩家4出牌')
    expect(waitingText(view({ phase: 'between' }), [0, 2])).toBe('等待 玩家0、你 继续')
  })

  it('shows 接风 when the trick winner has gone out and the next seat leads', () => {
    const seats = [0, 1, 2, 3, 4].map((s) => seat(s, { cards: s === 1 ? 0 : 8 }))
    const last_trick = { seat: 1, cards: ['S9#1'], passes: 0 }  // the server's: 1 played 9, the others passed
    expect(jiefeng(view({ seats, last_trick, trick: null, turn: 2 }))).toEqual({ from: 1, to: 2 })
    // the winner still has cards: she leads herself, no 接风
    const seats2 = seats.map((s) => ({ ...s, cards: 8 }))
    expect(jiefeng(view({ seats: seats2, last_trick, trick: null, turn: 1 }))).toBeNull()
    // a trick on the table: nothing
    expect(jiefeng(view({ seats, last_trick, trick: { seat: 1, cards: ['S9#1'], passes: 1 }, turn: 2 }))).toBeNull()
  })

  it('writes the public log in Chinese', () => {
    const names = ['甄嬛', '华妃', '皇后', '眉庄', '陵容']
    expect(logLine({ seat: 0, act: 'take', note: 'HA' }, names)).toBe('甄嬛登基，叫♥A')
    expect(logLine({ seat: 0, act: 'take', note: 'open_solo' }, names)).toBe('甄嬛登基，明独保')
    expect(logLine({ seat: 1, act: 'play', cards: ['S7#1', 'H7#1'], auto: true }, names)).toBe('华妃出 ♠7 ♥7（托管）')
    expect(logLine({ seat: 2, act: 'pass' }, names)).toBe('皇后不出')
    expect(logLine({ seat: 3, act: 'rebel' }, names)).toBe('眉庄造反')
  })

  it('builds the score table from the API result, in seat order with totals', () => {
    const outcome = {
      unit: 'deal-2', reason: 'finished',
      results: [0, 1, 2, 3, 4].map((s) => ({ seat: s, name: `玩家${s}`, consort: null, place: s + 1, score: [4, 2, -2, -2, -2][s], won: s < 2, stats: {} })),
      extra: {
        variant: 'classic', baoliu: false, emperor: 0, guard: 1, solo: 'none', called: 'HA', open_guard: true, rebels: [3],
        grabbed: false, multiplier: 2, places: [0, 1, 2, 3, 4], totals: [10, 3, -5, -4, -4], left_seat: null, penalty: 0,
        replay: {} as never,
      },
    } as unknown as Outcome
    const rows = scoreRows(outcome)
    expect(rows.map((r) => [r.name, r.place, r.score, r.total])).toEqual([
      ['玩家0', 1, 4, 10], ['玩家1', 2, 2, 3], ['玩家2', 3, -2, -5], ['玩家3', 4, -2, -4], ['玩家4', 5, -2, -4],
    ])
    expect(rows[0].role).toBe('皇帝')
    expect(rows[1].role).toBe('侍卫·明保')
    expect(rows[3].role).toBe('锄')
    // over the next deal's table: the verdict, her score, the replay a tap away
    expect(lastDealLine({ ...outcome, extra: { ...outcome.extra, winner: 'emperor' } } as Outcome, 2)).toBe('第2局 皇帝方胜×2 · 你 −2 · 复盘 ›')
    expect(lastDealLine({ ...outcome, extra: { ...outcome.extra, winner: 'emperor' } } as Outcome, null)).toBe('第2局 皇帝方胜×2 · 复盘 ›')
    expect(signed(4)).toBe('+4')
    expect(signed(-30)).toBe('−30')
    expect(signed(0)).toBe('0')
  })

  it('heads the score table with who won the deal and its multiplier', () => {
    const deal = (scores: number[], extra: Record<string, unknown> = {}, reason = 'finished') => ({
      unit: 'deal-1', reason,
      results: scores.map((score, s) => ({ seat: s, name: `玩家${s}`, consort: null, place: s + 1, score, won: score > 0, stats: {} })),
      extra: { variant: 'simple', emperor: 0, guard: 1, solo: 'none', rebels: [], multiplier: 1, totals: scores, winner: null, ...extra },
    }) as unknown as Outcome
    // the server's word, whatever the scores seem to say
    expect(dealVerdict(deal([-4, -2, 2, 2, 2], { multiplier: 2, winner: 'emperor' }))).toEqual({ text: '皇帝方胜', side: 'emperor', times: '×2' })
    // the server says why the score was doubled
    expect(dealVerdict(deal([-24, 12, -12, 12, 12], { multiplier: 4, winner: 'rebels', rebels: [3], doubled: ['明保', '造反成功'] })).times)
      .toBe('×4 明保·造反成功')
    expect(dealVerdict(deal([4, 2, -2, -2, -2], { winner: 'rebels', rebels: [2] }))).toEqual({ text: '造反方胜', side: 'rebels', times: '' })
    // nobody declared 造反: the three won as 平民
    expect(dealVerdict(deal([4, 2, -2, -2, -2], { winner: 'rebels', rebels: [] }))).toEqual({ text: '平民方胜', side: 'rebels', times: '' })
    expect(dealVerdict(deal([0, 0, 0, 0, 0], { multiplier: 2, winner: 'draw' }))).toEqual({ text: '平局', side: 'draw', times: '×2' })
    expect(dealVerdict(deal([-30, 0, 0, 0, 0], { multiplier: 4 }, 'kicked'))).toEqual({ text: '有人被请出 · 不计胜负', side: 'void', times: '' })
    expect(dealVerdict(deal([-30, 0, 0, 0, 0], { multiplier: 4 }, 'quit'))).toEqual({ text: '有人强退 · 不计胜负', side: 'void', times: '' })
  })
})

describe('保皇 getting up from the table', () => {
  it('离桌 and 退出 each ask first, saying the table ends for all five (退出 with its −30)', () => {
    expect(EXIT_SHEET.leave.title).toBe('离桌')
    expect(EXIT_SHEET.leave.text).toContain('本桌即散')
    expect(EXIT_SHEET.leave.text).toContain('五人')
    expect(EXIT_SHEET.leave.text).toContain('不扣分')
    expect(EXIT_SHEET.quit.text).toContain('−30')
    expect(EXIT_SHEET.quit.text).toContain('本桌随即结束')
  })

  it('in a 练习局 退出 says its −30 counts at this table only, on no board (platform P1)', () => {
    expect(exitText('quit', false)).toBe(EXIT_SHEET.quit.text)
    expect(exitText('quit', true)).toMatch(/本桌比分记你 −30[\s\S]*练习局，不计入任何榜单与战绩/)
    expect(exitText('leave', true)).toBe(EXIT_SHEET.leave.text)
  })
})

describe('保皇 words said since last seen', () => {
  const said = (seat: number, act: string, cards: string[] = []) => ({ seat, act, cards }) as never
  it('orders the others\' plays and 不出 as they were said; hers and the throne\'s words are not bubbles', () => {
    const order = freshWords([said(2, 'play', ['S9']), said(3, 'play', ['HA']), said(4, 'pass'), said(0, 'pass'),
      said(1, 'take')], 2)
    expect([...order.entries()]).toEqual([[3, 0], [4, 1], [0, 2]])
  })
  it('a seat that spoke twice comes up at its later word', () => {
    const order = freshWords([said(3, 'play', ['H9']), said(4, 'pass'), said(3, 'play', ['S2'])], 0)
    expect(order.get(3)).toBe(2)
    expect(order.get(4)).toBe(1)
  })

  it('says how many plays she has and, when the list of hints is capped, that 提示 goes round the cheapest 50', () => {
    expect(hintLine(0, 0, -1)).toBe('')
    expect(hintLine(11, 11, -1)).toBe('可出 11 种')
    expect(hintLine(11, 11, 1)).toBe('可出 11 种，提示第 2 种')
    expect(hintLine(278, 50, -1)).toBe('可出 278 种；「提示」由小到大轮换其中 50 种')
    expect(hintLine(278, 50, 49)).toBe('可出 278 种，提示第 50/50 种（由小到大）')
  })

  it('says I have gone out, and in 托管 does not promise plays of an empty hand', () => {
    expect(outLine(seat(2))).toBe('')
    expect(outLine(seat(2, { cards: 0, place: 1 }))).toBe('你已出完，头游 · 等其他人打完')
    expect(outLine(seat(2, { cards: 0, place: 2, auto: true }))).toBe('已托管 · 你已出完，二游')
  })

  it('names the 登基 button by the call, and says why it is grey when the server offers nothing to call', () => {
    expect(takeLabel('simple', undefined, 0)).toBe('登基')
    expect(takeLabel('classic', 'HJ', 2)).toBe('登基 · 叫♥J')
    expect(takeLabel('classic', undefined, 2)).toBe('登基（先叫牌）')
    expect(takeLabel('classic', undefined, 0)).toBe('登基（无牌可叫）')
  })
})

describe('保皇 a choice that waits on me', () => {
  it('is the throne offered to me, or my declaration not yet sealed (not the emperor\'s, not in 托管)', () => {
    // I sit at seat 2
    expect(myDecision(view({ phase: 'throne', candidate: 2 }), null)).toBe('throne')
    expect(myDecision(view({ phase: 'throne', candidate: 1 }), null)).toBe(null)
    const declaring = { seats: [0, 1, 2, 3] }
    expect(myDecision(view({ phase: 'declare', emperor: 4 }), declaring)).toBe('declare')
    expect(myDecision(view({ phase: 'declare', emperor: 4 }), { ...declaring, my_move: { type: 'stay_hidden' } })).toBe(null)
    expect(myDecision(view({ phase: 'declare', emperor: 2 }), { seats: [0, 1, 3, 4] })).toBe(null)
    const auto = view({ phase: 'declare', emperor: 4 })
    auto.seats[2] = { ...auto.seats[2], auto: true }
    expect(myDecision(auto, declaring)).toBe(null)
    expect(myDecision(view({ phase: 'play', turn: 2 }), declaring)).toBe(null)
    expect(myDecision(view({ phase: 'throne', candidate: 2, seat: null }), null)).toBe(null)
  })
})
