import { Text, View } from '@tarojs/components'
import { Bar } from './StatusStrip'
import { botless } from '../../lib/labels'
import { targetChances, type Compose } from './compose'
import type { Game, Option, Player } from './types'

interface BossProps {
  game: Game
  /** The chosen attack's option (D): its `targets` may be tapped. */
  option: Option | undefined
  /** The move she composes: an attack card on it changes the odds shown. */
  compose: Compose
  target: number | undefined
  onTarget: (index: number) => void
}

/** 玩法D: the stage's opponents (boss and 随从) with their bars; tap one to aim the chosen attack. */
export function Bosses({ game, option, compose, target, onTarget }: BossProps) {
  const aiming = option ? new Set(option.targets ?? []) : null
  return (
    <View className='sg-bosses' aria-label='对手'>
      {(game.opponents ?? []).map((o) => {
        const open = aiming?.has(o.index) ?? false
        const odds = open && option ? targetChances(option, compose)[(option.targets ?? []).indexOf(o.index)] : undefined
        const picked = !!option && target === o.index
        return (
          <View
            key={o.index}
            className={`sg-boss ${o.alive ? '' : 'sg-boss-down'} ${open ? 'sg-boss-open' : ''} ${picked ? 'sg-boss-picked' : ''} ${aiming && !open ? 'sg-boss-shut' : ''}`}
            data-opponent={o.index}
            role={open ? 'button' : undefined}
            onClick={() => onTarget(o.index)}
          >
            <View className='sg-boss-face'>
              <Text className='sg-boss-char'>{Array.from(o.name)[0]}</Text>
            </View>
            <View className='grow'>
              <View className='sg-boss-head'>
                <Text className='sg-boss-name'>{o.name}</Text>
                {o.frame_defence ? <Text className='sg-boss-def'>诬告防守 {o.frame_defence}%</Text> : null}
                {odds !== undefined ? <Text className='sg-boss-odds'>命中 {odds}%</Text> : null}
                {picked ? <Text className='sg-boss-stamp'>目标</Text> : null}
                {!o.alive ? <Text className='sg-boss-stamp sg-boss-stamp-down'>已倒</Text> : null}
              </View>
              <Bar kind='hp' value={o.hp} max={o.hp_max} small />
              {o.grace !== null && o.grace !== undefined ? <Bar kind='grace' value={o.grace} max={o.grace_max} small /> : null}
            </View>
          </View>
        )
      })}
    </View>
  )
}

interface RosterProps {
  players: Player[]
  mySeat: number | null
  bots: Set<number>
  title: string
  /** This round's 圣意: the two attributes 送膳 is judged on, picked out on every row. */
  decree?: readonly string[]
}

/** The 妃子's four attributes, in the order her card lists them. */
const ATTRS = [['looks', '容'], ['talent', '才'], ['favor', '宠'], ['power', '权']] as const

/** Every seat in seat order with its public bars and place (A/B/C rivals, D teammates); me marked 我, bots 机器人. */
export function Roster({ players, mySeat, bots, title, decree = [] }: RosterProps) {
  return (
    <View className='sg-court' aria-label={title}>
      <View className='sg-section-title'>{title}</View>
      {players.map((p) => (
        <View key={p.seat} className={`seat seat-taken sg-rival ${p.seat === mySeat ? 'seat-me sg-rival-me' : ''} ${p.alive ? '' : 'sg-rival-down'}`} data-seat={p.seat}>
          <View className='sg-rival-id'>
            {/* the bot's own name: its 机器人 badge says the rest */}
            <Text className='seat-name sg-rival-name'>{bots.has(p.seat) ? botless(p.name) : p.name}</Text>
            {p.seat === mySeat ? <Text className='badge badge-zhu sg-me-mark'>我</Text> : null}
            {bots.has(p.seat) ? <Text className='badge badge-jade sg-bot-mark'>机器人</Text> : null}
            <Text className='sg-rival-place'>{p.alive ? p.place : `第${p.out_round ?? '?'}回合出局`}</Text>
          </View>
          <View className='sg-rival-bars'>
            <Bar kind='hp' value={p.hp} max={p.hp_max} small />
            <Bar kind='grace' value={p.grace} max={p.grace_max} small />
          </View>
          {/* who would top 圣意 at 乾清宫: her attributes, the round's two picked out */}
          <View className='sg-rival-attrs' aria-label='容才宠权'>
            {ATTRS.map(([key, label]) => (
              <Text key={key} className={`sg-attr ${decree.includes(key) ? 'sg-attr-decree' : ''}`}>{label}{p[key]}</Text>
            ))}
          </View>
        </View>
      ))}
    </View>
  )
}
