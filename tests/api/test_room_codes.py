"""房号: six digits a player says aloud and a friend types in the lobby (docs/rules/platform.md, "房号").

A room's long id is for links; around a table people say 「房号 482913」. Each new room takes a code no
room created in the last three days holds, in the same write as the room (DynamoDB and memory alike:
tests/contract/test_store.py); the code leads to the room for three days and shows while friends may
still come in."""

from __future__ import annotations

import itertools

from chalicelib.domain.model import ROOM_CODE_LIFE_S
from tests.api.helpers import Player, error


def test_a_new_room_has_a_six_digit_code_that_leads_to_it(api):
    a, b = Player(api, "甲"), Player(api, "乙")
    room_id = a.open_room("baohuang")
    code = a.summary(room_id)["room"]["code"]
    assert len(code) == 6 and code.isdigit() and code[0] != "0"
    assert b.ok("GET", f"/v1/room-codes/{code}") == {"room_id": room_id, "game": "baohuang", "has_password": False}
    # what the friend does next: the room's page, then her seat
    assert b.summary(room_id)["room"]["code"] == code
    b.ok("POST", f"/v1/rooms/{room_id}/join")


def test_a_code_with_a_password_leads_to_the_room_which_still_asks_for_it(api):
    a, b = Player(api, "甲"), Player(api, "乙")
    room_id = a.open_room("baohuang", password="梅花")
    code = a.summary(room_id)["room"]["code"]
    assert b.ok("GET", f"/v1/room-codes/{code}") == {"room_id": room_id, "game": "baohuang", "has_password": True}
    assert error(b.get(f"/v1/rooms/{room_id}")) == (403, "PASSWORD_REQUIRED")
    assert error(b.post(f"/v1/rooms/{room_id}/join")) == (403, "PASSWORD_REQUIRED")


def test_bad_and_unknown_codes_get_clear_errors(api):
    a = Player(api, "甲")
    a.open_room("baohuang")
    for bad in ("12345", "1234567", "012345", "abcdef", "48291x", "４８２９１３", "1" * 70):  # 70: past any id
        r = a.get(f"/v1/room-codes/{bad}")
        assert error(r) == (422, "BAD_ROOM_CODE") and r.json_body["message"] == "房号是六位数字", bad
    r = a.get("/v1/room-codes/999999")
    assert error(r) == (404, "ROOM_CODE_NOT_FOUND") and "房号" in r.json_body["message"]
    assert error(api.http.get("/v1/room-codes/123456")) == (401, "UNAUTHENTICATED")


def test_a_drawn_code_another_room_holds_is_drawn_again(api, svc):
    codes = iter(["111111", "111111", "111111", "222222"])
    svc.new_code = lambda: next(codes)
    a = Player(api, "甲")
    first, second = a.open_room("baohuang"), a.open_room("baohuang")
    assert a.summary(first)["room"]["code"] == "111111"
    assert a.summary(second)["room"]["code"] == "222222"  # 111111 twice more, then a free one
    assert a.ok("GET", "/v1/room-codes/111111")["room_id"] == first


def test_when_every_draw_is_taken_the_create_is_refused_and_nothing_is_written(api, svc):
    svc.new_code = lambda: "333333"
    a = Player(api, "甲")
    a.open_room("baohuang")
    before = a.ok("GET", "/v1/rooms?game=baohuang")["rooms"]
    r = a.post("/v1/rooms", {"game": "baohuang", "options": {}})
    assert error(r) == (409, "ROOM_CODE_TAKEN") and r.json_body["message"] == "暂时分不出房号，请重试"
    assert a.ok("GET", "/v1/rooms?game=baohuang")["rooms"] == before


def test_a_retried_create_keeps_its_first_code(api, svc):
    fresh = itertools.count(400001)
    svc.new_code = lambda: str(next(fresh))
    a = Player(api, "甲")
    body = {"game": "baohuang", "options": {}}
    first = a.post("/v1/rooms", body, **{"Idempotency-Key": "k1"}).json_body["room"]
    again = a.post("/v1/rooms", body, **{"Idempotency-Key": "k1"}).json_body["room"]
    assert again["id"] == first["id"] and again["code"] == first["code"] == "400001"
    assert a.ok("GET", "/v1/room-codes/400001")["room_id"] == first["id"]
    assert error(a.get("/v1/room-codes/400002")) == (404, "ROOM_CODE_NOT_FOUND")  # the retry's draw took nothing


def test_a_code_lasts_three_days_then_leads_nowhere_and_may_be_given_again(api, svc, clock):
    svc.new_code = lambda: "555555"
    old = Player(api, "甲").open_room("baohuang")
    clock.advance(ROOM_CODE_LIFE_S)  # the last second of its life (logins do not last that long: new ones)
    assert Player(api, "乙").ok("GET", "/v1/room-codes/555555")["room_id"] == old
    clock.advance(1)
    b = Player(api, "丙")
    assert error(b.get("/v1/room-codes/555555")) == (404, "ROOM_CODE_NOT_FOUND")
    new = b.open_room("baohuang")
    assert new != old and b.summary(new)["room"]["code"] == "555555"
    assert b.ok("GET", "/v1/room-codes/555555")["room_id"] == new


def test_a_finished_or_closed_room_shows_no_code(api, svc, clock):
    from chalicelib.rooms import sweeper

    a = Player(api, "甲")
    room_id = a.open_room("baohuang")
    assert a.summary(room_id)["room"]["code"] is not None
    clock.advance(31 * 60)  # an open room idle for more than 30 minutes expires
    assert sweeper.expire_stalled(svc.room_deps()).changed == 1
    summary = a.summary(room_id)
    assert summary["room"]["status"] == "expired" and summary["room"]["code"] is None


class _TwinAtOnce:
    """DynamoDB as a double tap meets it: the same create sent twice at the same instant, the twin's
    transaction cancelled with TransactionConflict — after the other one wrote (`commit=True`) or
    while it is still committing (`commit=False`)."""

    def __init__(self, inner, commit: bool) -> None:
        self.inner, self.commit = inner, commit

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def transact_write_items(self, **kwargs):
        from botocore.exceptions import ClientError

        if self.commit:
            self.inner.transact_write_items(**kwargs)
        raise ClientError({"Error": {"Code": "TransactionCanceledException", "Message": "conflict"},
                           "CancellationReasons": [{"Code": "TransactionConflict"}, {"Code": "None"}]},
                          "TransactWriteItems")


def test_the_same_create_sent_twice_at_once_answers_the_room_or_asks_for_a_retry(api, svc, ddb):
    """A double tap on 开房 (or 再战此关, whose key is the same on every press): the twin that loses the
    transaction race is answered the room the other wrote, not an error; if the other is still
    committing, 409 STALE_VERSION with nothing written, and the phone's retry finds the room."""
    from chalicelib.store.faults import GuardedClient

    svc.new_code = lambda: "654321"
    a = Player(api, "甲")
    body = {"game": "baohuang", "options": {}}
    svc.rooms.client = GuardedClient(_TwinAtOnce(ddb, commit=False))
    r = a.post("/v1/rooms", body, **{"Idempotency-Key": "tap"})
    assert error(r) == (409, "STALE_VERSION")
    assert error(a.get("/v1/room-codes/654321")) == (404, "ROOM_CODE_NOT_FOUND")  # nothing written
    svc.rooms.client = GuardedClient(_TwinAtOnce(ddb, commit=True))
    room = a.post("/v1/rooms", body, **{"Idempotency-Key": "tap"}).json_body["room"]
    assert room["code"] == "654321" and a.ok("GET", "/v1/room-codes/654321")["room_id"] == room["id"]
