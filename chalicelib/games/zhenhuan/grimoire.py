"""The storyteller's grimoire view: every seat's truth with statuses, reminder tokens and notes, the
night plan with prompts, the true answer and (for a poisoned or drunk actor) a suggested false one,
the day's buttons, proposals and the proposed end. Nobody else sees any of it until the game ends."""

from __future__ import annotations

from chalicelib.games.zhenhuan.board import Board
from chalicelib.games.zhenhuan.day import buttons
from chalicelib.games.zhenhuan.enums import (
    Ability,
    AnswerKind,
    ButtonKind,
    DeathCause,
    Phase,
    StatusKind,
    StepKey,
    StepState,
)
from chalicelib.games.zhenhuan.night import STEPS, current, order_for
from chalicelib.games.zhenhuan.roles import ROLES, Alignment, RoleKey, Team
from chalicelib.games.zhenhuan.setup import composition, composition_issues, modifiers_in
from chalicelib.games.zhenhuan.state import (
    Accusation,
    Alert,
    DayState,
    EndProposal,
    Frozen,
    GameState,
    NightDeath,
    Owed,
    Proposal,
    Reminder,
    Status,
    StepRecord,
)
from chalicelib.games.zhenhuan.stepbase import Step, why_not

_IMPAIRING = (StatusKind.POISONED, StatusKind.DRUNK, StatusKind.PINNED)


class GrimSeat(Frozen):
    seat: int
    name: str
    role: RoleKey
    role_name: str
    team: Team
    alignment: Alignment
    alive: bool
    ghost_vote: bool
    original_role: RoleKey | None
    original_role_name: str | None = None
    """The role before her latest change, by name (the end's reveal: 浣碧 who became 宠妃)."""
    spent: tuple[Ability, ...]
    link: int | None
    traveller_identity: str | None
    traveller_ability: str
    traveller_female: bool
    departed: bool
    statuses: tuple[Status, ...]
    died_tonight: tuple[DeathCause, ...]
    reminders: tuple[Reminder, ...]
    note: str


class GreyedSeat(Frozen):
    seat: int
    reason: str


class SlotView(Frozen):
    label: str
    allowed: tuple[int, ...]
    optional: bool
    greyed: tuple[GreyedSeat, ...] = ()
    """Choosable only with `force` (the storyteller's logged override)."""


class StepView(Frozen):
    key: StepKey
    label: str
    prompt: str = ""
    actor: int | None
    state: StepState
    passed: bool = False
    """Done by passing it: 「重新打开」 may reopen it tonight."""
    disabled: str | None = None
    impaired: tuple[StatusKind, ...] = ()
    slots: tuple[SlotView, ...] = ()
    answer_kind: AnswerKind | None = None
    hint: str = ""
    """The true answer, as far as it is known before the targets."""
    suggestion: str | None = None
    """The suggested false answer (the actor is poisoned or drunk): take it with `use_suggestion`."""


class NightView(Frozen):
    number: int
    steps: tuple[StepView, ...]
    current: StepView | None
    deaths: tuple[NightDeath, ...]
    dusk_deaths: tuple[int, ...]
    records: tuple[StepRecord, ...]


class ButtonView(Frozen):
    """A day button: `disabled` says why it cannot be used; `impaired` warns it will silently fail."""

    type: ButtonKind
    by: int | None
    label: str
    disabled: str | None = None
    impaired: str = ""


class Grimoire(Frozen):
    seats: tuple[GrimSeat, ...]
    bluffs: tuple[RoleKey, ...]
    composition: dict[str, int]
    composition_issues: tuple[str, ...]
    night: NightView | None
    buttons: tuple[ButtonView, ...]
    proposals: tuple[Proposal, ...]
    alerts: tuple[Alert, ...]
    """Today's reminders still to act on (one about a seat that has died, or an execution asked for
    once the day has had one, is done)."""
    accusations: tuple[Accusation, ...]
    end: EndProposal | None
    """A met win condition (or the storyteller's word) waiting for 「确认结束」."""
    owed: tuple[Owed, ...]
    empress_ever: bool


def grimoire(state: GameState) -> Grimoire:
    b = Board(state)
    roles = [s.role for s in state.seats if not s.admitted]
    night = state.night
    died: dict[int, list[DeathCause]] = {}
    for d in night.deaths if night else ():
        died.setdefault(d.seat, []).append(d.cause)
    notes = {n.seat: n.text for n in state.notes}
    seats = tuple(
        GrimSeat(
            seat=s.seat, name=s.name, role=s.role, role_name=ROLES[s.role].name, team=ROLES[s.role].team,
            alignment=s.alignment, alive=s.alive, ghost_vote=s.ghost_vote, original_role=s.original_role,
            original_role_name=ROLES[s.original_role].name if s.original_role else None,
            spent=tuple(sorted(s.spent)), link=s.link, traveller_identity=s.traveller_identity,
            traveller_ability=s.traveller_ability, traveller_female=s.traveller_female, departed=s.departed,
            statuses=tuple(st for st in state.statuses if st.seat == s.seat),
            died_tonight=tuple(died.get(s.seat, ())),
            reminders=tuple(r for r in state.reminders if r.seat == s.seat), note=notes.get(s.seat, ""),
        )
        for s in state.seats
    )  # fmt: skip
    day = state.day
    return Grimoire(
        seats=seats,
        bluffs=state.bluffs,
        composition=composition(len(roles), modifiers=modifiers_in(roles)).as_dict(),
        composition_issues=composition_issues(state),
        night=_night(b) if night is not None and state.phase is Phase.NIGHT else None,
        buttons=_buttons(b) if day is not None and state.phase is Phase.DAY else (),
        proposals=day.proposals if day else (),
        alerts=_open_alerts(b, day) if day else (),
        accusations=day.accusations if day else (),
        end=state.end,
        owed=state.owed,
        empress_ever=state.empress_ever,
    )


def _open_alerts(b: Board, day: DayState) -> tuple[Alert, ...]:
    def done(alert: Alert) -> bool:
        if alert.seat is None:
            return False
        seat = b.seat(alert.seat)
        return not seat.alive or seat.departed or (alert.press is ButtonKind.EXECUTE and day.executed is not None)
    return tuple(a for a in day.alerts if not done(a))


def _buttons(b: Board) -> tuple[ButtonView, ...]:
    return tuple(
        ButtonView(type=kind, by=by, label=label, disabled=why, impaired=impaired)
        for kind, by, label, why, impaired in buttons(b)
    )


def _night(b: Board) -> NightView:
    night = b.night
    steps = order_for(night.number)
    last = {r.step: r for r in night.records}
    now = current(b)
    items: list[StepView] = []
    current_view: StepView | None = None
    for i, key in enumerate(steps):
        step = STEPS[key]
        is_current = now is not None and now[0] is key
        if i < night.cursor and not is_current:
            if key in last:
                label, passed = step.title(b), last[key].passed
                # a passed step says whether it is greyed now: reopening it would only grey it again
                why = why_not(step, b, step.actor(b)) if passed else None
                items.append(StepView(key=key, label=label, actor=None, state=StepState.DONE, passed=passed, disabled=why))
            continue
        if not step.present(b) and not is_current:
            continue
        sv = _step_view(b, step, StepState.CURRENT if is_current else StepState.UPCOMING, detail=is_current)
        items.append(sv)
        if is_current:
            current_view = sv
    return NightView(
        number=night.number, steps=tuple(items), current=current_view, deaths=night.deaths,
        dusk_deaths=night.dusk_deaths, records=night.records,
    )  # fmt: skip


def _step_view(b: Board, step: Step, state: StepState, *, detail: bool) -> StepView:
    actor = step.actor(b)
    disabled = why_not(step, b, actor)
    impaired = tuple(k for k in _IMPAIRING if actor is not None and b.has(actor, k))
    base = StepView(
        key=step.key, label=step.title(b), prompt=step.prompt_tonight(b), actor=actor, state=state, disabled=disabled,
        impaired=impaired,
    )  # fmt: skip
    if not detail or disabled is not None:
        return base
    slots = tuple(
        SlotView(
            label=s.label, allowed=s.allowed, optional=s.optional,
            greyed=tuple(GreyedSeat(seat=seat, reason=why) for seat, why in s.greyed),
        )
        for s in step.slots(b, actor)
    )  # fmt: skip
    kind = step.info_kind(b)
    suggest = kind is not None and step.suggests and actor is not None and b.poisoned_or_drunk(actor)
    return base.model_copy(update={
        "slots": slots, "answer_kind": kind, "hint": step.hint(b, actor),
        "suggestion": step.suggest_hint(b, actor) if suggest else None,
    })  # fmt: skip
