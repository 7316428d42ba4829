import { View, Text } from '@tarojs/components'
import './StatBar.css'

interface Props {
  label: string
  value: number
  max?: number
  tone?: 'zhu' | 'jin' | 'jade' | 'ink'
}

/** One attribute (容貌/才情/圣宠/权势) as a bar out of 100. */
export function StatBar({ label, value, max = 100, tone = 'zhu' }: Props) {
  const pct = Math.max(0, Math.min(100, Math.round((value / max) * 100)))
  return (
    <View className='stat' aria-label={`${label} ${value}`}>
      <Text className='stat-label'>{label}</Text>
      <View className='stat-track'>
        <View className={`stat-fill stat-${tone}`} style={{ width: `${pct}%` }} />
      </View>
      <Text className='stat-value'>{value}</Text>
    </View>
  )
}
