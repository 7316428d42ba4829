import { Text, View } from '@tarojs/components'
import { SealButton } from '../../components/SealButton'
import { Sheet } from '../../components/Sheet'
import type { RoomView } from './types'

/**
 * 催战 settles the round at once for everyone: before it goes, the creator sees who has not sealed
 * and what happens to them (seed: 未落子按待机处理), and confirms.
 */
export function HurrySheet({ open, view, onCancel, onHurry }: {
  open: boolean
  view: RoomView
  onCancel: () => void
  onHurry: () => void
}) {
  const pending = view.pending
  const sealed = new Set(pending?.submitted ?? [])
  const names = new Map((view.game?.players ?? []).map((p) => [p.seat, p.name]))
  const waiting = (pending?.seats ?? []).filter((s) => !sealed.has(s)).map((s) => names.get(s) ?? `${s + 1}号`)
  return (
    <Sheet title='催战' open={open} onClose={onCancel} footer={(
      <View className='sg-hurry-buttons'>
        <SealButton kind='ghost' onClick={onCancel}>再等等</SealButton>
        <SealButton kind='gold' className='sg-hurry-confirm' onClick={onHurry}>催战</SealButton>
      </View>
    )}>
      <View className='sg-hurry-text'>
        <Text>本回合即刻结算。</Text>
        <Text className='sg-hurry-who'>{waiting.join('、')}</Text>
        <Text>尚未落子，按待机处理。</Text>
      </View>
    </Sheet>
  )
}
