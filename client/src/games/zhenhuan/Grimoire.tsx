import { useEffect, useMemo, useRef, useState } from 'react'
import { Input, Text, View } from '@tarojs/components'
import { api } from '../../api'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { SealButton } from '../../components/SealButton'
import { Sheet } from '../../components/Sheet'
import { useData } from '../../hooks/useData'
import { scrollToTop } from '../../lib/scroll'
import type { Seen } from '../../hooks/usePoll'
import { useCountdown } from '../baohuang/useCountdown'
import { DaySummary } from './DaySummary'
import {
  ALIGNMENT_NAME, dawnText, nightBegan, phaseTitle, stepsLeft, probeAction, reminderShort, roleNamer, seatNo, STATUS_SHORT, storytellerButtons, TEAM_NAME, tokenMarks,
  type GrimSeat, type LogLine, type NamedButton, type RoleCard, type RoomView, type ZAction,
} from './model'
import { NightPanel } from './NightPanel'
import { Circle, Reason, RolePicker, type SeatOption } from './parts'
import { PressSheet, type Press } from './PressSheet'
import { SeatSheet } from './SeatSheet'
import { TellSheet } from './TellSheet'
import { useZhActions } from './useZhActions'

interface Props {
  view: RoomView
  refresh: (seen?: Seen) => void
}

/** A seat on the circle. `origin`: the end's reveal to everyone — the role she had before her latest change,
 * and the statuses she ended with, but not the storyteller's reminders (a 「死亡」 left by a kill that
 * failed read as a living player dead). */
export function Token({ seat, shortRole, origin }: { seat: GrimSeat; shortRole: string; origin?: boolean }) {
  const marks = tokenMarks(origin ? { statuses: seat.statuses, reminders: [] } : seat)
  return (
    <View className={`zh-token zh-team-${seat.team} ${seat.alive ? '' : 'zh-dead'} ${seat.alignment === 'evil' ? 'zh-evil' : ''}`}>
      <View className='zh-token-disc'>
        <Text className={`zh-token-role ${shortRole.length > 3 ? 'zh-token-role-long' : ''}`}>{shortRole}</Text>
        {!seat.alive ? <Text className='zh-shroud'>亡</Text> : null}
        {!seat.alive && seat.ghost_vote ? <Text className='zh-ghost' aria-label='幽灵票'>票</Text> : null}
      </View>
      <Text className='zh-token-name'>{seatNo(seat.seat)} {seat.name}</Text>
      {origin && seat.original_role_name && seat.original_role_name !== seat.role_name ? (
        <Text className='zh-token-origin'>原{seat.original_role_name}</Text>
      ) : null}
      {marks.statuses.length || marks.reminders.length || marks.more ? (
        <View className='zh-token-marks'>
          {marks.statuses.map((s, i) => <Text key={`${s.kind}${i}`} className={`zh-mark zh-mark-${s.kind}`}>{STATUS_SHORT[s.kind]}</Text>)}
          {marks.reminders.map((r) => <Text key={r.id} className='zh-mark zh-mark-reminder'>{reminderShort(r.token)}</Text>)}
          {marks.more ? <Text className='zh-mark zh-mark-more'>+{marks.more}</Text> : null}
        </View>
      ) : null}
    </View>
  )
}

/** Log lines told to one player (her role card, what she learnt, a 告知). */
const PRIVATE_LINES = new Set(['info', 'you_are', 'tell'])

/** The storyteller's phone: the grimoire, tonight's plan or the day, every button and the log. */
export function Grimoire({ view, refresh }: Props) {
  const game = view.game!
  const g = game.grimoire!
  const room = view.room
  const { send, check, undo, run, busy, error, setError } = useZhActions(room.id, room.step, refresh)
  const catalogue = useData(() => api.GET('/v1/games/zhenhuan/catalogue'), [])
  const roles: RoleCard[] = catalogue.data?.catalogue.roles ?? []
  const roleName = roleNamer(catalogue.data?.catalogue.roles)
  const remaining = useCountdown(view.pending?.deadline_ms, view.server_time)
  const seats: SeatOption[] = g.seats.map((s) => ({ seat: s.seat, name: s.name, dead: !s.alive }))
  const name = (s: number) => g.seats[s]?.name ?? ''

  const [open, setOpen] = useState<number | null>(null)
  const [tellTo, setTellTo] = useState<number | null | undefined>(undefined)
  const [press, setPress] = useState<Press | null>(null)
  const [bluffs, setBluffs] = useState<string[] | null>(null)
  const [logAll, setLogAll] = useState(false)
  const [undoing, setUndoing] = useState(false)
  const [dawning, setDawning] = useState(false)
  // whether 撤销 may take anything back, and why not: the server's word (room.undo)
  const undoWhy = room.undo?.disabled ?? null

  // why the core buttons the grimoire does not list now are greyed: the server's own words
  const [checked, setChecked] = useState<Record<string, string | null>>({})
  const probeSeat = g.seats.find((s) => s.alive && !s.departed)?.seat ?? 0
  useEffect(() => {
    let live = true
    if (game.phase === 'setup' || game.phase === 'over') return undefined
    const keys = ['dusk', 'dawn', 'kill', 'execute', 'drunk'].filter((k) => !g.buttons.some((b) => b.type === k && (b.by === null || b.by === undefined)))
    Promise.all(keys.map(async (k) => {
      const a = probeAction(k, probeSeat)
      if (!a) return [k, null] as const
      try {
        const c = await check(a)
        return [k, c.legal ? null : c.message ?? '现在不可用'] as const
      } catch {
        return [k, null] as const
      }
    })).then((pairs) => { if (live) setChecked(Object.fromEntries(pairs)) })
    return () => { live = false }
  }, [room.step, game.phase])

  // 入夜 pressed at the buttons: the night's first step is above, where the day was
  const lastPhase = useRef<string | undefined>(undefined)
  useEffect(() => {
    if (nightBegan(lastPhase.current, game.phase)) scrollToTop('.zh-night')
    lastPhase.current = game.phase
  }, [game.phase])

  const buttons = storytellerButtons(g, checked)
  const tokenChoices = useMemo(() => {
    const inPlay = new Set(g.seats.map((s) => s.role))
    return roles.filter((r) => inPlay.has(r.key)).flatMap((r) => r.reminders.map((token) => ({ token, role: r.key })))
  }, [roles.length, g.seats.map((s) => s.role).join(',')])

  const pressButton = (b: NamedButton) => {
    const type = b.key.split('-')[0]
    if (type === 'dawn' && stepsLeft(g.night).length) {
      setDawning(true)  // a slip of the thumb would skip the night's steps: say which first
      return
    }
    if (type === 'close_vote' || type === 'dawn' || type === 'confirm_end') {
      void send({ type } as ZAction, type)
      return
    }
    const lastNominee = game.day?.nominations.length ? game.day.nominations[game.day.nominations.length - 1].nominee : null
    const onBlock = game.day && (game.day.executed === null || game.day.executed === undefined) ? (game.day.block ?? null) : null
    const asked = (kind: string) => g.alerts.find((a) => a.press === kind)?.seat ?? null
    const seat = type === 'execute' ? (g.proposals[0]?.seat ?? game.day?.block ?? asked('execute'))
      : type === 'kill' ? asked('kill')
        : type === 'force_execution' ? lastNominee : type === 'dusk' ? onBlock : null
    const executed = game.day?.executed
    // 开始投票计时 / 记录投票 name the nomination they are for (the one not yet voted on)
    const waiting = game.day?.nominations.find((n) => n.count === null || n.count === undefined)
    const note = (type === 'open_vote' || type === 'vote') && waiting
      ? `${seatNo(waiting.nominator)}${waiting.exile ? '提请流放' : '提名'}${seatNo(waiting.nominee)} ${name(waiting.nominee)}：为这次${waiting.exile ? '提请' : '提名'}投票`
      : type !== 'dusk' || onBlock !== null ? undefined
        : executed !== null && executed !== undefined ? `今天已处决 ${seatNo(executed)} ${name(executed)}：直接入夜` : '处决台上无人：直接入夜'
    setPress({ type, label: b.label, by: b.by, seat, note })
  }

  // an execution the rules propose (纯元皇后's nominator, 太后's choice) comes while she watches the
  // nominations: it is shown there, above them, not at the top of the page where she is not looking
  const proposals = g.proposals.map((p, i) => (
    <View key={`p${i}`} className='zh-banner zh-proposal' role='alert'>
      <Text className='grow'>提议处决 {seatNo(p.seat)} {name(p.seat)}：{p.reason}</Text>
      <SealButton size='small' busy={busy === 'execute'} onClick={() => void send({ type: 'execute', seat: p.seat }, 'execute')}>处决</SealButton>
    </View>
  ))
  const short = (s: GrimSeat) => (s.traveller_identity ?? s.role_name).slice(0, 4)
  const current = g.night?.current
  const log = game.log as LogLine[]
  const shownLog = logAll ? [...log].reverse() : [...log].reverse().slice(0, 12)

  return (
    <View className='zh zh-st'>
      <View className='zh-bar'>
        <Text className='zh-phase' data-phase={game.phase}>{phaseTitle(game)}</Text>
        {game.phase !== 'over' ? (
          // a confirmed end is final (results are written): nothing left to take back or tell
          <View className='zh-bar-actions'>
            <SealButton kind='ghost' size='small' disabled={!!undoWhy} busy={busy === 'undo'} onClick={() => setUndoing(true)}>撤销</SealButton>
            {game.phase !== 'setup' ? <SealButton kind='ghost' size='small' onClick={() => setTellTo(null)}>告知</SealButton> : null}
          </View>
        ) : null}
      </View>
      {/* 撤销 greyed: the server's reason (nothing yet, or the last step was a player's own) */}
      {undoWhy && game.phase !== 'over' ? <Text className='zh-bar-why zh-undo-why'>撤销：{undoWhy}</Text> : null}
      {/* a refused or lost press: above any open sheet (which would hide the page's own line), on the
          screen where she pressed, whatever she scrolled to; a tap puts it away */}
      {error ? <View className='zh-error-float' onClick={() => setError(undefined)}><ErrorLine error={error} /></View> : null}
      {/* travellers come in mid-game: she reads the 房号 out to them */}
      {room.code && game.phase !== 'over' ? (
        <View className='zh-st-code'>房号 <Text className='zh-st-code-digits'>{room.code}</Text> · 旅行者可凭房号请求入座</View>
      ) : null}

      {game.phase === 'over' && game.winner ? (
        <View className='zh-end' role='status'>
          <Text className='zh-end-title'>{ALIGNMENT_NAME[game.winner]}胜</Text>
          {game.end_reason ? <Text className='zh-end-reason'>{game.end_reason}</Text> : null}
        </View>
      ) : null}

      {g.end ? (
        <View className='zh-end' role='alert'>
          <Text className='zh-end-title'>{ALIGNMENT_NAME[g.end.winner]}胜</Text>
          <Text className='zh-end-reason'>{g.end.reason}{g.end.declared ? '（说书人裁定）' : ''}</Text>
          <View className='zh-buttons'>
            {g.end.declared ? (
              <SealButton kind='ghost' busy={busy === 'withdraw_end'} onClick={() => void send({ type: 'withdraw_end' }, 'withdraw_end')}>撤回裁定</SealButton>
            ) : null}
            <SealButton kind='gold' busy={busy === 'confirm_end'} onClick={() => void send({ type: 'confirm_end' }, 'confirm_end')}>确认结束</SealButton>
          </View>
        </View>
      ) : null}
      {game.phase !== 'day' ? proposals : null}

      {(room.requests ?? []).length ? (
        <Panel title='入座请求' extra='旅行者' className='zh-requests'>
          {(room.requests ?? []).map((r) => (
            <JoinRequest key={r.user} user={r.user} name={r.name} busy={busy} run={run} roomId={room.id} />
          ))}
        </Panel>
      ) : null}

      <Panel title='魔典' extra={`${g.seats.filter((s) => s.alive && !s.departed).length}/${g.seats.length} 存活`} className='zh-grim'>
        <Circle
          count={g.seats.length}
          onTap={setOpen}
          render={(s) => <Token seat={g.seats[s]} shortRole={short(g.seats[s])} origin={game.phase === 'over'} />}
          center={(
            <View className='zh-center'>
              <Text className='zh-center-phase'>{phaseTitle(game)}</Text>
              {current ? <Text className='zh-center-step'>{current.label.split('：')[0]}</Text> : null}
              {game.day?.vote ? <Text className='zh-center-step'>投票中</Text> : null}
              {g.bluffs.length ? <Text className='zh-center-bluffs'>伪装：{g.bluffs.map(roleName).join('、')}</Text> : null}
            </View>
          )}
        />
        <View className='muted zh-grim-hint'>{game.phase === 'over' ? '点座位看她终局时的详情' : '点座位看详情与改判（状态、提醒、笔记、角色、阵营）'}</View>
      </Panel>

      {game.phase === 'setup' ? (
        <Panel title='布置' className='zh-setup'>
          <View className='zh-comp'>
            {Object.entries(g.composition).map(([k, n]) => <Text key={k} className='zh-comp-item'>{TEAM_NAME[k.replace(/s$/, '')] ?? k} {n}</Text>)}
          </View>
          {g.composition_issues.map((c) => <Reason key={c} text={c} />)}
          <View className='zh-bluffs'>
            <Text className='field-label'>恶魔伪装（三个不在场的善良角色）：{g.bluffs.map(roleName).join('、') || '未定'}</Text>
            {bluffs ? (
              <>
                <RolePicker roles={roles} value={bluffs} multi max={3} onChange={setBluffs}
                  filter={(r) => !r.derived && (r.team === 'townsfolk' || r.team === 'outsider') && !g.seats.some((s) => s.role === r.key)} />
                <View className='zh-buttons'>
                  <SealButton size='small' kind='ghost' onClick={() => setBluffs(null)}>取消</SealButton>
                  <SealButton size='small' busy={busy === 'bluffs'} onClick={() => void send({ type: 'set_bluffs', roles: bluffs as never }, 'bluffs').then((ok) => ok && setBluffs(null))}>定下伪装</SealButton>
                </View>
              </>
            ) : <Text className='zh-link' onClick={() => setBluffs([...g.bluffs])}>更换伪装</Text>}
          </View>
          <View className='zh-buttons'>
            <SealButton kind='ghost' busy={busy === 'reroll'} onClick={() => void send({ type: 'reroll' }, 'reroll')}>重抽角色</SealButton>
            <SealButton kind='gold' busy={busy === 'begin'} onClick={() => void send({ type: 'begin' }, 'begin')}>开始（入第一夜）</SealButton>
          </View>
        </Panel>
      ) : null}

      {game.phase === 'night' && g.night ? (
        <NightPanel night={g.night} seats={seats} roles={roles} busy={busy} send={send} check={check}
          roleOf={(s) => g.seats[s]?.role_name ?? ''} />
      ) : null}

      {game.phase === 'day' && game.day ? (
        <Panel title={`第${game.day.number}天 · 提名与投票`} className='zh-day-panel'>
          {/* what the rules ask of her today (一丈红's nominator dies, 禁言): here, where she watches the
              nominations, and gone once done (the server drops it when the seat is dead or the day executed) */}
          {proposals}
          {g.alerts.map((a, i) => <View key={`a${i}`} className='zh-banner zh-alert' role='alert'>{a.text}</View>)}
          <DaySummary day={game.day} name={name} count={g.seats.length} remaining={remaining}
            onEdit={(index) => setPress({ type: 'edit_vote', label: '改票', index, votes: game.day?.nominations[index]?.voters ?? [] })}
            onDelete={(index) => void send({ type: 'delete_nomination', index }, 'delete')}
            onHand={(seat, yes) => void send({ type: 'vote', seat, yes }, `hand-${seat}`)} />
        </Panel>
      ) : null}

      {game.phase === 'night' || game.phase === 'day' ? (
        <Panel title='说书人按钮' className='zh-buttons-panel'>
          <View className='zh-button-grid'>
            {buttons.map((b) => (
              <View key={b.key} className='zh-button-cell' data-button={b.key}>
                {/* a role's button names whose ability it is on its own line: 「祺贵人检举·10号」 did not fit */}
                <SealButton size='small' kind={b.by !== null ? 'jade' : b.key === 'dusk' || b.key === 'dawn' ? 'gold' : 'zhu'}
                  className={b.label.length > 4 ? 'zh-seal-long' : undefined}
                  disabled={!!b.disabled} busy={busy === b.key} onClick={() => pressButton(b)}>
                  {b.label}
                </SealButton>
                {b.by !== null ? <Text className='zh-button-by'>{seatNo(b.by)} {name(b.by)}</Text> : null}
                {b.disabled ? <Text className='zh-button-why'>{b.disabled}</Text> : null}
                {!b.disabled && b.impaired ? <Text className='zh-button-why zh-warn'>{b.impaired}：按下不生效</Text> : null}
              </View>
            ))}
            <View className='zh-button-cell'>
              <SealButton size='small' kind='ghost' onClick={() => setPress({ type: 'declare_winner', label: '裁定胜负' })}>裁定胜负</SealButton>
            </View>
          </View>
        </Panel>
      ) : null}

      <Panel title='记录' extra={<Text className='zh-link' onClick={() => setLogAll(!logAll)}>{logAll ? '收起' : '全部'}</Text>} className='zh-log'>
        {shownLog.map((l, i) => (
          <View key={`${log.length}-${i}`} className={`zh-log-line zh-log-${l.kind}`}>
            {l.kind === 'host' && (l as { override?: boolean }).override ? <Text className='zh-override'>改判</Text> : null}
            {/* a line only one player was given says whose it is (「你是…」 read as the storyteller's own) */}
            {PRIVATE_LINES.has(l.kind) && typeof (l as { seat?: unknown }).seat === 'number' ? (
              <Text className='zh-log-to'>给{seatNo((l as { seat: number }).seat)}{g.seats[(l as { seat: number }).seat]?.name ?? ''}：</Text>
            ) : null}
            <Text>{l.text}</Text>
          </View>
        ))}
      </Panel>

      <SeatSheet seat={open === null ? null : g.seats[open] ?? null} phase={game.phase} roles={roles} roleName={roleName}
        tokenChoices={tokenChoices} busy={busy} send={send} onClose={() => setOpen(null)}
        onTell={(s) => { setOpen(null); setTellTo(s) }} />
      <TellSheet open={tellTo !== undefined} seat={tellTo ?? null} seats={seats} roles={roles} busy={busy} send={send} check={check}
        onClose={() => setTellTo(undefined)} />
      <UndoSheet open={undoing} latest={log.length ? log[log.length - 1].text : null} busy={busy === 'undo'}
        onUndo={() => { setUndoing(false); void undo() }} onClose={() => setUndoing(false)} />
      {/* open only while it is night: dawn pressed on another phone closes it */}
      <DawnSheet open={dawning && game.phase === 'night'} left={stepsLeft(g.night)} busy={busy === 'dawn'}
        onDawn={() => { setDawning(false); void send({ type: 'dawn' } as ZAction, 'dawn') }} onClose={() => setDawning(false)} />
      <PressSheet press={press} seats={seats} roles={roles} busy={busy} send={send} check={check} onClose={() => setPress(null)} />
    </View>
  )
}

/**
 * 撤销 asks first: a slip of the thumb would otherwise take back a press that players may already have
 * acted on. The server decides what the last press was and whether it can be taken back (and says why
 * not); the newest line of the record is shown so she knows what she is about to undo.
 */
function UndoSheet({ open, latest, busy, onUndo, onClose }: {
  open: boolean; latest: string | null; busy: boolean; onUndo: () => void; onClose: () => void
}) {
  return (
    <Sheet title='撤销上一步' open={open} onClose={onClose}
      footer={(
        <View className='zh-buttons'>
          <SealButton size='small' kind='ghost' onClick={onClose}>取消</SealButton>
          <SealButton size='small' busy={busy} onClick={onUndo}>撤销</SealButton>
        </View>
      )}>
      <View className='zh-undo'>
        <Text>撤回你的上一次操作，魔典回到那之前。看到过被撤回内容的玩家会收到「说书人撤回了…」的提示。</Text>
        {latest ? <Text className='zh-undo-latest'>最近一条记录：{latest}</Text> : null}
      </View>
    </Sheet>
  )
}

/** 天亮 with steps not done asks first: they are skipped (and logged), and undoing it afterwards tells
 * every player that the dawn was taken back. */
function DawnSheet({ open, left, busy, onDawn, onClose }: {
  open: boolean; left: string[]; busy: boolean; onDawn: () => void; onClose: () => void
}) {
  return (
    <Sheet title='天亮' open={open} onClose={onClose}
      footer={(
        <View className='zh-buttons'>
          <SealButton size='small' kind='ghost' onClick={onClose}>继续夜晚</SealButton>
          <SealButton size='small' kind='gold' busy={busy} onClick={onDawn}>天亮</SealButton>
        </View>
      )}>
      <View className='confirm-text'>{dawnText(left)}</View>
    </Sheet>
  )
}

/** A traveller asking to join: seat her with an identity and a secret alignment, or decline. */
function JoinRequest({ user, name, busy, run, roomId }: {
  user: string; name: string; busy?: string; roomId: string; run: (key: string, fn: () => Promise<unknown>) => Promise<boolean>
}) {
  const [identity, setIdentity] = useState('')
  const [ability, setAbility] = useState('')
  const [alignment, setAlignment] = useState<'good' | 'evil'>('good')
  const [female, setFemale] = useState(true)
  const path = { params: { path: { room_id: roomId } } }
  return (
    <View className='zh-request' data-user={user}>
      <Text className='zh-request-name'>{name} 请求入座</Text>
      <Input className='input zh-input' value={identity} maxlength={20} placeholder='她选的身份（如：旅人）' onInput={(e) => setIdentity(e.detail.value)} />
      <Input className='input zh-input' value={ability} maxlength={200} placeholder='能力（公开）' onInput={(e) => setAbility(e.detail.value)} />
      <View className='chip-row'>
        {(['good', 'evil'] as const).map((a) => (
          <View key={a} className={`chip zh-chip ${alignment === a ? 'chip-on' : ''}`} onClick={() => setAlignment(a)}>{a === 'good' ? '善良' : '邪恶'}</View>
        ))}
        <View className={`chip zh-chip ${female ? 'chip-on' : ''}`} onClick={() => setFemale(!female)}>女性</View>
      </View>
      <View className='zh-buttons'>
        <SealButton size='small' kind='ghost' busy={busy === `decline-${user}`}
          onClick={() => void run(`decline-${user}`, () => api.POST('/v1/rooms/{room_id}/decline', { ...path, body: { user } }))}>拒绝</SealButton>
        <SealButton size='small' busy={busy === `admit-${user}`} disabled={!identity.trim()}
          onClick={() => void run(`admit-${user}`, () => api.POST('/v1/games/zhenhuan/rooms/{room_id}/admit', {
            ...path, body: { user, details: { identity: identity.trim(), ability: ability.trim(), alignment, female } },
          }))}>入座</SealButton>
      </View>
    </View>
  )
}
