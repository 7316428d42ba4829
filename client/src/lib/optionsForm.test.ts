import { describe, expect, it } from 'vitest'
import { clampStep, defaultsOf, fieldsOf } from './optionsForm'

const coop = {
  properties: {
    stage: { default: 1, maximum: 3, minimum: 1, title: 'Stage', type: 'integer' },
    turn_seconds: { default: 90, maximum: 600, minimum: 15, title: 'Turn Seconds', type: 'integer' },
  },
}
const baohuang = {
  $defs: { Variant: { enum: ['simple', 'classic'], type: 'string' } },
  properties: {
    variant: { $ref: '#/$defs/Variant', default: 'simple' },
    baoliu: { default: false, type: 'boolean' },
  },
}
const zhenhuan = {
  properties: {
    script: { const: 'zhenhuan', default: 'zhenhuan', type: 'string' },
    mass_drunk_scope: { default: 'all', enum: ['all', 'good'], type: 'string', title: '醉倒范围' },
  },
}

describe('options form', () => {
  it('makes a small integer range a choice and a wide one a stepper, with Chinese labels', () => {
    const fields = fieldsOf(coop)
    expect(fields.map((f) => [f.kind, f.label])).toEqual([['choice', '关卡'], ['number', '每回合时限（秒）']])
    expect(fields[0].kind === 'choice' && fields[0].choices.map((c) => c.label)).toEqual(['关卡1', '关卡2', '关卡3'])
    expect(defaultsOf(fields)).toEqual({ stage: 1, turn_seconds: 90 })
  })

  it('names a choice as the server does when it says (x-labels: a stage with its opponent)', () => {
    const labelled = { properties: { stage: { ...coop.properties.stage, 'x-labels': { 1: '关卡1 · 高明珠', 2: '关卡2 · 石露' } } } }
    const [stage] = fieldsOf(labelled)
    expect(stage.kind === 'choice' && stage.choices.map((c) => c.label)).toEqual(['关卡1 · 高明珠', '关卡2 · 石露', '关卡3'])
  })

  it('greys a choice the server locks for this caller, with its reason, and never defaults to it (x-locked)', () => {
    const reason = '挑战关卡2须先通关关卡1：甄嬛 尚未通关关卡1'
    const locked = { properties: { stage: { ...coop.properties.stage, 'x-locked': { 2: reason, 3: '挑战关卡3须先通关关卡2：甄嬛 尚未通关关卡2' } } } }
    const [stage] = fieldsOf(locked)
    if (stage.kind !== 'choice') throw new Error('not a choice')
    expect(stage.choices.map((c) => c.locked ?? null)).toEqual([null, reason, '挑战关卡3须先通关关卡2：甄嬛 尚未通关关卡2'])
    expect(stage.default).toBe(1)
    // a default the server locks gives way to the first open choice; no x-locked, nothing greyed
    const later = { properties: { stage: { ...coop.properties.stage, default: 2, 'x-locked': { 2: reason } } } }
    expect(fieldsOf(later)[0]).toMatchObject({ default: 1 })
    expect(fieldsOf(coop)[0].kind === 'choice' && fieldsOf(coop)[0]).toMatchObject({ choices: [{ value: 1 }, { value: 2 }, { value: 3 }] })
    const plain = fieldsOf(coop)[0]
    expect(plain.kind === 'choice' && plain.choices.some((c) => 'locked' in c)).toBe(false)
  })

  it('resolves $defs enums and booleans', () => {
    const fields = fieldsOf(baohuang)
    expect(fields[0]).toMatchObject({ kind: 'choice', default: 'simple', choices: [{ value: 'simple', label: '简明 · 168 张' }, { value: 'classic', label: '经典 · 216 张' }] })
    expect(fields[1]).toMatchObject({ kind: 'toggle', default: false })
  })

  it('shows consts read-only, prefers a Chinese title from the schema, and leaves consts out of the body', () => {
    const fields = fieldsOf(zhenhuan)
    expect(fields[0]).toMatchObject({ kind: 'fixed', value: '甄嬛传' })
    expect(fields[1].label).toBe('醉倒范围')
    expect(defaultsOf(fields)).toEqual({ mass_drunk_scope: 'all' })
  })

  it('keeps a stepper inside its range', () => {
    const f = fieldsOf(coop)[1]
    if (f.kind !== 'number') throw new Error('not a stepper')
    expect(clampStep(f, 15, -f.step)).toBe(15)
    expect(clampStep(f, 600, f.step)).toBe(600)
    expect(clampStep(f, 90, f.step)).toBe(95)
  })
})
