import { Text, View } from '@tarojs/components'
import { api } from '../../api'
import { ErrorLine } from '../../components/ErrorLine'
import { AgainButton } from '../../components/room/AgainButton'
import { teamText } from '../../lib/labels'
import { useData } from '../../hooks/useData'
import { fastestRow, notesInTableOrder, placeLine, points, resultRows, scoreName, unlockedStage, verdictOf } from './result'
import type { Line, RoomView } from './types'

/**
 * The end: how it ended, every seat's score with kills (击败), damage dealt and taken; in 玩法D the
 * stage this clear unlocked and the team's place on the fastest-clear board. Under the table, the
 * server's own score lines from the last 战报 (how each score was made up), in the table's order.
 */
export function ResultPanel({ view, scoreLines }: { view: RoomView; scoreLines: Line[] }) {
  const roomId = view.room.id
  const game = view.game
  const stage = game?.mode === 'D' ? game.stage ?? null : null
  const result = useData(() => api.GET('/v1/games/shengong/rooms/{room_id}/result', { params: { path: { room_id: roomId } } }), [roomId])
  const competition = view.room.competition
  const fastest = useData(
    async () => (stage
      ? api.GET('/v1/stages/{stage}/fastest', { params: { path: { stage: String(stage) }, query: { competition } } })
      : null),
    [stage, competition],
  )
  const seated = view.viewer.role === 'player'
  const hosting = view.viewer.role === 'host'
  const mine = seated || hosting
  const me = useData(async () => (seated && stage ? api.GET('/v1/me') : null), [seated, stage])
  const outcome = result.data?.results.find((r) => r.unit === 'game') ?? result.data?.results[0]
  if (!outcome) {
    return (
      <View className='sg-result'>
        <ErrorLine error={result.error} />
        {!result.error ? <View className='loading'>宣读结果…</View> : null}
      </View>
    )
  }
  const rows = resultRows(outcome, view.viewer.seat)
  const cleared = outcome.extra.cleared ?? false
  const myConsort = me.data?.consort
  const unlocked = myConsort ? unlockedStage(stage, cleared, myConsort.cleared_stages) : null
  const clearRow = fastest.data ? fastestRow(fastest.data.rows, roomId) : undefined
  const verdict = verdictOf(outcome)
  const places = placeLine(rows, outcome.reason)
  const mode = outcome.extra.mode
  // a stage not cleared is the team's failure, whichever way it ended (the server's `cleared`)
  const failed = mode === 'D' && !cleared
  const standing = (game?.opponents ?? []).filter((o) => o.alive)
  return (
    <View className='sg-result' aria-label='终局'>
      <View className={`sg-verdict sg-verdict-${outcome.reason} ${failed ? 'sg-verdict-failed' : ''}`}>
        <Text className={`sg-verdict-seal ${Array.from(verdict.seal).length <= 2 ? 'sg-verdict-seal-short' : ''}`}>{verdict.seal}</Text>
        <View className='sg-verdict-text'>
          <Text className='sg-verdict-title'>
            {mode === 'D' ? `${game?.stage_title ?? `关卡${stage}`}` : game?.title ?? '深宫杀'}
          </Text>
          {/* how it ended, in the server's sentence (「20 回合已满，对手仍未倒下，闯关失败」) */}
          <Text className='sg-verdict-sub sg-verdict-ending'>
            {verdict.sentence ?? `共 ${outcome.extra.rounds} 回合${outcome.clear ? ` · 第 ${outcome.clear.rounds} 回合放倒全部对手` : ''}`}
          </Text>
          {places ? <Text className='sg-verdict-sub sg-verdict-places'>{places}</Text> : null}
          {/* a stage not cleared: how far the team got (who still stood, and with what) */}
          {mode === 'D' && !cleared && standing.length ? (
            <Text className='sg-verdict-sub sg-verdict-left'>
              {standing.map((o) => `${o.name} 尚余气血 ${points(o.hp)}/${points(o.hp_max)}`).join('、')}
            </Text>
          ) : null}
        </View>
      </View>

      {unlocked ? <View className='sg-unlock'>已解锁 关卡{unlocked}：出过手的同袍皆可挑战</View> : null}
      {mine ? (
        <View className='room-actions again-row sg-again'>
          {stage ? (
            <>
              <AgainButton room={view.room} mine={mine} hosting={hosting} stage={stage} label='再战此关' waitText='等司礼开新局' />
              {unlocked ? <AgainButton room={view.room} mine={mine} hosting={hosting} stage={unlocked} label={`挑战关卡${unlocked}`} kind='gold' /> : null}
            </>
          ) : <AgainButton room={view.room} mine={mine} hosting={hosting} label='再来一局' waitText='等司礼开新局' />}
        </View>
      ) : null}
      {cleared && clearRow ? (
        <View className='sg-fastest'>
          <Text className='sg-fastest-rank'>最快击杀榜 第 {clearRow.rank} 名</Text>
          <Text className='sg-fastest-sub'>关卡{stage} · {clearRow.rounds} 回合 · {teamText(clearRow.team)}</Text>
        </View>
      ) : null}

      <View className='sg-scores'>
        <View className='sg-score sg-score-head'>
          <Text className='sg-score-rank'>名次</Text>
          <Text className='sg-score-name'>妃子</Text>
          <Text className='sg-score-num'>击败</Text>
          <Text className='sg-score-num'>输出</Text>
          <Text className='sg-score-num'>承伤</Text>
          <Text className='sg-score-total'>积分</Text>
        </View>
        {/* 宫斗杀 has no places: the rank by score (equal scores, equal rank), not the seat number */}
        {rows.map((r) => (
          <View key={r.seat} className={`sg-score ${r.mine ? 'sg-score-mine' : ''} ${r.won ? 'sg-score-won' : ''}`} data-seat={r.seat}>
            <Text className='sg-score-rank'>{r.place ?? 1 + rows.filter((o) => o.score > r.score).length}</Text>
            <View className='sg-score-name'>
              <Text>{scoreName(r).name}</Text>
              {scoreName(r).note ? <Text className='sg-score-unmoved'>{scoreName(r).note}</Text> : null}
            </View>
            <Text className='sg-score-num' aria-label='击败'>{r.kills}</Text>
            <Text className='sg-score-num'>{points(r.damage)}</Text>
            <Text className='sg-score-num'>{points(r.taken)}</Text>
            <Text className='sg-score-total'>{points(r.score)}</Text>
          </View>
        ))}
        {/* A/B/C: a place below may hold a higher score — say so before the sums puzzle anyone */}
        {!stage ? <Text className='sg-score-note sg-score-how'>名次按坚持到最后的先后排定，积分另计：</Text> : null}
        {/* a seat that never moved (every round 待机 by default) is shown, and counts on no board */}
        {rows.some((r) => !r.played) ? (
          <Text className='sg-score-note sg-score-unplayed'>
            {rows.every((r) => !r.played) ? '此局无人亲自落子：' : ''}未出手者照列积分，不计入榜单、战绩与解锁。
          </Text>
        ) : null}
        {/* in the table's order, with its decimals (the server writes each figure with two) */}
        {notesInTableOrder(scoreLines, rows).map((text, i) => <Text key={i} className='sg-score-note'>{text}</Text>)}
      </View>
    </View>
  )
}
