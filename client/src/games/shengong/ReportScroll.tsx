import { Text, View } from '@tarojs/components'
import { ErrorLine } from '../../components/ErrorLine'
import { SCOPE_TAG } from './labels'
import { lineClass, orderLines, scrollOrder } from './reports'
import type { Report } from './types'

/**
 * The 战报 as a scroll, newest round on top. What I did and what struck me in full (朱 and jade),
 * everyone else's moves anonymous (faint), the court's public news in ink.
 */
export function ReportScroll({ reports, error }: { reports: Report[]; error: unknown }) {
  const rounds = scrollOrder(reports)
  return (
    <View className='sg-scroll' aria-label='战报'>
      <View className='sg-scroll-rod' />
      <ErrorLine error={error} />
      {rounds.length === 0 ? <View className='empty'>尚无战报：首回合结算后在此宣读</View> : null}
      {rounds.map((r) => (
        <View key={r.step} className='sg-report' data-step={r.step}>
          <View className='sg-report-head'>
            <Text className='sg-report-label'>{r.label}</Text>
            {r.trigger === 'hurry' ? <Text className='sg-report-trigger'>催战结算</Text> : null}
            {r.trigger === 'deadline' ? <Text className='sg-report-trigger'>时限到</Text> : null}
          </View>
          {orderLines(r.lines).map((l, i) => (
            <View key={i} className={lineClass(l)} data-scope={l.scope}>
              {l.kind === 'round' ? null : <Text className='sg-line-tag'>{SCOPE_TAG[l.scope] ?? ''}</Text>}
              <Text className='sg-line-text'>{l.text}</Text>
            </View>
          ))}
        </View>
      ))}
      <View className='sg-scroll-rod' />
    </View>
  )
}
