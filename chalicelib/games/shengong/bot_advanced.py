"""进阶 ADVANCED bot for 深宫杀: a heuristic player that weighs every legal move by its expected worth.

It reads only the seat's view. Worth is counted in score points (A/B/C: 气血伤害×0.5, 好感伤害×0.4,
击败×3; D: 输出伤害 1:1 and the stage falling sooner) plus what her own bars are worth to her now: 气血
and 好感 grow dearer as they run low (a fall costs every point she would still earn). It weighs hit
chances (her place, 宫女, 石露's defence), victims on the board (the top takes −2, others −1; who could
fall), 养生 and 待机 against the danger at her place, the places (A/B/C: 御膳房 costs its occupant, 乾清宫
pays 送膳 to whoever tops the 圣意, entry thresholds; D: each place's bonus against the rounds left),
and in C/D the cards in hand: the best card for each slot, the meal card discarded where it is useless.
"""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.core.rng import Rng
from chalicelib.games.shengong.actions import ATTACK_MOVES, Action, Heal, Idle, Meal, Move
from chalicelib.games.shengong.bot_simple import place_of, rivals
from chalicelib.games.shengong.cards import DAMAGE_EFFECT, HIT_EFFECT, Effect, Slot
from chalicelib.games.shengong.deck import CardPlay
from chalicelib.games.shengong.numbers import DAMAGE, HIT_CAP, SPLASH, points
from chalicelib.games.shengong.terms import ActionType, Attack, Bar, Dim
from chalicelib.games.shengong.views import CardView, PlaceView, PlayerView, ShengongView

KILL = 3.0
"""A/B/C 击败×3."""
WORTH = {Attack.POISON: 0.5, Attack.ASSASSINATE: 0.5, Attack.FRAME: 0.4}
"""A/B/C score per point of damage (气血 ×0.5, 好感 ×0.4)."""
VOID = 0.8
"""A/B/C: what voiding a rival's next move is worth."""
HEAL_SHIELD = 0.5
"""养生 also shields: 下毒 halved, 暗杀 only −1 — about half the danger she faces."""


@dataclass(frozen=True, slots=True)
class Option:
    worth: float
    action: Action


def _dear(value: float, safe: float, steep: float = 4.0, base: float = 0.5) -> float:
    """What one point of a bar is worth to her: `base`, rising steeply below `safe`."""
    return base + steep * max(0.0, (safe - value) / safe)


def _hand(view: ShengongView) -> list[CardView]:
    you = view.you
    return list(you.hand.hand) if you is not None and you.hand is not None else []


def _best(view: ShengongView, effects: set[Effect]) -> CardView | None:
    cards = [c for c in _hand(view) if c.effect in effects]
    return max(cards, key=lambda c: (c.amount, c.copy_id)) if cards else None


def _passive(view: ShengongView, effect: Effect) -> int:
    """玩法B: what her 宫女 bring every round (their hit chances are in `chances` already)."""
    you = view.you
    if you is None or you.hand is not None:
        return 0
    return sum(m.amount for m in you.maids if m.effect is effect)


def _cards(view: ShengongView, kind: ActionType, attack_card: CardView | None, at_court: bool) -> CardPlay:
    """The best defence and general cards with any move, the chosen attack card, the 送膳 card only
    with 送膳; 送膳 cards discarded away from 乾清宫 (in D they never act)."""
    if not _hand(view):
        return CardPlay()
    defence = _best(view, {Effect.GUARD_HP, Effect.GUARD_GRACE, Effect.AFTER_HEAL})
    general = _best(view, {Effect.MEAL_GRACE} if kind is ActionType.MEAL else {Effect.PALACE_HP, Effect.PALACE_GRACE})
    used = {c.copy_id for c in (attack_card, defence, general) if c is not None}
    useless = [c.copy_id for c in _hand(view) if c.effect is Effect.MEAL_GRACE and c.copy_id not in used]
    return CardPlay(
        attack=attack_card.copy_id if attack_card else None, defence=defence.copy_id if defence else None,
        general=general.copy_id if general else None, discard=tuple(useless[:2]) if not at_court else (),
    )


def _attack_cards(view: ShengongView, attack: Attack) -> list[CardView | None]:
    return [None, *(c for c in _hand(view) if c.slot is Slot.ATTACK and c.effect in (HIT_EFFECT[attack],
                                                                                      DAMAGE_EFFECT[attack]))]


def _chance(view: ShengongView, attack: Attack, card: CardView | None, defence: int = 0) -> float:
    base = view.you.chances[attack] if view.you else 0
    extra = card.amount if card and card.effect is HIT_EFFECT[attack] else 0
    return max(0, min(HIT_CAP, base + extra) - defence) / 100


def _bonus(view: ShengongView, attack: Attack, card: CardView | None, place: PlaceView) -> float:
    """Extra damage in points: 宫女 and the place she stands at (D 御膳房 / 摘星楼)."""
    card_dmg = card.amount if card and card.effect is DAMAGE_EFFECT[attack] else 0
    place_dmg = place.poison if attack is Attack.POISON else place.frame if attack is Attack.FRAME else 0.0
    return points(_passive(view, DAMAGE_EFFECT[attack]) + card_dmg) + place_dmg


def advanced(view: ShengongView, seat: int, rng: Rng) -> Action:
    """The move worth most (ties: a random pick among them, through `rng`)."""
    options = stage_options(view, seat) if view.opponents else palace_options(view, seat)
    top = max(o.worth for o in options)
    return rng.choice([o.action for o in options if o.worth >= top - 1e-9])


# ---- A/B/C ---------------------------------------------------------------------------------------

def _danger(view: ShengongView, seat: int, me: PlayerView) -> float:
    """Expected 气血 damage at her place next round: crowds draw 下毒, the leader draws 暗杀 (D: 高明珠 strikes
    the weakest)."""
    others = rivals(view, seat)
    crowd = sum(1 for p in others if p.place is me.place)
    leader = 0.6 if others and me.hp >= max(p.hp for p in others) else 0.0
    return 0.3 * crowd + leader + 0.2


def _strike_worth(view: ShengongView, seat: int, attack: Attack, target: PlaceView, card: CardView | None) -> float:
    victims = [p for p in rivals(view, seat) if p.place is target.place]
    if not victims:
        return float("-inf")
    def bar(p: PlayerView) -> float:
        return p.grace if attack is Attack.FRAME else p.hp

    top = max(bar(p) for p in victims)
    bonus = _bonus(view, attack, card, place_of(view, view.players[seat].place))
    gain = 0.0
    hit = [next(p for p in victims if bar(p) == top)] if attack is Attack.ASSASSINATE else victims
    for p in hit:
        dmg = points(DAMAGE[attack] if bar(p) == top else SPLASH) + bonus
        gain += WORTH[attack] * dmg + (KILL * 0.8 if bar(p) <= dmg else 0.0)
    gain += VOID if attack is Attack.ASSASSINATE else 0.0
    return _chance(view, attack, card) * gain


def palace_options(view: ShengongView, seat: int) -> list[Option]:
    me, here = view.players[seat], place_of(view, view.players[seat].place)
    wh, wg = _dear(me.hp, 6.0), _dear(me.grace, 3.0, base=0.4)
    tolls = sum(place_of(view, p.place).hurts_heal_idle for p in rivals(view, seat))
    heal_now = view.you.heal_now if view.you else 0.0
    plain, danger = _cards(view, ActionType.IDLE, None, here.court), _danger(view, seat, me)
    out = [
        Option((heal_now + HEAL_SHIELD * danger - tolls) * wh, Heal(cards=plain)),
        Option(0.5 * wh + 0.5 * wg + (min(1.0, danger) - tolls) * wh, Idle(cards=plain)),
    ]
    for attack in Attack:
        cost = (here.frame_cost or 1.0) * wh if attack is Attack.FRAME else 0.5 * wg
        for target in (p for p in view.places if attack in p.targets):
            card, worth = max(((c, _strike_worth(view, seat, attack, target, c)) for c in _attack_cards(view, attack)),
                              key=lambda cw: cw[1])
            if worth > float("-inf"):
                play = _cards(view, ActionType(attack.value), card, here.court)
                out.append(Option(worth - cost, ATTACK_MOVES[attack](place=target.place, cards=play)))
    out.extend(_palace_moves(view, seat, me, here, wg))
    return out


def _tops(view: ShengongView, seat: int, dim: Dim, among: list[PlayerView]) -> float:
    """How likely she tops `dim` among `among` (they may not serve)."""
    attr = {Dim.LOOKS: "looks", Dim.FAVOR: "favor", Dim.TALENT: "talent", Dim.POWER: "power"}[dim]
    mine, best = getattr(view.players[seat], attr), max((getattr(p, attr) for p in among), default=-1)
    return 0.9 if mine > best else 0.5 if mine == best else 0.15


def _palace_moves(view: ShengongView, seat: int, me: PlayerView, here: PlaceView, wg: float) -> list[Option]:
    """送膳 at 乾清宫; leaving 御膳房; going to 乾清宫 when her attributes top the court; leaving a crowd."""
    out: list[Option] = []
    others = rivals(view, seat)
    if here.court and ActionType.MEAL in view.actions:
        at_court = [p for p in others if p.place is me.place]
        odds = [_tops(view, seat, d, at_court) for d in view.decree]
        none = 1.0
        for p in odds:
            none *= 1 - p
        play = _cards(view, ActionType.MEAL, None, True)
        meal_card = _best(view, {Effect.MEAL_GRACE})
        bonus = points(_passive(view, Effect.MEAL_GRACE) + (meal_card.amount if meal_card else 0))
        out.append(Option(sum(odds) * wg * 1.2 + (1 - none) * bonus * wg - none * _dear(me.hp, 6.0), Meal(cards=play)))
    for dest in view.places:
        if dest.place is me.place or not _may_enter(me, dest):
            continue
        worth = 0.0
        worth += here.toll * wg - dest.toll * 2.0
        if dest.court:
            worth += 0.5 * sum(_tops(view, seat, d, others) for d in Dim) / 2
        worth -= dest.frame_hurts * 0.5
        crowd_here = sum(1 for p in others if p.place is me.place)
        crowd_there = sum(1 for p in others if p.place is dest.place)
        worth += 0.15 * (crowd_here - crowd_there)
        out.append(Option(worth, Move(place=dest.place, cards=_cards(view, ActionType.MOVE, None, here.court))))
    return out


def _may_enter(me: PlayerView, dest: PlaceView) -> bool:
    """特殊地准入, judged on her bars now."""
    if dest.entry_bar is None or dest.entry_min is None:
        return True
    return (me.hp if dest.entry_bar is Bar.HP else me.grace) >= dest.entry_min


# ---- D -------------------------------------------------------------------------------------------

def _stage_strikes(view: ShengongView, here: PlaceView, at: PlaceView) -> list[tuple[float, Attack, int, CardView | None]]:
    """Every attack she could make standing at `at`: (worth, attack, opponent, card)."""
    out = []
    for o in (o for o in view.opponents if o.alive):
        for attack in Attack:
            bar = o.grace if attack is Attack.FRAME else o.hp
            if bar is None:
                continue
            for card in _attack_cards(view, attack):
                chance = max(0.0, _chance(view, attack, card, o.frame_defence if attack is Attack.FRAME else 0)
                             + (at.hit - here.hit) / 100)
                dmg = points(DAMAGE[attack]) + _bonus(view, attack, card, at)
                out.append((chance * (dmg + 6.0 * min(1.0, dmg / max(bar, 0.1))), attack, o.index, card))
    return out


def stage_options(view: ShengongView, seat: int) -> list[Option]:
    me, here = view.players[seat], place_of(view, view.players[seat].place)
    wh, wg = _dear(me.hp, 8.0, base=0.2), _dear(me.grace, 4.0, base=0.2)
    heal_now = view.you.heal_now if view.you else 0.0
    plain = _cards(view, ActionType.IDLE, None, False)
    weakest = min(p.hp for p in view.players if p.alive) >= me.hp
    danger = 2.5 if weakest else 1.5
    out = [
        Option((heal_now + HEAL_SHIELD * danger) * wh, Heal(cards=plain)),
        Option((0.5 + here.idle) * (wh + wg) + min(1.0, danger) * wh, Idle(cards=plain)),
    ]
    strikes = _stage_strikes(view, here, here)
    for worth, attack, target, card in strikes:
        cost = wh if attack is Attack.FRAME else 0.5 * wg
        play = _cards(view, ActionType(attack.value), card, False)
        out.append(Option(worth - cost, ATTACK_MOVES[attack](target=target, cards=play)))
    best_here = max((s[0] for s in strikes), default=0.0)
    rounds_left = max(0, min(view.round_limit - view.round, 8) - 1)
    for dest in view.places:
        if dest.place is not me.place:
            best_there = max((s[0] for s in _stage_strikes(view, here, dest)), default=0.0)
            out.append(Option((best_there - best_here) * rounds_left, Move(place=dest.place, cards=plain)))
    return out
