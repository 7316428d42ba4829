import { Text, View } from '@tarojs/components'
import { handsRound, nominationState, seatNo, voteClockText, type PublicDay } from './model'

interface Props {
  day: PublicDay
  name: (seat: number) => string
  /** Seats at the table (the vote goes round the circle from the nominee's left). */
  count: number
  remaining: number | null
  /** The open vote is shown elsewhere on the page (a player's own 投票 panel): leave it out here. */
  hideVote?: boolean
  /** The storyteller's tools on each counted nomination. */
  onEdit?: (index: number) => void
  onDelete?: (index: number) => void
  /** The storyteller enters or corrects one hand during the open vote. */
  onHand?: (seat: number, yes: boolean) => void
}

/** The open vote's hands round the circle (`handsRound`), each raised, lowered or still to come. */
export function VoteHands({ vote, count, onHand }: { vote: NonNullable<PublicDay['vote']>; count: number; onHand?: (seat: number, yes: boolean) => void }) {
  return (
    <View className='zh-hands'>
      {handsRound(vote, count).map((h) => (h.yes === null ? (
        <Text key={h.seat} className='zh-hand zh-hand-wait' data-seat={h.seat} onClick={() => onHand?.(h.seat, true)}>{seatNo(h.seat)}待投</Text>
      ) : (
        <Text key={h.seat} className={`zh-hand ${h.yes ? 'zh-hand-yes' : 'zh-hand-no'}`} data-seat={h.seat} onClick={() => onHand?.(h.seat, !h.yes)}>
          {seatNo(h.seat)}{h.yes ? '举手' : '不举'}
        </Text>
      )))}
    </View>
  )
}

/** Today's nominations and votes, the open vote with its clock, the chopping block: public. */
export function DaySummary({ day, name, count, remaining, hideVote, onEdit, onDelete, onHand }: Props) {
  const vote = day.vote
  return (
    <View className='zh-day'>
      <View className='zh-day-line'>
        <Text>处决需 {day.threshold} 票</Text>
        {day.block !== null && day.block !== undefined ? (
          <Text className='zh-block'>处决台：{seatNo(day.block)} {name(day.block)}（{day.block_votes} 票）</Text>
        ) : <Text className='muted'>处决台空</Text>}
        {day.executed !== null && day.executed !== undefined ? <Text className='zh-executed'>今日已处决 {seatNo(day.executed)}</Text> : null}
      </View>
      {vote && !hideVote ? (
        <View className='zh-vote' data-nominee={vote.nominee}>
          <View className='zh-vote-head'>
            <Text className='zh-vote-title'>正在投票：{seatNo(vote.nominee)} {name(vote.nominee)}</Text>
            {remaining !== null ? <Text className='zh-clock'>{voteClockText(remaining)}</Text> : null}
          </View>
          <VoteHands vote={vote} count={count} onHand={onHand} />
          {onHand ? <Text className='muted'>点座位可代为举手或改正</Text> : null}
        </View>
      ) : null}
      {day.nominations.length ? (
        <View className='zh-noms'>
          {day.nominations.map((n, i) => (
            <View key={i} className='zh-nom' data-index={i}>
              <View className='grow'>
                <Text className='zh-nom-who'>{seatNo(n.nominator)}{n.exile ? '提请流放' : '提名'}{seatNo(n.nominee)} {name(n.nominee)}</Text>
                {n.count !== null && n.count !== undefined ? (
                  <Text className='zh-nom-votes'>{n.count} 票（需 {n.threshold}）{(n.voters ?? []).length ? `：${(n.voters ?? []).map(seatNo).join('、')}` : ''}</Text>
                ) : <Text className='zh-nom-votes muted'>{nominationState(day, n.nominee)}</Text>}
              </View>
              {onEdit && n.count !== null && n.count !== undefined ? <Text className='zh-link' onClick={() => onEdit(i)}>改票</Text> : null}
              {onDelete ? <Text className='zh-link' onClick={() => onDelete(i)}>删除</Text> : null}
            </View>
          ))}
        </View>
      ) : <View className='muted zh-no-noms'>今日尚无提名</View>}
    </View>
  )
}
