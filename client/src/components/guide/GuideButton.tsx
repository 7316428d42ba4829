import { useState } from 'react'
import { View } from '@tarojs/components'
import { SealButton } from '../SealButton'
import { GuideSheet } from './GuideSheet'

/** 「玩法」 beside 回大厅 in a room: the rules of the game at the table, without leaving it. */
export function GuideButton({ gameKey, size = 'small' }: { gameKey: string; size?: 'small' | 'normal' }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <SealButton kind='ghost' size={size} onClick={() => setOpen(true)}>玩法</SealButton>
      <GuideSheet gameKey={gameKey} open={open} onClose={() => setOpen(false)} />
    </>
  )
}

/** 「先看玩法 ›」: a line-link for places where a seal button would be one too many (开房). */
export function GuideLink({ gameKey }: { gameKey: string }) {
  const [open, setOpen] = useState(false)
  return (
    <>
      <View className='guide-link' role='button' onClick={() => setOpen(true)}>先看玩法 ›</View>
      <GuideSheet gameKey={gameKey} open={open} onClose={() => setOpen(false)} />
    </>
  )
}
