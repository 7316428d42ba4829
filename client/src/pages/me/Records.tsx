import { Text, View } from '@tarojs/components'
import type { Schemas } from '../../api'
import { boardTitle, percent, scoreText } from '../../lib/labels'

type Records = Schemas['ConsortRecordsOut']

/** 群芳战绩: one line per board she has played, with her 品级 (title) and rank. */
export function RecordsList({ records }: { records: Records }) {
  const boards = Object.entries(records.boards)
  if (!boards.length) return <View className='empty'>尚无战绩，去大厅开一局吧</View>
  return (
    <View>
      {boards.map(([board, r]) => (
        <View key={board} className='record'>
          <View className='row-between'>
            <Text className='record-board'>{boardTitle(board)}</Text>
            <Text className='record-title'>{r.title}</Text>
          </View>
          <View className='record-nums'>
            <Text>第 {r.rank} 名</Text>
            <Text>{r.games} 局 {r.wins} 胜</Text>
            <Text>胜率 {percent(r.win_rate)}</Text>
            <Text>KD {scoreText(r.kd)}</Text>
            <Text>场均杀伤 {scoreText(r.avg_damage)}</Text>
            <Text>积分 {scoreText(r.score)}</Text>
          </View>
        </View>
      ))}
    </View>
  )
}
