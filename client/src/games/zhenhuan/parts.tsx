import { useEffect, useRef, useState, type ReactNode } from 'react'
import { Text, View } from '@tarojs/components'
import { circlePosition, seatNo, slotWidth, TEAM_NAME, type RoleCard, type ZAction } from './model'
import type { ZCheck } from './useZhActions'

export interface SeatOption {
  seat: number
  name: string
  /** Dead (still choosable where the rules allow: a dead player may be nominated). */
  dead?: boolean
}

interface SeatPickerProps {
  seats: readonly SeatOption[]
  value: readonly number[]
  onChange: (next: number[]) => void
  multi?: boolean
  /** Seats that may be chosen (default all). */
  allowed?: readonly number[]
  /** Seats the engine greys, with its reason (still choosable: `force`). */
  greyed?: readonly { seat: number; reason: string }[]
  max?: number
}

/** Seats as chips: '3号 甄嬛'. */
export function SeatPicker({ seats, value, onChange, multi, allowed, greyed, max }: SeatPickerProps) {
  const chosen = new Set(value)
  const grey = new Map((greyed ?? []).map((g) => [g.seat, g.reason]))
  const ok = allowed ? new Set(allowed) : null
  return (
    <View className='chip-row zh-seat-picker'>
      {seats.map((s) => {
        const g = grey.get(s.seat)
        if (ok && !ok.has(s.seat) && g === undefined) return null
        const on = chosen.has(s.seat)
        return (
          <View
            key={s.seat}
            className={`chip zh-chip ${on ? 'chip-on' : ''} ${g !== undefined ? 'zh-chip-grey' : ''} ${s.dead ? 'zh-chip-dead' : ''}`}
            data-seat={s.seat}
            onClick={() => {
              if (on) onChange(value.filter((x) => x !== s.seat))
              else if (multi) onChange(max && value.length >= max ? [...value.slice(1), s.seat] : [...value, s.seat])
              else onChange([s.seat])
            }}
          >
            {seatNo(s.seat)} {s.name}{s.dead ? ' · 亡' : ''}{g !== undefined ? `（${g}）` : ''}
          </View>
        )
      })}
    </View>
  )
}

/** Roles of the script as chips, grouped by team. */
export function RolePicker({ roles, value, onChange, multi, max, filter }: {
  roles: readonly RoleCard[]; value: readonly string[]; onChange: (next: string[]) => void; multi?: boolean; max?: number
  filter?: (r: RoleCard) => boolean
}) {
  const chosen = new Set(value)
  const teams = ['townsfolk', 'outsider', 'minion', 'demon']
  return (
    <View className='zh-role-picker'>
      {teams.map((team) => {
        const list = roles.filter((r) => r.team === team && (!filter || filter(r)))
        if (!list.length) return null
        return (
          <View key={team} className='zh-role-group'>
            <Text className='zh-role-team'>{TEAM_NAME[team]}</Text>
            <View className='chip-row'>
              {list.map((r) => {
                const on = chosen.has(r.key)
                return (
                  <View key={r.key} className={`chip zh-chip ${on ? 'chip-on' : ''}`} data-role={r.key}
                    onClick={() => {
                      if (on) onChange(value.filter((x) => x !== r.key))
                      else if (multi) onChange(max && value.length >= max ? [...value.slice(1), r.key] : [...value, r.key])
                      else onChange([r.key])
                    }}>
                    {r.name}
                  </View>
                )
              })}
            </View>
          </View>
        )
      })}
    </View>
  )
}

/** The town square: seats on a circle, seat 1 at the top, clockwise; `center` in the middle. */
export function Circle({ count, render, center, onTap }: {
  count: number; render: (seat: number) => ReactNode; center?: ReactNode; onTap?: (seat: number) => void
}) {
  return (
    <View className={`zh-circle ${count > 12 ? 'zh-circle-many' : ''}`}>
      <View className='zh-circle-ring' />
      {center ? <View className='zh-circle-center'>{center}</View> : null}
      {Array.from({ length: count }, (_, seat) => {
        const p = circlePosition(seat, count)
        const width = slotWidth(count)
        return (
          <View key={seat} className='zh-token-slot' style={{ left: `${p.left}%`, top: `${p.top}%`, ...(width ? { width: `${width}%` } : {}) }}
            data-seat={seat} onClick={() => onTap?.(seat)}>
            {render(seat)}
          </View>
        )
      })}
    </View>
  )
}

/** The server's word on an action before it is sent (`/check`), asked again when the action changes. */
export function useCheck(action: ZAction | null, check: (a: ZAction) => Promise<ZCheck>, key: string): ZCheck | undefined {
  const [answer, setAnswer] = useState<ZCheck>()
  const seq = useRef(0)
  const text = action ? JSON.stringify(action) : ''
  useEffect(() => {
    setAnswer(undefined)
    if (!action) return undefined
    const n = ++seq.current
    const t = setTimeout(() => {
      check(action).then((a) => { if (n === seq.current) setAnswer(a) }).catch(() => undefined)
    }, 120)
    return () => clearTimeout(t)
  }, [text, key])
  return answer
}

/** A greyed reason under a control, or nothing. */
export function Reason({ text }: { text?: string | null }) {
  if (!text) return null
  return <View className='zh-reason' role='note'>{text}</View>
}
