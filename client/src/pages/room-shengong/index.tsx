import { useEffect, useRef, useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { api } from '../../api'
import { notDelivered } from '../../api/errors'
import { ErrorLine } from '../../components/ErrorLine'
import { Screen } from '../../components/Screen'
import { LobbyButton } from '../../components/room/LobbyButton'
import { RoomUnreachable } from '../../components/room/RoomUnreachable'
import { Seats } from '../../components/room/Seats'
import { ShengongGame } from '../../games/shengong/Game'
import { useReports } from '../../games/shengong/hooks'
import { MODE_NAME } from '../../games/shengong/labels'
import { battleBegan } from '../../games/shengong/start'
import { Waiting } from '../../games/shengong/Waiting'
import { useAuthGuard } from '../../hooks/useAuthGuard'
import { usePoll } from '../../hooks/usePoll'
import { useRoomShare } from '../../hooks/useRoomShare'
import { goLobby } from '../../lib/nav'
import { scrollToTop } from '../../lib/scroll'
import { COMPETITION, STATUS } from '../../lib/labels'
import '../../components/room/room.css'
import { StatusSeal } from '../../components/room/StatusSeal'
import '../../games/shengong/shengong.css'

const MODE_OF_GAME: Record<string, 'A' | 'B' | 'C' | 'D'> = { shengong_a: 'A', shengong_b: 'B', shengong_c: 'C', shengong_d: 'D' }

/**
 * A 深宫杀 room (every mode): the waiting room until 开战, then the game — map, hand, actions, the
 * sealed round, 战报 — and the result. Kept fresh by ETag polling of GET /v1/games/shengong/rooms/{id}
 * (room, viewer, pending, server_time and the game as this viewer may see it, in one answer).
 */
export default function Room() {
  const authed = useAuthGuard()
  const roomId = useRouter().params.id ?? ''
  // the view and the 战报 in one request: each fetch asks for the reports after those already read
  const reportsAfter = useRef<{ readonly current: number }>({ current: -1 })
  const poll = usePoll(
    (etag) => api.GETIfChanged('/v1/games/shengong/rooms/{room_id}', etag, {
      params: { path: { room_id: roomId }, query: { reports_after: reportsAfter.current.current } },
    }),
    roomId,
  )
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()
  const view = poll.data
  const room = view?.room
  const feed = useReports(roomId, view?.reports)
  reportsAfter.current = feed.after
  useRoomShare(room)
  // 开战 (by the creator's press, or the third seat of 宫斗杀): back to the top, where the game begins
  const lastStatus = useRef(room?.status)
  useEffect(() => {
    if (battleBegan(lastStatus.current, room?.status)) scrollToTop('.masthead')
    lastStatus.current = room?.status
  }, [room?.status])

  if (!authed) return null

  const run = async (key: string, fn: () => Promise<unknown>, after?: () => void) => {
    setBusy(key)
    setError(undefined)
    try {
      await fn()
      after?.()
    } catch (e) {
      setError(notDelivered(e))
    } finally {
      setBusy(undefined)
      poll.refresh()
    }
  }
  const path = { params: { path: { room_id: roomId } } }
  const lobby = () => void goLobby()

  const mode = room ? MODE_OF_GAME[room.game] ?? 'D' : 'D'
  const game = view?.game
  const stage = (room?.options as { stage?: number } | undefined)?.stage
  // the title says which room (a stage, or 深宫杀), the line under it the mode and the competition, once each
  const title = game?.mode === 'D' && game.stage_title ? game.stage_title : mode === 'D' && stage ? `关卡${stage}` : '深宫杀'
  const sub = room ? `${MODE_NAME[mode]} · ${COMPETITION[room.competition] ?? room.competition}` : '房间'
  const status = room?.status ?? ''
  return (
    <Screen
      title={title}
      sub={sub}
      extra={room ? <StatusSeal room={room} className='room-status' /> : undefined}
    >
      <ErrorLine error={poll.error} />
      {!view && !poll.error ? <View className='loading'>入殿中…</View> : null}
      {!view && poll.error ? <RoomUnreachable error={poll.error} roomId={roomId} family='shengong' onEntered={poll.retry} /> : null}
      {view && room && status === 'open' ? (
        <Waiting
          view={view}
          busy={busy}
          onStart={() => void run('start', () => api.POST('/v1/rooms/{room_id}/start', path))}
          onLeave={() => void run('leave', () => api.POST('/v1/rooms/{room_id}/leave', path), lobby)}
          onJoined={poll.refresh}
          onError={setError}
          onBots={(level) => void run('bots', () => api.POST('/v1/rooms/{room_id}/bots', { ...path, body: { level, seated: room.seats.length } }))}
        />
      ) : null}
      {view && room && game && (status === 'active' || status === 'finished') ? (
        <ShengongGame
          view={view}
          refresh={poll.refresh}
          look={poll.live ? undefined : poll.look}
          reports={feed.reports}
          reportError={feed.error}
          reportsAfter={() => feed.after.current}
        />
      ) : null}
      {view && room && (status === 'expired' || status === 'abandoned' || (status !== 'open' && !game)) ? (
        <View className='sg-closed'>
          <Text className='sg-closed-text'>此局{STATUS[status] ?? status}</Text>
          <Seats seats={room.seats} max={room.max_seats} />
        </View>
      ) : null}
      <ErrorLine error={error} />
      {view && status !== 'open' && status !== 'active' && status !== 'finished' ? (
        <View className='room-actions'>
          <LobbyButton family='shengong' />
        </View>
      ) : null}
    </Screen>
  )
}
