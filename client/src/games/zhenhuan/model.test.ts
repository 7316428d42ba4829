import { describe, expect, it } from 'vitest'
import {
  answerText, circlePosition, ghostVoteText, nightDeathsText, roleNamer, voteClockText, nightBegan, dawnText, handsRound, nominationState, slotWidth, stepsLeft, expiryText, nightPlan, phaseTitle, probeAction, reminderShort, statusText, storytellerButtons,
  tokenMarks,
  type Grimoire, type NightView, type StepView,
} from './model'

function step(key: string, state: StepView['state'], extra: Partial<StepView> = {}): StepView {
  return { key: key as StepView['key'], label: key, actor: null, state, ...extra }
}

describe('血染 night plan', () => {
  it('puts the current step on top, then the rest of the night in order (greyed ones where they fall), then passed, then done', () => {
    const night: NightView = {
      number: 2,
      steps: [
        step('chongfei', 'done'),
        step('anlingrong', 'done', { passed: true }),
        step('yelanyi', 'done', { passed: true, disabled: '已死亡' }),
        step('huafei', 'current'),
        step('huanghou', 'upcoming', { disabled: '皇上仍在世' }),
        step('huangshang', 'upcoming'),
        step('jinxi', 'upcoming'),
      ],
      current: step('huafei', 'current'),
      deaths: [], dusk_deaths: [],
      records: [
        { step: 'chongfei', actor: 2, note: '1号：按住' },
        { step: 'anlingrong', actor: 1, skipped: true },
        { step: 'yelanyi', actor: 3, disabled: '已死亡' },
      ],
    }
    const plan = nightPlan(night)
    expect(plan.map((r) => [r.step.key, r.kind, r.order])).toEqual([
      ['huafei', 'current', 4],
      ['huanghou', 'greyed', 5],
      ['huangshang', 'upcoming', 6],
      ['jinxi', 'upcoming', 7],
      ['anlingrong', 'passed', 2],
      ['yelanyi', 'passed', 3],
      ['chongfei', 'done', 1],
    ])
    expect(plan[1].note).toBe('皇上仍在世')
    expect(plan[4].note).toBe('已跳过')
    expect(plan[6].note).toBe('1号：按住')
    // 重开 only where it would wake someone: not on a step the server says is greyed now
    expect(plan.filter((r) => r.reopen).map((r) => r.step.key)).toEqual(['anlingrong'])
  })
})

describe('血染 words', () => {
  it('numbers seats from 1 and names phases', () => {
    expect(phaseTitle({ phase: 'night', number: 1 })).toBe('第1夜')
    expect(phaseTitle({ phase: 'day', number: 3 })).toBe('第3天')
    expect(phaseTitle({ phase: 'setup', number: 0 })).toBe('布置')
  })

  it('says a status with its source and its expiry', () => {
    expect(expiryText({ at: 'dusk', night: 2 })).toBe('入第2夜时')
    expect(expiryText({ at: 'dawn', night: 1 })).toBe('第1夜天亮时')
    expect(expiryText(null)).toBe('永久')
    const name = (r: string) => ({ anlingrong: '安陵容' }[r] ?? r)
    expect(statusText({ seat: 4, kind: 'poisoned', source: 'anlingrong', source_seat: 2, until: { at: 'dusk', night: 3 } }, name))
      .toBe('中毒 · 来自安陵容（3号） · 至入第3夜时')
    expect(statusText({ seat: 4, kind: 'drunk', source: null, until: { at: 'dawn', night: 2 } }, name)).toBe('醉酒 · 说书人 · 至第2夜天亮时')
  })

  it('writes answers of every kind', () => {
    const name = (r: string) => ({ jingfei: '敬妃' }[r] ?? r)
    expect(answerText(true, name)).toBe('是')
    expect(answerText(3, name)).toBe('3')
    expect(answerText([0, 4], name)).toBe('1号、5号')
    expect(answerText({ seat: 2, role: 'jingfei' }, name)).toBe('3号是敬妃')
    expect(answerText(null, name)).toBe('—')
  })

  it('says tonight\'s deaths with their causes, for her to read before 天亮 announces them without', () => {
    expect(nightDeathsText([
      { seat: 1, cause: 'curse', by: null }, { seat: 6, cause: 'demon', by: 0 }, { seat: 7, cause: 'sundaying', by: null },
    ])).toBe('2号（安陵容诅咒）、7号（恶魔击杀，1号）、8号（孙答应随狂徒）')
  })
  it('says the vote clock ran out instead of resting on 0:00', () => {
    expect(voteClockText(80_000)).toBe('1:20')
    expect(voteClockText(400)).toBe('0:01')
    expect(voteClockText(0)).toBe('时间到 · 计票中')
  })

  it('names a role from the catalogue, 「…」 while it loads, never its key', () => {
    const loading = roleNamer(undefined)
    expect(['qiguiren', 'jinxi'].map(loading).join('、')).toBe('…、…')
    const named = roleNamer([{ key: 'jinxi', name: '瑾汐姑姑' } as never])
    expect(named('jinxi')).toBe('瑾汐姑姑')
  })
})

describe('town square', () => {
  it('puts seat 1 at the top and goes clockwise, on a circle inside the square', () => {
    expect(circlePosition(0, 8)).toEqual({ left: 50, top: 12 })
    const right = circlePosition(2, 8)
    expect(right.left).toBeGreaterThan(85)
    expect(right.top).toBeCloseTo(50, 0)
    const bottom = circlePosition(4, 8)
    expect(bottom.left).toBeCloseTo(50, 0)
    expect(bottom.top).toBe(88)
    // a crowded square spreads wider (its slots are narrower), still inside the panel
    for (let i = 0; i < 20; i++) {
      const p = circlePosition(i, 20)
      expect(p.left).toBeGreaterThanOrEqual(8)
      expect(p.top).toBeLessThanOrEqual(92)
    }
    expect(circlePosition(3, 12).left).toBe(88)
    expect(circlePosition(4, 16).left).toBe(92)
  })
})

describe('a crowded square', () => {
  it('narrows each seat to the distance between neighbours, so two names never share the same width', () => {
    expect(slotWidth(12)).toBeNull()
    for (const n of [13, 15, 20]) {
      const a = circlePosition(Math.floor(n / 2), n)
      const b = circlePosition(Math.floor(n / 2) + 1, n)
      // the two seats at the bottom sit side by side: their slots (centred on them) must not overlap
      expect(slotWidth(n)!).toBeLessThan(Math.abs(a.left - b.left) + 0.2)
      expect(slotWidth(n)!).toBeGreaterThan(10)
    }
  })
})

describe('storyteller buttons', () => {
  it('takes the day buttons from the grimoire and asks the server why the others are greyed', () => {
    const g = {
      buttons: [
        { type: 'execute', by: null, label: '处决', disabled: '今日已处决', impaired: '' },
        { type: 'dusk', by: null, label: '入夜', disabled: null, impaired: '' },
        { type: 'accuse', by: 3, label: '祺贵人检举', disabled: null, impaired: '祺贵人中毒：检举不会生效' },
      ],
    } as unknown as Grimoire
    const buttons = storytellerButtons(g, { dawn: '现在是白天', kill: null, drunk: null })
    expect(buttons.map((b) => [b.key, b.disabled])).toEqual([
      ['dusk', null], ['dawn', '现在是白天'], ['kill', null], ['execute', '今日已处决'], ['drunk', null], ['accuse-3', null],
    ])
    expect(buttons[5].impaired).toContain('中毒')
    expect(probeAction('execute', 4)).toEqual({ type: 'execute', seat: 4 })
    expect(probeAction('dusk', 0)).toEqual({ type: 'dusk', execute_block: true })
  })
})

describe('血染 token marks', () => {
  const status = (kind: string, source: string) => ({ seat: 0, kind, source }) as never
  const reminder = (id: number, token: string, role: string | null, auto = true) => ({ id, seat: 0, token, role, auto }) as never
  it('drops a reminder that says what a status of the same role already says, and keeps the others', () => {
    const marks = tokenMarks({
      statuses: [status('protected', 'guojunwang'), status('marked', 'huafei')],
      reminders: [reminder(1, '受保护', 'guojunwang'), reminder(2, '一丈红', 'huafei'), reminder(3, '雨露均沾', 'huangshang'),
        reminder(4, '私聊', 'taishanghuang', false)],
    })
    expect(marks.statuses.map((s) => s.kind)).toEqual(['protected', 'marked'])
    expect(marks.reminders.map((r) => r.token)).toEqual(['雨露均沾', '私聊'])
    expect(marks.more).toBe(0)
  })
  it('shows four marks at most and counts the rest under +n', () => {
    const marks = tokenMarks({
      statuses: [status('poisoned', 'anlingrong'), status('pinned', 'chongfei'), status('drunk', 'dunqinwang')],
      reminders: [reminder(1, '绑定', 'yurao'), reminder(2, '染指', 'sanage'), reminder(3, '私聊', null, false)],
    })
    expect(marks.statuses.length + marks.reminders.length).toBe(4)
    expect(marks.more).toBe(2)
  })
  it('writes a token whole up to three characters, a long one short', () => {
    expect(['受保护', '私聊', '已被提名', '全场醉酒', '雨露均沾'].map(reminderShort)).toEqual(['受保护', '私聊', '已提名', '全醉', '雨露'])
  })
})

describe('血染 天亮 sheet', () => {
  it('names the steps that still wake someone, and says so when none is left (never 「还有 0 步未进行：。」)', () => {
    const night: NightView = {
      number: 2,
      steps: [step('huafei', 'done', { label: '华妃：选择一名玩家' }), step('jinxi', 'upcoming', { label: '瑾汐：查看' }),
        step('wentaiyi', 'upcoming', { label: '温太医', disabled: '温太医已死亡' })],
      current: null,
    } as unknown as NightView
    expect(stepsLeft(night)).toEqual(['瑾汐'])
    expect(dawnText(stepsLeft(night))).toBe('今夜还有 1 步未进行：瑾汐。天亮后这些步骤跳过，记入记录。')
    expect(dawnText([])).toBe('今夜的步骤都已进行完毕，可以天亮。')
  })
})

describe('血染 day', () => {
  it('lists the hands round the circle from the nominee\'s left, the nominee last, whatever order they came in', () => {
    const vote = { nominee: 4, seconds: 30, hands: [{ seat: 3, yes: true }, { seat: 6, yes: false }, { seat: 0, yes: true }], waiting: [5, 1, 2, 4] }
    expect(handsRound(vote as never, 7).map((h) => `${h.seat}${h.yes === null ? '?' : h.yes ? '+' : '-'}`))
      .toEqual(['5?', '6-', '0+', '1?', '2?', '3+', '4?'])
  })
  it('a nomination never counted says why once the day\'s execution is done (not 「待投票」 all day)', () => {
    expect(nominationState({ vote: null, executed: null }, 1)).toBe('待投票')
    expect(nominationState({ vote: { nominee: 1 } as never, executed: null }, 1)).toBe('投票中')
    expect(nominationState({ vote: null, executed: 6 }, 1)).toBe('未投票（今日已处决）')
  })
})

describe('入夜 on the storyteller\'s phone', () => {
  it('brings the night\'s first step into view when the phase turns to night, and only then', () => {
    expect(nightBegan('day', 'night')).toBe(true)
    expect(nightBegan('setup', 'night')).toBe(true)
    expect(nightBegan(undefined, 'night')).toBe(false)  // opened at night: stays put
    expect(nightBegan('night', 'night')).toBe(false)  // a step done: the next is where she looks
    expect(nightBegan('night', 'day')).toBe(false)
  })
})

describe('血染 a dead player\'s ghost vote', () => {
  it('says it is kept, being spent on the open vote once she raised her hand, or spent', () => {
    expect(ghostVoteText(true, undefined)).toMatch(/^你还留有一张幽灵票/)
    expect(ghostVoteText(true, { yes: false })).toMatch(/^你还留有一张幽灵票/)
    expect(ghostVoteText(true, { yes: true })).toMatch(/^你的幽灵票正用在这次投票上/)
    expect(ghostVoteText(false, undefined)).toMatch(/^你的幽灵票已经用掉/)
  })
})
