import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { api } from '../../api'
import { notDelivered } from '../../api/errors'
import type { Schemas } from '../../api/types'
import { ErrorLine } from '../ErrorLine'
import { SealButton } from '../SealButton'
import { Sheet } from '../Sheet'

type Room = Pick<Schemas['RoomOut'], 'id' | 'seats' | 'handover' | 'handover_offer'>
type Level = Schemas['HandoverBody']['level']

const LEVEL_NAME: Record<Level, string> = { simple: '简单', advanced: '进阶' }

interface Props {
  room: Room
  /** After her proposal or vote: fetch the room again (the answer is the room alone). */
  onChanged: () => void
}

/**
 * 代打: a player gone from the table (she sent nothing for rounds, or sat out a whole deal in 托管) may
 * have her seat played by a bot. The server says which seats the creator may offer (`handover_offer`)
 * and how the open vote stands for this reader (`handover`); this shows both and sends her choice.
 */
export function Handover({ room, onChanged }: Props) {
  const [asking, setAsking] = useState<number | null>(null)
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()
  const vote = room.handover
  const offers = vote ? [] : room.handover_offer
  if (!vote && !offers.length) return null
  const nameOf = (seat: number) => room.seats.find((s) => s.seat === seat)?.name ?? `${seat + 1} 号`
  const mySeat = room.seats.find((s) => s.is_me)?.seat

  const send = async (what: string, call: () => Promise<unknown>) => {
    setBusy(what)
    setError(undefined)
    try {
      await call()
      setAsking(null)
    } catch (e) {
      setError(notDelivered(e))
    } finally {
      setBusy(undefined)
      onChanged()
    }
  }
  const propose = (seat: number, level: Level) => send(level, () =>
    api.POST('/v1/rooms/{room_id}/handover', { params: { path: { room_id: room.id } }, body: { seat, level } }))
  // the vote names its seat: a retry after the vote was decided answers the room, not NO_HANDOVER
  const cast = (yes: boolean) => send(yes ? 'yes' : 'no', () =>
    api.POST('/v1/rooms/{room_id}/handover/vote', { params: { path: { room_id: room.id } }, body: { yes, seat: vote?.seat } }))

  return (
    <View className='handover' role='region' aria-label='代打'>
      {vote ? (
        <>
          <View className='handover-title'>代打之议</View>
          <View className='handover-text'>
            {vote.seat === mySeat
              ? `有人提议由${LEVEL_NAME[vote.level]}机器人代打你的座位：你一落子，座位就回到你手里。`
              : `提议由${LEVEL_NAME[vote.level]}机器人代打「${vote.name}」的座位。`}
          </View>
          <View className='handover-count'>
            同意 {vote.yes.length} · 不同意 {vote.no.length} · 共 {vote.voters} 票（过半同意即交出，半数不同意作罢）
          </View>
          {vote.can_vote ? (
            <View className='handover-row'>
              <SealButton size='small' kind={vote.my_vote === 'yes' ? 'zhu' : 'ghost'} busy={busy === 'yes'} onClick={() => void cast(true)}>
                {vote.my_vote === 'yes' ? '已同意' : '同意'}
              </SealButton>
              <SealButton size='small' kind={vote.my_vote === 'no' ? 'zhu' : 'ghost'} busy={busy === 'no'} onClick={() => void cast(false)}>
                {vote.my_vote === 'no' ? '已不同意' : '不同意'}
              </SealButton>
              {vote.my_vote ? <Text className='muted handover-note'>投票结束前可改</Text> : null}
            </View>
          ) : null}
        </>
      ) : (
        offers.map((seat) => (
          <View key={seat} className='handover-row'>
            <Text className='grow handover-text'>「{nameOf(seat)}」久未亲自出手，似已离席</Text>
            <SealButton size='small' kind='ghost' onClick={() => setAsking(seat)}>请机器人代打</SealButton>
          </View>
        ))
      )}
      <ErrorLine error={error} />
      <Sheet title='请机器人代打' open={asking !== null} onClose={() => setAsking(null)}
        footer={(
          <>
            <SealButton kind='ghost' onClick={() => setAsking(null)}>再等等</SealButton>
            <SealButton kind='ghost' busy={busy === 'simple'} onClick={() => asking !== null && void propose(asking, 'simple')}>简单机器人</SealButton>
            <SealButton busy={busy === 'advanced'} onClick={() => asking !== null && void propose(asking, 'advanced')}>进阶机器人</SealButton>
          </>
        )}>
        <View className='confirm-text'>
          交给机器人代打「{asking !== null ? nameOf(asking) : ''}」的座位？在座的其余玩家投票，过半同意即交出；她一回来操作，座位就回到她手里。
        </View>
        <View className='muted'>有机器人代打过的对局记为练习：结果照常显示，但不计入榜单与战绩。</View>
        <ErrorLine error={error} />
      </Sheet>
    </View>
  )
}
