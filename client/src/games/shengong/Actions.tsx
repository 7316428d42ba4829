import { Text, View } from '@tarojs/components'
import { voidedBanner, type ButtonState } from './compose'
import { maidLines } from './board'
import { tenths } from './labels'
import { Bar } from './StatusStrip'
import type { Mine, Player } from './types'

/** My own bars and place, a voided move (and the server's reason, said once: the greyed seals say 作废), and (玩法B) my passive 宫女. */
export function MyPanel({ me, mine }: { me: Player; mine: Mine | null | undefined }) {
  const voided = voidedBanner(mine)
  return (
    <View className={`sg-me ${me.alive ? '' : 'sg-me-down'}`} aria-label='我'>
      <View className='sg-me-head'>
        <Text className='sg-me-name'>{me.name}</Text>
        <Text className='sg-me-place'>身在{me.place}</Text>
        {!me.alive ? <Text className='sg-me-out'>已出局</Text> : null}
      </View>
      <View className='sg-me-bars'>
        <View className='sg-me-bar'><Bar kind='hp' value={me.hp} max={me.hp_max} /></View>
        <View className='sg-me-bar'><Bar kind='grace' value={me.grace} max={me.grace_max} /></View>
      </View>
      {voided ? (
        <View className='sg-voided' role='status'>
          <Text className='sg-voided-title'>本回合行动作废</Text>
          {voided.reason ? <Text className='sg-voided-reason'>{voided.reason}</Text> : null}
        </View>
      ) : null}
      {mine && (mine.maids ?? []).length > 0 && !mine.hand ? (
        <View className='sg-maids'>
          <Text className='sg-maids-title'>宫女（被动，每回合生效）</Text>
          {maidLines(mine.maids ?? []).map((line, i) => (
            <Text key={mine.maids?.[i]?.card ?? i} className='sg-maid'>{line}</Text>
          ))}
        </View>
      ) : null}
    </View>
  )
}

interface SealsProps {
  buttons: ButtonState[]
  mine: Mine | null | undefined
  onChoose: (b: ButtonState) => void
}

/** The actions of the mode as seals: open, chosen, or greyed with the server's reason under them. */
export function ActionSeals({ buttons, mine, onChoose }: SealsProps) {
  return (
    <View className='sg-seals' aria-label='行动'>
      {buttons.map((b) => {
        const sub = b.allowed
          ? b.chance !== null
            ? `命中 ${b.chance}%`
            : b.type === 'heal' && mine ? `+${tenths(mine.heal_now)}` : ''
          : ''
        return (
          <View
            key={b.type}
            className={`sg-act ${b.allowed ? 'sg-act-open' : 'sg-act-grey'} ${b.selected ? 'sg-act-on' : ''}`}
            data-action={b.type}
            role='button'
            aria-disabled={b.allowed ? 'false' : 'true'}
            aria-pressed={b.selected ? 'true' : 'false'}
            onClick={() => onChoose(b)}
          >
            <Text className='sg-act-label'>{b.label}</Text>
            {b.allowed ? (sub ? <Text className='sg-act-sub'>{sub}</Text> : null) : <Text className='sg-act-reason'>{mine?.voided ? '作废' : b.reason}</Text>}
          </View>
        )
      })}
    </View>
  )
}
