import type { ReactNode } from 'react'
import { View, Text } from '@tarojs/components'
import { NetBanner } from './NetBanner'

interface Props {
  title: string
  sub?: string
  /** The seal in the masthead's corner: one or two characters. */
  seal?: string
  extra?: ReactNode
  children: ReactNode
}

/** Every page: the vermilion masthead, the reconnect banner, then the page on paper. */
export function Screen({ title, sub, seal, extra, children }: Props) {
  return (
    <View className='screen theme'>
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
