"""Events of 血染甄嬛传: a union on `kind`. The game log is the sequence of every event.

Audience by kind: `phase`, `announce`, `nomination`, `vote`, `execution`, `death` and `game_over` are
public; `info` and `you_are` go to one seat; `host` lines are for the storyteller only. Public texts
never name a role, a status or a cause of death. After the game ends everyone sees everything.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class _Ev(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    text: str


class SeatRole(BaseModel):
    """玉娆's first-night answer: a good player and her role."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    role: str


Answer = bool | int | tuple[int, ...] | SeatRole
"""A night answer: yes/no, a number, a list of seats, or a seat and its role."""


class PhaseEvent(_Ev):
    kind: Literal["phase"] = "phase"
    phase: str
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


class VoteEvent(_Ev):
    kind: Literal["vote"] = "vote"
    nominee: int
    voters: tuple[int, ...]
    count: int
    threshold: int
    block: int | None


class ExecutionEvent(_Ev):
    kind: Literal["execution"] = "execution"
    seat: int
    died: bool


class DeathEvent(_Ev):
    """A death in the day, or a storyteller's change of life in the open."""

    kind: Literal["death"] = "death"
    seat: int
    alive: bool = False


class GameOverEvent(_Ev):
    kind: Literal["game_over"] = "game_over"
    winner: str
    reason: str


class InfoEvent(_Ev):
    """Information the storyteller gave one player (what she gave, not necessarily the truth)."""

    kind: Literal["info"] = "info"
    seat: int
    night: int
    step: str
    value: Answer | None = None


class YouAreEvent(_Ev):
    kind: Literal["you_are"] = "you_are"
    seat: int
    role: str
    alignment: str


class HostEvent(_Ev):
    """Storyteller-only line: resolutions, statuses, causes, overrides (override=True)."""

    kind: Literal["host"] = "host"
    override: bool = False


Event = Annotated[
    PhaseEvent
    | AnnounceEvent
    | NominationEvent
    | VoteEvent
    | ExecutionEvent
    | DeathEvent
    | GameOverEvent
    | InfoEvent
    | YouAreEvent
    | HostEvent,
    Field(discriminator="kind"),
]
event_adapter: TypeAdapter[Event] = TypeAdapter(Event)

PUBLIC_KINDS = frozenset({"phase", "announce", "nomination", "vote", "execution", "death", "game_over"})
PRIVATE_KINDS = frozenset({"info", "you_are"})


def visible_to(event: Event, *, host: bool, seat: int | None, over: bool) -> bool:
    """Whether a viewer may see this event: host and finished games see all."""
    if host or over or event.kind in PUBLIC_KINDS:
        return True
    if isinstance(event, InfoEvent | YouAreEvent):
        return seat is not None and event.seat == seat
    return False
