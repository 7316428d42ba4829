import { useEffect, useState } from 'react'
import { Input, Text, View } from '@tarojs/components'
import { SealButton } from '../../components/SealButton'
import { Sheet } from '../../components/Sheet'
import { TELL_CARD, type RoleCard, type ZAction } from './model'
import { Reason, RolePicker, SeatPicker, useCheck, type SeatOption } from './parts'
import type { ZCheck } from './useZhActions'

type Card = 'text' | 'role' | 'alignment' | 'seats' | 'seat_role' | 'demon' | 'minions' | 'bluffs'
const CARDS: Card[] = ['text', 'role', 'alignment', 'demon', 'minions', 'bluffs', 'seats', 'seat_role']

interface Props {
  open: boolean
  seat: number | null
  seats: SeatOption[]
  roles: readonly RoleCard[]
  busy?: string
  send: (a: ZAction, key?: string) => Promise<boolean>
  check: (a: ZAction) => Promise<ZCheck>
  onClose: () => void
}

/** 「告知」: one private message to one player — an info card with its tokens and/or free text. */
export function TellSheet({ open, seat, seats, roles, busy, send, check, onClose }: Props) {
  const [to, setTo] = useState<number | null>(seat)
  const [card, setCard] = useState<Card>('text')
  const [text, setText] = useState('')
  const [picked, setPicked] = useState<string[]>([])
  const [who, setWho] = useState<number[]>([])
  const [alignment, setAlignment] = useState<'good' | 'evil'>('good')
  useEffect(() => {
    if (open) {
      setTo(seat)
      setText('')
      setPicked([])
      setWho([])
      setCard('text')
    }
  }, [open, seat])
  const needsRoles = card === 'role' || card === 'seat_role' || card === 'bluffs'
  const needsSeats = card === 'seats' || card === 'seat_role' || card === 'demon' || card === 'minions'
  const action: ZAction | null = to === null ? null : {
    type: 'tell', seat: to, card,
    ...(text.trim() ? { text: text.trim() } : {}),
    ...(needsRoles ? { roles: picked as never } : {}),
    ...(needsSeats ? { seats: who } : {}),
    ...(card === 'alignment' || card === 'role' ? { alignment } : {}),
  }
  const verdict = useCheck(open ? action : null, check, `tell-${open}`)
  return (
    <Sheet title='告知' open={open} onClose={onClose}
      footer={(
        <>
          <SealButton kind='ghost' onClick={onClose}>取消</SealButton>
          <SealButton busy={busy === 'tell'} disabled={!action || (!!verdict && !verdict.legal)}
            onClick={() => { if (action) void send(action, 'tell').then((ok) => ok && onClose()) }}>告知</SealButton>
        </>
      )}>
      <View className='zh-form'>
        <Text className='field-label'>告诉谁</Text>
        <SeatPicker seats={seats} value={to === null ? [] : [to]} onChange={(v) => setTo(v[0] ?? null)} />
        <Text className='field-label'>卡片</Text>
        <View className='chip-row'>
          {CARDS.map((c) => (
            <View key={c} className={`chip zh-chip ${card === c ? 'chip-on' : ''}`} onClick={() => setCard(c)}>{TELL_CARD[c]}</View>
          ))}
        </View>
        {needsRoles ? (
          <>
            <Text className='field-label'>{card === 'bluffs' ? '不在场的角色（1–3 个）' : '角色'}</Text>
            <RolePicker roles={roles} value={picked} multi={card === 'bluffs'} max={3} onChange={setPicked} />
          </>
        ) : null}
        {needsSeats ? (
          <>
            <Text className='field-label'>玩家</Text>
            <SeatPicker seats={seats} multi={card !== 'seat_role'} value={who} onChange={setWho} />
          </>
        ) : null}
        {card === 'alignment' || card === 'role' ? (
          <View className='chip-row'>
            {(['good', 'evil'] as const).map((a) => (
              <View key={a} className={`chip zh-chip ${alignment === a ? 'chip-on' : ''}`} onClick={() => setAlignment(a)}>{a === 'good' ? '善良' : '邪恶'}</View>
            ))}
          </View>
        ) : null}
        <Text className='field-label'>附言（可选，≤200 字）</Text>
        <Input className='input' value={text} maxlength={200} placeholder='想对她说的话' onInput={(e) => setText(e.detail.value)} />
        {verdict && !verdict.legal ? <Reason text={verdict.message} /> : null}
      </View>
    </Sheet>
  )
}
