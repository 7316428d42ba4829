import { describe, expect, it } from 'vitest'
import { nextPlayIndex, replayFrame } from './replay'
import type { DealRecord } from './table'

const record = {
  no: 1, variant: 'simple', baoliu: false, dealer: 0, holder: 0,
  dealt: [['BJ#1', 'S7#1'], ['H8#1', 'S9#2'], ['C9#1'], ['D6#1'], ['LJ#1']],
  log: [
    { seat: 0, act: 'take' },
    { seat: 0, act: 'play', cards: ['S7#1'] },
    { seat: 1, act: 'play', cards: ['H8#1'] },
    { seat: 2, act: 'pass' },
    { seat: 3, act: 'pass' },
    { seat: 4, act: 'play', cards: ['LJ#1'] },
  ],
  emperor: 0, guard: 4, solo: 'none', called: null, open_guard: false, rebels: [], grabbed: false,
  places: [4, 0, 1, 2, 3], scores: [0, 0, 0, 0, 0], multiplier: 1, reason: 'finished', left: [[], [], [], [], []],
} as unknown as DealRecord
const names = ['甲', '乙', '丙', '丁', '戊']

describe('牌局回放', () => {
  it('starts from the hands as dealt and removes each play as it is stepped through', () => {
    const f0 = replayFrame(record, 0, names)
    expect(f0.line).toBe('第1局发牌')
    expect(f0.hands[0]).toEqual(['BJ#1', 'S7#1'])
    const f2 = replayFrame(record, 2, names)
    expect(f2.line).toBe('甲出 ♠7')
    expect(f2.hands[0]).toEqual(['BJ#1'])
    expect(f2.lastPlay).toEqual({ seat: 0, cards: ['S7#1'] })
    const f6 = replayFrame(record, 99, names)
    expect(f6.index).toBe(6)
    expect(f6.line).toBe('戊出 小王')
    expect(f6.hands[4]).toEqual([])
  })

  it('shows the cards on the table while the trick is played, not after a 强退', () => {
    const quit = { ...record, log: [...record.log, { seat: 1, act: 'quit' }] } as unknown as DealRecord
    expect(replayFrame(quit, 5, names).lastPlay).toEqual({ seat: 1, cards: ['H8#1'] })  // 丁 passed: 乙's on the table
    expect(replayFrame(quit, 7, names).lastPlay).toBeNull()
  })

  it('jumps to the next play, skipping passes', () => {
    expect(nextPlayIndex(record, 0)).toBe(2)
    expect(nextPlayIndex(record, 3)).toBe(6)
    expect(nextPlayIndex(record, 6)).toBe(6)
  })
})
