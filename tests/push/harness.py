"""Push on the in-memory stores, in milliseconds: a room store that writes a stream record for every
committed write exactly as DynamoDB Streams would (NEW_AND_OLD_IMAGES, the items as the DynamoDB
adapter encodes them), the in-memory push store, and a recording fake of the gateway (`Sockets`).
`Harness.pump()` hands the records written so far to the stream handler's own code
(`chalicelib.push.fanout.handle_records`). The moto/HTTP path is covered by test_stream_integration."""

from __future__ import annotations

import itertools
import json
from collections import defaultdict
from dataclasses import dataclass, field
from typing import Any

from chalicelib.auth import tokens
from chalicelib.core.clock import FixedClock
from chalicelib.core.identity import Caller
from chalicelib.domain.model import LogRecord, MoveRecord, Room
from chalicelib.push import service
from chalicelib.push.fanout import FanoutReport, handle_records, wanted
from chalicelib.push.service import PushDeps
from chalicelib.rooms.deps import RoomDeps
from chalicelib.store import codec
from chalicelib.store.memory import MemoryStore
from chalicelib.store.memory_push import MemoryPushStore

KEY = b"push-tests-token-key-0123456789abcdef"


def _keys(pk: str, sk: str) -> dict[str, Any]:
    return {"pk": {"S": pk}, "sk": {"S": sk}}


class StreamingStore(MemoryStore):
    """MemoryStore whose writes also land on a stream, in commit order."""

    def __init__(self) -> None:
        super().__init__()
        self.stream: list[dict[str, Any]] = []

    def _emit(self, name: str, pk: str, sk: str, new: dict[str, Any], old: dict[str, Any] | None = None) -> None:
        record: dict[str, Any] = {"eventName": name, "eventSource": "aws:dynamodb", "dynamodb": {
            "Keys": _keys(pk, sk), "NewImage": new, "StreamViewType": "NEW_AND_OLD_IMAGES"}}
        if old is not None:
            record["dynamodb"]["OldImage"] = old
        self.stream.append(record)

    def _room(self, old: Room | None, new: Room) -> None:
        self._emit("MODIFY" if old else "INSERT", f"ROOM#{new.id}", "ROOM", codec.room_to_item(new),
                   codec.room_to_item(old) if old else None)

    def _move(self, room_id: str, move: MoveRecord) -> None:
        self._emit("INSERT", f"ROOM#{room_id}", f"MOVE#{move.step:06d}#{move.seat:02d}",
                   codec.move_to_item(room_id, move, 0))

    def create_room(self, room: Room) -> bool:
        with self._lock:
            ok = super().create_room(room)
            if ok:
                self._room(None, room)
            return ok

    def save_room(self, room: Room, expected_version: int) -> None:
        with self._lock:
            old = self.rooms.get(room.id)
            super().save_room(room, expected_version)
            self._room(old, room)

    def put_move(self, room_id: str, move: MoveRecord) -> MoveRecord | None:
        with self._lock:
            existing = super().put_move(room_id, move)
            if existing is None:
                self._move(room_id, move)
            return existing

    def commit(self, room: Room, expected_version: int, log: LogRecord, moves=(), side_writes=()) -> None:
        with self._lock:
            old = self.rooms.get(room.id)
            super().commit(room, expected_version, log, moves, side_writes)
            self._room(old, room)
            self._emit("INSERT", f"ROOM#{room.id}", f"LOG#{log.step:06d}", codec.log_to_item(room.id, log))
            for m in moves:
                self._move(room.id, m)


def is_sealed_notice(message: Any) -> bool:
    """`{"type": "sealed", "room": R, "step": S, "seat": k}` exactly: nothing of the move."""
    return (isinstance(message, dict) and set(message) == {"type", "room", "step", "seat"}
            and message["type"] == "sealed" and isinstance(message["room"], str)
            and all(type(message[k]) is int for k in ("step", "seat")))


@dataclass
class Sockets:
    """push's Sender: what each connection was sent; connections listed in `gone` answer 410."""

    inbox: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))
    gone: set[str] = field(default_factory=set)
    closed: list[str] = field(default_factory=list)
    seen: dict[str, list[dict[str, Any]]] = field(default_factory=dict)

    def send(self, connection_id: str, message: Any) -> bool:
        if connection_id in self.gone:
            return False
        self.inbox[connection_id].append(json.loads(json.dumps(message)))
        return True

    def close(self, connection_id: str) -> None:
        self.closed.append(connection_id)

    def take(self, connection_id: str) -> list[dict[str, Any]]:
        out = list(self.inbox[connection_id])
        self.inbox[connection_id].clear()
        return out

    def changes(self, connection_id: str, *, views: bool = False) -> list[str]:
        """The rooms of the change notices received since the last look (asserting their shape: a
        version only where the viewer sees it, checked by `versions`; with `views`, where the stage pushes
        them, a notice may also carry a view of that room and its tag). Sealed-move notices are left in
        the inbox for `sealed` (their shape asserted here too): nothing else may have come."""
        inbox = self.inbox[connection_id]
        got = [m for m in inbox if m.get("type") == "changed"]
        rest = [m for m in inbox if m.get("type") != "changed"]
        self.inbox[connection_id] = rest
        self.seen[connection_id] = got
        assert all(is_sealed_notice(m) for m in rest), rest
        shapes = [{"type", "room"}, {"type", "room", "version"}]
        if views:
            shapes += [s | {"view", "etag"} for s in shapes]
        assert all(set(m) in shapes and m["type"] == "changed" for m in got), got
        assert all(m["view"]["room"]["id"] == m["room"] for m in got if "view" in m), got
        return [m["room"] for m in got]

    def sealed(self, connection_id: str) -> list[tuple[str, int, int]]:
        """The (room, step, seat) of the sealed-move notices received since the last look, asserting
        their exact shape; change notices are left for `changes`."""
        inbox = self.inbox[connection_id]
        got = [m for m in inbox if m.get("type") == "sealed"]
        self.inbox[connection_id] = [m for m in inbox if m.get("type") != "sealed"]
        assert all(is_sealed_notice(m) for m in got), got
        return [(m["room"], m["step"], m["seat"]) for m in got]

    def versions(self, connection_id: str) -> list[int | None]:
        """The versions the notices returned by the last `changes` carried (None: none)."""
        return [m.get("version") for m in self.seen.get(connection_id, [])]


@dataclass
class Harness:
    rooms: RoomDeps
    store: StreamingStore
    push: PushDeps
    sockets: Sockets
    clock: FixedClock
    ids: Any = field(default_factory=lambda: itertools.count(1))
    notices: list[tuple[int, int, Any, dict[str, bool]]] = field(default_factory=list)

    def token(self, caller: Caller) -> str:
        return tokens.issue(KEY, caller, self.clock.now_ms() // 1000, 7200)[0]

    def connect(self, caller: Caller) -> str:
        cid = f"c{next(self.ids)}="
        service.connect(self.push, cid, self.token(caller))
        return cid

    def say(self, cid: str, message: Any) -> dict[str, Any]:
        return service.handle(self.push, cid, message if isinstance(message, str) else json.dumps(message))

    def socket(self, caller: Caller, *rooms: str) -> str:
        cid = self.connect(caller)
        for room in rooms:
            assert self.say(cid, {"action": "subscribe", "room": room}) == {"type": "subscribed", "room": room}
        return cid

    def pump(self) -> FanoutReport:
        records = [r for r in self.store.stream if wanted(r)]
        self.store.stream.clear()
        return handle_records(self.push, records)


def harness(*, seed: bytes = bytes(range(32))) -> Harness:
    store = StreamingStore()
    clock = FixedClock()
    ids = (f"room{i}" for i in itertools.count())
    rooms = RoomDeps(rooms=store, accounts=store, clock=clock, new_seed=lambda: seed, new_id=lambda: next(ids))
    sockets = Sockets()
    h = Harness(rooms=rooms, store=store, push=PushDeps(store=MemoryPushStore(), rooms=rooms, sender=sockets,
                                                       token_keys=lambda: KEY),
                sockets=sockets, clock=clock)

    def hook(old: Room, new: Room, trigger: Any, is_watching: Any) -> None:
        h.notices.append((old.version, new.version, trigger,
                          {s.user: is_watching(new.id, s.user) for s in new.seats}))

    h.push.notices = hook
    return h
