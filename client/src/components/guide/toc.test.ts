import { describe, expect, it } from 'vitest'
import { sectionAt, tocLabel } from './toc'

describe('the 玩法 strip of contents', () => {
  it('keeps a title\'s subject before its full-width colon', () => {
    expect(tocLabel('身份：皇帝、侍卫（保子）与平民')).toBe('身份')
    expect(tocLabel('简明与经典的区别：叫侍卫、暗独保、明独保、抢独')).toBe('简明与经典的区别')
  })

  it('names the part of a subject split in several sections', () => {
    expect(tocLabel('角色一览 · 外来者')).toBe('外来者')
  })

  it('keeps a plain title whole', () => {
    expect(tocLabel('白天：提名、投票与处决')).toBe('白天')
    expect(tocLabel('关卡与对手')).toBe('关卡与对手')
    expect(tocLabel('死亡之后（幽灵票）')).toBe('死亡之后（幽灵票）')
  })
})

describe('the section she is reading', () => {
  const tops = [0, 300, 520, 900]

  it('is the last whose heading has come up to the top', () => {
    expect(sectionAt(tops, 0, false)).toBe(0)
    expect(sectionAt(tops, 299, false)).toBe(1)
    expect(sectionAt(tops, 250, false)).toBe(0)
    expect(sectionAt(tops, 700, false)).toBe(2)
  })

  it('is the last section at the end of the page, which a short last section never reaches', () => {
    expect(sectionAt(tops, 720, true)).toBe(3)
  })

  it('is the first while the page is not measured', () => {
    expect(sectionAt([], 400, false)).toBe(0)
  })
})
