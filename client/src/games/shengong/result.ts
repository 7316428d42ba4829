/** The end of a game: seat rows from /result, the stage unlocked by a clear, the fastest-clear rank. */
import { REASON_NAME } from './labels'
import type { ClearRow, Line, Outcome } from './types'

/**
 * How the game ended, in the server's words: the seal's few (`extra.verdict` — 宫斗杀 at the round limit
 * reads 「闯关失败」, not a bare 「回合已满」) and its sentence (`extra.ending`, the 战报's last line). A result
 * written before the server said them falls back to the reason's name and no sentence.
 */
export function verdictOf(outcome: Pick<Outcome, 'reason' | 'extra'>): { seal: string; sentence: string | null } {
  return {
    seal: outcome.extra.verdict || (REASON_NAME[outcome.reason] ?? outcome.reason),
    sentence: outcome.extra.ending || null,
  }
}

export interface ResultRow {
  seat: number
  name: string
  place: number | null
  score: number
  won: boolean
  kills: number
  damage: number
  taken: number
  clearBonus: number | null
  survived: boolean | null
  mine: boolean
  /** She moved herself at least once (else every round 待机 by default: no board, record or unlock). */
  played: boolean
}

export function resultRows(outcome: Outcome, mySeat: number | null | undefined): ResultRow[] {
  const rows = outcome.results.map((r) => {
    const s = r.stats
    return {
      seat: r.seat,
      name: r.name ?? `第${r.seat + 1}席`,
      place: r.place,
      score: r.score,
      won: r.won,
      kills: s.kills ?? 0,
      damage: (s.hp_damage ?? 0) + (s.grace_damage ?? 0),
      taken: s.taken ?? 0,
      clearBonus: s.clear_bonus ?? null,
      survived: s.survived === undefined ? null : s.survived > 0,
      mine: mySeat !== null && mySeat !== undefined && r.seat === mySeat,
      played: r.played ?? true,
    }
  })
  // places first when there are places (A/B/C), else by score; seat order breaks ties
  return rows.sort((a, b) => (a.place ?? 99) - (b.place ?? 99) || b.score - a.score || a.seat - b.seat)
}

/**
 * Who came first, and where I came (A/B/C, which have places): 「柳答应 独占鳌头 · 你位列第 7」. The end's
 * seal says only how the game ended; this line says for whom (the seal alone read as her own win).
 */
export function placeLine(rows: ResultRow[], reason: string): string | null {
  const firsts = rows.filter((r) => r.place === 1)
  if (!firsts.length) return null
  const mine = rows.find((r) => r.mine)
  const first = reason === 'last_standing' ? '独占鳌头' : '位列第一'
  if (mine?.place === 1) {
    const others = firsts.filter((r) => !r.mine).map((r) => r.name)
    return others.length ? `你与${others.join('、')}并列第一` : `你${first}`
  }
  const head = `${firsts.map((r) => r.name).join('、')} ${firsts.length > 1 ? '并列第一' : first}`
  return mine?.place ? `${head} · 你位列第 ${mine.place}` : head
}

/**
 * Every figure on the result panel as players write numbers, and as the server's score lines do: to
 * the hundredth at most, no trailing zeros (「14.00 / 83.00」 read as a ledger), a loss with the
 * typographic minus: 89 → "89", 8.60 → "8.6", −0.6 → "−0.6", 30.16 → "30.16".
 */
export function points(x: number): string {
  const text = Math.abs(x).toFixed(2).replace(/\.?0+$/, '')
  return x < 0 && text !== '0' ? `−${text}` : text
}

/** The server's score lines in the table's order (each line names its seat); lines of no seat follow. */
export function notesInTableOrder(lines: Line[], rows: Pick<ResultRow, 'seat'>[]): string[] {
  const at = (l: Line) => {
    const i = rows.findIndex((r) => r.seat === l.seat)
    return i < 0 ? rows.length : i
  }
  return lines.map((l, i) => ({ l, i })).sort((a, b) => at(a.l) - at(b.l) || a.i - b.i).map((x) => x.l.text)
}

/**
 * The next stage this clear opened for me (stages 1–lastStage): only when the game was cleared and
 * my 妃子's cleared stages (GET /v1/me) now include this one.
 */
export function unlockedStage(stage: number | null | undefined, cleared: boolean, clearedStages: number[], lastStage = 3): number | null {
  if (!stage || !cleared || stage >= lastStage) return null
  return clearedStages.includes(stage) ? stage + 1 : null
}

/** This room's row on the stage's fastest-clear board, if it made it. */
export function fastestRow(rows: ClearRow[], roomId: string): ClearRow | undefined {
  return rows.find((r) => r.room === roomId)
}

/**
 * How a row of the score table names her: 「甄嬛（我）」 on its line, and 未出手 apart, as a note under
 * the name (on a phone 「甄嬛（我）（未出手）」 broke inside the brackets, two of them side by side).
 */
export function scoreName(r: { name: string; mine: boolean; played: boolean }): { name: string; note: string | null } {
  return { name: `${r.name}${r.mine ? '（我）' : ''}`, note: r.played ? null : '未出手' }
}
