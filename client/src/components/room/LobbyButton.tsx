import { useState } from 'react'
import { View } from '@tarojs/components'
import type { Family } from '../../lib/labels'
import { LEAVE_RUNNING } from '../../lib/leave'
import { goLobby } from '../../lib/nav'
import { SealButton } from '../SealButton'
import { Sheet } from '../Sheet'

/**
 * 回大厅. During a game under way where she holds a seat (`warn`), it asks first, in the words of the
 * room's game (`family`): what becomes of her seat while she is away, and that the lobby's
 * 「我的对局」 leads back.
 */
export function LobbyButton({ family, warn: ask, size = 'small', kind = 'ghost' }: {
  family: Family; warn?: boolean; size?: 'small' | 'normal'; kind?: 'ghost' | 'zhu'
}) {
  const [asking, setAsking] = useState(false)
  return (
    <>
      <SealButton kind={kind} size={size} onClick={() => (ask ? setAsking(true) : void goLobby())}>回大厅</SealButton>
      {asking ? (
        <Sheet
          title='暂离对局'
          open
          onClose={() => setAsking(false)}
          footer={(
            <>
              <SealButton kind='ghost' onClick={() => setAsking(false)}>留下</SealButton>
              <SealButton onClick={() => { setAsking(false); void goLobby() }}>回大厅</SealButton>
            </>
          )}
        >
          <View className='confirm-text'>{LEAVE_RUNNING[family]}</View>
        </Sheet>
      ) : null}
    </>
  )
}
