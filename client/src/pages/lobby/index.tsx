import { useEffect, useState } from 'react'
import Taro from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { api, type Schemas } from '../../api'
import { notices } from '../../api/notices'
import type { BodyOf } from '../../api/types'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { Screen } from '../../components/Screen'
import { SealButton } from '../../components/SealButton'
import { useAuthGuard } from '../../hooks/useAuthGuard'
import { useData } from '../../hooks/useData'
import { usePoll } from '../../hooks/usePoll'
import { roomUrl } from '../../lib/labels'
import type { OptionValues } from '../../lib/optionsForm'
import { CreateRoom } from './CreateRoom'
import { GameCard, seatsText } from './GameCard'
import { PasswordPrompt } from './PasswordPrompt'
import { RoomRow } from './RoomRow'
import './index.css'

type LobbyRoom = Schemas['LobbyRoomOut']
type GameKey = Schemas['GameOut']['key']
type Pending = { room: LobbyRoom; mode: 'join' | 'watch' }

export default function Lobby() {
  const authed = useAuthGuard()
  const games = useData(() => api.GET('/v1/games'), [])
  const [selected, setSelected] = useState<GameKey>()
  const game = games.data?.games.find((g) => g.key === selected)

  useEffect(() => {
    if (!selected && games.data) setSelected(games.data.games.find((g) => g.open)?.key)
  }, [games.data, selected])

  useEffect(() => {
    if (authed) void notices.prepare()  // WeChat asks only inside a tap: know the templates before it
  }, [authed])

  const rooms = usePoll(
    async () => ({ status: 200, data: selected ? await api.GET('/v1/rooms', { params: { query: { game: selected } } }) : { rooms: [], cursor: null } }),
    selected ?? '',
    { baseMs: 4000 },
  )

  const [creating, setCreating] = useState(false)
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()
  const [pending, setPending] = useState<Pending>()

  if (!authed) return null

  const go = (gameKey: string, roomId: string) => {
    setCreating(false)
    setPending(undefined)
    void Taro.navigateTo({ url: roomUrl(gameKey, roomId) })
  }

  const create = async (options: OptionValues, password: string | null) => {
    if (!game) return
    void notices.ask()  // 「轮到你了」 while the app is closed: WeChat's dialog, from this tap
    setBusy('create')
    setError(undefined)
    try {
      const body = { game: game.key, options, password } as unknown as BodyOf<'/v1/rooms', 'post'>
      const view = await api.POST('/v1/rooms', { body, headers: { 'Idempotency-Key': `${game.key}-${Date.now()}` } })
      go(view.room.game, view.room.id)
    } catch (e) {
      setError(e)
    } finally {
      setBusy(undefined)
    }
  }

  const enter = async (room: LobbyRoom, mode: 'join' | 'watch', password?: string) => {
    if (mode === 'join') void notices.ask()
    setBusy(room.id)
    setError(undefined)
    try {
      const init = { params: { path: { room_id: room.id } }, body: password ? { password } : {} }
      if (mode === 'join') await api.POST('/v1/rooms/{room_id}/join', init)
      else await api.POST('/v1/rooms/{room_id}/spectate', init)
      go(room.game, room.id)
    } catch (e) {
      setError(e)
    } finally {
      setBusy(undefined)
    }
  }

  const ask = (room: LobbyRoom, mode: 'join' | 'watch') => {
    setError(undefined)
    if (room.has_password) setPending({ room, mode })
    else void enter(room, mode)
  }

  const list = rooms.data?.rooms ?? []

  return (
    <Screen title='大厅' sub='择一玩法，开房或入席' seal='开局'>
      <ErrorLine error={games.error} />
      {games.loading && !games.data ? <View className='loading'>宫门初开…</View> : null}
      <View className='games'>
        {(games.data?.games ?? []).map((g) => (
          <GameCard key={g.key} game={g} selected={g.key === selected} onSelect={() => setSelected(g.key)} />
        ))}
      </View>

      {game ? (
        <Panel title={game.title} extra={`${seatsText(game)}${game.auto_start ? ' · 满员即开' : ''}`}>
          <View className='lobby-actions'>
            <Text className='muted'>{list.length ? `${list.length} 间房候场` : '暂无候场的房间'}</Text>
            <SealButton kind='gold' onClick={() => { setError(undefined); setCreating(true) }}>开房</SealButton>
          </View>
          {!pending && !creating ? <ErrorLine error={error} /> : null}
          <ErrorLine error={rooms.error} />
          {list.map((r) => (
            <RoomRow
              key={r.id}
              room={r}
              busy={busy === r.id}
              onJoin={() => ask(r, 'join')}
              onWatch={() => ask(r, 'watch')}
            />
          ))}
          {!list.length ? <View className='empty'>虚席以待，不如自开一局</View> : null}
        </Panel>
      ) : null}

      {game && creating ? (
        <CreateRoom
          key={game.key}
          game={game}
          open
          busy={busy === 'create'}
          error={error}
          onClose={() => setCreating(false)}
          onCreate={(o, p) => void create(o, p)}
        />
      ) : null}
      {pending ? (
        <PasswordPrompt
          open
          title={pending.mode === 'join' ? '入席 · 报暗号' : '观战 · 报暗号'}
          busy={busy === pending.room.id}
          error={error}
          onClose={() => setPending(undefined)}
          onSubmit={(pw) => void enter(pending.room, pending.mode, pw)}
        />
      ) : null}
    </Screen>
  )
}
