"""Races and retries found by the 2026-12-01 race audit: a phone's retry overlapping its own first
attempt, a retry after the room moved on, a host's press losing to a player's action, writes botocore
sends twice. Each test checks the answer and what the room holds afterwards."""

from __future__ import annotations

import threading
from typing import Any

import pytest

from chalicelib.core.errors import Conflict, DomainError, StaleVersion
from chalicelib.core.game import BotLevel
from chalicelib.core.identity import Caller, Role
from chalicelib.rooms import handover, host, lobby, play
from chalicelib.store.dynamodb import DynamoRoomStore
from tests.api.baohuang_driver import Policy, Table, in_phase
from tests.api.dgame import make_team, open_d_room
from tests.api.helpers import Player

H, P, Q = (Caller(user_id=f"u{i}", name=n) for i, n in enumerate(["说书人", "甲", "乙"]))


def _ledger_room(deps) -> str:
    room = lobby.create_room(deps, H, "ledger", {}, None, None)
    lobby.join_room(deps, P, room.id, None)
    lobby.join_room(deps, Q, room.id, None)
    return lobby.start_room(deps, H, room.id).id


def test_a_retry_overlapping_its_first_attempt_is_answered_as_applied(api, svc, monkeypatch):
    """The phone timed out and sent its turn action again while the first was still in flight: the
    retry read the room before the first committed and lost the version race. It is decided again on
    the new room, finds its own action in the log, and is answered 200 (it was 409 STALE_VERSION)."""
    t = Table.open(api, svc, ["甲", "乙", "丙", "丁", "戊"])
    seat = t.view(0)["pending"]["seats"][0]
    mine = t.view(seat)
    assert mine["game"]["phase"] == "throne"
    action: dict[str, Any] = {"type": "take_throne"}
    if mine["game"].get("callable"):
        action["call"] = mine["game"]["callable"][0]
    step = mine["room"]["step"]
    user = t.players[seat].user
    caller = Caller(user_id=user["id"], name=user["name"], role=Role.PLAYER)
    deps = svc.room_deps()
    retry_read, first_done = threading.Event(), threading.Event()
    real_get = DynamoRoomStore.get_room

    def get_room(self, room_id):
        room = real_get(self, room_id)
        if threading.current_thread().name == "retry" and not retry_read.is_set():
            retry_read.set()
            first_done.wait(10)  # the first attempt commits while the retry holds its read
        return room

    monkeypatch.setattr(DynamoRoomStore, "get_room", get_room)
    out: dict[str, Any] = {}

    def run(name: str) -> None:
        try:
            o = play.act(deps, caller, t.room_id, step, action, "baohuang")
            out[name] = (200, o.step, o.room.step)
        except DomainError as e:
            out[name] = (e.status, e.code)
        finally:
            if name == "first":
                first_done.set()

    retry = threading.Thread(target=run, args=("retry",), name="retry")
    retry.start()
    assert retry_read.wait(10)
    first = threading.Thread(target=run, args=("first",), name="first")
    first.start()
    first.join()
    retry.join()
    assert out["first"] == (200, step, step + 1)
    assert out["retry"] == (200, step, step + 1)
    assert svc.rooms.get_log(t.room_id, step).action == {"open_solo": False, "call": None, **action}
    assert svc.rooms.get_room(t.room_id).step == step + 1  # applied once


def test_the_retried_hurry_that_ended_the_game_is_answered(api, svc):
    """催战 that ended the game, its answer lost, sent again: 200 with the finished room (not 409
    GAME_OVER), as any retried 催战 is."""
    admin = Player(api, "司礼")
    team = make_team(api, admin, ["甲", "乙", "丙"], value=10)
    room_id = open_d_room(team, stage=1)
    team[0].ok("POST", f"/v1/rooms/{room_id}/start")
    last = None
    for _ in range(60):
        room = svc.rooms.get_room(room_id)
        if room.status.value != "active":
            break
        last = room.step
        team[0].ok("POST", f"/v1/rooms/{room_id}/hurry", {"step": room.step})
    assert svc.rooms.get_room(room_id).status.value == "finished" and last is not None
    again = team[0].ok("POST", f"/v1/rooms/{room_id}/hurry", {"step": last})
    assert again["settled"] is False and again["current_step"] == svc.rooms.get_room(room_id).step
    r = team[0].post(f"/v1/rooms/{room_id}/hurry", {"step": svc.rooms.get_room(room_id).step})
    assert (r.status_code, r.json_body["code"]) == (409, "GAME_OVER")  # a new 催战 after the end


def test_a_sealed_declaration_carried_on_by_a_tuoguan_answers_its_retry(api, svc):
    """保皇: seat A seals her declaration (answer lost); seat B's 托管 closes the round and carries A's
    move to the next step. A's retry at the old step was 409 STALE_STEP; her move was accepted."""
    t = Table.open(api, svc, ["甲", "乙", "丙", "丁", "戊"])
    view = t.run(Policy(), in_phase("declare"))
    step = view["room"]["step"]
    a, b = sorted(view["pending"]["seats"])[:2]
    t.do(a, {"type": "stay_hidden"}, step)
    t.do(b, {"type": "auto"}, step)
    room = t.stored()
    assert room.step == step + 1
    assert svc.rooms.list_moves(t.room_id, room.step)[a].action == {"type": "stay_hidden"}
    r = t.act(a, {"type": "stay_hidden"}, step)
    assert r.status_code == 200, r.json_body
    other = t.act(a, {"type": "declare"}, step)  # not what she sent: still refused
    assert (other.status_code, other.json_body["code"]) == (409, "STALE_STEP")


def test_a_carried_round_that_owes_nothing_more_is_settled_at_once(api, svc, clock):
    """保皇: three of four declarers sealed, the fourth takes 托管: the carried moves are the whole new
    round, so it is settled then, not left waiting for its deadline."""
    t = Table.open(api, svc, ["甲", "乙", "丙", "丁", "戊"])
    view = t.run(Policy(), in_phase("declare"))
    step = view["room"]["step"]
    seats = sorted(view["pending"]["seats"])
    for s in seats[:-1]:
        t.do(s, {"type": "stay_hidden"}, step)
    t.do(seats[-1], {"type": "auto"}, step)
    room = t.stored()
    assert room.step >= step + 2, "the carried round was left for its deadline"
    assert t.view(seats[0])["game"]["phase"] != "declare"


def test_undo_that_lost_to_a_players_action_says_so(svc, fake_games):
    """The storyteller's 撤销 for the step she saw, after a player's action landed first: 409
    STALE_STEP and nothing undone (it was a 200 that undid nothing); her own retried undo is 200."""
    deps = svc.room_deps()
    rid = _ledger_room(deps)
    play.act(deps, H, rid, deps.rooms.get_room(rid).step, {"type": "tell", "seat": 0, "secret": "乙是恶魔"})
    seen = deps.rooms.get_room(rid).step
    play.act(deps, Q, rid, None, {"type": "cheer"})
    with pytest.raises(Conflict) as e:
        host.undo(deps, H, rid, seen)
    assert e.value.code == "STALE_STEP"
    assert deps.rooms.get_room(rid).state["secrets"] == [[0, "乙是恶魔"]]
    # a retried undo: the step she sent holds her UNDO
    play.act(deps, H, rid, deps.rooms.get_room(rid).step, {"type": "tell", "seat": 1, "secret": "甲是好人"})
    at = deps.rooms.get_room(rid).step
    done = host.undo(deps, H, rid, at)
    assert host.undo(deps, H, rid, at).step == done.step == at + 1


def test_undo_never_folds_from_a_log_behind_the_room(svc, fake_games, monkeypatch):
    """撤销 rebuilds the state from the log: it reads it strongly consistent, and a log that does not
    reach the room's last step (an eventually consistent replica) is refused, not folded."""
    deps = svc.room_deps()
    rid = _ledger_room(deps)
    for text in ("一", "二"):
        play.act(deps, H, rid, deps.rooms.get_room(rid).step, {"type": "note", "text": text})
    real = DynamoRoomStore.list_log
    asked: list[bool] = []

    def lagging(self, room_id, after_step, limit, consistent=False):
        asked.append(consistent)
        return real(self, room_id, after_step, limit, consistent)[:-1]

    monkeypatch.setattr(DynamoRoomStore, "list_log", lagging)
    step = deps.rooms.get_room(rid).step
    with pytest.raises(StaleVersion):
        host.undo(deps, H, rid, step)
    assert asked == [True] * host.ATTEMPTS  # each try reads it strongly consistent, and none folds it
    monkeypatch.setattr(DynamoRoomStore, "list_log", real)
    assert [n[0] for n in deps.rooms.get_room(rid).state["notes"]] == ["一", "二"]
    assert [n[0] for n in host.undo(deps, H, rid, step).state["notes"]] == ["一"]


def test_decline_retries_a_lost_room_write(api, svc, monkeypatch):
    """拒绝 re-reads and tries again when its write loses (a resent put, or any change in between):
    it was a single put answered 409 STALE_VERSION."""
    st = Player(api, "说书人")
    rid = st.open_room("zhenhuan")
    for i in range(5):
        Player(api, f"宾客{i}").ok("POST", f"/v1/rooms/{rid}/join")
    st.ok("POST", f"/v1/rooms/{rid}/start")
    late = Player(api, "旅人")
    late.ok("POST", f"/v1/rooms/{rid}/join")
    real = DynamoRoomStore.save_room
    lost = []

    def save_room(self, room, expected):
        if not lost:
            lost.append(room.version)
            raise StaleVersion()  # another change won this write
        return real(self, room, expected)

    monkeypatch.setattr(DynamoRoomStore, "save_room", save_room)
    st.ok("POST", f"/v1/rooms/{rid}/decline", {"user": late.user["id"]})
    assert lost, "the first write did not lose"
    assert svc.rooms.get_room(rid).requests == ()
    version = svc.rooms.get_room(rid).version
    st.ok("POST", f"/v1/rooms/{rid}/decline", {"user": late.user["id"]})  # again: nothing left to do
    assert svc.rooms.get_room(rid).version == version


def test_a_handover_decided_at_once_answers_its_retry(svc, fake_games):
    """The creator's proposal is decided at once when nobody else may vote: its retry finds the bot in
    the seat and answers the room (it was 409 SEAT_NOT_ABSENT)."""
    deps = svc.room_deps()
    a, b = Caller(user_id="uA", name="甲"), Caller(user_id="uB", name="乙")
    room = lobby.create_room(deps, a, "tally", {"rounds": 10, "turn_seconds": 30}, None, None)
    lobby.join_room(deps, b, room.id, None)
    room = lobby.add_bots(deps, a, room.id, BotLevel.SIMPLE, 1, seated=2)
    assert room.status.value == "active"
    for _ in range(3):
        step = deps.rooms.get_room(room.id).step
        play.act(deps, a, room.id, step, {"type": "pick", "n": 1})
        play.hurry(deps, a, room.id, step)
    first = handover.propose(deps, a, room.id, 1, BotLevel.SIMPLE)
    assert first.seats[1].bot is BotLevel.SIMPLE and first.handover is None
    again = handover.propose(deps, a, room.id, 1, BotLevel.SIMPLE)
    assert again.seats[1].bot is BotLevel.SIMPLE and again.seats[1].user == "uB"
    with pytest.raises(Conflict) as e:  # a seat a bot plays from the start is still not "absent"
        handover.propose(deps, a, room.id, 2, BotLevel.SIMPLE)
    assert e.value.code == "SEAT_NOT_ABSENT"


def test_bots_keep_distinct_ids_when_a_person_leaves_between_requests(api, svc):
    """Seats are renumbered when a person leaves: a bot numbered by its seat could share an id with
    the next (two 冬梅 with one id, each move taken for the other's). Ids stay distinct."""
    a, b, c = Player(api, "甲"), Player(api, "乙"), Player(api, "丙")
    room_id = a.open_room("baohuang")
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    c.ok("POST", f"/v1/rooms/{room_id}/join")
    a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple", "count": 1, "seated": 3})
    b.ok("POST", f"/v1/rooms/{room_id}/leave")
    a.ok("POST", f"/v1/rooms/{room_id}/bots", {"level": "simple", "count": 1, "seated": 3})
    seats = svc.rooms.get_room(room_id).seats
    bots = [s for s in seats if s.bot is not None]
    assert len({s.user for s in bots}) == len(bots) == 2
    assert len({s.name for s in bots}) == 2
    assert [s.seat for s in seats] == list(range(len(seats)))
