"""托管: what a seat does while the engine plays for it, and the loop that keeps playing.

DECISIONS 保皇 #8: "on expiry the seat goes to 托管 (auto-play: the cheapest legal play, or pass
when the partner holds the trick) until the player acts again."

A seat in 托管 uses only what that seat knows (`known_partners`):
* the guard always knows her partner (the emperor);
* the emperor knows her guard once the guard is revealed; alone (独保) she has no partner;
* a commoner knows her partners once the partnership is public (guard revealed, or the solo known).
Throne: take it (see `throne.auto_choice`). Declaration: 不声明. Between deals: ready.
"""

from __future__ import annotations

from chalicelib.core.rng import Rng
from chalicelib.games.baohuang import declare, play, throne
from chalicelib.games.baohuang.actions import Pass, Play, TakeThrone
from chalicelib.games.baohuang.cards import counts, lowest_rank
from chalicelib.games.baohuang.combos import follows, leads, pick
from chalicelib.games.baohuang.deal import start_deal
from chalicelib.games.baohuang.model import SEATS, BaohuangState, Deal, Phase, Solo
from chalicelib.games.baohuang.step import Step

MAX_AUTO_STEPS = 100_000
"""Safety bound for one transition (a whole deal of five 托管 seats takes a few hundred)."""


def known_partners(deal: Deal, seat: int) -> frozenset[int]:
    """The seats `seat` knows to be on her side."""
    emperor = deal.emperor
    if emperor is None:
        return frozenset()
    others = frozenset(s for s in range(SEATS) if s != emperor and s != seat)
    if deal.solo is not Solo.NONE:
        if seat == emperor or not deal.revealed:
            return frozenset()
        return others
    if seat == deal.guard:
        return frozenset({emperor})
    if not deal.revealed:
        return frozenset()
    if seat == emperor:
        return frozenset({deal.guard}) if deal.guard is not None else frozenset()
    return others - {deal.guard}


def choose_play(state: BaohuangState, seat: int) -> Play | Pass:
    """The 托管 move of `seat`, whose turn it is."""
    deal = state.deal
    assert deal is not None
    hand = deal.hands[seat]
    lo, baoliu = lowest_rank(state.options.variant), state.options.baoliu
    prev = play.top(deal)
    if prev is None:
        combo = leads(counts(hand), lo, baoliu)[0]
    else:
        if deal.trick is not None and deal.trick.seat in known_partners(deal, seat):
            return Pass()
        options = follows(counts(hand), lo, prev, baoliu)
        if not options:
            return Pass()
        combo = options[0]
    return Play(cards=pick(hand, combo, play.marked(deal)))


def set_auto(step: Step, seat: int, on: bool) -> None:
    from chalicelib.games.baohuang.events import AutoChanged

    if step.state.auto[seat] == on:
        return
    step.set(auto=tuple(on if s == seat else a for s, a in enumerate(step.state.auto)))
    step.emit(AutoChanged(seat=seat, on=on))


def run(step: Step, rng: Rng) -> None:
    """Keep acting for 托管 seats until a human must act or the table is over."""
    for _ in range(MAX_AUTO_STEPS):
        state = step.state
        deal = state.deal
        if state.phase is Phase.THRONE and deal is not None and deal.candidate is not None:
            seat = deal.candidate
            if not state.auto[seat]:
                return
            choice = throne.auto_choice(state, seat)
            if isinstance(choice, TakeThrone):
                throne.take(step, seat, choice, auto=True)
            else:
                throne.pass_throne(step, seat, rng, auto=True)
        elif state.phase is Phase.DECLARE and deal is not None:
            if any(not state.auto[s] for s in range(SEATS) if s != deal.emperor):
                return
            declare.settle(step, {})
        elif state.phase is Phase.PLAY and deal is not None and deal.turn is not None:
            seat = deal.turn
            if not state.auto[seat]:
                return
            move = choose_play(state, seat)
            if isinstance(move, Play):
                combo = play.check_play(state, seat, move)
                play.play(step, seat, move.cards, combo, auto=True)
            else:
                play.pass_turn(step, seat, auto=True)
        elif state.phase is Phase.BETWEEN and all(state.ready):
            start_deal(step, rng)
        else:
            return
    raise RuntimeError("托管 loop did not settle")
