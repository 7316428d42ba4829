"""What the services need from storage, in domain terms (no boto3 types cross this line).

Writes that must land together with a room transition (final results, records, board entries,
stage unlocks) are passed as small values to `RoomStore.commit`, which writes them all in one
transaction guarded by the room's version, so they happen exactly once.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Protocol

from chalicelib.domain.model import Competition, LogRecord, MoveRecord, Room, RoomStatus


@dataclass(frozen=True)
class MoveSlot:
    """One seat's sealed move at one step of one room (written or not)."""

    room_id: str
    step: int
    seat: int


@dataclass(frozen=True)
class ResultWrite:
    unit: str
    outcome: dict[str, Any]
    step: int = 0
    """The transition that produced it (results list in the order they happened)."""


@dataclass(frozen=True)
class RecordIncrement:
    """Add to one subject's cumulative record on one board (and move her on the board index)."""

    board: str
    subject: str
    subject_name: str
    counters: dict[str, float]
    score_delta: float


@dataclass(frozen=True)
class ClearEntry:
    """A 宫斗杀 stage clear for the fastest-clear board (one per stage and competition: boards never mix)."""

    stage: int
    rounds: int
    ended_ms: int
    room_id: str
    team: tuple[dict[str, Any], ...]
    competition: Competition = Competition.FREE


@dataclass(frozen=True)
class StageCleared:
    consort_id: str
    stage: int


SideWrite = ResultWrite | RecordIncrement | ClearEntry | StageCleared


@dataclass(frozen=True)
class Page[T]:
    items: list[T]
    cursor: str | None = None
    """Opaque and signed: pass it back to get the next page."""


@dataclass(frozen=True)
class LobbyCard:
    """A room as the lobby lists it, waiting or under way (what the lobby index projects)."""

    id: str
    game: str
    title: str
    status: str
    seat_count: int
    max_seats: int
    creator_name: str
    has_password: bool
    competition: str

    @classmethod
    def of(cls, room: Room) -> LobbyCard:
        return cls(id=room.id, game=room.game, title=room.title, status=room.status.value,
                   seat_count=len(room.seats), max_seats=room.max_seats, creator_name=room.creator_name,
                   has_password=room.has_password, competition=room.competition.value)


@dataclass(frozen=True)
class Consort:
    id: str
    name: str
    looks: int
    talent: int
    favor: int
    power: int
    owner: str | None = None
    owner_name: str | None = None
    maids: dict[str, int] = field(default_factory=dict)
    cleared_stages: frozenset[int] = frozenset()
    created_ms: int = 0


@dataclass(frozen=True)
class User:
    id: str
    name: str
    role: str
    consort: str | None = None
    created_ms: int = 0
    openid: str | None = None
    """Who WeChat says she is (never shown): her role is decided from it at every login and refresh."""


@dataclass(frozen=True)
class BoardRow:
    subject: str
    subject_name: str
    score: float
    games: int
    wins: int
    kills: float = 0
    deaths: float = 0
    damage: float = 0

    @classmethod
    def of(cls, v: dict[str, Any]) -> BoardRow:
        """From a stored record (the board index projection)."""
        return cls(subject=str(v["subject"]), subject_name=str(v.get("subject_name", "")),
                   score=float(v.get("score", 0)), games=int(v.get("games", 0)), wins=int(v.get("wins", 0)),
                   kills=float(v.get("kills", 0)), deaths=float(v.get("deaths", 0)),
                   damage=float(v.get("damage", 0)))


class RoomStore(Protocol):
    def create_room(self, room: Room) -> bool:
        """Put a new room; False if the id exists already (idempotent create). A room with a `code`
        also takes that 房号, unless a room created less than `ROOM_CODE_LIFE_S` before holds it
        (RoomCodeTaken: nothing written)."""
        ...

    def find_code(self, code: str) -> str | None:
        """The id of the room that last took this 房号 (it may since have expired: the caller checks)."""
        ...

    def get_room(self, room_id: str) -> Room: ...

    def add_member(self, user: str, room: Room) -> None:
        """Note that `user` plays or hosts `room`, for her 「我的对局」 on any device (a put: a retry
        or a second note changes nothing). Kept as long as a 房号 (`ROOM_CODE_LIFE_S`): far longer
        than a room lives."""
        ...

    def member_rooms(self, user: str, limit: int) -> list[Room]:
        """The rooms noted for `user` and not marked done, newest first (at most `limit`), as they
        stand now but without their game state; a room since gone is left out."""
        ...

    def member_done(self, user: str, room: Room) -> None:
        """Mark `user`'s note of `room` done (the room ended: it can never be live again): later lists
        skip it, so her finished rooms never crowd out a live one, and it expires. Lists look through
        at most `MEMBER_SCAN` notes, done ones included."""
        ...

    def save_room(self, room: Room, expected_version: int) -> None:
        """Replace the room item if its version is still `expected_version` (else StaleVersion)."""
        ...

    def put_move(self, room_id: str, move: MoveRecord) -> MoveRecord | None:
        """Write a sealed move once; returns the existing move instead if the slot is taken."""
        ...

    def list_moves(self, room_id: str, step: int) -> dict[int, MoveRecord]: ...

    def moves_made(self, slots: Sequence[MoveSlot]) -> set[MoveSlot]:
        """Which of these (room, step, seat) slots hold a submitted move (one read for them all: a
        player's 「我的对局」 asks it of her sealed rounds)."""
        ...

    def commit(
        self,
        room: Room,
        expected_version: int,
        log: LogRecord,
        moves: Sequence[MoveRecord] = (),
        side_writes: Sequence[SideWrite] = (),
    ) -> None:
        """One transaction: the new room (version-guarded), its log entry, sealed-move items (the
        placeholders that close a round, or moves carried into a new round; each only if the seat's
        slot is still empty) and the side writes."""
        ...

    def get_log(self, room_id: str, step: int) -> LogRecord | None: ...

    def list_log(self, room_id: str, after_step: int, limit: int | None,
                 consistent: bool = False) -> list[LogRecord]:
        """Log entries after `after_step`, oldest first (all when limit is None). `consistent`: a strongly
        consistent read, for a caller that builds state from the log (an eventually consistent Query
        may briefly miss the entry written with the room item just read)."""
        ...

    def list_results(self, room_id: str) -> list[dict[str, Any]]: ...

    def list_lobby(self, game: str, status: RoomStatus, limit: int, cursor: str | None) -> Page[LobbyCard]:
        """The game's rooms waiting for players (OPEN) or under way (ACTIVE), newest first.

        Raises:
            MalformedRequest: BAD_CURSOR for a cursor that is not ours (tampered, or from another list).
        """
        ...

    def due_rooms(self, now_ms: int, limit: int) -> list[str]: ...

    def idle_rooms(self, now_ms: int, limit: int) -> list[str]: ...

    def defer_due(self, room_id: str, version: int, until_ms: int) -> None:
        """Keep a room the overdue sweep failed on out of `due_rooms` until `until_ms`, unless it
        changed since (`version`); its next save puts it back at its deadline."""
        ...

    def add_watcher(self, room_id: str, user: str, now_ms: int) -> None: ...

    def is_watcher(self, room_id: str, user: str) -> bool: ...

    def reserve_password_check(self, room_id: str, user: str, now_ms: int, window_ms: int,
                               limit: int) -> int | None:
        """Take one of `limit` 暗号 checks per sliding `window_ms` for this user and room, atomically:
        None when taken; when `limit` checks were already taken within the window (however many ask
        at once), the milliseconds until the oldest of them leaves it."""
        ...

    def reserve_room_opening(self, user: str, room_id: str, now_ms: int, window_ms: int,
                             limit: int) -> int | None:
        """Take one of `limit` room openings per sliding `window_ms` for this user, atomically, as
        `reserve_password_check` does (each room holds a 房号 for days, whatever becomes of it); one
        already taken for `room_id` in the window is hers still (a retried create), and None."""
        ...

    def reserve_text_check(self, user: str, now_ms: int, window_ms: int, limit: int) -> int | None:
        """Take one of `limit` content-checked texts per sliding `window_ms` for this user, whatever
        the room, atomically, as `reserve_password_check` does (each spends a call of the app's WeChat
        quota): None when taken, else the milliseconds until the oldest leaves the window."""
        ...


class AccountStore(Protocol):
    def get_user(self, uid: str) -> User | None: ...

    def ensure_user(self, user: User, openid: str, *, keep_name: bool = False) -> User:
        """Create the user on first login; afterwards keep her record (her 妃子, when she came) and set
        her name and role — her name only if she was created now, with `keep_name` (a login that
        names nobody: a stored name is not overwritten by a default)."""
        ...

    def create_consort(self, consort: Consort) -> None: ...

    def get_consort(self, cid: str) -> Consort: ...

    def get_consorts(self, cids: list[str]) -> dict[str, Consort]: ...

    def list_consorts(self) -> list[Consort]: ...

    def claim_consort(self, cid: str, user: User) -> None: ...

    def grant_maid(self, cid: str, card: str, level: int) -> Consort: ...

    def get_open_games(self) -> dict[str, bool] | None: ...

    def update_open_games(self, changes: dict[str, bool]) -> dict[str, bool]:
        """Merge these games' settings into the stored ones, each key on its own (two admins changing
        different games both stay); returns all stored settings."""
        ...


class RecordStore(Protocol):
    def top(self, board: str, limit: int) -> list[BoardRow]: ...

    def record(self, board: str, subject: str) -> dict[str, Any] | None: ...

    def count_above(self, board: str, score: float) -> int:
        """How many subjects on the board have a strictly higher score."""
        ...

    def fastest(self, stage: int, limit: int, competition: Competition = Competition.FREE) -> list[dict[str, Any]]: ...


# -- push (WebSocket room notices) -------------------------------------------------------------------

@dataclass(frozen=True)
class Connection:
    """A live WebSocket connection: who opened it (her token was checked on connect), until when it
    may be used, and the rooms it is subscribed to."""

    id: str
    user: str
    name: str
    role: str
    connected_ms: int
    expires_s: int
    """Epoch seconds: the token's expiry (at most the gateway's 2 hours); also the item's TTL."""
    rooms: frozenset[str] = frozenset()


@dataclass(frozen=True)
class Subscription:
    """One connection watching one room. The viewer is worked out again from the room at each change
    (a spectator who sits down becomes a player); `tag` is the ETag of the view she was last told of."""

    room_id: str
    connection_id: str
    user: str
    role: str
    expires_s: int
    watcher: bool = False
    """She gave the room's 暗号 (spectators of a room with a password), as `is_watcher` said on subscribe."""
    tag: str | None = None
    version: int = 0
    """The room version that view was worked out from: an older image (a late or redelivered stream
    record) is never announced. Kept server-side; a notice never carries it."""


class PushStore(Protocol):
    def put_connection(self, conn: Connection) -> None: ...

    def get_connection(self, connection_id: str) -> Connection | None: ...

    def delete_connection(self, connection_id: str) -> Connection | None:
        """Remove the connection and every subscription it holds; returns what was removed (None: gone already)."""
        ...

    def subscribe(self, sub: Subscription, max_rooms: int) -> bool:
        """Add the room to the connection and store the subscription (replacing one for the same room).
        False when the connection is gone or already holds `max_rooms` other rooms."""
        ...

    def unsubscribe(self, connection_id: str, room_id: str) -> None: ...

    def subscriptions(self, room_id: str) -> list[Subscription]:
        """Every subscription to the room (expired ones included: the caller drops them)."""
        ...

    def set_tag(self, room_id: str, connection_id: str, tag: str, version: int) -> bool:
        """Remember the view she was told of (and the room version it was worked out from); False when
        the subscription is gone (it is never recreated)."""
        ...
