import { useEffect, useState } from 'react'
import { useRouter } from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { api } from '../../api'
import { notDelivered } from '../../api/errors'
import { notices } from '../../api/notices'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { Screen } from '../../components/Screen'
import { SealButton } from '../../components/SealButton'
import { InviteRow } from '../../components/room/InviteRow'
import { AgainButton } from '../../components/room/AgainButton'
import { LobbyButton } from '../../components/room/LobbyButton'
import { GuideButton } from '../../components/guide/GuideButton'
import { RoomUnreachable } from '../../components/room/RoomUnreachable'
import { Seats } from '../../components/room/Seats'
import { WaitingActions } from '../../components/room/WaitingActions'
import { Grimoire } from '../../games/zhenhuan/Grimoire'
import { PlayerView } from '../../games/zhenhuan/PlayerView'
import { useAuthGuard } from '../../hooks/useAuthGuard'
import { usePoll } from '../../hooks/usePoll'
import { useRoomShare } from '../../hooks/useRoomShare'
import '../../components/room/room.css'
import { StatusSeal } from '../../components/room/StatusSeal'
import '../../games/zhenhuan/zhenhuan.css'

/**
 * A 血染甄嬛传 room. The storyteller (the room's host) gets the grimoire; a seated player her role card,
 * what she was told and the public town square; a spectator the town square. Kept fresh by ETag
 * polling of GET /v1/games/zhenhuan/rooms/{room_id}.
 */
export default function Room() {
  const authed = useAuthGuard()
  const roomId = useRouter().params.id ?? ''
  const poll = usePoll(
    (etag) => api.GETIfChanged('/v1/games/zhenhuan/rooms/{room_id}', etag, { params: { path: { room_id: roomId } } }),
    roomId,
    { takesPushed: true },  // the plain view: a notice that carries it is shown as it comes
  )
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()
  const [asked, setAsked] = useState(false)
  const view = poll.data
  const room = view?.room
  useRoomShare(room)
  useEffect(() => {
    if (authed) void notices.prepare()  // a traveller's 请求入座 asks WeChat for notices, inside its tap
  }, [authed])

  if (!authed) return null

  const path = { params: { path: { room_id: roomId } } }
  const run = async (key: string, fn: () => Promise<unknown>) => {
    setBusy(key)
    setError(undefined)
    try {
      await fn()
      return true
    } catch (e) {
      setError(notDelivered(e))
      return false
    } finally {
      setBusy(undefined)
      poll.refresh()
    }
  }
  const status = room?.status ?? ''
  const role = view?.viewer.role
  const seated = role === 'player' && view?.viewer.seat !== null && view?.viewer.seat !== undefined

  return (
    <Screen
      title='血染甄嬛传'
      night={role !== 'host' && status === 'active' && view?.game?.phase === 'night'}
      sub={role === 'host' ? '说书人 · 魔典' : seated ? `${(view?.viewer.seat ?? 0) + 1}号座` : room ? '观战' : '房间'}
      extra={room ? <StatusSeal room={room} /> : undefined}
    >
      <ErrorLine error={poll.error} />
      {!view && !poll.error ? <View className='loading'>入殿中…</View> : null}
      {!view && poll.error ? <RoomUnreachable error={poll.error} roomId={roomId} family='zhenhuan' onEntered={poll.retry} /> : null}
      {view && room && status === 'open' ? (
        <>
          <Panel title='候场'>
            <View className='muted zh-wait-note'>说书人开房不入座；5–20 位玩家入席后由说书人开始。</View>
            <Seats seats={room.seats} max={Math.max(room.seats.length + 1, room.min_seats)} />
            <InviteRow room={room} />
          </Panel>
          <ErrorLine error={error} />
          <WaitingActions room={room} seated={seated} canSit={role === 'spectator'} busy={busy} run={run} startLabel='开始布置'
            refresh={poll.refresh} onError={setError} />
        </>
      ) : null}
      {view && room && status === 'active' && role === 'spectator' ? (
        <Panel title='中途入座'>
          <View className='muted'>对局已开。可以请求以旅行者身份入座，由说书人决定身份与阵营。</View>
          <ErrorLine error={error} />
          <View className='room-actions'>
            {asked ? <Text className='muted zh-asked'>已请求，等待说书人</Text> : (
              <SealButton busy={busy === 'ask'} onClick={() => { void notices.ask(); void run('ask', () => api.POST('/v1/rooms/{room_id}/join', { ...path, body: {} })).then((ok) => ok && setAsked(true)) }}>请求入座</SealButton>
            )}
          </View>
        </Panel>
      ) : null}
      {view && room && status !== 'open' && view.game ? (
        role === 'host' && view.game.grimoire ? <Grimoire view={view} refresh={poll.refresh} /> : <PlayerView view={view} refresh={poll.refresh} />
      ) : null}
      {view && room && status !== 'open' ? (
        <View className='room-actions again-row'>
          {status === 'finished' || status === 'abandoned' ? (
            <AgainButton room={room} mine={seated || role === 'host'} hosting={role === 'host'}
              label={role === 'host' ? '再开一局' : '入席新局'} kind='gold' waitText='等说书人开新局' />
          ) : null}
          <LobbyButton family='zhenhuan' warn={status === 'active' && seated} />
          {status === 'active' ? <GuideButton gameKey={room.game} /> : null}
        </View>
      ) : null}
    </Screen>
  )
}
