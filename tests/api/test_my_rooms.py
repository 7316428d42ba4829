"""「我的对局」 on any device: GET /v1/me/rooms (docs/rules/platform.md P14).

Before, the lobby's 「我的对局」 was the list of rooms this phone had shown, each asked for again one by
one: a game begun in the mini-program was not there on the web page, nor after a reinstall. The server
now notes each room for the people it seats (open, join, 再战, a traveller's admission) and answers her
rooms still open or under way, newest first, in one request."""

from __future__ import annotations

from chalicelib.domain.model import RoomStatus
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
                        "hosting": False, "seat_count": 2, "max_seats": 5}]
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


def test_twenty_finished_games_do_not_hide_an_older_game_under_way(api, svc, clock):
    """P14: she keeps a 保皇 table going and plays twenty quick games besides; her list still leads
    back to the table (the list marks the ended rooms' notes as it finds them)."""
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

