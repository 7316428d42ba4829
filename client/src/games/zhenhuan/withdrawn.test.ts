import { describe, expect, it } from 'vitest'
import { ApiError, networkError } from '../../api/errors'
import { readWithdrawn, START, type ReadAt, type ReportsPage } from './withdrawn'

type Report = ReportsPage['reports'][number]
type Line = Report['lines'][number]

function report(step: number, lines: Line[]): Report {
  return { step, label: `第${step}报`, kind: 'apply', trigger: 'host', at_ms: step, lines } as Report
}

/** The server's /reports over `all`, `limit` at a time, recording what each ask named (a cursor `c<step>`
 * once it gave one, else the `after`). */
function server(all: Report[], limit = 2) {
  const asked: string[] = []
  const get = async (at: ReadAt): Promise<ReportsPage> => {
    asked.push(at.cursor ?? String(at.after))
    const from = at.cursor ? Number(at.cursor.slice(1)) : at.after
    const reports = all.filter((r) => r.step > from).slice(0, limit)
    const last = reports.length ? reports[reports.length - 1].step : from
    return { reports, next_after: last, next_cursor: `c${last}` } as ReportsPage
  }
  return { asked, get }
}

const phase = (text: string) => ({ kind: 'phase', text, phase: 'day', number: 1 }) as Line
const undo = (text: string, seat: number | null = null, lines: string[] = []) => ({ kind: 'withdrawn', text, seat, lines }) as Line

describe('血染 undo notices (「说书人撤回了…」)', () => {
  it('reads every page after where the last read ended; public notices and her named ones, not the empty private ones', async () => {
    const all = [
      report(1, [phase('第1天')]),
      report(2, [undo('说书人撤回了：2号的提名')]),
      report(3, [undo('说书人撤回了你昨夜得知的', 4, ['3号是华妃']), undo('说书人撤回了一条夜里的消息', 4)]),
    ]
    const s = server(all)
    const out = await readWithdrawn(s.get, START)
    expect(out).toEqual({
      at: { after: 3, cursor: 'c3' },
      found: [
        { key: '2.0', text: '说书人撤回了：2号的提名', mine: false },
        { key: '3.0', text: '说书人撤回了你昨夜得知的', mine: true },
      ],
    })
    expect(s.asked).toEqual(['0', 'c2', 'c3'])  // the server's cursor once it gave one
    // a later read (a new view — a spectator's as a player's) starts where this one ended
    all.push(report(4, [undo('说书人撤回了：5号的处决')]))
    const later = await readWithdrawn(s.get, out!.at)
    expect(later?.found.map((w) => w.text)).toEqual(['说书人撤回了：5号的处决'])
  })

  it('a failed read throws (for the page to show) and a read overtaken by a newer one is dropped', async () => {
    await expect(readWithdrawn(async () => { throw new ApiError(403, 'FORBIDDEN', '不可查看') }, START)).rejects.toThrow('不可查看')
    await expect(readWithdrawn(async () => { throw networkError() }, START)).rejects.toBeInstanceOf(ApiError)
    const s = server([report(1, [undo('说书人撤回了：2号的提名')])])
    expect(await readWithdrawn(s.get, START, () => false)).toBe(null)
  })
})
