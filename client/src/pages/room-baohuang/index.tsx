import { useState } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { api } from '../../api'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { Screen } from '../../components/Screen'
import { SealButton } from '../../components/SealButton'
import { RoomUnreachable } from '../../components/room/RoomUnreachable'
import { Seats } from '../../components/room/Seats'
import { WaitingActions } from '../../components/room/WaitingActions'
import { BaohuangGame } from '../../games/baohuang/Game'
import { VARIANT_NAME } from '../../games/baohuang/table'
import { useAuthGuard } from '../../hooks/useAuthGuard'
import { usePoll } from '../../hooks/usePoll'
import { STATUS } from '../../lib/labels'
import '../../components/room/room.css'
import '../../games/baohuang/baohuang.css'

type BotLevel = 'simple' | 'advanced'

/**
 * A 保皇 room: the waiting room (seats, bots, 开战) until the table starts, then the table. Kept fresh
 * by ETag polling of GET /v1/games/baohuang/rooms/{room_id} (room and game in one answer).
 */
export default function Room() {
  const authed = useAuthGuard()
  const roomId = useRouter().params.id ?? ''
  const poll = usePoll(
    (etag) => api.GETIfChanged('/v1/games/baohuang/rooms/{room_id}', etag, { params: { path: { room_id: roomId } } }),
    roomId,
  )
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()
  const [level, setLevel] = useState<BotLevel>('simple')
  const view = poll.data
  const room = view?.room

  if (!authed) return null

  const run = async (key: string, fn: () => Promise<unknown>) => {
    setBusy(key)
    setError(undefined)
    try {
      await fn()
    } catch (e) {
      setError(e)
    } finally {
      setBusy(undefined)
      poll.refresh()
    }
  }
  const path = { params: { path: { room_id: roomId } } }
  const lobby = () => void Taro.navigateBack().catch(() => Taro.switchTab({ url: '/pages/lobby/index' }))

  const status = room?.status ?? ''
  const seated = view?.viewer.role === 'player' && view.viewer.seat !== null
  const options = room?.options
  const sub = options
    ? [VARIANT_NAME[options.variant ?? 'simple'], options.baoliu ? '保六' : '', `每手 ${options.turn_seconds ?? 30} 秒`].filter(Boolean).join(' · ')
    : '房间'
  return (
    <Screen
      title={room?.title ?? '保皇'}
      sub={sub}
      extra={room ? <View className={`status-seal status-${status}`} data-status={status}>{STATUS[status] ?? status}</View> : undefined}
    >
      <ErrorLine error={poll.error} />
      {!view && !poll.error ? <View className='loading'>入殿中…</View> : null}
      {!view && poll.error ? <RoomUnreachable error={poll.error} roomId={roomId} onLobby={lobby} /> : null}
      {view && room && status === 'open' ? (
        <>
          <Panel title='候场' extra={<Text className='room-id'>{room.id}</Text>}>
            <View className='bh-note'>五人满座，由房主开战。房主可以用机器人补满空位（练习局，不计榜）。</View>
            <Seats seats={room.seats} max={room.max_seats} />
          </Panel>
          {room.is_creator && room.seats.length < room.max_seats ? (
            <Panel title='机器人补位'>
              <View className='chip-row'>
                {(['simple', 'advanced'] as const).map((l) => (
                  <View key={l} className={`chip ${level === l ? 'chip-on' : ''}`} onClick={() => setLevel(l)}>{l === 'simple' ? '简单（托管打法）' : '进阶'}</View>
                ))}
              </View>
              <View className='bh-buttons'>
                <SealButton kind='jade' busy={busy === 'bots'}
                  onClick={() => void run('bots', () => api.POST('/v1/rooms/{room_id}/bots', { ...path, body: { level, seated: room.seats.length } }))}>
                  补满空位
                </SealButton>
                <SealButton kind='ghost' busy={busy === 'bot1'}
                  onClick={() => void run('bot1', () => api.POST('/v1/rooms/{room_id}/bots', { ...path, body: { level, count: 1, seated: room.seats.length } }))}>
                  补一位
                </SealButton>
              </View>
            </Panel>
          ) : null}
          <ErrorLine error={error} />
          <WaitingActions room={room} seated={seated} busy={busy} run={run} lobby={lobby} startLabel='开战' />
        </>
      ) : null}
      {view && room && status !== 'open' ? (
        <>
          {view.game ? <BaohuangGame view={view} refresh={poll.refresh} /> : <View className='soon'>{STATUS[status] ?? status}</View>}
          <View className='room-actions'>
            <SealButton kind='ghost' size='small' onClick={lobby}>回大厅</SealButton>
          </View>
        </>
      ) : null}
    </Screen>
  )
}
