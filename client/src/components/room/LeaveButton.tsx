import { useState } from 'react'
import { View } from '@tarojs/components'
import { SealButton } from '../SealButton'
import { Sheet } from '../Sheet'
import { leaveWarning, type LeaveEffect } from '../../lib/leave'

/** 离席, confirmed with a Sheet when the server says leaving closes the room or passes 房主 on (`room.leave`). */
export function LeaveButton({ room, busy, kind = 'ghost', onLeave }: { room: { leave?: LeaveEffect | null }; busy: boolean; kind?: 'ghost' | 'zhu'; onLeave: () => void }) {
  const [asking, setAsking] = useState(false)
  const warning = leaveWarning(room.leave)
  return (
    <>
      <SealButton kind={kind} busy={busy} onClick={() => (warning ? setAsking(true) : onLeave())}>离席</SealButton>
      {asking && warning ? (
        <Sheet
          title='离席'
          open
          onClose={() => setAsking(false)}
          footer={(
            <>
              <SealButton kind='ghost' onClick={() => setAsking(false)}>留下</SealButton>
              <SealButton onClick={() => { setAsking(false); onLeave() }}>离席</SealButton>
            </>
          )}
        >
          <View className='confirm-text'>{warning}</View>
        </Sheet>
      ) : null}
    </>
  )
}
