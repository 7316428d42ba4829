"""The settlement of one round, every mode, in numbered steps (seed 「同时结算」: 回合初统一快照，命中、
受害者、养生免疫一律按快照判定，伤害与治疗最后一次性落账).

 0. orders                (turn.open_round)         7. healing, bonuses, guards   (court.support)
 1. opponents' plans (D)  (strikes.plan_opponents)  8. everything lands           (landing.land)
 2. own costs             (strikes.pay_costs)       9. falls, kills, stats        (landing.fall)
 3. players' attacks      (strikes.strike_players) 10. cards                      (refresh_cards)
 4. opponents' attacks    (strikes.strike_opponents) 11. the next round or the end (finish)
 5. 送膳 and 圣意          (court.serve_meals)
 6. places' passives      (court.place_passives)

Steps 0–7 read the snapshot and write only to the round's ledger, so their order never changes the
outcome and no seat moves first. Random draws, in this order only: opponents' tactics, players'
rolls (and a tied 暗杀's pick), opponents' rolls, 圣意 ties, card refills by seat, the next 圣意.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chalicelib.core.errors import GameOver
from chalicelib.core.game import Transition
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.court import place_passives, serve_meals, support
from chalicelib.games.shengong.deck import refill, spend
from chalicelib.games.shengong.events import Ended, Event, RoundSettled
from chalicelib.games.shengong.landing import fall, land
from chalicelib.games.shengong.modes import Foes, Mode
from chalicelib.games.shengong.numbers import DECREE_SIZE
from chalicelib.games.shengong.scoring import assign_places, outcome, score
from chalicelib.games.shengong.state import State
from chalicelib.games.shengong.strikes import pay_costs, plan_opponents, strike_opponents, strike_players
from chalicelib.games.shengong.terms import Dim, Reason
from chalicelib.games.shengong.turn import Round, open_round


def settle(mode: Mode, state: State, moves: Mapping[Any, Any], rng: Rng) -> Transition[State, Event]:
    """Resolve one round from the sealed moves (seat -> Action or its JSON; missing seats 待机).

    Raises:
        GameOver: GAME_OVER, the game has already ended.
    """
    if state.over:
        raise GameOver("本局已结束", code="GAME_OVER")
    rnd = open_round(mode, state, moves, rng)
    for step in (plan_opponents, pay_costs, strike_players, strike_opponents, serve_meals, place_passives,
                 support, land, fall):
        step(rnd)
    reason = end_reason(rnd)
    refresh_cards(rnd, over=reason is not None)
    return finish(rnd, reason)


def end_reason(rnd: Round) -> Reason | None:
    """D: every opponent down = 通关 (even if the last player fell with them), else every player down,
    else the round limit. A/B/C: one (or nobody) left, else the round limit (seed: 剩 1 人即止，或打满
    20 回合)."""
    standing = sum(1 for p in rnd.players if p.alive)
    if rnd.mode.foes is Foes.BOSSES:
        if not any(o.alive for o in rnd.opponents):
            return Reason.CLEAR
        if standing == 0:
            return Reason.WIPE
    elif standing <= 1:
        return Reason.LAST_STANDING
    return Reason.LIMIT if rnd.round_no >= rnd.mode.round_limit else None


def refresh_cards(rnd: Round, *, over: bool) -> None:
    """Step 10 (C, D). 玩法C ④: played cards freeze 3 rounds, discards go back at once; ② survivors
    refill to 5 for the next round (none once the game is over)."""
    for s, o in rnd.orders.items():
        p = rnd.players[s]
        if p.deck is None:
            continue
        deck = spend(p.deck, o.play, rnd.round_no) if o.play is not None else p.deck
        if p.alive and not over:
            deck = refill(deck, rnd.round_no + 1, rnd.rng)
        rnd.players[s] = p.model_copy(update={"deck": deck})


def draw_decree(rng: Rng) -> tuple[Dim, ...]:
    """每轮圣意随机 2 维（容/宠/才/权）: two distinct dimensions, shown in 容宠才权 order."""
    order = (Dim.LOOKS, Dim.FAVOR, Dim.TALENT, Dim.POWER)
    picked = set(rng.sample(order, DECREE_SIZE))
    return tuple(d for d in order if d in picked)


def finish(rnd: Round, reason: Reason | None) -> Transition[State, Event]:
    """Step 11. The next round (A/B/C: and its 圣意), or the end: survivors placed (A/B/C), scores."""
    r, mode = rnd.round_no, rnd.mode
    nxt = rnd.snap.model_copy(update={"players": tuple(rnd.players), "opponents": tuple(rnd.opponents)})
    if reason is None:
        decree = draw_decree(rnd.rng) if mode.foes is Foes.SEATS else ()
        rnd.events.append(RoundSettled(round=r, next_round=r + 1, next_decree=decree))
        return Transition(state=nxt.model_copy(update={"round": r + 1, "decree": decree}), events=tuple(rnd.events))
    players = list(nxt.players)
    if mode.foes is Foes.SEATS:
        for s, place in assign_places((p for p in players if p.alive), 1).items():
            players[s] = players[s].model_copy(update={"placement": place})
    final = nxt.model_copy(update={"players": tuple(players), "over": True, "reason": reason})
    rnd.events.append(RoundSettled(round=r))
    rnd.events.append(Ended(round=r, reason=reason, placements=tuple(p.placement for p in final.players),
                            scores=tuple(score(mode, final, p) for p in final.players)))
    return Transition(state=final, events=tuple(rnd.events), results=(outcome(mode, final),))
