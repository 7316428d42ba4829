import { useEffect, useRef, useState } from 'react'
import Taro from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { api, session, type Schemas } from '../../api'
import { freshKey, IntentKey } from '../../api/actionKeys'
import { notDelivered } from '../../api/errors'
import { notices } from '../../api/notices'
import type { BodyOf } from '../../api/types'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { Screen } from '../../components/Screen'
import { SealButton } from '../../components/SealButton'
import { GuideButton } from '../../components/guide/GuideButton'
import { GuideSheet } from '../../components/guide/GuideSheet'
import { useAuthGuard } from '../../hooks/useAuthGuard'
import { useData } from '../../hooks/useData'
import { usePoll } from '../../hooks/usePoll'
import { roomUrl } from '../../lib/labels'
import { rememberRoom } from '../../lib/myRooms'
import type { OptionValues } from '../../lib/optionsForm'
import { CreateRoom } from './CreateRoom'
import { GameCard, seatsText } from './GameCard'
import { PasswordPrompt } from '../../components/room/PasswordPrompt'
import { MyGames } from './MyGames'
import { RoomCode } from './RoomCode'
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
  const me = useData(() => api.GET('/v1/me'), [])
  // a game the server says is played with one's 妃子 (`needs_consort`): without one, 开房 / 入席 are
  // greyed with the reason, and 去册封 offered
  const blocked = game?.needs_consort && me.data && !me.data.consort ? '请先认领一位妃子' : undefined
  useEffect(() => {
    // who she is, for the rooms this phone remembers for her (kept at login; filled in if missing)
    if (me.data && session.user()?.id !== me.data.user.id) session.setUser(me.data.user)
  }, [me.data])

  useEffect(() => {
    if (!selected && games.data) setSelected(games.data.games.find((g) => g.open)?.key)
  }, [games.data, selected])

  useEffect(() => {
    if (authed) void notices.prepare()  // WeChat asks only inside a tap: know the templates before it
  }, [authed])

  // 候场: rooms waiting for players; 对局中: games under way, to watch
  const [shelf, setShelf] = useState<'open' | 'active'>('open')
  const rooms = usePoll(
    async () => ({
      status: 200,
      data: selected ? await api.GET('/v1/rooms', { params: { query: { game: selected, status: shelf } } }) : { rooms: [], cursor: null },
    }),
    selected ? `${selected}:${shelf}` : '',
    { baseMs: 4000 },
  )

  const [creating, setCreating] = useState(false)
  const [guide, setGuide] = useState<string>()
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()
  const [pending, setPending] = useState<Pending>()
  // one key per room she means to open: a tap again after a lost answer finds the room the first made
  const createKey = useRef(new IntentKey(freshKey('room')))
  const list = rooms.data?.rooms ?? []
  // a failed 开房 / 入席 belongs to the shelf and game it was tapped on: gone when she turns to another
  useEffect(() => setError(undefined), [selected, shelf])

  if (!authed) return null
  const remember = (room: { id: string; game: string }, password?: string | null) => {
    const userId = session.user()?.id
    if (userId) rememberRoom(userId, { id: room.id, game: room.game, password })
  }

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
      const view = await createKey.current.send(body, (key) => api.POST('/v1/rooms', { body, headers: { 'Idempotency-Key': key } }))
      remember(view.room, password)
      go(view.room.game, view.room.id)
    } catch (e) {
      setError(notDelivered(e))
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
      remember(room, password)
      go(room.game, room.id)
    } catch (e) {
      setError(notDelivered(e))
    } finally {
      setBusy(undefined)
    }
  }

  const ask = (room: LobbyRoom, mode: 'join' | 'watch') => {
    setError(undefined)
    if (room.has_password) setPending({ room, mode })
    else void enter(room, mode)
  }

  return (
    <Screen title='大厅' sub='择一玩法，开房或入席' seal='深宫'>
      <MyGames />
      <RoomCode />
      <ErrorLine error={games.error} />
      {games.loading && !games.data ? <View className='loading'>宫门初开…</View> : null}
      <View className='games'>
        {(games.data?.games ?? []).map((g) => (
          <GameCard key={g.key} game={g} selected={g.key === selected} onSelect={() => setSelected(g.key)} onGuide={() => setGuide(g.key)} />
        ))}
      </View>

      {game ? (
        <Panel title={game.title} extra={`${seatsText(game)}${game.auto_start ? ' · 满员即开' : ''}`}>
          <View className='lobby-actions'>
            <View className='chip-row lobby-shelves' role='tablist'>
              {(['open', 'active'] as const).map((k) => (
                <View key={k} className={`chip ${shelf === k ? 'chip-on' : ''}`} role='tab' aria-selected={shelf === k ? 'true' : 'false'}
                  data-shelf={k} onClick={() => setShelf(k)}>
                  {k === 'open' ? '候场' : '对局中'}
                </View>
              ))}
            </View>
            <View className='lobby-buttons'>
              <GuideButton gameKey={game.key} size='normal' />
              <SealButton kind='gold' disabled={!!blocked} onClick={() => { setError(undefined); setCreating(true) }}>开房</SealButton>
            </View>
          </View>
          {blocked ? (
            <View className='lobby-block' role='note'>
              <Text>{blocked}，方可开房、入席</Text>
              <SealButton size='small' kind='ghost' onClick={() => void Taro.switchTab({ url: '/pages/me/index' })}>去册封</SealButton>
            </View>
          ) : null}
          {!pending && !creating ? <ErrorLine error={error} /> : null}
          <ErrorLine error={rooms.error} />
          {list.map((r) => (
            <RoomRow
              key={r.id}
              room={r}
              gameTitle={game.title}
              blocked={blocked}
              underWay={shelf === 'active'}
              busy={busy === r.id}
              onJoin={() => ask(r, 'join')}
              onWatch={() => ask(r, 'watch')}
            />
          ))}
          {!list.length ? <View className='empty'>{shelf === 'open' ? '虚席以待，不如自开一局' : '此刻无人对局'}</View> : null}
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
      <GuideSheet gameKey={guide ?? ''} open={guide !== undefined} onClose={() => setGuide(undefined)} />
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
