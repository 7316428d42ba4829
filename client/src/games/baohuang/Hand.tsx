import { createContext, useContext } from 'react'
import { Text, View } from '@tarojs/components'
import { handRows, isRed, markOf, parseCard, sortHand, type Marks } from './cards'

/** The table's variant and called face, for the marks its cards show (`markOf`). */
export const MarksContext = createContext<Marks>({ variant: 'simple', called: null })

interface Props {
  cards: readonly string[]
  selected: readonly string[]
  onTap?: (code: string) => void
  /** 保六: the sixes are marked (they must go last, all at once). */
  baoliu?: boolean
  perRow?: number
  small?: boolean
}

/** A card face: rank over suit in the corner (the part left visible when fanned). */
export function CardFace({ code, small }: { code: string; small?: boolean }) {
  const c = parseCard(code)
  const mark = markOf(c, useContext(MarksContext))
  const red = isRed(code)
  return (
    <View className={`card-face ${red ? 'card-red' : 'card-black'} ${c.joker ? 'card-joker' : ''} ${small ? 'card-small' : ''}`}>
      {c.joker ? (
        <>
          <Text className='card-rank card-joker-text'>{c.rank === 'BJ' ? '大' : '小'}</Text>
          <Text className='card-rank card-joker-text'>王</Text>
        </>
      ) : (
        <>
          <Text className='card-rank'>{c.rank}</Text>
          <Text className='card-suit'>{c.suit ? { S: '♠', H: '♥', C: '♣', D: '♦' }[c.suit] : ''}</Text>
        </>
      )}
      {mark ? <Text className={`card-mark ${mark === '叫' ? 'card-mark-called' : ''}`}>{mark}</Text> : null}
    </View>
  )
}

/** My hand, strongest first, fanned in rows; a tap raises or lowers a card. */
export function Hand({ cards, selected, onTap, baoliu, perRow = 18, small }: Props) {
  const chosen = new Set(selected)
  const rows = handRows(sortHand(cards), perRow)
  return (
    <View className={`hand ${small ? 'hand-small' : ''}`}>
      {rows.map((row, r) => (
        <View key={r} className='hand-row'>
          {row.map((code) => {
            const six = baoliu && parseCard(code).rank === '6'
            return (
              <View
                key={code}
                className={`card ${chosen.has(code) ? 'card-on' : ''} ${six ? 'card-six' : ''}`}
                data-code={code}
                onClick={() => onTap?.(code)}
              >
                <CardFace code={code} small={small} />
              </View>
            )
          })}
        </View>
      ))}
    </View>
  )
}

/** Cards laid flat (a play on the table, a replay line). */
export function CardRow({ cards, small }: { cards: readonly string[]; small?: boolean }) {
  return (
    // a long play (a bomb of eight) packs its cards closer, so it stays within the felt between the seats
    <View className={`card-row ${small ? 'card-row-small' : ''} ${cards.length > 5 ? 'card-row-dense' : ''}`}>
      {sortHand(cards).map((code) => (
        <View key={code} className='card card-flat' data-code={code}>
          <CardFace code={code} small={small} />
        </View>
      ))}
    </View>
  )
}
