import { Text, View } from '@tarojs/components'
import { SCOPE_TAG } from './labels'
import { recapOf } from './reports'
import type { Report } from './types'

/**
 * The round just settled, in what concerns her (her own lines and those about her, from the last
 * report), at the top of 宫图: she lands in the next round knowing what the last one did to her —
 * the rest is one tap away in 战报.
 */
export function RoundRecap({ reports, onMore }: { reports: Report[]; onMore: () => void }) {
  const recap = recapOf(reports)
  if (!recap) return null
  return (
    <View className='sg-recap' data-step={recap.step}>
      <View className='sg-recap-head'>
        <Text className='sg-recap-label'>{recap.label}结算</Text>
        <Text className='sg-recap-more' onClick={onMore}>{recap.more ? `另有 ${recap.more} 条 · ` : ''}全部战报 ›</Text>
      </View>
      {recap.lines.map((l, i) => (
        <View key={i} className={`sg-line sg-line-${l.scope}`} data-scope={l.scope}>
          <Text className='sg-line-tag'>{SCOPE_TAG[l.scope] ?? ''}</Text>
          <Text className='sg-line-text'>{l.text}</Text>
        </View>
      ))}
    </View>
  )
}
