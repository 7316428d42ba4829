"""Events of 血染甄嬛传: a union on `kind`. The game log is the sequence of every event, and an event
is also the battle-report line (`report_line_model`): structured fields plus a readable Chinese `text`.

Audience by kind: the PUBLIC_KINDS are public; `info`, `you_are` and `tell` go to one seat; `host`
lines are for the storyteller only; a `withdrawn` notice (undo) goes to one seat, or to everyone when
it withdraws something public. Public texts never name a role, a status, an alignment or a cause of
death. After the game ends everyone sees everything.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from chalicelib.games.zhenhuan.enums import Phase, StepKey, TellCard
from chalicelib.games.zhenhuan.roles import Alignment, RoleKey


class _Ev(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str


class SeatRole(BaseModel):
    """玉娆's first-night answer: a good player and her role."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    role: RoleKey


Answer = bool | int | tuple[int, ...] | SeatRole
"""A night answer: yes/no, a number, a list of seats, or a seat and its role."""


class PhaseEvent(_Ev):
    kind: Literal["phase"] = "phase"
    phase: Phase
    number: int


class AnnounceEvent(_Ev):
    """Dawn: who died in the night (seat order, no causes) and who came back."""

    kind: Literal["announce"] = "announce"
    deaths: tuple[int, ...] = ()
    revived: tuple[int, ...] = ()


class NominationEvent(_Ev):
    kind: Literal["nomination"] = "nomination"
    nominator: int
    nominee: int
    exile: bool = False
    """A call to exile a traveller (not a nomination for execution)."""
    deleted: bool = False
    """The storyteller deleted this (mistaken) nomination and its vote."""


class VoteOpenEvent(_Ev):
    """The vote clock starts on the open nomination; `voters` may vote, in circle order."""

    kind: Literal["vote_open"] = "vote_open"
    nominee: int
    seconds: int
    voters: tuple[int, ...]


class HandEvent(_Ev):
    """One hand during an open vote (votes are public)."""

    kind: Literal["hand"] = "hand"
    seat: int
    yes: bool


class VoteEvent(_Ev):
    """The tally: `voters` raised a hand, in circle order clockwise from the nominee (she is last)."""

    kind: Literal["vote"] = "vote"
    nominee: int
    voters: tuple[int, ...]
    count: int
    threshold: int
    block: int | None
    exile: bool = False


class ExecutionEvent(_Ev):
    kind: Literal["execution"] = "execution"
    seat: int
    died: bool
    exile: bool = False


class DeathEvent(_Ev):
    """A death in the day, or a storyteller's change of life in the open."""

    kind: Literal["death"] = "death"
    seat: int
    alive: bool = False


class ArrivalEvent(_Ev):
    """A traveller joins: her seat, name, chosen identity and its ability text are public."""

    kind: Literal["arrival"] = "arrival"
    seat: int
    name: str
    identity: str
    ability: str


class DepartureEvent(_Ev):
    kind: Literal["departure"] = "departure"
    seat: int


class GameOverEvent(_Ev):
    kind: Literal["game_over"] = "game_over"
    winner: Alignment
    reason: str


class InfoEvent(_Ev):
    """Information the storyteller gave one player at a night step (what she gave, not necessarily the
    truth), with the player's own choices (`targets`)."""

    kind: Literal["info"] = "info"
    seat: int
    night: int
    step: StepKey
    value: Answer | None = None
    targets: tuple[int, ...] = ()


class YouAreEvent(_Ev):
    """The 「你是」 card: the player's role and alignment as she now knows them."""

    kind: Literal["you_are"] = "you_are"
    seat: int
    role: RoleKey
    alignment: Alignment


class TellEvent(_Ev):
    """A message from the storyteller (「告知」) to one player: a card with its tokens and/or free text."""

    kind: Literal["tell"] = "tell"
    seat: int
    card: TellCard
    roles: tuple[RoleKey, ...] = ()
    seats: tuple[int, ...] = ()
    alignment: Alignment | None = None
    note: str = ""
    night: int | None = None
    """Told during this night (None: not at night)."""
    day: int | None = None
    """Told during this day (None: not by day; neither: before the first night)."""


class WithdrawnEvent(_Ev):
    """Undo: what the storyteller took back, for a viewer who had seen it (`seat`: one player; None:
    everyone, when the undone press showed something public). Reported only, never in the log."""

    kind: Literal["withdrawn"] = "withdrawn"
    seat: int | None = None
    lines: tuple[str, ...] = ()


class HostEvent(_Ev):
    """Storyteller-only line: resolutions, statuses, causes, overrides (override=True)."""

    kind: Literal["host"] = "host"
    override: bool = False
    restates: int = 0
    """How many lines just before it this one says again, with what only the storyteller knows (a
    death's cause, what a night step asked): her log (`storyteller_log`) shows this line in their place.
    The players' lines themselves are unchanged."""


Event = Annotated[
    PhaseEvent | AnnounceEvent | NominationEvent | VoteOpenEvent | HandEvent | VoteEvent | ExecutionEvent
    | DeathEvent | ArrivalEvent | DepartureEvent | GameOverEvent | InfoEvent | YouAreEvent | TellEvent
    | WithdrawnEvent | HostEvent,
    Field(discriminator="kind"),
]  # fmt: skip
event_adapter: TypeAdapter[Event] = TypeAdapter(Event)

PUBLIC_KINDS = frozenset(
    {"phase", "announce", "nomination", "vote_open", "hand", "vote", "execution", "death", "arrival",
     "departure", "game_over"}
)  # fmt: skip
PRIVATE_KINDS = frozenset({"info", "you_are", "tell"})


def audience(event: Event) -> int | Literal["all", "host"]:
    """Who may see an event while the game runs: "all", "host", or one seat."""
    if event.kind in PUBLIC_KINDS:
        return "all"
    if isinstance(event, InfoEvent | YouAreEvent | TellEvent):
        return event.seat
    if isinstance(event, WithdrawnEvent):
        return "all" if event.seat is None else event.seat
    return "host"


def storyteller_log(log: Sequence[Event]) -> tuple[Event, ...]:
    """The storyteller's record (and everyone's once the game is over): each thing said once. A host line
    that restates the lines before it (a death with its cause, a night step with what its player was
    told) stands in their place; a vote is its count, which names every raised hand, so the hands that
    came in one by one and the clock's start are left out once it is counted (while the clock runs,
    her day panel shows the hands)."""
    kept: list[Event] = []
    for event in log:
        if event.kind == "hand":
            continue
        if isinstance(event, HostEvent) and event.restates:
            del kept[max(0, len(kept) - event.restates) :]
        kept.append(event)
    # the clock's start stays only while its vote runs: nothing ends a vote without a later count, a
    # deleted nomination or (the vote settled) a new nomination or phase
    running = None
    for i in range(len(kept) - 1, -1, -1):
        kind = kept[i].kind
        if kind == "vote_open":
            running = i
            break
        if kind in ("vote", "nomination", "phase"):
            break
    return tuple(e for i, e in enumerate(kept) if e.kind != "vote_open" or i == running)


def visible_to(event: Event, *, host: bool, seat: int | None, over: bool) -> bool:
    """Whether a viewer may see this event: host and finished games see all."""
    if host or over:
        return True
    who = audience(event)
    return who == "all" or (seat is not None and who == seat)
