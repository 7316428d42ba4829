import { useEffect, useState } from 'react'
import { Input, Text, View } from '@tarojs/components'
import { SealButton } from '../../components/SealButton'
import { Sheet } from '../../components/Sheet'
import type { RoleCard, ZAction } from './model'
import { Reason, RolePicker, SeatPicker, useCheck, type SeatOption } from './parts'
import type { ZCheck } from './useZhActions'

/** A storyteller button that needs a choice first, and its default choice. */
export interface Press {
  type: string
  label: string
  by?: number | null
  /** A preselected seat (the block for 处决, the last nominee for 太后 …). */
  seat?: number | null
  /** What the press will do, where that depends on the day (入夜 after today's execution). */
  note?: string
  /** For edit_vote: which nomination, and its hands. */
  index?: number
  votes?: number[]
}

interface Props {
  press: Press | null
  seats: SeatOption[]
  roles: readonly RoleCard[]
  busy?: string
  send: (a: ZAction, key?: string) => Promise<boolean>
  check: (a: ZAction) => Promise<ZCheck>
  onClose: () => void
}

const TITLE_HINT: Record<string, string> = {
  nominate: '谁提名谁（玩家也可以在自己手机上提名）',
  open_vote: '开始投票计时：玩家在自己手机上举手，时间到自动计票',
  vote: '直接记录举手的人并计票',
  edit_vote: '更正这次投票的举手名单',
  execute: '处决一名玩家（每天至多一次）',
  drunk: '醉酒到下一个白天开始',
  kill: '当场死亡（夜里按下的，天亮时才公布）',
  dusk: '入夜：今天无人处决时，处决台上的人先被处决（除非改判）',
  accuse: '检举：她说某人是某角色',
  silence: '禁言一名玩家到黄昏',
  toast: '让一名玩家醉酒一天',
  force_execution: '太后：强制处决刚被投票的人',
  declare_winner: '说书人裁定胜负（之后仍需「确认结束」）',
  confirm_end: '确认结束本局',
  withdraw_end: '撤回说书人的裁定',
  close_vote: '现在结束投票，未举手的算不举',
}

/** Build the action of a press from the choices made in the sheet. */
function actionOf(p: Press, seat: number | null, second: number | null, many: number[], role: string | null,
  flag: boolean, seconds: number | null, text: string): ZAction | null {
  switch (p.type) {
    case 'nominate': return seat === null || second === null ? null : { type: 'nominate', nominator: seat, nominee: second }
    case 'open_vote': return seconds ? { type: 'open_vote', seconds } : { type: 'open_vote' }
    case 'close_vote': return { type: 'close_vote' }
    case 'vote': return { type: 'vote', votes: many }
    case 'edit_vote': return { type: 'edit_vote', index: p.index ?? 0, votes: many }
    case 'execute': return seat === null ? null : { type: 'execute', seat }
    case 'drunk': return seat === null ? null : { type: 'drunk', seat }
    case 'kill': return seat === null ? null : { type: 'kill', seat }
    case 'dusk': return { type: 'dusk', execute_block: flag }
    case 'dawn': return { type: 'dawn' }
    case 'confirm_end': return { type: 'confirm_end' }
    case 'accuse': return seat === null || !role ? null : { type: 'accuse', by: p.by ?? 0, target: seat, role: role as never }
    case 'silence': return seat === null ? null : { type: 'silence', by: p.by ?? 0, target: seat }
    case 'toast': return seat === null ? null : { type: 'toast', by: p.by ?? 0, target: seat }
    case 'force_execution': return seat === null ? null : { type: 'force_execution', by: p.by ?? 0, nominee: seat }
    case 'declare_winner': return { type: 'declare_winner', winner: flag ? 'good' : 'evil', reason: text.trim() || undefined }
    default: return null
  }
}

/** The choices a storyteller button needs, the server's word on them, then the press. */
export function PressSheet({ press, seats, roles, busy, send, check, onClose }: Props) {
  const [seat, setSeat] = useState<number | null>(null)
  const [second, setSecond] = useState<number | null>(null)
  const [many, setMany] = useState<number[]>([])
  const [role, setRole] = useState<string | null>(null)
  const [flag, setFlag] = useState(true)
  const [seconds, setSeconds] = useState<number | null>(null)
  const [text, setText] = useState('')
  useEffect(() => {
    setSeat(press?.seat ?? null)
    setSecond(null)
    setMany(press?.votes ?? [])
    setRole(null)
    setFlag(true)
    setSeconds(null)
    setText('')
  }, [press?.type, press?.by, press?.index])
  const action = press ? actionOf(press, seat, second, many, role, flag, seconds, text) : null
  const verdict = useCheck(action, check, press ? `${press.type}-${press.by}` : '')
  if (!press) return null
  const t = press.type
  const one = ['execute', 'drunk', 'kill', 'accuse', 'silence', 'toast', 'force_execution'].includes(t)
  return (
    <Sheet title={press.label} open onClose={onClose}
      footer={(
        <>
          <SealButton kind='ghost' onClick={onClose}>取消</SealButton>
          <SealButton kind='gold' busy={busy === 'press'} disabled={!action || (!!verdict && !verdict.legal)}
            onClick={() => { if (action) void send(action, 'press').then((ok) => ok && onClose()) }}>确定</SealButton>
        </>
      )}>
      <View className='zh-form' data-press={t}>
        {TITLE_HINT[t] ? <View className='muted zh-form-hint'>{TITLE_HINT[t]}</View> : null}
        {(t === 'open_vote' || t === 'vote') && press.note ? <View className='zh-form-for'>{press.note}</View> : null}
        {t === 'nominate' ? (
          <>
            <Text className='field-label'>提名者</Text>
            <SeatPicker seats={seats} value={seat === null ? [] : [seat]} onChange={(v) => setSeat(v[0] ?? null)} />
            <Text className='field-label'>被提名者</Text>
            <SeatPicker seats={seats} value={second === null ? [] : [second]} onChange={(v) => setSecond(v[0] ?? null)} />
          </>
        ) : null}
        {one ? (
          <>
            <Text className='field-label'>{t === 'force_execution' ? '被强制处决的人' : '选择玩家'}</Text>
            <SeatPicker seats={seats} value={seat === null ? [] : [seat]} onChange={(v) => setSeat(v[0] ?? null)} />
          </>
        ) : null}
        {t === 'accuse' ? (
          <>
            <Text className='field-label'>她说的角色</Text>
            <RolePicker roles={roles} value={role ? [role] : []} onChange={(v) => setRole(v[0] ?? null)} />
          </>
        ) : null}
        {t === 'vote' || t === 'edit_vote' ? (
          <>
            <Text className='field-label'>举手的人</Text>
            <SeatPicker seats={seats} multi value={many} onChange={setMany} />
          </>
        ) : null}
        {t === 'open_vote' ? (
          <View className='chip-row'>
            {[null, 30, 60, 90, 120].map((n) => (
              <View key={String(n)} className={`chip zh-chip ${seconds === n ? 'chip-on' : ''}`} onClick={() => setSeconds(n)}>
                {n === null ? '默认（15 秒 + 每人 3 秒）' : `${n} 秒`}
              </View>
            ))}
          </View>
        ) : null}
        {t === 'dusk' && press.seat !== null && press.seat !== undefined ? (
          <View className='chip-row'>
            <View className={`chip zh-chip ${flag ? 'chip-on' : ''}`} onClick={() => setFlag(true)}>
              {`先处决台上的 ${press.seat + 1}号 ${seats.find((x) => x.seat === press.seat)?.name ?? ''}`}
            </View>
            <View className={`chip zh-chip ${!flag ? 'chip-on' : ''}`} onClick={() => setFlag(false)}>不处决（改判）</View>
          </View>
        ) : null}
        {t === 'dusk' && (press.seat === null || press.seat === undefined) ? (
          <View className='muted'>{press.note ?? '处决台上无人：直接入夜'}</View>
        ) : null}
        {t === 'declare_winner' ? (
          <>
            <View className='chip-row'>
              <View className={`chip zh-chip ${flag ? 'chip-on' : ''}`} onClick={() => setFlag(true)}>善良阵营胜</View>
              <View className={`chip zh-chip ${!flag ? 'chip-on' : ''}`} onClick={() => setFlag(false)}>邪恶阵营胜</View>
            </View>
            <Input className='input' value={text} maxlength={60} placeholder='理由（可选）' onInput={(e) => setText(e.detail.value)} />
          </>
        ) : null}
        {verdict && !verdict.legal ? <Reason text={verdict.message} /> : null}
      </View>
    </Sheet>
  )
}
