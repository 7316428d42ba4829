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

/** RECAP_LINES at most: the recap is a glance, the scroll is for reading. */
export const RECAP_LINES = 3

/** The last settled round in what concerns her: her own lines and those about her (null: nothing
 * touched her, or no round has settled); `more` counts what the recap leaves to 战报. */
export function recapOf(reports: Report[]): { step: number; label: string; lines: Line[]; more: number } | null {
  const last = scrollOrder(reports)[0]
  if (!last) return null
  const mine = orderLines(last.lines).filter((l) => l.scope === 'own' || l.scope === 'about_you')
  if (!mine.length) return null
  return { step: last.step, label: last.label, lines: mine.slice(0, RECAP_LINES), more: last.lines.length - Math.min(mine.length, RECAP_LINES) }
}

/** The server's score lines (how each score was made up), from the last report that has them. */
export function scoreLines(reports: Report[]): string[] {
  for (let i = reports.length - 1; i >= 0; i--) {
    const lines = reports[i].lines.filter((l) => l.kind === 'score')
    if (lines.length) return lines.map((l) => l.text)
  }
  return []
}
