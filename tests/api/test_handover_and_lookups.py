"""Over HTTP, the paths no whole-game test walks: handing an absent player's seat to a bot by a vote
(and her taking it back), a refused vote, and the small read-only lookups a client calls on start
(health, live, errors, maid catalogue, a consort, the 血染 catalogue, a 深宫杀 /check)."""

from __future__ import annotations

import pytest

from tests.api.dgame import absent_rounds, make_team, open_d_room
from tests.api.helpers import Player, error


@pytest.fixture
def admin(api):
    return Player(api, "司礼")


@pytest.fixture
def team(api, admin):
    return make_team(api, admin, ["甄嬛", "沈眉庄", "安陵容"], value=90)


def test_an_absent_seat_goes_to_a_bot_by_vote_and_comes_back_when_she_acts(team):
    room_id = open_d_room(team, 1)
    team[0].ok("POST", f"/v1/rooms/{room_id}/start")
    early = team[0].post(f"/v1/rooms/{room_id}/handover", {"seat": 2, "level": "simple"})
    assert error(early) == (409, "SEAT_NOT_ABSENT")  # not gone for three rounds yet
    absent_rounds(team, room_id)
    assert error(team[1].post(f"/v1/rooms/{room_id}/handover", {"seat": 2, "level": "simple"}))[0] == 403
    proposed = team[0].ok("POST", f"/v1/rooms/{room_id}/handover", {"seat": 2, "level": "advanced"})
    assert proposed["room"]["handover"]["seat"] == 2 and proposed["room"]["handover"]["yes"] == [0]
    assert proposed["room"]["seats"][2]["bot"] is None  # one of two voters is not a majority
    assert error(team[2].post(f"/v1/rooms/{room_id}/handover/vote", {"yes": True}))[0] == 403  # not on her own seat
    handed = team[1].ok("POST", f"/v1/rooms/{room_id}/handover/vote", {"yes": True})
    assert handed["room"]["seats"][2]["bot"] == "advanced" and handed["room"]["handover"] is None
    view = team[0].view(room_id)
    step = view["room"]["step"]
    assert 2 in view["pending"]["submitted"]  # the bot moved for her at once
    for p in team[:2]:
        p.act(room_id, {"type": "idle"}, step=step)
    back = team[2].view(room_id)
    if back["room"]["status"] == "active":  # she acts again: the seat is hers from now on
        team[2].act(room_id, {"type": "idle"}, step=back["room"]["step"])
        assert team[0].summary(room_id)["room"]["seats"][2]["bot"] is None


def test_the_view_offers_the_creator_an_absent_seat_and_tells_each_player_the_vote(team):
    """The app shows 「请机器人代打」 and the vote from the view alone: the creator is offered a seat once
    its player has missed three rounds in a row (a round she moves in starts the count again), nobody
    else is; the open vote names the seat's player and tells each reader whether she votes and how."""
    room_id = open_d_room(team, 1)
    team[0].ok("POST", f"/v1/rooms/{room_id}/start")
    absent_rounds(team, room_id, rounds=2)
    step = team[0].view(room_id)["room"]["step"]
    for p in team:  # she is back for one round: the count starts again
        p.act(room_id, {"type": "idle"}, step=step)
    absent_rounds(team, room_id, rounds=2)
    assert team[0].view(room_id)["room"]["handover_offer"] == []
    assert error(team[0].post(f"/v1/rooms/{room_id}/handover", {"seat": 2, "level": "simple"})) == (409, "SEAT_NOT_ABSENT")
    absent_rounds(team, room_id, rounds=1)
    assert team[0].view(room_id)["room"]["handover_offer"] == [2]
    assert [p.view(room_id)["room"]["handover_offer"] for p in team[1:]] == [[], []]
    team[0].ok("POST", f"/v1/rooms/{room_id}/handover", {"seat": 2, "level": "advanced"})
    votes = [p.view(room_id)["room"] for p in team]
    assert votes[0]["handover_offer"] == []  # one vote at a time
    assert [(r["handover"]["name"], r["handover"]["voters"], r["handover"]["can_vote"], r["handover"]["my_vote"])
            for r in votes] == [("安陵容", 2, True, "yes"), ("安陵容", 2, True, None), ("安陵容", 2, False, None)]
    refused = team[1].ok("POST", f"/v1/rooms/{room_id}/handover/vote", {"yes": False, "seat": 2})
    assert refused["room"]["handover"] is None
    assert team[0].view(room_id)["room"]["handover_offer"] == [2]  # still gone: she may ask again


def test_a_seat_a_bot_played_keeps_the_game_practice_after_she_takes_it_back(team):
    """Platform P1: a game a bot played in is practice (练习) — also when the player came back and took
    her seat before the end: the finished game reaches no board, no fastest-clear list, no record."""
    from tests.api.dgame import play_out

    room_id = open_d_room(team, 1)
    team[0].ok("POST", f"/v1/rooms/{room_id}/start")
    assert team[0].summary(room_id)["room"]["practice"] is False
    absent_rounds(team, room_id)
    team[0].ok("POST", f"/v1/rooms/{room_id}/handover", {"seat": 2, "level": "simple"})
    team[1].ok("POST", f"/v1/rooms/{room_id}/handover/vote", {"yes": True})
    step = team[0].view(room_id)["room"]["step"]
    for p in team[:2]:
        p.act(room_id, {"type": "idle"}, step=step)  # the round settles with the bot's move for her
    back = team[2].view(room_id)["room"]["step"]
    # she is back: the seat is hers (this round's move the bot already made for her)
    assert error(team[2].act(room_id, {"type": "idle"}, step=back)) == (409, "ALREADY_SUBMITTED")
    room = team[0].summary(room_id)["room"]
    assert room["seats"][2]["bot"] is None and room["practice"] is True
    for p in team[:2]:
        p.act(room_id, {"type": "idle"}, step=back)
    end = play_out(team, room_id, {"type": "poison", "target": 0})
    assert end["room"]["status"] == "finished" and end["room"]["practice"] is True
    assert team[0].ok("GET", "/v1/boards/coop-free")["rows"] == []
    assert team[0].ok("GET", "/v1/stages/1/fastest")["rows"] == []


def test_a_refused_vote_leaves_the_seat_with_its_player(team):
    room_id = open_d_room(team, 1)
    team[0].ok("POST", f"/v1/rooms/{room_id}/start")
    absent_rounds(team, room_id)
    team[0].ok("POST", f"/v1/rooms/{room_id}/handover", {"seat": 2, "level": "simple"})
    refused = team[1].ok("POST", f"/v1/rooms/{room_id}/handover/vote", {"yes": False})
    assert refused["room"]["handover"] is None and refused["room"]["seats"][2]["bot"] is None
    assert error(team[1].post(f"/v1/rooms/{room_id}/handover/vote", {"yes": True}))[0] == 409  # nothing to vote on


def test_the_lookups_a_client_makes_on_start(api, admin, team):
    me = team[0]
    assert me.ok("GET", "/v1/health") == {"ok": True, "stage": "local"}
    live = me.ok("GET", "/v1/live")
    assert live["keepalive_s"] > 0 and (live["url"] is None or live["url"].startswith("ws"))
    codes = {e["code"]: e for e in me.ok("GET", "/v1/errors")["errors"]}
    assert codes["STALE_STEP"]["status"] == 409 and codes["BUSY"]["status"] == 429
    cards = me.ok("GET", "/v1/maids")["cards"]
    assert cards and all(any("\u4e00" <= ch <= "\u9fff" for ch in c["maid"]) for c in cards)
    assert {"xunyi", "tongxin"} <= {c["id"] for c in cards}
    consort = me.ok("GET", f"/v1/consorts/{me.consort}")
    assert consort["name"] == "甄嬛" and consort["looks"] == 90
    catalogue = me.ok("GET", "/v1/games/zhenhuan/catalogue")["catalogue"]
    assert catalogue
    room_id = open_d_room(team, 1)
    me.ok("POST", f"/v1/rooms/{room_id}/start")
    fine = me.ok("POST", me.game_path(room_id, "/check"), {"action": {"type": "idle"}})
    assert fine["legal"] is True and fine["code"] is None
    bad = me.ok("POST", me.game_path(room_id, "/check"), {"action": {"type": "meal"}})
    assert bad == {"legal": False, "code": "ACTION_NOT_IN_MODE", "message": "宫斗杀没有「送膳」",
                   "preview": None}
