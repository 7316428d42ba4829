import { useRef, useState } from 'react'
import { Input, Switch, Text, View } from '@tarojs/components'
import { api } from '../../api'
import { freshKey, IntentKey } from '../../api/actionKeys'
import { notDelivered } from '../../api/errors'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { SealButton } from '../../components/SealButton'
import { useData } from '../../hooks/useData'
import { shortDate } from '../../lib/labels'

const ATTRS = [
  { key: 'looks', label: '容貌' },
  { key: 'talent', label: '才情' },
  { key: 'favor', label: '圣宠' },
  { key: 'power', label: '权势' },
] as const
type AttrKey = (typeof ATTRS)[number]['key']

const REASON: Record<string, string> = { abuse: '辱骂', spoiler: '剧透', spam: '刷屏', other: '其他', review: '待复核' }

/** A tap of the 司礼's that says what happened, in the server's words when it refused. */
function useTap() {
  const [busy, setBusy] = useState<string>()
  const [error, setError] = useState<unknown>()
  const [done, setDone] = useState<string>()
  const tap = async (key: string, fn: () => Promise<string>) => {
    setBusy(key)
    setError(undefined)
    setDone(undefined)
    try {
      setDone(await fn())
    } catch (e) {
      setError(notDelivered(e))
    } finally {
      setBusy(undefined)
    }
  }
  return { busy, error, done, tap }
}

/** 添妃子: name and the four attributes (0–100). */
function AddConsort({ onAdded }: { onAdded: () => void }) {
  const [name, setName] = useState('')
  const [attrs, setAttrs] = useState<Record<AttrKey, string>>({ looks: '60', talent: '60', favor: '60', power: '60' })
  const { busy, error, done, tap } = useTap()
  // one key per 妃子 she means to add (this name, these attributes): a tap again after a lost answer adds no second
  const addKey = useRef(new IntentKey(freshKey('consort')))
  const add = () => tap('add', async () => {
    const body = { name: name.trim(), looks: Number(attrs.looks), talent: Number(attrs.talent), favor: Number(attrs.favor), power: Number(attrs.power) }
    const made = await addKey.current.send(body, (key) => api.POST('/v1/admin/consorts', { body, headers: { 'Idempotency-Key': key } }))
    setName('')
    onAdded()
    return `已添「${made.name}」`
  })
  return (
    <View className='admin-block' data-block='consort'>
      <View className='field-label'>添妃子</View>
      <Input className='input' value={name} maxlength={12} placeholder='妃子名号（1–12 字）' onInput={(e) => setName(e.detail.value)} />
      <View className='admin-attrs'>
        {ATTRS.map((a) => (
          <View key={a.key} className='admin-attr'>
            <Text className='admin-attr-label'>{a.label}</Text>
            <Input className='input admin-attr-input' type='number' value={attrs[a.key]} maxlength={3}
              onInput={(e) => setAttrs((old) => ({ ...old, [a.key]: e.detail.value }))} />
          </View>
        ))}
      </View>
      <ErrorLine error={error} />
      {done ? <View className='admin-done'>{done}</View> : null}
      <View className='admin-go'>
        <SealButton busy={busy === 'add'} disabled={!name.trim()} onClick={() => void add()}>添妃子</SealButton>
        {!name.trim() ? <Text className='admin-hint'>先写妃子名号</Text> : null}
      </View>
    </View>
  )
}

/** 赐宫女: a 妃子, a card of the catalogue, a level. */
function GrantMaid({ version }: { version: number }) {
  const consorts = useData(() => api.GET('/v1/consorts'), [version])
  const cards = useData(() => api.GET('/v1/maids'), [])
  const [consort, setConsort] = useState<string>()
  const [card, setCard] = useState<string>()
  const [level, setLevel] = useState(1)
  const { busy, error, done, tap } = useTap()
  const grant = () => tap('grant', async () => {
    if (!consort || !card) return ''
    const out = await api.POST('/v1/admin/consorts/{consort_id}/maids', { params: { path: { consort_id: consort } }, body: { card, level } })
    const maid = cards.data?.cards.find((c) => c.id === card)
    return `已赐「${out.name}」${maid?.maid ?? card} Lv.${level}`
  })
  return (
    <View className='admin-block' data-block='maid'>
      <View className='field-label'>赐宫女</View>
      <ErrorLine error={consorts.error ?? cards.error} />
      <View className='muted'>妃子</View>
      <View className='chip-row'>
        {(consorts.data?.consorts ?? []).map((c) => (
          <View key={c.id} className={`chip ${consort === c.id ? 'chip-on' : ''}`} onClick={() => setConsort(c.id)}>{c.name}</View>
        ))}
      </View>
      <View className='muted'>宫女</View>
      <View className='chip-row'>
        {(cards.data?.cards ?? []).map((c) => (
          <View key={c.id} className={`chip ${card === c.id ? 'chip-on' : ''}`} onClick={() => setCard(c.id)}>{c.maid}·{c.skill}</View>
        ))}
      </View>
      <View className='muted'>等级</View>
      <View className='chip-row'>
        {[1, 2, 3, 4, 5].map((l) => (
          <View key={l} className={`chip ${level === l ? 'chip-on' : ''}`} onClick={() => setLevel(l)}>Lv.{l}</View>
        ))}
      </View>
      <ErrorLine error={error} />
      {done ? <View className='admin-done'>{done}</View> : null}
      <View className='admin-go'>
        <SealButton busy={busy === 'grant'} disabled={!consort || !card} onClick={() => void grant()}>赐宫女</SealButton>
        {!consort || !card ? <Text className='admin-hint'>{`先择${[!consort && '妃子', !card && '宫女'].filter(Boolean).join('与')}`}</Text> : null}
      </View>
    </View>
  )
}

/** 开/封玩法: every game with its switch; the server answers the whole list as it now stands. */
function GameLocks() {
  const games = useData(() => api.GET('/v1/games'), [])
  const { busy, error, done, tap } = useTap()
  // each answer remounts the switches: after a failed tap a native switch would stay flipped, for its
  // `checked` (the stored state) did not change
  const [answers, setAnswers] = useState(0)
  const set = (key: string, title: string, open: boolean) => tap(key, async () => {
    try {
      await api.PUT('/v1/admin/games', { body: { open: { [key]: open } } })
    } finally {
      await games.reload()
      setAnswers((n) => n + 1)
    }
    return `${title}已${open ? '开放' : '封存'}`
  })
  return (
    <View className='admin-block' data-block='games'>
      <View className='field-label'>开 / 封玩法</View>
      <ErrorLine error={games.error} />
      {(games.data?.games ?? []).map((g) => (
        <View key={g.key} className='admin-game' data-game={g.key}>
          <Text className='grow'>{g.title}</Text>
          <Text className={g.open ? 'admin-open' : 'muted'}>{busy === g.key ? '…' : g.open ? '开放' : '封存'}</Text>
          <Switch key={`${g.key}-${answers}`} checked={g.open} color='#8B1A1A' disabled={!!busy} onChange={(e) => void set(g.key, g.title, e.detail.value)} />
        </View>
      ))}
      <ErrorLine error={error} />
      {done ? <View className='admin-done'>{done}</View> : null}
    </View>
  )
}

/** 举报: chat lines reported by players (or held for review by the content check), newest first. */
function Reports() {
  const reports = useData(() => api.GET('/v1/admin/chat/reports', { params: { query: { limit: 20 } } }), [])
  const rows = reports.data?.reports ?? []
  return (
    <View className='admin-block' data-block='reports'>
      <View className='row-between'>
        <View className='field-label'>举报</View>
        <SealButton size='small' kind='ghost' onClick={() => void reports.reload()}>刷新</SealButton>
      </View>
      <ErrorLine error={reports.error} />
      {reports.data && !rows.length ? <View className='empty'>宫中清静，暂无举报</View> : null}
      {rows.map((r) => (
        <View key={`${r.message.id}-${r.reporter.user}`} className='admin-report'>
          <View className='row-between'>
            <Text className='kai'>{r.message.speaker.name}</Text>
            <Text className='badge'>{REASON[r.reason] ?? r.reason}</Text>
          </View>
          <View className='admin-report-text'>「{r.message.text}」</View>
          <View className='muted'>{r.reporter.user === 'system' ? '内容检查' : r.reporter.name} 举报 · {shortDate(r.at_ms)} · 房 {r.room_id}</View>
        </View>
      ))}
    </View>
  )
}

/** 司礼's desk in 我的: add a 妃子, grant a 宫女, open or lock a game, read the reports. */
export function AdminPanel() {
  const [version, setVersion] = useState(0)
  return (
    <Panel title='司礼宫务' className='admin'>
      <AddConsort onAdded={() => setVersion((v) => v + 1)} />
      <GrantMaid version={version} />
      <GameLocks />
      <Reports />
    </Panel>
  )
}
