import { useEffect, type ReactNode } from 'react'
import Taro from '@tarojs/taro'
import { View } from '@tarojs/components'
import './Sheet.css'

interface Props {
  title: string
  open: boolean
  onClose: () => void
  children: ReactNode
  footer?: ReactNode
}

let openSheets = 0

/** A dialog that rises from the bottom, framed like an imperial edict. */
export function Sheet({ title, open, onClose, children, footer }: Props) {
  // the tab bar would cover the dialog's buttons on H5: hide it while any dialog is up (one may open
  // over another: 玩法 over 开房), and bring it back when the last one closes
  useEffect(() => {
    if (!open) return undefined
    if (openSheets++ === 0) Taro.hideTabBar({ animation: false }).catch(() => undefined)
    return () => {
      if (--openSheets === 0) Taro.showTabBar({ animation: false }).catch(() => undefined)
    }
  }, [open])
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
