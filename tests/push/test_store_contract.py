"""One contract, two push stores: the DynamoDB adapter (moto) and its in-memory twin."""

from __future__ import annotations

import pytest

from chalicelib.domain.ports import Connection, Subscription
from chalicelib.store.memory_push import MemoryPushStore


@pytest.fixture(params=["memory", "dynamodb"])
def store(request):
    if request.param == "memory":
        return MemoryPushStore()
    from chalicelib.store.push import DynamoPushStore
    from tests.conftest import TABLE

    return DynamoPushStore(request.getfixturevalue("ddb"), TABLE)


def conn(cid: str = "c1=", user: str = "u1") -> Connection:
    return Connection(id=cid, user=user, name="甲", role="player", connected_ms=5, expires_s=7200)


def sub(room: str, cid: str = "c1=", user: str = "u1", **kw) -> Subscription:
    return Subscription(room_id=room, connection_id=cid, user=user, role="player", expires_s=7200, **kw)


def test_a_connection_is_stored_read_and_deleted_with_its_subscriptions(store):
    assert store.get_connection("c1=") is None and store.delete_connection("c1=") is None
    store.put_connection(conn())
    assert store.get_connection("c1=") == conn()
    assert store.subscribe(sub("r1", tag="t0", version=3), max_rooms=2)
    assert store.subscribe(sub("r2", watcher=True), max_rooms=2)
    store.put_connection(conn("c2=", "u2"))
    assert store.subscribe(sub("r1", "c2=", "u2"), max_rooms=2)
    assert store.get_connection("c1=").rooms == {"r1", "r2"}
    assert store.subscriptions("r1") == [sub("r1", tag="t0", version=3), sub("r1", "c2=", "u2")]
    assert store.subscriptions("r2") == [sub("r2", watcher=True)]
    gone = store.delete_connection("c1=")
    assert gone is not None and gone.rooms == {"r1", "r2"}
    assert store.get_connection("c1=") is None
    assert store.subscriptions("r1") == [sub("r1", "c2=", "u2")] and store.subscriptions("r2") == []


def test_subscriptions_need_a_connection_and_are_bounded(store):
    assert store.subscribe(sub("r1"), max_rooms=2) is False  # no connection
    assert store.subscriptions("r1") == []
    store.put_connection(conn())
    assert store.subscribe(sub("r1"), max_rooms=2) and store.subscribe(sub("r2"), max_rooms=2)
    assert store.subscribe(sub("r3"), max_rooms=2) is False
    assert store.subscribe(sub("r1", tag="again"), max_rooms=2)  # the same room again replaces it
    assert store.subscriptions("r1") == [sub("r1", tag="again")] and store.subscriptions("r3") == []
    store.unsubscribe("c1=", "r1")
    assert store.subscriptions("r1") == [] and store.get_connection("c1=").rooms == {"r2"}
    assert store.subscribe(sub("r3"), max_rooms=2)
    store.unsubscribe("nobody=", "r3")  # a gone connection: nothing happens


def test_the_last_view_told_is_kept_but_a_gone_subscription_is_never_recreated(store):
    store.put_connection(conn())
    store.subscribe(sub("r1", tag="a", version=1), max_rooms=8)
    assert store.set_tag("r1", "c1=", "b", 2) is True
    assert [(s.tag, s.version) for s in store.subscriptions("r1")] == [("b", 2)]
    store.unsubscribe("c1=", "r1")
    assert store.set_tag("r1", "c1=", "c", 3) is False
    assert store.subscriptions("r1") == []
