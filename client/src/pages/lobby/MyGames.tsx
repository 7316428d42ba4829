import Taro from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { api, session } from '../../api'
import { Panel } from '../../components/Panel'
import { SealButton } from '../../components/SealButton'
import { useData } from '../../hooks/useData'
import { roomUrl } from '../../lib/labels'
import { lineOf, loadMyGames } from './myGames'

/**
 * 「我的对局」 at the top of the lobby: the rooms she created, joined or watched on this phone that
 * are still open or under way with her in a seat (or hosting), each with 继续. Ended ones are
 * forgotten. Checked again each time the lobby is shown.
 */
export function MyGames() {
  const userId = session.user()?.id
  const mine = useData(
    async () => (userId ? loadMyGames(userId, (id) => api.GET('/v1/rooms/{room_id}', { params: { path: { room_id: id } } })) : []),
    [userId],
  )
  const rows = mine.data ?? []
  if (!rows.length) return null
  return (
    <Panel title='我的对局' extra={`${rows.length} 局`} className='my-games'>
      {rows.map(({ id, summary }) => (
        <View key={id} className='my-game' data-room={id}>
          <View className='grow'>
            <Text className='my-game-title'>{summary.room.title}</Text>
            <Text className='muted my-game-line'>{lineOf(summary)}</Text>
          </View>
          <SealButton size='small' kind={summary.room.status === 'active' ? 'zhu' : 'gold'}
            onClick={() => void Taro.navigateTo({ url: roomUrl(summary.room.game, id) })}>继续</SealButton>
        </View>
      ))}
    </Panel>
  )
}
