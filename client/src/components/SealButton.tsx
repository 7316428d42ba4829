import type { ReactNode } from 'react'
import { View } from '@tarojs/components'

interface Props {
  children: ReactNode
  onClick?: () => void
  kind?: 'zhu' | 'ghost' | 'gold' | 'jade'
  size?: 'small' | 'normal' | 'big'
  block?: boolean
  disabled?: boolean
  busy?: boolean
  className?: string
}

/** A 印章 (seal) button. A View, not a native Button: it looks the same on both targets. */
export function SealButton({ children, onClick, kind = 'zhu', size = 'normal', block, disabled, busy, className }: Props) {
  const classes = [
    'seal',
    kind !== 'zhu' ? `seal-${kind}` : '',
    size !== 'normal' ? `seal-${size}` : '',
    block ? 'seal-block' : '',
    disabled || busy ? 'seal-disabled' : '',
    className ?? '',
  ].filter(Boolean).join(' ')
  return (
    <View
      className={classes}
      role='button'
      aria-disabled={disabled || busy ? 'true' : 'false'}
      onClick={() => {
        if (!disabled && !busy && onClick) onClick()
      }}
    >
      {busy ? '稍候…' : children}
    </View>
  )
}
