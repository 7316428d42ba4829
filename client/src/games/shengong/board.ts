/**
 * The palace map: where each place sits on the plan, who stands there (as far as this viewer is
 * told), and how each tile looks while an action is being aimed (open to pick, picked, out of reach).
 */
import { botless } from '../../lib/labels'
import { tenths } from './labels'
import type { Compose } from './compose'
import { pickOf } from './compose'
import type { Maid, Mode, Option, Place, PlaceView, Player } from './types'

/** A/B/C: 乾清宫 to the north between 摘星楼 and 御膳房, the 六处 below. D: the five places of 玩法D. */
const PLAN: Record<'D' | 'ABC', Place[][]> = {
  ABC: [
    ['摘星楼', '乾清宫', '御膳房'],
    ['景仁宫', '承乾宫', '钟粹宫'],
    ['延禧宫', '永寿宫', '长春宫'],
  ],
  D: [
    ['摘星楼', '醉江南', '御膳房'],
    ['御花园', '太医院'],
  ],
}

/** The mode's places (as the view lists them) in rows of the plan; places the plan does not know follow. */
export function mapRows(places: PlaceView[], mode: Mode): PlaceView[][] {
  const byName = new Map(places.map((p) => [p.place, p]))
  const rows: PlaceView[][] = []
  const used = new Set<Place>()
  for (const row of PLAN[mode === 'D' ? 'D' : 'ABC']) {
    const r = row.map((n) => byName.get(n)).filter((p): p is PlaceView => !!p)
    r.forEach((p) => used.add(p.place))
    if (r.length) rows.push(r)
  }
  const rest = places.filter((p) => !used.has(p.place))
  for (let i = 0; i < rest.length; i += 3) rows.push(rest.slice(i, i + 3))
  return rows
}

/** Who stands at `place` (living first, then the fallen), in seat order. */
export function occupants(players: Player[], place: Place): Player[] {
  const here = players.filter((p) => p.place === place)
  return [...here.filter((p) => p.alive), ...here.filter((p) => !p.alive)]
}

/** 「准入 好感≥6」 for the special places. */
export function entryText(place: PlaceView): string | null {
  if (!place.entry_bar || place.entry_min === null || place.entry_min === undefined) return null
  return `准入 ${place.entry_bar === 'hp' ? '气血' : '好感'}≥${tenths(place.entry_min)}`
}

export type TileState = 'plain' | 'open' | 'picked' | 'shut' | 'here'

/**
 * While an action that aims at a place is chosen: `open` (may pick), `picked`, `here` (where I stand,
 * for 移动) or `shut` (not among the option's places); `plain` otherwise.
 */
export function tileState(place: Place, compose: Compose, option: Option | undefined, mode: Mode, myPlace?: Place): TileState {
  if (!option || pickOf(option.type, mode) !== 'place') return 'plain'
  if (compose.place === place) return 'picked'
  if ((option.places ?? []).includes(place)) return 'open'
  if (option.type === 'move' && place === myPlace) return 'here'
  return 'shut'
}

/** The first one or two characters of a name, for a token on the map. */
export function tokenName(name: string): string {
  // a bot's name carries 「（机器人）」: cut after it, 「柳答应（」 is no name (the token marks bots itself)
  return Array.from(botless(name)).slice(0, 3).join('')
}

/**
 * Why a shut tile is shut, in a tile's few words: for 移动 the server's own (`shut[].short`, 「好感 5＜6」,
 * else its full refusal); for an attack, that the place is none of its targets (the place's `targets`).
 */
export function shutNote(place: Place, state: TileState, option: Option | undefined): string | null {
  if (state !== 'shut' || !option) return null
  if (option.type === 'move') {
    const said = (option.shut ?? []).find((s) => s.place === place)
    return said ? said.short || said.reason : null
  }
  return `非${option.label}目标`
}

/** 玩法B: her passive 宫女 as effect lines, each as it acts at her level (the server's `text_now`). */
export function maidLines(maids: Pick<Maid, 'skill' | 'level' | 'text' | 'text_now'>[]): string[] {
  return maids.map((m) => `${m.skill} Lv.${m.level}：${m.text_now || m.text}`)
}
