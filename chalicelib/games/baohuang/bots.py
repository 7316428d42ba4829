"""Bots: what a seat does seeing only its own view (`BaohuangView` for `Viewer.player(seat)`).

Two levels (`BotLevel`):

* SIMPLE (简单) is 托管 (DECISIONS 保皇 #8): take the throne unless it would make her a solo (simple:
  she holds the 侍卫 card too; classic: call her lowest triple, and pass with only a four-of-a-face or
  nothing to call), 不声明, lead the cheapest lead, follow with the cheapest legal play or pass
  when none, or when the trick is held by a partner she knows (`view.partners`). The engine's own
  托管 (`auto`) calls the same `simple_throne` / `simple_play` with the same facts her view shows.
* ADVANCED (进阶): a heuristic player (`advanced`).

A bot never sees the state: everything it uses is in the view (her hand, the counts, the trick, the
public log, what she knows of the sides); legal plays are computed from her hand and the trick.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence

from chalicelib.core.game import BotLevel, ViewerRole
from chalicelib.core.rng import Rng
from chalicelib.games.baohuang.actions import Action, NextDeal, Pass, PassThrone, Play, StayHidden, TakeThrone
from chalicelib.games.baohuang.advanced import advanced_action
from chalicelib.games.baohuang.cards import SHIWEI, Variant
from chalicelib.games.baohuang.model import Phase
from chalicelib.games.baohuang.throne import callable_faces
from chalicelib.games.baohuang.views import BaohuangView


def simple_throne(variant: Variant, hand: Sequence[str]) -> TakeThrone | PassThrone:
    """托管 on the throne, from her own hand (her view shows it): take it, unless taking it would make
    her a solo — simple: she holds the 侍卫 card too (she would be her own guard, 暗独保); classic: she
    has no triple to call (a four-of-a-face called is 暗独保). A solo, one against four for ±12 or more,
    is the player's own choice, never what the table does for her when her clock runs out; the seed
    forces nobody into one either ("除非没有能力登基或者有4张同色同点的牌"). With a triple, the lowest is called."""
    if variant is Variant.SIMPLE:
        return PassThrone() if SHIWEI in hand else TakeThrone()
    triples, _ = callable_faces(tuple(hand))
    return TakeThrone(call=triples[0]) if triples else PassThrone()


def simple_play(cheapest: tuple[str, ...] | None, trick_seat: int | None, partners: Collection[int]) -> Play | Pass:
    """托管 in a trick, from what her view shows: her cheapest legal play (`hints[0]`, None when she
    has none), who holds the trick (None: she leads) and the partners she knows."""
    if cheapest is None or (trick_seat is not None and trick_seat in partners):
        return Pass()
    return Play(cards=cheapest)


def simple_action(view: BaohuangView, seat: int) -> Action | None:
    """The SIMPLE bot (托管) for `seat`, or None when it has nothing to do now."""
    match view.phase:
        case Phase.THRONE:
            return simple_throne(view.variant, view.hand) if view.candidate == seat else None
        case Phase.DECLARE:
            return None if seat == view.emperor else StayHidden()
        case Phase.PLAY:
            if view.turn != seat:
                return None
            trick_seat = None if view.trick is None else view.trick.seat
            return simple_play(view.hints[0] if view.hints else None, trick_seat, view.partners)
        case Phase.BETWEEN:
            return None if view.seats[seat].ready else NextDeal()
        case Phase.OVER:
            return None


def decide(view: BaohuangView, seat: int, level: BotLevel, rng: Rng) -> Action | None:
    """What a bot in `seat` does now, from that seat's view only; None = nothing to do.

    Raises:
        ValueError: `view` is not `seat`'s own player view.
    """
    if view.viewer is not ViewerRole.PLAYER or view.seat != seat:
        raise ValueError(f"a bot in seat {seat} must be given that seat's own view")
    if level is BotLevel.SIMPLE:
        return simple_action(view, seat)
    return advanced_action(view, seat, rng)
