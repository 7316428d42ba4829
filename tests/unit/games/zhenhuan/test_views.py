"""Views per viewer, reports, the Game protocol surface and the JSON round trip of the state."""

from __future__ import annotations

import json

import pytest

from chalicelib.core.errors import Forbidden
from chalicelib.core.game import PendingKind, Viewer
from chalicelib.games.zhenhuan.events import event_adapter
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import (
    ANLINGRONG,
    GUOJUNWANG,
    HUANGSHANG,
    JINXI,
    QIFEI,
    WENTAIYI,
    ZHENHUAN,
)
from chalicelib.games.zhenhuan.state import GameState

from .helpers import HOST, act, new_state, night, started, step, transition

R = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, ANLINGRONG, HUANGSHANG, QIFEI]


def test_game_surface() -> None:
    """游戏开始需要1名说书人 - 5~20 位玩家."""
    assert (GAME.key, GAME.title, GAME.min_seats, GAME.max_seats) == ("zhenhuan", "血染甄嬛传", 5, 20)
    assert GAME.host_runs and not GAME.auto_start and GAME.hidden_steps and GAME.family == "zhenhuan"
    assert GAME.late_join and GAME.admit_model is not None and GAME.records is None
    pending = GAME.pending(started(R))
    assert pending is not None and pending.kind is PendingKind.HOST and pending.timeout_s is None


def test_only_the_storyteller_acts() -> None:
    """DECISIONS #6: The storyteller is the authority."""
    action = GAME.action_adapter.validate_python({"type": "begin"})
    with pytest.raises(Forbidden):
        GAME.check(new_state(R), Viewer.player(0), action)
    with pytest.raises(Forbidden):
        GAME.check(new_state(R), Viewer.spectator(), action)


def test_player_sees_her_own_role_only_after_begin() -> None:
    """Each player then sees only her own role and alignment."""
    assert GAME.view(new_state(R), Viewer.player(0)).me.role is None
    view = GAME.view(started(R), Viewer.player(5))
    assert (view.me.role, view.me.alignment) == (HUANGSHANG, "evil")
    assert view.grimoire is None
    dumped = view.model_dump_json()
    assert ZHENHUAN not in dumped and "瑾汐" not in dumped


def test_storyteller_view_shows_step_targets_truth_and_impairment() -> None:
    """DECISIONS #5: the app still shows the storyteller the true answer, flags that the player is impaired."""
    state = step(started(R), "anlingrong", 1, None)
    grim = GAME.view(state, HOST).grimoire
    assert [s.role for s in grim.seats] == R
    poison = grim.seats[1].statuses[0]
    assert (poison.kind.value, poison.source, poison.source_seat, poison.until.at, poison.until.night) == (
        "poisoned",
        ANLINGRONG,
        4,
        "dusk",
        2,
    )
    state = act(state, type="night_step", step="guojunwang", skip=True)
    current = GAME.view(state, HOST).grimoire.night.current
    assert current.key == "huangshang" and current.slots[0].allowed == ()  # no kill on the first night
    while GAME.view(state, HOST).grimoire.night.current.key != "jinxi":
        key = GAME.view(state, HOST).grimoire.night.current.key
        state = act(state, type="night_step", step=key, skip=True)
    current = GAME.view(state, HOST).grimoire.night.current
    assert current.actor == 1 and current.impaired == ("poisoned",)
    assert current.hint == "恶魔：6号" and current.answer_kind == "yesno"


def test_spectator_sees_the_public_board_only() -> None:
    """Spectators see the public board only."""
    state = act(night(started(R)), type="nominate", nominator=0, nominee=5)
    view = GAME.view(state, Viewer.spectator())
    assert view.me is None and view.grimoire is None
    assert view.day.nominations[0].nominee == 5 and view.day.threshold == 4
    assert all(e.kind not in ("host", "info", "you_are") for e in view.log)


def test_everyone_sees_the_grimoire_and_log_after_the_end() -> None:
    """Afterwards everyone sees the full grimoire and the log."""
    state = act(act(started(R), type="declare_winner", winner="good"), type="confirm_end")
    for viewer in (Viewer.player(0), Viewer.spectator()):
        view = GAME.view(state, viewer)
        assert view.grimoire is not None and [s.role for s in view.grimoire.seats] == R
        assert any(e.kind == "host" for e in view.log)


def test_report_gives_each_player_her_own_information() -> None:
    """Events never carry another player's private information to a player."""
    t = transition(step(started(R), "anlingrong", 1, None), type="night_step", step="guojunwang", skip=True)
    state = t.state
    while GAME.view(state, HOST).grimoire.night.current.key != "jinxi":
        state = act(
            state, type="night_step", step=GAME.view(state, HOST).grimoire.night.current.key, skip=True
        )
    t = transition(state, type="night_step", step="jinxi", targets=[0, 5])
    assert [e.kind for e in GAME.report(t.state, t.events, Viewer.player(1))] == ["info"]
    assert GAME.report(t.state, t.events, Viewer.player(0)) == []
    assert [e.kind for e in GAME.report(t.state, t.events, HOST)] == ["info", "host"]


def _round_trip(state: GameState) -> None:
    again = GAME.state_model.model_validate(json.loads(json.dumps(state.model_dump(mode="json"))))
    assert again == state


def test_state_round_trips_through_json_in_every_phase() -> None:
    """The state round-trips through JSON (the room stores it)."""
    state = new_state(R)
    _round_trip(state)
    state = step(act(state, type="begin"), "anlingrong", 1, 2)
    _round_trip(state)
    state = night(state)
    state = act(state, type="nominate", nominator=0, nominee=5)
    _round_trip(act(state, type="dusk"))
    state = act(act(state, type="vote", votes=[0, 1, 2, 3]), type="execute", seat=5)
    _round_trip(state)
    for event in state.log:
        assert event_adapter.validate_python(event.model_dump(mode="json")) == event


def test_action_json_shapes() -> None:
    """Actions are a union on `type` with the documented JSON shapes."""
    for raw in (
        {"type": "dusk"},
        {"type": "night_step", "step": "jinxi", "targets": [3, 4], "answer": True},
        {"type": "night_step", "step": "yurao", "targets": [2], "answer": {"seat": 2, "role": "jinxi"}},
        {"type": "kill", "seat": 4},
        {"type": "execute", "seat": 2},
        {"type": "drunk", "seat": 5},
        {"type": "nominate", "nominator": 1, "nominee": 2},
        {"type": "vote", "votes": [0, 1, 3]},
    ):
        action = GAME.action_adapter.validate_python(raw)
        dumped = GAME.action_adapter.dump_python(action, mode="json", exclude_defaults=True)
        assert {"type": action.type, **dumped} == raw
