import { useState } from 'react'
import Taro from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { api, session } from '../../api'
import { notDelivered } from '../../api/errors'
import type { Schemas } from '../../api/types'
import { roomUrl } from '../../lib/labels'
import { carryPassword } from '../../lib/myRooms'
import { ErrorLine } from '../ErrorLine'
import { SealButton } from '../SealButton'

type Room = Pick<Schemas['RoomOut'], 'id' | 'again' | 'hosted'>

interface Props {
  room: Room
  /** She sat at this table, or hosted it (spectators get no button). */
  mine: boolean
  /** She hosted it (a hosted game's next room is hers to open). */
  hosting: boolean
  /** The stage to play (宫斗杀); undefined: the same settings. */
  stage?: number
  label: string
  kind?: 'ghost' | 'gold' | 'zhu'
  /** While a hosted game's next room is not open yet, what a player reads instead of a button. */
  waitText?: string
}

/**
 * 再战: the table plays again in one room. The first tap opens it (POST /v1/rooms/{id}/again); a
 * teammate's tap sits her in that same room; the finished room names it (`room.again`), so the others
 * read who opened it before they tap (it may have filled or started since: the tap then opens the next
 * one, the server decides). The app goes to the new room's page in place of this one; the 暗号 she typed
 * for this room is remembered for that one (it keeps the 暗号), so its waiting room shows it.
 * Put it in a row with the class `again-row`.
 */
export function AgainButton({ room, mine, hosting, stage, label, kind = 'ghost', waitText }: Props) {
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  if (!mine) return null
  const opened = room.again.find((a) => a.stage === (stage ?? null))
  if (room.hosted && !hosting && !opened) {
    return waitText ? <Text className='muted again-wait'>{waitText}</Text> : null
  }
  const go = async () => {
    setBusy(true)
    setError(undefined)
    try {
      const made = await api.POST('/v1/rooms/{room_id}/again', {
        params: { path: { room_id: room.id } },
        body: stage === undefined ? {} : { stage },
      })
      carryPassword(session.user()?.id, room.id, made.room)
      void Taro.redirectTo({ url: roomUrl(made.room.game, made.room.id) })
    } catch (e) {
      setError(notDelivered(e))
    } finally {
      setBusy(false)
    }
  }
  // a fragment: in a wrapping row (`again-row`) the note and the error take whole lines above and
  // below the buttons, which stay side by side
  // her own 再战 room (she came back to the old page): back to it, not 「同席」 with herself
  const shown = opened?.by_me ? '回新房' : label
  return (
    <>
      {opened ? (
        <Text className='again-note'>
          {opened.by_me ? '你已开好新房' : `${opened.by} 已开了新房，点「${label}」前往`}
        </Text>
      ) : null}
      <SealButton kind={kind} busy={busy} onClick={() => void go()}>{shown}</SealButton>
      {error ? <View className='again-error'><ErrorLine error={error} /></View> : null}
    </>
  )
}
