"""Platform behaviour through HTTP: bad input, polling, 暗号, lobby, consorts, modes, expiry, bots,
the per-game paths (a room is reached only under its own game's path), and framework errors in the
API's one error shape. 保皇 stands in for a turn game and 宫斗杀 D for a sealed one."""

from __future__ import annotations

import json

import pytest

from chalicelib.rooms import sweeper
from tests.api.dgame import make_team, open_d_room
from tests.api.helpers import Player, error


@pytest.fixture
def admin(api):
    return Player(api, "司礼")


def five(api, names: str = "abcde") -> list[Player]:
    return [Player(api, n) for n in names]


def table(api, players: list[Player], **body) -> str:
    room_id = players[0].open_room("baohuang", **body)
    for p in players[1:]:
        p.ok("POST", f"/v1/rooms/{room_id}/join", {"password": body.get("password")} if body.get("password") else None)
    return room_id


def test_malformed_and_wrong_types_change_nothing(api, svc):
    a = Player(api, "a")
    room_id = a.open_room("baohuang")
    before = svc.rooms.get_room(room_id)
    assert error(a.post("/v1/rooms", "{oops")) == (400, "MALFORMED_JSON")
    assert error(a.post("/v1/rooms", "[1, 2]")) == (400, "MALFORMED_JSON")
    assert error(a.post("/v1/rooms", {"game": 7})) == (422, "VALIDATION_FAILED")
    assert error(a.post("/v1/rooms", {"game": "baohuang", "options": {"turn_seconds": "60"}})) == (
        422, "VALIDATION_FAILED")  # strict: a string is not a number
    assert error(a.post("/v1/rooms", {"game": "baohuang", "surprise": 1})) == (422, "VALIDATION_FAILED")
    assert error(a.post("/v1/rooms", {"game": "no-such-game"})) == (404, "UNKNOWN_GAME")
    assert error(a.post(a.game_path(room_id, "/actions"), {"step": "1", "action": {"type": "pass"}})) == (
        422, "VALIDATION_FAILED")
    assert error(a.post(a.game_path(room_id, "/actions"), {"step": True, "action": {"type": "pass"}})) == (
        422, "VALIDATION_FAILED")
    assert error(a.post("/v1/rooms/nope/join")) == (404, "ROOM_NOT_FOUND")
    assert error(a.get("/v1/rooms/nope")) == (404, "ROOM_NOT_FOUND")
    assert error(a.get("/v1/rooms?game=baohuang&limit=0")) == (422, "VALIDATION_FAILED")
    r = a.get("/v1/rooms")
    assert error(r) == (422, "VALIDATION_FAILED") and "baohuang" in r.json_body["message"]  # names the games
    assert error(a.post(a.game_path(room_id, "/actions"), {"step": 0, "action": {"type": "pass"}})) == (
        409, "NOT_STARTED")
    r = api.http.post("/v1/rooms", body="x", headers={**a.headers(), "Content-Type": "text/plain"})
    assert error(r) == (415, "UNSUPPORTED_MEDIA_TYPE")
    assert error(a.post("/v1/rooms", {"game": "baohuang", "options": {}, "password": "x" * 20_000})) == (
        413, "BODY_TOO_LARGE")
    assert svc.rooms.get_room(room_id) == before


def test_names_refuse_invisible_and_direction_changing_characters(api, admin):
    for bad in ("甄\u200b嬛", "\u202e嬛甄", "a\x07", "\ufeffx", " ", "\u3164", "\u2800", "\uffa0",
                "\u115f\u1160", "甄" + "\u0301" * 18, "\ufe0f\ufe0f", "\u17b4", "\u034f甄"):
        r = api.http.post("/v1/auth/dev", body=json.dumps({"name": bad}),
                          headers={"Content-Type": "application/json"})
        assert error(r) == (422, "VALIDATION_FAILED"), repr(bad)
    assert error(admin.post("/v1/admin/consorts", {"name": "甄" * 13, "looks": 1, "talent": 1, "favor": 1,
                                                   "power": 1})) == (422, "VALIDATION_FAILED")  # 13 characters
    assert admin.ok("POST", "/v1/admin/consorts", {"name": "甄" * 12, "looks": 1, "talent": 1, "favor": 1,
                                                   "power": 1})["name"] == "甄" * 12


def test_a_room_is_reached_only_under_its_own_games_path(api, svc):
    players = five(api)
    room_id = table(api, players)
    a = players[0]
    r = a.get(f"/v1/games/shengong/rooms/{room_id}")
    assert error(r) == (404, "WRONG_FAMILY") and r.json_body["details"] == {"family": "baohuang"}
    assert error(a.post(f"/v1/games/zhenhuan/rooms/{room_id}/actions", {"action": {"type": "dusk"}})) == (
        404, "WRONG_FAMILY")
    assert a.view(room_id)["room"]["game"] == "baohuang"


def test_steps_ahead_behind_and_retried(api, svc):
    players = five(api)
    room_id = table(api, players)
    players[0].ok("POST", f"/v1/rooms/{room_id}/start")
    view = players[0].view(room_id)
    step, seat = view["room"]["step"], view["pending"]["seats"][0]
    who = players[seat]
    assert error(who.act(room_id, {"type": "take_throne"}, step=step + 3)) == (409, "STEP_AHEAD")
    r = who.act(room_id, {"type": "take_throne"}, step=step + 3)
    assert r.json_body["details"] == {"current_step": step}
    first = who.act(room_id, {"type": "take_throne"}, step=step)
    assert first.status_code == 200 and first.json_body["step"] == step == first.json_body["current_step"] - 1
    again = who.act(room_id, {"type": "take_throne"}, step=step)  # the phone retries the same request
    assert again.status_code == 200 and again.json_body["step"] == step and not again.json_body["settled"]
    assert error(who.act(room_id, {"type": "pass_throne"}, step=step)) == (409, "STALE_STEP")


def test_bad_action_in_a_running_game_changes_nothing(api, svc):
    players = five(api)
    room_id = table(api, players)
    players[0].ok("POST", f"/v1/rooms/{room_id}/start")
    before = svc.rooms.get_room(room_id)
    a = players[0]
    assert error(a.act(room_id, {"type": "dance"})) == (422, "BAD_ACTION")
    outsider = Player(api, "outsider")
    assert error(outsider.act(room_id, {"type": "pass"}, step=before.step)) == (403, "NOT_IN_ROOM")
    assert error(Player(api, "late").post(f"/v1/rooms/{room_id}/join")) == (409, "ROOM_NOT_OPEN")
    assert svc.rooms.get_room(room_id) == before


def test_full_room_and_start_with_too_few(api):
    players = five(api)
    room_id = players[0].open_room("baohuang")
    assert error(players[0].post(f"/v1/rooms/{room_id}/start")) == (409, "NOT_ENOUGH_PLAYERS")
    for p in players[1:]:
        p.ok("POST", f"/v1/rooms/{room_id}/join")
    assert error(Player(api, "f").post(f"/v1/rooms/{room_id}/join")) == (409, "ROOM_FULL")


def test_etag_polling_returns_304_until_something_the_viewer_sees_changes(api, admin, svc):
    team = make_team(api, admin, ["甄嬛", "眉庄", "陵容"])
    a, b, c = team
    room_id = open_d_room(team[:2], stage=1)
    first = a.get(f"/v1/rooms/{room_id}")
    etag = first.headers["ETag"]
    again = a.get(f"/v1/rooms/{room_id}", **{"If-None-Match": etag})
    assert again.status_code == 304 and again.body in (b"", None)
    # the header as caches and proxies may send it (RFC 9110): a list, the strong form, or *
    for sent in (f'W/"x", {etag}', f'{etag},W/"y"', etag.removeprefix("W/"), "*"):
        assert a.get(f"/v1/rooms/{room_id}", **{"If-None-Match": sent}).status_code == 304, sent
    assert a.get(f"/v1/rooms/{room_id}", **{"If-None-Match": 'W/"x", W/"y"'}).status_code == 200
    assert first.json_body["server_time"] == svc.clock.now_ms()
    c.ok("POST", f"/v1/rooms/{room_id}/join")  # the third seat starts the game
    changed = a.get(a.game_path(room_id), **{"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    etag = changed.headers["ETag"]
    assert b.act(room_id, {"type": "idle"}).status_code == 200  # a move is stored apart ...
    after_move = a.get(a.game_path(room_id), **{"If-None-Match": etag})
    assert after_move.status_code == 200  # ... but who has submitted changed, and a sees it
    assert after_move.json_body["pending"]["submitted"] == [1]
    assert after_move.json_body["pending"]["my_move"] is None  # never what b played
    # a different viewer never gets another's ETag-matched 304
    assert b.get(b.game_path(room_id), **{"If-None-Match": after_move.headers["ETag"]}).status_code == 200


def test_password_is_required_hashed_and_rationed(api, svc, clock):
    a, b = Player(api, "a"), Player(api, "b")
    room_id = a.open_room("baohuang", password="0527")
    stored = svc.rooms.get_room(room_id).password_hash
    assert stored is not None and "0527" not in stored
    lobby = a.ok("GET", "/v1/rooms?game=baohuang")["rooms"]
    assert [r["has_password"] for r in lobby if r["id"] == room_id] == [True]
    assert error(b.post(f"/v1/rooms/{room_id}/join")) == (403, "PASSWORD_REQUIRED")
    assert error(b.get(f"/v1/rooms/{room_id}")) == (403, "PASSWORD_REQUIRED")
    # which game's page asks for it (a room opened by its id alone)
    assert b.get(f"/v1/rooms/{room_id}").json_body["details"] == {"family": "baohuang"}
    for _ in range(5):
        assert error(b.post(f"/v1/rooms/{room_id}/join", {"password": "1111"})) == (403, "WRONG_PASSWORD")
    # even the right 暗号 is refused while the checks are used up: at most five checks in ten minutes
    r = b.post(f"/v1/rooms/{room_id}/join", {"password": "0527"})
    assert error(r) == (429, "PASSWORD_LOCKED")
    # Retry-After and the words say when the oldest check leaves the ten-minute window
    assert (r.headers["Retry-After"], r.json_body["message"]) == ("600", "暗号错误次数过多，请10分钟后再试")
    clock.advance(590)
    r = b.post(f"/v1/rooms/{room_id}/join", {"password": "0527"})
    assert (r.headers["Retry-After"], r.json_body["message"]) == ("10", "暗号错误次数过多，请1分钟后再试")
    assert len(svc.rooms.get_room(room_id).seats) == 1
    clock.advance(11)
    assert b.post(f"/v1/rooms/{room_id}/join", {"password": "0527"}).status_code == 200
    watcher = Player(api, "w")
    assert watcher.post(f"/v1/rooms/{room_id}/spectate", {"password": "0527"}).status_code == 200
    assert watcher.view(room_id)["viewer"] == {"role": "spectator", "seat": None}


def test_lobby_lists_open_rooms_in_signed_pages(api, clock):
    players = five(api)
    a = players[0]
    ids = []
    for _ in range(3):
        ids.append(a.open_room("baohuang"))
        clock.advance(1)
    page1 = a.ok("GET", "/v1/rooms?game=baohuang&limit=2")
    assert [r["id"] for r in page1["rooms"]] == ids[::-1][:2] and page1["cursor"]
    page2 = a.ok("GET", f"/v1/rooms?game=baohuang&limit=2&cursor={page1['cursor']}")
    assert [r["id"] for r in page2["rooms"]] == [ids[0]]
    for p in players[1:]:
        p.ok("POST", f"/v1/rooms/{ids[1]}/join")
    a.ok("POST", f"/v1/rooms/{ids[1]}/start")
    listed = [r["id"] for r in a.ok("GET", "/v1/rooms?game=baohuang")["rooms"]]
    assert ids[1] not in listed and set(listed) == {ids[0], ids[2]}
    tampered = page1["cursor"][:-3] + ("AAA" if not page1["cursor"].endswith("AAA") else "BBB")
    for bad in ("garbage", tampered, "e30.x", "%FF"):
        assert error(a.get(f"/v1/rooms?game=baohuang&cursor={bad}")) == (400, "BAD_CURSOR")
    assert error(a.get(f"/v1/rooms?game=zhenhuan&cursor={page1['cursor']}")) == (400, "BAD_CURSOR")


def test_create_is_idempotent_with_a_key_and_the_key_is_not_reusable(api):
    a = Player(api, "a")
    body = {"game": "baohuang", "options": {}}
    first = a.post("/v1/rooms", body, **{"Idempotency-Key": "k1"}).json_body["room"]["id"]
    again = a.post("/v1/rooms", body, **{"Idempotency-Key": "k1"}).json_body["room"]["id"]
    other = a.post("/v1/rooms", body, **{"Idempotency-Key": "k2"}).json_body["room"]["id"]
    assert first == again != other
    changed = a.post("/v1/rooms", {"game": "baohuang", "options": {"turn_seconds": 45}}, **{"Idempotency-Key": "k1"})
    assert error(changed) == (422, "IDEMPOTENCY_KEY_REUSED")


def test_leave_before_start_passes_the_room_on_and_tells_outsiders_nothing(api, svc):
    a, b = Player(api, "a"), Player(api, "b")
    room_id = a.open_room("baohuang")
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    assert a.ok("POST", f"/v1/rooms/{room_id}/leave") == {"room_id": room_id, "left": True}
    room = svc.rooms.get_room(room_id)
    assert [s.name for s in room.seats] == ["b"] and room.creator_name == "b"
    assert a.ok("POST", f"/v1/rooms/{room_id}/leave") == {"room_id": room_id, "left": True}  # harmless twice
    stranger = Player(api, "stranger")
    assert stranger.ok("POST", f"/v1/rooms/{room_id}/leave") == {"room_id": room_id, "left": True}
    b.ok("POST", f"/v1/rooms/{room_id}/leave")
    assert svc.rooms.get_room(room_id).status.value == "expired"


def test_a_leaving_creator_hands_the_room_to_the_next_person_not_to_a_bot(api, svc):
    """A bot cannot press 开战 or seat others: the room passes over the bots to the first person."""
    a, b = Player(api, "a"), Player(api, "b")
    room_id = a.open_room("baohuang")
    a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple", "count": 2})
    b.ok("POST", f"/v1/rooms/{room_id}/join")  # seats: a, bot, bot, b
    # what 离席 would do is the server's to say, before she confirms
    assert a.ok("GET", f"/v1/rooms/{room_id}")["room"]["leave"] == {"closes": False, "passes_to": "b"}
    assert b.ok("GET", f"/v1/rooms/{room_id}")["room"]["leave"] == {"closes": False, "passes_to": None}
    assert Player(api, "路人").ok("GET", f"/v1/rooms/{room_id}")["room"]["leave"] is None  # not seated
    a.ok("POST", f"/v1/rooms/{room_id}/leave")
    summary = b.ok("GET", f"/v1/rooms/{room_id}")["room"]
    assert summary["creator_name"] == "b" and summary["is_creator"]
    assert b.ok("GET", f"/v1/rooms/{room_id}")["room"]["leave"] == {"closes": True, "passes_to": None}  # bots only
    b.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple"})  # b fills the table and starts it
    started = b.ok("POST", f"/v1/rooms/{room_id}/start")["room"]
    assert started["status"] == "active" and started["leave"] is None  # no 离席 once it runs


def test_the_lobby_lists_games_under_way_to_watch_or_go_back_to(api, svc):
    """Seed: 司礼（admin）可全局观战 — and a player who went back to the lobby finds her running game."""
    players = five(api)
    waiting = players[0].open_room("baohuang")
    running = table(api, players)
    players[0].ok("POST", f"/v1/rooms/{running}/start")
    stranger = Player(api, "路人")
    under_way = stranger.ok("GET", "/v1/rooms?game=baohuang&status=active")["rooms"]
    assert [(r["id"], r["status"], r["title"]) for r in under_way] == [(running, "active", "保皇·简明")]
    assert [r["id"] for r in stranger.ok("GET", "/v1/rooms?game=baohuang")["rooms"]] == [waiting]
    assert error(stranger.get("/v1/rooms?game=baohuang&status=finished")) == (422, "VALIDATION_FAILED")
    assert stranger.ok("POST", f"/v1/rooms/{running}/spectate")["room"]["status"] == "active"


def test_stalled_open_rooms_expire_and_abandoned_games_close(api, svc, clock):
    players = five(api)
    a = players[0]
    stalled = a.open_room("baohuang")
    running = table(api, players, options={"turn_seconds": 300})
    a.ok("POST", f"/v1/rooms/{running}/start")
    deps = svc.room_deps()
    clock.advance(29 * 60)
    assert sweeper.expire_stalled(deps).changed == 0
    clock.advance(6 * 60)  # the sweep runs every 5 minutes: expiry lands within one sweep of 30 minutes
    assert sweeper.expire_stalled(deps).changed == 1
    assert sweeper.expire_stalled(deps).changed == 0  # idempotent
    assert svc.rooms.get_room(stalled).status.value == "expired"
    assert svc.rooms.get_room(running).status.value == "active"
    clock.advance(6 * 3600)  # nobody acts (and no deadline sweep here): the game is abandoned
    assert sweeper.expire_stalled(deps).changed == 1
    room = svc.rooms.get_room(running)
    assert room.status.value == "abandoned" and room.results == ()
    a = Player(api, "a")  # the old token has expired meanwhile
    assert a.view(running)["room"]["seed"] is not None  # the seed is public once nothing is left to play
    assert error(a.act(running, {"type": "pass"}, step=room.step)) == (409, "GAME_OVER")


def test_an_idle_game_whose_state_cannot_be_read_is_still_abandoned(api, svc, clock):
    """The expiry sweep asks a game for its last word only if it has one (血染's 「确认结束」), and a room
    whose end cannot be applied is given up as before, not left failing at the front of the index."""
    players = five(api)
    room_id = table(api, players, options={"turn_seconds": 300})
    players[0].ok("POST", f"/v1/rooms/{room_id}/start")
    room = svc.rooms.get_room(room_id)
    svc.rooms.save_room(room.model_copy(update={"state": {"garbage": True}, "version": room.version + 1}),
                        room.version)
    clock.advance(6 * 3600 + 600)
    report = sweeper.expire_stalled(svc.room_deps())
    assert report.failed == () and svc.rooms.get_room(room_id).status.value == "abandoned"


def test_a_sweep_survives_a_room_that_always_fails(api, svc, clock, monkeypatch):
    players = five(api)
    good = table(api, players, options={"turn_seconds": 30})
    players[0].ok("POST", f"/v1/rooms/{good}/start")
    bad = table(api, five(api, "fghij"), options={"turn_seconds": 30})
    Player(api, "f").ok("POST", f"/v1/rooms/{bad}/start")
    clock.advance(31)
    from chalicelib.rooms import play

    real = play.run_timeout

    def broken(deps, room, now):
        if room.id == bad:
            raise RuntimeError("a bug in one room")
        return real(deps, room, now)

    monkeypatch.setattr(sweeper, "run_timeout", broken)
    report = sweeper.settle_overdue(svc.room_deps())
    assert report.failed == (bad,) and report.changed == 1
    assert svc.rooms.get_room(good).step > 1 and svc.rooms.get_room(bad).step == 1


def test_consorts_admin_and_claims(api, admin):
    p, q = Player(api, "p"), Player(api, "q")
    body = {"name": "甄嬛", "looks": 90, "talent": 95, "favor": 88, "power": 60}
    assert error(p.post("/v1/admin/consorts", body)) == (403, "ADMIN_ONLY")
    assert error(admin.post("/v1/admin/consorts", {**body, "looks": 101})) == (422, "VALIDATION_FAILED")
    assert error(admin.post("/v1/admin/consorts", {**body, "looks": "90"})) == (422, "VALIDATION_FAILED")
    cid = admin.post("/v1/admin/consorts", body, **{"Idempotency-Key": "zh-1"}).json_body["id"]
    assert admin.post("/v1/admin/consorts", body, **{"Idempotency-Key": "zh-1"}).json_body["id"] == cid  # retry
    reused = admin.post("/v1/admin/consorts", {**body, "name": "华妃"}, **{"Idempotency-Key": "zh-1"})
    assert error(reused) == (422, "IDEMPOTENCY_KEY_REUSED")
    assert error(admin.post(f"/v1/admin/consorts/{cid}/maids", {"card": "nope", "level": 1})) == (404, "CARD_NOT_FOUND")
    assert error(admin.post(f"/v1/admin/consorts/{cid}/maids", {"card": "xunyi", "level": 9})) == (
        422, "VALIDATION_FAILED")
    granted = admin.ok("POST", f"/v1/admin/consorts/{cid}/maids", {"card": "xunyi", "level": 3})
    assert granted["maids"] == [{"card": "xunyi", "level": 3}]
    claimed = p.ok("POST", f"/v1/consorts/{cid}/claim")
    assert claimed["mine"] and claimed["claimed"]
    assert p.ok("POST", f"/v1/consorts/{cid}/claim")["mine"]  # retry is harmless
    assert error(q.post(f"/v1/consorts/{cid}/claim")) == (409, "CONSORT_TAKEN")
    other = admin.ok("POST", "/v1/admin/consorts", {**body, "name": "眉庄"})["id"]
    assert error(p.post(f"/v1/consorts/{other}/claim")) == (409, "ALREADY_HAS_CONSORT")
    assert error(p.post("/v1/consorts/zzz/claim")) == (404, "CONSORT_NOT_FOUND")
    assert p.ok("GET", "/v1/me")["consort"]["id"] == cid
    listing = q.ok("GET", "/v1/consorts")["consorts"]
    assert sorted((c["name"], c["claimed"], c["mine"]) for c in listing) == [("甄嬛", True, False),
                                                                               ("眉庄", False, False)]
    # her 宫女 are her 深宫杀 deck and passive bonuses, which the game shows nobody else: only she and
    # the 司礼 see them, from any consort endpoint
    assert all(c["maids"] is None for c in listing)
    assert q.ok("GET", f"/v1/consorts/{cid}")["maids"] is None
    assert p.ok("GET", f"/v1/consorts/{cid}")["maids"] == [{"card": "xunyi", "level": 3}]
    assert p.ok("GET", "/v1/me")["consort"]["maids"] == [{"card": "xunyi", "level": 3}]
    assert [c["maids"] for c in admin.ok("GET", "/v1/consorts")["consorts"] if c["id"] == cid] == [
        [{"card": "xunyi", "level": 3}]]


def test_modes_are_locked_by_default_and_the_admin_opens_them(api, admin):
    p = Player(api, "p")
    games = {g["key"]: g for g in p.ok("GET", "/v1/games")["games"]}
    assert games["shengong_d"]["open"] and not games["shengong_a"]["open"]
    assert games["shengong_a"]["locked_reason"] and games["shengong_a"]["family"] == "shengong"
    # who must bring a 妃子 to sit: the server says, so the lobby greys 开房 / 入席 without knowing the rule
    assert {k: g["needs_consort"] for k, g in games.items()} == {
        "shengong_a": True, "shengong_b": True, "shengong_c": True, "shengong_d": True, "baohuang": False,
        "zhenhuan": False}
    # 开房's stage choices are named with their opponent by the server (seed D①: 房主开房时选关卡)
    assert games["shengong_d"]["options_schema"]["properties"]["stage"]["x-labels"] == {
        "1": "关卡1 · 高明珠", "2": "关卡2 · 石露", "3": "关卡3 · 高明珠（携二随从）"}
    # DECISIONS #2: the round limit is fixed, shown read-only when opening a room
    assert games["shengong_a"]["fixed_rules"]["round_limit"] == games["shengong_d"]["fixed_rules"]["round_limit"] == 20
    assert error(p.post("/v1/rooms", {"game": "shengong_a"})) == (403, "MODE_LOCKED")
    assert error(p.put("/v1/admin/games", {"open": {"shengong_a": True}})) == (403, "ADMIN_ONLY")
    assert error(admin.put("/v1/admin/games", {"open": {"nope": True}})) == (404, "UNKNOWN_GAME")
    opened = {g["key"]: g["open"] for g in admin.ok("PUT", "/v1/admin/games", {"open": {"shengong_a": True}})["games"]}
    assert opened["shengong_a"] and not opened["shengong_b"]
    assert {g["key"]: g["open"] for g in p.ok("GET", "/v1/games")["games"]}["shengong_a"]
    # DECISIONS #1: the 司礼 opens a (锦标赛) room of any mode, locked or not, and hosts it without a 妃子
    mine = {g["key"]: g for g in admin.ok("GET", "/v1/games")["games"]}
    theirs = {g["key"]: g for g in p.ok("GET", "/v1/games")["games"]}
    assert mine["shengong_b"]["can_open"] and not theirs["shengong_b"]["can_open"] and not mine["shengong_b"]["open"]
    assert not any(g["needs_consort"] for g in mine.values()) and theirs["shengong_b"]["needs_consort"]
    room = admin.ok("POST", "/v1/rooms", {"game": "shengong_b", "options": {}})["room"]
    assert room["competition"] == "tournament" and room["hosted"] and room["seats"] == []
    assert room["board"] == "melee-tournament"  # where its results go: 看榜单 opens it
    assert p.ok("POST", "/v1/rooms", {"game": "zhenhuan", "options": {}})["room"]["board"] is None


def test_boards_are_listed_by_name_and_a_wrong_name_lists_the_real_ones(api):
    p = Player(api, "p")
    listed = p.ok("GET", "/v1/boards")
    names = [b["board"] for b in listed["boards"]]
    assert {"coop-free", "melee-free", "cards-tournament", "baohuang-free"} <= set(names)
    assert listed["stages"] == [1, 2, 3]
    r = p.get("/v1/boards/baohuang")
    assert error(r) == (404, "BOARD_NOT_FOUND") and "baohuang-free" in r.json_body["message"]
    for stage in ("²", "①", "9" * 4301, "-1", "0", "4"):
        assert error(p.get(f"/v1/stages/{stage}/fastest")) == (404, "STAGE_NOT_FOUND")


def test_bots_fill_a_table_and_keep_it_off_the_boards(api, svc):
    a = Player(api, "a")
    room_id = a.open_room("baohuang")
    assert error(Player(api, "b").post(f"/v1/rooms/{room_id}/bots", {"level": "simple"})) == (403, "NOT_CREATOR")
    filled = a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "advanced", "count": 2})
    assert [s["bot"] for s in filled["room"]["seats"]] == [None, "advanced", "advanced"]
    assert all("机器人" in s["name"] for s in filled["room"]["seats"][1:])
    filled = a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple"})
    assert len(filled["room"]["seats"]) == 5
    assert error(a.post(f"/v1/rooms/{room_id}/bots", {"level": "simple"})) == (409, "ROOM_FULL")
    a.ok("POST", f"/v1/rooms/{room_id}/start")
    assert svc.rooms.get_room(room_id).status.value == "active"


def test_a_path_no_id_can_be_is_not_found_before_any_store_call(api, svc, admin):
    """DynamoDB refuses a key over 1,024 bytes even on a read (a 500 in production, not in moto): a
    path value longer than any id of ours is answered 404 in the API's shape before the store is asked."""
    p = Player(api, "p")
    long = "a" * 1100
    for method, path, code in (("GET", f"/v1/consorts/{long}", "CONSORT_NOT_FOUND"),
                               ("POST", f"/v1/consorts/{long}/claim", "CONSORT_NOT_FOUND"),
                               ("GET", f"/v1/consorts/{long}/records", "CONSORT_NOT_FOUND"),
                               ("GET", f"/v1/rooms/{long}", "ROOM_NOT_FOUND"),
                               ("POST", f"/v1/rooms/{long}/join", "ROOM_NOT_FOUND"),
                               ("GET", f"/v1/games/baohuang/rooms/{long}", "ROOM_NOT_FOUND"),
                               ("GET", f"/v1/boards/{long}", "BOARD_NOT_FOUND")):
        r = p.post(path, {}) if method == "POST" else p.get(path)
        assert error(r) == (404, code), path[:40]
    # and a 群芳战绩 of a 妃子 nobody made is not an empty record
    assert error(p.get("/v1/consorts/c0000000000/records")) == (404, "CONSORT_NOT_FOUND")


def test_a_deep_health_check_reads_the_table_and_the_secrets_and_says_which_fails(api, svc, monkeypatch):
    """The smoke test after a deploy or rollback asks it: a stage whose table or secrets cannot be read
    answers ok: false naming what (the log says why), where the plain health check still says ok."""
    assert api.http.get("/v1/health").json_body == {"ok": True, "stage": "local"}
    deep = api.http.get("/v1/health?deep=true").json_body
    assert deep == {"ok": True, "stage": "local",
                    "checks": {"table": "ok", "token_keys": "ok", "admins": "ok", "wechat": "ok"}}

    def unreadable():
        raise RuntimeError("AccessDeniedException")

    monkeypatch.setattr(svc.accounts, "get_open_games", unreadable)
    deep = api.http.get("/v1/health?deep=true").json_body
    assert deep["ok"] is False and deep["checks"]["table"] == "unavailable" and deep["checks"]["wechat"] == "ok"
    assert error(api.http.get("/v1/health?deep=maybe")) == (422, "VALIDATION_FAILED")


def test_framework_errors_have_the_same_shape(api):
    p = Player(api, "p")
    r = api.http.request("DELETE", "/v1/me", headers=p.headers())
    assert error(r) == (405, "METHOD_NOT_ALLOWED")


def test_a_phone_may_ask_whether_an_action_is_legal_before_sending_it(api, svc):
    players = five(api)
    room_id = table(api, players)
    players[0].ok("POST", f"/v1/rooms/{room_id}/start")
    view = players[0].view(room_id)
    seat = view["pending"]["seats"][0]
    before = svc.rooms.get_room(room_id)
    asked = players[seat].ok("POST", players[seat].game_path(room_id, "/check"), {"action": {"type": "take_throne"}})
    assert asked == {"legal": True, "code": None, "message": None, "preview": None}  # only 血染's night steps preview
    other = players[(seat + 1) % 5]
    refused = other.ok("POST", other.game_path(room_id, "/check"), {"action": {"type": "take_throne"}})
    assert refused["legal"] is False and refused["code"] == "NOT_YOUR_TURN" and refused["message"]
    assert error(other.post(other.game_path(room_id, "/check"), {"action": {"type": "dance"}})) == (422, "BAD_ACTION")
    assert svc.rooms.get_room(room_id) == before  # asking changes nothing


def test_names_people_read_pass_content_security(api, admin):
    """Issue #12: every 妃子 name (and nickname, and free text a storyteller tells) passes WeChat's
    content check before anyone else sees it; the local stage checks with a small word list."""
    before = admin.ok("GET", "/v1/consorts")["consorts"]
    refused = admin.post("/v1/admin/consorts", {"name": "去死吧", "looks": 1, "talent": 1, "favor": 1, "power": 1})
    assert error(refused) == (422, "CONTENT_REFUSED")
    assert admin.ok("GET", "/v1/consorts")["consorts"] == before  # not stored
