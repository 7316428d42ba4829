"""A plain write that meets a transaction in flight on its item: DynamoDB refuses it with
TransactionConflictException (HTTP 400), which botocore's retry modes do not retry. The guarded client
tries it again once the transaction has had time to end (then the write meets what it committed: a
condition the adapter understands); still contended, the phone is told 429 BUSY with Retry-After —
never a 500, nothing half-written (docs/reliability.md)."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from chalicelib.core.errors import RateLimited
from chalicelib.store import faults
from tests.api.dgame import make_team, open_d_room
from tests.api.helpers import Player, error


def _conflict(operation: str) -> ClientError:
    return ClientError({"Error": {"Code": "TransactionConflictException", "Message": "Transaction is ongoing"},
                        "ResponseMetadata": {"HTTPStatusCode": 400}}, operation)


class _Busy:
    """A client whose put_item meets `times` transactions in flight before it goes through."""

    def __init__(self, times: int) -> None:
        self.times, self.calls = times, 0

    def put_item(self, **kw):
        self.calls += 1
        if self.calls <= self.times:
            raise _conflict("PutItem")
        return {"ok": True}


@pytest.fixture
def naps(monkeypatch):
    slept: list[float] = []
    monkeypatch.setattr(faults.time, "sleep", slept.append)
    return slept


def test_a_write_that_meets_a_transaction_is_tried_again_after_it(naps):
    client = _Busy(times=2)
    assert faults.GuardedClient(client).put_item(TableName="t", Item={}) == {"ok": True}
    assert client.calls == 3 and len(naps) == 2 and all(0 < s < 0.2 for s in naps)


def test_a_write_still_contended_is_busy_not_a_crash(naps):
    client = _Busy(times=99)
    with pytest.raises(RateLimited) as err:
        faults.GuardedClient(client).put_item(TableName="t", Item={})
    assert err.value.code == "BUSY" and client.calls == len(faults.CONFLICT_WAITS_S) + 1


def test_a_move_and_a_join_that_meet_a_transaction_answer_as_after_it(api, svc, ddb, monkeypatch, naps):
    """A sealed move racing the settle's transaction on its seat, and a join racing one on the room
    item, are answered as if they came after it (here: the in-flight transaction left nothing new)."""
    admin = Player(api, "司礼")
    team = make_team(api, admin, ["甲", "乙", "丙"])
    rid = open_d_room(team, stage=1)  # full at three: it starts by itself
    step = team[0].view(rid)["room"]["step"]
    real_put, hits = ddb.put_item, {"move": 0, "room": 0}

    def put_item(**kw):
        sk = kw["Item"]["sk"]["S"]
        key = "move" if sk.startswith("MOVE#") else "room" if sk == "ROOM" and "ConditionExpression" in kw else None
        if key is not None and hits[key] == 0:
            hits[key] += 1
            raise _conflict("PutItem")
        return real_put(**kw)

    monkeypatch.setattr(ddb, "put_item", put_item)
    r = team[1].act(rid, {"type": "idle"}, step=step)
    assert r.status_code == 200 and team[1].view(rid)["pending"]["my_move"]["type"] == "idle"
    a, b = Player(api, "甲2"), Player(api, "乙2")
    bh = a.open_room("baohuang")
    joined = b.post(f"/v1/rooms/{bh}/join")
    assert joined.status_code == 200 and [s["name"] for s in joined.json_body["room"]["seats"]] == ["甲2", "乙2"]
    assert hits == {"move": 1, "room": 1}
    monkeypatch.setattr(ddb, "put_item", lambda **kw: (_ for _ in ()).throw(_conflict("PutItem")))
    assert error(team[2].act(rid, {"type": "idle"}, step=step)) == (429, "BUSY")
