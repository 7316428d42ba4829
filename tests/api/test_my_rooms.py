"""「我的对局」 on any device: GET /v1/me/rooms (docs/rules/platform.md P14).

Before, the lobby's 「我的对局」 was the list of rooms this phone had shown, each asked for again one by
one: a game begun in the mini-program was not there on the web page, nor after a reinstall. The server
now notes each room for the people it seats (open, join, 再战, a traveller's admission) and answers her
rooms still open or under way, newest first, in one request."""

from __future__ import annotations

from chalicelib.domain.model import RoomStatus
from tests.api.baohuang_driver import Policy, in_phase, waiting_seat
from tests.api.baohuang_driver import Table as Table保皇
from tests.api.helpers import Player, error
from tests.api.test_play_again import finished_hosted_room
from tests.api.zhenhuan_driver import Table


def mine(p: Player) -> list[dict]:
    rooms: list[dict] = p.ok("GET", "/v1/me/rooms")["rooms"]
    return rooms


def test_her_rooms_follow_her_to_another_phone_until_they_end_or_she_leaves(api, svc, clock):
    a, b = Player(api, "甲"), Player(api, "乙")
    first = a.open_room("baohuang")
    clock.advance(1)
    second = a.open_room("baohuang", {"variant": "classic"})
    b.ok("POST", f"/v1/rooms/{first}/join")
    assert [(r["room_id"], r["seat"], r["hosting"], r["status"]) for r in mine(a)] == [
        (second, 0, False, "open"), (first, 0, False, "open")]
    assert mine(b) == [{"room_id": first, "game": "baohuang", "title": "保皇·简明", "status": "open", "seat": 1,
                        "hosting": False, "seat_count": 2, "max_seats": 5, "my_turn": False}]
    assert mine(Player(api, "乙")) == mine(b)  # another phone, the same account: the same list
    assert mine(Player(api, "丙")) == []
    b.ok("POST", f"/v1/rooms/{first}/leave")  # left before the start: not hers any more
    assert mine(b) == []
    room = svc.rooms.get_room(second)
    svc.rooms.save_room(room.model_copy(update={"status": RoomStatus.EXPIRED, "version": room.version + 1}),
                        room.version)  # closed by the idle sweep
    assert [r["room_id"] for r in mine(a)] == [first]
    assert error(api.http.get("/v1/me/rooms")) == (401, "UNAUTHENTICATED")


def test_a_storyteller_hosts_and_a_traveller_admitted_mid_game_finds_the_room(api, svc):
    t = Table.open(api, svc, 5, bytes(32))
    assert [(r["room_id"], r["seat"], r["hosting"]) for r in mine(t.st)] == [(t.room_id, None, True)]
    assert [r["seat"] for r in mine(t.players[3])] == [3]
    guest = Player(api, "远客")
    guest.ok("POST", f"{t.path}/join")
    assert mine(guest) == []  # asking is not sitting
    t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
    t.begin()
    t.night({"huafei": [2]})
    t.admit(guest, {"identity": "江湖郎中", "ability": "把脉", "alignment": "good", "female": True})
    assert [(r["room_id"], r["seat"], r["status"]) for r in mine(guest)] == [(t.room_id, 5, "active")]


def test_a_rematch_room_is_hers_as_soon_as_she_taps(api, svc):
    storyteller, players, room_id = finished_hosted_room(api, svc)
    assert mine(players[0]) == []  # the finished game is not hers to go back to
    new = storyteller.ok("POST", f"/v1/rooms/{room_id}/again", {})["room"]["id"]
    players[0].ok("POST", f"/v1/rooms/{room_id}/again", {})
    assert [r["room_id"] for r in mine(storyteller)] == [new]
    assert [(r["room_id"], r["seat"]) for r in mine(players[0])] == [(new, 0)]


def test_twenty_finished_games_do_not_hide_an_older_game_under_way(api, svc, clock, monkeypatch):
    """P14: she keeps a 保皇 table going and plays twenty quick games besides; her list still leads
    back to the table (the list marks the ended rooms' notes as it finds them)."""
    from chalicelib.rooms import lobby

    monkeypatch.setattr(lobby, "OPENINGS_PER_HOUR", 30)  # 22 rooms in a minute: past P15's hourly limit
    a = Player(api, "甲")
    table = a.open_room("baohuang")
    for _ in range(21):
        clock.advance(1)
        quick = a.open_room("baohuang")
        a.ok("POST", f"/v1/rooms/{quick}/leave")  # alone in it: it closes
    assert [r["room_id"] for r in mine(a)] == [table]  # the 20 newest were over: marked, and looked past
    assert [r["room_id"] for r in mine(a)] == [table]  # (the next list reads no more than it needs)


def test_a_room_she_left_is_not_marked_so_coming_back_lists_it(api, svc, monkeypatch):
    """Only an ended room's note is marked done: a list that saw her out of a room she was rejoining
    at that moment (another phone) must not hide it once she sits again."""
    a, b = Player(api, "甲"), Player(api, "乙")
    room_id = a.open_room("baohuang")
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    b.ok("POST", f"/v1/rooms/{room_id}/leave")
    read = svc.rooms.member_rooms

    def rejoined_meanwhile(user, limit):
        rooms = read(user, limit)
        b.ok("POST", f"/v1/rooms/{room_id}/join")  # her other phone, between the list's read and its marks
        return rooms

    monkeypatch.setattr(svc.rooms, "member_rooms", rejoined_meanwhile)
    assert mine(b) == []  # as the list read it
    monkeypatch.setattr(svc.rooms, "member_rooms", read)
    assert [r["room_id"] for r in mine(b)] == [room_id]



def test_a_game_waiting_on_her_comes_first_marked_and_a_sealed_move_in_unmarks_it(api, svc, clock):
    """P14: 「轮到你」 — her seat is among those the game waits on; in a sealed round, until her move is
    in (her table-mates' sealed moves stay theirs: only her own slot is read)."""
    table = Table保皇.open(api, svc, list("甲乙丙丁戊"))
    candidate = waiting_seat(table.view(0))  # 争皇位: one seat is asked
    assert [next(r["my_turn"] for r in mine(p) if r["room_id"] == table.room_id) for p in table.players] == [
        seat == candidate for seat in range(5)]
    asked_one, other = table.players[candidate], table.players[(candidate + 1) % 5]
    clock.advance(1)
    newer = [p.open_room("baohuang") for p in (asked_one, other)]  # newer rooms, waiting for players
    assert [(r["room_id"], r["my_turn"]) for r in mine(asked_one)] == [(table.room_id, True), (newer[0], False)]
    assert [(r["room_id"], r["my_turn"]) for r in mine(other)] == [(newer[1], False), (table.room_id, False)]

    view = table.run(Policy(), until=in_phase("declare"))  # 表态: sealed, all but the emperor
    asked, step = view["pending"]["seats"], view["room"]["step"]
    assert len(asked) == 4
    mover = asked[0]
    table.do(mover, Policy().declaration(table.view(mover)["game"]), step)
    marks = {seat: next(r["my_turn"] for r in mine(p) if r["room_id"] == table.room_id)
             for seat, p in enumerate(table.players)}
    assert marks == {seat: seat in asked[1:] for seat in range(5)}


def test_a_storyteller_is_never_marked_but_a_player_asked_to_vote_is(api, svc):
    t = Table.open(api, svc, 5, bytes(32))
    t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
    t.begin()
    t.night({"huafei": [2]})
    assert [r["my_turn"] for r in mine(t.st)] == [False]  # the game waits on her between any two presses
    assert all(not mine(p)[0]["my_turn"] for p in t.players)
    t.nominate(0, 1)
    t.do({"type": "open_vote", "seconds": 20})  # the vote clock: the living (and 2号's ghost vote) asked
    t.play(3, {"type": "vote", "yes": True})
    asked = set(t.view(0)["pending"]["seats"])
    assert [mine(p)[0]["my_turn"] for p in t.players] == [s in asked for s in range(5)]
    assert 3 not in asked and len(asked) >= 3 and [r["my_turn"] for r in mine(t.st)] == [False]
