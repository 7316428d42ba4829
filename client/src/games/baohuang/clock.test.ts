import { describe, expect, it } from 'vitest'
import { autoNextText, clockOffset, clockText, remainingMs, secondsLeft } from './clock'

describe('countdown from the server clock', () => {
  it('counts from deadline − server_time, whatever the phone\'s clock says', () => {
    const serverTime = 1_800_000_000_000
    const deadline = serverTime + 30_000
    // the phone is 7 minutes behind: the view arrives at its local 12:00:00
    const receivedAt = serverTime - 7 * 60_000
    const offset = clockOffset(serverTime, receivedAt)
    expect(remainingMs(deadline, offset, receivedAt)).toBe(30_000)
    expect(remainingMs(deadline, offset, receivedAt + 12_500)).toBe(17_500)
    // and never below zero once the deadline has passed
    expect(remainingMs(deadline, offset, receivedAt + 45_000)).toBe(0)
  })

  it('a phone ahead of the server counts the same', () => {
    const serverTime = 5_000
    const offset = clockOffset(serverTime, 905_000)
    expect(remainingMs(15_000, offset, 905_000)).toBe(10_000)
    expect(remainingMs(15_000, offset, 909_000)).toBe(6_000)
  })

  it('shows whole seconds rounded up and m:ss', () => {
    expect(secondsLeft(9_200)).toBe(10)
    expect(secondsLeft(0)).toBe(0)
    expect(clockText(9_200)).toBe('0:10')
    expect(clockText(65_000)).toBe('1:05')
  })

  it('says between deals when the next one starts by itself', () => {
    expect(autoNextText(14_200)).toBe('15 秒后自动继续下一局')
    expect(autoNextText(0)).toBe('即将开始下一局')
  })
})
