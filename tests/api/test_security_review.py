"""Security and robustness review (branch h-sec): each test proves one finding, and pins its fix."""

from __future__ import annotations

import io
import json
from contextlib import contextmanager

import pytest

from chalicelib.auth.wechat import WeChatClient
from tests.api.helpers import Player, error


def _wechat_answering(body: object):
    @contextmanager
    def opener(url, timeout):
        yield io.BytesIO(json.dumps(body).encode())

    return opener


@pytest.mark.parametrize("answer", [
    {"errcode": "busy"}, {"errcode": [40029]}, {"errcode": {"code": 1}}, {"errcode": 1e999},
    {"errcode": 0.5, "openid": "oAnyone"}, {"errcode": True, "openid": "oAnyone"},
])
def test_a_wechat_answer_with_an_unreadable_errcode_is_a_503_never_a_500_nor_a_login(api, svc, answer):
    """jscode2session's errcode is an integer. Any other value used to crash the login (int("busy"):
    500 INTERNAL_ERROR), or — a fraction or true — to be truncated and read as success, logging the
    caller in. It is an answer we cannot read: 503 WECHAT_BAD_RESPONSE, nobody logged in."""
    svc.__dict__["wechat"] = WeChatClient("wx-test-app", "test-secret", "http://wechat.invalid",
                                          opener=_wechat_answering(answer))
    r = api.http.post("/v1/auth/wechat", body=json.dumps({"code": "081abc"}),
                      headers={"Content-Type": "application/json"})
    assert error(r) == (503, "WECHAT_BAD_RESPONSE")


def test_a_room_password_is_kept_only_as_its_salted_hash_and_a_keyed_retry_still_knows_it(api, svc):
    """The 暗号 is stored as a salted PBKDF2 hash (rooms/passwords.py), but a create with an
    Idempotency-Key also kept `request_hash` = a truncated, unsalted SHA-256 over (game, options,
    password) on the same room item: anyone who reads the table (or a backup, an export) recovered a
    short 暗号 by trying them all, in milliseconds. The request hash now says only whether a password
    was given; a retry's password is compared with the salted hash."""
    from chalicelib.rooms.deps import request_hash

    a = Player(api, "暗号房主")
    body = {"game": "baohuang", "options": {}, "password": "4821"}
    room_id = a.post("/v1/rooms", body, **{"Idempotency-Key": "open-1"}).json_body["room"]["id"]
    room = svc.rooms.get_room(room_id)
    options = room.options
    found = [f"{n:04d}" for n in range(10_000) if request_hash("baohuang", options, f"{n:04d}") == room.request_hash]
    assert found == []
    # the retry semantics stand: the same request is the same room; another password is another request
    assert a.post("/v1/rooms", body, **{"Idempotency-Key": "open-1"}).json_body["room"]["id"] == room_id
    for other in ({**body, "password": "4822"}, {"game": "baohuang", "options": {}}):
        assert error(a.post("/v1/rooms", other, **{"Idempotency-Key": "open-1"})) == (422, "IDEMPOTENCY_KEY_REUSED")
    plain = a.post("/v1/rooms", {"game": "baohuang", "options": {}}, **{"Idempotency-Key": "open-2"})
    assert a.post("/v1/rooms", {"game": "baohuang", "options": {}},
                  **{"Idempotency-Key": "open-2"}).json_body["room"]["id"] == plain.json_body["room"]["id"]
    assert error(a.post("/v1/rooms", {**body, "password": "1"}, **{"Idempotency-Key": "open-2"})) == (
        422, "IDEMPOTENCY_KEY_REUSED")
