import { Text, View } from '@tarojs/components'
import type { Schemas } from '../../api'
import { HOST_TITLE } from '../../lib/labels'

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

/** 「深宫杀 · 竞技局」 on a half-width plaque: the mode, which tells the cards apart, gets its own
 * smaller line under the family instead of being cut off after its first character. */
function GameTitle({ title }: { title: string }) {
  const [family, mode] = title.split(' · ')
  return (
    <View className='game-title'>
      <Text>{family}</Text>
      {mode ? <Text className='game-title-mode'>{mode}</Text> : null}
    </View>
  )
}

/** One game as a hanging plaque; locked modes greyed with their reason. */
export function GameCard({ game, selected, onSelect }: { game: Game; selected: boolean; onSelect: () => void }) {
  const cls = ['game', game.open ? '' : 'game-locked', selected ? 'game-on' : ''].filter(Boolean).join(' ')
  return (
    <View className={cls} onClick={game.open ? onSelect : undefined} aria-disabled={game.open ? 'false' : 'true'}>
      <GameTitle title={game.title} />
      <View className='game-meta'>
        <Text>{seatsText(game)}</Text>
        {game.host_runs ? <Text> · {HOST_TITLE[game.family]}</Text> : null}
      </View>
      <View className='game-blurb'>{game.open ? (BLURB[game.key] ?? '') : (game.locked_reason ?? '未开放')}</View>
      {game.open ? null : <View className='game-lock'>封</View>}
    </View>
  )
}
