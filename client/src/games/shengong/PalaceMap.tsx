import { Text, View } from '@tarojs/components'
import { entryText, mapRows, occupants, shutNote, tileState, tokenName } from './board'
import type { Compose } from './compose'
import type { Game, Option, Place } from './types'

interface Props {
  game: Game
  compose: Compose
  /** The chosen action's option (aims at a place or goes to one), if any. */
  option: Option | undefined
  mySeat: number | null
  /** Seats that are bots (marked on their tokens). */
  bots: Set<number>
  onPick: (place: Place) => void
}

/**
 * The palace plan: each place with its rule (the server's text), who stands there, and — while an
 * action aims at a place — which may be picked; otherwise a tap shows the place's rule in full.
 */
export function PalaceMap({ game, compose, option, mySeat, bots, onPick }: Props) {
  const me = game.players.find((p) => p.seat === mySeat)
  const rows = mapRows(game.places, game.mode)
  const aiming = option && (option.type === 'move' ? '去处' : '目标')
  return (
    <View className={`sg-map sg-map-${game.mode === 'D' ? 'd' : 'abc'}`} aria-label='宫图'>
      {rows.map((row, i) => (
        <View key={i} className='sg-map-row'>
          {row.map((p) => {
            const state = tileState(p.place, compose, option, game.mode, me?.place)
            const who = occupants(game.players, p.place)
            const entry = entryText(p)
            // a shut tile says why, in her words (the server's: 「好感 5＜6」)
            const why = shutNote(p.place, state, option)
            return (
              <View
                key={p.place}
                className={`sg-tile sg-tile-${state} ${p.court ? 'sg-tile-court' : ''} ${me?.place === p.place ? 'sg-tile-mine' : ''}`}
                data-place={p.place}
                data-state={state}
                role={state === 'open' || state === 'picked' ? 'button' : undefined}
                onClick={() => onPick(p.place)}
              >
                <View className='sg-tile-roof' />
                <View className='sg-tile-head'>
                  <Text className='sg-tile-name'>{p.place}</Text>
                  {state === 'picked' ? <Text className='sg-tile-stamp'>{aiming}</Text> : null}
                </View>
                {why ? <Text className='sg-tile-why'>{why}</Text> : null}
                <Text className='sg-tile-rule'>{p.text}</Text>
                {entry && !p.text.includes('准入') ? <Text className='sg-tile-entry'>{entry}</Text> : null}
                <View className='sg-tokens'>
                  {who.map((pl) => (
                    <Text
                      key={pl.seat}
                      className={`sg-token ${pl.seat === mySeat ? 'sg-token-me' : ''} ${pl.alive ? '' : 'sg-token-down'} ${bots.has(pl.seat) ? 'sg-token-bot' : ''}`}
                      data-seat={pl.seat}
                    >
                      {tokenName(pl.name)}{bots.has(pl.seat) ? '·机' : ''}
                    </Text>
                  ))}
                </View>
              </View>
            )
          })}
        </View>
      ))}
    </View>
  )
}
