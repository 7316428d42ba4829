"""Platform behaviour through HTTP: bad input, polling, 暗号, lobby, consorts, modes, expiry."""

from __future__ import annotations

import pytest

from chalicelib.rooms import sweeper
from tests.api.helpers import Player, error


def _room_item(svc, room_id):
    return svc.rooms.get_room(room_id)


@pytest.fixture
def admin(api):
    return Player(api, "司礼")


def test_malformed_and_wrong_types_change_nothing(api, fake_games, svc):
    a = Player(api, "a")
    room_id = a.ok("POST", "/v1/rooms", {"game": "tally"})["room"]["id"]
    before = _room_item(svc, room_id)
    assert error(a.post("/v1/rooms", "{oops")) == (400, "MALFORMED_JSON")
    assert error(a.post("/v1/rooms", "[1, 2]")) == (400, "MALFORMED_JSON")
    assert error(a.post("/v1/rooms", {"game": 7})) == (422, "VALIDATION_FAILED")
    assert error(a.post("/v1/rooms", {"game": "tally", "options": {"rounds": "many"}})) == (422, "VALIDATION_FAILED")
    assert error(a.post("/v1/rooms", {"game": "tally", "surprise": 1})) == (422, "VALIDATION_FAILED")
    assert error(a.post("/v1/rooms", {"game": "no-such-game"})) == (404, "UNKNOWN_GAME")
    assert error(a.post(f"/v1/rooms/{room_id}/actions", {"step": "x", "action": {}})) == (422, "VALIDATION_FAILED")
    assert error(a.post("/v1/rooms/nope/join")) == (404, "ROOM_NOT_FOUND")
    assert error(a.get("/v1/rooms/nope")) == (404, "ROOM_NOT_FOUND")
    assert error(a.get("/v1/rooms?game=tally&limit=0")) == (422, "VALIDATION_FAILED")
    assert error(a.post(f"/v1/rooms/{room_id}/actions", {"step": 0, "action": {"type": "pick", "n": 1}})) == (
        409, "NOT_STARTED")
    r = api.http.post("/v1/rooms", body="x", headers={**a.headers(), "Content-Type": "text/plain"})
    assert r.status_code == 415 and error(r) == (415, "UNSUPPORTED_MEDIA_TYPE")
    assert _room_item(svc, room_id) == before


def test_bad_action_in_a_running_game(api, fake_games, svc):
    a, b, c = (Player(api, n) for n in "abc")
    room_id = a.ok("POST", "/v1/rooms", {"game": "tally"})["room"]["id"]
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    c.ok("POST", f"/v1/rooms/{room_id}/join")
    before = _room_item(svc, room_id)
    assert error(a.act(room_id, {"type": "pick", "n": 9})) == (422, "BAD_ACTION")
    assert error(a.act(room_id, {"type": "dance"})) == (422, "BAD_ACTION")
    assert error(a.act(room_id, {"type": "pick", "n": 1}, step=7)) == (409, "STALE_STEP")
    outsider = Player(api, "outsider")
    assert error(outsider.act(room_id, {"type": "pick", "n": 1})) == (403, "NOT_IN_ROOM")
    assert error(Player(api, "late").post(f"/v1/rooms/{room_id}/join")) == (409, "ROOM_NOT_OPEN")
    assert _room_item(svc, room_id) == before
    assert svc.rooms.list_moves(room_id, 1) == {}


def test_full_room_and_start_with_too_few(api, fake_games):
    a, b = Player(api, "a"), Player(api, "b")
    room_id = a.ok("POST", "/v1/rooms", {"game": "relay"})["room"]["id"]
    assert error(a.post(f"/v1/rooms/{room_id}/start")) == (409, "NOT_ENOUGH_PLAYERS")
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    assert error(Player(api, "c").post(f"/v1/rooms/{room_id}/join")) == (409, "ROOM_FULL")


def test_etag_polling_returns_304_until_something_changes(api, fake_games):
    a, b, c = (Player(api, n) for n in "abc")
    room_id = a.ok("POST", "/v1/rooms", {"game": "tally"})["room"]["id"]
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    first = a.get(f"/v1/rooms/{room_id}")
    etag = first.headers["ETag"]
    again = a.get(f"/v1/rooms/{room_id}", **{"If-None-Match": etag})
    assert again.status_code == 304 and again.body in (b"", None)
    c.ok("POST", f"/v1/rooms/{room_id}/join")  # starts the game
    changed = a.get(f"/v1/rooms/{room_id}", **{"If-None-Match": etag})
    assert changed.status_code == 200 and changed.headers["ETag"] != etag
    etag = changed.headers["ETag"]
    b.act(room_id, {"type": "pick", "n": 1})  # a move is stored apart: the room item did not change ...
    after_move = a.get(f"/v1/rooms/{room_id}", **{"If-None-Match": etag})
    assert after_move.status_code == 200  # ... but who has submitted did
    assert after_move.json_body["pending"]["submitted"] == [1]
    # a different viewer never gets another's ETag-matched 304
    assert b.get(f"/v1/rooms/{room_id}", **{"If-None-Match": after_move.headers["ETag"]}).status_code == 200


def test_password_is_required_hashed_and_rate_limited(api, fake_games, svc, clock):
    a, b = Player(api, "a"), Player(api, "b")
    room_id = a.ok("POST", "/v1/rooms", {"game": "tally", "password": "0527"})["room"]["id"]
    stored = _room_item(svc, room_id).password_hash
    assert stored is not None and "0527" not in stored
    lobby = a.ok("GET", "/v1/rooms?game=tally")["rooms"]
    assert [r["has_password"] for r in lobby if r["id"] == room_id] == [True]
    assert error(b.post(f"/v1/rooms/{room_id}/join")) == (403, "PASSWORD_REQUIRED")
    assert error(b.get(f"/v1/rooms/{room_id}")) == (403, "PASSWORD_REQUIRED")
    for _ in range(5):
        assert error(b.post(f"/v1/rooms/{room_id}/join", {"password": "1111"})) == (403, "WRONG_PASSWORD")
    # even the right 暗号 is refused while locked out
    assert error(b.post(f"/v1/rooms/{room_id}/join", {"password": "0527"})) == (429, "PASSWORD_LOCKED")
    assert len(_room_item(svc, room_id).seats) == 1
    clock.advance(601)
    assert b.post(f"/v1/rooms/{room_id}/join", {"password": "0527"}).status_code == 200
    watcher = Player(api, "w")
    assert watcher.post(f"/v1/rooms/{room_id}/spectate", {"password": "0527"}).status_code == 200
    assert watcher.view(room_id)["viewer"] == {"role": "spectator", "seat": None}


def test_lobby_lists_open_rooms_and_drops_started_ones(api, fake_games, clock):
    a, b, c = (Player(api, n) for n in "abc")
    ids = []
    for _ in range(3):
        ids.append(a.ok("POST", "/v1/rooms", {"game": "tally"})["room"]["id"])
        clock.advance(1)
    page1 = a.ok("GET", "/v1/rooms?game=tally&limit=2")
    assert [r["id"] for r in page1["rooms"]] == ids[::-1][:2] and page1["cursor"]
    page2 = a.ok("GET", f"/v1/rooms?game=tally&limit=2&cursor={page1['cursor']}")
    assert [r["id"] for r in page2["rooms"]] == [ids[0]]
    b.ok("POST", f"/v1/rooms/{ids[1]}/join")
    c.ok("POST", f"/v1/rooms/{ids[1]}/join")  # full: started
    listed = [r["id"] for r in a.ok("GET", "/v1/rooms?game=tally")["rooms"]]
    assert ids[1] not in listed and set(listed) == {ids[0], ids[2]}
    assert error(a.get("/v1/rooms?game=tally&cursor=garbage")) == (400, "BAD_CURSOR")


def test_create_is_idempotent_with_a_key(api, fake_games):
    a = Player(api, "a")
    first = a.post("/v1/rooms", {"game": "tally"}, **{"Idempotency-Key": "k1"}).json_body["room"]["id"]
    again = a.post("/v1/rooms", {"game": "tally"}, **{"Idempotency-Key": "k1"}).json_body["room"]["id"]
    other = a.post("/v1/rooms", {"game": "tally"}, **{"Idempotency-Key": "k2"}).json_body["room"]["id"]
    assert first == again != other


def test_leave_before_start_passes_the_room_on(api, fake_games, svc):
    a, b = Player(api, "a"), Player(api, "b")
    room_id = a.ok("POST", "/v1/rooms", {"game": "tally"})["room"]["id"]
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    left = a.ok("POST", f"/v1/rooms/{room_id}/leave")
    assert [s["name"] for s in left["seats"]] == ["b"] and left["creator_name"] == "b"
    assert a.ok("POST", f"/v1/rooms/{room_id}/leave")["status"] == "open"  # leaving twice is harmless
    b.ok("POST", f"/v1/rooms/{room_id}/leave")
    assert _room_item(svc, room_id).status.value == "expired"


def test_stalled_open_rooms_expire_and_abandoned_games_close(api, fake_games, svc, clock):
    a, b, c = (Player(api, n) for n in "abc")
    stalled = a.ok("POST", "/v1/rooms", {"game": "tally"})["room"]["id"]
    running = a.ok("POST", "/v1/rooms", {"game": "tally", "options": {"turn_seconds": 600}})["room"]["id"]
    b.ok("POST", f"/v1/rooms/{running}/join")
    c.ok("POST", f"/v1/rooms/{running}/join")
    deps = svc.room_deps()
    clock.advance(29 * 60)
    assert sweeper.expire_stalled(deps).changed == 0
    clock.advance(6 * 60)  # the sweep runs every 5 minutes: expiry lands within one sweep of 30 minutes
    assert sweeper.expire_stalled(deps).changed == 1
    assert sweeper.expire_stalled(deps).changed == 0  # idempotent
    assert _room_item(svc, stalled).status.value == "expired"
    assert _room_item(svc, running).status.value == "active"
    # nobody acts (and the scheduler is not run here): after 6 idle hours the game is abandoned
    clock.advance(6 * 3600)
    assert sweeper.expire_stalled(deps).changed == 1
    room = _room_item(svc, running)
    assert room.status.value == "abandoned" and room.results == ()
    a = Player(api, "a")  # the old token has expired meanwhile
    assert a.view(running)["room"]["seed"] is not None  # the seed is public once nothing is left to play
    assert error(a.act(running, {"type": "pick", "n": 1})) == (409, "GAME_OVER")


def test_consorts_admin_and_claims(api, admin):
    p, q = Player(api, "p"), Player(api, "q")
    body = {"name": "甄嬛", "looks": 90, "talent": 95, "favor": 88, "power": 60}
    assert error(p.post("/v1/admin/consorts", body)) == (403, "ADMIN_ONLY")
    assert error(admin.post("/v1/admin/consorts", {**body, "looks": 101})) == (422, "VALIDATION_FAILED")
    cid = admin.post("/v1/admin/consorts", body, **{"Idempotency-Key": "zh-1"}).json_body["id"]
    assert admin.post("/v1/admin/consorts", body, **{"Idempotency-Key": "zh-1"}).json_body["id"] == cid  # retry
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


def test_modes_are_locked_by_default_and_the_admin_opens_them(api, admin):
    p = Player(api, "p")
    games = {g["key"]: g for g in p.ok("GET", "/v1/games")["games"]}
    assert games["shengong_d"]["open"] and not games["shengong_a"]["open"]
    assert games["shengong_a"]["locked_reason"]
    # DECISIONS #2: the round limit is fixed, shown read-only when opening a room
    assert games["shengong_a"]["fixed_rules"]["round_limit"] == games["shengong_d"]["fixed_rules"]["round_limit"] == 20
    assert error(p.post("/v1/rooms", {"game": "shengong_a"})) == (403, "MODE_LOCKED")
    assert error(p.put("/v1/admin/games", {"open": {"shengong_a": True}})) == (403, "ADMIN_ONLY")
    assert error(admin.put("/v1/admin/games", {"open": {"nope": True}})) == (404, "UNKNOWN_GAME")
    opened = {g["key"]: g["open"] for g in admin.ok("PUT", "/v1/admin/games", {"open": {"shengong_a": True}})["games"]}
    assert opened["shengong_a"] and not opened["shengong_b"]
    assert {g["key"]: g["open"] for g in p.ok("GET", "/v1/games")["games"]}["shengong_a"]


def test_framework_errors_have_the_same_shape(api):
    p = Player(api, "p")
    r = api.http.request("DELETE", "/v1/me", headers=p.headers())
    assert error(r) == (405, "METHOD_NOT_ALLOWED")
