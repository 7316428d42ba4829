import { Text, View } from '@tarojs/components'
import { clockText } from './clock'
import { botless } from '../../lib/labels'
import { playShort } from './cards'
import { CardRow } from './Hand'
import { jiefeng, placeOf, seatBadges, signed, WORD_GAP_S, type BaohuangView, type Place, type SeatView } from './table'
import { useFreshWords } from './useFreshWords'

interface Props {
  game: BaohuangView
  /** Seats the pending step waits for (the turn, the declaration …). */
  waiting: readonly number[]
  remaining: number | null
  bots: ReadonlySet<number>
}

/** A seat's name, a bot's without its 「（机器人）」: its badge says it. */
function seatName(name: string | undefined, bot: boolean): string | undefined {
  return bot && name !== undefined ? botless(name) : name
}

function SeatBox({ seat, game, place, turn, remaining, bots, fresh }: {
  seat: SeatView; game: BaohuangView; place: Place; turn: boolean; remaining: number | null; bots: ReadonlySet<number>
  /** Her word is new since the table was last seen: its place among the new ones (they come up in turn). */
  fresh?: number
}) {
  const pop = fresh === undefined ? undefined : { className: 'bh-bubble-fresh', style: { animationDelay: `${fresh * WORD_GAP_S}s` } }
  const me = seat.seat === game.seat
  const dealing = game.phase !== 'between' && game.phase !== 'over'
  const badges = seatBadges(seat, game, bots)
  return (
    <View
      className={`bh-seat bh-seat-${place} ${turn ? 'bh-seat-turn' : ''} ${seat.auto ? 'bh-seat-auto' : ''} ${me ? 'bh-seat-me' : ''}`}
      data-seat={seat.seat}
    >
      <View className='bh-seat-head'>
        {/* a bot's name without its 「（机器人）」: the badge below says it */}
        <Text className='bh-seat-name'>{seatName(seat.name, bots.has(seat.seat))}{me ? '（我）' : ''}</Text>
      </View>
      <View className='bh-seat-line'>
        {/* between deals and at the end no hand is held: no 「0 张」 for one who finished with cards */}
        {dealing ? <View className='bh-back' /> : null}
        {dealing ? <Text className='bh-count' data-count={seat.cards}>{seat.cards} 张</Text> : null}
        <Text className='bh-total'>{signed(seat.total)} 分</Text>
      </View>
      {badges.length ? (
        <View className='bh-badges'>
          {badges.map((b) => (
            <Text key={b} className={`bh-badge ${b === '锄' ? 'bh-badge-hoe' : ''} ${b.startsWith('皇帝') ? 'bh-badge-emperor' : ''} ${b === '托管' ? 'bh-badge-auto' : ''} ${b === '机器人' ? 'bh-badge-bot' : ''}`}>{b}</Text>
          ))}
        </View>
      ) : null}
      {turn && remaining !== null ? <Text className='bh-timer'>{clockText(remaining)}</Text> : null}
      {/* her word in this trick, as the server counts it: bots play in a moment, and this is how a
          player who looks again sees what each of them did */}
      {seat.passed ? <Text className={`bh-pass-bubble ${pop?.className ?? ''}`} style={pop?.style}>不出</Text> : null}
      {seat.played?.length ? (
        <Text className={`bh-pass-bubble bh-play-bubble ${pop?.className ?? ''}`} style={pop?.style}>{playShort(seat.played)}</Text>
      ) : null}
    </View>
  )
}

/** Five seats around the table; the trick in the middle with who holds it; 接风 when it happens. */
export function Table({ game, waiting, remaining, bots }: Props) {
  const wind = jiefeng(game)
  const name = (s: number) => (s === game.seat ? '你' : seatName(game.seats[s]?.name, bots.has(s)) ?? `${s + 1}号`)
  const others = game.seats.filter((s) => s.seat !== game.seat || game.seat === null || game.seat === undefined)
  const turnSeats = new Set(waiting)
  const fresh = useFreshWords(game)
  return (
    <View className={`bh-table ${game.seat === null || game.seat === undefined ? 'bh-table-watch' : ''}`}>
      <View className='bh-felt'>
        <View className='bh-felt-inner'>
          {game.trick ? (
            <View className='bh-trick'>
              <Text className='bh-trick-who'>{name(game.trick.seat)}的牌最大</Text>
              <CardRow cards={game.trick.cards} />
              {game.trick.passes ? <Text className='muted'>已有 {game.trick.passes} 家不出</Text> : null}
            </View>
          ) : wind ? (
            <View className='bh-trick bh-jiefeng'>
              <Text className='bh-jiefeng-text'>接风</Text>
              {/* two short lines: one ran under the side seats at 390 px */}
              <Text className='muted bh-jiefeng-line'>{name(wind.from)}已出完</Text>
              <Text className='muted bh-jiefeng-line'>{name(wind.to)}接风出牌</Text>
            </View>
          ) : (
            <View className='bh-trick'>
              <Text className='bh-trick-empty'>{game.phase === 'play' && game.turn !== null && game.turn !== undefined ? `${name(game.turn)}出牌` : '保皇'}</Text>
            </View>
          )}
          {game.last_trick ? (
            <Text className='bh-last-trick'>上一墩 {name(game.last_trick.seat)}收 · {playShort(game.last_trick.cards)}</Text>
          ) : null}
        </View>
      </View>
      {others.map((s) => {
        const place = placeOf(s.seat, game.seat)
        return (
          <SeatBox key={s.seat} seat={s} game={game} place={place} turn={turnSeats.has(s.seat)} remaining={remaining}
            bots={bots} fresh={fresh.get(s.seat)} />
        )
      })}
    </View>
  )
}

export function MySeat({ game, waiting, remaining, bots }: Props) {
  if (game.seat === null || game.seat === undefined) return null
  const seat = game.seats[game.seat]
  if (!seat) return null
  return (
    <SeatBox seat={seat} game={game} place='bottom' turn={waiting.includes(seat.seat)} remaining={remaining}
      bots={bots} />
  )
}
