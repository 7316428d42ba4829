import { useState } from 'react'
import { View } from '@tarojs/components'
import { goLobby } from '../../lib/nav'
import { SealButton } from '../SealButton'
import { Sheet } from '../Sheet'

/** The words of the confirmation when she leaves a game under way in which she holds a seat. */
export const LEAVE_RUNNING = '离开后由托管代打，可从大厅「我的对局」回来'

/**
 * 回大厅. During a game under way where she holds a seat (`warn`), it asks first: her seat plays on
 * without her (托管), and the lobby's 「我的对局」 leads back.
 */
export function LobbyButton({ warn: ask, size = 'small', kind = 'ghost' }: { warn?: boolean; size?: 'small' | 'normal'; kind?: 'ghost' | 'zhu' }) {
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
          <View className='confirm-text'>{LEAVE_RUNNING}</View>
        </Sheet>
      ) : null}
    </>
  )
}
