import { Text, View } from '@tarojs/components'
import type { Schemas } from '../../api'
import { HOST_TITLE } from '../../lib/labels'
import { blurbOf, seatsText } from './gameText'

type Game = Schemas['GameOut']

export { seatsText }

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

/** One game as a hanging plaque; modes this caller cannot open greyed with their reason, and a mode
 * still sealed for players stamped 封 even where the 司礼 may open it. */
export function GameCard({ game, selected, onSelect, onGuide }: {
  game: Game; selected: boolean; onSelect: () => void; onGuide: () => void
}) {
  const cls = ['game', game.can_open ? '' : 'game-locked', selected ? 'game-on' : ''].filter(Boolean).join(' ')
  return (
    <View className='game-slot'>
      <View className={cls} onClick={game.can_open ? onSelect : undefined} aria-disabled={game.can_open ? 'false' : 'true'}>
        <GameTitle title={game.title} />
        <View className='game-meta'>
          <Text>{seatsText(game)}</Text>
          {game.host_runs ? <Text> · {HOST_TITLE[game.family]}</Text> : null}
        </View>
        <View className='game-blurb'>{blurbOf(game)}</View>
        {game.open ? null : <View className='game-lock'>封</View>}
      </View>
      {/* the rules are for everyone, a newcomer without a 妃子 and a mode still sealed included: beside
          the plaque, not in it (a greyed plaque greys and disables what it holds); the lobby opens them */}
      <View className='guide-link game-guide' role='button' onClick={onGuide}>玩法 ›</View>
    </View>
  )
}
