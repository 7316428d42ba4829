"""The one DynamoDB table, defined once: infra, the local server and the tests all build it from here.

Items (pk / sk):
  ROOM#<id>        / ROOM                  the room: status, version, seats, compressed game state
  ROOM#<id>        / MOVE#<step>#<seat>    a sealed move (written once; placeholders close a round)
  ROOM#<id>        / LOG#<step>            one transition: actor, action(s), events (for reports, replay)
  ROOM#<id>        / RESULT#<unit>         a final result, written once
  ROOM#<id>        / WATCH#<user>          a spectator who gave the 暗号
  ROOM#<id>        / PWCHECK#<user>        her last 暗号 checks (a ring of times: a sliding-window limit)
  CODE#<digits>    / CODE                  a 房号: the room that took it (free again after `expires_at`)
  USER#<uid>       / PROFILE               a user (openid kept server-side)
  USER#<uid>       / OPENINGS              her last room openings (a ring of times, as PWCHECK)
  USER#<uid>       / TEXTS                 her last content-checked texts, in any room (a ring, as PWCHECK)
  CONSORTS         / CONSORT#<id>          a 妃子 (all consorts in one partition: a small admin catalogue)
  RECORD#<board>   / SUBJECT#<id>          cumulative 战绩 of one consort/user on one board
  CLEAR#<competition>#<stage> / <rounds>#<ended>#<room> a 宫斗杀 fastest-clear board entry
  SETTINGS         / MODES                 which game keys players may open

Sparse indexes (attributes present only while they mean something):
  lobby: lobby_pk = LOBBY#<game>, lobby_sk = created ms      rooms waiting for players
  due:   due_pk   = DUE#<shard>, due_sk   = deadline ms       rooms whose turn has a deadline
  idle:  idle_pk  = IDLE#<shard>, idle_sk = idle-expiry ms    open/active rooms, for the expiry sweep
  board: board_pk = BOARD#<board>, board_sk = score           leaderboards (top N, my rank)
TTL attribute: expires_at (epoch seconds), set on finished rooms and short-lived counters; TTL is
garbage collection only: expiry itself is done by the scheduled sweep.
"""

from __future__ import annotations

from typing import Any

from chalicelib.domain.model import IDLE_ACTIVE_S, IDLE_OPEN_S, Competition, Room, RoomStatus

TTL_ATTRIBUTE = "expires_at"
SHARDS = 4
"""Due and idle index partitions; the sweeps query each. Spreads writes of many rooms."""

LOBBY_INCLUDE = ["game", "status", "seat_count", "max_seats", "creator_name", "has_password",
                 "competition", "title"]
BOARD_INCLUDE = ["subject_name", "games", "wins", "score", "kills", "deaths", "damage", "subject"]

IDLE_BUCKET_MS = 5 * 60 * 1000


def clear_pk(stage: int, competition: Competition) -> str:
    """The fastest-clear board of a stage, one per competition (free and tournament never mix)."""
    return f"CLEAR#{competition.value}#{stage}"


LISTED = (RoomStatus.OPEN, RoomStatus.ACTIVE)
"""Rooms the lobby lists: waiting for players, and under way (to watch, or to go back to)."""


def lobby_pk(game: str, status: RoomStatus) -> str:
    """One lobby index partition per game and listed status. A running room's projected attributes
    do not change while it plays, so keeping it listed costs an index write when it starts and one when
    it ends, not one per move."""
    return f"LOBBY#{game}" if status is RoomStatus.OPEN else f"LOBBY#{game}#{status.value}"


def lobby_scope(game: str, status: RoomStatus) -> str:
    """A lobby cursor is good only for the list it came from."""
    return f"lobby:{game}" if status is RoomStatus.OPEN else f"lobby:{game}:{status.value}"


def shard_of(room_id: str) -> int:
    return sum(room_id.encode()) % SHARDS


def idle_key(room: Room) -> int | None:
    """When the expiry sweep should look at a live room (None once it is over): its idle expiry,
    rounded up to the sweep's 5 minutes so the index key (and so the index write) changes at most
    every 5 minutes instead of on every action; the sweep re-checks the exact time."""
    if not room.status.live:
        return None
    idle = IDLE_OPEN_S if room.status is RoomStatus.OPEN else IDLE_ACTIVE_S
    return -(-(room.active_ms + idle * 1000) // IDLE_BUCKET_MS) * IDLE_BUCKET_MS


INDEXES: dict[str, dict[str, Any]] = {
    "lobby": {"pk": "lobby_pk", "sk": "lobby_sk", "projection": LOBBY_INCLUDE},
    "due": {"pk": "due_pk", "sk": "due_sk", "projection": None},
    "idle": {"pk": "idle_pk", "sk": "idle_sk", "projection": None},
    "board": {"pk": "board_pk", "sk": "board_sk", "projection": BOARD_INCLUDE},
}


def _attribute_definitions() -> list[dict[str, str]]:
    defs = [{"AttributeName": "pk", "AttributeType": "S"}, {"AttributeName": "sk", "AttributeType": "S"}]
    for ix in INDEXES.values():
        defs.append({"AttributeName": ix["pk"], "AttributeType": "S"})
        defs.append({"AttributeName": ix["sk"], "AttributeType": "N"})
    return defs


def _gsis() -> list[dict[str, Any]]:
    out = []
    for name, ix in INDEXES.items():
        projection: dict[str, Any] = {"ProjectionType": "KEYS_ONLY"}
        if ix["projection"]:
            projection = {"ProjectionType": "INCLUDE", "NonKeyAttributes": list(ix["projection"])}
        out.append({
            "IndexName": name,
            "KeySchema": [{"AttributeName": ix["pk"], "KeyType": "HASH"},
                          {"AttributeName": ix["sk"], "KeyType": "RANGE"}],
            "Projection": projection,
        })
    return out


def create_table_request(table_name: str) -> dict[str, Any]:
    """Arguments for boto3 `create_table` (local server, tests)."""
    return {
        "TableName": table_name,
        "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
        "AttributeDefinitions": _attribute_definitions(),
        "GlobalSecondaryIndexes": _gsis(),
        "BillingMode": "PAY_PER_REQUEST",
    }


def cloudformation_resource() -> dict[str, Any]:
    """The AWS::DynamoDB::Table resource for infra (table name from the stack)."""
    return {
        "Type": "AWS::DynamoDB::Table",
        "DeletionPolicy": "Retain",
        "UpdateReplacePolicy": "Retain",
        "Properties": {
            "KeySchema": [{"AttributeName": "pk", "KeyType": "HASH"}, {"AttributeName": "sk", "KeyType": "RANGE"}],
            "AttributeDefinitions": _attribute_definitions(),
            "GlobalSecondaryIndexes": _gsis(),
            "BillingMode": "PAY_PER_REQUEST",
            "TimeToLiveSpecification": {"AttributeName": TTL_ATTRIBUTE, "Enabled": True},
            "PointInTimeRecoverySpecification": {"PointInTimeRecoveryEnabled": True},
            "SSESpecification": {"SSEEnabled": True},
        },
    }


def create_table(client: Any, table_name: str) -> None:
    """Create the table (and its TTL setting) through a boto3 client; used by tests and the local server."""
    client.create_table(**create_table_request(table_name))
    client.update_time_to_live(
        TableName=table_name, TimeToLiveSpecification={"AttributeName": TTL_ATTRIBUTE, "Enabled": True}
    )


MEMBER_SCAN = 200
"""Notes of hers (「我的对局」) one list looks through, done ones included: past that, older live rooms are
out of sight. Done notes expire (TTL) soon after, so only ~200 games ended within a day or two could
hide one (both stores apply it: the contract suite checks it)."""

