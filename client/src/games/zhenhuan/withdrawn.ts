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

/** Where a read of the reports ended: the server's cursor once it gave one (a Query bounded by it, so
 * a read with nothing new reads one small item), else the last step. */
export interface ReadAt {
  after: number
  cursor: string | null
}

export const START: ReadAt = { after: 0, cursor: null }

/**
 * The undo notices in the reports after `at`, read page by page, and where the reads ended; null
 * when `live()` turned false meanwhile (a newer read took over). A failed page throws: nothing is
 * taken as read, and the next read starts from `at` again.
 */
export async function readWithdrawn(
  get: (at: ReadAt) => Promise<ReportsPage>, at: ReadAt, live: () => boolean = () => true,
): Promise<{ found: WithdrawnLine[]; at: ReadAt } | null> {
  const found: WithdrawnLine[] = []
  let pos = at
  for (let page = 0; page < PAGES; page++) {
    const out = await get(pos)
    if (!live()) return null
    for (const r of out.reports) {
      r.lines.forEach((l, i) => {
        if (l.kind !== 'withdrawn') return
        const mine = l.seat != null
        if (mine && !(l.lines ?? []).length) return
        found.push({ key: `${r.step}.${i}`, text: l.text, mine })
      })
    }
    const next = { after: out.next_after, cursor: out.next_cursor ?? pos.cursor }
    const moved = next.after !== pos.after || next.cursor !== pos.cursor
    pos = next
    if (!moved || !out.reports.length) break
  }
  return { found, at: pos }
}
