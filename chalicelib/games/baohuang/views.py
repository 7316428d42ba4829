"""What each viewer may see of the table now (`view`), and the replay of the last finished deal.

A player sees her own hand, every seat's card count, the public marks (emperor, revealed guard,
hoe marks, 托管), the trick, the public log of the running deal, what she knows of the sides
(`knowledge`), her legal plays when it is her turn, and the totals. She never sees another hand, nor
the guard's seat before it is revealed (unless she is the guard), nor a hidden solo (unless she is
that emperor). Spectators see the public part only; the host sees everything. A seat's view is all
a bot in that seat is given (`bots`).
"""

from __future__ import annotations

from typing import Any

from chalicelib.core.errors import NotFound
from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.baohuang.cards import SHIWEI, Variant
from chalicelib.games.baohuang.deal import held_seat
from chalicelib.games.baohuang.declare import may_grab
from chalicelib.games.baohuang.knowledge import guard_holder, known_partners, role_of
from chalicelib.games.baohuang.model import (
    SEATS,
    Act,
    BaohuangState,
    Deal,
    DealEnd,
    DealRecord,
    Frozen,
    LogEntry,
    Phase,
    Role,
    Solo,
    TableEnd,
    prev_seat,
)
from chalicelib.games.baohuang.play import hint_cards, legal_plays
from chalicelib.games.baohuang.scoring import OPEN_SOLO
from chalicelib.games.baohuang.throne import callable_list, forced

# What 明独保 stakes, said beside its button: one against four, head place or nothing (scoring.score).
OPEN_SOLO_STAKES = (f"明独保：一人对四家，头名 +{OPEN_SOLO}（四家各 −{OPEN_SOLO // (SEATS - 1)}），"
                    f"不是头名 −{OPEN_SOLO}（四家各 +{OPEN_SOLO // (SEATS - 1)}）；有人造反而四家赢，再翻倍")

HELD_MINE = "你的回合超时，托管替你打完了这一局。本桌在等你：点继续开下一局（不限时）。"
HELD_OTHERS = "{name}超时进入托管，本桌在等她回来点继续。"
"""§15: the table waits between deals for the last person playing, whom the clock put in 托管."""

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
    played: tuple[str, ...] = ()
    """Her latest play in the trick being played (empty: none, or she said 不出 since)."""
    passed: bool = False
    """Her latest word in the trick being played was 不出."""


class TrickView(Frozen):
    seat: int
    cards: tuple[str, ...]
    passes: int


class LastDeal(Frozen):
    """Summary of the last finished deal (its full record: `deal_replay`)."""

    no: int
    reason: DealEnd
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
    my_role: Role | None = None
    """Her role once the emperor is fixed (players only)."""
    partners: tuple[int, ...] = ()
    """Seats she knows to be on her side (players only; see `knowledge`)."""
    candidate: int | None = None
    throne_offers: int = 0
    must_take: bool = False
    callable: tuple[str, ...] = ()
    """Classic throne offer to the viewer: faces she may call (three or four copies)."""
    can_open_solo: bool = False
    open_solo_stakes: str | None = None
    """With `can_open_solo`: what 明独保 stakes, in words for the button's side (DECISIONS 保皇 #5)."""
    no_call: str | None = None
    """Classic throne offer with no face to call: why 登基 is closed to her and what is left."""
    yield_to: int | None = None
    """The throne offered to the viewer: the seat a 让位 passes it to (her 上家)."""
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
    last_trick: TrickView | None = None
    """The trick last won in this deal: who took it, with what."""
    out: tuple[int, ...] = ()
    log: tuple[LogEntry, ...] = ()
    hints: tuple[tuple[str, ...], ...] = ()
    """Her turn: her legal plays as concrete cards (可出牌型提示), cheapest first, at most 50."""
    hints_total: int = 0
    can_pass: bool = False
    last_deal: LastDeal | None = None
    over_reason: TableEnd | None = None
    last_player: bool = False
    """She is the only person still playing (every other seat in 托管 or a bot's): her 托管 now would end
    the table after this deal (§15), so the app asks first. Not when another person is in the 托管
    the clock put her in: the table would wait for that one."""
    held_note: str = ""
    """Between deals, when the table waits (with no clock) for the last person playing, whom the turn
    clock put in 托管 (§15): what it waits for, said to her or to everyone else; "" otherwise."""


def view(state: BaohuangState, viewer: Viewer) -> BaohuangView:
    """The table as `viewer` may see it."""
    deal = state.deal
    host = viewer.is_host
    me = viewer.seat if viewer.role is ViewerRole.PLAYER else None
    fields: dict[str, Any] = {}
    if me is not None and not state.auto[me]:
        asked = state.model_copy(update={"auto": tuple(a or s == me for s, a in enumerate(state.auto))})
        fields["last_player"] = (all(asked.auto[s] or state.bots[s] for s in range(SEATS))
                                 and held_seat(asked) is None)
    held = held_seat(state) if state.phase is Phase.BETWEEN else None
    if held is not None and not state.ready[held]:
        fields["held_note"] = (HELD_MINE if me == held else HELD_OTHERS.format(name=state.names[held]))
    guard_seen: int | None = None
    if deal is not None:
        holder = guard_holder(deal)
        if holder is not None and (host or deal.revealed or me == holder):
            guard_seen = holder
        solo_seen: Solo | None = None
        if deal.emperor is not None:
            if deal.solo is Solo.OPEN or host or deal.revealed or me == deal.emperor:
                solo_seen = deal.solo
            elif me is not None and me == deal.guard:
                # Her partner knows there is no solo. A spectator (me None) must not match a 暗独保's
                # guard, which is None too: "none" shown only in a solo would give the solo away.
                solo_seen = Solo.NONE
        fields.update(
            dealer=deal.dealer, candidate=deal.candidate, throne_offers=deal.offers,
            must_take=forced(state) and state.phase is Phase.THRONE,
            emperor=deal.emperor, solo=solo_seen, called=deal.called, guard=guard_seen,
            guard_revealed=deal.revealed, open_guard=deal.open_guard, rebels=deal.rebels,
            turn=deal.turn if state.phase is Phase.PLAY else None, out=deal.out, log=deal.log,
            trick=None if deal.trick is None else TrickView(seat=deal.trick.seat, cards=deal.trick.cards,
                                                           passes=deal.trick.passes),
            last_trick=_last_trick(deal),
        )
        if host:
            fields["hands"] = deal.hands
        if me is not None:
            hand = deal.hands[me]
            fields.update(hand=hand, my_role=role_of(deal, me),
                          partners=tuple(sorted(known_partners(deal, me))))
            if state.phase is Phase.THRONE and deal.candidate == me:
                fields["yield_to"] = prev_seat(me)
                if state.options.variant is Variant.CLASSIC:
                    fields.update(callable=callable_list(hand), can_open_solo=True)
                    if not fields["callable"]:
                        fields["no_call"] = ("你手中没有三张同花色同点数的牌，无牌可叫，不能叫牌登基：可明独保"
                                             + ("" if fields.get("must_take") else "，或让位") + "。")
                else:
                    fields["can_open_solo"] = SHIWEI in hand
                if fields["can_open_solo"]:
                    fields["open_solo_stakes"] = OPEN_SOLO_STAKES
            if state.phase is Phase.DECLARE:
                fields["can_grab"] = may_grab(state, me)
            if state.phase is Phase.PLAY and deal.turn == me:
                plays = legal_plays(state, me)
                fields.update(hints=tuple(hint_cards(deal, me, plays[:HINT_LIMIT])), hints_total=len(plays),
                              can_pass=deal.trick is not None)
    words = _trick_words(deal) if deal is not None and state.phase is Phase.PLAY else {}
    seats = tuple(
        SeatView(
            seat=s, name=state.names[s], cards=len(deal.hands[s]) if deal else 0, total=state.totals[s],
            wins=state.wins[s], auto=state.auto[s], ready=state.ready[s],
            place=(deal.out.index(s) + 1) if deal and s in deal.out else None,
            emperor=deal is not None and deal.emperor == s, guard=guard_seen == s and deal is not None
            and deal.emperor != s, rebel=deal is not None and s in deal.rebels,
            played=words[s].cards if s in words and words[s].act is Act.PLAY else (),
            passed=s in words and words[s].act is Act.PASS,
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


def _last_trick(deal: Deal) -> TrickView | None:
    """The trick last won: the last play before the trick now being played began."""
    won = next((e for e in reversed(deal.log[:deal.trick_from]) if e.act is Act.PLAY), None)
    return None if won is None else TrickView(seat=won.seat, cards=won.cards, passes=0)


def _trick_words(deal: Deal) -> dict[int, LogEntry]:
    """Each seat's latest play or 不出 in the trick being played."""
    return {e.seat: e for e in deal.log[deal.trick_from:] if e.act in (Act.PLAY, Act.PASS)}


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
