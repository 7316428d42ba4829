import { useState, type ReactNode } from 'react'
import Taro, { useRouter } from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { api } from '../../api'
import type { Op, SuccessData } from '../../api/types'
import { ErrorLine } from '../ErrorLine'
import { Panel } from '../Panel'
import { Screen } from '../Screen'
import { SealButton } from '../SealButton'
import { useAuthGuard } from '../../hooks/useAuthGuard'
import { useData } from '../../hooks/useData'
import { usePoll } from '../../hooks/usePoll'
import { COMPETITION, ROLE, STATUS, type Family } from '../../lib/labels'
import { Seats } from './Seats'
import './room.css'

/** GET /v1/rooms/{room_id}: the room without its game (summary, viewer, pending, server_time). */
export type RoomView = SuccessData<Op<'/v1/rooms/{room_id}', 'get'>>

const FAMILY_TITLE: Record<Family, string> = { shengong: '深宫杀', baohuang: '保皇', zhenhuan: '血染甄嬛传' }

interface Props {
  family: Family
  /** The game screen of this family, once it exists; until then the summary alone. */
  children?: (view: RoomView, refresh: () => void) => ReactNode
}

/**
 * A room of one game family: summary, seats and status, kept fresh by ETag polling of
 * GET /v1/rooms/{room_id}. Thin on purpose: the game screens slot in as `children`.
 */
export function RoomPage({ family, children }: Props) {
  const authed = useAuthGuard()
  const roomId = useRouter().params.id ?? ''
  const poll = usePoll(
    (etag) => api.GETIfChanged('/v1/rooms/{room_id}', etag, { params: { path: { room_id: roomId } } }),
    roomId,
  )
  // seats carry the consort's id; her name comes from the consort list
  const consorts = useData(() => api.GET('/v1/consorts'), [])
  const consortName = new Map((consorts.data?.consorts ?? []).map((c) => [c.id, c.name]))
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()
  const view = poll.data
  const room = view?.room

  if (!authed) return null

  const act = async (what: 'leave' | 'start') => {
    if (!room) return
    setBusy(what)
    setError(undefined)
    try {
      if (what === 'leave') {
        await api.POST('/v1/rooms/{room_id}/leave', { params: { path: { room_id: room.id } } })
        void Taro.navigateBack().catch(() => Taro.switchTab({ url: '/pages/lobby/index' }))
        return
      }
      await api.POST('/v1/rooms/{room_id}/start', { params: { path: { room_id: room.id } } })
      poll.refresh()
    } catch (e) {
      setError(e)
    } finally {
      setBusy(undefined)
    }
  }

  const seated = view?.viewer.role === 'player' && view.viewer.seat !== null
  const status = room?.status ?? ''
  return (
    <Screen
      title={room?.title ?? FAMILY_TITLE[family]}
      sub={room ? `${FAMILY_TITLE[family]} · ${COMPETITION[room.competition] ?? room.competition}` : '房间'}
      extra={room ? <View className={`status-seal status-${status}`} data-status={status}>{STATUS[status] ?? status}</View> : undefined}
    >
      <ErrorLine error={poll.error} />
      {!view && !poll.error ? <View className='loading'>入殿中…</View> : null}
      {view && room ? (
        <>
          <Panel title='房间' extra={<Text className='room-id'>{room.id}</Text>}>
            <View className='summary'>
              <View className='summary-item'>
                <Text className='summary-key'>房主</Text>
                <Text>{room.creator_name}{room.is_creator ? '（我）' : ''}</Text>
              </View>
              <View className='summary-item'>
                <Text className='summary-key'>状态</Text>
                <Text className='room-status'>{STATUS[status] ?? status}</Text>
              </View>
              <View className='summary-item'>
                <Text className='summary-key'>席位</Text>
                <Text>{room.seats.length}/{room.max_seats}{room.min_seats < room.max_seats ? `（${room.min_seats} 人可开）` : ''}</Text>
              </View>
              <View className='summary-item'>
                <Text className='summary-key'>我</Text>
                <Text>{ROLE[view.viewer.role] ?? view.viewer.role}{seated ? ` · 第 ${(view.viewer.seat ?? 0) + 1} 席` : ''}</Text>
              </View>
              {room.has_password ? (
                <View className='summary-item'>
                  <Text className='summary-key'>暗号</Text>
                  <Text className='lock'>暗</Text>
                </View>
              ) : null}
            </View>
            {view.pending ? <View className='pending'>{view.pending.label}</View> : null}
          </Panel>

          <Panel title='席次' extra={`${room.seats.length} 人在座`}>
            <Seats seats={room.seats} max={room.max_seats} consortName={consortName} />
          </Panel>

          {children ? children(view, poll.refresh) : (
            status === 'active' ? <View className='soon'>对局已开，棋盘画面即将开放</View> : null
          )}

          <ErrorLine error={error} />
          <View className='room-actions'>
            <SealButton kind='ghost' onClick={() => void Taro.switchTab({ url: '/pages/lobby/index' })}>回大厅</SealButton>
            {status === 'open' && room.is_creator && room.seats.length >= room.min_seats ? (
              <SealButton kind='gold' busy={busy === 'start'} onClick={() => void act('start')}>开战</SealButton>
            ) : null}
            {status === 'open' && seated ? (
              <SealButton busy={busy === 'leave'} onClick={() => void act('leave')}>离席</SealButton>
            ) : null}
          </View>
        </>
      ) : null}
    </Screen>
  )
}
