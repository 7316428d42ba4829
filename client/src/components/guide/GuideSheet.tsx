import { useEffect, useRef, useState } from 'react'
import Taro from '@tarojs/taro'
import { ScrollView, Text, View } from '@tarojs/components'
import { api } from '../../api'
import { useData } from '../../hooks/useData'
import { ErrorLine } from '../ErrorLine'
import { Sheet } from '../Sheet'
import { sectionAt, tocLabel } from './toc'
import './guide.css'

const anchor = (index: number) => `guide-sec-${index}`
const tocAnchor = (index: number) => `guide-toc-${index}`

interface Layout {
  /** the sections' tops within the page */
  tops: number[]
  /** the height of the page's window */
  height: number
}

/** The page's layout, measured once (the page does not change once loaded). */
function measure(): Promise<Layout> {
  return new Promise((resolve) => {
    Taro.createSelectorQuery()
      .select('.guide-scroll').boundingClientRect()
      .select('.guide-scroll').scrollOffset()
      .selectAll('.guide-section').boundingClientRect()
      .exec(([box, offset, sections]) => {
        const tops = box && offset && sections ? sections.map((s: { top: number }) => s.top - box.top + offset.scrollTop) : []
        resolve({ tops, height: box?.height ?? 0 })
      })
  })
}

/** 怎么玩: the game's rules as the server writes them (GET /v1/guides/{game_key}), section by section;
 * loaded when opened (the page's title is the server's name of the game). A page runs three or four
 * screens, so a strip of its sections' names stays above it, the one she is reading lit: a tap brings
 * that section to the top. */
function GuideBody({ gameKey, onClose }: { gameKey: string; onClose: () => void }) {
  const guide = useData(() => api.GET('/v1/guides/{game_key}', { params: { path: { game_key: gameKey } } }), [gameKey])
  const [target, setTarget] = useState('')
  const [reading, setReading] = useState(0)
  const timer = useRef<ReturnType<typeof setTimeout>>()
  const layout = useRef<Layout | null>(null)
  // after a tap, where its own scroll landed (null until it lands): the tapped name stays lit there,
  // even for a section too short to come up to the top, until she scrolls on
  const tapped = useRef<{ landed: number | null } | null>(null)
  useEffect(() => () => clearTimeout(timer.current), [])
  // ScrollView scrolls when `scrollIntoView` changes: clear it first, so a second tap on the same
  // name (after she scrolled away) brings it back again
  const jump = (index: number) => {
    setReading(index)
    tapped.current = { landed: null }
    setTarget('')
    clearTimeout(timer.current)
    timer.current = setTimeout(() => setTarget(anchor(index)), 0)
  }
  const onScroll = (e: { detail: { scrollTop: number; scrollHeight: number } }) => {
    const { scrollTop, scrollHeight } = e.detail
    const tap = tapped.current
    if (tap && (tap.landed === null || Math.abs(scrollTop - tap.landed) < 4)) {
      tap.landed ??= scrollTop
      return
    }
    tapped.current = null
    const follow = ({ tops, height }: Layout) => setReading(sectionAt(tops, scrollTop, scrollTop + height >= scrollHeight - 2))
    if (layout.current) follow(layout.current)
    else void measure().then((measured) => {
      if (measured.tops.length) layout.current = measured
      follow(measured)
    })
  }
  const title = guide.data ? `玩法 · ${guide.data.title}` : '玩法'
  return (
    <Sheet title={title} open onClose={onClose}>
      {guide.error ? <ErrorLine error={guide.error} /> : null}
      {!guide.data && !guide.error ? <View className='muted guide-loading'>展卷中…</View> : null}
      {guide.data ? (
        <>
          {/* the lit name keeps in sight: it comes to the strip's start ('nearest' keeps the sheet still) */}
          <ScrollView scrollX className='guide-toc' aria-label='目录' scrollIntoView={tocAnchor(reading)}
            scrollIntoViewAlignment='nearest'>
            {guide.data.sections.map((section, index) => (
              <View key={section.title} id={tocAnchor(index)} role='button' onClick={() => jump(index)}
                className={index === reading ? 'guide-toc-item guide-toc-item-on' : 'guide-toc-item'}>
                {tocLabel(section.title)}
              </View>
            ))}
          </ScrollView>
          {/* alignment 'start' and no animation: Taro's H5 ScrollView passes `scrollWithAnimation` where it
              means the axis, so with it set a tap would centre the heading instead */}
          <ScrollView scrollY className='guide guide-scroll' scrollIntoView={target} scrollIntoViewAlignment='start'
            onScroll={onScroll}>
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
