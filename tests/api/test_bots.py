"""Bots through HTTP: one human and seven bots play a whole 卡牌局; two humans and three bots a 保皇
deal; a bot decides from its seat's projection only; bot games replay bit for bit and reach no board."""

from __future__ import annotations

import pytest

from chalicelib.domain.model import IDLE_ACTIVE_S
from chalicelib.games import get_game
from chalicelib.rooms import autoplay
from chalicelib.rooms.replay import recompute
from chalicelib.rooms.sweeper import expire_stalled, settle_overdue
from tests.api.dgame import make_team
from tests.api.helpers import Player, error


@pytest.fixture
def admin(api):
    return Player(api, "司礼")


@pytest.fixture
def spy(monkeypatch):
    """Records every view a bot is given, per game key."""
    seen: list[tuple[str, int, object]] = []
    for key in ("shengong_c", "baohuang"):
        game = get_game(key)
        real = type(game).bot_action

        def wrapped(self, view, seat, level, rng, real=real, key=key):
            seen.append((key, seat, view))
            return real(self, view, seat, level, rng)

        monkeypatch.setattr(type(game), "bot_action", wrapped)
    return seen


def test_one_human_and_seven_bots_play_a_whole_card_game(api, svc, admin, spy):
    """Issue #12: a 卡牌局 needs eight people at once — the creator fills the empty seats with bots."""
    admin.ok("PUT", "/v1/admin/games", {"open": {"shengong_c": True}})
    (me,) = make_team(api, admin, ["甄嬛"], value=70, maids={"xunyi": 2, "tieshen": 1, "tongxin": 1})
    room_id = me.open_room("shengong_c", {"turn_seconds": 60})
    filled = me.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "advanced", "count": 4})
    filled = me.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple"})
    assert [s["bot"] for s in filled["room"]["seats"]] == [None] + ["advanced"] * 4 + ["simple"] * 3
    # named as fellow consorts (docs/rules/shengong.md §13), each her own, marked 机器人
    bot_names = [s["name"] for s in filled["room"]["seats"][1:]]
    assert len(set(bot_names)) == 7
    assert all(n.endswith("（机器人）") and n.removesuffix("（机器人）") in get_game("shengong_c").bot_names for n in bot_names)
    me.ok("POST", f"/v1/rooms/{room_id}/start")
    for _ in range(25):
        view = me.view(room_id)
        if view["room"]["status"] != "active":
            break
        assert set(view["pending"]["submitted"]) >= set(view["pending"]["seats"]) - {0}  # the bots moved at once
        if 0 in view["pending"]["seats"]:
            options = {o["type"]: o for o in view["game"]["you"]["options"]}
            heal = options.get("heal")
            move = {"type": "heal"} if heal and heal["allowed"] else {"type": "idle"}
            assert me.act(room_id, move).status_code == 200
        else:  # she is out: the round waits for nobody; the creator may still hurry the table on
            me.post(f"/v1/rooms/{room_id}/hurry", {"step": view["room"]["step"]})
    final = me.view(room_id)
    assert final["room"]["status"] == "finished" and final["game"]["over"]
    (outcome,) = me.result(room_id)["results"]
    # eight places, 1 to 8; exactly equal seats share the better one (docs/rules/shengong.md, Places),
    # which the room's unpinned seed sometimes deals: 1 2 3 4 5 5 7 8
    places = sorted(r["place"] for r in outcome["results"])
    assert len(places) == 8 and places[0] == 1
    assert all(p == i + 1 or p == places[i - 1] for i, p in enumerate(places[1:], 1))
    # practice: nothing reaches a board
    assert me.ok("GET", "/v1/boards/cards-free")["rows"] == []
    assert me.ok("GET", "/v1/boards/cards-free/me")["record"] is None
    # a bot decides from its own seat's projection, nothing more
    state = get_game("shengong_c").load_state(svc.rooms.get_room(room_id).state)
    assert spy and all(key == "shengong_c" and view.you is not None and view.you.seat == seat and view.private is None
                       for key, seat, view in spy)
    assert {seat for _, seat, _ in spy} == set(range(1, 8)) and state.over  # every bot, each with its own view
    # bit for bit from the published seed and log
    replay = me.replay(room_id)
    assert recompute(replay).model_dump(mode="json") == svc.rooms.get_room(room_id).state


def test_two_humans_and_three_bots_play_a_baohuang_deal(api, svc, spy):
    a, b = Player(api, "甲"), Player(api, "乙")
    room_id = a.open_room("baohuang", {"variant": "simple", "turn_seconds": 60})
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    assert error(b.post(f"/v1/rooms/{room_id}/bots", {"level": "advanced"})) == (403, "NOT_CREATOR")
    a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "advanced"})
    a.ok("POST", f"/v1/rooms/{room_id}/start")
    humans = {0: a, 1: b}
    for _ in range(400):
        view = a.view(room_id)
        g = view["game"]
        if g["phase"] in ("between", "over"):
            break
        waiting = [s for s in view["pending"]["seats"] if s not in (view["pending"].get("submitted") or [])]
        assert waiting and set(waiting) <= {0, 1}, waiting  # bots never keep the table waiting
        seat = waiting[0]
        mine = humans[seat].view(room_id)
        mg = mine["game"]
        if mg["phase"] == "throne":
            action = {"type": "take_throne"}
        elif mg["phase"] == "declare":
            action = {"type": "stay_hidden"}
        elif mg["hints"]:
            action = {"type": "play", "cards": mg["hints"][0]}
        else:
            action = {"type": "pass"}
        assert humans[seat].act(room_id, action).status_code == 200
    results = a.result(room_id)["results"]
    assert len(results) == 1 and results[0]["unit"] == "deal-1"
    assert sum(r["score"] for r in results[0]["results"]) == 0
    assert a.ok("GET", "/v1/boards/baohuang-free")["rows"] == []  # practice
    assert spy and all(key == "baohuang" and seat in (2, 3, 4) and view.seat == seat for key, seat, view in spy)
    # a bot's view holds its own hand only: every seat's hands are the host's alone
    state = get_game("baohuang").load_state(svc.rooms.get_room(room_id).state)
    dealt = state.last.dealt if state.last else None
    for _, seat, view in spy:
        assert view.hands is None and view.viewer == "player"
        if dealt is not None:
            foreign = {c for s, hand in enumerate(dealt) if s != seat for c in hand}
            assert not foreign & set(view.hand), seat


def test_one_player_gone_to_tuoguan_among_four_bots_sees_the_deal_through_and_the_table_end(api, svc, monkeypatch):
    """A player who presses 托管 at a table of bots: the whole deal is played in that one request (not
    40 plays, then a bot standing at its 30 s clock, as before), and then the table ends, as when five
    are in 托管 (docs/rules/baohuang.md §15) — bots dealing on for no one would never stop."""
    monkeypatch.setattr(autoplay, "BOT_RUN_S", 60.0)  # the step bound is tested here, not a busy machine's speed
    a = Player(api, "甲")
    room_id = a.open_room("baohuang", {"variant": "classic", "turn_seconds": 30})
    a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple"})
    a.ok("POST", f"/v1/rooms/{room_id}/start")
    step = a.view(room_id)["room"]["step"]
    assert a.act(room_id, {"type": "auto"}, step=step).status_code == 200
    view = a.view(room_id)
    assert view["room"]["status"] == "finished" and view["game"]["over_reason"] == "all_auto"
    results = a.result(room_id)["results"]
    assert [r["unit"] for r in results] == ["deal-1"]
    assert len(view["game"]["last_deal"]["places"]) == 5  # played out, every seat placed
    assert sum(r["score"] for r in results[0]["results"]) == 0
    assert svc.rooms.get_room(room_id).step > 60  # more than 40 bot plays ran in that request


def _timed_out_among_bots(api, svc, clock):
    """A 保皇 table of one person and four bots, where her turn's clock ran out: the deal played out."""
    a = Player(api, "甲")
    room_id = a.open_room("baohuang", {"variant": "simple", "turn_seconds": 30})
    a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple"})
    a.ok("POST", f"/v1/rooms/{room_id}/start")
    for _ in range(10):  # her clock runs out (a sealed declaration's only settles, so maybe twice)
        view = a.view(room_id)
        if view["game"]["phase"] == "between":
            break
        clock.advance(31)
        settle_overdue(svc.room_deps())
    return a, room_id, view


def test_a_lone_player_the_clock_put_in_tuoguan_finds_the_table_waiting_for_her(api, svc, clock, monkeypatch):
    """DECISIONS 保皇 #8: "on expiry the seat goes to 托管 ... until the player acts again." Rules §15: at a
    table of four bots, her missed turn puts her in 托管; 托管 and the bots finish the deal, and the table
    waits for her at `between` (no deadline, no deal without her) instead of ending; her 继续 deals on."""
    monkeypatch.setattr(autoplay, "BOT_RUN_S", 60.0)
    a, room_id, view = _timed_out_among_bots(api, svc, clock)
    me = view["game"]["seat"]
    assert view["room"]["status"] == "active" and view["game"]["phase"] == "between"
    assert view["game"]["seats"][me]["auto"] and not view["game"]["seats"][me]["ready"]
    assert view["game"]["held_note"].startswith("你的回合超时")
    assert [r["unit"] for r in a.result(room_id)["results"]] == ["deal-1"]
    room = svc.rooms.get_room(room_id)
    assert list(room.pending.seats) == [me] and room.pending.deadline_ms is None
    clock.advance(600)
    settle_overdue(svc.room_deps())
    assert a.view(room_id)["game"]["phase"] == "between"  # no clock deals on without her
    assert a.act(room_id, {"type": "next_deal"}).status_code == 200
    view = a.view(room_id)
    assert view["game"]["deal_no"] == 2 and view["game"]["phase"] != "between"
    assert not view["game"]["seats"][me]["auto"] and view["room"]["status"] == "active"


def test_a_table_waiting_for_a_player_who_never_comes_back_closes_as_an_idle_room(api, svc, clock, monkeypatch):
    """Rules §15: the bots deal nothing for no one; the room's idle expiry (6 h without a person's move)
    closes a table left waiting for her."""
    monkeypatch.setattr(autoplay, "BOT_RUN_S", 60.0)
    _, room_id, view = _timed_out_among_bots(api, svc, clock)
    assert view["game"]["phase"] == "between"
    clock.advance(IDLE_ACTIVE_S + 60)
    expire_stalled(svc.room_deps())
    assert svc.rooms.get_room(room_id).status.value == "abandoned"


def test_a_bot_run_out_of_time_leaves_the_rest_to_the_clock(api, svc, clock, monkeypatch):
    """BOT_RUN_S bounds the wall time a request spends on bots: past it, the bots' turn waits for the
    next request or its deadline, which carries it on."""
    a = Player(api, "甲")
    room_id = a.open_room("baohuang", {"variant": "simple", "turn_seconds": 30})
    a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple"})
    monkeypatch.setattr(autoplay, "BOT_RUN_S", -1.0)  # out of time at once
    a.ok("POST", f"/v1/rooms/{room_id}/start")
    a.act(room_id, {"type": "auto"}, step=a.view(room_id)["room"]["step"])
    stalled = svc.rooms.get_room(room_id)
    assert stalled.status.value == "active" and set(stalled.pending.seats) <= set(stalled.bot_seats)
    monkeypatch.setattr(autoplay, "BOT_RUN_S", 60.0)
    clock.advance(31)
    settle_overdue(svc.room_deps())
    assert svc.rooms.get_room(room_id).status.value == "finished"  # the clock carried the bots on
