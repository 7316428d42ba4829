import { Text, View } from '@tarojs/components'
import type { Schemas } from '../../api'
import { botless, cnNumber } from '../../lib/labels'

type Seat = Schemas['SeatOut']

/** Every seat of the room, taken or waiting. */
export function Seats({ seats, max, consortName }: { seats: Seat[]; max: number; consortName?: Map<string, string> }) {
  const bySeat = new Map(seats.map((s) => [s.seat, s]))
  const slots = Array.from({ length: Math.max(max, seats.length) }, (_, i) => i)
  return (
    <View className='seats'>
      {slots.map((i) => {
        const s = bySeat.get(i)
        return (
          <View key={i} className={`seat ${s ? 'seat-taken' : 'seat-empty'} ${s?.is_me ? 'seat-me' : ''}`} data-seat={i}>
            <View className='seat-no'>{cnNumber(i + 1)}</View>
            {s ? (
              <View className='grow'>
                {/* a bot's name without 「（机器人）」: its badge says it */}
                <Text className='seat-name'>{s.bot ? botless(s.name) : s.name}</Text>
                {s.consort && consortName?.get(s.consort) && consortName.get(s.consort) !== s.name
                  ? <Text className='seat-consort muted'>{consortName.get(s.consort)}</Text> : null}
              </View>
            ) : (
              <Text className='grow faint'>虚位以待</Text>
            )}
            {s?.bot ? <Text className='badge badge-jade'>{s.bot === 'advanced' ? '机器人 · 进阶' : '机器人'}</Text> : null}
            {s?.is_me ? <Text className='badge badge-zhu'>我</Text> : null}
          </View>
        )
      })}
    </View>
  )
}
