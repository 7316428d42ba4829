import { describe, expect, it } from 'vitest'
import {
  cardAt, cardLabel, compareCards, isSweep, copiesOf, faceLabel, handRows, handSummary, keepInHand, keptCall, markOf, nextHint, parseCard, playLabel,
  playShort, sameCards, sortHand, suitRuns, toggleCard,
} from './cards'

describe('保皇 cards', () => {
  it('reads the API codes: suit, rank, copy, jokers and the two marked cards', () => {
    expect(parseCard('S10#2')).toMatchObject({ suit: 'S', rank: '10', copy: 2, joker: false, mark: null })
    expect(parseCard('HA#1')).toMatchObject({ suit: 'H', rank: 'A', order: 14 })
    expect(parseCard('BJ#1')).toMatchObject({ suit: null, rank: 'BJ', joker: true, mark: '皇', order: 17 })
    expect(parseCard('LJ#1')).toMatchObject({ rank: 'LJ', mark: '卫', order: 16 })
    expect(parseCard('LJ#3').mark).toBeNull()
    // 'SJ' is ♠J, not a joker
    expect(parseCard('SJ#4')).toMatchObject({ suit: 'S', rank: 'J', joker: false })
  })

  it('labels cards and faces the way players read them', () => {
    expect(cardLabel('S7#2')).toBe('♠7')
    expect(cardLabel('D10#1')).toBe('♦10')
    expect(cardLabel('BJ#3')).toBe('大王')
    expect(cardLabel('LJ#2')).toBe('小王')
    expect(faceLabel('HA')).toBe('♥A')
    expect(playLabel(['H7#4', 'BJ#2', 'S7#1'])).toBe('大王 ♠7 ♥7')
  })

  it('sorts a hand strongest first: 大王, 小王, 2, A … 3, then ♠♥♣♦ and the copy', () => {
    const hand = ['D3#1', 'S2#1', 'LJ#2', 'HA#3', 'BJ#4', 'S3#2', 'CK#1', 'H3#1', 'S10#1', 'BJ#1', 'H2#2']
    expect(sortHand(hand)).toEqual(['BJ#1', 'BJ#4', 'LJ#2', 'S2#1', 'H2#2', 'HA#3', 'CK#1', 'S10#1', 'S3#2', 'H3#1', 'D3#1'])
    expect(compareCards('S6#1', 'S6#2')).toBeLessThan(0)
    expect(sortHand(hand)).toHaveLength(hand.length)
  })

  it('tapping selects and unselects, keeping hand order; played cards leave the selection', () => {
    const hand = ['S7#1', 'H7#2', 'BJ#1', 'C9#3']
    let sel = toggleCard([], 'S7#1', hand)
    sel = toggleCard(sel, 'BJ#1', hand)
    expect(sel).toEqual(['BJ#1', 'S7#1'])
    sel = toggleCard(sel, 'S7#1', hand)
    expect(sel).toEqual(['BJ#1'])
    expect(keepInHand(['BJ#1', 'H7#2'], ['H7#2', 'C9#3'])).toEqual(['H7#2'])
  })

  it('cycles through the server\'s hints, cheapest first, wrapping around', () => {
    const hints = [['S7#1'], ['S8#1'], ['BJ#1']]
    expect(nextHint(hints, -1)).toBe(0)
    expect(nextHint(hints, 0)).toBe(1)
    expect(nextHint(hints, 2)).toBe(0)
    expect(nextHint([], -1)).toBe(-1)
  })

  it('compares selections as sets, counts copies of a face, summarises a hand', () => {
    expect(sameCards(['A#1', 'B#1'], ['B#1', 'A#1'])).toBe(true)
    expect(sameCards(['A#1'], ['A#1', 'B#1'])).toBe(false)
    expect(copiesOf(['HA#1', 'HA#3', 'SA#1', 'HA#4'], 'HA')).toBe(3)
    expect(handSummary(['BJ#1', 'BJ#2', 'S7#1', 'H7#1', 'C7#2', 'D9#1'])).toBe('大王×2 9 7×3')
  })

  it('splits a 44-card hand into even rows for a phone', () => {
    const cards = Array.from({ length: 44 }, (_, i) => i)
    const rows = handRows(cards, 18)
    expect(rows.map((r) => r.length)).toEqual([15, 15, 14])
    expect(rows.flat()).toEqual(cards)
    expect(handRows(cards.slice(0, 18), 18)).toHaveLength(1)
    expect(handRows([], 18)).toEqual([])
  })

  it('keeps the chosen call (经典) only while this view offers it', () => {
    expect(keptCall('HA', ['HA', 'SK'])).toBe('HA')
    // last deal's ♥A, not callable in this one: dropped, the button asks for a call again
    expect(keptCall('HA', ['SK', 'DQ'])).toBe(undefined)
    expect(keptCall('HA', null)).toBe(undefined)
    expect(keptCall(undefined, ['HA'])).toBe(undefined)
  })
})

describe('the marks a card shows at the table', () => {
  const simple = { variant: 'simple', called: null }
  const classic = { variant: 'classic', called: 'S10' }
  it('皇 on the 皇牌 in both variants (seed: 牌中有一张大王标有权杖，当作"皇"牌)', () => {
    expect(markOf(parseCard('BJ#1'), simple)).toBe('皇')
    expect(markOf(parseCard('BJ#1'), classic)).toBe('皇')
    expect(markOf(parseCard('BJ#2'), classic)).toBeNull()
  })
  it('卫 on the 宝剑 小王 only in 简明 (seed, 简单玩法: 牌中有一张小王标有宝剑，当作"侍卫"牌)', () => {
    expect(markOf(parseCard('LJ#1'), simple)).toBe('卫')
    expect(markOf(parseCard('LJ#1'), classic)).toBeNull()
  })
  it('叫 on every copy of the called face in 经典 (seed: 由持第四张该花色点数牌的人作为自己的侍卫)', () => {
    expect(markOf(parseCard('S10#3'), classic)).toBe('叫')
    expect(markOf(parseCard('H10#3'), classic)).toBeNull()
    expect(markOf(parseCard('S10#3'), { variant: 'classic', called: null })).toBeNull()
  })
})

describe('sweeping a finger across the hand', () => {
  // three cards fanned 19 px apart (36 px wide), then a second row below
  const boxes = [
    { code: 'A', left: 0, right: 36, top: 0, bottom: 52 },
    { code: 'B', left: 19, right: 55, top: 0, bottom: 52 },
    { code: 'C', left: 38, right: 74, top: 0, bottom: 52 },
    { code: 'D', left: 0, right: 36, top: 58, bottom: 110 },
  ]
  it('finds the card on top under the finger (the later card covers the earlier)', () => {
    expect(cardAt(boxes, 5, 10)).toBe('A')
    expect(cardAt(boxes, 25, 10)).toBe('B')  // inside A's box too, but B lies over it
    expect(cardAt(boxes, 70, 10)).toBe('C')  // the last card shows whole
    expect(cardAt(boxes, 10, 80)).toBe('D')
    expect(cardAt(boxes, 10, 55)).toBeNull()  // between the rows
    expect(cardAt(boxes, 90, 10)).toBeNull()
  })
  it('a sideways move past a few pixels is a sweep; a vertical one scrolls the page', () => {
    expect(isSweep(12, 3)).toBe(true)
    expect(isSweep(-12, 3)).toBe(true)
    expect(isSweep(6, 0)).toBe(false)
    expect(isSweep(10, 30)).toBe(false)
  })

  it('cuts a line where its red suits are, so words show ♥ ♦ red as the cards do', () => {
    expect(suitRuns('叫♥J')).toEqual([{ text: '叫', red: false }, { text: '♥J', red: true }])
    expect(suitRuns('华妃出 ♠3 ♥10 ♦2 大王')).toEqual([
      { text: '华妃出 ♠3 ', red: false }, { text: '♥10', red: true }, { text: ' ', red: false },
      { text: '♦2', red: true }, { text: ' 大王', red: false },
    ])
    expect(suitRuns('皇帝方胜')).toEqual([{ text: '皇帝方胜', red: false }])
    expect(suitRuns('')).toEqual([])
  })

  it('says a play in short: one card with its suit (a bare 「6」 read as a count), more by rank', () => {
    expect(playShort(['C6#1'])).toBe('♣6')
    expect(playShort(['BJ#2'])).toBe('大王')
    expect(playShort(['C6#1', 'H6#2', 'D6#1'])).toBe('6×3')
    expect(playShort(['BJ#1', 'BJ#2', 'SA#1', 'HA#1'])).toBe('大王×2 A×2')
  })
})
