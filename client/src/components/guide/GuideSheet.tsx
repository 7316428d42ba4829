import { Text, View } from '@tarojs/components'
import { api } from '../../api'
import { useData } from '../../hooks/useData'
import { ErrorLine } from '../ErrorLine'
import { Sheet } from '../Sheet'
import './guide.css'

/** 怎么玩: the game's rules as the server writes them (GET /v1/guides/{game_key}), section by section;
 * loaded when opened (the page's title is the server's name of the game). */
function GuideBody({ gameKey, onClose }: { gameKey: string; onClose: () => void }) {
  const guide = useData(() => api.GET('/v1/guides/{game_key}', { params: { path: { game_key: gameKey } } }), [gameKey])
  const title = guide.data ? `玩法 · ${guide.data.title}` : '玩法'
  return (
    <Sheet title={title} open onClose={onClose}>
      {guide.error ? <ErrorLine error={guide.error} /> : null}
      {!guide.data && !guide.error ? <View className='muted guide-loading'>展卷中…</View> : null}
      {guide.data ? (
        <View className='guide'>
          {guide.data.sections.map((section) => (
            <View key={section.title} className='guide-section'>
              <View className='guide-heading'><Text>{section.title}</Text></View>
              {section.lines.map((line) => <View key={line} className='guide-line'>{line}</View>)}
            </View>
          ))}
        </View>
      ) : null}
    </Sheet>
  )
}

export function GuideSheet({ gameKey, open, onClose }: { gameKey: string; open: boolean; onClose: () => void }) {
  return open ? <GuideBody gameKey={gameKey} onClose={onClose} /> : null
}
