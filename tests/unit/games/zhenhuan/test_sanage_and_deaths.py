"""三阿哥's touch, and the roles that live around death: 年羹尧, 叶澜依, 孙答应 and 狂徒."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan.roles import (
    CHONGFEI,
    DUNQINWANG,
    GUOJUNWANG,
    HUAFEI,
    HUANGSHANG,
    JINXI,
    KUANGTU,
    LONGYUE,
    NIANGENGYAO,
    QIFEI,
    SANAGE,
    SUNDAYING,
    TAIHOU,
    WENTAIYI,
    YELANYI,
    ZHENHUAN,
    Alignment,
)
from chalicelib.games.zhenhuan.state import StatusKind

from .helpers import (
    act,
    current,
    current_view,
    dusk,
    has,
    host_lines,
    infos,
    night,
    night2,
    pass_until,
    public,
    started,
    step,
    visited,
)


# --- 三阿哥 --------------------------------------------------------------------------------------------
def test_sanage_touches_only_the_first_living_neighbours() -> None:
    """除首夜外每个晚上可以染指相邻的存活玩家，即左右手边各第一个存活玩家。"""
    roles = [JINXI, SANAGE, WENTAIYI, ZHENHUAN, TAIHOU, HUAFEI, HUANGSHANG]
    state = started(roles)
    assert "sanage" not in visited(state), "not on the first night"
    state = act(night(state), type="kill", seat=2)
    state = pass_until(dusk(state), "sanage")
    assert current_view(state).slots[0].allowed == (0, 3)


@pytest.mark.parametrize(
    ("target_role", "success"),
    [
        (JINXI, True),
        (QIFEI, False),
        (TAIHOU, False),
        (LONGYUE, False),
        (HUAFEI, False),
        (WENTAIYI, False),
        (GUOJUNWANG, False),
    ],
)
def test_sanage_success_and_failure(target_role: str, success: bool) -> None:
    """染指失败：当染指（男人 太后，齐妃（他妈），胧月，女性爪牙） 视为此次染指失败。染指成功：除以上不可染指角色，选择其他角色都判定为成功"""
    roles = [
        target_role,
        SANAGE,
        DUNQINWANG,
        YELANYI,
        KUANGTU,
        HUAFEI if target_role != HUAFEI else JINXI,
        HUANGSHANG,
    ]
    state = step(night2(roles), "sanage", 0)
    assert infos(state, 1)[-1].value is success
    assert night(state).seats[1].alive


@pytest.mark.parametrize("target_role", [ZHENHUAN, "nvhuang"])
def test_sanage_touching_zhenhuan_or_nvhuang_dies(target_role: str) -> None:
    """染指女皇和甄嬛大逆不道，立即被处死。- 如果染指到女皇，则会被处死，会自动死亡，无需说书人操作。"""
    roles = [JINXI, SANAGE, ZHENHUAN, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
    state = night2(roles)
    if target_role == "nvhuang":
        state = act(state, type="set_role", seat=2, role="nvhuang")
    state = step(state, "sanage", 2)
    assert infos(state, 1)[-1].value is False
    state = night(state)
    assert not state.seats[1].alive


def test_sanage_caught_with_huangshang_the_same_night_dies_and_no_restoration() -> None:
    """若和皇上在同一晚染指同一名玩家，被视为捉奸立即处死。- 如果当晚被捉奸，则会自动死亡。无需说书人操作操作，且宠妃不会变为原来的角色。"""
    roles = [JINXI, SANAGE, WENTAIYI, DUNQINWANG, HUAFEI, HUANGSHANG, QIFEI]
    state = step(night2(roles), "huangshang", None, 0)
    assert state.seats[0].role == CHONGFEI
    state = step(state, "sanage", 0)
    assert infos(state, 1)[-1].value is False
    state = night(state)
    assert not state.seats[1].alive
    assert state.seats[0].role == CHONGFEI and state.seats[0].alignment is Alignment.EVIL


def test_sanage_is_not_caught_at_a_conversion_that_failed() -> None:
    """若和皇上在同一晚染指同一名玩家，被视为捉奸 — decision: only an effective 雨露均沾 counts; a poisoned
    皇上's attempt took nobody, so 三阿哥's touch on the same woman is an ordinary success."""
    roles = [JINXI, SANAGE, WENTAIYI, DUNQINWANG, HUAFEI, HUANGSHANG, QIFEI]
    state = act(night2(roles), type="set_status", seat=5, status="poisoned")
    state = step(state, "huangshang", None, 0)
    assert state.seats[0].role == JINXI and "convert" in state.seats[5].spent
    state = step(state, "sanage", 0)
    assert infos(state, 1)[-1].value is True
    assert night(state).seats[1].alive


def test_sanage_restores_an_earlier_chongfei() -> None:
    """若成功染指曾被皇上雨露均沾的玩家，可以让该玩家恢复原始的阵营与角色。"""
    roles = [JINXI, SANAGE, WENTAIYI, DUNQINWANG, HUAFEI, HUANGSHANG, QIFEI]
    state = step(started(roles), "huangshang", None, 0)
    state = step(dusk(night(state)), "sanage", 0)
    assert infos(state, 1)[-1].value is True
    assert state.seats[0].role == JINXI and state.seats[0].alignment is Alignment.GOOD


@pytest.mark.parametrize("status", ["poisoned", "drunk"])
def test_impaired_sanage_touch_has_no_effect(status: str) -> None:
    """如果当前为中毒/醉状态，则染指实际不会生效，也就不会被捉奸或处死。"""
    roles = [JINXI, SANAGE, ZHENHUAN, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
    state = act(night2(roles), type="set_status", seat=1, status=status)
    state = night(step(state, "sanage", 2))
    assert state.seats[1].alive


def test_sanage_touch_on_a_protected_player_fails() -> None:
    """被保护的人，免刀免睡(即染指与雨露均沾)。"""
    roles = [JINXI, SANAGE, ZHENHUAN, GUOJUNWANG, HUAFEI, HUANGSHANG, QIFEI]
    state = step(night2(roles), "guojunwang", 2)
    state = night(step(state, "sanage", 2))
    assert state.seats[1].alive and infos(state, 1)[-1].value is False


# --- 年羹尧 --------------------------------------------------------------------------------------------
RN = [NIANGENGYAO, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI, YELANYI]


def test_niangengyao_killed_at_night_takes_one_player_through_protection() -> None:
    """当你晚上死亡时，当晚可以带走一名玩家。（全局仅一次）- 被带走的玩家会变为死亡状态。- 果郡王的守护，不可防御此技能。"""
    state = step(night2(RN), "guojunwang", 1)
    state = step(state, "huangshang", 0)
    state = night(step(state, "niangengyao", 1))
    assert not state.seats[0].alive and not state.seats[1].alive
    assert "take" in state.seats[0].spent


def test_niangengyao_killed_on_the_first_night_takes_one_player_that_night() -> None:
    """当你晚上死亡时，当晚可以带走一名玩家 — on the first night too, when the storyteller's 「死亡」 kills him."""
    state = step(act(started(RN), type="kill", seat=0), "niangengyao", 3)
    assert not state.seats[3].alive
    assert night(state).log[-1].deaths == (0, 3)


def test_niangengyao_executed_by_day_takes_nobody() -> None:
    """只有在夜间死亡，才能发动技能。"""
    state = act(night(started(RN)), type="execute", seat=0)
    state = pass_until(dusk(state), "yelanyi")
    state = act(state, type="night_step", step="yelanyi", skip=True)
    assert current(state) != "niangengyao"


def test_pinned_niangengyao_cannot_take() -> None:
    """如果被按住，则技能无法发动。"""
    state = act(night2(RN), type="set_status", seat=0, status="pinned")
    state = step(state, "huangshang", 0)
    assert "按住" in current_view(pass_until(state, "niangengyao")).disabled


@pytest.mark.parametrize("status", ["poisoned", "drunk"])
def test_impaired_niangengyao_chooses_but_nobody_dies_and_it_is_spent(status: str) -> None:
    """如果为中毒/醉酒，会让玩家选择发动目标，但是实际目标不会死亡。"""
    state = act(night2(RN), type="set_status", seat=0, status=status)
    state = step(state, "huangshang", 0)
    state = night(step(state, "niangengyao", 1))
    assert state.seats[1].alive and "take" in state.seats[0].spent


def test_niangengyao_revived_by_yelanyi_can_take_again() -> None:
    """如果被叶澜依复活，则下次年羹尧晚上死亡后，还可以发动。"""
    state = step(night2(RN), "huangshang", 0)
    state = night(step(state, "niangengyao", 1))
    state = night(step(dusk(state), "yelanyi", 0))
    assert state.seats[0].alive and state.seats[0].spent == frozenset()
    state = step(dusk(state), "huangshang", 0)
    assert current_view(pass_until(state, "niangengyao")).disabled is None


# --- 叶澜依 --------------------------------------------------------------------------------------------
def test_yelanyi_revives_a_dead_player_at_dawn_and_it_is_announced() -> None:
    """夜晚祝福一名死亡玩家，白天该玩家复活并重置其技能。（全局仅一次）- 天亮会告知几号玩家复活。"""
    state = act(night(started(RN)), type="execute", seat=1)
    state = night(step(dusk(state), "yelanyi", 1))
    assert state.seats[1].alive
    announce = [e for e in state.log if e.kind == "announce"][-1]
    assert announce.revived == (1,) and "2号复活" in announce.text
    assert "叶澜依" not in announce.text
    state = dusk(state)
    assert current_view(pass_until(state, "yelanyi")).disabled == "技能已用过"


def test_yelanyi_choosing_a_living_player_spends_the_ability() -> None:
    """能自行选择玩家。如果选中未死亡的玩家，技能也算用过。"""
    state = night(step(night2(RN), "yelanyi", 1))
    assert "revive" in state.seats[7].spent and state.seats[1].alive


def test_yelanyi_choosing_a_dead_demon_fails() -> None:
    """如果选中了已死亡的恶魔，技能会失效。因不允许两个同阵营恶魔同场，系统默认被复活恶魔死亡。"""
    state = act(night(started(RN)), type="set_alive", seat=5, alive=False)
    assert state.end.winner == "good"
    roles = [NIANGENGYAO, JINXI, GUOJUNWANG, WENTAIYI, "huanghou", HUANGSHANG, QIFEI, YELANYI]
    state = act(night(started(roles)), type="execute", seat=5)
    assert state.seats[4].role == "nvhuang"
    state = night(step(dusk(state), "yelanyi", 5))
    assert not state.seats[5].alive and "revive" in state.seats[7].spent


@pytest.mark.parametrize("status", ["poisoned", "drunk"])
def test_impaired_yelanyi_revives_nobody_and_is_spent(status: str) -> None:
    """毒/醉后发动技能，无法复活玩家，且技能算用过。"""
    state = act(night(started(RN)), type="execute", seat=1)
    state = act(dusk(state), type="set_status", seat=7, status=status)
    state = night(step(state, "yelanyi", 1))
    assert not state.seats[1].alive and "revive" in state.seats[7].spent


# --- 孙答应 / 狂徒 ------------------------------------------------------------------------------------------
RS = [SUNDAYING, KUANGTU, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, JINXI]


def test_kuangtu_may_die_any_time_by_the_death_button() -> None:
    """随时可能死亡。由说书人决定。- 不论夜晚或者白天，当说书人决定让狂徒死亡时，可以使用「死亡」按钮来执行。"""
    day = night(started(RS))
    assert not act(day, type="kill", seat=1).seats[1].alive
    at_night = act(started(RS), type="kill", seat=1)
    assert not at_night.seats[1].alive, "dead at once (DECISIONS #9)"
    assert public(at_night)["seats"][1]["alive"], "the public learns it at dawn"
    day = night(at_night)
    assert not public(day)["seats"][1]["alive"] and day.log[-1].deaths == (1,)


def test_kuangtu_dead_on_the_first_night_takes_sundaying_that_night() -> None:
    """狂徒死亡，孙答应会在夜晚的对应行动时死亡; 狂徒: 不论夜晚或者白天…可以使用「死亡」按钮 — on the first
    night too: her step is in the first night's order, so she does not wait for the second."""
    state = step(act(started(RS), type="kill", seat=1), "sundaying")
    assert not state.seats[0].alive and has(state, 5, StatusKind.DRUNK)
    day = night(state)
    assert day.log[-1].deaths == (0, 1), "both announced at the first dawn"


def test_sundaying_dies_at_her_step_after_kuangtu_and_all_are_drunk() -> None:
    """当狂徒死亡，你也会死亡；你死亡后，导致全场醉酒。- 狂徒死亡，孙答应会在夜晚的对应行动时死亡。"""
    state = act(night(started(RS)), type="kill", seat=1)
    state = step(dusk(state), "sundaying")
    assert not state.seats[0].alive, "dead at once at her step (DECISIONS #9)"
    assert all(has(state, s, StatusKind.DRUNK) for s in (2, 3, 4, 5, 6)), "全场醉酒 includes the demon"
    state = night(state)
    assert not state.seats[0].alive and has(state, 5, StatusKind.DRUNK), "through the next day"
    assert any("全场醉酒" in line for line in host_lines(state))
    assert not has(dusk(state), 5, StatusKind.DRUNK), "DECISIONS #10: the rest of that night and the next day"


def test_impaired_sundaying_survives_tonight_but_dies_the_next_night() -> None:
    """若孙答应中毒/醉酒，则本晚不会死亡。但是下一个夜晚依旧会判断，如果状态正常，则依旧会死亡。全场醉酒。"""
    state = act(night(started(RS)), type="kill", seat=1)
    state = act(dusk(state), type="set_status", seat=0, status="poisoned")
    assert "本晚不会死亡" in current_view(pass_until(state, "sundaying")).disabled
    state = night(state)
    assert state.seats[0].alive
    state = night(step(dusk(state), "sundaying"))
    assert not state.seats[0].alive and has(state, 2, StatusKind.DRUNK)


def test_sundaying_dying_for_any_reason_makes_everyone_drunk() -> None:
    """孙答应本身因任何原因死亡，都会立即触发全场醉酒。"""
    state = act(night(started(RS)), type="execute", seat=0)
    assert all(has(state, s, StatusKind.DRUNK) for s in range(1, 7))


def test_night_kill_of_an_already_dead_player_is_refused() -> None:
    """夜晚「死亡」按钮: a player killed tonight is dead already (DECISIONS #9)."""
    state = act(started(RS), type="kill", seat=1)
    with pytest.raises(IllegalAction):
        act(state, type="kill", seat=1)
