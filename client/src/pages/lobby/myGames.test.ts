import { describe, expect, it } from 'vitest'
import { lineOf } from './myGames'

const room = (game: string, status: string, seats: { seat: number; is_me: boolean }[], max_seats = 5) => ({ room: { game, status, seats, max_seats } })

describe('「我的对局」 lines', () => {
  it('names her seat, or her part in running the game in that game\'s word: 说书人 in 血染', () => {
    expect(lineOf(room('zhenhuan', 'active', [{ seat: 0, is_me: false }]))).toBe('说书人 · 对局中')
    expect(lineOf(room('shengong_d', 'active', []))).toBe('司礼 · 对局中')
    expect(lineOf(room('baohuang', 'active', [{ seat: 2, is_me: true }]))).toBe('第 3 席 · 对局中')
    expect(lineOf(room('baohuang', 'open', [{ seat: 0, is_me: true }, { seat: 1, is_me: false }]))).toBe('第 1 席 · 候场 · 2/5 席')
  })
})
