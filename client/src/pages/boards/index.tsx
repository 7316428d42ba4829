import { useState } from 'react'
import { Text, View } from '@tarojs/components'
import { useDidShow } from '@tarojs/taro'
import { api, type Schemas } from '../../api'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { Screen } from '../../components/Screen'
import { useAuthGuard } from '../../hooks/useAuthGuard'
import { useData } from '../../hooks/useData'
import { BOARD_KINDS, boardTitle, percent, scoreText, shortDate, STAGE_NAME, STAGES, teamMembers } from '../../lib/labels'
import { takeBoard } from '../../lib/nav'
import { boardFamilies, hasFastestClears } from './families'
import './index.css'

/** Rows a board shows: a full page is the top of a longer board (「前 20 名」), not everyone on it. */
const BOARD_PAGE = 20

type Row = Schemas['BoardRowOut']

function RankMark({ rank }: { rank: number }) {
  return <View className={`rank ${rank <= 3 ? `rank-${rank}` : ''}`}>{rank}</View>
}

/** `fights`: a 深宫杀 board (a 妃子's 群芳战绩), whose records count 击败 and damage; 保皇's do not. */
function BoardRow({ row, fights }: { row: Row; fights: boolean }) {
  return (
    <View className='board-row' data-rank={row.rank}>
      <RankMark rank={row.rank} />
      <View className='grow'>
        <View className='row'>
          <Text className='board-name'>{row.name ?? '无名氏'}</Text>
          <Text className='board-title'>{row.title}</Text>
        </View>
        <View className='muted'>{row.games} 局 · {row.wins} 胜 · 胜率 {percent(row.win_rate)}</View>
        {/* seed: 派生胜率 · KD · 场均杀伤 · 总积分 */}
        {fights ? <View className='muted board-figures'>KD {scoreText(row.kd)} · 场均杀伤 {scoreText(row.avg_damage)}</View> : null}
      </View>
      <View className='board-score'>
        <Text className='board-score-num'>{scoreText(row.score)}</Text>
        <Text className='board-score-unit'>分</Text>
      </View>
    </View>
  )
}

export default function Boards() {
  const authed = useAuthGuard()
  // which boards exist comes from GET /v1/boards; the known list stands in until it answers
  const list = useData(() => api.GET('/v1/boards'), [])
  const families = boardFamilies(list.data?.boards)
  const stages = list.data?.stages.length ? list.data.stages : STAGES
  const [game, setGame] = useState('coop')
  const [kind, setKind] = useState<'free' | 'tournament'>('free')
  // a game's 看榜单 names its board (the tab itself takes no query)
  useDidShow(() => {
    const wanted = takeBoard()
    if (wanted) {
      setGame(wanted.game)
      setKind(wanted.kind)
    }
  })
  const [stage, setStage] = useState(1)
  const board = `${game}-${kind}`
  const top = useData(() => api.GET('/v1/boards/{board}', { params: { path: { board }, query: { limit: BOARD_PAGE } } }), [board])
  const mine = useData(() => api.GET('/v1/boards/{board}/me', { params: { path: { board } } }), [board])
  // the fastest clears of the competition shown: 自由赛 and 锦标赛 never share a board
  // (宫斗杀's board only: A/B/C have no stages to clear)
  const clears = hasFastestClears(game)
  const fastest = useData(
    async () => (clears
      ? api.GET('/v1/stages/{stage}/fastest', { params: { path: { stage: String(stage) }, query: { competition: kind } } })
      : null),
    [stage, kind, clears],
  )

  if (!authed) return null
  const rows = top.data?.board === board ? top.data.rows : undefined
  // a reply for the tab she left (a late one too) is never shown under the tab she is on
  const clearRows = fastest.data?.stage === stage && fastest.data.competition === kind ? fastest.data.rows : undefined
  // a 妃子's board (深宫杀's 群芳战绩) counts 击败 and damage; a player's (保皇) does not
  const fights = (list.data?.boards.find((b) => b.board === board)?.subject ?? 'consort') === 'consort'

  return (
    <Screen title='榜单' sub='群芳争艳，名次在此' seal='金榜'>
      <View className='chip-row board-pick'>
        {families.map((g) => (
          <View key={g.key} className={`chip ${g.key === game ? 'chip-on' : ''}`} onClick={() => setGame(g.key)}>{g.short}</View>
        ))}
      </View>
      <View className='tabs'>
        {BOARD_KINDS.filter((k) => families.find((f) => f.key === game)?.kinds.includes(k.key) ?? true).map((k) => (
          <View key={k.key} className={`tab ${k.key === kind ? 'tab-on' : ''}`} onClick={() => setKind(k.key)}>{k.title}</View>
        ))}
      </View>

      <Panel title={boardTitle(board)} extra={rows ? (rows.length >= BOARD_PAGE ? `前 ${rows.length} 名` : `${rows.length} 人上榜`) : undefined}>
        <View className='my-rank'>
          <Text className='muted'>我的名次</Text>
          <Text className='my-rank-value'>
            {mine.data?.board === board && mine.data.rank ? `第 ${mine.data.rank} 名` : '尚未上榜'}
          </Text>
          {mine.data?.board === board && mine.data.record ? <Text className='board-title'>{mine.data.record.title}</Text> : null}
        </View>
        <ErrorLine error={top.error ?? mine.error} />
        {!rows && !top.error ? <View className='loading'>誊写榜文…</View> : null}
        {rows?.map((r) => <BoardRow key={`${r.rank}-${r.subject ?? r.name}`} row={r} fights={fights} />)}
        {rows && !rows.length ? <View className='empty'>榜上尚无名姓</View> : null}
      </Panel>

      {clears ? (
        <Panel title='闯关最速' extra='宫斗杀 · 回合最少'>
          <View className='tabs tabs-inner'>
            {stages.map((s) => (
              <View key={s} className={`tab ${s === stage ? 'tab-on' : ''}`} onClick={() => setStage(s)}>{STAGE_NAME[s] ?? `关卡${s}`}</View>
            ))}
          </View>
          <ErrorLine error={fastest.error} />
          {clearRows?.map((r) => (
            <View key={r.room} className='board-row clear-row'>
              <RankMark rank={r.rank} />
              <View className='grow'>
                <View className='board-name'>
                  {teamMembers(r.team).map((m, i, all) => (
                    <Text key={i} className='clear-member'>{m}{i < all.length - 1 ? '、' : ''}</Text>
                  ))}
                </View>
                <View className='muted'>{shortDate(r.ended_ms)}</View>
              </View>
              <View className='board-score'>
                <Text className='board-score-num'>{r.rounds}</Text>
                <Text className='board-score-unit'>回合</Text>
              </View>
            </View>
          ))}
          {clearRows && !clearRows.length ? <View className='empty'>此关尚无人通关</View> : null}
        </Panel>
      ) : null}
    </Screen>
  )
}
