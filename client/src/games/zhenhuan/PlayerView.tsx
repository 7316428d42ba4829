import { useEffect, useState, type ReactNode } from 'react'
import { Text, View } from '@tarojs/components'
import { api } from '../../api'
import { ErrorLine } from '../../components/ErrorLine'
import { Panel } from '../../components/Panel'
import { SealButton } from '../../components/SealButton'
import { useData } from '../../hooks/useData'
import type { Seen } from '../../hooks/usePoll'
import { useCountdown } from '../baohuang/useCountdown'
import { DaySummary, VoteHands } from './DaySummary'
import { ALIGNMENT_NAME, ghostVoteText, handIntent, phaseTitle, seatNo, voteClockText, type LogLine, type PublicDay, type PublicSeat, type RoomView } from './model'
import { Token } from './Grimoire'
import { Circle, Reason, useCheck } from './parts'
import { useWithdrawn } from './useWithdrawn'
import { useZhActions } from './useZhActions'

const PUBLIC_KINDS = new Set(['phase', 'announce', 'nomination', 'vote_open', 'vote', 'execution', 'death', 'arrival', 'departure', 'game_over'])

/** When a line of 「我得知的」 came: the night (or day) it was told in; a new role card as 身份. */
function toldWhen(l: { kind: string; night?: number | null; day?: number | null }): string {
  if (l.kind === 'you_are') return '身份'
  if (l.night) return `第${l.night}夜`
  if (l.kind === 'tell' && l.day) return `第${l.day}天`
  return '告知'
}

/** A seat on the square; `tag`: what the day has made of her (处决台, on trial in the open vote),
 * there to see at a glance, not two screens down in 今日提名. */
function PublicToken({ seat, me, chosen, tag }: { seat: PublicSeat; me: boolean; chosen: boolean; tag?: string }) {
  return (
    <View className={`zh-token zh-public ${seat.alive ? '' : 'zh-dead'} ${me ? 'zh-me' : ''} ${chosen ? 'zh-chosen' : ''} ${seat.departed ? 'zh-departed' : ''}`}>
      <View className='zh-token-disc'>
        {tag ? <Text className='zh-tag'>{tag}</Text> : null}
        <Text className='zh-token-role'>{seatNo(seat.seat)}</Text>
        {!seat.alive ? <Text className='zh-shroud'>亡</Text> : null}
        {!seat.alive && seat.ghost_vote ? <Text className='zh-ghost'>票</Text> : null}
      </View>
      <Text className='zh-token-name'>{seat.name}{me ? '（我）' : ''}</Text>
      {seat.traveller ? <Text className='zh-traveller'>{seat.traveller}</Text> : null}
    </View>
  )
}

/** The day's mark on a seat of the square: on trial while her vote is open, else on the block. */
function squareTag(day: PublicDay | null | undefined, seat: number): string | undefined {
  if (!day) return undefined
  if (day.vote?.nominee === seat) return '受审'
  if (day.block === seat && (day.executed === null || day.executed === undefined)) return '处决台'
  return undefined
}

/** 「看身份」: her role for a few seconds, then hidden again (a lit screen is seen around the table). By
 * day what she was told folds with it (`children`): the demon's minions and bluffs, a night's answer,
 * a converted player's new role are as secret as the card, and the phone lies among the others. */
function RolePeek({ name, alignment, ability, label = '看身份', seconds = 6, children }: {
  name: string; alignment?: string | null; ability?: string | null; label?: string; seconds?: number; children?: ReactNode
}) {
  const [open, setOpen] = useState(false)
  useEffect(() => {
    if (!open) return
    const t = setTimeout(() => setOpen(false), seconds * 1000)
    return () => clearTimeout(t)
  }, [open, seconds])
  return open ? (
    <View className='zh-peek' onClick={() => setOpen(false)}>
      <View className={`zh-role-card ${alignment === 'evil' ? 'zh-role-evil' : ''}`}>
        <Text className='zh-rc-label'>你的身份</Text>
        <Text className='zh-rc-name'>{name}</Text>
        {alignment ? <Text className='zh-rc-align'>{ALIGNMENT_NAME[alignment]}</Text> : null}
        {ability ? <Text className='zh-rc-ability'>{ability}</Text> : null}
        <Text className='zh-peek-hint'>轻触收起</Text>
      </View>
      {children}
    </View>
  ) : (
    <View className='zh-peek-button' role='button' onClick={() => setOpen(true)}>{label}</View>
  )
}

/** 「我得知的」: what the storyteller told her, each line dated; what was taken back stands apart. */
function Told({ lines, withdrawn }: { lines: readonly { kind: string; text: string; night?: number | null; day?: number | null }[]; withdrawn: readonly string[] }) {
  return (
    <Panel title='我得知的' className='zh-told'>
      {lines.map((l, i) => (
        <View key={i} className='zh-told-line'><Text className='zh-told-when'>{toldWhen(l)}</Text>{l.text}</View>
      ))}
      {!lines.length && !withdrawn.length ? <View className='muted'>说书人尚未告诉你什么</View> : null}
      {/* what was taken back stands apart, so a line told again is not read as the one withdrawn */}
      {withdrawn.length ? <Text className='zh-subhead'>已撤回（不再作数）</Text> : null}
      {withdrawn.map((w, i) => <View key={`w${i}`} className='zh-told-line zh-withdrawn'>{w}</View>)}
    </Panel>
  )
}

/** Her own verdict at the end, as the written result has it (her side when the game ended: a player
 * whose alignment changed wins or loses with the side she ended on). */
function MyVerdict({ roomId, seat }: { roomId: string; seat: number }) {
  const result = useData(() => api.GET('/v1/games/zhenhuan/rooms/{room_id}/result', { params: { path: { room_id: roomId } } }), [roomId])
  const mine = result.data?.results[0]?.results.find((r) => r.seat === seat)
  if (!mine) return null
  return <Text className={`zh-end-mine ${mine.won ? 'zh-end-won' : ''}`}>{mine.won ? '你所在的阵营获胜' : '你所在的阵营落败'}</Text>
}

/** A player's phone (or a spectator's): my role and what I was told, the public town square, nominate and vote. */
export function PlayerView({ view, refresh }: { view: RoomView; refresh: (seen?: Seen) => void }) {
  const game = view.game!
  const room = view.room
  const me = game.me
  const mySeat = me ? game.seats[me.seat] : undefined
  const { send, check, busy, error } = useZhActions(room.id, null, refresh)
  const remaining = useCountdown(view.pending?.deadline_ms, view.server_time)
  // 「说书人撤回了…」: read after each new view, a spectator's as a player's
  const withdrawn = useWithdrawn(room.id, view.server_time)
  const [nominee, setNominee] = useState<number | null>(null)
  const name = (s: number) => game.seats[s]?.name ?? ''
  const day = game.day
  const vote = day?.vote
  const nominate = me && game.phase === 'day' && nominee !== null ? { type: 'nominate' as const, nominator: me.seat, nominee } : null
  const nominateCheck = useCheck(nominate, check, `${game.number}-${day?.nominations.length ?? 0}`)
  // may she nominate at all now? The server's word, asked with any seat she could name: the square's
  // hint 「点座位来提名」 only when she may, else why not (已经提名过, 今日已处决, 请先完成…的投票)
  const namable = day && me ? game.seats.find((s) => s.seat !== me.seat && !s.departed && !s.traveller
    && !day.nominations.some((n) => n.nominee === s.seat)) : undefined
  const probe = me && mySeat?.alive && game.phase === 'day' && !vote && nominee === null && namable
    ? { type: 'nominate' as const, nominator: me.seat, nominee: namable.seat } : null
  const mayNominate = useCheck(probe, check, `${game.number}-${day?.nominations.map((n) => n.count).join() ?? ''}-${day?.executed ?? ''}`)
  const canVote = !!(me && vote && vote.waiting.includes(me.seat))
  const myHand = me && vote ? vote.hands.find((h) => h.seat === me.seat) : undefined

  if (game.phase === 'night') {
    // the same screen whether or not I wake: nothing on it changes during the night; like the token
    // in front of her at a real table, her role is there to peek at (every seat has the same button)
    return (
      <View className='zh zh-night-screen' data-phase='night'>
        <View className='zh-moon' />
        <Text className='zh-night-title'>{phaseTitle(game)}</Text>
        <Text className='zh-night-line'>天黑请闭眼</Text>
        <Text className='zh-night-sub'>说书人会轻拍唤醒需要行动的人。醒来时用手势回应，看完请闭眼。天亮后点「看身份 · 我得知的」看说书人告诉你的消息。</Text>
        {me?.role ? <RolePeek name={me.role_name ?? ''} alignment={me.alignment} ability={me.ability} /> : null}
      </View>
    )
  }

  const told = me?.info ?? []
  const publicLog = (game.log as LogLine[]).filter((l) => PUBLIC_KINDS.has(l.kind)).slice(-8).reverse()
  return (
    <View className={`zh zh-player ${day && me && !vote && nominee !== null ? 'zh-with-dock' : ''}`}>
      <View className='zh-bar'>
        <Text className='zh-phase' data-phase={game.phase}>{phaseTitle(game)}</Text>
        {view.viewer.role === 'spectator' ? <Text className='muted'>观战</Text> : null}
      </View>
      <ErrorLine error={error} />
      <ErrorLine error={withdrawn.error} />

      {/* a vote runs on a short clock: it comes first, above everything she already knows — her buttons,
          then (once her hand is in) the hands round the circle and the clock, until it is counted */}
      {vote && (canVote || myHand) ? (
        <Panel title='投票' className='zh-voting'>
          <View className='zh-vote-head'>
            <Text className='zh-vote-title'>是否处决 {seatNo(vote.nominee)} {name(vote.nominee)}？</Text>
            {remaining !== null ? <Text className='zh-clock'>{voteClockText(remaining)}</Text> : null}
          </View>
          {canVote && mySeat && !mySeat.alive ? <View className='muted'>你已死亡：举手会用掉你唯一的幽灵票</View> : null}
          {canVote ? (
            <View className='zh-buttons'>
              <SealButton kind='ghost' busy={busy === 'no'} onClick={() => void send({ type: 'vote', yes: false }, 'no', handIntent(day, false))}>不举手</SealButton>
              <SealButton busy={busy === 'yes'} onClick={() => void send({ type: 'vote', yes: true }, 'yes', handIntent(day, true))}>举手</SealButton>
            </View>
          ) : null}
          {myHand ? <View className='zh-my-hand'>你已{myHand.yes ? '举手' : '不举手'}</View> : null}
          <VoteHands vote={vote} count={game.seats.length} />
        </Panel>
      ) : null}

      {game.phase === 'over' && game.winner ? (
        <View className='zh-end' role='status'>
          <Text className='zh-end-title'>{ALIGNMENT_NAME[game.winner]}胜</Text>
          {game.end_reason ? <Text className='zh-end-reason'>{game.end_reason}</Text> : null}
          {me ? <MyVerdict roomId={room.id} seat={me.seat} /> : null}
        </View>
      ) : null}

      {game.phase === 'over' && game.grimoire ? (
        <Panel title='魔典揭晓' className='zh-reveal'>
          <Circle count={game.grimoire.seats.length}
            render={(s) => <Token seat={game.grimoire!.seats[s]} origin shortRole={(game.grimoire!.seats[s].traveller_identity ?? game.grimoire!.seats[s].role_name).slice(0, 4)} />} />
        </Panel>
      ) : null}

      {/* by day the phone lies on the table among the others: her role and what she was told are a tap
          away, as at night, and fold themselves again (the same slip on every phone, told or not); once
          the game is over they are shown, as every role is */}
      {me?.role && game.phase !== 'over' ? (
        <View className='zh-day-peek' data-role={me.role}>
          <RolePeek name={me.role_name ?? ''} alignment={me.alignment} ability={me.ability} label='看身份 · 我得知的' seconds={20}>
            <Told lines={told.slice(1)} withdrawn={withdrawn.mine} />
          </RolePeek>
        </View>
      ) : null}
      {me && (!me.role || game.phase === 'over') ? (
        <View className={`zh-role-card ${me.alignment === 'evil' ? 'zh-role-evil' : ''}`} data-role={me.role ?? ''}>
          {me.role ? (
            <>
              <Text className='zh-rc-label'>你的身份</Text>
              <Text className='zh-rc-name'>{me.role_name}</Text>
              {me.alignment ? <Text className='zh-rc-align'>{ALIGNMENT_NAME[me.alignment]}</Text> : null}
              {me.ability ? <Text className='zh-rc-ability'>{me.ability}</Text> : null}
            </>
          ) : (
            <Text className='zh-rc-wait'>等待说书人分发身份</Text>
          )}
        </View>
      ) : null}
      {me && game.phase === 'over' && (told.length > 1 || withdrawn.mine.length) ? <Told lines={told.slice(1)} withdrawn={withdrawn.mine} /> : null}

      {/* a traveller who left is out of the game (not dead: she used no vote) */}
      {mySeat?.departed && game.phase !== 'over' ? (
        <View className='zh-ghost-note' role='note'>
          <Text className='zh-ghost-title'>你已离开本局</Text>
          <Text>旅行者离场后不再提名、不再投票，可以留在这里观看。</Text>
        </View>
      ) : null}
      {/* dead is not out: she still talks, counts for her side, and keeps one vote */}
      {mySeat && !mySeat.alive && !mySeat.departed && game.phase !== 'over' ? (
        <View className='zh-ghost-note' role='note'>
          <Text className='zh-ghost-title'>你已香消玉殒，但仍在局中</Text>
          <Text>仍可说话，阵营的输赢仍算你一份；不能再提名。</Text>
          <Text className='zh-ghost-vote'>{ghostVoteText(mySeat.ghost_vote, myHand)}</Text>
        </View>
      ) : null}

      <Panel title='宫苑' extra={`${game.seats.filter((s) => s.alive && !s.departed).length}/${game.seats.length} 存活`} className='zh-square'>
        <Circle
          count={game.seats.length}
          onTap={(s) => setNominee(nominee === s ? null : s)}
          render={(s) => <PublicToken seat={game.seats[s]} me={me?.seat === s} chosen={nominee === s} tag={squareTag(day, s)} />}
          center={(
            <View className='zh-center'>
              <Text className='zh-center-phase'>{phaseTitle(game)}</Text>
              {vote ? <Text className='zh-center-step'>投票中</Text> : null}
            </View>
          )}
        />
      </Panel>


      {day ? (
        <Panel title='今日提名' className='zh-day-panel'>
          <DaySummary day={day} name={name} count={game.seats.length} remaining={remaining} hideVote={!!(vote && (canVote || myHand))} />
          {probe && mayNominate ? (
            mayNominate.legal ? <View className='muted zh-nominate-hint'>点广场上的座位来提名</View>
              : <View className='muted zh-nominate-hint'>暂不能提名：{mayNominate.message}</View>
          ) : null}
        </Panel>
      ) : null}

      {/* the chosen nominee and the button stay in reach at the bottom, wherever the page is scrolled */}
      {day && me && !vote && nominee !== null ? (
        <View className='dock zh-dock'>
          <View className='zh-nominate'>
            <Text className='zh-dock-text'>{`提名 ${seatNo(nominee)} ${name(nominee)}`}</Text>
            {nominateCheck && !nominateCheck.legal ? <Reason text={nominateCheck.message} /> : null}
            <View className='zh-buttons'>
              <SealButton size='small' kind='ghost' onClick={() => setNominee(null)}>取消</SealButton>
              <SealButton size='small' disabled={!!nominateCheck && !nominateCheck.legal} busy={busy === 'nominate'}
                onClick={() => { if (nominate) void send(nominate, 'nominate').then((ok) => ok && setNominee(null)) }}>提名</SealButton>
            </View>
          </View>
        </View>
      ) : null}

      {publicLog.length || withdrawn.told.length ? (
        <Panel title='宫中传闻' className='zh-log'>
          {withdrawn.told.slice(-3).reverse().map((w, i) => <View key={`w${i}`} className='zh-log-line zh-withdrawn'>{w}</View>)}
          {publicLog.map((l, i) => <View key={`${game.log.length}-${i}`} className='zh-log-line'>{l.text}</View>)}
        </Panel>
      ) : null}
    </View>
  )
}
