"""Requests a phone may send twice, and refusals that must write nothing (found by the 2026-12-01
adversarial review): each answer is checked, and what the room holds afterwards."""

from __future__ import annotations

import base64
import json

from tests.api.dgame import absent_rounds, make_team, open_d_room
from tests.api.helpers import Player


def _handover_proposed(api) -> tuple[list[Player], str]:
    """A 宫斗杀 room where seats 0 and 1 played three rounds without seat 2 (三回合未落子), and the
    creator proposed handing seat 2 to a simple bot."""
    admin = Player(api, "司礼")
    team = make_team(api, admin, ["甄嬛", "沈眉庄", "安陵容"], value=90)
    room_id = open_d_room(team, 1)
    team[0].ok("POST", f"/v1/rooms/{room_id}/start")
    absent_rounds(team, room_id)
    team[0].ok("POST", f"/v1/rooms/{room_id}/handover", {"seat": 2, "level": "simple"})
    return team, room_id


def test_a_bad_reports_cursor_is_refused_before_the_move_is_stored(api, svc):
    """"²" passes str.isdigit but is no number: 400 BAD_CURSOR everywhere, never a 500; on a move the
    cursor is checked first, so the refused request stores nothing."""
    admin = Player(api, "司礼")
    team = make_team(api, admin, ["甲", "乙", "丙"])
    room_id = open_d_room(team, stage=1)
    team[0].ok("POST", f"/v1/rooms/{room_id}/start")
    for path in (team[0].game_path(room_id, "/reports?cursor=²"), team[0].game_path(room_id, "?reports_cursor=²"),
                 team[0].game_path(room_id, "/reports?cursor=%EF%BC%91")):  # fullwidth "１"
        r = team[0].get(path)
        assert (r.status_code, r.json_body["code"]) == (400, "BAD_CURSOR"), path
    before = svc.rooms.get_room(room_id)
    for cursor in ("²", "abc", "1.5"):
        r = team[0].act(room_id, {"type": "idle"}, step=before.step, query=f"?reports_cursor={cursor}")
        assert (r.status_code, r.json_body["code"]) == (400, "BAD_CURSOR")
    assert svc.rooms.get_room(room_id).version == before.version
    assert svc.rooms.list_moves(room_id, before.step) == {}
    r = team[0].act(room_id, {"type": "idle"}, step=before.step, query="?reports_cursor=0")
    assert r.status_code == 200 and r.json_body["accepted"]


def test_a_forged_token_with_impossible_numbers_is_refused_not_crashed(api):
    claims = base64.urlsafe_b64encode(json.dumps(
        {"sub": "x", "name": "y", "role": "player", "iat": 1e999, "exp": 1e999}).encode()).rstrip(b"=").decode()
    forged = f"v1.{claims}.AAAA"
    r = api.http.get("/v1/me", headers={"Authorization": f"Bearer {forged}"})
    assert r.status_code == 401
    r = api.http.post("/v1/auth/refresh", body=json.dumps({"refresh_token": forged}),
                      headers={"Content-Type": "application/json"})
    assert (r.status_code, r.json_body["code"]) == (401, "BAD_REFRESH_TOKEN")


def test_a_late_join_with_the_password_is_answered_and_its_retries_spend_no_attempts(api, svc):
    """血染: the right 暗号 records her request and answers the room's summary (she may watch it); six
    retries later she is not locked out (each used to take one of the five password checks)."""
    storyteller = Player(api, "说书人")
    room_id = storyteller.ok("POST", "/v1/rooms", {"game": "zhenhuan", "options": {}, "password": "1234"})["room"]["id"]
    for i in range(5):
        Player(api, f"宾客{i}").ok("POST", f"/v1/rooms/{room_id}/join", {"password": "1234"})
    storyteller.ok("POST", f"/v1/rooms/{room_id}/start")
    late = Player(api, "旅人")
    for _ in range(7):
        r = late.post(f"/v1/rooms/{room_id}/join", {"password": "1234"})
        assert r.status_code == 200 and r.json_body["room"]["id"] == room_id
    assert [q.name for q in svc.rooms.get_room(room_id).requests] == ["旅人"]
    assert (late.post(f"/v1/rooms/{room_id}/join", {"password": "0000"}).status_code) == 200  # asked already
    stranger = Player(api, "路人")
    r = stranger.post(f"/v1/rooms/{room_id}/join", {"password": "0000"})
    assert (r.status_code, r.json_body["code"]) == (403, "WRONG_PASSWORD")


def test_a_refused_action_does_not_take_the_seat_back_from_the_bot(api, svc):
    team, room_id = _handover_proposed(api)
    team[1].ok("POST", f"/v1/rooms/{room_id}/handover/vote", {"yes": True, "seat": 2})
    before = svc.rooms.get_room(room_id)
    assert before.seats[2].bot == "simple"
    r = team[2].act(room_id, {"type": "idle"}, step=before.step + 7)
    assert (r.status_code, r.json_body["code"]) == (409, "STEP_AHEAD")
    r = team[2].act(room_id, {"type": "poison", "target": 9}, step=before.step)
    assert r.status_code == 422
    after = svc.rooms.get_room(room_id)
    assert after.seats[2].bot == "simple" and after.version == before.version
    # a move the rules accept takes the seat back, though her bot has moved for her this round already:
    # refused as a second move — unless the bot sealed the very same move (a seat voided by a boss's 暗杀
    # can only 待机), which answers as that move sent again
    bots_move = svc.rooms.list_moves(room_id, before.step)[2].action
    r = team[2].act(room_id, {"type": "idle"}, step=before.step)
    if bots_move["type"] == "idle":
        assert r.status_code == 200 and r.json_body["accepted"] and not r.json_body["settled"]
    else:
        assert (r.status_code, r.json_body["code"]) == (409, "ALREADY_SUBMITTED")
    assert svc.rooms.get_room(room_id).seats[2].bot is None


def test_a_retried_handover_vote_answers_the_room(api, svc):
    team, room_id = _handover_proposed(api)
    for _ in range(2):  # the deciding vote, then its retry
        r = team[1].post(f"/v1/rooms/{room_id}/handover/vote", {"yes": True, "seat": 2})
        assert r.status_code == 200 and r.json_body["room"]["handover"] is None
        assert r.json_body["room"]["seats"][2]["bot"] == "simple"
    r = team[1].post(f"/v1/rooms/{room_id}/handover/vote", {"yes": True})  # no seat named: nothing to vote on
    assert (r.status_code, r.json_body["code"]) == (409, "NO_HANDOVER")


def test_a_retried_bots_request_adds_its_bots_once(api, svc):
    a, b = Player(api, "甲"), Player(api, "乙")
    room_id = a.open_room("baohuang")
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    for _ in range(2):
        r = a.post(f"/v1/rooms/{room_id}/bots", {"level": "simple", "count": 1, "seated": 2})
        assert r.status_code == 200 and len(r.json_body["room"]["seats"]) == 3
    for _ in range(2):  # fill the rest: the retry finds the table full and answers it, not ROOM_FULL
        r = a.post(f"/v1/rooms/{room_id}/bots", {"level": "simple", "seated": 3})
        assert r.status_code == 200 and len(r.json_body["room"]["seats"]) == 5
    r = a.post(f"/v1/rooms/{room_id}/bots", {"level": "simple"})  # without `seated`: a new request
    assert (r.status_code, r.json_body["code"]) == (409, "ROOM_FULL")
    assert [s.bot is not None for s in svc.rooms.get_room(room_id).seats] == [False, False, True, True, True]


def test_if_none_match_on_a_post_still_answers_the_post(api):
    a, b = Player(api, "甲"), Player(api, "乙")
    room_id = a.open_room("baohuang")
    first = b.post(f"/v1/rooms/{room_id}/join")
    tag = first.headers["ETag"]
    again = b.post(f"/v1/rooms/{room_id}/join", **{"If-None-Match": tag})
    assert again.status_code == 200 and again.json_body["room"]["id"] == room_id
    assert a.get(f"/v1/rooms/{room_id}", **{"If-None-Match": a.get(f"/v1/rooms/{room_id}").headers["ETag"]}).status_code == 304
