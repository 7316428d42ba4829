import { describe, expect, it } from 'vitest'
import { countLine, lineOf, type MyRoom } from './myGames'

const room = (game: MyRoom['game'], status: 'open' | 'active', seat: number | null, seat_count = 1, max_seats = 5) =>
  ({ game, status, seat, seat_count, max_seats })

describe('「我的对局」 lines', () => {
  it('names her seat, or her part in running the game in that game\'s word: 说书人 in 血染', () => {
    expect(lineOf(room('zhenhuan', 'active', null, 7))).toBe('说书人 · 对局中')
    expect(lineOf(room('shengong_d', 'active', null, 3))).toBe('司礼 · 对局中')
    expect(lineOf(room('baohuang', 'active', 2))).toBe('第 3 席 · 对局中')
    expect(lineOf(room('baohuang', 'open', 0, 2))).toBe('第 1 席 · 候场 · 2/5 席')
    expect(lineOf(room('zhenhuan', 'open', 0, 6, 20))).toBe('1号座 · 候场 · 6/20 席')  // as its room page says
  })
})

describe('「我的对局」 count', () => {
  it('says how many games wait on her, and only when some do', () => {
    expect(countLine([{ my_turn: false }, { my_turn: false }])).toBe('2 局')
    expect(countLine([{ my_turn: true }, { my_turn: false }, { my_turn: true }])).toBe('3 局 · 2 局轮到你')
  })
})
