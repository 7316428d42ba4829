import { useEffect, useState } from 'react'
import { Text, View } from '@tarojs/components'
import { Panel } from '../../components/Panel'
import { SealButton } from '../../components/SealButton'
import { nightDeathsText, nightPlan, seatNo, STATUS_NAME, type NightView, type RoleCard, type StepView, type ZAction } from './model'
import { Reason, RolePicker, SeatPicker, useCheck, type SeatOption } from './parts'
import type { ZCheck } from './useZhActions'

interface Props {
  night: NightView
  seats: SeatOption[]
  roleOf: (seat: number) => string
  roles: readonly RoleCard[]
  busy?: string
  send: (a: ZAction, key?: string) => Promise<boolean>
  check: (a: ZAction) => Promise<ZCheck>
}

type AnswerMode = 'truth' | 'suggestion' | 'custom'

/** The current step: prompt, who wakes, targets, the truth, the impaired flag and the suggested lie. */
function CurrentStep({ step, seats, roleOf, roles, busy, send, check }: Omit<Props, 'night'> & { step: StepView }) {
  const slots = step.slots ?? []
  const [targets, setTargets] = useState<(number | null)[]>(() => slots.map(() => null))
  const [mode, setMode] = useState<AnswerMode>('truth')
  const [custom, setCustom] = useState<unknown>(null)
  const [seatRole, setSeatRole] = useState<{ seat: number | null; role: string | null }>({ seat: null, role: null })
  useEffect(() => {
    setTargets(slots.map(() => null))
    setMode('truth')
    setCustom(null)
    setSeatRole({ seat: null, role: null })
  }, [step.key, slots.length])

  const greyedChosen = slots.some((slot, i) => {
    const t = targets[i]
    return t !== null && t !== undefined && (slot.greyed ?? []).some((g) => g.seat === t)
  })
  const impaired = step.impaired ?? []
  const kind = step.answer_kind
  let answer: unknown
  if (mode === 'custom') answer = kind === 'seat_role' ? (seatRole.seat !== null && seatRole.role ? { seat: seatRole.seat, role: seatRole.role } : null) : custom
  const action: ZAction = {
    type: 'night_step', step: step.key, targets,
    ...(mode === 'suggestion' ? { use_suggestion: true } : {}),
    ...(mode === 'custom' && answer !== null && answer !== undefined ? { answer: answer as never } : {}),
    ...(greyedChosen ? { force: true } : {}),
  }
  const verdict = useCheck(action, check, step.key)

  if (step.disabled) {
    // greyed by the rules (dead, already used, not tonight …): nobody wakes; the server says why
    return (
      <View className='zh-step-current zh-step-disabled' data-step={step.key}>
        <View className='zh-step-head'>
          <Text className='zh-step-label'>{step.label}</Text>
          {step.actor !== null && step.actor !== undefined ? (
            <Text className='zh-step-actor'>{seatNo(step.actor)} {seats.find((s) => s.seat === step.actor)?.name} · {roleOf(step.actor)}</Text>
          ) : null}
        </View>
        <View className='zh-impaired' role='alert'>不唤醒：{step.disabled}</View>
        <View className='zh-buttons'>
          <SealButton kind='gold' busy={busy === 'step'}
            onClick={() => void send({ type: 'night_step', step: step.key, targets: [], skip: false }, 'step')}>下一步</SealButton>
        </View>
      </View>
    )
  }

  return (
    <View className='zh-step-current' data-step={step.key}>
      <View className='zh-step-head'>
        <Text className='zh-step-label'>{step.label}</Text>
        {step.actor !== null && step.actor !== undefined ? (
          <Text className='zh-step-actor'>{seatNo(step.actor)} {seats.find((s) => s.seat === step.actor)?.name} · {roleOf(step.actor)}</Text>
        ) : null}
      </View>
      {impaired.length ? (
        <View className='zh-impaired' role='alert'>
          {/* only a step that tells something leaves her a false answer to give (果郡王 learns nothing) */}
          {impaired.map((k) => STATUS_NAME[k]).join('、')}：能力不生效{step.answer_kind ? '，告知的答案可以是假的' : ''}
        </View>
      ) : null}
      {step.prompt ? <View className='zh-prompt'>{step.prompt}</View> : null}
      {slots.map((slot, i) => (
        <View key={i} className='zh-slot'>
          <Text className='zh-slot-label'>{slot.label}{slot.optional ? '（可不选）' : ''}</Text>
          <SeatPicker seats={seats} allowed={slot.allowed} greyed={slot.greyed ?? []}
            value={targets[i] === null || targets[i] === undefined ? [] : [targets[i] as number]}
            onChange={(v) => setTargets((t) => t.map((x, j) => (j === i ? (v.length ? v[v.length - 1] : null) : x)))} />
        </View>
      ))}
      {greyedChosen ? <View className='zh-force'>已选灰色座位：将强制执行并记为改判</View> : null}
      {step.hint ? <View className='zh-truth'><Text className='zh-truth-key'>真实情况</Text>{step.hint}</View> : null}
      {kind ? (
        <View className='zh-answer'>
          <View className='chip-row'>
            <View className={`chip ${mode === 'truth' ? 'chip-on' : ''}`} onClick={() => setMode('truth')}>如实告知</View>
            {step.suggestion ? (
              <View className={`chip ${mode === 'suggestion' ? 'chip-on' : ''}`} onClick={() => setMode('suggestion')}>采用建议</View>
            ) : null}
            <View className={`chip ${mode === 'custom' ? 'chip-on' : ''}`} onClick={() => setMode('custom')}>自定答案</View>
          </View>
          {step.suggestion ? <View className='zh-suggestion'><Text className='zh-truth-key'>建议假答案</Text>{step.suggestion}</View> : null}
          {mode === 'custom' ? (
            <View className='zh-custom'>
              {kind === 'yesno' || kind === 'success' ? (
                <View className='chip-row'>
                  {[true, false].map((b) => (
                    <View key={String(b)} className={`chip ${custom === b ? 'chip-on' : ''}`} onClick={() => setCustom(b)}>
                      {kind === 'yesno' ? (b ? '是（点头）' : '否（摇头）') : (b ? '成功' : '失败')}
                    </View>
                  ))}
                </View>
              ) : null}
              {kind === 'number' ? (
                <View className='stepper'>
                  <View className='stepper-btn' onClick={() => setCustom(Math.max(0, Number(custom ?? 0) - 1))}>−</View>
                  <Text className='stepper-value'>{Number(custom ?? 0)}</Text>
                  <View className='stepper-btn' onClick={() => setCustom(Number(custom ?? 0) + 1)}>＋</View>
                </View>
              ) : null}
              {kind === 'seats' ? (
                <SeatPicker seats={seats} multi value={(custom as number[] | null) ?? []} onChange={(v) => setCustom(v)} />
              ) : null}
              {kind === 'seat_role' ? (
                <>
                  <SeatPicker seats={seats} value={seatRole.seat === null ? [] : [seatRole.seat]} onChange={(v) => setSeatRole((x) => ({ ...x, seat: v[0] ?? null }))} />
                  <RolePicker roles={roles} value={seatRole.role ? [seatRole.role] : []} onChange={(v) => setSeatRole((x) => ({ ...x, role: v[0] ?? null }))}
                    filter={(r) => !r.derived && (r.team === 'townsfolk' || r.team === 'outsider')} />
                </>
              ) : null}
            </View>
          ) : null}
        </View>
      ) : null}
      {verdict && !verdict.legal ? <Reason text={verdict.message} /> : null}
      {verdict?.legal && verdict.preview ? (
        // the server's words for the targets chosen: what to nod, shake or show in the dark
        <View className='zh-preview' role='status'><Text className='zh-truth-key'>将告知</Text>{verdict.preview}</View>
      ) : null}
      <View className='zh-buttons'>
        <SealButton kind='ghost' size='small' busy={busy === 'skip'} onClick={() => void send({ type: 'night_step', step: step.key, skip: true }, 'skip')}>跳过</SealButton>
        <SealButton kind='gold' busy={busy === 'step'} disabled={!!verdict && !verdict.legal} onClick={() => void send(action, 'step')}>确定</SealButton>
      </View>
    </View>
  )
}

/** Tonight's plan: the current step on top, then what is to come (greyed with the reason), then what was done. */
export function NightPanel(props: Props) {
  const { night, busy, send } = props
  const rows = nightPlan(night)
  const current = night.current
  return (
    <Panel title={`第${night.number}夜 · 夜晚行动`} extra={`${night.steps.filter((s) => s.state === 'done').length}/${night.steps.length}`} className='zh-night'>
      {current ? <CurrentStep {...props} step={current} /> : <View className='zh-step-none'>今夜的行动都已完成，可按「天亮」。</View>}
      <View className='zh-plan'>
        {rows.filter((r) => r.kind !== 'current').map((r) => (
          <View key={r.step.key} className={`zh-plan-row zh-plan-${r.kind}`} data-step={r.step.key} data-kind={r.kind}>
            <Text className='zh-plan-no'>{r.order}</Text>
            <View className='grow'>
              <Text className='zh-plan-label'>{r.step.label}</Text>
              {r.note ? <Text className='zh-plan-note'>{r.kind === 'done' ? r.note : `（${r.note}）`}</Text> : null}
            </View>
            {r.reopen ? (
              <SealButton kind='ghost' size='small' busy={busy === `reopen-${r.step.key}`}
                onClick={() => void send({ type: 'reopen_step', step: r.step.key }, `reopen-${r.step.key}`)}>重开</SealButton>
            ) : r.kind === 'done' ? <Text className='zh-plan-mark'>✓</Text> : null}
          </View>
        ))}
      </View>
      {night.deaths.length ? (
        <View className='zh-deaths'>今夜死亡：{nightDeathsText(night.deaths)}（天亮时公布）</View>
      ) : null}
    </Panel>
  )
}
