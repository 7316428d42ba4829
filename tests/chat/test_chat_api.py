"""Chat over HTTP through the Chalice test client, on DynamoDB (moto). Until app.py registers the chat
blueprint, it is registered in a test app beside the authorizer and middleware; once it does, these
tests run on the real app through the contract-checked client. Every 200 is validated against its
documented model (VALIDATE_RESPONSES), every error has the one shape."""

from __future__ import annotations

import json
import sys

import pytest

from chalicelib.accounts import service as accounts
from chalicelib.chat.phrases import phrase_id
from chalicelib.core.identity import Caller, Role
from chalicelib.rooms import lobby
from tests.api.helpers import error

_APP: dict[str, object] = {}


def _test_app():
    """Built once per process: Chalice mutates a blueprint's deferred routes when it registers them,
    so a blueprint can be registered on one app only once."""
    if "app" not in _APP:
        from chalice import Chalice

        import app  # noqa: F401 - the real app first: its routes are what the committed contract documents
        from chalicelib.api import authorizer, middleware, routing

        known = len(routing.ROUTES)
        wired = "chalicelib.api.chat_routes" in sys.modules
        from chalicelib.api import chat_routes

        if not wired:  # registered here for the test only: keep it out of the generated contract
            del routing.ROUTES[known:]
        test_app = Chalice(app_name="shengong")
        blueprints = (authorizer.bp, middleware.bp, chat_routes.bp)
        owners = [bp._current_app for bp in blueprints]
        for bp in blueprints:
            test_app.register_blueprint(bp)
        _APP.update(app=test_app, blueprints=blueprints, owners=owners)
    return _APP["app"], _APP["blueprints"], _APP["owners"]


@pytest.fixture
def chat_api(svc, chat_games, request):
    from chalice.test import Client

    import app

    if "/v1/rooms/{room_id}/chat" in app.app.routes:  # wired in app.py: the real app, checked against the contract
        yield request.getfixturevalue("api")
        return
    test_app, blueprints, owners = _test_app()
    for bp in blueprints:
        bp._current_app = test_app
    try:
        with Client(test_app, stage_name="local") as client:
            yield client
    finally:  # the blueprints answer to the real app again (other tests use it)
        for bp, owner in zip(blueprints, owners, strict=True):
            bp._current_app = owner


class Phone:
    def __init__(self, api, svc, name: str) -> None:
        login = accounts.login_dev(svc.account_deps(), name)
        self.api, self.token = api, login["token"]
        role = Role.ADMIN if login["user"]["role"] == "admin" else Role.PLAYER
        self.caller = Caller(login["user"]["id"], name, role)

    def get(self, path: str, **headers: str):
        return self.api.http.get(path, headers={"Authorization": self.token, **headers})

    def post(self, path: str, body=None, **headers: str):
        return self.api.http.post(path, body=json.dumps(body or {}), headers={
            "Authorization": self.token, "Content-Type": "application/json", **headers})


@pytest.fixture
def table(chat_api, svc):
    """甄嬛 opens a parlour and 沈眉庄 joins; 看客 watches; the 司礼 oversees."""
    phones = {n: Phone(chat_api, svc, n) for n in ("甄嬛", "沈眉庄", "看客", "司礼")}
    deps = svc.room_deps()
    room = lobby.create_room(deps, phones["甄嬛"].caller, "parlour", {}, None, None)
    lobby.join_room(deps, phones["沈眉庄"].caller, room.id, None)
    lobby.start_room(deps, phones["甄嬛"].caller, room.id)
    return room.id, phones


def test_talk_at_the_table(table, clock):
    rid, p = table
    zhen, mei = p["甄嬛"], p["沈眉庄"]
    first = zhen.post(f"/v1/rooms/{rid}/chat", {"text": "姐姐请用茶"}, **{"Idempotency-Key": "k1"})
    assert first.status_code == 200 and first.json_body["message"]["id"] == "t1"
    assert zhen.post(f"/v1/rooms/{rid}/chat", {"text": "姐姐请用茶"}, **{"Idempotency-Key": "k1"}).json_body == \
        first.json_body
    r = mei.get(f"/v1/rooms/{rid}/chat")
    assert r.status_code == 200 and [m["text"] for m in r.json_body["messages"]] == ["姐姐请用茶"]
    assert r.json_body["messages"][0]["speaker"]["name"] == "甄嬛"
    etag, cursor = r.headers["ETag"], r.json_body["cursor"]
    assert mei.get(f"/v1/rooms/{rid}/chat", **{"If-None-Match": etag}).status_code == 304
    newer = mei.get(f"/v1/rooms/{rid}/chat?after={cursor}")
    assert newer.json_body["messages"] == [] and newer.json_body["cursor"] == cursor
    mei.post(f"/v1/rooms/{rid}/chat", {"phrase": phrase_id("本宫乏了")})
    assert [m["text"] for m in mei.get(f"/v1/rooms/{rid}/chat?after={cursor}").json_body["messages"]] == ["本宫乏了"]


def test_refusals_have_one_shape_with_a_chinese_message(table, clock):
    rid, p = table
    zhen = p["甄嬛"]
    assert error(zhen.post(f"/v1/rooms/{rid}/chat", {"text": "宫" * 101})) == (422, "CHAT_TOO_LONG")
    assert error(zhen.post(f"/v1/rooms/{rid}/chat", {"text": "你这个傻逼"})) == (422, "CONTENT_REFUSED")
    assert error(zhen.post(f"/v1/rooms/{rid}/chat", {"text": "x", "phrase": "q123456"})) == (422, "CHAT_BAD_MESSAGE")
    assert error(zhen.post(f"/v1/rooms/{rid}/chat", {"txt": "x"})) == (422, "VALIDATION_FAILED")
    assert error(zhen.get(f"/v1/rooms/{rid}/chat?after=zzz")) == (400, "BAD_CURSOR")
    assert error(zhen.get("/v1/rooms/nope/chat")) == (404, "ROOM_NOT_FOUND")
    assert error(zhen.api.http.get(f"/v1/rooms/{rid}/chat", headers={"Authorization": "nonsense"})) == (
        401, "BAD_TOKEN")
    assert zhen.get(f"/v1/rooms/{rid}/chat").json_body["messages"] == []  # nothing refused was stored
    clock.advance(10)  # the refused line took a slot: the check is made only within the rate
    for i in range(5):
        assert zhen.post(f"/v1/rooms/{rid}/chat", {"text": f"{i}"}).status_code == 200
    fast = zhen.post(f"/v1/rooms/{rid}/chat", {"text": "再说一句"})
    assert error(fast) == (429, "CHAT_TOO_FAST") and fast.headers["Retry-After"] == "10"


def test_mute_report_and_the_silis_list(table):
    rid, p = table
    zhen, mei, fan, sili = p["甄嬛"], p["沈眉庄"], p["看客"], p["司礼"]
    line = fan.post(f"/v1/rooms/{rid}/chat", {"text": "输了吧"}).json_body["message"]
    assert error(mei.post(f"/v1/rooms/{rid}/chat/mute", {"seat": 0})) == (403, "CHAT_NOT_MODERATOR")
    seen = zhen.get(f"/v1/rooms/{rid}/chat").json_body["messages"][0]
    assert seen["can_mute"] and seen["speaker"]["user"] == fan.caller.user_id
    muted = zhen.post(f"/v1/rooms/{rid}/chat/mute", {"user": seen["speaker"]["user"], "minutes": 5})
    assert muted.status_code == 200 and muted.json_body["muted_until_ms"]
    assert error(fan.post(f"/v1/rooms/{rid}/chat", {"text": "哼"})) == (403, "CHAT_MUTED")
    assert zhen.post(f"/v1/rooms/{rid}/chat/unmute", {"user": fan.caller.user_id}).status_code == 200
    assert fan.post(f"/v1/rooms/{rid}/chat", {"text": "好吧"}).status_code == 200
    assert mei.post(f"/v1/rooms/{rid}/chat/{line['id']}/report", {"reason": "abuse"}).json_body["reported"]
    assert error(mei.post(f"/v1/rooms/{rid}/chat/t9/report", {"reason": "abuse"})) == (404, "CHAT_MESSAGE_NOT_FOUND")
    assert error(mei.post(f"/v1/rooms/{rid}/chat/{line['id']}/report", {"reason": "review"})) == (
        422, "VALIDATION_FAILED")
    assert error(mei.get("/v1/admin/chat/reports")) == (403, "ADMIN_ONLY")
    listed = sili.get("/v1/admin/chat/reports").json_body["reports"]
    assert [(r["message"]["text"], r["reporter"]["name"], r["reason"]) for r in listed] == [("输了吧", "沈眉庄", "abuse")]


def test_spectators_of_a_game_that_keeps_them_apart_are_never_heard_at_the_table(chat_api, svc):
    phones = {n: Phone(chat_api, svc, n) for n in ("安陵容", "甄嬛", "沈眉庄", "看客")}
    deps = svc.room_deps()
    room = lobby.create_room(deps, phones["安陵容"].caller, "masque", {}, None, None)
    for n in ("甄嬛", "沈眉庄"):
        lobby.join_room(deps, phones[n].caller, room.id, None)
    lobby.start_room(deps, phones["安陵容"].caller, room.id)
    fan = phones["看客"]
    assert fan.post(f"/v1/rooms/{room.id}/chat", {"text": "甄嬛是刺客"}).json_body["message"]["channel"] == "watch"
    assert error(fan.post(f"/v1/rooms/{room.id}/chat", {"text": "甄嬛是刺客", "channel": "table"})) == (
        403, "CHAT_WRONG_CHANNEL")
    for n in ("甄嬛", "沈眉庄"):
        body = phones[n].get(f"/v1/rooms/{room.id}/chat").body.decode()
        assert "刺客" not in body
    assert "刺客" in phones["安陵容"].get(f"/v1/rooms/{room.id}/chat").body.decode()


def test_phrases_per_game_family(table):
    _, p = table
    r = p["甄嬛"].get("/v1/games/masque/phrases")
    assert r.status_code == 200
    (game,) = r.json_body["games"]
    assert game["game"] == "masque" and [x["text"] for x in game["phrases"]] == ["本宫乏了", "姐姐请", "这宫里，谁都不可信"]
    assert game["phrases"][0]["id"] == phrase_id("本宫乏了")
    assert error(p["甄嬛"].get("/v1/games/nope/phrases")) == (404, "UNKNOWN_GAME")


def test_subscriptions_are_off_locally_and_counted_where_templates_are_configured(table, monkeypatch):
    _, p = table
    off = p["甄嬛"].get("/v1/me/subscriptions").json_body
    assert off == {"enabled": False, "templates": [], "credits": {}}


def test_subscriptions_count_one_credit_per_accepted_template(chat_api, svc, monkeypatch):
    monkeypatch.setenv("WECHAT_NOTICES", json.dumps({"turn": {"template_id": "TPL-TURN"}}))
    zhen = Phone(chat_api, svc, "甄嬛")
    r = zhen.post("/v1/me/subscriptions", {"templates": ["TPL-TURN"]})
    assert r.status_code == 200 and r.json_body == {
        "enabled": True, "templates": [{"kind": "turn", "template_id": "TPL-TURN"}], "credits": {"TPL-TURN": 1}}
    assert error(zhen.post("/v1/me/subscriptions", {"templates": ["TPL-X"]})) == (422, "SUBSCRIBE_UNKNOWN_TEMPLATE")
    assert zhen.get("/v1/me/subscriptions").json_body["credits"] == {"TPL-TURN": 1}


def test_a_consent_reported_twice_counts_once(chat_api, svc, monkeypatch):
    """One 「允许」 in wx.requestSubscribeMessage lets WeChat deliver one message: a report retried with
    its Idempotency-Key, or naming the template twice, must not count two."""
    monkeypatch.setenv("WECHAT_NOTICES", json.dumps({"turn": {"template_id": "TPL-TURN"}}))
    zhen = Phone(chat_api, svc, "甄嬛")
    for _ in range(2):
        r = zhen.post("/v1/me/subscriptions", {"templates": ["TPL-TURN", "TPL-TURN"]}, **{"Idempotency-Key": "c-1"})
        assert r.status_code == 200 and r.json_body["credits"] == {"TPL-TURN": 1}
    r = zhen.post("/v1/me/subscriptions", {"templates": ["TPL-TURN"]}, **{"Idempotency-Key": "c-2"})
    assert r.json_body["credits"] == {"TPL-TURN": 2}  # a second consent is a second credit
