"""Who may open a socket and watch which room: the same token as the HTTP API (checked on connect,
refused before the socket opens), the same access rules as GET /v1/rooms/{id} (a room with a 暗号
only for those who gave it), and a bounded number of rooms per connection."""

from __future__ import annotations

import json

import pytest

from chalicelib.core.errors import Unauthenticated
from chalicelib.core.identity import Caller, Role
from chalicelib.push import service
from chalicelib.push.service import MAX_ROOMS
from chalicelib.rooms import lobby

HOST, STRANGER, GUEST = (Caller(user_id=f"u{i}", name=n) for i, n in enumerate(["说书人", "路人", "熟客"]))
ADMIN = Caller(user_id="admin", name="司礼", role=Role.ADMIN)


def room(h, password: str | None = None) -> str:
    return lobby.create_room(h.rooms, HOST, "ledger", {}, password, None).id


@pytest.mark.parametrize("token", [None, "", "v1.not-a.token"])
def test_connect_refuses_a_missing_or_malformed_token(h, token):
    with pytest.raises(Unauthenticated):
        service.connect(h.push, "c0=", token)
    assert h.push.store.get_connection("c0=") is None


def test_connect_refuses_a_forged_or_expired_token(h):
    token = h.token(STRANGER)
    with pytest.raises(Unauthenticated) as e:
        service.connect(h.push, "c0=", token[:-2] + ("xx" if not token.endswith("xx") else "yy"))
    assert e.value.code == "BAD_TOKEN"
    h.clock.advance(2 * 3600 + 1)
    with pytest.raises(Unauthenticated) as e:
        service.connect(h.push, "c0=", token)
    assert e.value.code == "TOKEN_EXPIRED"
    conn = service.connect(h.push, "c1=", h.token(STRANGER))
    assert (conn.user, conn.role, conn.expires_s) == ("u1", "player", h.clock.now_ms() // 1000 + 7200)


def test_subscribe_follows_the_rooms_own_access_rules(h):
    open_room, locked = room(h), room(h, password="梅花")
    cid = h.connect(STRANGER)
    assert h.say(cid, {"action": "subscribe", "room": open_room}) == {"type": "subscribed", "room": open_room}
    refused = h.say(cid, {"action": "subscribe", "room": locked})
    assert (refused["type"], refused["room"], refused["code"]) == ("error", locked, "PASSWORD_REQUIRED")
    assert h.push.store.subscriptions(locked) == []
    missing = h.say(cid, {"action": "subscribe", "room": "nosuchroom"})
    assert (missing["type"], missing["code"]) == ("error", "ROOM_NOT_FOUND")

    guest = h.connect(GUEST)
    assert h.say(guest, {"action": "subscribe", "room": locked})["code"] == "PASSWORD_REQUIRED"
    lobby.spectate_room(h.rooms, GUEST, locked, "梅花")  # she gives the 暗号 (观战), then may watch
    assert h.say(guest, {"action": "subscribe", "room": locked}) == {"type": "subscribed", "room": locked}
    assert [s.watcher for s in h.push.store.subscriptions(locked)] == [True]
    for who in (HOST, ADMIN):  # the host, and any 司礼, need no 暗号
        assert h.say(h.connect(who), {"action": "subscribe", "room": locked})["type"] == "subscribed"


def test_messages_are_checked_and_rooms_per_connection_are_bounded(h):
    rooms = [room(h) for _ in range(MAX_ROOMS + 1)]
    cid = h.connect(STRANGER)
    assert h.say(cid, {"action": "ping"}) == {"type": "pong"}
    for bad in ("not json", json.dumps({"action": "shout"}), json.dumps({"action": "subscribe"}),
                json.dumps({"action": "subscribe", "room": "../x"}), json.dumps([1]), "x" * 5000):
        answer = h.say(cid, bad)
        assert (answer["type"], answer["code"]) == ("error", "MALFORMED_REQUEST"), bad
    for r in rooms[:MAX_ROOMS]:
        assert h.say(cid, {"action": "subscribe", "room": r})["type"] == "subscribed"
    assert h.say(cid, {"action": "subscribe", "room": rooms[0]})["type"] == "subscribed"  # again: fine
    assert h.say(cid, {"action": "subscribe", "room": rooms[-1]})["code"] == "RATE_LIMITED"
    assert h.say(cid, {"action": "unsubscribe", "room": rooms[0]}) == {"type": "unsubscribed", "room": rooms[0]}
    assert h.push.store.subscriptions(rooms[0]) == []
    assert h.say(cid, {"action": "subscribe", "room": rooms[-1]})["type"] == "subscribed"
    h.clock.advance(2 * 3600 + 1)
    assert h.say(cid, {"action": "subscribe", "room": rooms[0]})["code"] == "TOKEN_EXPIRED"
    assert h.say("never-connected=", {"action": "subscribe", "room": rooms[0]})["code"] == "TOKEN_EXPIRED"
