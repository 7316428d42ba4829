import { useEffect, useMemo, useRef, useState } from 'react'
import { Text, View } from '@tarojs/components'
import { api } from '../../api'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { AgainButton } from '../../components/room/AgainButton'
import { Handover } from '../../components/room/Handover'
import { scrollToTop } from '../../lib/scroll'
import { SealButton } from '../../components/SealButton'
import { Sheet } from '../../components/Sheet'
import { useData } from '../../hooks/useData'
import type { Seen } from '../../hooks/usePoll'
import { copiesOf, faceLabel, isRed, keepInHand, keptCall, nextHint, sameCards, toggleCard } from './cards'
import { autoNextText, clockText } from './clock'
import { Hand, MarksContext, SuitText } from './Hand'
import { ReplaySheet, ScoreTable } from './Results'
import { MySeat, Table } from './Table'
import { EXIT_SHEET, exitText, hintLine, lastDealLine, logLine, myDecision, outLine, overText, partnersBesides, PHASE_NAME, ROLE_NAME, tableLead, takeLabel, waitingText, type ExitKind, type RoomView } from './table'
import { useActions, type BaohuangAction, type CheckOut } from './useActions'
import { useCountdown } from './useCountdown'

interface Props {
  view: RoomView
  refresh: (seen?: Seen) => void
}

/** The 保皇 table for a seated player or a spectator: seats, trick, my hand and what I may do now. */
export function BaohuangGame({ view, refresh }: Props) {
  const game = view.game
  const room = view.room
  const roomId = room.id
  const { send, check, busy, error, setError } = useActions(roomId, room.step, refresh)
  const remaining = useCountdown(view.pending?.deadline_ms, view.server_time)
  // whom the step still waits for: a seat that sealed its declaration is not (its clock stops)
  const waiting = useMemo(() => {
    const done = new Set(view.pending?.submitted ?? [])
    return (view.pending?.seats ?? []).filter((s) => !done.has(s))
  }, [view.pending])
  const bots = useMemo(() => new Set(room.seats.filter((s) => s.bot).map((s) => s.seat)), [room.seats])

  const [selected, setSelected] = useState<string[]>([])
  const [hintAt, setHintAt] = useState(-1)
  const [verdict, setVerdict] = useState<CheckOut & { cards: string[] }>()
  const [passVerdict, setPassVerdict] = useState<CheckOut>()
  const [chosenCall, setCall] = useState<string>()
  // a call is chosen for this deal from what this view offers: last deal's choice does not carry over
  const call = keptCall(chosenCall, game?.callable)
  const [exiting, setExiting] = useState<ExitKind>()
  const [replaying, setReplaying] = useState(false)

  const hand = game?.hand ?? []
  const me = game?.seat ?? null
  const myTurn = game?.phase === 'play' && me !== null && game.turn === me
  const mySeat = me !== null ? game?.seats[me] : undefined
  const step = room.step

  // after a play or a new deal, drop cards no longer in hand; a new turn starts the hints over
  useEffect(() => {
    setSelected((s) => keepInHand(s, hand))
  }, [hand.join(',')])
  useEffect(() => {
    setHintAt(-1)
    setPassVerdict(undefined)
  }, [step])
  useEffect(() => {
    setCall(undefined)
  }, [game?.deal_no])

  // the server's word on the selection, before sending it
  const checkSeq = useRef(0)
  useEffect(() => {
    setVerdict(undefined)
    if (!myTurn || selected.length === 0) return undefined
    const seq = ++checkSeq.current
    const cards = [...selected]
    const timer = setTimeout(() => {
      check({ type: 'play', cards })
        .then((v) => { if (seq === checkSeq.current) setVerdict({ ...v, cards }) })
        .catch(() => undefined)
    }, 150)
    return () => clearTimeout(timer)
  }, [selected.join(','), myTurn, step])

  // may I say 不出 now? (the leader must lead: the server says so)
  useEffect(() => {
    if (!myTurn) return
    check({ type: 'pass' }).then(setPassVerdict).catch(() => undefined)
  }, [myTurn, step])

  // results of finished deals (score table, replay), fetched when a new one is written
  const results = useData(
    async () => (room.results.length ? api.GET('/v1/games/baohuang/rooms/{room_id}/result', { params: { path: { room_id: roomId } } }) : null),
    [roomId, room.results.length],
  )
  const outcomes = results.data?.results ?? []
  const lastOutcome = outcomes[outcomes.length - 1]
  // a deal (or the table) just ended: the score sheet is below the table, out of sight on a phone —
  // bring it up once it is there (the result is fetched after the view that ended the deal)
  const phase = game?.phase
  useEffect(() => {
    if ((phase === 'between' || phase === 'over') && lastOutcome) scrollToTop('.bh-scores')
  }, [phase, lastOutcome?.unit])

  // the throne offered to her, or her declaration due: its panel comes up with her hand in sight below it
  const deciding = game ? myDecision(game, view.pending) : null
  useEffect(() => {
    if (deciding) scrollToTop('.bh-decide')
  }, [deciding, game?.deal_no, game?.candidate])

  if (!game) return <View className='loading'>发牌中…</View>

  const names = game.seats.map((s) => s.name)
  const yieldName = game.yield_to !== null && game.yield_to !== undefined ? names[game.yield_to] : undefined
  const candidateMe = game.phase === 'throne' && me !== null && game.candidate === me
  const illegal = verdict && sameCards(verdict.cards, selected) && !verdict.legal ? verdict.message : null

  const tap = (code: string) => {
    if (game.phase !== 'play') return
    setSelected((s) => toggleCard(s, code, hand))
  }
  const hint = () => {
    const hints = game.hints ?? []
    const i = nextHint(hints, hintAt)
    if (i < 0) {
      setError('没有压得过的牌，只能不出')
      return
    }
    setHintAt(i)
    setSelected([...hints[i]])
  }
  const play = async () => {
    if (await send({ type: 'play', cards: selected }, 'play')) setSelected([])
  }
  const act = (action: BaohuangAction, key?: string) => void send(action, key)

  // The variant is in the room's title above; the bar says what changes during play.
  const header = [
    game.deal_no ? `第${game.deal_no}局` : '',
    game.called ? `叫${faceLabel(game.called)}` : '',
    game.baoliu ? '保六' : '',
  ].filter(Boolean)

  return (
    <MarksContext.Provider value={{ variant: game.variant, called: game.called ?? null }}>
      <View className='bh'>
        <View className='bh-bar'>
          <View className='bh-bar-tags'>
            {header.map((h) => <Text key={h} className={`bh-tag ${h === '保六' ? 'bh-tag-six' : ''}`}><SuitText text={h} /></Text>)}
            <Text className='bh-tag bh-tag-phase'>{PHASE_NAME[game.phase] ?? game.phase}</Text>
          </View>
          <Text className='bh-waiting'>{waitingText(game, waiting)}</Text>
        </View>

        {me === null ? <View className='note-jade bh-watch'>观战中 · 只见明牌、牌数与公开牌谱</View> : null}
        {game.phase !== 'over' ? <Handover room={room} onChanged={() => refresh()} /> : null}
        {/* a player back from the lobby (托管 played on and readied her) missed the score screen: the
            last deal's verdict stays in a line over the table, its replay a tap away */}
        {lastOutcome && game.phase !== 'between' && game.phase !== 'over' ? (
          <View className='bh-last-deal' onClick={() => setReplaying(true)}>{lastDealLine(lastOutcome, me)}</View>
        ) : null}
        <Table game={game} waiting={waiting} remaining={remaining} bots={bots} />

        {game.phase === 'throne' ? (
          <Panel title='皇位' extra={game.throne_offers ? `已让位 ${game.throne_offers} 次` : undefined} className={`bh-panel ${deciding === 'throne' ? 'bh-decide' : ''}`}>
            {candidateMe ? (
              <View className='bh-throne'>
                <View className='bh-note'>
                  皇位在你。{game.must_take ? '传完一轮，须自己登基。' : `牌力不够可以让给上家${yieldName ? `「${yieldName}」` : ''}。`}
                </View>
                {game.variant === 'classic' && (game.callable ?? []).length ? (
                  <View className='bh-calls'>
                    <Text className='muted'>叫牌（持第四张者为侍卫；叫四张为暗独保）：</Text>
                    <View className='chip-row'>
                      {(game.callable ?? []).map((f) => (
                        <View key={f} className={`chip ${call === f ? 'chip-on' : ''}`} data-face={f} onClick={() => setCall(f)}>
                          {/* the suit in its colour, as on the cards */}
                          <Text className={isRed(`${f}#1`) ? 'card-red' : ''}>{faceLabel(f)}</Text>{copiesOf(hand, f) >= 4 ? ' · 暗独保' : ''}
                        </View>
                      ))}
                    </View>
                  </View>
                ) : null}
                {game.no_call ? <View className='muted bh-nocall'>{game.no_call}</View> : null}
                <View className='bh-buttons'>
                  <SealButton kind='gold' busy={busy === 'take'} disabled={game.variant === 'classic' && !call}
                    onClick={() => act(game.variant === 'classic' ? { type: 'take_throne', call } : { type: 'take_throne' }, 'take')}>
                    {takeLabel(game.variant, call, (game.callable ?? []).length)}
                  </SealButton>
                  {game.can_open_solo ? (
                    <SealButton busy={busy === 'solo'} onClick={() => act({ type: 'take_throne', open_solo: true }, 'solo')}>明独保</SealButton>
                  ) : null}
                  <SealButton kind='ghost' busy={busy === 'yield'} disabled={!!game.must_take} onClick={() => act({ type: 'pass_throne' }, 'yield')}>
                    {yieldName && !game.must_take ? `让位给${yieldName}` : '让位'}
                  </SealButton>
                </View>
                {game.open_solo_stakes ? <View className='bh-stakes muted'>{game.open_solo_stakes}</View> : null}
              </View>
            ) : (
              <View className='bh-note'>{waitingText(game, waiting)}{remaining !== null ? ` · ${clockText(remaining)}` : ''}</View>
            )}
          </Panel>
        ) : null}

        {game.phase === 'declare' ? (
          <DeclarePanel view={view} busy={busy} remaining={remaining} onAct={act} deciding={deciding === 'declare'} />
        ) : null}

        {me !== null && mySeat ? (
          <View className='bh-mine'>
            <MySeat game={game} waiting={waiting} remaining={remaining} bots={bots} />
            {game.my_role ? (
              <View className='bh-role' data-role={game.my_role}>
                你是{ROLE_NAME[game.my_role]}
                {game.my_role !== 'emperor' && game.emperor !== null && game.emperor !== undefined ? `，皇帝是${names[game.emperor]}` : ''}
                {/* her partners besides the emperor named just before (a guard's one partner is the emperor) */}
                {partnersBesides(game).length ? `；同伴：${partnersBesides(game).map((p) => names[p]).join('、')}` : ''}
              </View>
            ) : null}
            {mySeat.auto && game.phase !== 'between' && game.phase !== 'over' ? (
              <View className='bh-auto'>
                <Text>{outLine(mySeat) || '已托管，系统代你出牌'}</Text>
                <SealButton kind='jade' size='small' busy={busy === 'resume'} onClick={() => act({ type: 'resume' }, 'resume')}>取消托管</SealButton>
              </View>
            ) : null}
            {game.phase !== 'between' && game.phase !== 'over' && !(mySeat.place && !mySeat.auto) ? (
              <Hand cards={hand} selected={selected} onTap={tap} baoliu={game.baoliu} />
            ) : null}
            {/* out of this deal (and not in 托管, whose bar says it): no empty hand, a word instead */}
            {game.phase === 'play' && mySeat.place && !mySeat.auto ? <View className='bh-note bh-out-line'>{outLine(mySeat)}</View> : null}
            {game.baoliu && game.phase === 'play' ? <View className='muted bh-six-note'>保六：六须留到最后一手，一次出完</View> : null}
            {myTurn ? (
              <View className='bh-play'>
                {illegal ? <View className='bh-illegal' role='alert'>{illegal}</View> : null}
                <View className='bh-buttons'>
                  <SealButton kind='ghost' busy={busy === 'pass'} disabled={passVerdict ? !passVerdict.legal : !game.can_pass}
                    onClick={() => act({ type: 'pass' }, 'pass')}>不出</SealButton>
                  <SealButton kind='gold' onClick={hint}>提示</SealButton>
                  <SealButton busy={busy === 'play'} disabled={selected.length === 0 || !!illegal} onClick={() => void play()}>出牌</SealButton>
                </View>
                {passVerdict && !passVerdict.legal ? <View className='muted bh-reason'>{passVerdict.message}</View> : null}
                {game.hints_total ? <View className='muted bh-reason bh-hint-line'>{hintLine(game.hints_total, (game.hints ?? []).length, hintAt)}</View> : null}
              </View>
            ) : null}
          </View>
        ) : null}

        <ErrorLine error={error} />

        {(game.phase === 'between' || game.phase === 'over') ? (
          <Panel title={game.phase === 'over' ? '终局' : '本局结算'} className='bh-panel'>
            {game.phase === 'over' ? <View className='bh-note bh-over'>{overText(game.over_reason)}</View> : null}
            {/* the table waits, with no clock, for the last person playing whom the clock put in 托管 (rules §15) */}
            {game.phase === 'between' && game.held_note ? <View className='bh-note bh-held' role='status'>{game.held_note}</View> : null}
            {game.phase === 'over' && game.deal_no > 1 ? <View className='bh-note bh-table-lead'>{tableLead(game)}</View> : null}
            {lastOutcome ? <ScoreTable outcome={lastOutcome} /> : <View className='muted'>结算中…</View>}
            <View className={`bh-buttons ${game.phase === 'over' ? 'again-row' : ''}`}>
              {outcomes.length ? <SealButton kind='ghost' onClick={() => setReplaying(true)}>复盘</SealButton> : null}
              {/* the table has ended (强退, 离桌, all in 托管): the same five sit down again in one tap each */}
              {game.phase === 'over' ? <AgainButton room={room} mine={me !== null} hosting={false} label='再开一桌' kind='gold' /> : null}
              {game.phase === 'between' && me !== null && !mySeat?.ready ? (
                <SealButton kind='gold' busy={busy === 'next'} onClick={() => act({ type: 'next_deal' }, 'next')}>继续</SealButton>
              ) : null}
              {game.phase === 'between' && me !== null && mySeat?.ready ? <Text className='muted'>已准备，等待其他人</Text> : null}
            </View>
            {game.phase === 'between' && remaining !== null ? <View className='bh-note bh-auto-next'>{autoNextText(remaining)}</View> : null}
          </Panel>
        ) : null}

        {(game.log ?? []).length && game.phase !== 'between' && game.phase !== 'over' ? (
          <Panel title='牌谱' className='bh-panel bh-log'>
            {(game.log ?? []).slice(-5).map((e, i, arr) => (
              <View key={`${arr.length}-${i}`} className='bh-log-line'><SuitText text={logLine(e, names)} /></View>
            ))}
          </Panel>
        ) : null}

        {me !== null && game.phase !== 'over' ? (
          <View className='bh-foot'>
            {game.phase !== 'between' && mySeat && !mySeat.auto ? (
              <SealButton kind='ghost' size='small' busy={busy === 'auto'}
                onClick={() => (game.last_player ? setExiting('auto') : act({ type: 'auto' }, 'auto'))}>托管</SealButton>
            ) : null}
            {game.phase === 'between' ? (
              <SealButton kind='ghost' size='small' busy={busy === 'leave'} onClick={() => setExiting('leave')}>离桌</SealButton>
            ) : (
              <SealButton kind='ghost' size='small' busy={busy === 'quit'} onClick={() => setExiting('quit')}>退出</SealButton>
            )}
          </View>
        ) : null}

        {exiting ? (
          <Sheet title={EXIT_SHEET[exiting].title} open onClose={() => setExiting(undefined)}
            footer={(
              <>
                <SealButton kind='ghost' onClick={() => setExiting(undefined)}>再想想</SealButton>
                <SealButton busy={busy === exiting} onClick={() => { setExiting(undefined); act({ type: exiting }, exiting) }}>{EXIT_SHEET[exiting].ok}</SealButton>
              </>
            )}>
            <View className='bh-warning' role='alert'>{exitText(exiting, room.practice)}</View>
          </Sheet>
        ) : null}
        {replaying && outcomes.length ? <ReplaySheet outcomes={outcomes} open onClose={() => setReplaying(false)} /> : null}
      </View>
    </MarksContext.Provider>
  )
}

function DeclarePanel({ view, busy, remaining, onAct, deciding }: {
  view: RoomView; busy?: string; remaining: number | null; onAct: (a: BaohuangAction, key?: string) => void; deciding: boolean
}) {
  const game = view.game!
  const me = game.seat
  const pending = view.pending
  const submitted = pending?.submitted ?? []
  const mine = pending?.my_move?.type
  const emperorName = game.emperor !== null && game.emperor !== undefined ? game.seats[game.emperor]?.name : ''
  const MOVE_NAME: Record<string, string> = {
    stay_hidden: '不声明', declare: game.my_role === 'guard' ? '明保' : '造反', grab_solo: '抢独',
  }
  const meAuto = me !== null && me !== undefined && game.seats[me]?.auto
  return (
    <Panel title='声明' extra={`已声明 ${submitted.length} 家`} className={`bh-panel ${deciding ? 'bh-decide' : ''}`}>
      <View className='bh-note'>
        {emperorName}登基{game.called ? <SuitText text={`，叫${faceLabel(game.called)}`} /> : ''}。众人同时暗中声明，揭晓前谁也看不到别人的选择。
        {remaining !== null ? ` 余 ${clockText(remaining)}` : ''}
      </View>
      {me === null || me === undefined ? null : game.emperor === me ? (
        <View className='muted'>你是皇帝，不必声明，等待众人。</View>
      ) : meAuto ? (
        <View className='muted'>托管中：按不声明处理。</View>
      ) : mine ? (
        <View className='bh-sealed'>你已声明：{MOVE_NAME[mine] ?? mine}</View>
      ) : (
        <View className='bh-buttons'>
          <SealButton kind='ghost' busy={busy === 'stay'} onClick={() => onAct({ type: 'stay_hidden' }, 'stay')}>不声明</SealButton>
          <SealButton busy={busy === 'declare'} onClick={() => onAct({ type: 'declare' }, 'declare')}>{game.my_role === 'guard' ? '明保' : '造反'}</SealButton>
          {game.can_grab ? <SealButton kind='gold' busy={busy === 'grab'} onClick={() => onAct({ type: 'grab_solo' }, 'grab')}>抢独</SealButton> : null}
        </View>
      )}
      {me !== null && me !== undefined && game.emperor !== me && !mine ? (
        <View className='muted bh-reason'>{game.my_role === 'guard' ? '明保：亮明侍卫身份，输赢加倍。' : '造反：亮出锄头，两人以上造反则侍卫被迫亮明；造反成功分数加倍。'}</View>
      ) : null}
    </Panel>
  )
}
