/**
 * Composing one sealed move from the server's `you.options`: which buttons are open or greyed (with
 * the server's reason), what the chosen action still needs (an opponent in D, a place on the map in
 * A/B/C and for 移动), the cards in their slots and up to two discards, and the body to send. The
 * rules stay on the server: nothing here decides legality beyond what the options say; a composed
 * move with cards is put to POST …/check before it is sent.
 */
import { ACTION_NAME, SLOT_TITLE, SLOTS } from './labels'
import type { Action, ActionType, Card, Mine, Mode, Option, Place, PlaceView, Slot } from './types'

export const ATTACKS: ReadonlySet<ActionType> = new Set(['poison', 'assassinate', 'frame'])
export const MAX_DISCARD = 2

export interface Compose {
  type?: ActionType
  /** D: the opponent's index. */
  target?: number
  /** A/B/C attacks: the target place; 移动: where to go. */
  place?: Place
  cards: Partial<Record<Slot, string>>
  discard: string[]
}

export const EMPTY: Compose = { cards: {}, discard: [] }

/** What the chosen action still needs picked: an opponent (D attacks) or a place (the map). */
export type PickKind = 'target' | 'place' | null

export function pickOf(type: ActionType | undefined, mode: Mode): PickKind {
  if (!type) return null
  if (type === 'move') return 'place'
  if (ATTACKS.has(type)) return mode === 'D' ? 'target' : 'place'
  return null
}

export interface ButtonState {
  type: ActionType
  label: string
  allowed: boolean
  /** The server's Chinese reason when greyed. */
  reason: string | null
  selected: boolean
  pick: PickKind
  /** An attack's hit chance as the server gives it (with her chosen attack card, if it raises it); null for the other actions. */
  chance: number | null
}

/** An attack's chances, target by target (D; one at her place in A/B/C once a card is on it), as the
 * server gave them for the move she composes: with her attack card when it raises this attack. */
export function targetChances(option: Pick<Option, 'type' | 'chances' | 'card_chances'>, compose: Compose): readonly number[] {
  const card = compose.type === option.type ? compose.cards.attack : undefined
  const withCard = card ? (option.card_chances ?? []).find((c) => c.copy_id === card)?.chances : undefined
  return withCard ?? option.chances ?? []
}

/**
 * The hit chance an attack seal shows, as the server worked it out: in D against the opponent she
 * aims at (the first she may hit until she picks one), that opponent's defence off; in A/B/C at her
 * place this round; with the attack card she has put on it when the server lists that card as raising
 * it (`card_chances`).
 */
export function chanceOf(option: Option, compose: Compose, mine: Pick<Mine, 'chances'> | null | undefined): number | null {
  if (!ATTACKS.has(option.type)) return null
  const perTarget = targetChances(option, compose)
  if (perTarget.length > 0) {
    const aimed = compose.type === option.type && compose.target !== undefined ? (option.targets ?? []).indexOf(compose.target) : -1
    return perTarget[Math.max(aimed, 0)] ?? null
  }
  return mine?.chances[option.type as keyof Mine['chances']] ?? null
}

/** One seal per option, in the server's order, open or greyed with the server's reason. */
export function buttons(options: Option[], compose: Compose, mode: Mode, mine?: Pick<Mine, 'chances'> | null): ButtonState[] {
  return options.map((o) => ({
    type: o.type,
    label: o.label || ACTION_NAME[o.type],
    allowed: o.allowed,
    reason: o.allowed ? null : (o.reason ?? '此时不可'),
    selected: compose.type === o.type,
    pick: pickOf(o.type, mode),
    chance: chanceOf(o, compose, mine),
  }))
}

/**
 * A voided round (暗杀 last round): the banner 「本回合行动作废」 and under it the server's reason
 * (`voided_reason`, the words a refused move would get), said once — the greyed seals say only 作废.
 */
export function voidedBanner(mine: Pick<Mine, 'voided' | 'voided_reason'> | null | undefined): { reason: string | null } | null {
  return mine?.voided ? { reason: mine.voided_reason ?? null } : null
}

export function optionOf(options: Option[], type: ActionType | undefined): Option | undefined {
  return type ? options.find((o) => o.type === type) : undefined
}

/**
 * Tap an action seal. A greyed one changes nothing (the screen shows its reason). The cards stay;
 * a D attack aims at the first opponent it may hit (tap another to change); a place is kept only
 * when the new action may use it too.
 */
export function chooseAction(compose: Compose, option: Option, mode: Mode): Compose {
  if (!option.allowed) return compose
  const pick = pickOf(option.type, mode)
  const targets = option.targets ?? []
  const places = option.places ?? []
  const next: Compose = { cards: compose.cards, discard: compose.discard, type: option.type }
  if (pick === 'target') {
    next.target = compose.target !== undefined && targets.includes(compose.target) ? compose.target : targets[0]
  }
  if (pick === 'place' && compose.place && places.includes(compose.place)) next.place = compose.place
  return next
}

/** Tap an opponent (D): only one the chosen attack may aim at. */
export function chooseTarget(compose: Compose, option: Option | undefined, target: number): Compose {
  if (!option || !(option.targets ?? []).includes(target)) return compose
  return { ...compose, target }
}

/** Tap a place on the map: only one the chosen action may aim at or go to; tap it again to clear. */
export function choosePlace(compose: Compose, option: Option | undefined, place: Place): Compose {
  if (!option || !(option.places ?? []).includes(place)) return compose
  if (compose.place === place) return { ...compose, place: undefined }
  return { ...compose, place }
}

/**
 * Why this card may not go with the action she has chosen, in the server's words (its `refused`, the
 * refusal 落子 would get: 「「寻医问药」只对下毒生效（可以弃掉）」); null with no action chosen or when it fits.
 */
export function cardRefusal(card: Pick<Card, 'refused'>, type: ActionType | undefined): string | null {
  if (!type) return null
  return (card.refused ?? []).find((r) => r.type === type)?.reason ?? null
}

/** Play a card into its own slot (replacing the slot's card), or take it back out; one the server
 * refuses with her chosen action stays out (she may still discard it). */
export function toggleCard(compose: Compose, card: Pick<Card, 'copy_id' | 'slot' | 'refused'>): Compose {
  const cards = { ...compose.cards }
  if (cards[card.slot] === card.copy_id) delete cards[card.slot]
  else if (cardRefusal(card, compose.type)) return compose
  else cards[card.slot] = card.copy_id
  return { ...compose, cards, discard: compose.discard.filter((c) => c !== card.copy_id) }
}

export interface Fitted {
  compose: Compose
  /** The server's reason for each card taken out of its slot, in slot order. */
  taken: string[]
}

/** After she changes her action: the cards in a slot the server refuses with it are taken out, each
 * with its reason (so the screen can say why the slot emptied). */
export function fitCards(compose: Compose, hand: Pick<Card, 'copy_id' | 'refused'>[]): Fitted {
  const byId = new Map(hand.map((c) => [c.copy_id, c]))
  const cards: Partial<Record<Slot, string>> = {}
  const taken: string[] = []
  for (const s of SLOTS) {
    const id = compose.cards[s]
    if (!id) continue
    const card = byId.get(id)
    const why = card ? cardRefusal(card, compose.type) : null
    if (why) taken.push(why)
    else cards[s] = id
  }
  return { compose: taken.length ? { ...compose, cards } : compose, taken }
}

/** Mark a card for discard (at most two) or unmark it; a discarded card leaves its slot. */
export function toggleDiscard(compose: Compose, copyId: string): Compose {
  if (compose.discard.includes(copyId)) return { ...compose, discard: compose.discard.filter((c) => c !== copyId) }
  if (compose.discard.length >= MAX_DISCARD) return compose
  const cards: Partial<Record<Slot, string>> = {}
  for (const s of SLOTS) if (compose.cards[s] && compose.cards[s] !== copyId) cards[s] = compose.cards[s]
  return { ...compose, cards, discard: [...compose.discard, copyId] }
}

export function hasCards(compose: Compose): boolean {
  return SLOTS.some((s) => !!compose.cards[s]) || compose.discard.length > 0
}

/** Cards no longer in hand (the round moved on) drop out of the composition. */
export function keepHeld(compose: Compose, hand: Card[]): Compose {
  const held = new Set(hand.map((c) => c.copy_id))
  const cards: Partial<Record<Slot, string>> = {}
  for (const s of SLOTS) {
    const id = compose.cards[s]
    if (id && held.has(id)) cards[s] = id
  }
  return { ...compose, cards, discard: compose.discard.filter((c) => held.has(c)) }
}

export interface Readiness {
  ready: boolean
  /** What to do next, when not ready. */
  hint: string
}

export function readiness(compose: Compose, options: Option[], mode: Mode): Readiness {
  const option = optionOf(options, compose.type)
  if (!option) return { ready: false, hint: '先择一行动' }
  if (!option.allowed) return { ready: false, hint: option.reason ?? '此时不可' }
  const pick = pickOf(option.type, mode)
  if (pick === 'place' && !compose.place) {
    return { ready: false, hint: option.type === 'move' ? '在宫图上点选去处' : '在宫图上点选目标地' }
  }
  if (pick === 'target' && compose.target === undefined && (option.targets ?? []).length > 0) {
    return { ready: false, hint: '点选对手' }
  }
  return { ready: true, hint: '' }
}

/** The JSON body's `action`: only the fields this action and mode use (the server refuses others). */
export function actionBody(compose: Compose, mode: Mode): Action {
  const type = compose.type ?? 'idle'
  const pick = pickOf(type, mode)
  const body: Record<string, unknown> = { type }
  if (pick === 'target' && compose.target !== undefined) body.target = compose.target
  if (pick === 'place' && compose.place) body.place = compose.place
  if (hasCards(compose)) {
    body.cards = {
      attack: compose.cards.attack ?? null,
      defence: compose.cards.defence ?? null,
      general: compose.cards.general ?? null,
      discard: compose.discard,
    }
  }
  return body as Action
}

/** A sealed move read back as a composition (to show its cards in their slots). */
export function composeOf(move: Action): Compose {
  const m = move as { target?: number | null; place?: Place | null }
  const cards: Partial<Record<Slot, string>> = {}
  for (const s of SLOTS) {
    const id = move.cards?.[s]
    if (id) cards[s] = id
  }
  return {
    type: move.type,
    target: m.target ?? undefined,
    place: m.place ?? undefined,
    cards,
    discard: move.cards?.discard ?? [],
  }
}

export interface Names {
  opponent: (index: number) => string | undefined
  card: (copyId: string) => string | undefined
}

/** 「下毒 · 高明珠」「移动 → 太医院」 plus the cards: how a move reads, mine shown back once sealed. */
export function describeMove(move: Action, mode: Mode, names: Names): string {
  const parts: string[] = [ACTION_NAME[move.type]]
  const m = move as { target?: number | null; place?: Place | null }
  if (move.type === 'move' && m.place) parts[0] = `移动 → ${m.place}`
  else if (ATTACKS.has(move.type)) {
    if (mode === 'D') parts.push(m.target !== undefined && m.target !== null ? names.opponent(m.target) ?? `对手${m.target + 1}` : '首位对手')
    else if (m.place) parts.push(m.place)
  }
  const cards = move.cards
  if (cards) {
    const cardName = (id: string) => `「${names.card(id) ?? id.split('#')[0]}」`
    for (const s of SLOTS) {
      const id = cards[s]
      if (id) parts.push(`${SLOT_TITLE[s]}${cardName(id)}`)
    }
    if (cards.discard && cards.discard.length) parts.push(`弃${cards.discard.map(cardName).join('')}`)
  }
  return parts.join(' · ')
}

/**
 * Why a tile is shut for the action she is aiming, from what the server says of the place: an attack
 * the place is no target of (its `targets`), her own place for 移动, a place whose entry bar she does
 * not meet (its rule, for 移动); otherwise only that it is shut — never a reason the server did not give.
 */
export function shutReason(option: Pick<Option, 'type' | 'label' | 'shut'>, place: Pick<PlaceView, 'place' | 'targets' | 'entry_bar' | 'text'> | undefined, here: boolean): string {
  if (option.type === 'move') {
    if (here) return '你已身在此处'
    // the server's own refusal for that place, her value beside the bar (「须好感≥6方可进入（你的好感 5）」)
    const said = (option.shut ?? []).find((s) => s.place === place?.place)?.reason
    if (said) return `此处不可移动：${said}`
    return place?.entry_bar ? `此处不可移动（${place.text}）` : '此处不可移动'
  }
  if (ATTACKS.has(option.type) && place && !((place.targets ?? []) as string[]).includes(option.type)) return `此处不是${option.label}的目标`
  return `此处不可${option.label}`
}
