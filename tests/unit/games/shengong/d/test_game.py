"""The Game interface for 宫斗杀: start, pending, checks, the end and the score (seed D①⑥⑦)."""

import pytest
from pydantic import ValidationError

from chalicelib.core.errors import Conflict, Forbidden, GameOver, IllegalAction
from chalicelib.core.game import PendingKind, StageClear, Viewer
from chalicelib.games import get_game
from chalicelib.games.shengong.actions import Assassinate, Frame, Idle, Poison, action_adapter
from chalicelib.games.shengong.events import event_adapter
from chalicelib.games.shengong.game import StageOptions
from chalicelib.games.shengong.numbers import ROUND_LIMIT
from chalicelib.games.shengong.scoring import clear_bonus, outcome
from chalicelib.games.shengong.state import State
from chalicelib.games.shengong.terms import Attack, Place, Reason
from chalicelib.games.shengong.wording import end_text, verdict

from .helpers import GAME, NAMES, ScriptRng, entrants, force_plan, new_game, profile, rolls, settle, shape


def test_registry_loads_the_game_with_its_protocol_values():
    """D① 三人成队…满 3 人自动开战."""
    g = get_game("shengong_d")
    assert g is GAME
    assert (g.key, g.family, g.title, g.min_seats, g.max_seats, g.auto_start, g.host_runs) == (
        "shengong_d", "shengong", "宫斗杀", 3, 3, True, False)
    assert g.seats_consorts and g.state_model is State and g.options_model is StageOptions


def test_options_stage_and_turn_seconds_are_bounded():
    """D① 房主开房时选关卡 — 关卡 1..3 (D⑥ 现有关卡); the round timer is the room's SEALED deadline."""
    assert StageOptions().turn_seconds == 90
    for bad in ({"stage": 0}, {"stage": 4}, {"turn_seconds": 14}, {"turn_seconds": 601}):
        with pytest.raises(ValidationError):
            StageOptions.model_validate(bad)


def test_a_start_with_fewer_than_three_is_refused():
    """D① 不足 3 人房主可点「开战」时会被拦下."""
    with pytest.raises(Conflict) as e:
        GAME.check_start(entrants()[:2], StageOptions(stage=1))
    assert e.value.code == "NOT_ENOUGH_PLAYERS" and "3 人" in e.value.message


def test_the_stage_choices_are_named_with_their_opponent():
    """Seed D①: "房主开房时选关卡" — the options schema names each stage as the game does (its title with
    the opponent), so 开房 shows what she will face."""
    stage = StageOptions.model_json_schema()["properties"]["stage"]
    assert stage["x-labels"] == {"1": "关卡1 · 高明珠", "2": "关卡2 · 石露", "3": "关卡3 · 高明珠（携二随从）"}
    assert (stage["minimum"], stage["maximum"]) == (1, len(stage["x-labels"]))


def test_stage_lock_names_each_player_who_has_not_cleared_the_previous_stage():
    """D⑥ 挑战关卡 N 须全队三人都通关关卡 N−1；有人没打通，开战时会点名提示."""
    team = entrants(profile("甄嬛", cleared=(1, 2)), profile("沈眉庄", cleared=()), profile("安陵容", cleared=(1,)))
    GAME.check_start(team, StageOptions(stage=1))
    with pytest.raises(IllegalAction) as e:
        GAME.check_start(team, StageOptions(stage=2))
    assert e.value.code == "STAGE_LOCKED"
    assert "沈眉庄" in e.value.message and "安陵容" not in e.value.message and "甄嬛" not in e.value.message
    with pytest.raises(IllegalAction) as e:
        GAME.check_start(team, StageOptions(stage=3))
    assert "沈眉庄" in e.value.message and "安陵容" in e.value.message and "甄嬛" not in e.value.message


def test_each_player_is_checked_for_the_stage_as_she_takes_a_seat():
    """D⑥ 挑战关卡 N 须全队三人都通关关卡 N−1 — decision: checked (naming her) as each player sits, so
    a room that starts itself at three always fills with players who may play it; its title says which
    stage it is."""
    cleared, fresh = entrants(profile("甄嬛", cleared=(1,)), profile("沈眉庄", cleared=()))[:2]
    for who in (cleared, fresh):
        GAME.check_seat(who, StageOptions(stage=1))
    GAME.check_seat(cleared, StageOptions(stage=2))
    with pytest.raises(IllegalAction) as e:
        GAME.check_seat(fresh, StageOptions(stage=2))
    assert e.value.code == "STAGE_LOCKED" and e.value.details == {"players": ["沈眉庄"]}
    assert GAME.room_title(StageOptions(stage=2)) == "宫斗杀·关卡2"


def test_the_stages_she_may_not_open_yet_are_locked_with_the_seat_checks_words():
    """D⑥ 挑战关卡 N 须全队三人都通关关卡 N−1 — decision: 开房's stage choices say, before she presses
    开房, which stages her 妃子 may not open yet, each with the very refusal `check_seat` would give
    her at 开房 (which stays the word); an open stage is not named."""
    fresh, first, both = (entrants(profile("甄嬛", cleared=c))[0] for c in ((), (1,), (1, 2)))
    locks = GAME.option_locks(fresh)
    assert set(locks) == {"stage"} and set(locks["stage"]) == {"2", "3"}
    for stage, reason in locks["stage"].items():
        with pytest.raises(IllegalAction) as e:
            GAME.check_seat(fresh, StageOptions(stage=int(stage)))
        assert reason == e.value.message and f"尚未通关关卡{int(stage) - 1}" in reason
    assert set(GAME.option_locks(first)["stage"]) == {"3"}
    assert GAME.option_locks(both) == {}
    assert get_game("shengong_a").option_locks(fresh) == {}  # A/B/C have no stages


def test_a_seat_that_never_sent_a_move_of_her_own_reaches_no_record():
    """Boards measure play: a seat whose every move was 待机 by default (催战 or the timer) is marked
    not played in the result (docs/rules/platform.md P11), the others are."""
    state = settle(new_game(1), {0: Poison(target=0), 1: Idle()}).state  # seat 2 sent nothing
    assert [p.stats.moves for p in state.players] == [1, 1, 0]
    over = state.model_copy(update={"over": True, "reason": Reason.WIPE})
    assert [r.played for r in outcome(GAME.mode, over).results] == [True, True, False]


def test_pending_is_sealed_for_the_living_with_the_turn_timer():
    """Seed: 每人每回合选一个行动…「落子」，全员落定即自动结算."""
    s = GAME.setup(entrants(), StageOptions(stage=1, turn_seconds=45), ScriptRng())
    p = GAME.pending(s)
    assert (p.kind, p.seats, p.timeout_s, p.label) == (PendingKind.SEALED, frozenset({0, 1, 2}), 45, "第1回合")


def test_check_refuses_the_host_and_a_finished_game_and_apply_is_not_used():
    """Seed: 司礼不入局，只作主持 — only seated players 落子, all at once (no single-step actions)."""
    s = new_game(1)
    with pytest.raises(Forbidden) as e:
        GAME.check(s, Viewer.host(), Idle())
    assert e.value.code == "HOST_CANNOT_ACT"
    with pytest.raises(IllegalAction) as e:
        GAME.apply(s, Viewer.player(0), Idle(), ScriptRng())
    assert e.value.code == "NOT_TURN_BASED"
    with pytest.raises(GameOver):
        GAME.check(s.model_copy(update={"over": True}), Viewer.player(0), Idle())


def test_action_json_shapes():
    """D④ 攻击…只须在「目标对手」里挑打谁…只有「移动」要选去处."""
    assert action_adapter.validate_python(
        {"type": "poison", "target": 0, "cards": {"attack": "xunyi#1"}}) == Poison(target=0, cards={"attack": "xunyi#1"})
    assert action_adapter.validate_python({"type": "move", "place": "御膳房"}).place is Place.KITCHEN
    assert action_adapter.validate_python({"type": "idle"}) == Idle()
    assert action_adapter.validate_json('{"type":"assassinate"}') == Assassinate()


def test_state_and_events_round_trip_through_json():
    """DECISIONS (common): any game can be replayed exactly from its initial state and its action log."""
    s = new_game(3, profile("甄嬛", maids=(("xunyi", 3), ("tieshen", 1))))
    t = settle(s, {0: Poison(target=1)}, ScriptRng(default=0))
    for st in (s, t.state):
        assert State.model_validate(st.model_dump(mode="json")) == st
        assert State.model_validate_json(st.model_dump_json()) == st
    for e in t.events:
        assert event_adapter.validate_python(event_adapter.dump_python(e, mode="json")) == e


def _scores(t):
    return {r.seat: r.score for r in t.results[0].results}


def test_clear_ends_the_game_with_the_seed_score(monkeypatch):
    """D⑦ 积分 ＝ 输出伤害 ＋ 存活 30 ＋ 通关奖励（60 − 回合×3，不为负）."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.FRAME)
    s = shape(new_game(1), opp_hp=(24,), opp_grace=(2,), round=4,
              places=(Place.TAVERN, Place.GARDEN, Place.GARDEN))
    s = s.model_copy(update={"players": (
        s.players[0].model_copy(update={"stats": s.players[0].stats.model_copy(update={"hp_damage": 70})}),
        *s.players[1:])})
    t = settle(s, {0: Frame(target=0), 1: Poison(target=0)}, ScriptRng(0, 0, 99))
    assert t.state.over and t.state.cleared and t.state.reason == "clear" and GAME.pending(t.state) is None
    out = t.results[0]
    assert out.unit == "game" and out.reason == "clear" and out.clear == StageClear(stage=1, rounds=4)
    assert out.extra == {"mode": "D", "stage": 1, "cleared": True, "rounds": 4, "verdict": "通关",
                         "ending": "通关！第 4 回合放倒全部对手"}
    # seat 0: 7 + 2 (诬告) + 30 + (60 − 12); seat 1: 2 (下毒) + 30 + 48; seat 2: 0 + 30 + 48
    assert _scores(t) == {0: 87.0, 1: 80.0, 2: 78.0}
    r0 = out.results[0]
    assert r0.won and r0.place is None and r0.stats["survived"] == 1.0 and r0.stats["clear_bonus"] == 48.0
    assert r0.stats["grace_damage"] == 2.0 and r0.stats["hp_damage"] == 7.0
    end = next(e for e in t.events if e.kind == "ended")
    assert end.scores == (87.0, 80.0, 78.0)


def test_clear_bonus_is_never_negative_and_only_on_a_clear():
    """D⑦ 通关奖励（60 − 回合×3，不为负）."""
    assert [clear_bonus(True, r) for r in (1, 7, 20, 21)] == [57, 39, 0, 0]
    assert clear_bonus(False, 3) == 0


def test_wipe_when_all_three_are_down(monkeypatch):
    """The game ends when the whole team is down (气血 ≤ 0 or 好感 ≤ 0)."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.POISON)
    s = shape(new_game(1), hp=(2, 1, 1), places=(Place.TAVERN, Place.KITCHEN, Place.KITCHEN))
    t = settle(s, {0: Poison(target=0), 1: Poison(target=0), 2: Poison(target=0)}, ScriptRng(0, 0, 0, 0))
    assert t.state.reason == "wipe" and not t.state.cleared
    assert _scores(t) == {0: 2.0, 1: 3.0, 2: 3.0}
    assert all(not r.won and r.stats["survived"] == 0.0 for r in t.results[0].results)


def test_clear_and_wipe_in_the_same_round_is_a_clear(monkeypatch):
    """D⑤ 须将对手尽数放倒方算通关 — the last blows land together with hers."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.POISON)
    s = shape(new_game(1), hp=(2, 1, 1), opp_hp=(2,), places=(Place.TAVERN, Place.KITCHEN, Place.KITCHEN))
    t = settle(s, {0: Poison(target=0), 1: Poison(target=0), 2: Poison(target=0)}, ScriptRng(0, 0, 0, 0))
    assert t.state.reason == "clear" and t.state.cleared
    assert not any(p.alive for p in t.state.players)
    assert _scores(t) == {0: 2.0 + 57, 1: 3.0 + 57, 2: 3.0 + 57}


def test_round_limit_ends_the_game_after_round_twenty(monkeypatch):
    """DECISIONS #2: the round limit is 20 (numbers.ROUND_LIMIT)."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.FRAME)
    s = new_game(1)
    for _ in range(ROUND_LIMIT):
        assert not s.over
        s = settle(s, {}, ScriptRng(default=99)).state
    assert s.over and s.reason == "limit" and s.round == ROUND_LIMIT == 20 and GAME.pending(s) is None
    with pytest.raises(GameOver):
        settle(s, {})


def test_the_round_limit_says_plainly_that_the_team_failed(monkeypatch):
    """D⑤ 须将对手尽数放倒方算通关 — decision: a stage game that runs out of rounds (DECISIONS #2) is a
    failure, and its end says so itself (「回合已满」 alone read as a neutral end): the 战报's last line
    and the result's sentence (`ending`) 「20 回合已满，对手仍未倒下，闯关失败」, its seal (`verdict`)
    「闯关失败」; A/B/C keep 「回合已满」, where the limit ends a game with places, not a failure."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.FRAME)
    t = settle(shape(new_game(1), round=ROUND_LIMIT), {}, ScriptRng(default=99))
    assert t.state.reason == Reason.LIMIT and not t.state.cleared
    extra = t.results[0].extra
    assert (extra["verdict"], extra["ending"]) == ("闯关失败", "20 回合已满，对手仍未倒下，闯关失败")
    assert extra["ending"] in [ln.text for ln in GAME.report(t.state, t.events, Viewer.player(0))]
    assert "闯关失败" in GAME.fixed_rules["end"]
    # the other ends, and A/B/C's limit, as their seals and sentences read
    assert [verdict(True, r) for r in (Reason.CLEAR, Reason.WIPE)] == ["通关", "全军覆没"]
    assert (verdict(False, Reason.LIMIT), end_text(False, Reason.LIMIT, 20)) == ("回合已满", "20 回合已满，终局")
    assert "闯关失败" in end_text(True, Reason.WIPE, 7)


def test_settle_accepts_json_moves_with_string_seats_and_defaults_illegal_ones():
    """A move that is illegal in the snapshot is refused at settlement and she stands by (待机); a
    seat mapped to None did not submit (seed: 未落子按待机处理)."""
    s = new_game(3)
    t = GAME.settle(s, {"0": {"type": "frame", "target": 1}, "1": {"type": "idle"}}, ScriptRng())
    ev = [e for e in t.events if e.kind == "acted"]
    assert (ev[0].result.value, ev[0].action, ev[0].defaulted, ev[0].refused) == ("done", "idle", True, "NO_GRACE")
    assert not ev[1].defaulted and ev[2].defaulted and ev[2].refused is None
    t = GAME.settle(s, {0: {"type": "fly"}, 1: None}, ScriptRng())
    ev = [e for e in t.events if e.kind == "acted"]
    assert (ev[0].defaulted, ev[0].refused) == (True, "MALFORMED_ACTION")
    assert ev[1].defaulted and ev[1].result.value == "done" and ev[1].refused is None


def test_names_come_from_the_seats():
    """D⑦ 保留小组三人姓名 — reports and boards use each seat's name."""
    assert [p.name for p in new_game(1).players] == list(NAMES)


def test_damage_output_counts_the_full_blow_even_past_zero():
    """D⑦ 输出伤害 — each hit counts at its nominal amount (hits of one round land together)."""
    s = shape(new_game(1), opp_hp=(1,))
    t = settle(s, {0: Assassinate(target=0), 1: Poison(target=0)}, rolls(0, 0))
    assert _scores(t) == {0: 3.0 + 30 + 57, 1: 2.0 + 30 + 57, 2: 30.0 + 57}
