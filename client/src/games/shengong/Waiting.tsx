import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Panel } from '../../components/Panel'
import { SealButton } from '../../components/SealButton'
import { GuideButton } from '../../components/guide/GuideButton'
import { InviteRow } from '../../components/room/InviteRow'
import { JoinSeat } from '../../components/room/JoinSeat'
import { LeaveButton } from '../../components/room/LeaveButton'
import { Seats } from '../../components/room/Seats'
import { roleLabel } from '../../lib/labels'
import { goLobby } from '../../lib/nav'
import type { RoomView } from './types'

type BotLevel = 'simple' | 'advanced'

interface Props {
  view: RoomView
  busy: string | undefined
  onStart: () => void
  onLeave: () => void
  onBots: (level: BotLevel) => void
  onJoined: () => void
  onError: (e: unknown) => void
}

/**
 * Before 开战: the seats (bot seats marked 机器人), and for the creator 开战 and — in A/B/C — filling
 * the empty seats with bots; 离席 for a seated player. D starts by itself when the third joins.
 */
export function Waiting({ view, busy, onStart, onLeave, onBots, onJoined, onError }: Props) {
  const room = view.room
  const [level, setLevel] = useState<BotLevel>('simple')
  const d = room.game === 'shengong_d'
  const empty = room.max_seats - room.seats.length
  const seated = view.viewer.role === 'player' && view.viewer.seat !== null
  const opts = room.options as { stage?: number; turn_seconds?: number }
  return (
    <>
      <Panel title='候场' extra={`${room.seats.length}/${room.max_seats} 人`}>
        <View className='summary'>
          <View className='summary-item'>
            <Text className='summary-key'>房主</Text>
            <Text>{room.creator_name}{room.is_creator ? '（我）' : ''}</Text>
          </View>
          <View className='summary-item'>
            <Text className='summary-key'>我</Text>
            <Text>{roleLabel(view.viewer.role, room.game)}{seated ? ` · 第 ${(view.viewer.seat ?? 0) + 1} 席` : ''}</Text>
          </View>
          {d && opts.stage ? (
            <View className='summary-item'>
              <Text className='summary-key'>关卡</Text>
              <Text>关卡{opts.stage}</Text>
            </View>
          ) : null}
          <View className='summary-item'>
            <Text className='summary-key'>时限</Text>
            <Text>每回合 {opts.turn_seconds ?? 90} 秒</Text>
          </View>
        </View>
        <InviteRow room={room} />
        <View className='note-jade sg-wait-note'>
          {d ? '三人成队，满 3 人自动开战' : `满 ${room.min_seats} 人由房主「开战」${room.is_creator && empty > 0 ? '；空位可由机器人补上（练习局，不计入榜单）' : ''}`}
        </View>
      </Panel>
      <Panel title='席次' extra={`${room.seats.length} 人在座`}>
        <Seats seats={room.seats} max={room.max_seats} />
      </Panel>
      {room.is_creator && !d && empty > 0 ? (
        <Panel title='机器人补位' extra={`空 ${empty} 席`}>
          <View className='chip-row'>
            {(['simple', 'advanced'] as const).map((l) => (
              <View key={l} className={`chip ${level === l ? 'chip-on' : ''}`} role='button' onClick={() => setLevel(l)}>
                {l === 'simple' ? '简单' : '进阶'}
              </View>
            ))}
            <SealButton size='small' kind='jade' busy={busy === 'bots'} onClick={() => onBots(level)}>补满空位</SealButton>
          </View>
        </Panel>
      ) : null}
      <View className='room-actions'>
        <SealButton kind='ghost' onClick={() => void goLobby()}>回大厅</SealButton>
        <GuideButton gameKey={room.game} size='normal' />
        {room.is_creator && room.seats.length >= room.min_seats ? (
          <SealButton kind='gold' busy={busy === 'start'} onClick={onStart}>开战</SealButton>
        ) : null}
        {seated ? <LeaveButton room={room} busy={busy === 'leave'} onLeave={onLeave} /> : null}
        {!seated && view.viewer.role === 'spectator' && empty > 0 ? <JoinSeat room={room} onJoined={onJoined} onError={onError} /> : null}
      </View>
    </>
  )
}
