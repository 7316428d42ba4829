import { useEffect, useMemo, useRef, useState } from 'react'
import { LobbyButton } from '../../components/room/LobbyButton'
import { GuideButton } from '../../components/guide/GuideButton'
import { Handover } from '../../components/room/Handover'
import { scrollToTop } from '../../lib/scroll'
import { Text, View } from '@tarojs/components'
import { api, ApiError } from '../../api'
import { notDelivered } from '../../api/errors'
import { isTransient } from '../../api/poll'
import { ErrorLine } from '../../components/ErrorLine'
import { SealButton } from '../../components/SealButton'
import { goBoards } from '../../lib/nav'
import { ActionSeals, MyPanel } from './Actions'
import {
  actionBody, buttons, chooseAction, choosePlace, chooseTarget, composeOf, describeMove, EMPTY, fitCards, hasCards, keepHeld, optionOf,
  pickOf, readiness, shutReason, toggleCard, toggleDiscard, type ButtonState, type Compose,
} from './compose'
import { HandPanel } from './HandPanel'
import { gameTabs, type Tab } from './labels'
import { hurryOffered } from './hurry'
import { HurrySheet } from './HurrySheet'
import { PalaceMap } from './PalaceMap'
import { ReportScroll } from './ReportScroll'
import { scoreLines } from './reports'
import { ResultPanel } from './ResultPanel'
import { RoundRecap } from './RoundRecap'
import { Bosses, Roster } from './Rivals'
import { StatusStrip } from './StatusStrip'
import type { Seen } from '../../hooks/usePoll'
import type { Card, Game as GameView, Place, Report, RoomView } from './types'

/** A call that may be repeated safely, tried again twice after a lost answer (network, 429, 5xx). */
async function patiently<T>(call: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await call()
    } catch (e) {
      if (attempt >= 2 || !isTransient(e)) throw e
      await new Promise((resolve) => setTimeout(resolve, 600 * 2 ** attempt + Math.random() * 400))
    }
  }
}

interface Props {
  view: RoomView
  refresh: (seen?: Seen) => void
  /** Fetch the view now (she tapped who has sealed). Only while the page polls without the room's
   * notices: with them, each sealed move is marked as it happens (hooks/usePoll, `withSealed`). */
  look?: () => void
  /** The 战报 so far (the page reads them with its view: hooks/useReports). */
  reports: Report[]
  reportError: unknown
  /** Where those reports end: a move asks its answer's view for the reports after it. */
  reportsAfter: () => number
}

/**
 * A 深宫杀 game in play or over: status strip, then 宫图 (opponents, the map, my bars, the action seals),
 * 手牌 (C/D), 战报 and 结果; the seal dock at the bottom composes and sends my move for the round.
 */
export function ShengongGame({ view, refresh, look, reports, reportError, reportsAfter }: Props) {
  const game = view.game as GameView
  const room = view.room
  const mine = game.you ?? null
  const mySeat = view.viewer.role === 'player' ? view.viewer.seat : null
  const me = game.players.find((p) => p.seat === mySeat)
  const over = game.over || room.status !== 'active'
  const pending = view.pending
  const sealedMove = pending?.my_move ?? null
  const waitsForMe = !!pending && mySeat !== null && pending.seats.includes(mySeat)
  const canAct = !over && !!mine && waitsForMe && !sealedMove
  const options = useMemo(() => mine?.options ?? [], [mine])
  const hand = mine?.hand?.hand ?? []
  const bots = useMemo(() => new Set(room.seats.filter((s) => s.bot).map((s) => s.seat)), [room.seats])

  const [tab, setTab] = useState<Tab>(over ? 'result' : 'map')
  const [compose, setCompose] = useState<Compose>(EMPTY)
  const [note, setNote] = useState<string>()
  const [placeInfo, setPlaceInfo] = useState<string>()
  useEffect(() => {
    // the rule in full is written under the map, below the fold (under the 落子 bar): bring it up
    if (placeInfo) scrollToTop('.sg-place-info', 200)
  }, [placeInfo])
  const [error, setError] = useState<unknown>()
  const [refusal, setRefusal] = useState<string>()
  const [busy, setBusy] = useState<string>()
  const [confirmHurry, setConfirmHurry] = useState(false)
  const step = room.step ?? 0

  // a new round: start composing afresh
  const lastStep = useRef(step)
  useEffect(() => {
    if (lastStep.current === step) return
    lastStep.current = step
    setCompose(EMPTY)
    setNote(undefined)
    setRefusal(undefined)
    setError(undefined)
    setConfirmHurry(false) // a 催战 asked for one round must not settle the next
  }, [step])
  useEffect(() => {
    if (over) setTab('result')
  }, [over])
  // she fell while looking at her hand: the tab is gone, back to the map
  const down = !!me && !me.alive
  useEffect(() => {
    if (down) setTab((t) => (t === 'hand' ? 'map' : t))
  }, [down])
  // a voided round leaves her one action (待机, the server says): chosen for her, she only seals it
  const onlyOption = canAct && mine?.voided ? options.filter((o) => o.allowed) : []
  const forced = onlyOption.length === 1 ? onlyOption[0] : undefined
  useEffect(() => {
    if (forced) setCompose((c) => (c.type ? c : fitCards(chooseAction(c, forced, game.mode), hand).compose))
  }, [forced?.type, step])

  const seenReports = useRef(0)
  const newReports = tab === 'report' ? 0 : Math.max(0, reports.filter((r) => r.lines.length).length - seenReports.current)
  useEffect(() => {
    if (tab === 'report') seenReports.current = reports.filter((r) => r.lines.length).length
  }, [tab, reports])

  const option = optionOf(options, compose.type)
  const aimingPlace = canAct && option && pickOf(option.type, game.mode) === 'place' ? option : undefined
  const aimingTarget = canAct && option && pickOf(option.type, game.mode) === 'target' ? option : undefined
  const seals = buttons(options, compose, game.mode, mine)
  const ready = readiness(compose, options, game.mode)
  const canHurry = !over && hurryOffered(room.is_creator || view.viewer.role === 'host', view.viewer.seat, pending)

  const cardName = (id: string) => hand.find((c) => c.copy_id === id)?.skill
  const opponentName = (i: number) => (game.opponents ?? []).find((o) => o.index === i)?.name

  const choose = (b: ButtonState) => {
    if (!canAct) return
    setRefusal(undefined)
    const o = optionOf(options, b.type)
    if (!o) return
    if (!o.allowed) {
      setNote(`${b.label}：${b.reason ?? '此时不可'}`)
      return
    }
    // a card in a slot that the new action does not take comes out, and the server's reason is said
    const { compose: next, taken } = fitCards(chooseAction(keepHeld(compose, hand), o, game.mode), hand)
    setNote(taken.length ? `已收回：${taken.join('；')}` : undefined)
    setCompose(next)
  }

  const pickPlace = (place: Place) => {
    if (!aimingPlace) {
      // not aiming: a tap reads the place's rule in full
      const p = game.places.find((x) => x.place === place)
      setPlaceInfo(p ? `${p.place}：${p.text}` : undefined)
      return
    }
    if (!(aimingPlace.places ?? []).includes(place)) {
      const p = game.places.find((x) => x.place === place)
      setNote(`${place}：${shutReason(aimingPlace, p, me?.place === place)}`)
      return
    }
    setNote(undefined)
    setCompose((c) => choosePlace(c, aimingPlace, place))
  }

  const pickTarget = (index: number) => {
    if (!aimingTarget) return
    setCompose((c) => chooseTarget(c, aimingTarget, index))
  }

  const play = (card: Card) => {
    setRefusal(undefined)
    setCompose((c) => toggleCard(c, card))
  }
  const discard = (card: Card) => {
    setRefusal(undefined)
    const next = toggleDiscard(compose, card.copy_id)
    if (next === compose) setNote('每回合至多弃两张')
    else setCompose(next)
  }

  const seal = async () => {
    if (!canAct || !ready.ready) return
    setBusy('seal')
    setError(undefined)
    setRefusal(undefined)
    const action = actionBody(keepHeld(compose, hand), game.mode)
    const path = { params: { path: { room_id: room.id } } }
    let seen: Seen | undefined
    try {
      if (hasCards(compose)) {
        // the server decides: a composed move with cards is put to it before it is sent
        const answer = await patiently(() => api.POST('/v1/games/shengong/rooms/{room_id}/check', { ...path, body: { action } }))
        if (!answer.legal) {
          setRefusal(answer.message ?? '此招不被接受')
          return
        }
      }
      // the move carries its step: sending it again after a lost answer is safe
      // … and its answer carries her view after it, with the round's 战报 if it settled the round
      seen = await patiently(() => api.POST('/v1/games/shengong/rooms/{room_id}/actions', {
        params: { path: { room_id: room.id }, query: { reports_after: reportsAfter() } }, body: { step, action },
      }))
      setCompose(EMPTY)
      setNote(undefined)
    } catch (e) {
      if (e instanceof ApiError && e.code === 'STALE_STEP') setNote('这一回合已经结算，请看新的回合再落子')
      else setError(notDelivered(e))
    } finally {
      setBusy(undefined)
      refresh(seen) // a sealed move is not announced: its answer's view is how her screen learns it
    }
  }

  const hurry = async () => {
    setConfirmHurry(false)
    setBusy('hurry')
    setError(undefined)
    try {
      await api.POST('/v1/rooms/{room_id}/hurry', { params: { path: { room_id: room.id } }, body: { step } })
    } catch (e) {
      setError(notDelivered(e))
    } finally {
      setBusy(undefined)
      refresh()
    }
  }

  const tabs = gameTabs(over, mine?.hand ? mine.hand.hand.length : null, !!me?.alive)

  const showDock = !over && !!mine && waitsForMe
  const sealedText = sealedMove ? describeMove(sealedMove, game.mode, { opponent: opponentName, card: cardName }) : ''
  const composedText = compose.type ? describeMove(actionBody(compose, game.mode), game.mode, { opponent: opponentName, card: cardName }) : ''

  return (
    <View className={`sg-game sg-mode-${game.mode} ${showDock ? 'sg-with-dock' : ''}`}>
      <StatusStrip view={view} canHurry={canHurry} hurrying={busy === 'hurry'} onHurry={() => setConfirmHurry(true)} onLook={look} />
      <HurrySheet open={confirmHurry && canHurry} view={view} onCancel={() => setConfirmHurry(false)} onHurry={() => void hurry()} />
      {!over ? <Handover room={room} onChanged={() => refresh()} /> : null}
      {view.viewer.role === 'spectator' ? <View className='sg-watch'>观战中 · 只见公开战况与匿名播报</View> : null}
      {me && !me.alive && !over ? <View className='sg-watch sg-watch-out'>你已出局，静观宫中风云</View> : null}

      <View className='sg-tabs' role='tablist'>
        {tabs.map((t) => (
          <View key={t.key} className={`sg-tab ${tab === t.key ? 'sg-tab-on' : ''}`} role='tab' aria-selected={tab === t.key ? 'true' : 'false'}
            data-tab={t.key} onClick={() => setTab(t.key)}>
            {t.label}
            {t.key === 'report' && newReports > 0 ? <Text className='sg-tab-dot'>新</Text> : null}
          </View>
        ))}
      </View>

      {tab === 'result' && over ? <ResultPanel view={view} scoreLines={scoreLines(reports)} /> : null}

      {tab === 'map' ? (
        <View className='sg-pane'>
          {game.mode === 'D' ? (
            <Bosses game={game} option={aimingTarget} compose={compose} target={compose.target} onTarget={pickTarget} />
          ) : null}
          {me ? <MyPanel me={me} mine={mine} /> : null}
          {!over ? <RoundRecap reports={reports} mySeat={mySeat} onMore={() => setTab('report')} /> : null}
          {canAct ? (
            <>
              <ActionSeals buttons={seals} mine={mine} onChoose={choose} />
              {compose.type && !ready.ready ? <View className='sg-hint'>{ready.hint}</View> : null}
              {/* what the chosen action does, as the 玩法 page says it (待机 and 继续驻留 look alike until read) */}
              {option?.effect ? <View className='sg-hint sg-effect'>{option.label}：{option.effect}</View> : null}
              {option?.warning ? <View className='sg-hint sg-warn'>{option.warning}</View> : null}
            </>
          ) : null}
          <PalaceMap game={game} compose={compose} option={aimingPlace} mySeat={mySeat} bots={bots} onPick={pickPlace} />
          {placeInfo && !aimingPlace ? <View className='sg-place-info'>{placeInfo}</View> : null}
          <Roster players={game.players} mySeat={mySeat} bots={bots} title={game.mode === 'D' ? '同袍' : '六宫诸位'} decree={game.decree ?? []} />
        </View>
      ) : null}

      {tab === 'hand' && mine?.hand ? (
        <View className='sg-pane'>
          <HandPanel mine={mine} compose={sealedMove ? composeOf(sealedMove) : compose} locked={!canAct} onPlay={play} onDiscard={discard} />
        </View>
      ) : null}

      {tab === 'report' ? <ReportScroll reports={reports} error={reportError} /> : null}

      {!showDock ? <ErrorLine error={error} /> : null}
      <View className='room-actions sg-leave-row'>
        <LobbyButton family='shengong' size={over ? 'normal' : 'small'} warn={!over && mySeat !== null} />
        <GuideButton gameKey={room.game} size={over ? 'normal' : 'small'} />
        {/* a practice game counts on no board: nothing of it to look at there */}
        {over && !room.practice ? <SealButton kind='gold' onClick={() => void goBoards(room.board)}>看榜单</SealButton> : null}
      </View>

      {showDock ? (
        <View className={`dock sg-dock ${sealedMove ? 'sg-dock-sealed' : ''}`} aria-label='落子'>
          {note ? <View className='sg-dock-note'>{note}</View> : null}
          {refusal ? <View className='error-line sg-refusal' role='alert'>{refusal}</View> : null}
          <ErrorLine error={error} />
          {sealedMove ? (
            <View className='sg-dock-row'>
              <Text className='sg-dock-seal'>封</Text>
              <View className='grow'>
                <Text className='sg-dock-title'>已落子</Text>
                <Text className='sg-dock-move sg-my-move'>{sealedText}</Text>
              </View>
              <Text className='sg-dock-wait'>静候他人</Text>
            </View>
          ) : (
            <View className='sg-dock-row'>
              <View className='grow'>
                <Text className='sg-dock-title'>{compose.type ? '拟落子' : '本回合'}</Text>
                <Text className='sg-dock-move'>{compose.type ? composedText : ready.hint}</Text>
              </View>
              <SealButton kind='zhu' busy={busy === 'seal'} disabled={!ready.ready} onClick={() => void seal()} className='sg-seal-btn'>落子</SealButton>
            </View>
          )}
        </View>
      ) : null}
    </View>
  )
}
