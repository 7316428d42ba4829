import { useMemo, useState } from 'react'
import { Input, Switch, Text, View } from '@tarojs/components'
import type { Schemas } from '../../api'
import { ErrorLine } from '../../components/ErrorLine'
import { SealButton } from '../../components/SealButton'
import { Sheet } from '../../components/Sheet'
import { GuideLink } from '../../components/guide/GuideButton'
import { RULE_LABEL } from '../../lib/labels'
import { clampStep, defaultsOf, fieldsOf, type OptionValues } from '../../lib/optionsForm'

type Game = Schemas['GameOut']

interface Props {
  game: Game
  open: boolean
  busy: boolean
  error: unknown
  onClose: () => void
  onCreate: (options: OptionValues, password: string | null) => void
}

/** 开房: the game's options generated from its options_schema (a choice the server locks for her greyed
 * with its reason), its fixed rules read-only, a 暗号. */
export function CreateRoom({ game, open, busy, error, onClose, onCreate }: Props) {
  const fields = useMemo(() => fieldsOf(game.options_schema), [game])
  const [values, setValues] = useState<OptionValues>(() => defaultsOf(fields))
  const [password, setPassword] = useState('')
  const set = (name: string, v: string | number | boolean) => setValues((old) => ({ ...old, [name]: v }))
  const rules = Object.entries(game.fixed_rules)

  return (
    <Sheet
      title={`开房 · ${game.title}`}
      open={open}
      onClose={onClose}
      footer={(
        <>
          <SealButton kind='ghost' onClick={onClose}>作罢</SealButton>
          <SealButton busy={busy} onClick={() => onCreate(values, password.trim() || null)}>开房</SealButton>
        </>
      )}
    >
      <GuideLink gameKey={game.key} />
      {fields.map((f) => (
        <View key={f.name} className='field' data-field={f.name}>
          <View className='field-label'>{f.label}</View>
          {f.kind === 'choice' ? (
            <View className='chip-row'>
              {f.choices.map((c) => (
                <View
                  key={String(c.value)}
                  className={`chip ${values[f.name] === c.value ? 'chip-on' : ''} ${c.locked ? 'chip-locked' : ''}`}
                  data-choice={String(c.value)}
                  aria-disabled={c.locked ? 'true' : 'false'}
                  onClick={c.locked ? undefined : () => set(f.name, c.value)}
                >
                  {c.label}
                </View>
              ))}
            </View>
          ) : null}
          {/* choices the server says she cannot open yet (a stage not unlocked): greyed, its reason under them */}
          {f.kind === 'choice' ? f.choices.filter((c) => c.locked).map((c) => (
            <View key={String(c.value)} className='field-hint field-locked' data-choice={String(c.value)}>{c.locked}</View>
          )) : null}
          {f.kind === 'number' ? (
            <View className='stepper'>
              <View className='stepper-btn' onClick={() => set(f.name, clampStep(f, Number(values[f.name]), -f.step))}>−</View>
              <Text className='stepper-value'>{String(values[f.name])}</Text>
              <View className='stepper-btn' onClick={() => set(f.name, clampStep(f, Number(values[f.name]), f.step))}>+</View>
              <Text className='muted'>{'  '}{f.min}–{f.max}</Text>
            </View>
          ) : null}
          {f.kind === 'toggle' ? (
            <Switch checked={Boolean(values[f.name])} color='#8B1A1A' onChange={(e) => set(f.name, e.detail.value)} />
          ) : null}
          {f.kind === 'fixed' ? <Text className='kai'>{f.value}</Text> : null}
          {f.hint ? <View className='field-hint'>{f.hint}</View> : null}
        </View>
      ))}
      {rules.length ? (
        <View className='field'>
          <View className='field-label'>固定规则</View>
          {rules.map(([k, v]) => (
            <View key={k} className='fixed-rule'>
              <Text className='fixed-rule-name'>{RULE_LABEL[k] ?? k}</Text>
              <Text>{String(v)}</Text>
            </View>
          ))}
        </View>
      ) : null}
      <View className='field'>
        <View className='field-label'>暗号（可不设）</View>
        <Input className='input' value={password} maxlength={16} placeholder='设了暗号，入席须报上' onInput={(e) => setPassword(e.detail.value)} />
      </View>
      <ErrorLine error={error} />
    </Sheet>
  )
}
