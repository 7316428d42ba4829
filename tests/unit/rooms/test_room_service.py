"""The room service on the in-memory store, with the fake games: the lobby, sealed rounds, turns,
催战, deadlines and the sweeps, in milliseconds (the HTTP tests keep the end-to-end paths on moto)."""

from __future__ import annotations

import itertools

import pytest

from chalicelib.core.clock import FixedClock
from chalicelib.core.errors import (
    Conflict,
    Forbidden,
    GameOver,
    NotFound,
    NotYourTurn,
    RateLimited,
    StaleVersion,
    ValidationFailed,
)
from chalicelib.core.game import BotLevel
from chalicelib.core.identity import Caller, Role
from chalicelib.domain.model import LogKind, MoveSource, RoomStatus, Trigger
from chalicelib.rooms import lobby, play, replay, sweeper, views
from chalicelib.rooms.deps import RoomDeps
from chalicelib.store.memory import MemoryStore

A, B, C = (Caller(user_id=f"u{i}", name=n) for i, n in enumerate("甲乙丙"))
ADMIN = Caller(user_id="admin", name="司礼", role=Role.ADMIN)


@pytest.fixture
def deps(fake_games) -> RoomDeps:
    ids = (f"room{i}" for i in itertools.count())
    return RoomDeps(rooms=MemoryStore(), accounts=MemoryStore(), clock=FixedClock(),
                    new_seed=lambda: bytes(range(32)), new_id=lambda: next(ids))


def tally(deps: RoomDeps, *joiners: Caller, rounds: int = 2, password: str | None = None) -> str:
    room = lobby.create_room(deps, A, "tally", {"rounds": rounds, "turn_seconds": 30}, password, None)
    for c in joiners:
        lobby.join_room(deps, c, room.id, password)
    return room.id


def test_create_is_idempotent_per_key_and_checks_options_and_modes(deps):
    first = lobby.create_room(deps, A, "tally", {}, None, "key-1")
    assert lobby.create_room(deps, A, "tally", {}, None, "key-1").id == first.id
    assert lobby.create_room(deps, A, "tally", {}, None, "key-2").id != first.id
    with pytest.raises(ValidationFailed):
        lobby.create_room(deps, A, "tally", {"rounds": 99}, None, None)
    with pytest.raises(NotFound) as e:
        lobby.create_room(deps, A, "chess", {}, None, None)
    assert e.value.code == "UNKNOWN_GAME" and "tally" in e.value.message
    deps.accounts.update_open_games({"tally": False})
    with pytest.raises(Forbidden) as e:
        lobby.create_room(deps, A, "tally", {}, None, None)
    assert e.value.code == "MODE_LOCKED"
    assert lobby.create_room(deps, ADMIN, "tally", {}, None, None).competition.value == "tournament"


def test_a_join_that_keeps_losing_the_race_is_redone_until_it_gets_in(deps, monkeypatch):
    """A burst of joins (a link posted to a group): each lost conditional write is redone after a
    short random pause. With four tries, the fifteenth of fifteen joins at once was refused 409."""
    room = lobby.create_room(deps, A, "tally", {"rounds": 2, "turn_seconds": 30}, None, None)
    save = deps.rooms.save_room
    lost = itertools.count()

    def crowded(changed, expected):
        if next(lost) < 6:  # six other joins win first
            raise StaleVersion()
        return save(changed, expected)

    monkeypatch.setattr(deps.rooms, "save_room", crowded)
    joined = lobby.join_room(deps, B, room.id, None)
    assert [s.user for s in joined.seats] == [A.user_id, B.user_id] and next(lost) == 7  # the seventh try got in


def test_the_third_join_starts_an_auto_start_game_and_logs_its_setup(deps):
    rid = tally(deps, B)
    assert deps.rooms.get_room(rid).status is RoomStatus.OPEN
    assert lobby.join_room(deps, B, rid, None).version == deps.rooms.get_room(rid).version  # retried join
    started = lobby.join_room(deps, C, rid, None)
    assert (started.status, started.step) == (RoomStatus.ACTIVE, 1)
    setup = deps.rooms.get_log(rid, 0)
    assert setup is not None and setup.kind is LogKind.SETUP and setup.trigger is Trigger.AUTO
    assert [e["name"] for e in setup.action["entrants"]] == ["甲", "乙", "丙"]
    with pytest.raises(Conflict) as e:
        lobby.join_room(deps, Caller(user_id="u9", name="丁"), rid, None)
    assert e.value.code == "ROOM_NOT_OPEN"


def test_a_password_is_checked_and_guesses_are_limited(deps):
    rid = tally(deps, password="暗号")
    with pytest.raises(Forbidden):
        lobby.join_room(deps, B, rid, None)
    for _ in range(5):
        with pytest.raises(Forbidden) as e:
            lobby.join_room(deps, B, rid, "wrong")
        assert e.value.code == "WRONG_PASSWORD"
    with pytest.raises(RateLimited):
        lobby.join_room(deps, B, rid, "暗号")
    assert lobby.join_room(deps, C, rid, "暗号").seat_of("u2") is not None


def test_leaving_before_the_start_passes_the_room_on_and_the_last_one_closes_it(deps):
    rid = tally(deps, B)
    after = lobby.leave_room(deps, A, rid)
    assert (after.creator, [s.seat for s in after.seats]) == ("u1", [0])
    assert lobby.leave_room(deps, B, rid).status is RoomStatus.EXPIRED


def test_a_room_its_creator_leaves_to_bots_alone_closes(deps):
    """A bot cannot press 开战 or seat anyone: a room left to bots alone would wait for nobody
    (the room passing over a bot to a person: tests/api/test_platform.py)."""
    deps.accounts.update_open_games({"relay": True})
    alone = lobby.create_room(deps, A, "relay", {}, None, None)
    lobby.add_bots(deps, A, alone.id, BotLevel.SIMPLE, 1)
    closed = lobby.leave_room(deps, A, alone.id)
    assert closed.status is RoomStatus.EXPIRED and deps.rooms.get_room(alone.id).status is RoomStatus.EXPIRED


def test_leaving_a_room_that_is_over_is_answered_and_changes_nothing(deps):
    rid = tally(deps, B, C, rounds=1)
    for c in (A, B, C):
        play.act(deps, c, rid, 1, {"type": "pick", "n": 1})
    over = deps.rooms.get_room(rid)
    assert over.status is RoomStatus.FINISHED
    assert lobby.leave_room(deps, A, rid).version == over.version == deps.rooms.get_room(rid).version


def test_two_presses_of_start_at_once_both_answer_the_started_room(deps, monkeypatch):
    """The press that loses the conditional write re-reads: the room started, which is its answer too."""
    deps.accounts.update_open_games({"relay": True})
    room = lobby.create_room(deps, A, "relay", {}, None, None)
    lobby.join_room(deps, B, room.id, None)
    commit = deps.rooms.commit
    raced: list[bool] = []

    def other_press_first(started, expected, log, *rest):
        if not raced:
            raced.append(True)
            monkeypatch.setattr(deps.rooms, "commit", commit)
            lobby.start_room(deps, A, room.id)  # the other press wins the write
            raise StaleVersion()
        return commit(started, expected, log, *rest)

    monkeypatch.setattr(deps.rooms, "commit", other_press_first)
    answer = lobby.start_room(deps, A, room.id)
    assert raced and answer.status is RoomStatus.ACTIVE and answer == deps.rooms.get_room(room.id)
    assert deps.rooms.get_log(room.id, 0) is not None and deps.rooms.get_log(room.id, 1) is None  # started once


def test_only_the_creator_starts_and_not_with_too_few(deps):
    deps.accounts.update_open_games({"relay": True})
    room = lobby.create_room(deps, A, "relay", {}, None, None)
    with pytest.raises(Conflict) as e:
        lobby.start_room(deps, A, room.id)
    assert e.value.code == "NOT_ENOUGH_PLAYERS"
    lobby.join_room(deps, B, room.id, None)
    with pytest.raises(Forbidden):
        lobby.start_room(deps, B, room.id)
    assert lobby.start_room(deps, A, room.id).status is RoomStatus.ACTIVE
    assert lobby.start_room(deps, A, room.id).status is RoomStatus.ACTIVE  # retried 开战


def test_a_sealed_round_settles_on_the_last_move_with_each_move_hidden_until_then(deps):
    rid = tally(deps, B, C)
    assert play.act(deps, A, rid, 1, {"type": "pick", "n": 3, "secret": "甲的秘密"}).settled is False
    assert play.act(deps, A, rid, 1, {"type": "pick", "n": 3, "secret": "甲的秘密"}).settled is False  # retry
    with pytest.raises(Conflict) as e:
        play.act(deps, A, rid, 1, {"type": "pick", "n": 1})
    assert e.value.code == "ALREADY_SUBMITTED"
    seen_by_b = views.room_view(deps, B, rid).body
    assert seen_by_b["pending"]["submitted"] == [0] and "甲的秘密" not in str(seen_by_b)
    assert views.room_view(deps, A, rid).body["pending"]["my_move"]["secret"] == "甲的秘密"
    play.act(deps, B, rid, 1, {"type": "pick", "n": 1})
    done = play.act(deps, C, rid, 1, {"type": "pick", "n": 2})
    assert done.settled and done.room.step == 2
    log = deps.rooms.get_log(rid, 1)
    assert log is not None and log.kind is LogKind.SETTLE and log.trigger is Trigger.PLAYER
    assert sorted(log.moves or {}) == ["0", "1", "2"]


def test_hurry_closes_the_round_with_placeholders_and_a_late_move_is_refused(deps):
    rid = tally(deps, B, C)
    play.act(deps, A, rid, 1, {"type": "pick", "n": 3})
    with pytest.raises(Forbidden):
        play.hurry(deps, B, rid, 1)
    hurried = play.hurry(deps, A, rid, 1)
    assert hurried.room.step == 2 and hurried.settled
    again = play.hurry(deps, A, rid, 1)
    assert again.room.step == 2 and not again.settled  # a retried 催战 changes nothing, and says so
    moves = deps.rooms.list_moves(rid, 1)
    assert {s: m.by for s, m in moves.items()} == {0: MoveSource.PLAYER, 1: MoveSource.DEFAULT,
                                                  2: MoveSource.DEFAULT}
    with pytest.raises(Conflict) as e:
        play.act(deps, B, rid, 1, {"type": "pick", "n": 1})
    assert e.value.code == "STALE_STEP"
    with pytest.raises(Conflict) as e:
        play.hurry(deps, A, rid, 5)
    assert (e.value.code, e.value.details) == ("STEP_AHEAD", {"current_step": 2})


def test_the_scheduler_settles_overdue_rounds_once(deps):
    rid = tally(deps, B, C)
    assert sweeper.settle_overdue(deps).changed == 0
    deps.clock.advance(31)  # type: ignore[attr-defined]
    report = sweeper.settle_overdue(deps)
    assert (report.seen, report.changed) == (1, 1)
    assert deps.rooms.get_log(rid, 1).trigger is Trigger.DEADLINE
    assert sweeper.settle_overdue(deps).changed == 0  # nothing is due any more


def _broken(deps: RoomDeps, rid: str) -> None:
    """Its state can no longer be loaded (as after a deploy that broke one game's state model)."""
    room = deps.rooms.get_room(rid)
    deps.rooms.save_room(room.model_copy(update={"state": {"not": "a tally state"}, "version": room.version + 1}),
                         room.version)


def test_rooms_the_sweep_fails_on_are_parked_behind_the_healthy_ones(deps, monkeypatch):
    """One failing room never stops the others — not even a full batch of them, which would otherwise
    hold the oldest deadlines at the front of the due index every minute."""
    monkeypatch.setattr(sweeper, "BATCH", 3)
    broken = [tally(deps, B, C) for _ in range(3)]
    for rid in broken:
        _broken(deps, rid)
    deps.clock.advance(1)  # type: ignore[attr-defined]
    healthy = tally(deps, B, C)
    deps.clock.advance(31)  # type: ignore[attr-defined]
    first = sweeper.settle_overdue(deps)
    assert (first.seen, first.changed, sorted(first.failed)) == (3, 0, sorted(broken))
    second = sweeper.settle_overdue(deps)
    assert (second.seen, second.changed, second.failed) == (1, 1, ())
    assert deps.rooms.get_room(healthy).step == 2
    deps.clock.advance(sweeper.PARK_MS // 1000)  # type: ignore[attr-defined]
    monkeypatch.setattr(sweeper, "BATCH", 10)
    assert sorted(sweeper.settle_overdue(deps).failed) == sorted(broken)  # tried again once parked out


def test_a_sweep_short_of_time_leaves_the_rest_to_the_next_tick(deps):
    """Lambda's remaining time bounds a sweep: it stops with time to spare instead of timing out."""
    rooms = [tally(deps, B, C) for _ in range(3)]
    deps.clock.advance(31)  # type: ignore[attr-defined]
    budget = iter([60_000, 60_000, 2_000])
    report = sweeper.settle_overdue(deps, time_left=lambda: next(budget))
    assert (report.seen, report.changed, report.left) == (2, 2, 1)
    assert sorted(deps.rooms.get_room(r).step for r in rooms) == [1, 2, 2]
    assert sweeper.settle_overdue(deps).changed == 1  # the next tick


def test_a_read_answers_though_the_overdue_round_cannot_be_settled(deps, monkeypatch):
    """Settle-on-read that fails leaves the room as it stands: nobody is locked out of it."""
    rid = tally(deps, B, C)
    deps.clock.advance(31)  # type: ignore[attr-defined]

    def rules_bug(*args, **kwargs):
        raise RuntimeError("rules bug")

    monkeypatch.setattr(views, "run_timeout", rules_bug)
    seen = views.room_view(deps, B, rid, "tally")
    assert seen.body["room"]["step"] == 1 and seen.body["pending"]["deadline_ms"] is not None


def test_a_turn_game_times_out_through_the_game(deps):
    deps.accounts.update_open_games({"relay": True})
    room = lobby.create_room(deps, A, "relay", {"target": 3, "turn_seconds": 10}, None, None)
    lobby.join_room(deps, B, room.id, None)
    lobby.start_room(deps, A, room.id)
    with pytest.raises(NotYourTurn):
        play.act(deps, B, room.id, 1, {"type": "add", "n": 1})
    assert play.act(deps, A, room.id, 1, {"type": "add", "n": 2}).settled
    deps.clock.advance(11)  # type: ignore[attr-defined]
    assert sweeper.settle_overdue(deps).changed == 1
    finished = deps.rooms.get_room(room.id)
    assert finished.status is RoomStatus.FINISHED and finished.results == ("game",)
    assert deps.rooms.get_log(room.id, 2).kind is LogKind.TIMEOUT


def test_a_finished_game_replays_bit_for_bit(deps):
    rid = tally(deps, B, C, rounds=2)
    for step in (1, 2):
        for n, c in enumerate((A, B, C), start=1):
            play.act(deps, c, rid, step, {"type": "pick", "n": n})
    room = deps.rooms.get_room(rid)
    assert room.status is RoomStatus.FINISHED
    body = views.replay(deps, A, rid, "tally")
    assert replay.recompute(body).model_dump(mode="json") == room.state


def test_the_game_ending_move_sent_again_is_answered_from_the_log(deps):
    """Platform rule P7 at the very end: the last move's answer was lost, the phone sends it again —
    the room is finished by then, and the retry is answered as the first attempt (not GAME_OVER)."""
    rid = tally(deps, B, C, rounds=1)
    for n, c in enumerate((A, B, C), start=1):
        last = play.act(deps, c, rid, 1, {"type": "pick", "n": n})
    assert last.settled and last.room.status is RoomStatus.FINISHED
    again = play.act(deps, C, rid, 1, {"type": "pick", "n": 3})
    assert (again.step, again.settled, again.room.status) == (1, False, RoomStatus.FINISHED)
    with pytest.raises(GameOver):
        play.act(deps, C, rid, 1, {"type": "pick", "n": 2})  # not her recorded move
    with pytest.raises(GameOver):
        play.act(deps, C, rid, 2, {"type": "pick", "n": 3})


def test_stalled_rooms_expire_and_idle_games_are_abandoned(deps):
    open_rid = tally(deps)
    active_rid = tally(deps, B, C, rounds=10)
    deps.clock.advance(31 * 60)  # type: ignore[attr-defined]
    assert sweeper.settle_overdue(deps).changed == 1  # the active round timed out meanwhile
    sweeper.expire_stalled(deps)
    assert deps.rooms.get_room(open_rid).status is RoomStatus.EXPIRED
    assert deps.rooms.get_room(active_rid).status is RoomStatus.ACTIVE
    deps.clock.advance(7 * 3600)  # type: ignore[attr-defined]
    sweeper.expire_stalled(deps)  # a round settled by the timer is no sign of life
    assert deps.rooms.get_room(active_rid).status is RoomStatus.ABANDONED


# -- bots ------------------------------------------------------------------------------------------

def test_bots_fill_empty_seats_start_the_game_and_move_at_once(deps):
    room = lobby.create_room(deps, A, "tally", {"rounds": 2, "turn_seconds": 30}, None, None)
    with pytest.raises(Forbidden):
        lobby.add_bots(deps, B, room.id, BotLevel.SIMPLE, None)
    started = lobby.add_bots(deps, A, room.id, BotLevel.ADVANCED, None)
    assert started.status is RoomStatus.ACTIVE  # tally starts itself when full
    assert [s.bot for s in started.seats] == [None, BotLevel.ADVANCED, BotLevel.ADVANCED]
    assert all("机器人" in s.name for s in started.seats[1:])
    moves = deps.rooms.list_moves(room.id, 1)
    assert {s: m.by for s, m in moves.items()} == {1: MoveSource.BOT, 2: MoveSource.BOT}  # the human owes hers
    done = play.act(deps, A, room.id, 1, {"type": "pick", "n": 2})
    assert done.settled and done.room.step == 2
    assert {s: m.by for s, m in deps.rooms.list_moves(room.id, 2).items()} == {1: MoveSource.BOT, 2: MoveSource.BOT}


def test_a_sealed_round_opens_with_its_bots_moves_in_the_same_write(deps, monkeypatch):
    """A phone told of a new round fetches it at once: the bots' moves, written after the round's
    commit and announced to nobody, showed them 候 until the round's end. They now go in the
    transaction that opens the round (the start's, and each settlement's)."""
    commits: list[tuple[int, set[tuple[int, int, MoveSource]]]] = []
    commit = deps.rooms.commit

    def spy(room, expected, log, moves=(), *rest):
        commits.append((room.step, {(m.step, m.seat, m.by) for m in moves}))
        return commit(room, expected, log, moves, *rest)

    monkeypatch.setattr(deps.rooms, "commit", spy)
    room = lobby.create_room(deps, A, "tally", {"rounds": 3, "turn_seconds": 30}, None, None)
    lobby.add_bots(deps, A, room.id, BotLevel.SIMPLE, None)  # full: tally starts itself
    assert commits[-1] == (1, {(1, 1, MoveSource.BOT), (1, 2, MoveSource.BOT)})
    play.act(deps, A, room.id, 1, {"type": "pick", "n": 1})
    assert commits[-1] == (2, {(2, 1, MoveSource.BOT), (2, 2, MoveSource.BOT)})
    view = views.render_view(deps, B, deps.rooms.get_room(room.id))  # what a phone fetches now
    assert view.body["pending"]["submitted"] == [1, 2]


def test_a_round_only_bots_owe_is_settled_by_them_at_once(deps):
    """The bots' moves come with the round; when nobody else owes one, the bots' own run settles it
    (before, the last bot's move did)."""
    room = lobby.create_room(deps, A, "tally", {"rounds": 3, "turn_seconds": 30}, None, None)
    lobby.add_bots(deps, A, room.id, BotLevel.SIMPLE, None)
    live = deps.rooms.get_room(room.id)
    handed = live.model_copy(update={"seats": tuple(s.model_copy(update={"bot": BotLevel.SIMPLE}) if s.seat == 0 else s
                                                    for s in live.seats), "version": live.version + 1})
    deps.rooms.save_room(handed, live.version)  # her seat too is a bot's now (as after a handover)
    from chalicelib.rooms.autoplay import run_bots

    done = run_bots(deps, handed)
    assert done.status is RoomStatus.FINISHED and done.step == 4  # three rounds, no timer waited for


def test_a_bot_that_fails_to_decide_never_holds_up_the_round(deps, monkeypatch):
    """The bots' moves are decided before the round is written now: a bot that raises is left to move
    later (as before, when it moved after the write), never failing the people's move with it."""
    from chalicelib.games import get_game

    room = lobby.create_room(deps, A, "tally", {"rounds": 3, "turn_seconds": 30}, None, None)
    lobby.join_room(deps, B, room.id, None)
    lobby.add_bots(deps, A, room.id, BotLevel.SIMPLE, None)

    def broken(self, view, seat, level, rng):
        raise RuntimeError("托管 loop did not settle")

    monkeypatch.setattr(type(get_game("tally")), "bot_action", broken)  # from round 2 on (round 1 opened fine)
    play.act(deps, A, room.id, 1, {"type": "pick", "n": 1})
    played = play.act(deps, B, room.id, 1, {"type": "pick", "n": 1})
    assert played.settled and played.room.step == 2  # her move closed round 1; round 2 opened without the bot's
    assert set(deps.rooms.list_moves(room.id, 2)) == set()
    play.act(deps, A, room.id, 2, {"type": "pick", "n": 1})
    assert not play.act(deps, B, room.id, 2, {"type": "pick", "n": 1}).settled  # the bot owes; the clock settles
    deps.clock.advance(31)
    from chalicelib.rooms import sweeper

    sweeper.settle_overdue(deps)
    after = deps.rooms.get_room(room.id)
    assert after.step == 3 and after.status is RoomStatus.ACTIVE


def test_a_player_a_bot_played_for_may_play_again(deps):
    """P13 「anyone who sat at it (not a bot)」: her seat was handed to a bot by a vote; she is still the
    table's (she was refused 403 NOT_IN_ROOM, as if she were the bot)."""
    from chalicelib.rooms import again, handover

    rid = tally(deps, B, C, rounds=4)
    _absent_three_rounds(deps, rid)
    handover.propose(deps, A, rid, 2, BotLevel.SIMPLE)
    handover.vote(deps, B, rid, True)
    play.act(deps, A, rid, 4, {"type": "pick", "n": 1})
    play.act(deps, B, rid, 4, {"type": "pick", "n": 1})
    assert deps.rooms.get_room(rid).status is RoomStatus.FINISHED
    opened = again.play_again(deps, A, rid, None)
    assert [s.user for s in again.play_again(deps, C, rid, None).seats] == [A.user_id, C.user_id]
    assert opened.id == deps.rooms.get_room(rid).again["same"].room


def test_her_return_closes_the_vote_on_her_seat_only(deps):
    """P10: the moment she plays again her seat is hers, and a vote on it closes; a vote on another
    seat goes on (her return closed every open vote)."""
    from chalicelib.rooms import handover

    rid = tally(deps, B, C, rounds=9)
    _absent_three_rounds(deps, rid)
    handover.propose(deps, A, rid, 2, BotLevel.SIMPLE)
    handover.vote(deps, B, rid, True)  # 丙's seat to a bot
    for step in (4, 5, 6):  # now 甲 must go: only 乙 (and the bot) move, 甲 presses 催战
        play.act(deps, B, rid, step, {"type": "pick", "n": 1})
        play.hurry(deps, A, rid, step)
    opened = handover.propose(deps, A, rid, 0, BotLevel.SIMPLE).handover  # her own seat: 乙 decides
    assert opened is not None and opened.yes == ()
    with pytest.raises(Conflict):  # 丙 is back; the bot had sealed this round for her already …
        play.act(deps, C, rid, 7, {"type": "pick", "n": 2})
    back = deps.rooms.get_room(rid)
    assert back.seats[2].bot is None and back.handover == opened  # … and the vote on 甲's seat goes on
    assert handover.vote(deps, B, rid, True).handover is not None  # 1 of 2 voters now (乙, 丙): no majority
    assert handover.vote(deps, C, rid, True).seats[0].bot is BotLevel.SIMPLE


def test_a_game_with_bots_replays_exactly_and_reaches_no_board(deps):
    room = lobby.create_room(deps, A, "tally", {"rounds": 3, "turn_seconds": 30}, None, None)
    lobby.add_bots(deps, A, room.id, BotLevel.SIMPLE, None)
    for step in (1, 2, 3):
        play.act(deps, A, room.id, step, {"type": "pick", "n": 1})
    finished = deps.rooms.get_room(room.id)
    assert finished.status is RoomStatus.FINISHED
    assert replay.recompute(views.replay(deps, A, room.id, "tally")).model_dump(mode="json") == finished.state
    assert deps.rooms.list_results(room.id) and not deps.rooms.records  # practice: no records


def test_turn_bots_play_until_a_human_must(deps):
    deps.accounts.update_open_games({"relay": True})
    room = lobby.create_room(deps, A, "relay", {"target": 9, "turn_seconds": 10}, None, None)
    with pytest.raises(Conflict):
        lobby.start_room(deps, A, room.id)  # alone: too few
    lobby.add_bots(deps, A, room.id, BotLevel.ADVANCED, 1)
    lobby.start_room(deps, A, room.id)
    after = play.act(deps, A, room.id, 1, {"type": "add", "n": 1})
    # the human added 1, the bot (seat 1) added 2 at once: it is the human's turn again
    assert after.room.step == 3 and deps.rooms.get_log(room.id, 2).trigger is Trigger.BOT
    assert after.room.pending is not None and after.room.pending.seats == (0,)


# -- handing an absent seat to a bot ---------------------------------------------------------------

def test_an_absent_seat_is_handed_to_a_bot_by_a_vote_and_taken_back_by_its_player(deps):
    from chalicelib.rooms import handover

    rid = tally(deps, B, C, rounds=9)
    with pytest.raises(Conflict) as e:
        handover.propose(deps, A, rid, 2, BotLevel.SIMPLE)
    assert e.value.code == "SEAT_NOT_ABSENT"  # 丙 has not been gone for three rounds yet
    for step in (1, 2, 3):  # 丙 sends nothing: the creator presses 催战 each round
        play.act(deps, A, rid, step, {"type": "pick", "n": 1})
        play.act(deps, B, rid, step, {"type": "pick", "n": 1})
        play.hurry(deps, A, rid, step)
    with pytest.raises(Forbidden):
        handover.propose(deps, B, rid, 2, BotLevel.SIMPLE)  # only the creator proposes
    proposed = handover.propose(deps, A, rid, 2, BotLevel.ADVANCED)
    assert proposed.handover is not None and proposed.handover.yes == (0,)  # the proposer is for it
    assert proposed.seats[2].bot is None  # one of two voters is no majority
    with pytest.raises(Forbidden):
        handover.vote(deps, C, rid, True)  # the absent player does not vote on her own seat
    handed = handover.vote(deps, B, rid, True)
    assert handed.seats[2].bot is BotLevel.ADVANCED and handed.handover is None
    assert deps.rooms.list_moves(rid, 4)[2].by is MoveSource.BOT  # the bot moved at once
    play.act(deps, B, rid, 4, {"type": "pick", "n": 1})
    back = play.act(deps, A, rid, 4, {"type": "pick", "n": 1}).room  # the round settles with the bot's move
    assert back.step == 5 and deps.rooms.list_moves(rid, 5)[2].by is MoveSource.BOT
    with pytest.raises(Conflict) as e:  # 丙 is back: the bot already moved for her this round …
        play.act(deps, C, rid, 5, {"type": "pick", "n": 2})
    assert e.value.code == "ALREADY_SUBMITTED"
    assert deps.rooms.get_room(rid).seats[2].bot is None  # … but the seat is hers again from now on
    play.act(deps, A, rid, 5, {"type": "pick", "n": 1})
    play.act(deps, B, rid, 5, {"type": "pick", "n": 1})
    assert 2 not in deps.rooms.list_moves(rid, 6)  # no bot moves for her any more


def test_a_handover_vote_can_be_refused(deps):
    from chalicelib.rooms import handover

    rid = tally(deps, B, C, rounds=9)
    for step in (1, 2, 3):
        play.act(deps, A, rid, step, {"type": "pick", "n": 1})
        play.hurry(deps, A, rid, step)
    handover.propose(deps, A, rid, 1, BotLevel.SIMPLE)
    refused = handover.vote(deps, C, rid, False)
    assert refused.handover is None and refused.seats[1].bot is None


def test_only_players_at_their_own_seats_vote_and_a_proposal_on_her_own_seat_is_no_yes(deps):
    """P10: 「the other seated players vote, a majority of them decides」 — a player whose seat a bot
    already plays is away and has no vote (her no decided a vote whose voters had not), and a creator
    who proposes handing over her own seat (she must go) does not vote on it (her proposal counted as a
    yes that her own vote would have been refused)."""
    from chalicelib.rooms import handover

    rid = tally(deps, B, C, rounds=9)
    _absent_three_rounds(deps, rid)
    handover.propose(deps, A, rid, 2, BotLevel.SIMPLE)
    assert handover.vote(deps, B, rid, True).seats[2].bot is BotLevel.SIMPLE  # 丙's seat to a bot
    for step in (4, 5, 6):  # now 甲 is gone: only 乙 (and the bot) move, 甲 presses 催战
        play.act(deps, B, rid, step, {"type": "pick", "n": 1})
        play.hurry(deps, A, rid, step)
    proposed = handover.propose(deps, A, rid, 0, BotLevel.SIMPLE)
    assert proposed.handover is not None and proposed.handover.yes == ()  # not her own yes
    with pytest.raises(Forbidden) as e:
        handover.vote(deps, C, rid, False)  # 丙, whose seat the bot plays
    assert e.value.code == "HANDOVER_NOT_YOURS" and "机器人代打" in e.value.message
    assert deps.rooms.get_room(rid).handover == proposed.handover  # her no was not counted
    handed = handover.vote(deps, B, rid, True)  # 乙 is the one voter: her yes decides
    assert handed.handover is None and handed.seats[0].bot is BotLevel.SIMPLE


def _absent_three_rounds(deps, rid):
    for step in (1, 2, 3):  # 丙 sends nothing: the creator presses 催战 each round
        play.act(deps, A, rid, step, {"type": "pick", "n": 1})
        play.act(deps, B, rid, step, {"type": "pick", "n": 1})
        play.hurry(deps, A, rid, step)


def test_a_player_who_comes_back_closes_the_vote_on_her_seat(deps):
    """The moment the player acts again, the seat is hers: a vote still open on it closes (a late yes
    must not hand a playing seat to a bot and take her move)."""
    from chalicelib.rooms import handover

    rid = tally(deps, B, C, rounds=9)
    _absent_three_rounds(deps, rid)
    assert handover.propose(deps, A, rid, 2, BotLevel.SIMPLE).handover is not None
    back = play.act(deps, C, rid, 4, {"type": "pick", "n": 2}).room
    assert back.handover is None and back.seats[2].bot is None
    late = handover.vote(deps, B, rid, True, seat=2)  # the yes sent before she came back
    assert late.handover is None and late.seats[2].bot is None
    assert deps.rooms.list_moves(rid, 4)[2].by is MoveSource.PLAYER  # her own move stands
    with pytest.raises(Conflict) as e:
        handover.vote(deps, B, rid, True)
    assert e.value.code == "NO_HANDOVER"


def test_a_vote_left_open_closes_with_the_game(deps):
    """A finished game's result is written once: a handover vote still open when it ends is gone with it,
    and a vote sent after is refused (409 NOT_ACTIVE), nothing written."""
    from chalicelib.rooms import handover

    rid = tally(deps, B, C, rounds=4)
    _absent_three_rounds(deps, rid)
    handover.propose(deps, A, rid, 2, BotLevel.SIMPLE)
    play.act(deps, A, rid, 4, {"type": "pick", "n": 1})
    play.act(deps, B, rid, 4, {"type": "pick", "n": 1})
    ended = play.hurry(deps, A, rid, 4)
    room = deps.rooms.get_room(rid)
    assert room.status is RoomStatus.FINISHED and room.handover is None, ended
    with pytest.raises(Conflict) as e:
        handover.vote(deps, B, rid, True)
    assert e.value.code == "NOT_ACTIVE"
    after = deps.rooms.get_room(rid)
    assert after.version == room.version and after.seats[2].bot is None


def test_the_scheduled_function_gives_the_sweep_its_remaining_time(monkeypatch):
    """jobs.settle_overdue passes Lambda's remaining time on (a CloudWatchEvent carries the context)."""
    from chalice.app import CloudWatchEvent

    from chalicelib import jobs

    seen = {}

    def sweep(deps, time_left=None):
        seen["left"] = time_left() if time_left else None
        return sweeper.SweepReport()

    class Context:
        def get_remaining_time_in_millis(self) -> int:
            return 12_345

    monkeypatch.setattr(jobs.sweeper, "settle_overdue", sweep)
    monkeypatch.setattr(jobs, "services", lambda: type("S", (), {"room_deps": lambda self: None})())
    event = CloudWatchEvent({"detail": {}, "detail-type": "Scheduled Event", "source": "aws.events", "account": "1",
                             "region": "r", "time": "t", "id": "i", "version": "0", "resources": []}, Context())
    assert jobs._time_left(event)() == 12_345
    jobs.settle_overdue.func(event)  # the function Chalice's handler calls with the event it built
    assert seen["left"] == 12_345
    assert jobs._time_left(object()) is None  # the local server's ticks: no budget
