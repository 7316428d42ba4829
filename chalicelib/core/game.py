"""The one interface through which a game plugs into the platform: `Game`, a base class with defaults.

A game is a pure rules object: frozen, typed state in, new state and events out. The room service
(`chalicelib.rooms`) owns everything else: seats, versions, deadlines, storage, randomness seeds,
records. A game never sees boto3, the clock, ids or users; it sees seats (0-based), names and the
persona the room gave each seat. Everything the platform needs to know about a game is declared
here, on the game: whom it waits for, which actions interrupt a sealed round, whether 催战 is
allowed, whether players may count its steps, how its results reach the boards, how bots play it.
`rooms/`, `records/` and `store/` never name a game.

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
from types import MappingProxyType
from typing import Any, ClassVar, Generic, TypeVar

from pydantic import BaseModel, ConfigDict, TypeAdapter

from chalicelib.core.errors import Conflict, ErrorSpec, IllegalAction
from chalicelib.core.rng import Rng

S = TypeVar("S", bound=BaseModel)
"""The game's frozen state."""
A = TypeVar("A")
"""The game's action union."""
E = TypeVar("E")
"""The game's event union."""
V = TypeVar("V", bound=BaseModel)
"""The game's view (one model for every viewer; hidden parts are None or absent)."""
O = TypeVar("O", bound=BaseModel)
"""The game's room options."""


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
class Persona:
    """The 妃子 a player brings to a game that seats consorts (see `Game.seats_consorts`): her
    attributes, her 宫女 (card id -> level) and the stages she has cleared, read when the game starts."""

    consort_id: str
    name: str
    looks: int
    talent: int
    favor: int
    power: int
    maids: Mapping[str, int] = field(default_factory=dict)
    cleared_stages: frozenset[int] = frozenset()


    def to_json(self) -> dict[str, Any]:
        return {"consort_id": self.consort_id, "name": self.name, "looks": self.looks, "talent": self.talent,
                "favor": self.favor, "power": self.power, "maids": dict(sorted(self.maids.items())),
                "cleared_stages": sorted(self.cleared_stages)}

    @classmethod
    def from_json(cls, raw: Mapping[str, Any]) -> Persona:
        return cls(consort_id=str(raw["consort_id"]), name=str(raw["name"]), looks=int(raw["looks"]),
                   talent=int(raw["talent"]), favor=int(raw["favor"]), power=int(raw["power"]),
                   maids={str(k): int(v) for k, v in dict(raw.get("maids") or {}).items()},
                   cleared_stages=frozenset(int(s) for s in raw.get("cleared_stages") or ()))


@dataclass(frozen=True, slots=True)
class Entrant:
    """One seat as the game sees it at start: its index, display name and (for consort games) persona."""

    seat: int
    name: str
    persona: Persona | None = None
    bot: bool = False
    """A bot plays this seat from the start (a game may end once no person is left playing)."""


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
    clock: str | None = None
    """Names the clock this deadline belongs to: while it stays the same from one transition to the
    next (e.g. votes cast during one vote clock), the deadline stands instead of restarting."""


class SeatResult(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    seat: int
    place: int | None = None
    score: float = 0.0
    won: bool = False
    stats: dict[str, float] = {}
    played: bool = True
    """False: the seat never made a move of her own (every one was 待机 by default, or 催战'd for her):
    her result is shown, but it reaches no board, record or stage unlock (docs/rules/platform.md P11)."""


class GuideSection(BaseModel):
    """One part of a game's 玩法 page: a heading, and its lines, each one rule in a player's words."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    title: str
    lines: tuple[str, ...]


class StageClear(BaseModel):
    """A stage cleared by the whole table: it ranks on the stage's fastest-clear board and unlocks the
    next stage for every seat's persona."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    stage: int
    rounds: int


class Outcome(BaseModel):
    """A final result: written once, never changed. `unit` names what ended ("game", "deal-3")."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    unit: str = "game"
    reason: str
    results: tuple[SeatResult, ...]
    clear: StageClear | None = None
    extra: dict[str, Any] = {}


@dataclass(frozen=True, slots=True)
class Transition(Generic[S, E]):  # noqa: UP046 - games annotate Transition[State, Event] with these TypeVars
    state: S
    events: tuple[E, ...] = ()
    results: tuple[Outcome, ...] = ()


class RecordSubject(StrEnum):
    CONSORT = "consort"
    """Records belong to the 妃子 a player sat as (群芳战绩)."""
    USER = "user"
    """Records belong to the player herself."""


@dataclass(frozen=True, slots=True)
class RecordsPolicy:
    """How a game's final results reach the records and leaderboards.

    Boards never mix (seed 000: 「战绩分表统计，互不相混」): each policy names one board family, which
    has a free board and a tournament board (`<board>-free`, `<board>-tournament`)."""

    board: str
    """Board family, e.g. "coop": results go to "coop-free" or "coop-tournament"."""
    subject: RecordSubject
    counted: tuple[str, ...] = ()
    """`SeatResult.stats` summed into the record as they are."""
    damage: tuple[str, ...] = ()
    """Stats whose sum is added to the record's `damage` (for 场均伤害)."""
    stages: tuple[int, ...] = ()
    """Stages with a fastest-clear board (`Outcome.clear` names one of them)."""


ABSENT_ROUNDS = 3
"""Sealed rounds in a row without a move from a seat before its player counts as gone: the others may
then vote to hand her seat to a bot (the platform counts them: `Room.missed`)."""


class BotLevel(StrEnum):
    SIMPLE = "simple"
    """简单: the 托管 heuristics."""
    ADVANCED = "advanced"
    """进阶: a heuristic player that weighs the position."""


_NO_RULES: Mapping[str, Any] = MappingProxyType({})

BOT_NAMES: tuple[str, ...] = ("秋月", "春桃", "夏荷", "冬梅", "翠竹", "碧桃", "绿萼", "红绡", "素心", "锦瑟")
"""The names bots take by default (`Game.bot_names`)."""


class Game(Generic[S, A, E, V, O]):  # noqa: UP046 - subclasses bind these TypeVars by subscription
    """Base of every game. Subclasses set the class attributes and implement `setup`, `pending`,
    `check`, `view`, `report`, plus `apply` (turns, host actions) and/or `settle` (sealed rounds)."""

    # -- identity and seating ------------------------------------------------------------------
    key: ClassVar[str]
    """Registry key and the room's `game` (e.g. "shengong_d")."""
    family: ClassVar[str]
    """Contract family: games of one family share actions, views and report lines
    (e.g. "shengong" for 深宫杀 modes A-D); the per-game API lives under /v1/games/{family}."""
    title: ClassVar[str]
    min_seats: ClassVar[int]
    max_seats: ClassVar[int]
    auto_start: ClassVar[bool] = False
    """Start by itself when max_seats have joined (宫斗杀 D); otherwise the creator presses 开战."""
    host_runs: ClassVar[bool] = False
    """The creator hosts and does not take a seat (血染 storyteller)."""
    seats_consorts: ClassVar[bool] = False
    """Players sit as their 妃子 (must have claimed one); each Entrant carries her Persona."""
    default_open: ClassVar[bool] = True
    """Whether players may open rooms before the 司礼 changes the setting."""
    allows_hurry: ClassVar[bool] = True
    """Whether the creator may 催战 (settle a sealed round before everyone moved)."""
    hidden_steps: ClassVar[bool] = False
    """Players must not be able to count transitions (no step counter, no empty reports)."""
    fixed_rules: ClassVar[Mapping[str, Any]] = _NO_RULES
    """Rules shown read-only when opening a room (e.g. the round limit)."""
    records: ClassVar[RecordsPolicy | None] = None
    """How results reach the boards; None = no boards."""
    bots: ClassVar[bool] = False
    """Whether bots can play a seat (`bot_action`): one handed over after a vote, or (`bot_fill`) an empty one."""
    bot_fill: ClassVar[bool] = True
    """With `bots`: whether the creator may fill empty seats with bots before the start."""
    bot_names: ClassVar[tuple[str, ...]] = BOT_NAMES
    """The names bots take in the seats they fill, in turn (the platform adds 「（机器人）」): a game whose
    world has people the default names could be taken for names its own (深宫杀: fellow consorts, not
    宫女, who are its cards)."""
    spectators_chat_apart: ClassVar[bool] = False
    """Spectators talk among themselves, apart from the players (games with hidden roles: a watcher
    sees the board the players do not, so she must not be able to tell them)."""
    quick_phrases: ClassVar[tuple[str, ...]] = ()
    """心战: fixed phrases in court style a player can send with one tap."""
    late_join: ClassVar[bool] = False
    """Players may ask to join a running game; the host seats them (`admit`), e.g. 血染 travellers."""
    admit_model: ClassVar[type[BaseModel] | None] = None
    """What the host decides when seating a late entrant (e.g. a traveller's identity and alignment)."""
    errors: ClassVar[Mapping[str, ErrorSpec]] = _NO_RULES
    """Every error code this game raises, with its one status and its messages (the closed error
    catalogue, served at GET /v1/errors, is the platform's codes plus every game's)."""

    # -- typed models (the contract is generated from these) ------------------------------------
    options_model: ClassVar[type[BaseModel]]
    state_model: ClassVar[type[BaseModel]]
    action_adapter: ClassVar[TypeAdapter[Any]]
    event_adapter: ClassVar[TypeAdapter[Any]]
    view_model: ClassVar[type[BaseModel]]
    report_line_model: ClassVar[Any]
    """A pydantic model (or annotated union) of one battle-report line; every line has `text`."""
    outcome_extra_model: ClassVar[type[BaseModel] | None] = None
    """The shape of `Outcome.extra` for this game (None: always empty)."""

    # -- start -----------------------------------------------------------------------------------

    def parse_options(self, raw: BaseModel | Mapping[str, Any] | None) -> O:
        """The room's options as this game's model (rooms store them as JSON)."""
        model = self.options_model
        if isinstance(raw, model):
            return raw  # type: ignore[return-value]
        data = raw.model_dump() if isinstance(raw, BaseModel) else dict(raw or {})
        return model.model_validate(data)  # type: ignore[return-value]

    def room_title(self, options: O) -> str:
        """The room's name in the lobby (default: the game's title)."""
        return self.title

    def check_seat(self, entrant: Entrant, options: O) -> None:
        """Refuse a player a seat she could never start the game from (default: anyone may sit), so
        a room fills only with players who may play it; `check_start` stays the final word."""

    def option_locks(self, entrant: Entrant) -> Mapping[str, Mapping[str, str]]:
        """The room options this player could not open a room with, before she tries: option name ->
        {choice (as a string) -> the refusal she would get, in `check_seat`'s own words}. The 开房
        dialog greys those choices with the reason (served per caller at GET /v1/games as each option's
        `x-locked`); `check_seat` at 开房 stays the word. Default: nothing locked."""
        return _NO_RULES

    def check_start(self, entrants: Sequence[Entrant], options: O) -> None:
        """Refuse a start, naming who (default: the seat count must fit).

        Raises:
            Conflict: NOT_ENOUGH_PLAYERS / TOO_MANY_PLAYERS.
        """
        if len(entrants) < self.min_seats:
            raise Conflict(f"{self.title}至少需要 {self.min_seats} 人（现有 {len(entrants)} 人）",
                           code="NOT_ENOUGH_PLAYERS")
        if len(entrants) > self.max_seats:
            raise Conflict(f"{self.title}最多 {self.max_seats} 人", code="TOO_MANY_PLAYERS")

    def setup(self, entrants: Sequence[Entrant], options: O, rng: Rng) -> S:
        raise NotImplementedError

    # -- whom we wait for ------------------------------------------------------------------------

    def pending(self, state: S) -> Pending | None:
        raise NotImplementedError

    def immediate(self, state: S, actor: Viewer, action: A) -> bool:
        """Actions that apply at once even during a sealed round (保皇: 强退, 托管 on/off)."""
        return False

    # -- checks and transitions ------------------------------------------------------------------

    def check(self, state: S, actor: Viewer, action: A) -> None:
        raise NotImplementedError

    def apply(self, state: S, actor: Viewer, action: A, rng: Rng) -> Transition[S, E]:
        """A turn or host action (default: this game has none)."""
        raise IllegalAction("本玩法每回合统一落子结算，没有单步操作", code="NOT_TURN_BASED")

    def settle(self, state: S, moves: Mapping[int, A], rng: Rng) -> Transition[S, E]:
        """A sealed round with the moves that came in (default: this game has no sealed rounds)."""
        raise IllegalAction("本玩法没有暗选阶段", code="NO_SEALED_MOVES")

    def on_abandon(self, state: S) -> A | None:
        """The host's action when the room is given up for idleness (default none: the unfinished game
        gets no result). A game whose end waits on the host's word may take it here."""
        return None

    def on_timeout(self, state: S, rng: Rng) -> Transition[S, E]:
        """A TURN deadline passed (default: this game sets no turn deadlines)."""
        raise IllegalAction("本玩法没有超时处理", code="NO_TIMEOUT")

    # -- projections -----------------------------------------------------------------------------

    def view(self, state: S, viewer: Viewer) -> V:
        raise NotImplementedError

    def report(self, state: S, events: Sequence[E], viewer: Viewer) -> list[BaseModel]:
        raise NotImplementedError

    # -- reference ---------------------------------------------------------------------------------

    catalogue_model: ClassVar[type[BaseModel] | None] = None
    """The shape of `catalogue()` (None: the game publishes none)."""

    def catalogue(self) -> BaseModel | None:
        """What a client shows about the game itself (roles and their ability texts, cards…)."""
        return None

    def guide(self) -> tuple[GuideSection, ...]:
        """怎么玩: the rules as a player reads them before she sits down (GET /v1/guides/{game_key}).
        Lines write the game's own constants in, so the words cannot drift from what the game does."""
        return ()

    # -- the host's tools ------------------------------------------------------------------------

    def undoable(self, state: S, actor: Viewer, action: A) -> bool:
        """Whether this past action (the last one applied) may be taken back by the host's 撤销; the
        platform then recomputes the state from the log without it."""
        return False

    def preview(self, state: S, actor: Viewer, action: A, rng: Rng) -> str | None:
        """What an accepted action would tell, for the host to read before pressing (None: nothing to
        show). Asked only for an action `check` accepts, with the room's generator."""
        return None

    def withdrawn(self, before: S, undone: Sequence[E]) -> tuple[E, ...]:
        """Events for an undo: they tell whoever had been shown something by the undone action that it
        was withdrawn (reported only; the recomputed state does not hold them)."""
        return ()

    def admit(self, state: S, entrant: Entrant, details: BaseModel, rng: Rng) -> Transition[S, E]:
        """Seat a late entrant (`late_join` games); `details` is an `admit_model`."""
        raise Conflict("本玩法开局后不能加入", code="NO_LATE_JOIN")

    # -- bots ------------------------------------------------------------------------------------

    def bot_action(self, view: V, seat: int, level: BotLevel, rng: Rng) -> A | None:
        """What a bot in `seat` does now, seeing only `view` (that seat's projection); None = nothing
        to do. Only called for games with `bots = True`."""
        return None

    def seat_absent(self, state: S, seat: int) -> bool:
        """Whether the seat's player is gone by the game's own measure (保皇: in 托管 for a whole deal),
        so the others may vote to hand her seat to a bot. (Sealed-round games need not say: the
        platform counts rounds without a move.)"""
        return False

    def bot_persona(self, seat: int, level: BotLevel) -> Persona | None:
        """The persona a bot brings to a game that seats consorts (None: bots cannot sit here)."""
        return None

    def free_texts(self, action: A | BaseModel) -> tuple[str, ...]:
        """What an action (or a late entrant's admission details) carries that someone typed and
        someone else will read (a storyteller's 告知, a traveller's identity): the platform runs it
        through content security before the action applies."""
        return ()

    # -- storage helpers (the room service stores JSON) ------------------------------------------

    def load_state(self, raw: Mapping[str, Any]) -> S:
        return self.state_model.model_validate(raw)  # type: ignore[return-value]

    def parse_action(self, raw: Any) -> A:
        """Raises pydantic's ValidationError; the room service turns it into a 422."""
        value: A = self.action_adapter.validate_python(raw)
        return value

    def dump_action(self, action: A) -> dict[str, Any]:
        out: dict[str, Any] = self.action_adapter.dump_python(action, mode="json")
        return out

    def dump_events(self, events: Sequence[E]) -> list[dict[str, Any]]:
        return [self.event_adapter.dump_python(e, mode="json") for e in events]

    def load_events(self, raw: Sequence[Mapping[str, Any]]) -> list[E]:
        return [self.event_adapter.validate_python(e) for e in raw]


AnyGame = Game[Any, Any, Any, Any, Any]
"""A game whose types the caller does not know (the registry's answer)."""

__all__ = [
    "Actor", "AnyGame", "BotLevel", "Entrant", "Game", "Outcome", "Pending", "PendingKind", "Persona",
    "RecordSubject", "RecordsPolicy", "SeatResult", "StageClear", "Transition", "Viewer", "ViewerRole",
]
