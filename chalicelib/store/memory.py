"""An in-memory store with the DynamoDB adapters' semantics: the same conditions (put if absent,
version guards, all-or-nothing commits), the same sparse-index rules, the same domain errors.

It implements the room, account and record ports over one set of dicts (a commit's side writes
touch consorts and records, as the DynamoDB transaction does) and passes the same contract suite
as the DynamoDB adapters (`tests/contract/`). Room-service tests run on it in milliseconds.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from chalicelib.core.errors import Conflict, NotFound, RoomCodeTaken, StaleVersion
from chalicelib.domain.model import ROOM_CODE_LIFE_S, Competition, LogRecord, MoveRecord, Room, RoomStatus
from chalicelib.domain.ports import (
    BoardRow,
    ClearEntry,
    Consort,
    LobbyCard,
    MoveSlot,
    Page,
    RecordIncrement,
    ResultWrite,
    SideWrite,
    StageCleared,
    User,
)
from chalicelib.store.cursors import CursorCodec
from chalicelib.store.table import MEMBER_SCAN, idle_key, lobby_scope


class _Cancelled(Exception):
    """A condition inside a commit failed: nothing of it is applied."""


class MemoryStore:
    """RoomStore + AccountStore + RecordStore in one process (tests, tools). Thread-safe."""

    def __init__(self, cursor_secret: bytes = b"memory-store-cursors") -> None:
        self._lock = threading.RLock()
        self.rooms: dict[str, Room] = {}
        self.moves: dict[tuple[str, int, int], MoveRecord] = {}
        self.logs: dict[tuple[str, int], LogRecord] = {}
        self.results: dict[tuple[str, str], tuple[int, dict[str, Any]]] = {}
        self.watchers: set[tuple[str, str]] = set()
        self.members: dict[str, dict[tuple[int, str], str]] = {}
        """user -> (room created ms, room id) -> room id: the rooms she plays or hosts."""
        self.members_done: set[tuple[str, str]] = set()
        """(user, room id): notes marked done (the room ended, or she left it)."""
        self.deferred: dict[str, tuple[int, int]] = {}
        """room id -> (version, ms): a failing room kept out of the due rooms until then."""
        self.rings: dict[tuple[str, str], list[tuple[int, str]]] = {}
        """Sliding-window rings: (room, user) 暗号 checks, ("", user) openings, ("TEXTS", user) texts: (time, what for)."""
        self.users: dict[str, User] = {}
        self.consorts: dict[str, Consort] = {}
        self.settings: dict[str, Any] = {}
        self.records: dict[tuple[str, str], dict[str, Any]] = {}
        self.clears: dict[tuple[Competition, int], dict[str, dict[str, Any]]] = {}
        self.codes: dict[str, tuple[str, int]] = {}
        """房号 -> (room id, expiry in epoch seconds)."""
        self._cursors = CursorCodec(cursor_secret)

    # -- rooms -------------------------------------------------------------------------------------

    def create_room(self, room: Room) -> bool:
        with self._lock:
            if room.id in self.rooms:
                return False
            if room.code is not None:
                created_s = room.created_ms // 1000
                held = self.codes.get(room.code)
                if held is not None and held[1] >= created_s:
                    raise RoomCodeTaken()
                self.codes[room.code] = (room.id, created_s + ROOM_CODE_LIFE_S)
            self.rooms[room.id] = room
            return True

    def find_code(self, code: str) -> str | None:
        with self._lock:
            held = self.codes.get(code)
        return held[0] if held else None

    def add_member(self, user: str, room: Room) -> None:
        with self._lock:
            self.members.setdefault(user, {})[(room.created_ms, room.id)] = room.id
            self.members_done.discard((user, room.id))

    def member_done(self, user: str, room: Room) -> None:
        with self._lock:
            if (room.created_ms, room.id) in self.members.get(user, {}):
                self.members_done.add((user, room.id))

    def member_rooms(self, user: str, limit: int) -> list[Room]:
        with self._lock:
            seen = sorted(self.members.get(user, {}), reverse=True)[:MEMBER_SCAN]  # as DynamoDB's pages do
            live = [k for k in seen if (user, k[1]) not in self.members_done]
            rooms = [self.rooms.get(room_id) for _, room_id in live[:limit]]
        return [r.model_copy(update={"state": None, "seed": None}) for r in rooms if r is not None]

    def get_room(self, room_id: str) -> Room:
        with self._lock:
            room = self.rooms.get(room_id)
        if room is None:
            raise NotFound("找不到这个房间", code="ROOM_NOT_FOUND")
        return room

    def save_room(self, room: Room, expected_version: int) -> None:
        with self._lock:
            current = self.rooms.get(room.id)
            if current is None or current.version != expected_version:
                raise StaleVersion()
            self.rooms[room.id] = room

    def put_move(self, room_id: str, move: MoveRecord) -> MoveRecord | None:
        key = (room_id, move.step, move.seat)
        with self._lock:
            existing = self.moves.get(key)
            if existing is not None:
                return existing
            self.moves[key] = move
            return None

    def list_moves(self, room_id: str, step: int) -> dict[int, MoveRecord]:
        with self._lock:
            return {seat: m for (rid, st, seat), m in self.moves.items() if rid == room_id and st == step}

    def moves_made(self, slots: Sequence[MoveSlot]) -> set[MoveSlot]:
        with self._lock:
            return {s for s in slots if (m := self.moves.get((s.room_id, s.step, s.seat))) and m.by.submitted}

    def commit(self, room: Room, expected_version: int, log: LogRecord, moves: Sequence[MoveRecord] = (),
               side_writes: Sequence[SideWrite] = ()) -> None:
        with self._lock:
            try:
                self._check_commit(room, expected_version, log, moves, side_writes)
            except _Cancelled as e:
                raise StaleVersion() from e
            self.rooms[room.id] = room
            self.logs[(room.id, log.step)] = log
            for m in moves:
                self.moves[(room.id, m.step, m.seat)] = m
            for w in side_writes:
                self._apply_side_write(room.id, w)

    def _check_commit(self, room: Room, expected_version: int, log: LogRecord, moves: Sequence[MoveRecord],
                      side_writes: Sequence[SideWrite]) -> None:
        current = self.rooms.get(room.id)
        if current is None or current.version != expected_version:
            raise _Cancelled("version")
        if (room.id, log.step) in self.logs:
            raise _Cancelled("log")
        if any((room.id, m.step, m.seat) in self.moves for m in moves):
            raise _Cancelled("move")
        for w in side_writes:
            if isinstance(w, ResultWrite) and (room.id, w.unit) in self.results:
                raise _Cancelled("result")
            if isinstance(w, ClearEntry) and self._clear_sk(w) in self.clears.get((w.competition, w.stage), {}):
                raise _Cancelled("clear")
            if isinstance(w, StageCleared) and w.consort_id not in self.consorts:
                raise _Cancelled("consort")

    @staticmethod
    def _clear_sk(w: ClearEntry) -> str:
        return f"{w.rounds:03d}#{w.ended_ms:013d}#{w.room_id}"

    def _apply_side_write(self, room_id: str, w: SideWrite) -> None:
        if isinstance(w, ResultWrite):
            self.results[(room_id, w.unit)] = (w.step, w.outcome)
        elif isinstance(w, RecordIncrement):
            rec = self.records.setdefault((w.board, w.subject), {"subject": w.subject, "score": 0.0})
            rec["subject_name"] = w.subject_name
            rec["score"] = float(rec["score"]) + w.score_delta
            for counter, amount in w.counters.items():
                rec[counter] = rec.get(counter, 0) + amount
        elif isinstance(w, ClearEntry):
            self.clears.setdefault((w.competition, w.stage), {})[self._clear_sk(w)] = {
                "stage": w.stage, "rounds": w.rounds, "ended_ms": w.ended_ms, "room": w.room_id,
                "team": [dict(m) for m in w.team]}
        elif isinstance(w, StageCleared):
            c = self.consorts[w.consort_id]
            self.consorts[w.consort_id] = replace(c, cleared_stages=c.cleared_stages | {w.stage})

    def get_log(self, room_id: str, step: int) -> LogRecord | None:
        with self._lock:
            return self.logs.get((room_id, step))

    def list_log(self, room_id: str, after_step: int, limit: int | None,
                 consistent: bool = False) -> list[LogRecord]:
        with self._lock:
            logs = sorted((log for (rid, st), log in self.logs.items() if rid == room_id and st > after_step),
                          key=lambda log: log.step)
        return logs if limit is None else logs[:limit]

    def list_results(self, room_id: str) -> list[dict[str, Any]]:
        with self._lock:
            rows = [(step, unit, body) for (rid, unit), (step, body) in self.results.items() if rid == room_id]
        return [body for _, _, body in sorted(rows, key=lambda r: (r[0], r[1]))]

    def list_lobby(self, game: str, status: RoomStatus, limit: int, cursor: str | None) -> Page[LobbyCard]:
        scope = lobby_scope(game, status)
        start = self._cursors.decode(cursor, scope=scope)
        with self._lock:
            rooms = sorted((r for r in self.rooms.values() if r.status is status and r.game == game),
                           key=lambda r: (r.created_ms, r.id), reverse=True)
        if start is not None:
            after = (int(start["created_ms"]), str(start["id"]))
            rooms = [r for r in rooms if (r.created_ms, r.id) < after]
        page = rooms[:limit]
        more = len(rooms) > limit
        next_cursor = (self._cursors.encode({"created_ms": page[-1].created_ms, "id": page[-1].id},
                                            scope=scope) if more and page else None)
        return Page(items=[LobbyCard.of(r) for r in page], cursor=next_cursor)

    def _due_key(self, r: Room) -> int | None:
        if r.status is not RoomStatus.ACTIVE or r.pending is None or r.pending.deadline_ms is None:
            return None
        deferred = self.deferred.get(r.id)
        return deferred[1] if deferred is not None and deferred[0] == r.version else r.pending.deadline_ms

    def due_rooms(self, now_ms: int, limit: int) -> list[str]:
        with self._lock:
            due = [(key, r.id) for r in self.rooms.values() if (key := self._due_key(r)) is not None and key <= now_ms]
        return [rid for _, rid in sorted(due)][:limit]

    def defer_due(self, room_id: str, version: int, until_ms: int) -> None:
        with self._lock:
            room = self.rooms.get(room_id)
            if room is not None and room.version == version and self._due_key(room) is not None:
                self.deferred[room_id] = (version, until_ms)

    def idle_rooms(self, now_ms: int, limit: int) -> list[str]:
        with self._lock:
            idle = [(key, r.id) for r in self.rooms.values() if (key := idle_key(r)) is not None and key <= now_ms]
        return [rid for _, rid in sorted(idle)][:limit]

    def add_watcher(self, room_id: str, user: str, now_ms: int) -> None:
        with self._lock:
            self.watchers.add((room_id, user))

    def is_watcher(self, room_id: str, user: str) -> bool:
        with self._lock:
            return (room_id, user) in self.watchers

    def reserve_password_check(self, room_id: str, user: str, now_ms: int, window_ms: int,
                               limit: int) -> int | None:
        return self._reserve((room_id, user), now_ms, window_ms, limit)

    def reserve_room_opening(self, user: str, room_id: str, now_ms: int, window_ms: int,
                             limit: int) -> int | None:
        return self._reserve(("", user), now_ms, window_ms, limit, room_id)

    def reserve_text_check(self, user: str, now_ms: int, window_ms: int, limit: int) -> int | None:
        return self._reserve(("TEXTS", user), now_ms, window_ms, limit)

    def _reserve(self, key: tuple[str, str], now_ms: int, window_ms: int, limit: int,
                 tag: str | None = None) -> int | None:
        with self._lock:
            taken = [(t, g) for t, g in self.rings.get(key, []) if t > now_ms - window_ms]
            if tag is not None and any(g == tag for _, g in taken):
                return None
            if len(taken) >= limit:
                return min(t for t, _ in taken) + window_ms - now_ms
            self.rings[key] = [*taken, (now_ms, tag or "")]
            return None

    # -- accounts ----------------------------------------------------------------------------------

    def get_user(self, uid: str) -> User | None:
        with self._lock:
            return self.users.get(uid)

    def ensure_user(self, user: User, openid: str, *, keep_name: bool = False) -> User:
        with self._lock:
            old = self.users.get(user.id)
            new = replace(user, openid=openid) if old is None else replace(
                old, name=old.name if keep_name else user.name, role=user.role, openid=openid)
            self.users[user.id] = new
            return new

    def create_consort(self, consort: Consort) -> None:
        with self._lock:
            if consort.id in self.consorts:
                raise Conflict("这个妃子已存在", code="CONSORT_EXISTS")
            self.consorts[consort.id] = replace(consort, owner=None, owner_name=None, cleared_stages=frozenset())

    def get_consort(self, cid: str) -> Consort:
        with self._lock:
            consort = self.consorts.get(cid)
        if consort is None:
            raise NotFound("找不到这位妃子", code="CONSORT_NOT_FOUND")
        return consort

    def get_consorts(self, cids: list[str]) -> dict[str, Consort]:
        with self._lock:
            return {c: self.consorts[c] for c in dict.fromkeys(cids) if c in self.consorts}

    def list_consorts(self) -> list[Consort]:
        with self._lock:
            return [self.consorts[k] for k in sorted(self.consorts)]

    def claim_consort(self, cid: str, user: User) -> None:
        with self._lock:
            consort = self.get_consort(cid)
            if consort.owner not in (None, user.id):
                raise Conflict("这位妃子已被他人认领", code="CONSORT_TAKEN")
            current = self.users.get(user.id)
            if current is None:
                raise Conflict("认领冲突，请重试", code="CLAIM_CONFLICT")
            if current.consort not in (None, cid):
                raise Conflict("你已经认领了一位妃子", code="ALREADY_HAS_CONSORT")
            self.consorts[cid] = replace(consort, owner=user.id, owner_name=user.name)
            self.users[user.id] = replace(current, consort=cid)

    def grant_maid(self, cid: str, card: str, level: int) -> Consort:
        with self._lock:
            consort = self.get_consort(cid)
            updated = replace(consort, maids={**consort.maids, card: level})
            self.consorts[cid] = updated
            return updated

    def get_open_games(self) -> dict[str, bool] | None:
        with self._lock:
            stored = self.settings.get("open")
            return dict(stored) if stored is not None else None

    def update_open_games(self, changes: dict[str, bool]) -> dict[str, bool]:
        with self._lock:
            self.settings["open"] = {**self.settings.get("open", {}), **changes}
            return dict(self.settings["open"])

    # -- records -----------------------------------------------------------------------------------

    def _rows(self, board: str) -> list[dict[str, Any]]:
        return [rec for (b, _), rec in self.records.items() if b == board]

    def top(self, board: str, limit: int) -> list[BoardRow]:
        with self._lock:
            rows = sorted(self._rows(board), key=lambda r: float(r["score"]), reverse=True)[:limit]
        return [BoardRow.of(r) for r in rows]

    def record(self, board: str, subject: str) -> dict[str, Any] | None:
        with self._lock:
            rec = self.records.get((board, subject))
            return dict(rec) if rec is not None else None

    def count_above(self, board: str, score: float) -> int:
        with self._lock:
            return sum(1 for r in self._rows(board) if float(r["score"]) > score)

    def fastest(self, stage: int, limit: int, competition: Competition = Competition.FREE) -> list[dict[str, Any]]:
        with self._lock:
            entries = self.clears.get((competition, stage), {})
            return [dict(entries[sk]) for sk in sorted(entries)[:limit]]
