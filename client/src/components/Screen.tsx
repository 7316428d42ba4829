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

/** Every page: the vermilion masthead, the reconnect banner, then the page on paper. */
export function Screen({ title, sub, seal, extra, night, children }: Props) {
  return (
    <View className={`screen theme ${night ? 'screen-night' : ''}`}>
      <View className='masthead'>
        <View className='masthead-row'>
          <View>
            <Text className='masthead-title'>{title}</Text>
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
