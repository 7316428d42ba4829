"""Domain values <-> DynamoDB items. Decimal, Binary and compression are handled here and nowhere else."""

from __future__ import annotations

import json
import zlib
from decimal import Decimal
from typing import Any

from boto3.dynamodb.types import Binary, TypeDeserializer, TypeSerializer

from chalicelib.domain.model import LogRecord, MoveRecord, Room, RoomStatus
from chalicelib.domain.ports import MoveSlot
from chalicelib.store.table import LISTED, TTL_ATTRIBUTE, idle_key, lobby_pk, shard_of

_ser = TypeSerializer()
_de = TypeDeserializer()

FINISHED_RETENTION_S = 30 * 24 * 3600
"""Finished rooms are garbage-collected by TTL 30 days after they end (their moves, logs and watchers
60 days after each was written: `dynamodb.LOG_RETENTION_S`)."""


def _plain(value: Any) -> Any:
    """Python value -> something TypeSerializer accepts (floats become Decimal)."""
    if isinstance(value, float):
        return Decimal(repr(value))
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    return value


def _python(value: Any) -> Any:
    """Deserialized DynamoDB value -> plain Python (Decimal -> int/float, Binary -> bytes)."""
    if isinstance(value, Decimal):
        return int(value) if value == value.to_integral_value() else float(value)
    if isinstance(value, Binary):
        return bytes(value.value)
    if isinstance(value, dict):
        return {k: _python(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_python(v) for v in value]
    if isinstance(value, set):
        return {_python(v) for v in value}
    return value


def to_item(values: dict[str, Any]) -> dict[str, Any]:
    return {k: _ser.serialize(_plain(v)) for k, v in values.items() if v is not None}


def from_item(item: dict[str, Any]) -> dict[str, Any]:
    return {k: _python(_de.deserialize(v)) for k, v in item.items()}


def av(value: Any) -> dict[str, Any]:
    """One attribute value."""
    out: dict[str, Any] = _ser.serialize(_plain(value))
    return out


def pack_json(value: Any) -> bytes:
    return zlib.compress(json.dumps(value, ensure_ascii=False, separators=(",", ":")).encode(), 6)


def unpack_json(blob: bytes) -> Any:
    return json.loads(zlib.decompress(blob))


ROOM_CARD_ATTRIBUTES = (
    "id", "game", "title", "status", "version", "step", "creator", "creator_name", "host", "competition",
    "seats", "max_seats", "min_seats", "options", "has_password", "created_ms", "updated_ms", "active_ms",
    "ended_ms", "code", "pending",
)
"""A room item without its game state, seed or requests: enough to list it (`room_from_item` reads it)."""


def member_key_values(user: str, room: Room) -> dict[str, str]:
    """A user's note of a room she plays or hosts, ordered by the room's creation (newest last)."""
    return {"pk": f"USER#{user}", "sk": f"MEMBER#{room.created_ms:013d}#{room.id}"}


def room_key(room_id: str) -> dict[str, Any]:
    return {"pk": {"S": f"ROOM#{room_id}"}, "sk": {"S": "ROOM"}}


def room_to_item(room: Room) -> dict[str, Any]:
    values: dict[str, Any] = {
        "pk": f"ROOM#{room.id}",
        "sk": "ROOM",
        "id": room.id,
        "game": room.game,
        "title": room.title,
        "status": room.status.value,
        "version": room.version,
        "step": room.step,
        "creator": room.creator,
        "creator_name": room.creator_name,
        "host": room.host,
        "competition": room.competition.value,
        "seats": [s.model_dump() for s in room.seats],
        "seat_count": len(room.seats),
        "max_seats": room.max_seats,
        "min_seats": room.min_seats,
        "options": pack_json(room.options),
        "password_hash": room.password_hash,
        "has_password": room.has_password,
        "seed": room.seed,
        "seed_hash": room.seed_hash,
        "state": pack_json(room.state) if room.state is not None else None,
        "pending": room.pending.model_dump(mode="json") if room.pending else None,
        "results": list(room.results) or None,
        "created_ms": room.created_ms,
        "updated_ms": room.updated_ms,
        "active_ms": room.active_ms,
        "ended_ms": room.ended_ms,
        "request_hash": room.request_hash,
        "ply": room.ply,
        "requests": [r.model_dump() for r in room.requests] or None,
        "handover": room.handover.model_dump(mode="json") if room.handover else None,
        "bot_played": room.bot_played or None,
        "acted": room.acted or None,
        "undo_block": room.undo_block,
        "missed": room.missed or None,
        "again": {k: link.model_dump() for k, link in room.again.items()} or None,
        "again_of": room.again_of.model_dump() if room.again_of else None,
        "code": room.code,
    }
    shard = shard_of(room.id)
    if room.status in LISTED:
        values["lobby_pk"] = lobby_pk(room.game, room.status)
        values["lobby_sk"] = room.created_ms
    if room.status is RoomStatus.ACTIVE and room.pending and room.pending.deadline_ms is not None:
        values["due_pk"] = f"DUE#{shard}"
        values["due_sk"] = room.pending.deadline_ms
    idle = idle_key(room)
    if idle is not None:
        values["idle_pk"] = f"IDLE#{shard}"
        values["idle_sk"] = idle
    else:
        values[TTL_ATTRIBUTE] = (room.ended_ms or room.updated_ms) // 1000 + FINISHED_RETENTION_S
    return to_item(values)


def room_from_item(item: dict[str, Any]) -> Room:
    v = from_item(item)
    return Room(
        id=v["id"],
        game=v["game"],
        title=v["title"],
        status=v["status"],
        version=v["version"],
        step=v["step"],
        creator=v["creator"],
        creator_name=v["creator_name"],
        host=v.get("host"),
        competition=v["competition"],
        seats=v.get("seats", []),
        max_seats=v["max_seats"],
        min_seats=v["min_seats"],
        options=unpack_json(v["options"]),
        password_hash=v.get("password_hash"),
        seed=v.get("seed"),
        seed_hash=v.get("seed_hash"),
        state=unpack_json(v["state"]) if "state" in v else None,
        pending=v.get("pending"),
        results=tuple(v.get("results", ())),
        created_ms=v["created_ms"],
        updated_ms=v["updated_ms"],
        active_ms=v["active_ms"],
        ended_ms=v.get("ended_ms"),
        request_hash=v.get("request_hash"),
        ply=v.get("ply"),
        requests=v.get("requests", ()),
        handover=v.get("handover"),
        bot_played=bool(v.get("bot_played")),
        missed=v.get("missed") or {},
        acted=v.get("acted") or {},
        undo_block=v.get("undo_block"),
        again=v.get("again") or {},
        again_of=v.get("again_of"),
        code=v.get("code"),
    )


def code_key_values(code: str) -> dict[str, str]:
    """A 房号's item (`CODE#<digits> / CODE`): which room holds it, until its `expires_at`."""
    return {"pk": f"CODE#{code}", "sk": "CODE"}


def code_key(code: str) -> dict[str, Any]:
    return to_item(code_key_values(code))


def move_key(room_id: str, step: int, seat: int) -> dict[str, Any]:
    return {"pk": {"S": f"ROOM#{room_id}"}, "sk": {"S": f"MOVE#{step:06d}#{seat:02d}"}}


def move_slot(item: dict[str, Any]) -> MoveSlot:
    """The slot a move item fills, read off its key."""
    _, step, seat = item["sk"]["S"].split("#")
    return MoveSlot(item["pk"]["S"].removeprefix("ROOM#"), int(step), int(seat))


def move_to_item(room_id: str, move: MoveRecord, expires_s: int) -> dict[str, Any]:
    values = {
        "pk": f"ROOM#{room_id}",
        "sk": f"MOVE#{move.step:06d}#{move.seat:02d}",
        "step": move.step,
        "seat": move.seat,
        "action": json.dumps(move.action, ensure_ascii=False, separators=(",", ":")) if move.action else None,
        "by": move.by,
        "at_ms": move.at_ms,
        TTL_ATTRIBUTE: expires_s,
    }
    return to_item(values)


def move_from_item(item: dict[str, Any]) -> MoveRecord:
    v = from_item(item)
    return MoveRecord(
        step=v["step"], seat=v["seat"], action=json.loads(v["action"]) if "action" in v else None,
        by=v["by"], at_ms=v["at_ms"],
    )


def log_to_item(room_id: str, log: LogRecord, expires_s: int | None = None) -> dict[str, Any]:
    """A log entry; `expires_s` (as a sealed move's) lets TTL remove it long after its room has gone."""
    item: dict[str, Any] = {
        "pk": f"ROOM#{room_id}",
        "sk": f"LOG#{log.step:06d}",
        "body": pack_json(log.model_dump(mode="json")),
    }
    if expires_s is not None:
        item[TTL_ATTRIBUTE] = expires_s
    return to_item(item)


def log_from_item(item: dict[str, Any]) -> LogRecord:
    return LogRecord.model_validate(unpack_json(from_item(item)["body"]))
