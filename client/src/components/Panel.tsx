import type { ReactNode } from 'react'
import { View } from '@tarojs/components'

interface Props {
  title?: string
  extra?: ReactNode
  className?: string
  children: ReactNode
}

/** A framed sheet of paper with a gold-edged title. */
export function Panel({ title, extra, className, children }: Props) {
  return (
    <View className={`panel ${className ?? ''}`}>
      {title ? (
        <View className='panel-title'>
          {title}
          {extra ? <View className='panel-title-extra'>{extra}</View> : null}
        </View>
      ) : null}
      {children}
    </View>
  )
}
