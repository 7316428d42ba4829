"""Security and robustness review (branch h-sec): each test proves one finding, and pins its fix."""

from __future__ import annotations

import io
import json
from contextlib import contextmanager

import pytest

from chalicelib.auth.wechat import WeChatClient
from tests.api.helpers import Player, error
from tests.api.test_play_again import finished_baohuang


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


def test_storyteller_notes_and_tokens_everyone_reads_at_the_end_pass_the_checks_text_for_the_table_passes(api, svc):
    """血染: after the end every viewer — each player and any passer-by watching — gets the grimoire
    (notes, reminder tokens), the full log (「备注2号：…」「提示标记：…」) in the view and the reports,
    and the replay. Notes and the storyteller's own tokens were neither content-checked nor refused
    for hidden or bidi characters, so anyone who opened a 血染 room could publish any text to the whole
    table past chat's moderation. They now pass both checks, as a 告知 does (422, nothing written); a
    role's own token is ours and costs no check."""
    from tests.api.zhenhuan_driver import Table

    t = Table.open(api, svc, 5, bytes([13]) + bytes(31))
    t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
    t.begin()
    before = t.stored()
    for action in ({"type": "set_note", "seat": 1, "text": "去死吧"},
                   {"type": "add_reminder", "seat": 1, "token": "去死吧"}):
        assert error(t.send(action, step=before.step)) == (422, "CONTENT_REFUSED"), action
    for action in ({"type": "set_note", "seat": 1, "text": "像是\u202e好人"},
                   {"type": "add_reminder", "seat": 1, "token": "私\u200b聊"}):
        r = t.send(action, step=before.step)
        assert r.status_code == 422 and "看不见、改变文字方向或层层叠加" in r.body.decode(), action
    assert t.stored() == before
    checked: list[str] = []
    real_check = svc._check_comment
    svc._check_comment = lambda text, user: (checked.append(text), real_check(text, user))[1]
    t.do({"type": "set_note", "seat": 1, "text": "像是好人"})
    t.do({"type": "add_reminder", "seat": 1, "token": "私聊"})  # a role's token: no check spent
    t.do({"type": "add_reminder", "seat": 2, "token": "盯紧她"})
    t.do({"type": "set_note", "seat": 3, "text": ""})  # removing a note says nothing
    assert checked == ["像是好人", "盯紧她"]
    t.do({"type": "declare_winner", "winner": "good"})
    t.do({"type": "confirm_end"})
    passer_by = Player(api, "路过的人")
    for who in (t.players[0], passer_by):  # what the checks are for: they all read it now
        seen = who.get(t.gpath).body.decode() + who.get(f"{t.gpath}/reports?after=0").body.decode()
        assert "像是好人" in seen and "盯紧她" in seen


def test_one_player_cannot_take_room_codes_without_limit(api, svc, clock, monkeypatch):
    """开房 had no per-player limit, and a room's 房号 stays taken for three days whatever becomes of it
    (docs/architecture.md, "create"): one account opening and leaving rooms in a loop — each leave
    closes the room at once — could hold a code per room until everyone's 开房 failed with 409
    ROOM_CODE_TAKEN. Now (docs/rules/platform.md P15) she may open 20 rooms in any hour: the 21st is
    429 TOO_MANY_ROOMS saying when, a keyed retry of a create already done still gets its room, an
    hour on she may open again, and a 司礼 (tournaments) is not limited."""
    from chalicelib.rooms.lobby import OPENINGS_PER_HOUR

    a = Player(api, "开房不止")
    first = a.post("/v1/rooms", {"game": "baohuang", "options": {}}, **{"Idempotency-Key": "k-first"})
    assert first.status_code == 200
    assert a.ok("POST", f"/v1/rooms/{first.json_body['room']['id']}/leave")["left"]
    for _ in range(OPENINGS_PER_HOUR - 1):
        clock.advance(60)
        room = a.ok("POST", "/v1/rooms", {"game": "baohuang", "options": {}})["room"]
        assert a.ok("POST", f"/v1/rooms/{room['id']}/leave")["left"]
        assert svc.rooms.find_code(room["code"]) == room["id"]  # the room is closed, its code still held
    refused = a.post("/v1/rooms", {"game": "baohuang", "options": {}})
    assert error(refused) == (429, "TOO_MANY_ROOMS")
    assert "一小时内最多开 20 个房间" in refused.json_body["message"]
    # the oldest opening leaves the hour 41 minutes on (20 openings a minute apart, the last just now)
    assert refused.headers["Retry-After"] == str(41 * 60) and "41分钟后" in refused.json_body["message"]
    retried = a.post("/v1/rooms", {"game": "baohuang", "options": {}}, **{"Idempotency-Key": "k-first"})
    assert retried.status_code == 200 and retried.json_body["room"]["id"] == first.json_body["room"]["id"]
    clock.advance(41 * 60)
    assert a.post("/v1/rooms", {"game": "baohuang", "options": {}}).status_code == 200
    ring = svc.rooms.reserve_room_opening
    assert ring(a.user["id"], "probe", clock.now_ms(), 3_600_000, OPENINGS_PER_HOUR) is not None  # full again
    clock.advance(30 * 60)  # 90 minutes after the first create, its retry finds its room: no opening spent
    taken = []
    monkeypatch.setattr(svc.rooms, "reserve_room_opening", lambda *args: (taken.append(args), ring(*args))[1])
    again = a.post("/v1/rooms", {"game": "baohuang", "options": {}}, **{"Idempotency-Key": "k-first"})
    assert again.status_code == 200 and again.json_body["room"]["id"] == first.json_body["room"]["id"]
    assert taken == []
    admin = Player(api, "司礼")
    for _ in range(OPENINGS_PER_HOUR + 2):
        assert admin.post("/v1/rooms", {"game": "baohuang", "options": {}}).status_code == 200


def test_play_again_and_leave_cannot_take_room_codes_past_the_hourly_ration(api, svc, clock):
    """P15 let 再战 rooms off the ration as 「one per finished game」, but P13 opens another whenever the
    再战 room closed before it started, and 离席 from a room where only bots remain closes it at once:
    再战 and 离席 in a loop opened a room, and took a fresh 房号, on every turn, without limit. Now
    (docs/rules/platform.md P15) the first 再战 room of a finished game is free, and every one opened
    after it is charged to her ration as a plain 开房 is: once it is spent, 429 TOO_MANY_ROOMS as 开房
    says it, nothing opened."""
    from chalicelib.rooms.lobby import OPENINGS_PER_HOUR

    me = Player(api, "甲")
    room_id = finished_baohuang(me)  # one opening of her ration
    codes: list[str] = []
    for _ in range(OPENINGS_PER_HOUR + 10):
        clock.advance(60)
        r = me.post(f"/v1/rooms/{room_id}/again", {})
        if r.status_code != 200:
            break
        new = r.json_body["room"]
        codes.append(new["code"])
        assert me.ok("POST", f"/v1/rooms/{new['id']}/leave")["left"]
        assert svc.rooms.get_room(new["id"]).status.value == "expired"  # closed, its code still held
    # the free first one, and the 19 her ration had left
    assert len(set(codes)) == len(codes) == OPENINGS_PER_HOUR
    assert error(r) == (429, "TOO_MANY_ROOMS") and "一小时内最多开 20 个房间" in r.json_body["message"]
    plain = me.post("/v1/rooms", {"game": "baohuang", "options": {}})  # the same refusal as 开房's
    assert error(plain) == (429, "TOO_MANY_ROOMS") and plain.json_body == r.json_body
    # her 开房, 21 turns of a minute ago, leaves the hour 39 minutes on
    assert r.headers["Retry-After"] == plain.headers["Retry-After"] == str(39 * 60) and "39分钟后" in r.json_body["message"]
    assert svc.rooms.get_room(room_id).again["same"].n == OPENINGS_PER_HOUR  # nothing opened, nothing linked
    clock.advance(39 * 60)
    assert me.ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]["code"] not in codes


@pytest.mark.parametrize("name", ["\U0001d160" * 20, "\ufb2c" * 20, "甄" * 15 + "\U0001d160" * 5])
def test_a_name_is_no_longer_than_its_limit_as_it_is_kept(api, name):
    """Names are NFC-normalised after `max_length` counted what was sent, and NFC lengthens some
    characters threefold: a 20-character name was kept (and shown on every seat, board and chat line)
    at up to 60. The limit now holds for the name as kept: 422."""
    r = api.http.post("/v1/auth/dev", body=json.dumps({"name": name}), headers={"Content-Type": "application/json"})
    assert error(r) == (422, "VALIDATION_FAILED")
    assert api.http.post("/v1/auth/dev", body=json.dumps({"name": "\U0001d160" * 6}),
                         headers={"Content-Type": "application/json"}).json_body["user"]["name"] == (
        "\U0001d158\U0001d165\U0001d16e" * 6)  # 18 as kept: within 20


def test_a_storyteller_cannot_spend_the_apps_content_checks_without_limit(api, svc, clock, monkeypatch):
    """Each text a storyteller types for others to read (a 告知's words, a note, her own reminder token,
    a traveller's identity and ability, a declared reason) spends calls of WeChat's content check, a
    quota of the whole app, and nothing limited them: one account hosting a room could press in a loop
    until the app's quota was spent, and every chat line and 告知 was refused 503 CONTENT_CHECK_FAILED.
    Now (docs/rules/platform.md P16) she may send 30 such actions in any 5 minutes, all her rooms together: the
    31st is 429 TOO_MANY_TEXTS saying when, before any check is spent, nothing written; a press with no
    typed text (a role's own token, a card without words, removing a note) is never limited; her
    phone's retry of a press already applied is not a second one; 5 minutes on she may type again."""
    from chalicelib.rooms.access import TEXTS_PER_WINDOW, TEXTS_WINDOW_MS
    from tests.api.test_zhenhuan_travellers import DETAILS, day_one_with_a_guest

    t, guest = day_one_with_a_guest(api, svc, "远客丙")
    checked: list[str] = []
    real_check = svc._check_comment
    monkeypatch.setattr(svc, "_check_comment", lambda text, user: (checked.append(text), real_check(text, user))[1])
    texts = ({"type": "tell", "seat": 1, "text": "白天小心"}, {"type": "set_note", "seat": 2, "text": "像是好人"},
             {"type": "add_reminder", "seat": 3, "token": "盯紧她"})
    for i in range(TEXTS_PER_WINDOW):
        t.do(texts[i % 3])
        clock.advance(5)
    assert len(checked) == TEXTS_PER_WINDOW
    # her phone's retry of the last press, with its step: answered as it was, no check, not counted
    assert t.send(texts[(TEXTS_PER_WINDOW - 1) % 3], step=t.step - 1).status_code == 200
    before = t.stored()
    refused = t.send({"type": "tell", "seat": 1, "text": "再说一句"})
    assert error(refused) == (429, "TOO_MANY_TEXTS")
    # the first text leaves the window 150 s on (30 texts 5 s apart, the last 5 s ago)
    assert refused.headers["Retry-After"] == "150"
    assert refused.json_body["message"] == "发送文字太频繁：5分钟内最多发送 30 次，请3分钟后再试"
    r = t.st.post(f"{t.gpath}/admit", {"user": guest.user["id"], "details": DETAILS})  # a traveller's words too
    assert error(r) == (429, "TOO_MANY_TEXTS")
    assert t.stored() == before and len(checked) == TEXTS_PER_WINDOW
    for action in ({"type": "add_reminder", "seat": 1, "token": "私聊"},  # a role's token: ours
                   {"type": "tell", "seat": 1, "card": "role", "roles": ["jingfei"]},
                   {"type": "set_note", "seat": 2, "text": ""}):
        t.do(action)
    assert len(checked) == TEXTS_PER_WINDOW
    clock.advance(TEXTS_WINDOW_MS / 1000 - TEXTS_PER_WINDOW * 5)
    t.admit(guest, DETAILS)  # the first text left the window: one slot free again, for both her words
    assert checked[TEXTS_PER_WINDOW:] == [DETAILS["identity"], DETAILS["ability"]]
    refused = t.send({"type": "tell", "seat": 1, "text": "再说一句"})
    assert error(refused) == (429, "TOO_MANY_TEXTS")  # the second (5 s later) is still in it
    assert refused.headers["Retry-After"] == "5" and "请5秒后再试" in refused.json_body["message"]


@pytest.mark.parametrize("action", [
    {"type": "tell", "seat": 1, "text": "\U0001d160" * 200},
    {"type": "set_note", "seat": 1, "text": "记" * 150 + "\ufb2c" * 50},
    {"type": "add_reminder", "seat": 1, "token": "\U0001d160" * 20},
    {"type": "declare_winner", "winner": "good", "reason": "\ufb2c" * 60},
    {"type": "set_traveller", "seat": 1, "identity": "\U0001d160" * 7, "ability": "把脉"},
])
def test_a_storytellers_text_is_no_longer_than_its_limit_as_it_is_kept(api, svc, action):
    """What the storyteller types (a 告知, a note, her own token, a declared reason, a traveller's
    identity and ability) is NFC-normalised after `max_length` counted what was sent, and NFC lengthens
    some characters threefold: a 200-character 告知 was kept (shown to the player, the log and at the
    end to everyone) at up to 600. As for names, the limit now holds for the text as kept: 422, nothing
    written; a text that fits once normalised is kept."""
    from tests.api.zhenhuan_driver import Table

    t = Table.open(api, svc, 5, bytes([13]) + bytes(31))
    t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
    t.begin()
    before = t.stored()
    r = t.send(action)
    assert error(r) == (422, "BAD_ACTION") and "最多" in r.body.decode(), r.body
    assert t.stored() == before
    t.do({"type": "tell", "seat": 1, "text": "\U0001d160" * 66})  # 198 as kept: within 200
    assert t.host_view()["game"]["log"][-1]["text"] == "告知2号：" + "\U0001d158\U0001d165\U0001d16e" * 66
