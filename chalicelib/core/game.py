"""The one small interface through which a game plugs into rooms.

A game is a pure rules object: frozen, typed state in, new state and events out. The room service
(`chalicelib.rooms`) owns everything else: seats, versions, deadlines, storage, randomness seeds,
records. A game never sees boto3, the clock, ids or users; it sees seats (0-based), names and the
per-game profile the room snapshot gave each seat.

How the room drives a game:

* `setup(entrants, options, rng)` once, when the room starts (`check_start` first).
* `pending(state)` tells the room whom the game waits for:
  - SEALED: every seat listed submits one hidden move; the room stores them apart and, when all are
    in (or the deadline passes, or the creator presses 催战), calls `settle(state, moves, rng)` with
    the moves it has (missing seats are the game's default, e.g. 待机);
  - TURN: the listed seats may act now, one action at a time, through `apply`; when the deadline
    passes the room calls `on_timeout` (e.g. 保皇's 托管);
  - HOST: the host (storyteller / 司礼) acts through `apply`; players may also act where the game's
    `check` allows it.
  `None` means the game is over.
* `check(state, actor, action)` raises a `DomainError` (usually `IllegalAction` / `NotYourTurn`) or
  returns; it is called before a sealed move is stored and before `apply`.
* `view(state, viewer)` is the only way state leaves the room: one projection per viewer.
* `report(state, events, viewer)` projects one transition's events for a viewer (battle reports).
* A transition may carry final `results` (the end of the game, or of one 保皇 deal); the room writes
  each exactly once, and records and leaderboards are derived from them only.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from typing import Any, Generic, Protocol, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter

from chalicelib.core.rng import Rng

S = TypeVar("S", bound=BaseModel)
A = TypeVar("A")
E = TypeVar("E")


class ViewerRole(StrEnum):
    PLAYER = "player"
    """Seated player: sees the public board and her own secrets."""
    SPECTATOR = "spectator"
    """Watcher (观战): public board and anonymous report lines only."""
    HOST = "host"
    """司礼 / storyteller: sees everything, may act as the game allows."""


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who is looking at (or acting on) a game."""

    role: ViewerRole
    seat: int | None = None

    @classmethod
    def player(cls, seat: int) -> Viewer:
        return cls(ViewerRole.PLAYER, seat)

    @classmethod
    def spectator(cls) -> Viewer:
        return cls(ViewerRole.SPECTATOR)

    @classmethod
    def host(cls) -> Viewer:
        return cls(ViewerRole.HOST)

    @property
    def is_host(self) -> bool:
        return self.role is ViewerRole.HOST


Actor = Viewer
"""An action comes from a seated player or from the host."""


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat as the game sees it at start: its index, display name and game-specific profile."""

    seat: int
    name: str
    profile: Mapping[str, Any] = field(default_factory=dict)


class PendingKind(StrEnum):
    SEALED = "sealed"
    """All listed seats submit hidden moves; one settlement resolves them together."""
    TURN = "turn"
    """The listed seats may act now, one action at a time."""
    HOST = "host"
    """Waiting on the host (storyteller); no deadline unless the game sets one."""


@dataclass(frozen=True, slots=True)
class Pending:
    kind: PendingKind
    seats: frozenset[int] = frozenset()
    timeout_s: int | None = None
    """Seconds until the scheduler settles (SEALED) or calls on_timeout (TURN); None = no deadline."""
    label: str = ""


class SeatResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    seat: int
    place: int | None = None
    score: float = 0.0
    won: bool = False
    stats: dict[str, float] = {}


class Outcome(BaseModel):
    """A final result: written once, never changed. `unit` names what ended ("game", "deal-3")."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    unit: str = "game"
    reason: str
    results: tuple[SeatResult, ...]
    extra: dict[str, Any] = {}


@dataclass(frozen=True, slots=True)
class Transition(Generic[S, E]):  # noqa: UP046 - games annotate Transition[State, Event] with these TypeVars
    state: S
    events: tuple[E, ...] = ()
    results: tuple[Outcome, ...] = ()


class Game(Protocol[S, A, E]):
    """What every game module exposes (as a module-level instance registered in `chalicelib.games`)."""

    key: str
    title: str
    min_seats: int
    max_seats: int
    auto_start: bool
    """Start by itself when max_seats have joined (宫斗杀 D); otherwise the creator presses 开战."""
    host_runs: bool
    """The creator hosts and does not take a seat (血染 storyteller)."""

    options_model: type[BaseModel]
    profile_model: type[BaseModel] | None
    state_model: type[S]
    action_adapter: TypeAdapter[A]
    event_adapter: TypeAdapter[E]
    view_model: type[BaseModel]

    def check_start(self, entrants: Sequence[Entrant], options: BaseModel) -> None: ...

    def setup(self, entrants: Sequence[Entrant], options: BaseModel, rng: Rng) -> S: ...

    def pending(self, state: S) -> Pending | None: ...

    def check(self, state: S, actor: Viewer, action: A) -> None: ...

    def apply(self, state: S, actor: Viewer, action: A, rng: Rng) -> Transition[S, E]: ...

    def settle(self, state: S, moves: Mapping[int, A], rng: Rng) -> Transition[S, E]: ...

    def on_timeout(self, state: S, rng: Rng) -> Transition[S, E]: ...

    def view(self, state: S, viewer: Viewer) -> BaseModel: ...

    def report(self, state: S, events: Sequence[E], viewer: Viewer) -> list[BaseModel]: ...
