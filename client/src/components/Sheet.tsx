import type { ReactNode } from 'react'
import { View } from '@tarojs/components'
import './Sheet.css'

interface Props {
  title: string
  open: boolean
  onClose: () => void
  children: ReactNode
  footer?: ReactNode
}

/** A dialog that rises from the bottom, framed like an imperial edict. */
export function Sheet({ title, open, onClose, children, footer }: Props) {
  if (!open) return null
  return (
    <View className='sheet-mask' onClick={onClose}>
      <View className='sheet' role='dialog' aria-label={title} onClick={(e) => e.stopPropagation()}>
        <View className='sheet-head'>
          <View className='sheet-title'>{title}</View>
          <View className='sheet-close' role='button' aria-label='关闭' onClick={onClose}>×</View>
        </View>
        <View className='sheet-body'>{children}</View>
        {footer ? <View className='sheet-foot'>{footer}</View> : null}
      </View>
    </View>
  )
}
