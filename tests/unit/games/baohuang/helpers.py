"""Builders for 保皇 scenario states: small hands written as card codes."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chalicelib.core.game import Entrant, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.baohuang.cards import Variant, sort_cards
from chalicelib.games.baohuang.game import GAME
from chalicelib.games.baohuang.model import BaohuangState, Deal, Options, Phase, Solo, Trick

ENTRANTS = [Entrant(seat, f"玩家{seat}") for seat in range(5)]


def rng(step: int = 0, seed: int = 7) -> Rng:
    return Rng.from_int(seed, step)


def new_table(variant: str = "simple", baoliu: bool = False, seed: int = 7) -> BaohuangState:
    return GAME.setup(ENTRANTS, Options(variant=Variant(variant), baoliu=baoliu), rng(0, seed))


def hands_of(*specs: str) -> tuple[tuple[str, ...], ...]:
    """Five hands, each a space-separated list of card codes."""
    assert len(specs) == 5
    return tuple(sort_cards(spec.split()) for spec in specs)


def table(
    *specs: str,
    variant: str = "simple",
    baoliu: bool = False,
    phase: Phase = Phase.PLAY,
    emperor: int | None = 0,
    guard: int | None = 1,
    solo: Solo = Solo.NONE,
    turn: int | None = None,
    trick: tuple[int, str] | None = None,
    auto: Sequence[bool] = (False,) * 5,
    holder: int = 0,
    **deal_fields: Any,
) -> BaohuangState:
    """A table in the middle of deal 1 with the given hands and roles."""
    hands = hands_of(*specs)
    if turn is None and phase is Phase.PLAY:
        turn = emperor
    deal = Deal(
        no=1, dealer=0, holder=holder, dealt=hands, hands=hands, emperor=emperor, guard=guard, solo=solo,
        turn=turn, candidate=holder if phase is Phase.THRONE else None,
        trick=None if trick is None else Trick(seat=trick[0], cards=tuple(trick[1].split())),
        revealed=deal_fields.pop("revealed", solo is Solo.OPEN), **deal_fields,
    )
    return BaohuangState(
        options=Options(variant=Variant(variant), baoliu=baoliu), names=tuple(e.name for e in ENTRANTS),
        phase=phase, deal_no=1, deal=deal, auto=tuple(auto),
    )


def act(state: BaohuangState, seat: int, action: Any, step: int = 1):
    """Check and apply a player's action (the platform's path)."""
    actor = Viewer.player(seat)
    GAME.check(state, actor, action)
    return GAME.apply(state, actor, action, rng(step))


def kinds(transition) -> list[str]:
    return [event.kind for event in transition.events]
