"""One view model for everyone: the public board, the viewer's own secrets, and (storyteller, or anyone
after the end) the grimoire. `report` filters a transition's events with the same audience rules."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel

from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.zhenhuan.board import Board
from chalicelib.games.zhenhuan.day import buttons, threshold
from chalicelib.games.zhenhuan.events import PUBLIC_KINDS, Event, InfoEvent, YouAreEvent, visible_to
from chalicelib.games.zhenhuan.night import STEPS, current, order_for
from chalicelib.games.zhenhuan.roles import ROLES
from chalicelib.games.zhenhuan.setup import composition, composition_issues, modifiers_in
from chalicelib.games.zhenhuan.state import (
    Accusation,
    Frozen,
    GameState,
    PendingDeath,
    Phase,
    Proposal,
    Status,
    StatusKind,
    StepRecord,
)
from chalicelib.games.zhenhuan.stepbase import Step

_IMPAIRING = (StatusKind.POISONED, StatusKind.DRUNK, StatusKind.PINNED)


class PublicSeat(Frozen):
    seat: int
    name: str
    alive: bool
    ghost_vote: bool
    """Dead and still holding the ghost vote."""
    traveller: str | None = None
    """A traveller's public identity."""


class PublicNomination(Frozen):
    nominator: int
    nominee: int
    voters: tuple[int, ...] | None
    count: int | None


class PublicDay(Frozen):
    number: int
    nominations: tuple[PublicNomination, ...]
    block: int | None
    block_votes: int
    threshold: int
    executed: int | None


class Me(Frozen):
    seat: int
    role: str | None
    role_name: str | None
    alignment: str | None
    info: tuple[InfoEvent | YouAreEvent, ...]


class GrimSeat(Frozen):
    seat: int
    name: str
    role: str
    role_name: str
    team: str
    alignment: str
    alive: bool
    ghost_vote: bool
    original_role: str | None
    spent: tuple[str, ...]
    link: int | None
    traveller_identity: str | None
    traveller_female: bool
    statuses: tuple[Status, ...]
    dying_tonight: tuple[str, ...]


class SlotView(Frozen):
    label: str
    allowed: tuple[int, ...]
    optional: bool


class StepView(Frozen):
    key: str
    label: str
    actor: int | None
    state: Literal["done", "current", "upcoming"]
    disabled: str | None = None
    impaired: tuple[str, ...] = ()
    slots: tuple[SlotView, ...] = ()
    answer_kind: str | None = None
    hint: str = ""


class NightView(Frozen):
    number: int
    steps: tuple[StepView, ...]
    current: StepView | None
    pending: tuple[PendingDeath, ...]
    dusk_deaths: tuple[int, ...]
    records: tuple[StepRecord, ...]


class ButtonView(Frozen):
    """A day button: `disabled` says why it cannot be used; `impaired` warns it will silently fail."""

    type: str
    by: int | None
    label: str
    disabled: str | None = None
    impaired: str = ""


class Grimoire(Frozen):
    seats: tuple[GrimSeat, ...]
    bluffs: tuple[str, ...]
    composition: dict[str, int]
    composition_issues: tuple[str, ...]
    night: NightView | None
    buttons: tuple[ButtonView, ...]
    proposals: tuple[Proposal, ...]
    reminders: tuple[str, ...]
    accusations: tuple[Accusation, ...]
    proposed_winner: str | None
    empress_ever: bool


class ZhenhuanView(Frozen):
    viewer: Literal["host", "player", "spectator"]
    phase: str
    number: int
    seats: tuple[PublicSeat, ...]
    day: PublicDay | None
    me: Me | None
    grimoire: Grimoire | None
    log: tuple[Event, ...]
    winner: str | None
    end_reason: str | None


def view(state: GameState, viewer: Viewer) -> ZhenhuanView:
    over = state.phase is Phase.OVER
    seat = viewer.seat if viewer.role is ViewerRole.PLAYER else None
    secret = viewer.is_host or over
    log = state.log if secret else tuple(e for e in state.log if e.kind in PUBLIC_KINDS)
    return ZhenhuanView(
        viewer=viewer.role.value,
        phase=state.phase.value,
        number=state.night_no,
        seats=_public_seats(state),
        day=_public_day(state),
        me=_me(state, seat) if seat is not None and 0 <= seat < len(state.seats) else None,
        grimoire=_grimoire(state) if secret else None,
        log=log,
        winner=state.winner.value if state.winner else None,
        end_reason=state.end_reason,
    )


def report(state: GameState, events: Sequence[Event], viewer: Viewer) -> list[BaseModel]:
    over = state.phase is Phase.OVER
    seat = viewer.seat if viewer.role is ViewerRole.PLAYER else None
    return [e for e in events if visible_to(e, host=viewer.is_host, seat=seat, over=over)]


def _public_seats(state: GameState) -> tuple[PublicSeat, ...]:
    hidden = set(state.unannounced)
    revived = set(state.unannounced_revivals)
    return tuple(
        PublicSeat(
            seat=s.seat,
            name=s.name,
            alive=(s.alive and s.seat not in revived) or s.seat in hidden,
            ghost_vote=(not s.alive and s.seat not in hidden and s.ghost_vote) or s.seat in revived,
            traveller=s.traveller_identity if state.phase is not Phase.SETUP else None,
        )
        for s in state.seats
    )


def _public_day(state: GameState) -> PublicDay | None:
    day = state.day
    if day is None:
        return None
    noms = tuple(
        PublicNomination(
            nominator=n.nominator,
            nominee=n.nominee,
            voters=n.voters,
            count=len(n.voters) if n.voters is not None else None,
        )
        for n in day.nominations
    )
    return PublicDay(
        number=day.number,
        nominations=noms,
        block=day.block,
        block_votes=day.block_votes,
        threshold=threshold(Board(state)),
        executed=day.executed,
    )


def _me(state: GameState, seat: int) -> Me:
    s = state.seats[seat]
    started = state.phase is not Phase.SETUP
    mine = tuple(e for e in state.log if isinstance(e, InfoEvent | YouAreEvent) and e.seat == seat)
    return Me(
        seat=seat,
        role=s.role if started else None,
        role_name=ROLES[s.role].name if started else None,
        alignment=s.alignment.value if started else None,
        info=mine,
    )


def _grimoire(state: GameState) -> Grimoire:
    b = Board(state)
    roles = [s.role for s in state.seats]
    night = state.night
    dying: dict[int, list[str]] = {}
    for p in night.pending if night else ():
        dying.setdefault(p.seat, []).append(p.cause)
    seats = tuple(
        GrimSeat(
            seat=s.seat,
            name=s.name,
            role=s.role,
            role_name=ROLES[s.role].name,
            team=ROLES[s.role].team.value,
            alignment=s.alignment.value,
            alive=s.alive,
            ghost_vote=s.ghost_vote,
            original_role=s.original_role,
            spent=tuple(sorted(s.spent)),
            link=s.link,
            traveller_identity=s.traveller_identity,
            traveller_female=s.traveller_female,
            statuses=tuple(st for st in state.statuses if st.seat == s.seat),
            dying_tonight=tuple(dying.get(s.seat, ())),
        )
        for s in state.seats
    )
    day = state.day
    winner = state.proposed_winner
    return Grimoire(
        seats=seats,
        bluffs=state.bluffs,
        composition=composition(len(roles), modifiers=modifiers_in(roles)).as_dict(),
        composition_issues=composition_issues(state),
        night=_night(b) if night is not None and state.phase is Phase.NIGHT else None,
        buttons=_buttons(b) if day is not None and state.phase is Phase.DAY else (),
        proposals=day.proposals if day else (),
        reminders=day.reminders if day else (),
        accusations=day.accusations if day else (),
        proposed_winner=f"{winner[0].value}:{winner[1]}" if winner else None,
        empress_ever=state.empress_ever,
    )


def _buttons(b: Board) -> tuple[ButtonView, ...]:
    return tuple(
        ButtonView(type=kind, by=by, label=label, disabled=why, impaired=impaired)
        for kind, by, label, why, impaired in buttons(b)
    )


def _night(b: Board) -> NightView:
    night = b.night
    steps = order_for(night.number)
    done = {r.step for r in night.records}
    now = current(b)
    items: list[StepView] = []
    current_view: StepView | None = None
    for i, key in enumerate(steps):
        step = STEPS[key]
        if i < night.cursor:
            if key in done:
                items.append(StepView(key=key, label=step.label, actor=None, state="done"))
            continue
        if not step.present(b):
            continue
        is_current = now is not None and now[0] == key and i == night.cursor
        sv = _step_view(b, step, "current" if is_current else "upcoming", detail=is_current)
        items.append(sv)
        if is_current:
            current_view = sv
    return NightView(
        number=night.number,
        steps=tuple(items),
        current=current_view,
        pending=night.pending,
        dusk_deaths=night.dusk_deaths,
        records=night.records,
    )


def _step_view(b: Board, step: Step, state: Literal["current", "upcoming"], *, detail: bool) -> StepView:
    actor = step.actor(b)
    disabled = step.disabled(b, actor)
    impaired = tuple(k.value for k in _IMPAIRING if actor is not None and b.has(actor, k))
    if not detail or disabled is not None:
        return StepView(
            key=step.key, label=step.label, actor=actor, state=state, disabled=disabled, impaired=impaired
        )
    slots = tuple(
        SlotView(label=s.label, allowed=s.allowed, optional=s.optional) for s in step.slots(b, actor)
    )
    return StepView(
        key=step.key,
        label=step.label,
        actor=actor,
        state=state,
        impaired=impaired,
        slots=slots,
        answer_kind=step.info_kind(b),
        hint=step.hint(b, actor),
    )
