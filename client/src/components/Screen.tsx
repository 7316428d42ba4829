import type { ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import { NetBanner } from './NetBanner'

interface Props {
  title: string
  sub?: string
  /** The seal in the masthead's corner: one or two characters. */
  seal?: string
  extra?: ReactNode
  /** The whole page dark (a 血染 player's night: eyes closed, phones face up in a dark room). */
  night?: boolean
  children: ReactNode
}

/** How wide a title may be, in Chinese characters (a Latin letter, digit, space or · counts half),
 * at the masthead's full size on a 375 px phone with its seal beside it. */
const LONG_TITLE = 8

function titleWidth(title: string): number {
  return Array.from(title).reduce((w, ch) => w + (/[\u0000-\u00ff]/.test(ch) ? 0.5 : 1), 0)
}

/** Every page: the vermilion masthead, the reconnect banner, then the page on paper. */
export function Screen({ title, sub, seal, extra, night, children }: Props) {
  return (
    <View className={`screen theme ${night ? 'screen-night' : ''}`}>
      <View className='masthead'>
        <View className='masthead-row'>
          <View className='masthead-main'>
            <Text className={`masthead-title ${titleWidth(title) > LONG_TITLE ? 'masthead-title-long' : ''}`}>{title}</Text>
            {sub ? <View className='masthead-sub'>{sub}</View> : null}
          </View>
          {extra ?? (seal ? <View className='masthead-seal'>{seal}</View> : null)}
        </View>
      </View>
      <NetBanner />
      {children}
    </View>
  )
}
