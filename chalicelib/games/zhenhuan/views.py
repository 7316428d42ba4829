"""One view model for everyone: the public board, the viewer's own secrets, and (storyteller, or anyone
after the end) the grimoire. `report` filters a transition's events with the same audience rules."""

from __future__ import annotations

from collections.abc import Sequence

from pydantic import BaseModel

from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.zhenhuan.board import Board
from chalicelib.games.zhenhuan.enums import Phase
from chalicelib.games.zhenhuan.events import (
    PUBLIC_KINDS,
    Event,
    InfoEvent,
    TellEvent,
    YouAreEvent,
    storyteller_log,
    visible_to,
)
from chalicelib.games.zhenhuan.grimoire import Grimoire, grimoire
from chalicelib.games.zhenhuan.roles import ROLES, TRAVELLER, Alignment, RoleKey
from chalicelib.games.zhenhuan.state import Frozen, GameState
from chalicelib.games.zhenhuan.votes import exile_threshold, may_still_vote, open_nomination, threshold


class PublicSeat(Frozen):
    seat: int
    name: str
    alive: bool
    ghost_vote: bool
    """Dead and still holding the ghost vote."""
    traveller: str | None = None
    """A traveller's public identity."""
    traveller_ability: str = ""
    departed: bool = False


class PublicNomination(Frozen):
    nominator: int
    nominee: int
    exile: bool
    voters: tuple[int, ...] | None
    """The raised hands in circle order, clockwise from the nominee (she is last)."""
    count: int | None
    threshold: int | None


class PublicHand(Frozen):
    """A hand as the table saw it go up (whether it was a ghost vote shows at the count)."""

    seat: int
    yes: bool


class PublicVote(Frozen):
    """The open vote: hands so far (public), who may still vote, the clock's length."""

    nominee: int
    seconds: int
    hands: tuple[PublicHand, ...]
    waiting: tuple[int, ...]


class PublicDay(Frozen):
    number: int
    nominations: tuple[PublicNomination, ...]
    vote: PublicVote | None
    block: int | None
    block_votes: int
    threshold: int
    exile_threshold: int
    executed: int | None


class Me(Frozen):
    seat: int
    role: RoleKey | None
    role_name: str | None
    ability: str | None
    """Her role's ability text (the seed's words), or a traveller's chosen one."""
    alignment: Alignment | None
    info: tuple[InfoEvent | YouAreEvent | TellEvent, ...]


class ZhenhuanView(Frozen):
    viewer: ViewerRole
    phase: Phase
    number: int
    seats: tuple[PublicSeat, ...]
    day: PublicDay | None
    me: Me | None
    grimoire: Grimoire | None
    log: tuple[Event, ...]
    winner: Alignment | None
    end_reason: str | None


def view(state: GameState, viewer: Viewer) -> ZhenhuanView:
    over = state.phase is Phase.OVER
    seat = viewer.seat if viewer.role is ViewerRole.PLAYER else None
    secret = viewer.is_host or over
    # the storyteller reads her book (each thing said once); players the public lines, as they came
    log = storyteller_log(state.log) if secret else tuple(e for e in state.log if e.kind in PUBLIC_KINDS)
    # built from validated parts: construct, do not revalidate the whole log on every read
    return ZhenhuanView.model_construct(
        viewer=viewer.role,
        phase=state.phase,
        number=state.night_no,
        seats=_public_seats(state),
        day=_public_day(state),
        me=_me(state, seat) if seat is not None and 0 <= seat < len(state.seats) else None,
        grimoire=grimoire(state) if secret else None,
        log=log,
        winner=state.winner,
        end_reason=state.end_reason,
    )


def report(state: GameState, events: Sequence[Event], viewer: Viewer) -> list[BaseModel]:
    over = state.phase is Phase.OVER
    seat = viewer.seat if viewer.role is ViewerRole.PLAYER else None
    return [e for e in events if visible_to(e, host=viewer.is_host, seat=seat, over=over)]


def _public_seats(state: GameState) -> tuple[PublicSeat, ...]:
    hidden = set(state.unannounced)
    revived = set(state.unannounced_revivals)
    started = state.phase is not Phase.SETUP
    return tuple(
        PublicSeat(
            seat=s.seat,
            name=s.name,
            alive=(s.alive and s.seat not in revived) or s.seat in hidden,
            # as the public last saw her: a night revival shows at dawn, ghost vote and all
            ghost_vote=(not s.alive or s.seat in revived) and not s.departed and s.seat not in hidden and s.ghost_vote,
            traveller=s.traveller_identity if started else None,
            traveller_ability=s.traveller_ability if started else "",
            departed=s.departed,
        )
        for s in state.seats
    )


def _public_day(state: GameState) -> PublicDay | None:
    day = state.day
    if day is None or state.phase is not Phase.DAY:
        return None
    b = Board(state)
    noms = tuple(
        PublicNomination(
            nominator=n.nominator, nominee=n.nominee, exile=n.exile, voters=n.voters,
            count=len(n.voters) if n.voters is not None else None,
            threshold=n.threshold if n.voters is not None else None,
        )
        for n in day.nominations
    )  # fmt: skip
    nom = open_nomination(day)
    vote = None
    if day.clock is not None and nom is not None:
        waiting = tuple(may_still_vote(b))
        vote = PublicVote(nominee=nom.nominee, seconds=day.clock.seconds, hands=tuple(PublicHand(seat=h.seat, yes=h.yes) for h in day.clock.hands), waiting=waiting)
    return PublicDay(
        number=day.number, nominations=noms, vote=vote, block=day.block, block_votes=day.block_votes,
        threshold=threshold(b), exile_threshold=exile_threshold(b), executed=day.executed,
    )  # fmt: skip


def _me(state: GameState, seat: int) -> Me:
    """What the player knows: her role and alignment as last told (「你是」), and every message."""
    s = state.seats[seat]
    mine = tuple(e for e in state.log if isinstance(e, InfoEvent | YouAreEvent | TellEvent) and e.seat == seat)
    told = next((e for e in reversed(mine) if isinstance(e, YouAreEvent)), None)
    if told is None:
        return Me.model_construct(seat=seat, role=None, role_name=None, ability=None, alignment=None, info=mine)
    if told.role == TRAVELLER:
        name, ability = s.traveller_identity or ROLES[TRAVELLER].name, s.traveller_ability or ROLES[TRAVELLER].ability
    else:
        name, ability = ROLES[told.role].name, ROLES[told.role].ability
    return Me.model_construct(
        seat=seat, role=told.role, role_name=name, ability=ability, alignment=told.alignment, info=mine
    )
