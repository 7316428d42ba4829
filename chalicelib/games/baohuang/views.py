"""What each viewer may see: `view` (the table now) and `report` (one transition's events).

A player sees her own hand, every seat's card count, the public marks (emperor, revealed guard,
hoe marks, 托管), the trick, the public log of the running deal, her hints when it is her turn, and
the totals. She never sees another hand, nor the guard's seat before it is revealed (unless she is
the guard), nor a hidden solo (unless she is that emperor). Spectators see the public part only; the
host sees everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chalicelib.core.errors import NotFound
from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.baohuang.cards import SHIWEI, Variant
from chalicelib.games.baohuang.declare import grab_eligible
from chalicelib.games.baohuang.events import PRIVATE
from chalicelib.games.baohuang.model import (
    SEATS,
    BaohuangState,
    Deal,
    DealRecord,
    Frozen,
    LogEntry,
    Phase,
    Solo,
)
from chalicelib.games.baohuang.play import hint_cards, legal_plays
from chalicelib.games.baohuang.throne import callable_faces, forced

HINT_LIMIT = 50
"""The view lists at most this many hints (cheapest first); `hints_total` counts them all."""


class SeatView(Frozen):
    seat: int
    name: str
    cards: int
    total: int
    wins: int
    auto: bool
    ready: bool
    place: int | None = None
    emperor: bool = False
    guard: bool = False
    rebel: bool = False


class TrickView(Frozen):
    seat: int
    cards: tuple[str, ...]
    passes: int


class LastDeal(Frozen):
    """Summary of the last finished deal (its full record: `deal_replay`)."""

    no: int
    reason: str
    places: tuple[int, ...]
    scores: tuple[int, ...]
    multiplier: int
    emperor: int | None
    guard: int | None
    solo: Solo
    called: str | None
    open_guard: bool
    rebels: tuple[int, ...]
    grabbed: bool


class BaohuangView(Frozen):
    viewer: ViewerRole
    seat: int | None
    variant: Variant
    baoliu: bool
    turn_seconds: int
    phase: Phase
    deal_no: int
    seats: tuple[SeatView, ...]
    dealer: int | None = None
    hand: tuple[str, ...] = ()
    hands: tuple[tuple[str, ...], ...] | None = None
    """Host only: every hand."""
    my_role: str | None = None
    """"emperor", "guard" or "commoner" once the emperor is fixed (players only)."""
    candidate: int | None = None
    throne_offers: int = 0
    must_take: bool = False
    callable: tuple[str, ...] = ()
    """Classic throne offer to the viewer: faces she may call (three or four copies)."""
    can_open_solo: bool = False
    emperor: int | None = None
    solo: Solo | None = None
    """Known to the viewer: "open" for all; "hidden" for that emperor, the host, or once revealed."""
    called: str | None = None
    guard: int | None = None
    """The guard's seat (the emperor's own in a solo) if the viewer may know it."""
    guard_revealed: bool = False
    open_guard: bool = False
    rebels: tuple[int, ...] = ()
    can_grab: bool = False
    turn: int | None = None
    trick: TrickView | None = None
    out: tuple[int, ...] = ()
    log: tuple[LogEntry, ...] = ()
    hints: tuple[tuple[str, ...], ...] = ()
    hints_total: int = 0
    can_pass: bool = False
    last_deal: LastDeal | None = None
    over_reason: str | None = None


def guard_holder(deal: Deal) -> int | None:
    """Who holds the guard card: the guard, or the emperor herself in a solo."""
    return deal.guard if deal.guard is not None else deal.emperor


def _role(deal: Deal, seat: int) -> str | None:
    if deal.emperor is None:
        return None
    if seat == deal.emperor:
        return "emperor"
    return "guard" if seat == deal.guard else "commoner"


def view(state: BaohuangState, viewer: Viewer) -> BaohuangView:
    deal = state.deal
    host = viewer.is_host
    me = viewer.seat if viewer.role is ViewerRole.PLAYER else None
    fields: dict[str, Any] = {}
    guard_seen: int | None = None
    if deal is not None:
        holder = guard_holder(deal)
        if holder is not None and (host or deal.revealed or me == holder):
            guard_seen = holder
        solo_seen = None
        if deal.emperor is not None:
            if deal.solo is Solo.OPEN or host or deal.revealed or me == deal.emperor:
                solo_seen = deal.solo
            elif me == deal.guard:
                solo_seen = Solo.NONE
        fields.update(
            dealer=deal.dealer, candidate=deal.candidate, throne_offers=deal.offers,
            must_take=forced(state) and state.phase is Phase.THRONE,
            emperor=deal.emperor, solo=solo_seen, called=deal.called, guard=guard_seen,
            guard_revealed=deal.revealed, open_guard=deal.open_guard, rebels=deal.rebels,
            turn=deal.turn if state.phase is Phase.PLAY else None, out=deal.out, log=deal.log,
            trick=None if deal.trick is None else TrickView(seat=deal.trick.seat, cards=deal.trick.cards,
                                                           passes=deal.trick.passes),
        )
        if host:
            fields["hands"] = deal.hands
        if me is not None:
            hand = deal.hands[me]
            fields.update(hand=hand, my_role=_role(deal, me))
            if state.phase is Phase.THRONE and deal.candidate == me:
                if state.options.variant is Variant.CLASSIC:
                    triples, quads = callable_faces(hand)
                    fields.update(callable=tuple(triples + quads), can_open_solo=True)
                else:
                    fields["can_open_solo"] = SHIWEI in hand
            if state.phase is Phase.DECLARE and state.options.variant is Variant.CLASSIC:
                fields["can_grab"] = (me != deal.emperor and deal.solo is not Solo.OPEN
                                      and grab_eligible(hand))
            if state.phase is Phase.PLAY and deal.turn == me:
                fields.update(hints=tuple(hint_cards(state, me, HINT_LIMIT)),
                              hints_total=len(legal_plays(state, me)), can_pass=deal.trick is not None)
    seats = tuple(
        SeatView(
            seat=s, name=state.names[s], cards=len(deal.hands[s]) if deal else 0, total=state.totals[s],
            wins=state.wins[s], auto=state.auto[s], ready=state.ready[s],
            place=(deal.out.index(s) + 1) if deal and s in deal.out else None,
            emperor=deal is not None and deal.emperor == s, guard=guard_seen == s and deal is not None
            and deal.emperor != s, rebel=deal is not None and s in deal.rebels,
        )
        for s in range(SEATS)
    )
    last = state.last
    last_deal = None if last is None else LastDeal(
        no=last.no, reason=last.reason, places=last.places, scores=last.scores, multiplier=last.multiplier,
        emperor=last.emperor, guard=last.guard, solo=last.solo, called=last.called,
        open_guard=last.open_guard, rebels=last.rebels, grabbed=last.grabbed,
    )
    return BaohuangView(
        viewer=viewer.role, seat=me, variant=state.options.variant, baoliu=state.options.baoliu,
        turn_seconds=state.options.turn_seconds, phase=state.phase, deal_no=state.deal_no, seats=seats,
        last_deal=last_deal, over_reason=state.over_reason, **fields,
    )


def report(state: BaohuangState, events: Sequence[Any], viewer: Viewer) -> list[Any]:
    """The events of one transition this viewer may see (private ones only to their seat and the host)."""
    if viewer.is_host:
        return list(events)
    me = viewer.seat if viewer.role is ViewerRole.PLAYER else None
    return [event for event in events if not isinstance(event, PRIVATE) or event.seat == me]


def deal_replay(state: BaohuangState, deal_no: int) -> DealRecord:
    """The full record of a finished deal (hands as dealt, every move, roles, scores).

    The state keeps the last finished deal; every finished deal's record also travels in its
    `deal_ended` event, which the room stores.

    Raises:
        NotFound: the deal is not finished or is older than the last one.
    """
    if state.last is not None and state.last.no == deal_no:
        return state.last
    raise NotFound(f"没有第{deal_no}局的回放", code="NO_REPLAY")
