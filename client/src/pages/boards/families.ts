import type { Schemas } from '../../api'
import { BOARD_GAMES } from '../../lib/labels'

type BoardInfo = Schemas['BoardInfoOut']

export interface BoardFamily {
  key: string
  short: string
  kinds: string[]
}

/** The board families to pick from (coop, melee, …), each with its competitions, in the API's order. */
export function boardFamilies(boards: BoardInfo[] | undefined): BoardFamily[] {
  if (!boards?.length) return BOARD_GAMES.map((g) => ({ key: g.key, short: g.short, kinds: ['free', 'tournament'] }))
  const out: BoardFamily[] = []
  for (const b of boards) {
    let f = out.find((x) => x.key === b.family)
    if (!f) {
      f = { key: b.family, short: BOARD_GAMES.find((g) => g.key === b.family)?.short ?? b.family, kinds: [] }
      out.push(f)
    }
    if (!f.kinds.includes(b.competition)) f.kinds.push(b.competition)
  }
  return out
}

/** Only 宫斗杀 (mode D, the `coop` family) has stages to clear: the 闯关最速 panel is its board's alone. */
export function hasFastestClears(family: string): boolean {
  return family === 'coop'
}
