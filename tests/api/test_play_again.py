"""再战: a finished table plays again in one room (docs/rules/platform.md, "再战").

Before, 宫斗杀's 再战此关 opened a new room for each teammate who tapped it: three friends who wanted one
more go at the stage sat in three rooms, each waiting for the others. Now the first tap opens the room
and every later tap from the same table sits in it; the finished room names it, so the others' screens
can say who opened it."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import RateLimited
from chalicelib.core.game import BotLevel
from chalicelib.core.identity import Caller
from chalicelib.domain.model import BOT_USER_PREFIX, RoomStatus
from chalicelib.games import get_game
from chalicelib.rooms import again
from chalicelib.rooms.engine import parse_model
from tests.api.dgame import make_team, open_d_room, play_out
from tests.api.helpers import Player, error


@pytest.fixture
def admin(api):
    return Player(api, "司礼")


def finished_d_room(api, admin, names: list[str], stage: int = 1) -> tuple[list[Player], str]:
    team = make_team(api, admin, names, value=60)
    room_id = open_d_room(team, stage)
    assert play_out(team, room_id, {"type": "assassinate", "target": 0})["room"]["status"] == "finished"
    return team, room_id


def finished_hosted_room(api, svc) -> tuple[Player, list[Player], str]:
    """A 血染 room of a storyteller and five players, marked over (how it ended does not matter here)."""
    storyteller = Player(api, "说书人")
    players = [Player(api, f"宾客{i}") for i in range(5)]
    room_id = storyteller.open_room("zhenhuan")
    for p in players:
        p.ok("POST", f"/v1/rooms/{room_id}/join")
    room = svc.rooms.get_room(room_id)
    svc.rooms.save_room(room.model_copy(update={"status": RoomStatus.FINISHED, "version": room.version + 1}),
                        room.version)
    return storyteller, players, room_id


def seated_users(svc, room_id: str) -> list[str]:
    return [s.user for s in svc.rooms.get_room(room_id).seats]


def test_the_first_tap_opens_the_room_and_every_teammates_tap_sits_in_it(api, svc, admin):
    team, done = finished_d_room(api, admin, ["甄嬛", "眉庄", "陵容"])
    version = svc.rooms.get_room(done).version
    first = team[1].ok("POST", f"/v1/rooms/{done}/again", {"stage": 1})["room"]
    assert (first["status"], first["title"], first["options"]["stage"]) == ("open", "宫斗杀·关卡1", 1)
    assert [s["name"] for s in first["seats"]] == ["眉庄"] and first["is_creator"]
    assert first["awaited"] == ["甄嬛", "陵容"]  # the waiting screen names who has not come yet
    # the finished room names it for the others' screens (and its new version is their notice)
    told = team[0].summary(done)["room"]
    assert told["again"] == [{"stage": 1, "room_id": first["id"], "by": "眉庄", "by_me": False}]
    assert svc.rooms.get_room(done).version == version + 1
    second = team[0].ok("POST", f"/v1/rooms/{done}/again", {"stage": 1})["room"]
    assert second["id"] == first["id"] and [s["name"] for s in second["seats"]] == ["眉庄", "甄嬛"]
    assert second["awaited"] == ["陵容"] and team[1].summary(first["id"])["room"]["awaited"] == ["陵容"]
    # …and not to 陵容 herself, who is looking at it (a reviewer's 陵容 read 「上局同伴未到：安陵容」)
    assert team[2].summary(first["id"])["room"]["awaited"] == []
    assert team[1].summary(done)["room"]["again"][0]["by_me"] is True  # hers: 「回新房」, not 「同席」
    # a retried tap (a lost answer) is the same room, the same one seat
    assert team[0].ok("POST", f"/v1/rooms/{done}/again", {"stage": 1})["room"]["id"] == first["id"]
    third = team[2].ok("POST", f"/v1/rooms/{done}/again", {})["room"]  # no stage: the same settings
    assert third["id"] == first["id"] and third["status"] == "active"  # the third seat starts 宫斗杀
    assert third["awaited"] == [] and team[0].summary(done)["room"]["awaited"] == []  # a finished room awaits no one
    assert seated_users(svc, first["id"]) == [team[1].user["id"], team[0].user["id"], team[2].user["id"]]
    assert len(team[0].summary(done)["room"]["again"]) == 1  # one 再战 room, not one per teammate


def test_teammates_who_tap_at_once_meet_in_one_room(api, svc, admin):
    """Two taps at the same instant: both derive the same room; the one whose create lost finds it and
    sits. Played here as the moment between: her teammate's room written, its link not yet."""
    team, done = finished_d_room(api, admin, ["端妃", "敬妃", "欣常在"])
    old = svc.rooms.get_room(done)
    game = get_game(old.game)
    options = parse_model(game.options_model, old.options, "房间设置").model_dump(mode="json")
    caller = Caller(user_id=team[0].user["id"], name=team[0].name)
    opened = again._open(svc.room_deps(), caller, old, game, options, again.again_room_id(done, "1", 1),
                         charged=False)
    assert svc.rooms.get_room(done).again == {}  # her link is not written yet
    joined = team[1].ok("POST", f"/v1/rooms/{done}/again", {"stage": 1})["room"]
    assert joined["id"] == opened.id and [s["name"] for s in joined["seats"]] == ["端妃", "敬妃"]
    assert team[2].summary(done)["room"]["again"] == [{"stage": 1, "room_id": opened.id, "by": "端妃", "by_me": False}]
    # and her own retry finds her seat there
    assert team[0].ok("POST", f"/v1/rooms/{done}/again", {"stage": 1})["room"]["id"] == opened.id
    assert len(seated_users(svc, opened.id)) == 2


def test_who_may_play_again_and_when(api, svc, admin):
    team = make_team(api, admin, ["华妃", "曹贵人", "丽嫔"], value=0)
    room_id = open_d_room(team, 1)
    # a game still on: nothing to play again yet, and nothing written
    r = team[0].post(f"/v1/rooms/{room_id}/again", {"stage": 1})
    assert error(r) == (409, "NOT_ENDED") and r.json_body["message"] == "这一局结束后才能再战"
    play_out(team, room_id, {"type": "heal"})  # nobody strikes: the stage is not cleared
    stranger = Player(api, "路人")
    r = stranger.post(f"/v1/rooms/{room_id}/again", {"stage": 1})
    assert error(r) == (403, "NOT_IN_ROOM") and r.json_body["message"] == "只有这一局的玩家可以再战"
    assert error(team[0].post(f"/v1/rooms/{room_id}/again", {"stage": 0})) == (422, "VALIDATION_FAILED")
    assert error(team[0].post(f"/v1/rooms/{room_id}/again", {"stage": "2"})) == (422, "VALIDATION_FAILED")
    assert error(team[0].post(f"/v1/rooms/{room_id}/again", {"stage": 9})) == (422, "VALIDATION_FAILED")
    assert error(team[0].post("/v1/rooms/nosuchroom/again", {})) == (404, "ROOM_NOT_FOUND")
    # a stage she has not unlocked is refused by name, as when she opens it herself
    assert team[0].ok("GET", "/v1/me")["consort"]["cleared_stages"] == []
    r = team[0].post(f"/v1/rooms/{room_id}/again", {"stage": 2})
    assert error(r) == (422, "STAGE_LOCKED") and r.json_body["details"]["players"] == ["华妃"]
    assert svc.rooms.get_room(room_id).again == {}  # nothing written by any of them


def test_after_a_clear_the_next_stage_has_its_own_room_beside_this_stages(api, svc, admin):
    team, done = finished_d_room(api, admin, ["宁贵人", "祺贵人", "瑛贵人"])
    assert team[0].ok("GET", "/v1/me")["consort"]["cleared_stages"] == [1]
    ahead = team[0].ok("POST", f"/v1/rooms/{done}/again", {"stage": 2})["room"]
    same = team[1].ok("POST", f"/v1/rooms/{done}/again", {"stage": 1})["room"]
    assert ahead["id"] != same["id"] and (ahead["options"]["stage"], same["options"]["stage"]) == (2, 1)
    assert team[2].summary(done)["room"]["again"] == [
        {"stage": 1, "room_id": same["id"], "by": "祺贵人", "by_me": False}, {"stage": 2, "room_id": ahead["id"], "by": "宁贵人", "by_me": False}]
    assert team[2].ok("POST", f"/v1/rooms/{done}/again", {"stage": 2})["room"]["id"] == ahead["id"]


def test_the_same_password_keeps_strangers_out_but_not_the_table(api, svc, admin):
    team = make_team(api, admin, ["沈眉庄", "安小主", "温实初"], value=60)
    room_id = team[0].open_room("shengong_d", {"stage": 1}, password="碎玉")
    for p in team[1:]:
        p.ok("POST", f"/v1/rooms/{room_id}/join", {"password": "碎玉"})
    play_out(team, room_id, {"type": "assassinate", "target": 0})
    new = team[2].ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]
    assert new["has_password"]
    assert error(make_team(api, admin, ["外人"], value=60)[0].post(f"/v1/rooms/{new['id']}/join")) == (
        403, "PASSWORD_REQUIRED")
    assert team[0].ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]["id"] == new["id"]  # no 暗号 asked


def test_a_room_its_opener_left_before_the_start_is_followed_by_a_new_one(api, svc, admin):
    team, done = finished_d_room(api, admin, ["齐妃", "富察贵人", "淳常在"])
    first = team[0].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"]
    team[0].ok("POST", f"/v1/rooms/{first}/leave")  # alone in it: it closes
    assert svc.rooms.get_room(first).status is RoomStatus.EXPIRED
    second = team[1].ok("POST", f"/v1/rooms/{done}/again", {})["room"]
    assert second["id"] != first and [s["name"] for s in second["seats"]] == ["富察贵人"]
    assert team[2].summary(done)["room"]["again"] == [{"stage": 1, "room_id": second["id"], "by": "富察贵人", "by_me": False}]
    # once a 再战 room has started without her, she is told so (it does not open a third)
    team[2].ok("POST", f"/v1/rooms/{done}/again", {})
    team[0].ok("POST", f"/v1/rooms/{done}/again", {})
    assert svc.rooms.get_room(second["id"]).status is RoomStatus.ACTIVE
    late = make_team(api, admin, ["迟到者"], value=60)[0]
    assert error(late.post(f"/v1/rooms/{done}/again", {})) == (403, "NOT_IN_ROOM")


def test_a_hosted_games_next_room_is_the_hosts_to_open(api, svc):
    storyteller, players, room_id = finished_hosted_room(api, svc)
    r = players[0].post(f"/v1/rooms/{room_id}/again", {})
    assert error(r) == (409, "AGAIN_HOST_OPENS") and r.json_body["message"] == "新的一局由主持人来开，请稍候"
    new = storyteller.ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]
    assert new["seats"] == [] and new["hosted"] and new["is_creator"]
    assert new["awaited"] == [f"宾客{i}" for i in range(5)]  # the storyteller is told whom to wait for
    assert svc.rooms.get_room(new["id"]).host == storyteller.user["id"]
    assert players[0].summary(room_id)["room"]["again"] == [{"stage": None, "room_id": new["id"], "by": "说书人", "by_me": False}]
    for p in players:
        assert p.ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]["id"] == new["id"]
    assert seated_users(svc, new["id"]) == [p.user["id"] for p in players]
    assert storyteller.summary(new["id"])["room"]["awaited"] == []
    assert error(players[0].post(f"/v1/rooms/{room_id}/again", {"stage": 2})) == (422, "VALIDATION_FAILED")


def closed_idle(svc, room_id: str) -> None:
    """What the idle sweep does to a room nobody started: closed, seats and host left as they were."""
    room = svc.rooms.get_room(room_id)
    svc.rooms.save_room(room.model_copy(update={"status": RoomStatus.EXPIRED, "version": room.version + 1}),
                        room.version)


def test_a_rematch_room_closed_idle_is_followed_by_a_new_one_for_its_opener_and_host_too(api, svc, admin):
    """P13 「if the 再战 room closed before it started, the next ask opens another」 — also when it closed
    idle with its opener still seated (she was handed her closed room on every tap) and in a hosted
    game (the storyteller was handed hers, her players told to wait for her: nobody could go on)."""
    team, done = finished_d_room(api, admin, ["甄嬛", "眉庄", "陵容"])
    first = team[0].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"]
    closed_idle(svc, first)
    second = team[0].ok("POST", f"/v1/rooms/{done}/again", {})["room"]
    assert second["id"] != first and second["status"] == "open" and [s["name"] for s in second["seats"]] == ["甄嬛"]
    storyteller, players, hosted = finished_hosted_room(api, svc)
    closed_idle(svc, storyteller.ok("POST", f"/v1/rooms/{hosted}/again", {})["room"]["id"])
    assert error(players[0].post(f"/v1/rooms/{hosted}/again", {})) == (409, "AGAIN_HOST_OPENS")
    renewed = storyteller.ok("POST", f"/v1/rooms/{hosted}/again", {})["room"]
    assert renewed["status"] == "open" and players[0].ok("POST", f"/v1/rooms/{hosted}/again", {})["room"]["id"] == \
        renewed["id"]


def test_a_rematch_room_that_started_without_her_is_said_so_even_where_late_comers_ask(api, svc):
    """血染 seats late comers by the storyteller's leave: a 再战 tap after its start is not turned into a
    request (which asked the table for its own 暗号), but told the room has begun (409)."""
    storyteller = Player(api, "说书人")
    players = [Player(api, f"宾客{i}") for i in range(6)]
    room_id = storyteller.open_room("zhenhuan", password="碎玉")
    for p in players:
        p.ok("POST", f"/v1/rooms/{room_id}/join", {"password": "碎玉"})
    closed_idle(svc, room_id)
    room = svc.rooms.get_room(room_id)
    svc.rooms.save_room(room.model_copy(update={"status": RoomStatus.FINISHED, "version": room.version + 1}),
                        room.version)
    new = storyteller.ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]["id"]
    for p in players[:5]:
        p.ok("POST", f"/v1/rooms/{room_id}/again", {})
    storyteller.ok("POST", f"/v1/rooms/{new}/start")
    r = players[5].post(f"/v1/rooms/{room_id}/again", {})
    assert error(r) == (409, "ROOM_NOT_OPEN") and "再战的房间已经开局" in r.json_body["message"]
    assert svc.rooms.get_room(new).requests == ()


def test_a_teammate_too_late_for_the_rematch_opens_the_next_one(api, svc, admin):
    """P13: the ones who came are playing; a teammate whose tap finds the 再战 room full or started
    opens the next one (the table's link then names her) — her tap could only fail before."""
    team, done = finished_d_room(api, admin, ["欣常在", "祥嫔", "康常在"])
    first = team[0].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"]
    for name in ("路人甲", "路人乙"):  # two friends of hers fill it from its 房号, and it starts
        make_team(api, admin, [name], value=60)[0].ok("POST", f"/v1/rooms/{first}/join")
    assert svc.rooms.get_room(first).status is RoomStatus.ACTIVE
    late = team[2].ok("POST", f"/v1/rooms/{done}/again", {})["room"]
    assert late["id"] != first and late["status"] == "open" and [s["name"] for s in late["seats"]] == ["康常在"]
    assert team[1].summary(done)["room"]["again"] == [
        {"stage": 1, "room_id": late["id"], "by": "康常在", "by_me": False}]
    assert team[1].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"] == late["id"]
    # the opener of the first, playing in it, taps again (a lost answer): her game, not a second seat
    assert team[0].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"] == first
    assert team[0].user["id"] not in seated_users(svc, late["id"])



def test_the_new_room_awaits_the_last_tables_people_not_its_bots(api, svc):
    """A bot's seat is not waited for; a player a bot played for (handed over) is: her 再战 tap seats her."""
    storyteller, players, room_id = finished_hosted_room(api, svc)
    room = svc.rooms.get_room(room_id)
    seats = list(room.seats)
    seats[2] = seats[2].model_copy(update={"user": f"{BOT_USER_PREFIX}2", "name": "机器人2", "bot": BotLevel.SIMPLE})
    seats[3] = seats[3].model_copy(update={"bot": BotLevel.SIMPLE})  # handed over: still hers
    svc.rooms.save_room(room.model_copy(update={"seats": tuple(seats), "version": room.version + 1}), room.version)
    new = storyteller.ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]
    assert new["awaited"] == ["宾客0", "宾客1", "宾客3", "宾客4"]
    players[3].ok("POST", f"/v1/rooms/{room_id}/again", {})
    assert storyteller.summary(new["id"])["room"]["awaited"] == ["宾客0", "宾客1", "宾客4"]
    assert players[0].summary(new["id"])["room"]["awaited"] == ["宾客1", "宾客4"]  # not herself


def finish(svc, room_id: str) -> None:
    room = svc.rooms.get_room(room_id)
    svc.rooms.save_room(room.model_copy(update={"status": RoomStatus.FINISHED, "version": room.version + 1}),
                        room.version)


def test_the_bots_the_table_played_with_come_along_and_its_people_take_the_seats_they_leave(api, svc, admin):
    """A practice table plays again as it was: 再来一局 seats the old table's bots (their levels kept)
    beside the opener; the other person's tap takes the seat they leave. Before, the new room held the
    opener alone, and she had to fill it with bots again."""
    admin.ok("PUT", "/v1/admin/games", {"open": {"shengong_c": True}})
    a, b = make_team(api, admin, ["甄嬛", "眉庄"], value=70)
    room_id = a.open_room("shengong_c", {"turn_seconds": 60})
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "advanced", "count": 2})
    a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple"})
    finish(svc, room_id)
    new = b.ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]
    assert [(s["name"], s["bot"]) for s in new["seats"]][:1] == [("眉庄", None)]
    assert [s["bot"] for s in new["seats"][1:]] == ["advanced"] * 2 + ["simple"] * 4
    assert new["status"] == "open" and new["awaited"] == ["甄嬛"] and len(new["seats"]) == 7
    joined = a.ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]
    assert joined["id"] == new["id"] and len(joined["seats"]) == 8 and joined["awaited"] == []
    assert joined["status"] == "open"  # a 卡牌局 starts when its creator says 开战, as before



def finished_baohuang(me: Player) -> str:
    """A 保皇 room she played with four bots and quit: over, hers to play again."""
    room_id = me.open_room("baohuang")
    me.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple"})
    me.ok("POST", f"/v1/rooms/{room_id}/start")
    assert me.act(room_id, {"type": "quit"}).status_code == 200
    return room_id


def test_a_tap_reads_a_few_rooms_however_many_openings_came_before(api, svc, monkeypatch):
    """To answer one playing in an earlier opening her game (P13), each 再战 tap read the room of every
    opening before the link's, strongly consistent: after a long 再战 and 离席 loop, hundreds of reads a
    tap. Now the link names who went on in which opening (`AgainLink.playing`): a tap reads the finished
    room, the link's room and (opening one) whether the next is there already."""
    from chalicelib.rooms import lobby
    from chalicelib.store.dynamodb import DynamoRoomStore

    monkeypatch.setattr(lobby, "OPENINGS_PER_HOUR", 100)  # her ration is another test's (P15)
    me = Player(api, "甲")
    room_id = finished_baohuang(me)
    for _ in range(40):
        new = me.ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]
        me.ok("POST", f"/v1/rooms/{new['id']}/leave")
    reads: list[str] = []
    real = DynamoRoomStore.get_room
    monkeypatch.setattr(DynamoRoomStore, "get_room", lambda s, rid: reads.append(rid) or real(s, rid))
    new = me.ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]
    assert reads == [room_id, again.again_room_id(room_id, again.SAME, 40), new["id"]]


def test_one_playing_in_an_opening_two_before_is_answered_her_game(api, svc, admin):
    """P13 「one who is playing in an earlier opening and asks again is answered her game, never a second
    seat」, however many openings went on since: the link names the one she went on in."""
    team, done = finished_d_room(api, admin, ["欣常在", "祥嫔", "康常在"])
    strangers = make_team(api, admin, ["路人甲", "路人乙", "路人丙", "路人丁"], value=60)
    first = team[0].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"]
    for p in strangers[:2]:
        p.ok("POST", f"/v1/rooms/{first}/join")
    second = team[2].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"]  # too late for the first
    for p in strangers[2:]:
        p.ok("POST", f"/v1/rooms/{second}/join")
    assert {svc.rooms.get_room(r).status for r in (first, second)} == {RoomStatus.ACTIVE}
    third = team[1].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"]  # too late for both
    assert len({first, second, third}) == 3
    link = svc.rooms.get_room(done).again["1"]
    assert (link.room, link.n, link.playing) == (third, 3, {team[0].user["id"]: first, team[2].user["id"]: second})
    # their taps again (a lost answer): their own games, not a seat in the third
    assert team[0].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"] == first
    assert team[2].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"] == second
    assert seated_users(svc, third) == [team[1].user["id"]]
    # a link kept before it named them: the opening before it is looked at, as it was first
    old = svc.rooms.get_room(done)
    unnamed = {"1": link.model_copy(update={"playing": None})}
    svc.rooms.save_room(old.model_copy(update={"again": unnamed, "version": old.version + 1}), old.version)
    assert team[2].ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"] == second
    assert seated_users(svc, third) == [team[1].user["id"]]


def test_only_the_first_rematch_room_is_free_of_the_ration_and_a_twin_ask_is_one_opening(api, svc, admin, clock,
                                                                                        monkeypatch):
    """P15: a finished game's first 再战 room is not counted; one opened after it closed unstarted is, by
    its room's id: her twin taps (both past the look for it, as at one instant) and her retry are one
    opening; a room of that id a teammate wrote is hers to reach even with her hour spent; a 司礼's
    rematch rooms are none."""
    from chalicelib.rooms.lobby import OPENINGS_PER_HOUR

    me = Player(api, "甲")
    done = finished_baohuang(me)  # her 开房: one opening
    taken: list[tuple[str, str]] = []
    ring = svc.rooms.reserve_room_opening
    monkeypatch.setattr(svc.rooms, "reserve_room_opening", lambda *a: (taken.append(a[:2]), ring(*a))[1])
    first = me.ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"]
    assert taken == []  # the first is free
    me.ok("POST", f"/v1/rooms/{first}/leave")
    old = svc.rooms.get_room(done)
    game = get_game(old.game)
    caller = Caller(user_id=me.user["id"], name=me.name)
    second_id = again.again_room_id(done, again.SAME, 2)
    monkeypatch.setattr(again, "_made", lambda deps, room_id: None)  # both taps looked before either wrote
    twins = [again._open(svc.room_deps(), caller, old, game, dict(old.options), second_id, charged=True)
             for _ in range(2)]
    monkeypatch.undo()
    monkeypatch.setattr(svc.rooms, "reserve_room_opening", lambda *a: (taken.append(a[:2]), ring(*a))[1])
    assert [r.id for r in twins] == [second_id] * 2
    assert taken == [(me.user["id"], second_id)] * 2  # asked twice, for one room: the ring took one
    assert me.ok("POST", f"/v1/rooms/{done}/again", {})["room"]["id"] == second_id  # found, not charged
    assert len(taken) == 2
    # her 开房 and the second 再战 room: two openings of her hour, whatever she asked
    now = clock.now_ms()
    assert [ring(me.user["id"], f"probe{i}", now, 3_600_000, OPENINGS_PER_HOUR)
            for i in range(OPENINGS_PER_HOUR - 2)] == [None] * (OPENINGS_PER_HOUR - 2)
    assert ring(me.user["id"], "probe", now, 3_600_000, OPENINGS_PER_HOUR) is not None
    # her hour spent: a room a teammate's twin tap wrote as hers was refused is still hers to reach
    third_id = again.again_room_id(done, again.SAME, 3)
    friend = Player(api, "乙")
    theirs = again._open(svc.room_deps(), Caller(user_id=friend.user["id"], name=friend.name), old, game,
                         dict(old.options), third_id, charged=True)
    looks = iter([None, theirs])  # not there when she looked, there when she was refused
    monkeypatch.setattr(again, "_made", lambda deps, room_id: next(looks))
    assert again._open(svc.room_deps(), caller, old, game, dict(old.options), third_id, charged=True) == theirs
    monkeypatch.setattr(again, "_made", lambda deps, room_id: None)
    with pytest.raises(RateLimited):  # and one nobody wrote is refused
        again._open(svc.room_deps(), caller, old, game, dict(old.options), again.again_room_id(done, again.SAME, 4),
                    charged=True)
    # a 司礼's rematch rooms, opened again and again, are none
    hosted = admin.open_room("zhenhuan")  # a 锦标赛 she hosts
    for i in range(5):
        Player(api, f"宾客{i}").ok("POST", f"/v1/rooms/{hosted}/join")
    finish(svc, hosted)
    for _ in range(OPENINGS_PER_HOUR + 2):
        closed_idle(svc, admin.ok("POST", f"/v1/rooms/{hosted}/again", {})["room"]["id"])
    assert svc.rooms.get_room(hosted).again["same"].n == OPENINGS_PER_HOUR + 2
