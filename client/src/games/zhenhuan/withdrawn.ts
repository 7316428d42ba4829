/**
 * Undo notices (「说书人撤回了…」) come only in the reports, never in the view. Private ones that name
 * nothing (taken back at night, before her phone showed them) are not shown; public ones go with the
 * public news.
 */
import type { Schemas } from '../../api'

export type ReportsPage = Schemas['ZhenhuanReportsOut']

export interface WithdrawnLine {
  /** `${step}.${line}`: the same notice read twice is kept once. */
  key: string
  text: string
  /** Hers (a private line taken back) rather than the court's. */
  mine: boolean
}

/** At most this many pages in one read (100 reports each). */
const PAGES = 20

/**
 * The undo notices in the reports after `after`, read page by page, and where the reads ended; null
 * when `live()` turned false meanwhile (a newer read took over). A failed page throws: nothing is
 * taken as read, and the next read starts from `after` again.
 */
export async function readWithdrawn(
  get: (after: number) => Promise<ReportsPage>, after: number, live: () => boolean = () => true,
): Promise<{ found: WithdrawnLine[]; after: number } | null> {
  const found: WithdrawnLine[] = []
  let at = after
  for (let page = 0; page < PAGES; page++) {
    const out = await get(at)
    if (!live()) return null
    for (const r of out.reports) {
      r.lines.forEach((l, i) => {
        if (l.kind !== 'withdrawn') return
        const mine = l.seat != null
        if (mine && !(l.lines ?? []).length) return
        found.push({ key: `${r.step}.${i}`, text: l.text, mine })
      })
    }
    if (out.next_after === at || !out.reports.length) break
    at = out.next_after
  }
  return { found, after: at }
}
