import { Text, View } from '@tarojs/components'
import type { Schemas } from '../../api'
import { StatBar } from '../../components/StatBar'
import { STAGE_NAME } from '../../lib/labels'

type Consort = Schemas['ConsortOut']

/** A 妃子: name, her four attributes as bars, the stages she has cleared. */
export function ConsortCard({ consort, compact }: { consort: Consort; compact?: boolean }) {
  return (
    <View className={`consort ${compact ? 'consort-compact' : ''}`}>
      <View className='consort-head'>
        <View className='consort-seal'>{consort.name.slice(0, 1)}</View>
        <View className='grow'>
          <Text className='consort-name'>{consort.name}</Text>
          <View className='muted'>
            {consort.cleared_stages.length
              ? `已通关 ${consort.cleared_stages.map((s) => STAGE_NAME[s] ?? s).join('、')}`
              : '尚未通关'}
          </View>
        </View>
      </View>
      <StatBar label='容貌' value={consort.looks} tone='zhu' />
      <StatBar label='才情' value={consort.talent} tone='jade' />
      <StatBar label='圣宠' value={consort.favor} tone='jin' />
      <StatBar label='权势' value={consort.power} tone='ink' />
    </View>
  )
}
