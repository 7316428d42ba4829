import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { SealButton } from '../../components/SealButton'
import { formatClock, urgency } from './clock'
import { useCountdown } from './hooks'
import { tenths } from './labels'
import type { Pending, RoomView } from './types'
import { tokenName } from './board'

interface Props {
  view: RoomView
  /** The creator (or the hosting 司礼) may 催战 a sealed round. */
  canHurry: boolean
  hurrying: boolean
  onHurry: () => void
  /** Ask for the latest (a tap on who has sealed): only while the page polls without notices. */
  onLook?: () => void
}

/**
 * The round's state: 第N回合 of the limit, the countdown (server clock), who has sealed a move — never
 * what — and 催战 for the creator.
 */
export function StatusStrip({ view, canHurry, hurrying, onHurry, onLook }: Props) {
  const game = view.game
  const pending = view.pending
  const left = useCountdown(pending?.deadline_ms, view.server_time)
  const turn = game?.turn_seconds ?? 90
  const state = left === null ? 'calm' : urgency(left, turn)
  const [decreeOpen, setDecreeOpen] = useState(false)  // a tap on 圣意 says what it means
  if (!game) return null
  return (
    <View className='sg-strip'>
      <View className='sg-strip-row'>
        <View className='sg-round'>
          <Text className='sg-round-no'>{game.over ? '终局' : `第 ${game.round} 回合`}</Text>
          {/* over: how long it went (the strip alone read 「终局」 in an empty box) */}
          <Text className='sg-round-of'>{game.over ? `打了 ${game.round} 回合 · 胜负见「结果」` : `共 ${game.round_limit} 回合`}</Text>
        </View>
        {game.mode !== 'D' && game.decree_zh && !game.over ? (
          <View className='sg-decree' role='button' onClick={() => setDecreeOpen(!decreeOpen)}>
            <Text className='sg-decree-key'>圣意</Text>
            <Text className='sg-decree-val'>{game.decree_zh}</Text>
          </View>
        ) : null}
        {pending && left !== null ? (
          <View className={`sg-clock sg-clock-${state}`} aria-label='倒计时'>
            <Text className='sg-clock-val'>{state === 'up' ? '结算中' : formatClock(left)}</Text>
          </View>
        ) : null}
      </View>
      {decreeOpen && game.decree_text && !game.over ? <View className='sg-decree-text'>{game.decree_text}</View> : null}
      {pending && pending.kind === 'sealed' ? (
        <View className='sg-strip-row'>
          <SealedSeats pending={pending} view={view} onLook={onLook} />
          {canHurry ? (
            <SealButton size='small' kind='gold' busy={hurrying} onClick={onHurry} className='sg-hurry'>催战</SealButton>
          ) : null}
        </View>
      ) : null}
    </View>
  )
}

/**
 * Each seat the round waits for: sealed (已) or not yet (候); mine marked. While the room's notices come,
 * each sealed move is marked as it happens (a `sealed` notice, no request); while the page polls without
 * them, the marks are as of its last poll, and a tap asks for the latest (「轻触刷新」, `onLook`).
 */
export function SealedSeats({ pending, view, onLook }: { pending: Pending; view: RoomView; onLook?: () => void }) {
  const submitted = new Set(pending.submitted ?? [])
  const name = new Map((view.game?.players ?? []).map((p) => [p.seat, p.name]))
  for (const s of view.room.seats) if (!name.has(s.seat)) name.set(s.seat, s.name)
  const mySeat = view.viewer.seat
  return (
    <View className='sg-sealed' aria-label='落子情况' role={onLook ? 'button' : undefined} onClick={onLook}>
      <Text className='sg-sealed-count'>已落子 {submitted.size}/{pending.seats.length}{onLook ? <Text className='sg-sealed-look'> · 轻触刷新</Text> : null}</Text>
      <View className='sg-sealed-seats'>
        {pending.seats.map((seat) => {
          const done = submitted.has(seat)
          return (
            <View key={seat} className={`sg-pip ${done ? 'sg-pip-done' : 'sg-pip-wait'} ${seat === mySeat ? 'sg-pip-me' : ''}`}
              data-seat={seat} data-sealed={done ? 'yes' : 'no'}>
              <Text className='sg-pip-name'>{tokenName(name.get(seat) ?? String(seat + 1))}</Text>
              <Text className='sg-pip-mark'>{done ? '已' : '候'}</Text>
            </View>
          )
        })}
      </View>
    </View>
  )
}

/** One bar (气血 or 好感) with its value over its cap. */
export function Bar({ kind, value, max, small }: { kind: 'hp' | 'grace'; value: number; max: number | null | undefined; small?: boolean }) {
  const cap = max && max > 0 ? max : Math.max(10, value)
  const pct = Math.max(0, Math.min(100, Math.round((value / cap) * 100)))
  const label = kind === 'hp' ? '气血' : '好感'
  return (
    <View className={`sg-bar sg-bar-${kind} ${small ? 'sg-bar-small' : ''}`} aria-label={`${label} ${tenths(value)}`}>
      <Text className='sg-bar-label'>{label}</Text>
      <View className='sg-bar-track'>
        <View className='sg-bar-fill' style={{ width: `${pct}%` }} />
      </View>
      <Text className='sg-bar-value'>{tenths(Math.max(0, value))}{max ? <Text className='sg-bar-max'>/{tenths(max)}</Text> : null}</Text>
    </View>
  )
}
