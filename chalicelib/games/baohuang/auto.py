"""托管: the loop that keeps acting for seats in 托管 until a human must act.

DECISIONS 保皇 #8: "on expiry the seat goes to 托管 (auto-play: the cheapest legal play, or pass
when the partner holds the trick) until the player acts again." A seat in 托管 plays as the SIMPLE
bot does (`bots.simple_throne`, `bots.simple_play`), fed with exactly the facts her own view shows
(her hand, her first hint, the trick's holder, the partners she knows), so she uses only
what that seat knows. The sealed
declaration settles at once (everyone 不声明) when every non-emperor is in 托管; between deals, seats
in 托管 are ready.
"""

from __future__ import annotations

from chalicelib.core.rng import Rng
from chalicelib.games.baohuang import declare, play, throne
from chalicelib.games.baohuang.actions import Play, TakeThrone
from chalicelib.games.baohuang.bots import simple_play, simple_throne
from chalicelib.games.baohuang.deal import start_deal
from chalicelib.games.baohuang.knowledge import known_partners
from chalicelib.games.baohuang.model import SEATS, Phase
from chalicelib.games.baohuang.step import Step

MAX_AUTO_STEPS = 100_000
"""Safety bound for one transition (a whole deal of five 托管 seats takes a few hundred)."""


def act_for(step: Step, seat: int, rng: Rng) -> None:
    """`seat` (in 托管, to act now) does what the SIMPLE bot does, from the facts her view shows."""
    state, deal = step.state, step.deal
    if state.phase is Phase.THRONE:
        choice = simple_throne(state.options.variant, deal.hands[seat])
        if isinstance(choice, TakeThrone):
            throne.check_take(state, seat, choice)
            throne.take(step, seat, choice, auto=True)
        else:
            throne.check_pass(state)
            throne.pass_throne(step, seat, rng, auto=True)
        return
    hints = play.hint_cards(deal, seat, play.legal_plays(state, seat)[:1])
    trick_seat = None if deal.trick is None else deal.trick.seat
    move = simple_play(hints[0] if hints else None, trick_seat, known_partners(deal, seat))
    if isinstance(move, Play):
        play.play(step, seat, move.cards, play.check_play(state, seat, move), auto=True)
    else:
        play.check_pass(state, seat)
        play.pass_turn(step, seat, auto=True)


def run(step: Step, rng: Rng) -> None:
    """Keep acting for 托管 seats until a human must act or the table is over."""
    for _ in range(MAX_AUTO_STEPS):
        state = step.state
        deal = state.deal
        if state.phase is Phase.THRONE and deal is not None and deal.candidate is not None:
            if not state.auto[deal.candidate]:
                return
            act_for(step, deal.candidate, rng)
        elif state.phase is Phase.DECLARE and deal is not None:
            if any(not state.auto[s] for s in range(SEATS) if s != deal.emperor):
                return
            declare.settle(step, {})
        elif state.phase is Phase.PLAY and deal is not None and deal.turn is not None:
            if not state.auto[deal.turn]:
                return
            act_for(step, deal.turn, rng)
        elif state.phase is Phase.BETWEEN and all(state.ready):
            start_deal(step, rng)
        else:
            return
    raise RuntimeError("托管 loop did not settle")
