import Taro from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { api } from '../../api'
import { Panel } from '../../components/Panel'
import { SealButton } from '../../components/SealButton'
import { useData } from '../../hooks/useData'
import { useRoomNotices } from '../../hooks/useRoomNotices'
import { roomUrl } from '../../lib/labels'
import { countLine, lineOf } from './myGames'

/**
 * 「我的对局」 at the top of the lobby: the rooms she plays or hosts that are still open or under way
 * (GET /v1/me/rooms: kept by the server, so a game begun on her phone is here on the web page too),
 * each with 继续; those waiting on her (her turn, or her sealed move not in) first, stamped 「轮到你」.
 * Asked again each time the lobby is shown, and when one of them changes while she is here (the app's
 * socket tells it: her turn comes, a game ends), so the stamp is right without a poll.
 */
export function MyGames() {
  const mine = useData(() => api.GET('/v1/me/rooms'), [])
  const rows = mine.data?.rooms ?? []
  useRoomNotices(rows.map((r) => r.room_id), () => void mine.reload())
  if (!rows.length) return null
  return (
    <Panel title='我的对局' extra={countLine(rows)} className='my-games'>
      {rows.map((r) => (
        <View key={r.room_id} className={r.my_turn ? 'my-game my-turn' : 'my-game'} data-room={r.room_id}>
          <View className='grow'>
            <View className='my-game-head'>
              <Text className='my-game-title'>{r.title}</Text>
              {r.my_turn && <Text className='my-turn-stamp'>轮到你</Text>}
            </View>
            <Text className='muted my-game-line'>{lineOf(r)}</Text>
          </View>
          <SealButton size='small' kind={r.status === 'active' ? 'zhu' : 'gold'}
            onClick={() => void Taro.navigateTo({ url: roomUrl(r.game, r.room_id) })}>继续</SealButton>
        </View>
      ))}
    </Panel>
  )
}
