"""Automatic information steps (issue #11, item 2): what BotC tells players after a change, as steps of
the night plan with prompts. Seed: 「7人及以上，爪牙和恶魔互知，恶魔知道三个不在场的角色。」 and
「5-6人游戏时，爪牙和恶魔不知道对方是谁。」"""

from __future__ import annotations

import pytest

from chalicelib.core.game import Viewer
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import (
    GUOJUNWANG,
    HUAFEI,
    HUANGHOU,
    HUANGSHANG,
    JINXI,
    NVHUANG,
    QIFEI,
    SUPEISHENG,
    TAISHANGHUANG,
    WENTAIYI,
    ZHENHUAN,
)  # fmt: skip
from chalicelib.games.zhenhuan.state import GameState

from .helpers import (
    act,
    current,
    current_view,
    dusk,
    infos,
    night,
    night2,
    pass_until,
    started,
    step,
    visited,
)


def _heir() -> GameState:
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, TAISHANGHUANG, QIFEI]
    return dusk(night(step(night2(roles), "taishanghuang", 5, 2)))


def _zhenhuan() -> GameState:
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
    return dusk(night(step(step(night2(roles), "huangshang", 0), "zhenhuan")))


def _empress() -> GameState:
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG, HUAFEI]
    return dusk(act(night(started(roles)), type="execute", seat=5))


@pytest.mark.parametrize(("make", "demon"), [(_heir, 2), (_zhenhuan, 0), (_empress, 4)], ids=["heir", "zhenhuan", "huanghou"])
def test_a_new_demon_learns_her_minions_and_bluffs_and_the_minions_learn_her(make, demon: int) -> None:  # type: ignore[no-untyped-def]
    """Issue #11: a new demon learns her minions and three bluffs (太上皇's heir, 甄嬛 or 皇后 as 女皇);
    minions learn the new demon."""
    state = pass_until(make(), "new_demon_info")
    view = current_view(state)
    assert view.prompt.startswith("唤醒新的恶魔") and "伪装" not in view.hint and "不在场的角色" in view.hint
    state = step(state, "new_demon_info")
    (info,) = [e for e in infos(state, demon) if e.step == "new_demon_info"]
    minions = tuple(s.seat for s in state.seats if s.role in (HUAFEI, HUANGHOU) and s.alive and s.seat != demon)
    assert info.value == minions and "不在场的角色" in info.text
    assert current(state) == "new_minion_info"
    state = step(state, "new_minion_info")
    for m in minions:
        assert infos(state, m)[-1].value == (demon,) and "新的恶魔" in infos(state, m)[-1].text
    assert not state.owed and "new_demon_info" not in visited(dusk(night(state)))


def test_a_new_chongfei_learns_her_huangshang_the_same_night() -> None:
    """Issue #11: a new 宠妃 learns her 皇上 (right after 皇上's step)."""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
    state = step(night2(roles), "huangshang", None, 1)
    assert state.seats[1].role == "chongfei" and current(state) == "chongfei_info"
    state = step(state, "chongfei_info")
    assert infos(state, 1)[-1].value == (5,) and infos(state, 1)[-1].text == "你的皇上是6号"


def test_a_converted_player_learns_her_new_alignment_at_the_night_s_step() -> None:
    """Issue #11: a converted player learns her new alignment (苏培盛's 瑾汐: 「若需要此规则说书人可自行让
    槿汐姑姑加入邪恶阵营」); until then her phone shows what she was told."""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, SUPEISHENG, HUANGSHANG, QIFEI]
    state = act(started(roles), type="set_alignment", seat=1, alignment="evil")
    assert GAME.view(state, Viewer.player(1)).me.alignment == "good"
    state = pass_until(state, "alignment_info")
    assert "你现在属于邪恶阵营" in current_view(state).hint
    state = step(state, "alignment_info")
    me = GAME.view(state, Viewer.player(1)).me
    assert me.alignment == "evil" and me.info[-1].kind == "you_are"


def test_passing_an_info_step_drops_what_was_owed() -> None:
    """The storyteller is the authority (DECISIONS #6): passing the step tells nobody."""
    state = step(pass_until(_heir(), "new_demon_info"), "new_demon_info", skip=True)
    assert not [e for e in infos(state, 2) if e.step == "new_demon_info"]
    assert current(state) == "new_minion_info"


def test_no_evil_info_in_five_or_six_player_games() -> None:
    """5-6人游戏时，爪牙和恶魔不知道对方是谁: a new demon is not told her minions, nor they her."""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, HUAFEI, TAISHANGHUANG, QIFEI]
    state = dusk(night(step(night2(roles), "taishanghuang", 4, 2)))
    assert state.seats[2].role == HUANGSHANG and not state.owed
    assert "new_demon_info" not in visited(state) and "new_minion_info" not in visited(state)
    empress = [ZHENHUAN, JINXI, GUOJUNWANG, HUANGHOU, HUANGSHANG, QIFEI]
    state = act(night(started(empress)), type="execute", seat=4)
    assert state.seats[3].role == NVHUANG and not state.owed
