/**
 * The 战报 scroll: reports fetched incrementally (`/reports?after=`), merged by step, newest round
 * first; each line styled by its scope (own / about_you / anonymous / public / host).
 */
import type { Line, Report } from './types'

/** Old and new reports, one per step, oldest first. */
export function mergeReports(old: Report[], incoming: Report[]): Report[] {
  const byStep = new Map<number, Report>()
  for (const r of old) byStep.set(r.step, r)
  for (const r of incoming) byStep.set(r.step, r)
  return [...byStep.values()].sort((a, b) => a.step - b.step)
}

/** Reports with something to read (the setup has no lines), newest first. */
export function scrollOrder(reports: Report[]): Report[] {
  return reports.filter((r) => r.lines.length > 0).slice().reverse()
}

export function lineClass(line: Line): string {
  return `sg-line sg-line-${line.scope} sg-kind-${line.kind}`
}

/** Lines after the round's own (own and about_you first: what concerns me leads). */
export function orderLines(lines: Line[]): Line[] {
  const rank = (l: Line) => (l.kind === 'round' || l.kind === 'end' ? 3 : l.scope === 'own' ? 0 : l.scope === 'about_you' ? 1 : 2)
  return lines.map((l, i) => ({ l, i })).sort((a, b) => rank(a.l) - rank(b.l) || a.i - b.i).map((x) => x.l)
}

/** How many lines concern me directly (for the tab's badge). */
export function aboutMe(report: Report): number {
  return report.lines.filter((l) => l.scope === 'own' || l.scope === 'about_you').length
}

/** RECAP_LINES at most of her light lines: the recap is a glance, the scroll is for reading. */
export const RECAP_LINES = 3

const ATTACK_ACTIONS = new Set(['poison', 'assassinate', 'frame'])

/** The line is about her: her own or about_you, or a public line on her seat (her bars, her fall, her score). */
export function mentionsMe(line: Line, mySeat?: number | null): boolean {
  return line.scope === 'own' || line.scope === 'about_you' || (mySeat !== null && mySeat !== undefined && line.seat === mySeat)
}

/**
 * Her heavy lines, never folded away: damage she took (a blow on her with a loss), damage she dealt
 * (her attack that hit, her passive that hurt someone), a 击败 of hers, her own fall.
 */
export function heavyForMe(line: Line, mySeat?: number | null): boolean {
  if (line.kind === 'kill' && line.scope === 'own') return true
  if (line.kind === 'fell') return mySeat !== null && mySeat !== undefined && line.seat === mySeat
  if (line.scope === 'about_you') return (line.hp ?? 0) < 0 || (line.grace ?? 0) < 0
  if (line.scope !== 'own') return false
  if (line.kind === 'action') return line.result === 'hit' && ATTACK_ACTIONS.has(line.action ?? '')
  if (line.kind === 'passive') return (line.count ?? 0) > 0
  return false
}

export interface Recap {
  step: number
  label: string
  lines: Line[]
  /** Lines left to 战报. */
  more: number
  /** Of those, the ones about her. */
  moreMine: number
}

/**
 * The last settled round in what concerns her (null: nothing touched her, or no round has settled):
 * her own lines and those about her, her fall; her heavy lines all shown, the light ones up to
 * RECAP_LINES in all; `more` counts what the recap leaves to 战报, `moreMine` how many of those are about her.
 */
export function recapOf(reports: Report[], mySeat?: number | null): Recap | null {
  const last = scrollOrder(reports)[0]
  if (!last) return null
  const mine = orderLines(last.lines).filter((l) => l.scope === 'own' || l.scope === 'about_you' || (l.kind === 'fell' && heavyForMe(l, mySeat)))
  if (!mine.length) return null
  const heavy = mine.filter((l) => heavyForMe(l, mySeat)).length
  let room = Math.max(0, RECAP_LINES - heavy)
  const lines = mine.filter((l) => heavyForMe(l, mySeat) || room-- > 0)
  const folded = last.lines.filter((l) => !lines.includes(l))
  return { step: last.step, label: last.label, lines, more: folded.length, moreMine: folded.filter((l) => mentionsMe(l, mySeat)).length }
}

/** The recap's fold line: 「另有 5 条（2 条与你有关）」, or 「另有 3 条」 when none of them is about her; null: nothing folded. */
export function foldText(recap: Pick<Recap, 'more' | 'moreMine'>): string | null {
  if (!recap.more) return null
  return `另有 ${recap.more} 条${recap.moreMine ? `（${recap.moreMine} 条与你有关）` : ''}`
}

/** The server's score lines (how each score was made up), from the last report that has them. */
export function scoreLines(reports: Report[]): Line[] {
  for (let i = reports.length - 1; i >= 0; i--) {
    const lines = reports[i].lines.filter((l) => l.kind === 'score')
    if (lines.length) return lines
  }
  return []
}
