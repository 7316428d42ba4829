"""Room records: what the platform keeps about a game besides the game's own state.

These sit below both the room service and the storage adapters (which import them, never each
other), next to the storage port in `chalicelib.domain.ports`."""

from __future__ import annotations

from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from chalicelib.core.game import BotLevel, PendingKind
from chalicelib.core.rng import Rng

IDLE_OPEN_S = 30 * 60
"""An open room with no activity for 30 minutes expires."""
IDLE_ACTIVE_S = 6 * 3600
"""A started room where no human acted for 6 hours is abandoned."""
ROOM_CODE_LIFE_S = 3 * 24 * 3600
BOT_USER_PREFIX = "bot:"
"""A bot seated by the creator has a user id of its own: `bot:<room>:<n>`."""
"""A 房号 (six digits to say aloud) leads to its room for 3 days from the room's creation, then may be
given to a new room: far longer than a room lives (idle rooms close within 6 hours), so a room shows
its code for as long as anyone is still joining it."""


class RoomStatus(StrEnum):
    OPEN = "open"
    """Waiting for players (listed in the lobby)."""
    ACTIVE = "active"
    """Game running."""
    FINISHED = "finished"
    """Game over; results written."""
    EXPIRED = "expired"
    """Closed before it started (stalled in the lobby, or everyone left)."""
    ABANDONED = "abandoned"
    """Nobody acted for too long mid-game; no result for the unfinished part."""

    @property
    def live(self) -> bool:
        return self in (RoomStatus.OPEN, RoomStatus.ACTIVE)


class Competition(StrEnum):
    FREE = "free"
    """自由赛: opened by a player."""
    TOURNAMENT = "tournament"
    """锦标赛: opened by the 司礼, who hosts and does not play."""


class MoveSource(StrEnum):
    PLAYER = "player"
    """The seat's player submitted it."""
    BOT = "bot"
    """A bot submitted it for the seat."""
    DEFAULT = "default"
    """Placeholder written when the round closed without a move from the seat (it acts as the
    game's default, e.g. 待机); it also makes a late move fail instead of being lost."""

    @property
    def submitted(self) -> bool:
        return self is not MoveSource.DEFAULT


class LogKind(StrEnum):
    SETUP = "setup"
    """Step 0: entrants and options, for replay."""
    APPLY = "apply"
    """A turn or host action."""
    SETTLE = "settle"
    """A sealed round resolved with the moves that came in."""
    TIMEOUT = "timeout"
    """A turn's deadline passed (the game's on_timeout)."""
    UNDO = "undo"
    """The host took back an earlier action: the state was recomputed without it."""
    ADMIT = "admit"
    """A late entrant (a 血染 traveller) was seated by the host."""


class Trigger(StrEnum):
    """What caused a transition."""

    PLAYER = "player"
    BOT = "bot"
    HOST = "host"
    HURRY = "hurry"
    """催战 by the creator."""
    DEADLINE = "deadline"
    """The scheduler (or a poll) found the deadline passed."""
    AUTO = "auto"
    """The room filled and started by itself."""
    CREATOR = "creator"
    """The creator pressed 开战."""


class SeatEntry(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    seat: int
    user: str
    name: str
    consort: str | None = None
    bot: BotLevel | None = None
    """A bot plays this seat (filled by the creator, or handed over after a vote); None = its user."""

    @property
    def person(self) -> bool:
        """A person's seat, even while a bot plays it for her (a handover); False for a bot's own seat."""
        return not self.user.startswith(BOT_USER_PREFIX)


class PendingInfo(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    kind: PendingKind
    seats: tuple[int, ...] = ()
    deadline_ms: int | None = None
    label: str = ""
    clock: str | None = None


class JoinRequest(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    user: str
    name: str
    at_ms: int


class HandoverVote(BaseModel):
    """A proposal to hand an absent player's seat to a bot, and the other players' votes on it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    seat: int
    level: BotLevel
    yes: tuple[int, ...] = ()
    no: tuple[int, ...] = ()
    opened_ms: int


class Teammate(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    user: str
    name: str


class AgainOf(BaseModel):
    """Where a 再战 room comes from: the finished room, and its people (not its bots), by the names the
    table knew them by, so the new room's waiting screen can say who has not come yet."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    room: str
    people: tuple[Teammate, ...] = ()


class AgainLink(BaseModel):
    """The room a finished room's table plays again in (再战), opened by the first of them who asked."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    room: str
    by: str
    """Who opened it, by the name the table knew her by (her seat's name; the host's own)."""
    user: str | None = None
    """Her user id (so she is told it is her own room, not asked to join it)."""
    n: int = 1
    """Which opening this is: a rematch room closed before it started (its opener left) is followed by
    the next, whose id differs."""
    playing: dict[str, str] | None = None
    """The table's people seated in an earlier opening that went on (filled or started) without those
    who asked after: by user id, that opening's room id (the latest she sat in). Her tap is answered her
    game there, never a second seat, with one read however many openings came before. None: a link
    kept before this was (only the opening before it is looked at)."""


class Room(BaseModel):
    """A room as stored. `state` is the game's state as JSON; `seed` is secret until the end."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    id: str
    game: str
    title: str
    status: RoomStatus
    version: int = 0
    step: int = 0
    creator: str
    creator_name: str
    host: str | None = None
    """User who hosts (storyteller / tournament 司礼) and does not sit."""
    competition: Competition = Competition.FREE
    seats: tuple[SeatEntry, ...] = ()
    max_seats: int
    min_seats: int
    options: dict[str, Any] = {}
    password_hash: str | None = None
    seed: bytes | None = None
    seed_hash: str | None = None
    state: dict[str, Any] | None = None
    pending: PendingInfo | None = None
    results: tuple[str, ...] = ()
    created_ms: int
    updated_ms: int
    active_ms: int
    """Last time a human did something here (the idle sweep measures from it)."""
    ended_ms: int | None = None
    request_hash: str | None = None
    """For a create with an Idempotency-Key: what was asked, so the key cannot be reused for another."""
    ply: int | None = None
    """Position of the next transition in the effective history (None: the same as `step`). Each
    transition draws from `Rng(seed, ply)`; an undo steps it back, so a press undone and made again
    draws exactly what it drew the first time. Without undos it always equals `step`."""
    requests: tuple[JoinRequest, ...] = ()
    """Players asking to join a running `late_join` game (the host admits or declines them)."""
    handover: HandoverVote | None = None
    """An open vote on handing an absent player's seat to a bot."""
    bot_played: bool = False
    """A bot has played a seat handed over by a vote, even if her player took it back since: the game
    stays practice (docs/rules/platform.md P1) — its moves were not all people's."""
    code: str | None = None
    """The room's 房号: six digits a player can say aloud and a friend type in the lobby (unique among
    rooms created in the last `ROOM_CODE_LIFE_S`). None for rooms created before codes existed."""
    again: dict[str, AgainLink] = {}
    """再战 rooms opened from this finished room, by what they replay: the stage ("3") or "same"."""
    again_of: AgainOf | None = None
    """A 再战 room: the finished room it replays and the people who sat there (whom it waits for)."""
    missed: dict[str, int] = {}
    """seat -> sealed rounds in a row settled without a move of hers (reset by her next move, or a
    bot's on her seat): `ABSENT_ROUNDS` of them and her seat may be handed to a bot."""
    undo_block: str | None = None
    """A hosted game under way: why the host's 撤销 cannot take back the last transition that stands
    (None: it can; also a room no one hosts). Kept with each transition, so the host's view greys 撤销
    with the reason without reading the log (docs/rules/platform.md P4)."""
    acted: dict[str, str] = {}
    """user -> a digest of the Idempotency-Key of her last applied action where she sees no step (血染's
    players): without a step, only this tells her retried action from a new one."""

    def code_at(self, now_ms: int) -> str | None:
        """The 房号 if it still leads here at `now_ms` (None once older than its life)."""
        if self.code is None or now_ms // 1000 > self.created_ms // 1000 + ROOM_CODE_LIFE_S:
            return None
        return self.code

    @property
    def next_ply(self) -> int:
        return self.step if self.ply is None else self.ply

    def rng(self) -> Rng:
        """The generator of the next transition."""
        return Rng(self.seed or b"", self.next_ply)

    def seat_of(self, user: str) -> SeatEntry | None:
        return next((s for s in self.seats if s.user == user), None)

    def takes_part(self, user: str) -> bool:
        """She sits at this table or hosts it (the host sits nowhere)."""
        return self.host == user or self.seat_of(user) is not None

    def heir(self, user: str) -> SeatEntry | None:
        """Who the room passes to if its creator `user` leaves before the start: the first other person
        seated (a bot cannot press 开战 or seat anyone); None: only bots, or nobody, would be left."""
        return next((s for s in self.seats if s.user != user and s.bot is None), None)

    @property
    def bot_seats(self) -> dict[int, BotLevel]:
        return {s.seat: s.bot for s in self.seats if s.bot is not None}

    @property
    def practice(self) -> bool:
        """练习: a bot sits at the table or has played in this game; boards and records ignore it (P1)."""
        return self.bot_played or any(s.bot is not None for s in self.seats)

    @property
    def full(self) -> bool:
        return len(self.seats) >= self.max_seats

    @property
    def has_password(self) -> bool:
        return self.password_hash is not None


class MoveRecord(BaseModel):
    """A sealed move for one seat at one step. `by` says who wrote it."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    step: int
    seat: int
    action: dict[str, Any] | None
    """None = the seat did not submit (placeholder written when the round closed)."""
    by: MoveSource
    at_ms: int


class LogRecord(BaseModel):
    """One applied transition, enough to replay it: the actor, the action(s) and the events."""

    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)

    step: int
    kind: LogKind
    label: str = ""
    actor: dict[str, Any] | None = None
    action: dict[str, Any] | None = None
    moves: dict[str, dict[str, Any]] | None = None
    """settle: seat (as string) -> action, only the seats that submitted."""
    events: list[dict[str, Any]] = []
    at_ms: int
    trigger: Trigger | None = None
    ply: int | None = None
    """The transition's position in the effective history (its Rng); None: the same as `step`."""
    undoes: int | None = None
    """UNDO: the step of the transition it took back."""
