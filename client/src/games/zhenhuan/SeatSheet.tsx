import { useEffect, useState } from 'react'
import { Input, Text, View } from '@tarojs/components'
import { SealButton } from '../../components/SealButton'
import { Sheet } from '../../components/Sheet'
import {
  ABILITY_NAME, ALIGNMENT_NAME, DEATH_CAUSE, seatNo, STATUS_KINDS, STATUS_NAME, statusText, TEAM_NAME, UNTIL_NAME,
  type GrimSeat, type RoleCard, type StatusKind, type ZAction,
} from './model'
import { RolePicker } from './parts'

interface Props {
  seat: GrimSeat | null
  phase: string
  roles: readonly RoleCard[]
  roleName: (key: string) => string
  /** Reminder tokens of the roles in play. */
  tokenChoices: readonly { token: string; role: string }[]
  busy?: string
  send: (a: ZAction, key?: string) => Promise<boolean>
  onTell: (seat: number) => void
  onClose: () => void
}

/** What 「设为死亡 / 设为存活」 (`set_alive`, an override) does, beside what 「死亡」 (`kill`) does:
 * both are public (by day at once, at night at dawn); only 「死亡」 runs the chains that follow a death
 * (docs/rules/zhenhuan.md §13). */
const SET_ALIVE_HINT = '设为死亡 / 存活：改判，只改生死，不连带死亡的即时效果（如皇后成为女皇、孙答应全场醉酒）'
const KILL_HINT = '死亡：按规则死亡，即时效果随之发生'

/** One seat of the grimoire: everything about her, and the storyteller's overrides. */
export function SeatSheet({ seat, phase, roles, roleName, tokenChoices, busy, send, onTell, onClose }: Props) {
  const [note, setNote] = useState('')
  const [token, setToken] = useState('')
  // nothing chosen until she chooses: a lit chip read as a status the seat already has
  const [status, setStatus] = useState<StatusKind | null>(null)
  const [until, setUntil] = useState<'dusk' | 'dawn' | 'never'>('dusk')
  const [picking, setPicking] = useState(false)
  // 「死亡」 asks first: it runs the rules' chains and the table learns of it
  const [killing, setKilling] = useState(false)
  useEffect(() => {
    setNote(seat?.note ?? '')
    setToken('')
    setPicking(false)
    setStatus(null)
    setKilling(false)
  }, [seat?.seat])
  if (!seat) return null
  const s = seat.seat
  const setup = phase === 'setup'
  const card = roles.find((r) => r.key === seat.role)
  const act = (a: ZAction, key: string) => void send(a, key)
  const who = (
    <View className='zh-ss-role'>
      <Text className={`zh-ss-role-name zh-team-${seat.team}`}>{seat.traveller_identity ?? seat.role_name}</Text>
      <Text className='muted'>{TEAM_NAME[seat.team]} · {ALIGNMENT_NAME[seat.alignment]} · {seat.alive ? '存活' : '已死亡'}{!seat.alive ? (seat.ghost_vote ? ' · 有幽灵票' : ' · 幽灵票已用') : ''}</Text>
      {seat.original_role ? <Text className='muted'>原角色：{roleName(seat.original_role)}</Text> : null}
      {seat.link !== null && seat.link !== undefined ? <Text className='muted'>绑定：{seatNo(seat.link)}</Text> : null}
      {seat.spent.length ? <Text className='muted'>已用：{seat.spent.map((a) => ABILITY_NAME[a] ?? a).join('、')}</Text> : null}
      {seat.died_tonight.length ? <Text className='zh-warn'>今夜死于：{seat.died_tonight.map((c) => DEATH_CAUSE[c] ?? c).join('、')}</Text> : null}
      {seat.departed ? <Text className='zh-warn'>已离开</Text> : null}
      {card ? <Text className='zh-ability'>{card.ability}</Text> : seat.traveller_ability ? <Text className='zh-ability'>{seat.traveller_ability}</Text> : null}
    </View>
  )
  if (phase === 'over') {
    // the game is over: her seat as it ended, nothing left to change (each edit would be refused)
    return (
      <Sheet title={`${seatNo(s)} ${seat.name}`} open onClose={onClose}>
        <View className='zh-seat-sheet' data-seat={s}>
          {who}
          <Text className='muted zh-ss-over'>本局已结束，魔典只读</Text>
        </View>
      </Sheet>
    )
  }

  return (
    <Sheet title={`${seatNo(s)} ${seat.name}`} open onClose={onClose}>
      <View className='zh-seat-sheet' data-seat={s}>
        {who}

        <View className='zh-ss-section'>
          <Text className='zh-ss-title'>状态</Text>
          {seat.statuses.length ? seat.statuses.map((st, i) => (
            <View key={`${st.kind}-${i}`} className='zh-ss-row' data-status={st.kind}>
              <Text className='grow'>{statusText(st, roleName)}</Text>
              <Text className='zh-link' onClick={() => act({ type: 'clear_status', seat: s, status: st.kind }, `clear-${st.kind}`)}>清除</Text>
            </View>
          )) : <Text className='muted'>无</Text>}
          {/* the chips below choose what to add: a chosen chip is not a status she has */}
          <Text className='zh-subhead'>加上状态（选一种，再选到何时）</Text>
          <View className='chip-row zh-ss-add'>
            {STATUS_KINDS.map((k) => (
              <View key={k} className={`chip zh-chip ${status === k ? 'chip-on' : ''}`} onClick={() => setStatus(k)}>{STATUS_NAME[k]}</View>
            ))}
          </View>
          <View className='chip-row zh-ss-add'>
            {(['dusk', 'dawn', 'never'] as const).map((u) => (
              <View key={u} className={`chip zh-chip ${until === u ? 'chip-on' : ''}`} onClick={() => setUntil(u)}>{UNTIL_NAME[u]}</View>
            ))}
            <SealButton size='small' kind='ghost' disabled={status === null} busy={busy === 'set_status'}
              onClick={() => { if (status) act({ type: 'set_status', seat: s, status, until }, 'set_status') }}>加上</SealButton>
          </View>
        </View>

        <View className='zh-ss-section'>
          <Text className='zh-ss-title'>提醒标记</Text>
          <View className='chip-row'>
            {seat.reminders.map((r) => (
              <View key={r.id} className='chip zh-reminder' data-reminder={r.id}>
                {r.token}{r.role ? `·${roleName(r.role)}` : ''}
                <Text className='zh-x' onClick={() => act({ type: 'remove_reminder', id: r.id }, `rm-${r.id}`)}> ×</Text>
              </View>
            ))}
            {!seat.reminders.length ? <Text className='muted'>无</Text> : null}
          </View>
          <View className='chip-row zh-ss-add'>
            {tokenChoices.map((t) => (
              <View key={`${t.role}-${t.token}`} className='chip zh-chip' onClick={() => act({ type: 'add_reminder', seat: s, token: t.token, role: t.role as never }, 'add_reminder')}>+{t.token}·{roleName(t.role)}</View>
            ))}
          </View>
          <View className='zh-inline'>
            <Input className='input zh-input' value={token} maxlength={20} placeholder='自定标记（≤20字）' onInput={(e) => setToken(e.detail.value)} />
            <SealButton size='small' kind='ghost' disabled={!token.trim()} busy={busy === 'add_token'}
              onClick={() => { act({ type: 'add_reminder', seat: s, token: token.trim() }, 'add_token'); setToken('') }}>放置</SealButton>
          </View>
        </View>

        <View className='zh-ss-section'>
          <Text className='zh-ss-title'>笔记</Text>
          <View className='zh-inline'>
            <Input className='input zh-input' value={note} maxlength={200} placeholder='只有说书人看得到' onInput={(e) => setNote(e.detail.value)} />
            <SealButton size='small' kind='ghost' busy={busy === 'set_note'} onClick={() => act({ type: 'set_note', seat: s, text: note }, 'set_note')}>保存</SealButton>
          </View>
        </View>

        <View className='zh-ss-section'>
          <Text className='zh-ss-title'>{setup ? '指定角色' : '改判'}</Text>
          <View className='zh-buttons zh-buttons-left'>
            {!setup ? (
              <>
                <SealButton size='small' kind='ghost' busy={busy === 'set_alive'} onClick={() => act({ type: 'set_alive', seat: s, alive: !seat.alive }, 'set_alive')}>{seat.alive ? '设为死亡' : '设为存活'}</SealButton>
                {/* a ghost vote is a dead player's: nothing to take back or give while she lives */}
                {!seat.alive ? (
                  <SealButton size='small' kind='ghost' busy={busy === 'ghost'} onClick={() => act({ type: 'set_ghost_vote', seat: s, has: !seat.ghost_vote }, 'ghost')}>{seat.ghost_vote ? '收回幽灵票' : '给回幽灵票'}</SealButton>
                ) : null}
                <SealButton size='small' kind='ghost' busy={busy === 'align'} onClick={() => act({ type: 'set_alignment', seat: s, alignment: seat.alignment === 'good' ? 'evil' : 'good' }, 'align')}>改为{seat.alignment === 'good' ? '邪恶' : '善良'}</SealButton>
              </>
            ) : null}
            <SealButton size='small' kind='ghost' onClick={() => setPicking(!picking)}>{setup ? '选角色' : '改角色'}</SealButton>
            {seat.team === 'traveller' && !seat.departed && !setup ? (
              <SealButton size='small' kind='ghost' busy={busy === 'depart'} onClick={() => act({ type: 'depart', seat: s }, 'depart')}>离场</SealButton>
            ) : null}
          </View>
          {!setup ? <Text className='zh-ss-hint zh-hint-set-alive'>{SET_ALIVE_HINT}</Text> : null}
          {picking ? (
            <RolePicker roles={roles} value={[seat.role]} filter={(r) => (setup ? !r.derived : true)}
              onChange={(v) => {
                if (!v.length) return
                setPicking(false)
                act(setup ? { type: 'assign', seat: s, role: v[v.length - 1] as never } : { type: 'set_role', seat: s, role: v[v.length - 1] as never }, 'role')
              }} />
          ) : null}
        </View>

        {!setup ? (
          <View className='zh-buttons'>
            <SealButton kind='ghost' onClick={() => onTell(s)}>告知</SealButton>
            {seat.alive ? <SealButton busy={busy === 'kill'} onClick={() => setKilling(true)}>死亡</SealButton> : null}
          </View>
        ) : null}
        {!setup && seat.alive ? <Text className='zh-ss-hint zh-hint-kill'>{KILL_HINT}</Text> : null}
        {killing ? (
          <Sheet title='确认死亡' open onClose={() => setKilling(false)}
            footer={(
              <>
                <SealButton kind='ghost' onClick={() => setKilling(false)}>取消</SealButton>
                <SealButton onClick={() => { setKilling(false); act({ type: 'kill', seat: s }, 'kill') }}>死亡</SealButton>
              </>
            )}>
            <View className='confirm-text'>
              {seatNo(s)} {seat.name}按规则死亡，即时效果随之发生；{phase === 'night' ? '天亮时向全场公布' : '全场立即看到'}。只改生死、不连带效果，请用「设为死亡」。
            </View>
          </Sheet>
        ) : null}
      </View>
    </Sheet>
  )
}
