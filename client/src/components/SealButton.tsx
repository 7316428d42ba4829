import { useEffect, useState, type ReactNode } from 'react'
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

/** After this long without an answer a busy button says the request is still on its way. */
export const SLOW_MS = 4000

/** A 印章 (seal) button. A View, not a native Button: it looks the same on both targets. */
export function SealButton({ children, onClick, kind = 'zhu', size = 'normal', block, disabled, busy, className }: Props) {
  // a slow network: a request is retried patiently for up to ~45 s; the button says it is not lost
  const [slow, setSlow] = useState(false)
  useEffect(() => {
    setSlow(false)
    if (!busy) return undefined
    const timer = setTimeout(() => setSlow(true), SLOW_MS)
    return () => clearTimeout(timer)
  }, [busy])
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
      {busy ? (slow ? '仍在送达…' : '稍候…') : children}
    </View>
  )
}
