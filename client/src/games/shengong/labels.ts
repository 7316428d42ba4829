/** Chinese words for 深宫杀 keys the API sends as English (the API's own Chinese text is shown as it is). */
import type { ActionType, Mode, Slot } from './types'

export const MODE_NAME: Record<Mode, string> = { A: '竞技局', B: '宫女局', C: '卡牌局', D: '宫斗杀' }

export const ACTION_NAME: Record<ActionType, string> = {
  poison: '下毒',
  assassinate: '暗杀',
  frame: '诬告',
  meal: '送膳',
  heal: '养生',
  move: '移动',
  stay: '继续驻留',
  idle: '待机',
}

export const SLOT_TITLE: Record<Slot, string> = { attack: '进攻位', defence: '防守位', general: '通用位' }
export const SLOT_SHORT: Record<Slot, string> = { attack: '攻', defence: '守', general: '通' }
export const SLOTS: Slot[] = ['attack', 'defence', 'general']

/** How a game ended, for a result written before the server said it itself (`extra.verdict`). */
export const REASON_NAME: Record<string, string> = {
  clear: '通关',
  wipe: '全军覆没',
  last_standing: '一人独存',
  limit: '回合已满',
}

export const SCOPE_TAG: Record<string, string> = {
  own: '我',
  about_you: '及我',
  anonymous: '匿',
  public: '宫',
  host: '司',
}

/** Tenths as the API keeps them: 19.2 → "19.2", 10 → "10", −0.5 → "−0.5". */
export function tenths(n: number): string {
  const r = Math.round(n * 10) / 10
  const s = Number.isInteger(r) ? String(Math.abs(r)) : Math.abs(r).toFixed(1)
  return r < 0 ? `−${s}` : s
}

/** 1 → 第一回合 … 20 → 第二十回合. */
export function roundName(n: number): string {
  const d = ['零', '一', '二', '三', '四', '五', '六', '七', '八', '九', '十']
  if (n <= 10) return `第${d[n] ?? n}回合`
  if (n < 20) return `第十${d[n - 10]}回合`
  if (n < 100 && n % 10 === 0) return `第${d[n / 10]}十回合`
  if (n < 100) return `第${d[Math.floor(n / 10)]}十${d[n % 10]}回合`
  return `第${n}回合`
}

export type Tab = 'map' | 'hand' | 'report' | 'result'

/**
 * The game's tabs, in order: 结果 once over, 宫图, 手牌 (with how many she holds) while she may still
 * play one — seated, alive and the game on (a fallen lady keeps her cards in the view, but nothing is
 * left for her to play) — and 战报.
 */
export function gameTabs(over: boolean, held: number | null, alive: boolean): { key: Tab; label: string }[] {
  const tabs: { key: Tab; label: string }[] = []
  if (over) tabs.push({ key: 'result', label: '结果' })
  tabs.push({ key: 'map', label: '宫图' })
  if (held !== null && alive && !over) tabs.push({ key: 'hand', label: `手牌 ${held}` })
  tabs.push({ key: 'report', label: '战报' })
  return tabs
}
