import { describe, expect, it } from 'vitest'
import { boardTitle } from '../../lib/labels'
import { boardFamilies, hasFastestClears } from './families'

describe('the boards page', () => {
  it('calls the board of modes A and B 「竞技·宫女局」, its chip 「竞技·宫女」, with or without the API\'s list', () => {
    expect(boardTitle('melee-free')).toBe('竞技·宫女局 · 自由赛')
    expect(boardTitle('melee-tournament')).toBe('竞技·宫女局 · 锦标赛')
    expect(boardFamilies(undefined).find((f) => f.key === 'melee')?.short).toBe('竞技·宫女')
    const listed = boardFamilies([{ board: 'melee-free', family: 'melee', competition: 'free', subject: 'consort' }])
    expect(listed).toEqual([{ key: 'melee', short: '竞技·宫女', kinds: ['free'] }])
  })
  it('shows 闯关最速 on the 宫斗杀 board alone: A/B/C have no stages to clear', () => {
    expect(hasFastestClears('coop')).toBe(true)
    for (const family of ['melee', 'cards', 'baohuang']) expect(hasFastestClears(family)).toBe(false)
  })
})
