/** The words on a game's plaque in the lobby, from what the server says of the game. */
import type { Schemas } from '../../api'

type Game = Schemas['GameOut']

const BLURB: Record<string, string> = {
  shengong_d: '三人同心，闯关斗宫',
  shengong_a: '八人暗斗，各凭本事',
  shengong_b: '八人暗斗，宫女相助',
  shengong_c: '八人暗斗，手握宫女牌',
  baohuang: '山东五人牌戏',
  zhenhuan: '说书人主持的推理局',
}

export function seatsText(g: { min_seats: number; max_seats: number }): string {
  return g.min_seats === g.max_seats ? `${g.max_seats} 人` : `${g.min_seats}–${g.max_seats} 人`
}

/** Under the title: the blurb; a locked mode's reason; for the 司礼 (who may open any mode, as 锦标赛)
 * that players cannot open it yet. */
export function blurbOf(game: Pick<Game, 'key' | 'open' | 'can_open' | 'locked_reason'>): string {
  if (game.open) return BLURB[game.key] ?? ''
  return game.can_open ? '未对玩家开放 · 司礼可开锦标赛' : (game.locked_reason ?? '未开放')
}
