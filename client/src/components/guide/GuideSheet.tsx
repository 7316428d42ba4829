import { useEffect, useRef, useState } from 'react'
import { ScrollView, Text, View } from '@tarojs/components'
import { api } from '../../api'
import { useData } from '../../hooks/useData'
import { ErrorLine } from '../ErrorLine'
import { Sheet } from '../Sheet'
import { tocLabel } from './toc'
import './guide.css'

const anchor = (index: number) => `guide-sec-${index}`

/** 怎么玩: the game's rules as the server writes them (GET /v1/guides/{game_key}), section by section;
 * loaded when opened (the page's title is the server's name of the game). A page runs three or four
 * screens, so a strip of its sections' names stays above it and a tap brings that section to the top. */
function GuideBody({ gameKey, onClose }: { gameKey: string; onClose: () => void }) {
  const guide = useData(() => api.GET('/v1/guides/{game_key}', { params: { path: { game_key: gameKey } } }), [gameKey])
  const [target, setTarget] = useState('')
  const timer = useRef<ReturnType<typeof setTimeout>>()
  useEffect(() => () => clearTimeout(timer.current), [])
  // ScrollView scrolls when `scrollIntoView` changes: clear it first, so a second tap on the same
  // name (after she scrolled away) brings it back again
  const jump = (index: number) => {
    setTarget('')
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setTarget(anchor(index)), 0)
  }
  const title = guide.data ? `玩法 · ${guide.data.title}` : '玩法'
  return (
    <Sheet title={title} open onClose={onClose}>
      {guide.error ? <ErrorLine error={guide.error} /> : null}
      {!guide.data && !guide.error ? <View className='muted guide-loading'>展卷中…</View> : null}
      {guide.data ? (
        <>
          <ScrollView scrollX className='guide-toc' aria-label='目录'>
            {guide.data.sections.map((section, index) => (
              <View key={section.title} className='guide-toc-item' role='button' onClick={() => jump(index)}>
                {tocLabel(section.title)}
              </View>
            ))}
          </ScrollView>
          {/* alignment 'start' and no animation: Taro's H5 ScrollView passes `scrollWithAnimation` where it
              means the axis, so with it set a tap would centre the heading instead */}
          <ScrollView scrollY className='guide guide-scroll' scrollIntoView={target} scrollIntoViewAlignment='start'>
            {guide.data.sections.map((section, index) => (
              <View key={section.title} id={anchor(index)} className='guide-section'>
                <View className='guide-heading'><Text>{section.title}</Text></View>
                {section.lines.map((line) => <View key={line} className='guide-line'>{line}</View>)}
              </View>
            ))}
          </ScrollView>
        </>
      ) : null}
    </Sheet>
  )
}

export function GuideSheet({ gameKey, open, onClose }: { gameKey: string; open: boolean; onClose: () => void }) {
  return open ? <GuideBody gameKey={gameKey} onClose={onClose} /> : null
}
