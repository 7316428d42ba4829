"""The host's tools on the in-memory store with the fake hosted game `ledger`: 撤销 recomputes the
state from the log without the last press (undo then redo is byte-identical; the player who had been
told something is told it was withdrawn, nobody else learns anything), and late entrants ask, the
host seats or declines them, and replays include them."""

from __future__ import annotations

import itertools

import pytest

from chalicelib.core.clock import FixedClock
from chalicelib.core.errors import Conflict, Forbidden, StaleVersion
from chalicelib.core.identity import Caller
from chalicelib.domain.model import LogKind, RoomStatus
from chalicelib.rooms import host, lobby, play, replay, views
from chalicelib.rooms.deps import RoomDeps
from chalicelib.store.memory import MemoryStore

H, P, Q, T = (Caller(user_id=f"u{i}", name=n) for i, n in enumerate(["说书人", "甲", "乙", "旅人"]))


@pytest.fixture
def deps(fake_games) -> RoomDeps:
    ids = (f"room{i}" for i in itertools.count())
    store = MemoryStore()
    return RoomDeps(rooms=store, accounts=store, clock=FixedClock(), new_seed=lambda: bytes(range(32)),
                    new_id=lambda: next(ids))


def started(deps: RoomDeps) -> str:
    room = lobby.create_room(deps, H, "ledger", {}, None, None)
    lobby.join_room(deps, P, room.id, None)
    lobby.join_room(deps, Q, room.id, None)
    return lobby.start_room(deps, H, room.id).id


def press(deps: RoomDeps, rid: str, action: dict) -> None:
    play.act(deps, H, rid, deps.rooms.get_room(rid).step, action)


def snapshot(deps: RoomDeps, rid: str) -> tuple:
    room = deps.rooms.get_room(rid)
    seen = tuple(views.room_view(deps, c, rid, "ledger").body["game"] for c in (H, P, Q))
    return room.state, seen


def test_undo_then_redo_is_byte_identical_even_for_a_press_that_draws(deps):
    rid = started(deps)
    press(deps, rid, {"type": "note", "text": "第一夜"})
    before = snapshot(deps, rid)
    press(deps, rid, {"type": "note", "text": "第二夜"})
    after = snapshot(deps, rid)
    room = host.undo(deps, H, rid, deps.rooms.get_room(rid).step)
    assert snapshot(deps, rid) == before
    assert deps.rooms.get_log(rid, room.step - 1).kind is LogKind.UNDO
    press(deps, rid, {"type": "note", "text": "第二夜"})
    assert snapshot(deps, rid) == after  # the same luck drawn again: the ply stepped back


def test_undo_is_repeatable_and_stops_at_the_start(deps):
    rid = started(deps)
    press(deps, rid, {"type": "note", "text": "一"})
    press(deps, rid, {"type": "note", "text": "二"})
    for _ in range(2):
        host.undo(deps, H, rid, deps.rooms.get_room(rid).step)
    assert deps.rooms.get_room(rid).state["notes"] == []
    with pytest.raises(Conflict) as e:
        host.undo(deps, H, rid, deps.rooms.get_room(rid).step)
    assert e.value.code == "NOTHING_TO_UNDO"


def test_only_the_host_undoes_and_never_a_players_own_action(deps):
    rid = started(deps)
    press(deps, rid, {"type": "note", "text": "一"})
    with pytest.raises(Forbidden):
        host.undo(deps, P, rid, deps.rooms.get_room(rid).step)
    play.act(deps, P, rid, None, {"type": "cheer"})
    with pytest.raises(Conflict) as e:
        host.undo(deps, H, rid, deps.rooms.get_room(rid).step)
    assert e.value.code == "NOTHING_TO_UNDO"


def test_a_retried_undo_changes_nothing(deps):
    rid = started(deps)
    press(deps, rid, {"type": "note", "text": "一"})
    press(deps, rid, {"type": "note", "text": "二"})
    step = deps.rooms.get_room(rid).step
    host.undo(deps, H, rid, step)
    again = host.undo(deps, H, rid, step)  # the phone retries the same undo
    assert [n[0] for n in again.state["notes"]] == ["一"]


def test_a_withdrawn_tell_is_reported_to_its_player_only(deps):
    rid = started(deps)
    press(deps, rid, {"type": "tell", "seat": 0, "secret": "乙是恶魔"})
    assert views.room_view(deps, P, rid, "ledger").body["game"]["my_secrets"] == ["乙是恶魔"]
    host.undo(deps, H, rid, deps.rooms.get_room(rid).step)
    assert views.room_view(deps, P, rid, "ledger").body["game"]["my_secrets"] == []
    texts = {c.name: [line["text"] for r in views.reports(deps, c, rid, "ledger", 0, 50)["reports"]
                      for line in r["lines"]] for c in (P, Q)}
    assert "说书人撤回了刚才告诉你的信息" in texts["甲"]
    assert texts["乙"] == []  # she was told nothing and learns nothing, not even that a step happened


def test_a_late_entrant_asks_and_the_host_seats_her(deps):
    rid = started(deps)
    asked = lobby.join_room(deps, T, rid, None)
    assert [r.user for r in asked.requests] == ["u3"]
    assert lobby.join_room(deps, T, rid, None).requests == asked.requests  # asking twice is one request
    assert views.room_view(deps, P, rid).body["room"]["requests"] is None  # players do not see who asks
    assert [r["name"] for r in views.room_view(deps, H, rid).body["room"]["requests"]] == ["旅人"]
    with pytest.raises(Forbidden):
        host.admit(deps, P, rid, "u3", {"colour": "red"})
    room = host.admit(deps, H, rid, "u3", {"colour": "red"})
    assert room.seat_of("u3") is not None and room.requests == ()
    assert room.state["colours"] == ["white", "white", "red"]
    assert views.room_view(deps, T, rid, "ledger").body["viewer"] == {"role": "player", "seat": 2}
    with pytest.raises(Conflict):
        host.admit(deps, H, rid, "u9", {"colour": "red"})


def test_declined_entrants_leave_no_trace_and_replays_include_the_admitted(deps):
    rid = started(deps)
    lobby.join_room(deps, T, rid, None)
    lobby.join_room(deps, Caller(user_id="u8", name="丁"), rid, None)
    host.decline(deps, H, rid, "u8")
    host.admit(deps, H, rid, "u3", {"colour": "blue"})
    press(deps, rid, {"type": "note", "text": "完"})
    room = deps.rooms.get_room(rid)
    assert [r.user for r in room.requests] == []
    finished = room.model_copy(update={"status": RoomStatus.FINISHED, "version": room.version + 1})
    deps.rooms.save_room(finished, room.version)
    assert replay.recompute(views.replay(deps, H, rid, "ledger")).model_dump(mode="json") == room.state


def test_free_text_a_game_shows_to_others_passes_the_content_check(deps):
    from chalicelib.core.errors import ValidationFailed

    rid = started(deps)
    checked: list[tuple[str, str]] = []

    def refuse_swear(text: str, user: str) -> None:
        checked.append((text, user))
        if "坏话" in text:
            raise ValidationFailed("内容不合适", code="CONTENT_REFUSED")

    deps.check_text = refuse_swear
    with pytest.raises(ValidationFailed):
        press(deps, rid, {"type": "note", "text": "一句坏话"})
    assert deps.rooms.get_room(rid).state["notes"] == []  # refused: not stored, not shown
    press(deps, rid, {"type": "note", "text": "好话"})
    assert checked == [("一句坏话", "u0"), ("好话", "u0")]


def test_a_press_decided_again_after_a_lost_write_spends_one_content_check(deps, monkeypatch):
    """A press whose write another change won (here a request to join: the room's version moves, its
    step does not) is decided again — its text is not checked again, nor counted again against her
    ration of typed texts (platform P16): one request, one check."""
    rid = started(deps)
    checked: list[str] = []
    deps.check_text = lambda text, user: checked.append(text)
    taken: list[tuple] = []
    reserve = deps.rooms.reserve_text_check
    monkeypatch.setattr(deps.rooms, "reserve_text_check", lambda *a: (taken.append(a), reserve(*a))[1])
    commit = deps.rooms.commit
    lost: list[bool] = []

    def a_request_to_join_wins(*args, **kwargs):
        if not lost:
            lost.append(True)
            lobby.join_room(deps, T, rid, None)
            raise StaleVersion()
        return commit(*args, **kwargs)

    monkeypatch.setattr(deps.rooms, "commit", a_request_to_join_wins)
    press(deps, rid, {"type": "note", "text": "夜里"})
    room = deps.rooms.get_room(rid)
    assert lost and [r.user for r in room.requests] == ["u3"] and [n[0] for n in room.state["notes"]] == ["夜里"]
    assert checked == ["夜里"] and len(taken) == 1

def test_a_player_is_never_told_that_a_press_she_cannot_see_raced_her_action(deps, monkeypatch):
    """A player who sends no step (she must not count the host's presses) whose action loses the
    room's write to a press gets no 409 at that moment: her action is decided again and applies."""
    rid = started(deps)
    commit = deps.rooms.commit
    raced: list[bool] = []

    def the_host_presses_first(*args, **kwargs):
        if not raced:
            raced.append(True)
            monkeypatch.setattr(deps.rooms, "commit", commit)
            press(deps, rid, {"type": "note", "text": "夜里"})  # wins the write
            raise StaleVersion()
        return commit(*args, **kwargs)

    monkeypatch.setattr(deps.rooms, "commit", the_host_presses_first)
    out = play.act(deps, P, rid, None, {"type": "cheer"})
    assert raced and out.settled
    state = deps.rooms.get_room(rid).state
    assert state["cheers"] == 1 and [n[0] for n in state["notes"]] == ["夜里"]
    # a caller who sends her step is told that the step passed (she can see the steps anyway)
    monkeypatch.setattr(deps.rooms, "commit", the_host_presses_first)
    raced.clear()
    with pytest.raises(Conflict) as e:
        play.act(deps, H, rid, deps.rooms.get_room(rid).step, {"type": "note", "text": "又一笔"})
    assert e.value.code == "STALE_STEP"
