"""What the DynamoDB adapters write and how they read, beyond the contract both stores share: items that
must not outlive their use carry a TTL, and a read a phone makes right after its own write is strongly
consistent (an eventually consistent one may miss the write it just made and refuse her)."""

from __future__ import annotations

import pytest

from chalicelib.domain.model import RoomStatus
from chalicelib.domain.ports import User
from chalicelib.store.accounts import DynamoAccountStore
from chalicelib.store.dynamodb import LOG_RETENTION_S, DynamoRoomStore
from chalicelib.store.table import TTL_ATTRIBUTE
from tests.conftest import TABLE
from tests.contract.test_store import log, move, room


@pytest.fixture
def rooms(ddb):
    return DynamoRoomStore(ddb, TABLE, cursor_secret=b"k" * 32)


def _item(ddb, sk: str) -> dict:
    return ddb.get_item(TableName=TABLE, Key={"pk": {"S": "ROOM#r1"}, "sk": {"S": sk}}, ConsistentRead=True)["Item"]


def test_a_rooms_log_entries_and_moves_expire_long_after_the_room(ddb, rooms):
    """Finished rooms go by TTL 30 days after their end; their log entries must not stay for ever,
    orphaned: each goes LOG_RETENTION_S (60 days) after it was written, as a sealed move does."""
    rooms.create_room(room(status=RoomStatus.ACTIVE))
    rooms.commit(room(version=1, status=RoomStatus.ACTIVE), 0, log(1, at=5_000), [move(1, 0)])
    assert int(_item(ddb, "LOG#000001")[TTL_ATTRIBUTE]["N"]) == 5 + LOG_RETENTION_S
    moves = ddb.query(TableName=TABLE, KeyConditionExpression="pk = :p AND begins_with(sk, :m)",
                      ExpressionAttributeValues={":p": {"S": "ROOM#r1"}, ":m": {"S": "MOVE#"}})["Items"]
    assert moves and all(TTL_ATTRIBUTE in m for m in moves)
    assert TTL_ATTRIBUTE not in _item(ddb, "ROOM")  # a live room never carries one


def test_reads_right_after_her_own_write_are_strongly_consistent(ddb, rooms):
    """/spectate answers and her phone asks for the view at once (is she a watcher?); she claims a 妃子
    and sits down at once (which is hers?). Both reads must see the write just made."""
    seen: list[dict] = []

    def record(params, **_):
        seen.append(params)

    ddb.meta.events.register("provide-client-params.dynamodb.GetItem", record)
    rooms.add_watcher("r1", "u1", 1_000)
    assert rooms.is_watcher("r1", "u1")
    accounts = DynamoAccountStore(ddb, TABLE)
    accounts.ensure_user(User(id="u1", name="甲", role="player", created_ms=1), "o1")
    assert accounts.get_user("u1") is not None
    assert len(seen) == 2 and all(p.get("ConsistentRead") is True for p in seen), seen
