import { useState } from 'react'
import Taro from '@tarojs/taro'
import { Input, View } from '@tarojs/components'
import { ApiError, api } from '../../api'
import { notDelivered } from '../../api/errors'
import { ErrorLine } from '../../components/ErrorLine'
import { SealButton } from '../../components/SealButton'
import { typedRoomCode } from '../../lib/invite'
import { familyOfError, familyRoomUrl, roomUrl } from '../../lib/labels'

/**
 * 「输入房号」: open a room by the six digits a friend said (the server says where they lead), or by the
 * long id a link carried. By id, its game is asked of the server first; a 暗号 room answers
 * PASSWORD_REQUIRED naming its game (`details.family`), and opens on that game's room page, which asks
 * for the 暗号 (as a 房号's room does).
 */
export function RoomCode() {
  const [code, setCode] = useState('')
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<unknown>()
  const go = async () => {
    const id = typedRoomCode(code)
    if (!id) {
      setError('请输入房号')
      return
    }
    setBusy(true)
    setError(undefined)
    try {
      if (/^\d+$/.test(id)) {
        const found = await api.GET('/v1/room-codes/{code}', { params: { path: { code: id } } })
        void Taro.navigateTo({ url: roomUrl(found.game, found.room_id) })
        setCode('')
        return
      }
      const view = await api.GET('/v1/rooms/{room_id}', { params: { path: { room_id: id } } })
      void Taro.navigateTo({ url: roomUrl(view.room.game, id) })
      setCode('')
    } catch (e) {
      if (e instanceof ApiError && e.code === 'PASSWORD_REQUIRED') {
        // without a family named, any room page finds the room's own page once the 暗号 is given
        void Taro.navigateTo({ url: familyRoomUrl(familyOfError(e) ?? 'shengong', id) })
        setCode('')
      } else {
        setError(notDelivered(e))
      }
    } finally {
      setBusy(false)
    }
  }
  return (
    <View className='room-code'>
      <View className='room-code-row'>
        <Input className='input room-code-input' value={code} maxlength={64} placeholder='输入六位房号' confirmType='go'
          onInput={(e) => setCode(e.detail.value)} onConfirm={() => void go()} />
        <SealButton size='small' busy={busy} onClick={() => void go()}>前往</SealButton>
      </View>
      <ErrorLine error={error} />
    </View>
  )
}
