import { describe, expect, it } from 'vitest'
import { blurbOf, seatsText } from './gameText'

describe('a game plaque', () => {
  it('says what the server says of the mode: open, sealed, or sealed for players but open to the 司礼', () => {
    expect(blurbOf({ key: 'shengong_b', open: true, can_open: true, locked_reason: null })).toBe('八人暗斗，宫女相助')
    expect(blurbOf({ key: 'shengong_b', open: false, can_open: false, locked_reason: '敬请期待' })).toBe('敬请期待')
    expect(blurbOf({ key: 'shengong_b', open: false, can_open: true, locked_reason: '敬请期待' })).toBe('未对玩家开放 · 司礼可开锦标赛')
  })

  it('counts seats as a range only when they differ', () => {
    expect(seatsText({ min_seats: 5, max_seats: 5 })).toBe('5 人')
    expect(seatsText({ min_seats: 5, max_seats: 20 })).toBe('5–20 人')
  })
})
