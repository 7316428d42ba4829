"""The settlement of one round, in numbered steps.

Seed: 「回合初统一快照，命中、受害者、养生免疫一律按快照判定，伤害与治疗最后一次性落账 —— 不存在先手
压制」. The incoming state *is* the snapshot: every step reads it and writes only to per-seat ledgers;
nothing lands until step 6. So a boss felled this round still acts this round, a player felled this
round still lands her blow, and healing and damage are netted together.

Random draws, always in this order: step 2 (each living opponent's tactic, in index order), step 3
(each attacking player's roll, seat order), step 4 (each opponent's roll, index order), step 8
(each surviving player's refill, seat order).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from pydantic import ValidationError

from chalicelib.core.errors import GameOver, IllegalAction
from chalicelib.core.game import Transition
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.cards import Effect
from chalicelib.games.shengong.coop import bosses
from chalicelib.games.shengong.coop.actions import (
    Action,
    Frame,
    Heal,
    Idle,
    Move,
    action_adapter,
    attack_of,
    check_move,
    resolve_target,
)
from chalicelib.games.shengong.coop.events import (
    Event,
    GameEnded,
    OpponentActed,
    OpponentLanded,
    PlayerActed,
    PlayerLanded,
    Result,
    Victim,
)
from chalicelib.games.shengong.coop.scoring import outcome, seat_scores
from chalicelib.games.shengong.coop.state import (
    ASSASSINATE_ON_RESTING,
    BASE_HIT,
    COST_FAVOR,
    COST_HP,
    DAMAGE,
    FAVOR_REGEN,
    GARDEN_IDLE,
    GROUP_OTHERS,
    HEAL_DECAY,
    HEAL_FLOOR,
    HEAL_HIGH,
    HEAL_LOW,
    HEAL_LOW_BELOW,
    IDLE_GUARD,
    IDLE_SELF,
    IDLE_SHARE,
    INFIRMARY_HEAL,
    KITCHEN_POISON,
    START_FAVOR,
    TAVERN_HIT,
    TOWER_FRAME,
    Attack,
    CoopState,
    OpponentState,
    Place,
    PlayerState,
    capped,
)
from chalicelib.games.shengong.deck import CardPlay, copy_card, refill, spend
from chalicelib.games.shengong.numbers import ROUND_LIMIT

_HIT_CARD = {Attack.POISON: Effect.POISON_HIT, Attack.ASSASSINATE: Effect.ASSASSINATE_HIT, Attack.FRAME: Effect.FRAME_HIT}
_DAMAGE_CARD = {
    Attack.POISON: Effect.POISON_DAMAGE,
    Attack.ASSASSINATE: Effect.ASSASSINATE_DAMAGE,
    Attack.FRAME: Effect.FRAME_DAMAGE,
}


@dataclass(slots=True)
class _Ledger:
    """What will land on one player at the end of the round (all tenths)."""

    hp_in: int = 0
    favor_in: int = 0
    hp_cost: int = 0
    favor_cost: int = 0
    hp_gain: int = 0
    favor_gain: int = 0
    guard_hp: int = 0
    guard_favor: int = 0


def card_bonus(player: PlayerState, cards: CardPlay, effect: Effect) -> int:
    """Sum of `effect` over her played (not discarded) cards, × each card's level (seed ⑥)."""
    total = 0
    for copy in cards.used():
        c = copy_card(copy)
        if c.effect is effect:
            total += c.magnitude(player.levels.get(c.id, 1))
    return total


def player_chance(player: PlayerState, attack: Attack, cards: CardPlay, target: OpponentState) -> int:
    """D②④: base (with attribute) + 醉江南 + attack card, capped at 95; then 石露's 诬告防守."""
    chance = player.hits[attack] + (TAVERN_HIT if player.place is Place.TAVERN else 0)
    chance = capped(chance + card_bonus(player, cards, _HIT_CARD[attack]))
    if attack is Attack.FRAME:
        chance = max(0, chance - bosses.SPECS[target.key].frame_defence)
    return chance


def player_damage(player: PlayerState, attack: Attack, cards: CardPlay) -> int:
    """DECISIONS #10: −2 / −3 / −2, +1 for 下毒 at 御膳房 or 诬告 at 摘星楼, + attack card."""
    dmg = DAMAGE[attack] + card_bonus(player, cards, _DAMAGE_CARD[attack])
    if attack is Attack.POISON and player.place is Place.KITCHEN:
        dmg += KITCHEN_POISON
    if attack is Attack.FRAME and player.place is Place.TOWER:
        dmg += TOWER_FRAME
    return dmg


def opponent_chance(opponent: OpponentState, attack: Attack) -> int:
    return capped(BASE_HIT[attack] + bosses.SPECS[opponent.key].hit_bonus.get(attack, 0))


def heal_amount(player: PlayerState) -> int:
    """养生: +1.5 below 8 气血 else +0.8, −0.3 per consecutive earlier 养生 (floor 0.2), +1 at 太医院."""
    base = HEAL_LOW if player.hp < HEAL_LOW_BELOW else HEAL_HIGH
    amount = max(HEAL_FLOOR, base - HEAL_DECAY * player.heal_streak)
    return amount + (INFIRMARY_HEAL if player.place is Place.INFIRMARY else 0)


def _as_action(raw: Any) -> Action | None:
    """A move as the room stored it (model or JSON dict); None if it cannot be read."""
    if not isinstance(raw, Mapping):
        return raw  # type: ignore[no-any-return]
    try:
        return action_adapter.validate_python(raw)
    except ValidationError:
        return None


def settle(state: CoopState, moves: Mapping[int, Any], rng: Rng) -> Transition[CoopState, Event]:
    """Resolve one round from the sealed moves (seat -> Action; missing living seats 待机).

    Raises:
        GameOver: the game has already ended.
    """
    if state.over:
        raise GameOver()
    snap, rnd = state, state.round
    # A seat mapped to None did not submit (the room's placeholder); an unreadable move is VOID.
    given = {int(k): _as_action(v) for k, v in moves.items() if v is not None}
    living = [p.seat for p in snap.living_players()]
    ledger = {s: _Ledger() for s in living}
    acted: dict[int, PlayerActed] = {}

    # Step 1. Orders. A living seat with no move 待机s; a move illegal in the snapshot is VOID
    # and she 待机s too (the room checks moves when they are submitted, so this is a safety net).
    orders: dict[int, Action] = {}
    voided: dict[int, str] = {}
    for seat in living:
        move = given.get(seat)
        if seat in given and move is None:
            voided[seat] = "MALFORMED_ACTION"
        if move is not None:
            try:
                check_move(snap, seat, move)
            except IllegalAction as err:
                voided[seat], move = err.code, None
        orders[seat] = move if move is not None else Idle()

    # Step 2. Opponents choose, each by her tactic, on the snapshot.
    plans = {o.index: bosses.choose(snap, o, rng) for o in snap.living_opponents()}

    # Step 3. Players' attacks: roll on snapshot chances; damage is noted, not landed.
    to_opp_hp = {o.index: 0 for o in snap.opponents}
    to_opp_favor = {o.index: 0 for o in snap.opponents}
    for seat in living:
        p, move = snap.players[seat], orders[seat]
        attack = attack_of(move)
        base = {"round": rnd, "seat": seat, "place": p.place, "cards": move.cards, "action": move.type}
        if seat in voided:
            acted[seat] = PlayerActed(**base, result=Result.VOID, void_code=voided[seat])
            continue
        if attack is None:
            dest = move.place if isinstance(move, Move) else None
            heal = heal_amount(p) if isinstance(move, Heal) else 0
            acted[seat] = PlayerActed(
                **base, result=Result.DONE, destination=dest, heal=heal, defaulted=seat not in given
            )
            continue
        target = resolve_target(snap, move)  # type: ignore[arg-type]
        chance = player_chance(p, attack, move.cards, target)
        hit = rng.below(100) < chance
        dmg = player_damage(p, attack, move.cards) if hit else 0
        (to_opp_favor if isinstance(move, Frame) else to_opp_hp)[target.index] += dmg
        led = ledger[seat]
        led.hp_cost += COST_HP.get(attack, 0)
        led.favor_cost += COST_FAVOR.get(attack, 0)
        acted[seat] = PlayerActed(
            **base, target=target.index, chance=chance, result=Result.HIT if hit else Result.MISS,
            damage=dmg, cost_hp=COST_HP.get(attack, 0), cost_favor=COST_FAVOR.get(attack, 0),
        )

    # Step 4. Opponents' attacks: one roll per attack; victims are the snapshot's living players.
    # An opponent that 护主s (no attack) draws no roll.
    resting = {s for s in living if isinstance(orders[s], Heal) and s not in voided}
    opp_events: list[OpponentActed] = []
    for idx, plan in plans.items():
        o = snap.opponents[idx]
        if plan.attack is None:  # 护主: she holds back this round (no roll)
            opp_events.append(OpponentActed(
                round=rnd, opponent=idx, tactic=plan.tactic, label=plan.label, attack=None, group=False,
                chance=None, result=Result.DONE, victims=(),
            ))
            continue
        chance = opponent_chance(o, plan.attack)
        hit = rng.below(100) < chance
        aimed = living if plan.target is None else [plan.target]
        tops = _tops(snap, plan)
        victims = []
        for seat in aimed:
            amount = _opponent_damage(o, plan, seat in tops, seat in resting) if hit else 0
            if plan.attack is Attack.FRAME:
                ledger[seat].favor_in += amount
                victims.append(Victim(seat=seat, favor=amount, resting=seat in resting))
            else:
                ledger[seat].hp_in += amount
                victims.append(Victim(seat=seat, hp=amount, resting=seat in resting))
        opp_events.append(OpponentActed(
            round=rnd, opponent=idx, tactic=plan.tactic, label=plan.label, attack=plan.attack,
            group=plan.target is None, tower=plan.tower, chance=chance,
            result=Result.HIT if hit else Result.MISS, victims=tuple(victims),
        ))

    # Step 5. Support: 养生, 待机 (and its share and guard), natural 好感, guard and general cards.
    for seat in living:
        p, move, led = snap.players[seat], orders[seat], ledger[seat]
        led.favor_gain += FAVOR_REGEN
        if isinstance(move, Heal) and seat not in voided:
            led.hp_gain += acted[seat].heal
        if isinstance(move, Idle):
            extra = GARDEN_IDLE if p.place is Place.GARDEN else 0
            led.hp_gain += IDLE_SELF + extra
            led.favor_gain += IDLE_SELF + extra
            led.guard_hp += IDLE_GUARD
            for mate in _same_place(snap, p, include_self=False):
                ledger[mate].hp_gain += IDLE_SHARE
                ledger[mate].favor_gain += IDLE_SHARE
        led.guard_hp += card_bonus(p, move.cards, Effect.GUARD_HP)
        led.guard_favor += card_bonus(p, move.cards, Effect.GUARD_FAVOR)
        for mate in _same_place(snap, p, include_self=True):
            ledger[mate].hp_gain += card_bonus(p, move.cards, Effect.PALACE_HP)
            ledger[mate].favor_gain += card_bonus(p, move.cards, Effect.PALACE_FAVOR)
        # Effect.MEAL_FAVOR (送膳) has nothing to act on in D: there is no 送膳.

    # Step 6. Landing: everything at once, then the caps, then who is down; then 战后回血.
    players = list(snap.players)
    landed: list[Event] = []
    for seat in living:
        p, led, move = snap.players[seat], ledger[seat], orders[seat]
        taken_hp = max(0, led.hp_in - led.guard_hp)
        taken_favor = max(0, led.favor_in - led.guard_favor)
        hp = min(p.hp_max, p.hp + led.hp_gain - taken_hp - led.hp_cost)
        favor = min(START_FAVOR, p.favor + led.favor_gain - taken_favor - led.favor_cost)
        down = hp <= 0 or favor <= 0
        if not down:  # 战后回血: only for whoever is still standing once everything has landed
            hp = min(p.hp_max, hp + card_bonus(p, move.cards, Effect.AFTER_HEAL))
        # Step 7. Arrivals: 移动 lands her at the new place for the next round.
        place = move.place if isinstance(move, Move) and seat not in voided else p.place
        ev = acted[seat]
        players[seat] = p.model_copy(update={
            "hp": hp, "favor": favor, "alive": not down, "down_round": rnd if down else None, "place": place,
            "heal_streak": p.heal_streak + 1 if seat in resting else 0,
            "dealt_hp": p.dealt_hp + (ev.damage if ev.action in ("poison", "assassinate") else 0),
            "dealt_favor": p.dealt_favor + (ev.damage if ev.action == "frame" else 0),
            "taken": p.taken + taken_hp + taken_favor,
        })
        landed.append(PlayerLanded(
            round=rnd, seat=seat, hp_before=p.hp, hp_after=hp, favor_before=p.favor, favor_after=favor,
            taken_hp=taken_hp, taken_favor=taken_favor,
            absorbed=led.hp_in - taken_hp + led.favor_in - taken_favor, down=down, place_after=place,
        ))
    opponents = list(snap.opponents)
    for o in snap.living_opponents():
        hp = o.hp - to_opp_hp[o.index]
        favor = None if o.favor is None else o.favor - to_opp_favor[o.index]
        down = hp <= 0 or (favor is not None and favor <= 0)
        opponents[o.index] = o.model_copy(update={
            "hp": hp, "favor": favor, "alive": not down, "down_round": rnd if down else None,
        })
        landed.append(OpponentLanded(
            round=rnd, opponent=o.index, hp_before=o.hp, hp_after=hp, favor_before=o.favor,
            favor_after=favor, down=down,
        ))

    # Step 8. Cards: played cards freeze, discards return; survivors refill to 5 for next round.
    cleared = not any(o.alive for o in opponents)
    wiped = not any(p.alive for p in players)
    over = cleared or wiped or rnd >= ROUND_LIMIT
    for seat in living:
        p = players[seat]
        deck = p.deck if seat in voided else spend(p.deck, orders[seat].cards, rnd)
        if p.alive and not over:
            deck = refill(deck, rnd + 1, rng)
        players[seat] = p.model_copy(update={"deck": deck})

    # Step 9. The end: all opponents down = clear (even if the last player fell with them);
    # else all players down = wipe; else the round limit.
    nxt = snap.model_copy(update={"players": tuple(players), "opponents": tuple(opponents)})
    events: list[Event] = [*(acted[s] for s in living), *opp_events, *landed]
    if not over:
        return Transition(state=nxt.model_copy(update={"round": rnd + 1}), events=tuple(events))
    reason = "clear" if cleared else "wipe" if wiped else "limit"
    final = nxt.model_copy(update={"over": True, "reason": reason, "cleared": cleared})
    events.append(GameEnded(round=rnd, reason=reason, cleared=cleared, rounds=rnd, scores=seat_scores(final)))
    return Transition(state=final, events=tuple(events), results=(outcome(final),))


def _tops(snap: CoopState, plan: bosses.BossAction) -> set[int]:
    assert plan.attack is not None
    """Who takes the full blow: the single target, or everyone tied on top of the snapshot
    (气血 for 下毒, 好感 for 诬告) in a group attack — the base rule 「最高者 −2，其余各 −1」."""
    if plan.target is not None:
        return {plan.target}
    living = snap.living_players()
    key = (lambda p: p.favor) if plan.attack is Attack.FRAME else (lambda p: p.hp)
    top = max(key(p) for p in living)
    return {p.seat for p in living if key(p) == top}


def _opponent_damage(o: OpponentState, plan: bosses.BossAction, top: bool, resting: bool) -> int:
    """One victim's share: the top takes the full blow, others −1; 养生 halves 下毒 and cuts
    暗杀 to −1 (DECISIONS #6)."""
    assert plan.attack is not None
    spec = bosses.SPECS[o.key]
    amount = DAMAGE[plan.attack] if top else GROUP_OTHERS
    if plan.attack is Attack.FRAME and plan.tower:
        amount += TOWER_FRAME
    if plan.attack is Attack.ASSASSINATE:
        amount = ASSASSINATE_ON_RESTING if resting else amount + spec.assassinate_bonus
    if plan.attack is Attack.POISON and resting:
        amount //= 2
    return amount


def _same_place(snap: CoopState, p: PlayerState, *, include_self: bool) -> list[int]:
    """Living teammates at her snapshot place (同宫), optionally herself."""
    return [q.seat for q in snap.living_players() if q.place is p.place and (include_self or q.seat != p.seat)]
