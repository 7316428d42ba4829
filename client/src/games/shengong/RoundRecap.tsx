import { Text, View } from '@tarojs/components'
import { SCOPE_TAG } from './labels'
import { foldText, recapOf } from './reports'
import type { Report } from './types'

/**
 * The round just settled, in what concerns her (her own lines and those about her, from the last
 * report), at the top of 宫图: she lands in the next round knowing what the last one did to her —
 * the rest is one tap away in 战报. Her heavy lines (blows taken or dealt, 击败, her fall) are never
 * folded away; the fold says how many of the folded lines are about her (「另有 5 条（2 条与你有关）」).
 */
export function RoundRecap({ reports, mySeat, onMore }: { reports: Report[]; mySeat: number | null; onMore: () => void }) {
  const recap = recapOf(reports, mySeat)
  if (!recap) return null
  const fold = foldText(recap)
  return (
    <View className='sg-recap' data-step={recap.step}>
      <View className='sg-recap-head'>
        <Text className='sg-recap-label'>{recap.label}结算</Text>
        <Text className='sg-recap-more' onClick={onMore}>{fold ? `${fold} · ` : ''}全部战报 ›</Text>
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
