"""The Game interface: registry, seats, options, setup, pending, check, JSON shapes, determinism."""

import pytest
from pydantic import ValidationError

from chalicelib.core.errors import Conflict, Forbidden, GameOver, IllegalAction, NotYourTurn
from chalicelib.core.game import PendingKind, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games import get_game
from chalicelib.games.shengong.actions import action_adapter
from chalicelib.games.shengong.events import event_adapter
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, PalaceOptions
from chalicelib.games.shengong.numbers import ROUND_LIMIT
from chalicelib.games.shengong.places import ORDINARY
from chalicelib.games.shengong.state import State

from .helpers import act, board, entrants, seat

MAIDS = {i: [("xunyi", 1 + i % 3), ("tieshen", 2), ("tongxin", 1)] for i in range(0, 8, 2)}


def test_registry_keys_and_seats():
    """DECISIONS #3: A/B/C are 8-seat free-for-all: 满 8 人 then the creator starts."""
    for key, game, mode in (("shengong_a", GAME_A, "A"), ("shengong_b", GAME_B, "B"), ("shengong_c", GAME_C, "C")):
        assert get_game(key) is game and game.key == key and game.mode.key.value == mode
        assert (game.min_seats, game.max_seats, game.auto_start, game.host_runs) == (8, 8, False, False)
        assert game.seats_consorts and game.state_model is State


def test_options_turn_seconds_bounds():
    """turn_seconds: 90 by default, 15..600."""
    assert PalaceOptions().turn_seconds == 90
    PalaceOptions(turn_seconds=15)
    PalaceOptions(turn_seconds=600)
    for bad in (14, 601):
        with pytest.raises(ValidationError):
            PalaceOptions(turn_seconds=bad)


def test_check_start_needs_eight():
    """满 8 人发起者「开战」."""
    with pytest.raises(Conflict) as e:
        GAME_A.check_start(entrants()[:7], PalaceOptions())
    assert e.value.code == "NOT_ENOUGH_PLAYERS"
    GAME_A.check_start(entrants(), PalaceOptions())


def test_setup_starting_values_and_spread():
    """DECISIONS #4/#5: 气血 10 (cap 12), 好感 5; players start spread over the six ordinary places."""
    for seed in range(30):
        s = GAME_A.setup(entrants(), PalaceOptions(turn_seconds=30), Rng.from_int(seed))
        assert all((p.hp, p.hp_max, p.grace, p.alive) == (100, 120, 50, True) for p in s.players)
        places = [p.place for p in s.players]
        assert set(places) == set(ORDINARY), "every ordinary place has someone"
        assert s.round == 1 and GAME_A.mode.round_limit == ROUND_LIMIT == 20 and s.turn_seconds == 30
        assert len(s.decree) == 2


def test_pending_is_one_sealed_round_for_the_living():
    """每人每回合选一个行动与目标地「落子」，全员落定即自动结算."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"), seat(2, "延禧宫"))
    p = GAME_A.pending(s)
    assert p.kind is PendingKind.SEALED and p.seats == frozenset({0, 1, 2})
    assert p.timeout_s == 90 and p.label == "第1回合"
    assert GAME_A.pending(s.model_copy(update={"over": True})) is None


def test_check_refuses_the_fallen_the_host_and_a_finished_game():
    """Only a living seat may seal an order."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"))
    with pytest.raises(NotYourTurn) as e:
        GAME_A.check(s, Viewer.player(5), act(type="idle"))
    assert e.value.code == "ELIMINATED"
    with pytest.raises(Forbidden) as e:
        GAME_A.check(s, Viewer.host(), act(type="idle"))
    assert e.value.code == "HOST_CANNOT_ACT"
    with pytest.raises(GameOver):
        GAME_A.check(s.model_copy(update={"over": True}), Viewer.player(0), act(type="idle"))
    with pytest.raises(IllegalAction) as e:
        GAME_A.apply(s, Viewer.player(0), act(type="idle"), Rng.from_int(1))
    assert e.value.code == "NOT_TURN_BASED"


def test_action_json_shapes():
    """Orders are one union on `type` for every mode; an A/B/C attack names its target `place` (seed: 目标地),
    送膳 names none (it is always served at 乾清宫)."""
    assert action_adapter.validate_json('{"type":"poison","place":"景仁宫","cards":{"attack":"xunyi#1"}}').cards.attack
    assert action_adapter.dump_python(act(type="move", place="御膳房"), mode="json") == {
        "type": "move", "place": "御膳房", "cards": {"attack": None, "defence": None, "general": None, "discard": []}}
    for bad in ({"type": "poison", "place": "紫禁城"}, {"type": "meal", "place": "景仁宫"}, {"type": "fly"},
                {"type": "idle", "extra": 1}, {"type": "rest"}):
        with pytest.raises(ValidationError):
            action_adapter.validate_python(bad)
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"))
    for raw, code in (({"type": "poison"}, "PLACE_REQUIRED"), ({"type": "frame", "place": "景仁宫", "target": 1},
                                                                  "FIELD_NOT_USED")):
        with pytest.raises(IllegalAction) as e:
            GAME_A.check(s, Viewer.player(0), act(**raw))
        assert e.value.code == code


def _play(game, seed, rounds=ROUND_LIMIT):
    s = game.setup(entrants(MAIDS), PalaceOptions(), Rng.from_int(seed))
    log = []
    step = 1
    while game.pending(s) and step <= rounds:
        moves = {}
        for i in (p.seat for p in s.living()):
            p = s.players[i]
            target = s.players[(i + step) % 8].place
            order = [dict(type="poison", place=target), dict(type="frame", place=target), dict(type="heal"),
                     dict(type="assassinate", place=target), dict(type="idle")][(i + step) % 5]
            if p.voided:
                order = dict(type="idle")
            try:
                game.check(s, Viewer.player(i), act(**order))
                moves[i] = act(**order)
            except IllegalAction:
                pass
        tr = game.settle(s, moves, Rng.from_int(seed, step))
        log.extend(tr.events)
        s = tr.state
        step += 1
    return s, log


@pytest.mark.parametrize("game", [GAME_A, GAME_B, GAME_C], ids=["A", "B", "C"])
def test_state_and_events_round_trip_through_json(game):
    """State round-trips exactly through JSON; events through event_adapter."""
    s, log = _play(game, 3, rounds=6)
    assert State.model_validate_json(s.model_dump_json()) == s
    assert State.model_validate(s.model_dump(mode="json")) == s, "how rooms store it"
    for e in log:
        assert event_adapter.validate_json(event_adapter.dump_json(e)) == e
        assert event_adapter.validate_python(event_adapter.dump_python(e, mode="json")) == e


@pytest.mark.parametrize("game", [GAME_A, GAME_B, GAME_C], ids=["A", "B", "C"])
def test_same_seed_and_moves_give_the_same_game(game):
    """DECISIONS common: any game can be replayed exactly from its initial state and its action log."""
    a, log_a = _play(game, 11)
    b, log_b = _play(game, 11)
    assert a == b and log_a == log_b
    c, _ = _play(game, 12)
    assert c != a


def test_final_transition_carries_the_outcome():
    """The final Transition carries results=(Outcome(unit="game", reason=..., ...),)."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=1.5))
    tr = GAME_A.settle(s, {0: act(type="poison", place="景仁宫"), 1: act(type="stay")}, Rng.from_int(1))
    (o,) = tr.results
    assert o.reason == "last_standing" and o.extra == {"mode": "A", "rounds": 1, "verdict": "一人独存",
                                                                   "ending": "终局：只剩一人（第 1 回合）"}
    assert [r.place for r in o.results[:2]] == [1, 2]
    with pytest.raises(GameOver):
        GAME_A.settle(tr.state, {}, Rng.from_int(1))
    tr = GAME_A.settle(s, {0: act(type="stay"), 1: act(type="stay")}, Rng.from_int(1))
    assert tr.results == ()
