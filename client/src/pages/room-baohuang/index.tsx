import { useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { View } from '@tarojs/components'
import { api } from '../../api'
import { notDelivered } from '../../api/errors'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { Screen } from '../../components/Screen'
import { SealButton } from '../../components/SealButton'
import { InviteRow } from '../../components/room/InviteRow'
import { LobbyButton } from '../../components/room/LobbyButton'
import { GuideButton } from '../../components/guide/GuideButton'
import { RoomUnreachable } from '../../components/room/RoomUnreachable'
import { Seats } from '../../components/room/Seats'
import { WaitingActions } from '../../components/room/WaitingActions'
import { BaohuangGame } from '../../games/baohuang/Game'
import { VARIANT_NAME } from '../../games/baohuang/table'
import { useAuthGuard } from '../../hooks/useAuthGuard'
import { usePoll } from '../../hooks/usePoll'
import { useRoomShare } from '../../hooks/useRoomShare'
import { STATUS } from '../../lib/labels'
import '../../components/room/room.css'
import { StatusSeal } from '../../components/room/StatusSeal'
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
    { takesPushed: true },  // the plain view: a notice that carries it is shown as it comes
  )
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()
  const [level, setLevel] = useState<BotLevel>('simple')
  const view = poll.data
  const room = view?.room
  useRoomShare(room)

  if (!authed) return null

  const run = async (key: string, fn: () => Promise<unknown>) => {
    setBusy(key)
    setError(undefined)
    try {
      await fn()
    } catch (e) {
      setError(notDelivered(e))
    } finally {
      setBusy(undefined)
      poll.refresh()
    }
  }
  const path = { params: { path: { room_id: roomId } } }

  const status = room?.status ?? ''
  const seated = view?.viewer.role === 'player' && view.viewer.seat !== null
  const options = room?.options
  const sub = options
    ? [
        // The title (保皇·简明) names the variant already; say it here only when it does not.
        room?.title?.includes(VARIANT_NAME[options.variant ?? 'simple']) ? '' : VARIANT_NAME[options.variant ?? 'simple'],
        options.baoliu ? '保六' : '',
        `每手 ${options.turn_seconds ?? 30} 秒`,
      ].filter(Boolean).join(' · ')
    : '房间'
  return (
    <Screen
      title={room?.title ?? '保皇'}
      sub={sub}
      extra={room ? <StatusSeal room={room} /> : undefined}
    >
      <ErrorLine error={poll.error} />
      {!view && !poll.error ? <View className='loading'>入殿中…</View> : null}
      {!view && poll.error ? <RoomUnreachable error={poll.error} roomId={roomId} family='baohuang' onEntered={poll.retry} /> : null}
      {view && room && status === 'open' ? (
        <>
          <Panel title='候场'>
            <View className='bh-note'>五人满座，由房主开战。房主可以用机器人补满空位（练习局，不计榜）。</View>
            <Seats seats={room.seats} max={room.max_seats} />
            <InviteRow room={room} />
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
          <WaitingActions room={room} seated={seated} canSit={view.viewer.role === 'spectator'} busy={busy} run={run} startLabel='开战'
            refresh={poll.refresh} onError={setError} />
        </>
      ) : null}
      {view && room && status !== 'open' ? (
        <>
          {view.game ? <BaohuangGame view={view} refresh={poll.refresh} /> : <View className='soon'>{STATUS[status] ?? status}</View>}
          <View className='room-actions'>
            <LobbyButton family='baohuang' warn={status === 'active' && seated} />
            {status === 'active' ? <GuideButton gameKey={room.game} /> : null}
          </View>
        </>
      ) : null}
    </Screen>
  )
}
