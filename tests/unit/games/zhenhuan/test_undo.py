"""「撤销」 (issue #11, item 1): the platform undoes the storyteller's last press by replaying the log
without it; the engine keeps `apply` a pure function of (state, actor, action, rng), says which past
actions may be undone (`undoable`) and what to tell the players who had seen them (`withdrawn`).

The default run is small; `SOAK_FULL=1` replays many more games."""

from __future__ import annotations

import os

import pytest

from chalicelib.core.errors import DomainError
from chalicelib.core.game import Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import GUOJUNWANG, HUAFEI, HUANGSHANG, JINXI, QIFEI, WENTAIYI, ZHENHUAN
from chalicelib.games.zhenhuan.state import GameState

from .driver import Entry, apply_entry, initial, play, replay
from .helpers import HOST, act, night, pass_until, started, transition

FULL = os.environ.get("SOAK_FULL") == "1"
GAMES = 60 if FULL else 6
CHECKPOINTS = 12 if FULL else 5
R = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]


def _views(state: GameState) -> list[str]:
    viewers = [HOST, Viewer.spectator()] + [Viewer.player(s) for s in range(len(state.seats))]
    return [GAME.view(state, v).model_dump_json() for v in viewers]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(1000, 1000 + GAMES))
def test_replaying_all_but_the_last_then_reapplying_it_is_byte_identical(seed: int) -> None:
    """Undo then redo: replaying every action but the last, each with the Rng of its position, then
    applying the last again gives byte for byte the same state and every viewer's view."""
    game = play(seed)
    n = len(game.entries)
    points = sorted({max(1, n * k // CHECKPOINTS) for k in range(1, CHECKPOINTS + 1)} | {n}) if n else []
    for k in points:
        before = replay(seed, game.players, game.entries[: k - 1])
        assert before.model_dump_json() == game.states[k - 1].model_dump_json()
        again = apply_entry(before, game.entries[k - 1], Rng.from_int(seed, k))
        assert again.state.model_dump_json() == game.states[k].model_dump_json()
        assert _views(again.state) == _views(game.states[k])
        assert [e.model_dump_json() for e in again.events] == [e.model_dump_json() for e in game.transitions[k - 1].events]


@pytest.mark.slow
@pytest.mark.parametrize("seed", range(2000, 2000 + GAMES))
def test_undoing_a_press_in_the_middle_replays_to_a_sound_game(seed: int) -> None:
    """The platform's replay without an earlier press: each later transition gets the Rng of its new
    position; later actions the rules now refuse are dropped. The result is a sound game every viewer
    can read, and putting the press back (redo) gives the original state exactly."""
    game = play(seed)
    undoable = [i for i, e in enumerate(game.entries) if e.kind == "apply" and GAME.undoable(game.states[i], e.actor, e.action)]
    if not undoable:
        return
    cut = undoable[len(undoable) // 2]
    state = initial(seed, game.players)
    kept: list[Entry] = []
    for entry in game.entries[:cut] + game.entries[cut + 1 :]:
        try:
            state = apply_entry(state, entry, Rng.from_int(seed, len(kept) + 1)).state
        except DomainError:
            continue
        kept.append(entry)
    assert GAME.state_model.model_validate_json(state.model_dump_json()) == state
    _views(state)
    assert replay(seed, game.players, game.entries).model_dump_json() == game.states[-1].model_dump_json()


def test_apply_is_a_pure_function_of_state_actor_action_and_rng() -> None:
    """Nothing depends on how many transitions happened before except through the state: the same
    state (even rebuilt from JSON) with the same action and Rng gives the same transition."""
    state = pass_until(started(R), "jinxi")
    action = GAME.action_adapter.validate_python({"type": "night_step", "step": "jinxi", "targets": [0, 5]})
    rebuilt = GAME.state_model.model_validate_json(state.model_dump_json())
    one = GAME.apply(state, HOST, action, Rng.from_int(7, 3))
    two = GAME.apply(rebuilt, HOST, action, Rng.from_int(7, 3))
    assert one.state.model_dump_json() == two.state.model_dump_json() and one.events == two.events


def test_storyteller_presses_are_undoable_players_actions_and_the_confirmed_end_are_not() -> None:
    """Undo takes back the storyteller's presses; players' own nominations and votes are edited or
    deleted by the storyteller instead; 「确认结束」 is final (results are written once)."""
    day = night(started(R))
    nominate = GAME.action_adapter.validate_python({"type": "nominate", "nominator": 0, "nominee": 5})
    assert GAME.undoable(day, HOST, nominate)
    assert not GAME.undoable(day, Viewer.player(0), nominate)
    vote = GAME.action_adapter.validate_python({"type": "vote", "yes": True})
    assert not GAME.undoable(day, Viewer.player(1), vote)
    confirm = GAME.action_adapter.validate_python({"type": "confirm_end"})
    assert not GAME.undoable(day, HOST, confirm)


def test_undoing_night_information_tells_its_player_without_repeating_it() -> None:
    """A mis-tap at night (瑾汐's pair entered wrong, taken back): the app showed her nothing at night,
    so the notice says only that one line was taken back — repeating 「1号与6号之中有恶魔」 gave her true
    information about seats she never pointed at (found by the click-through). Nobody else learns
    anything; the storyteller sees a line."""
    before = pass_until(started(R), "jinxi")
    t = transition(before, type="night_step", step="jinxi", targets=[0, 5])
    notices = GAME.withdrawn(t.state, t.events)
    (mine,) = GAME.report(before, notices, Viewer.player(1))
    assert (mine.kind, mine.lines, mine.text) == ("withdrawn", (), "说书人撤回了今晚告诉你的1条信息")
    assert "号" not in mine.text.removeprefix("说书人")
    for seat in (0, 2, 3, 4, 5, 6):
        assert GAME.report(before, notices, Viewer.player(seat)) == []
    assert GAME.report(before, notices, Viewer.spectator()) == []
    assert any(n.kind == "host" for n in GAME.report(before, notices, HOST))


def test_undoing_a_day_tell_tells_only_the_player_who_saw_it() -> None:
    """「说书人撤回了刚才告诉你的信息」: by day a 告知 shows on her phone at once, so taking it back tells
    her (and only her) which line is withdrawn."""
    before = night(started(R))
    t = transition(before, type="tell", seat=1, text="你被盯上了")
    notices = GAME.withdrawn(t.state, t.events)
    mine = GAME.report(before, notices, Viewer.player(1))
    assert [n.kind for n in mine] == ["withdrawn"]
    assert mine[0].text.startswith("说书人撤回了刚才告诉你的信息") and "你被盯上了" in mine[0].text
    for seat in (0, 2, 3, 4, 5, 6):
        assert GAME.report(before, notices, Viewer.player(seat)) == []


def test_undoing_a_storyteller_only_press_tells_no_player() -> None:
    """An undone press that showed players nothing (a status) gives them nothing: they cannot even
    tell that something was undone (the step count is hidden)."""
    before = night(started(R))
    t = transition(before, type="set_status", seat=1, status="poisoned")
    notices = GAME.withdrawn(t.state, t.events)
    for viewer in [Viewer.player(s) for s in range(7)] + [Viewer.spectator()]:
        assert GAME.report(before, notices, viewer) == []


def test_undoing_a_public_press_tells_everyone_what_they_saw() -> None:
    """Public lines (天亮 and its announcement) were seen by all: the notice is public."""
    before = pass_until(act(started(R), type="kill", seat=2), "wentaiyi")
    before = act(before, type="night_step", step="wentaiyi", skip=True)
    t = transition(before, type="dawn")
    notices = GAME.withdrawn(t.state, t.events)
    for viewer in (Viewer.player(0), Viewer.spectator()):
        (notice,) = GAME.report(before, notices, viewer)
        assert "昨夜死亡：3号" in notice.lines and notice.seat is None


def test_undo_then_redo_is_byte_identical_and_the_notice_changes_no_state() -> None:
    """The withdrawal notices are only reported: the state after undo is the replay's, and redoing the
    press gives the original state byte for byte."""
    before = pass_until(started(R), "jinxi")
    action = {"type": "night_step", "step": "jinxi", "targets": [0, 5]}
    first = transition(before, **action)
    GAME.withdrawn(first.state, first.events)
    redo = transition(GAME.state_model.model_validate_json(before.model_dump_json()), **action)
    assert redo.state.model_dump_json() == first.state.model_dump_json()
