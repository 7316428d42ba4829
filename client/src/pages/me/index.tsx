import { useState } from 'react'
import Taro from '@tarojs/taro'
import { Text, View } from '@tarojs/components'
import { api, session } from '../../api'
import { notDelivered } from '../../api/errors'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { Screen } from '../../components/Screen'
import { SealButton } from '../../components/SealButton'
import { Sheet } from '../../components/Sheet'
import { useAuthGuard } from '../../hooks/useAuthGuard'
import { useData } from '../../hooks/useData'
import { noMaidsHint, USER_ROLE } from '../../lib/labels'
import { AdminPanel } from './AdminPanel'
import { ConsortCard } from './ConsortCard'
import { MaidCollection } from './MaidCollection'
import { RecordsList } from './Records'
import './index.css'

export default function Me() {
  const authed = useAuthGuard()
  const me = useData(() => api.GET('/v1/me'), [])
  const consortId = me.data?.consort?.id
  const records = useData(
    async () => (consortId ? api.GET('/v1/consorts/{consort_id}/records', { params: { path: { consort_id: consortId } } }) : null),
    [consortId],
  )
  const catalogue = useData(() => api.GET('/v1/maids'), [])
  const hasConsort = !!me.data?.consort
  const admin = me.data?.user.role === 'admin'
  const consorts = useData(async () => (me.data && !hasConsort && !admin ? api.GET('/v1/consorts') : null), [me.data, hasConsort, admin])
  const [claiming, setClaiming] = useState<string>()
  const [claimError, setClaimError] = useState<unknown>()
  const [confirming, setConfirming] = useState<{ id: string; name: string }>()

  if (!authed) return null
  const user = me.data?.user

  const claim = async (id: string) => {
    setClaiming(id)
    setClaimError(undefined)
    try {
      await api.POST('/v1/consorts/{consort_id}/claim', { params: { path: { consort_id: id } } })
      await me.reload()
    } catch (e) {
      setClaimError(notDelivered(e))  // a claim is safe to send again: she may tap again
    } finally {
      setClaiming(undefined)
      setConfirming(undefined)
    }
  }

  const logout = () => {
    session.logout()
    void Taro.reLaunch({ url: '/pages/login/index' })
  }

  return (
    <Screen
      title={user?.name ?? '我的'}
      sub={user ? (USER_ROLE[user.role] ?? user.role) : '宫中名册'}
      extra={<View className='masthead-seal' onClick={logout}>出宫</View>}
    >
      <ErrorLine error={me.error} />
      {me.loading && !me.data ? <View className='loading'>翻阅名册…</View> : null}

      {me.data?.consort ? (
        <Panel title='我的妃子'>
          <ConsortCard consort={me.data.consort} />
        </Panel>
      ) : null}

      {admin ? <AdminPanel /> : null}

      {me.data && !me.data.consort && !admin ? (
        <Panel title='册封妃子' extra='择一位未有主的妃子'>
          <ErrorLine error={claimError ?? consorts.error} />
          {(consorts.data?.consorts ?? []).filter((c) => !c.claimed).map((c) => (
            <View key={c.id} className='claim'>
              <ConsortCard consort={c} compact />
              <View className='claim-go'>
                <SealButton size='small' busy={claiming === c.id} onClick={() => { setClaimError(undefined); setConfirming({ id: c.id, name: c.name }) }}>册封</SealButton>
              </View>
            </View>
          ))}
          {consorts.data && !consorts.data.consorts.some((c) => !c.claimed)
            ? <View className='empty'>暂无可册封的妃子，请司礼新添</View> : null}
        </Panel>
      ) : null}

      {me.data?.consort ? (
        <Panel title='群芳战绩'>
          <ErrorLine error={records.error} />
          {records.data ? <RecordsList records={records.data} /> : <View className='loading'>…</View>}
        </Panel>
      ) : null}

      <Panel title='宫女图鉴' extra={me.data?.consort ? <Text>{(me.data.consort.maids ?? []).length} 位在侧</Text> : undefined}>
        <ErrorLine error={catalogue.error} />
        {me.data?.consort && noMaidsHint((me.data.consort.maids ?? []).length)
          ? <View className='maid-hint'>{noMaidsHint((me.data.consort.maids ?? []).length)}</View> : null}
        {catalogue.data
          ? <MaidCollection cards={catalogue.data.cards} owned={me.data?.consort?.maids ?? []} />
          : <View className='loading'>…</View>}
      </Panel>
      {confirming ? (
        <Sheet
          title={`册封 · ${confirming.name}`}
          open
          onClose={() => setConfirming(undefined)}
          footer={(
            <>
              <SealButton kind='ghost' onClick={() => setConfirming(undefined)}>再想想</SealButton>
              <SealButton busy={claiming === confirming.id} onClick={() => void claim(confirming.id)}>册封</SealButton>
            </>
          )}
        >
          <View className='confirm-text'>册封「{confirming.name}」为你的妃子？此后不可更换。</View>
          <ErrorLine error={claimError} />
        </Sheet>
      ) : null}
    </Screen>
  )
}
