"""The evil team: 安陵容, 华妃, 皇后, 宠妃, 苏培盛 and the demons 皇上, 太上皇, 女皇."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Viewer
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import (
    ANLINGRONG,
    CHONGFEI,
    GUOJUNWANG,
    HUAFEI,
    HUANGHOU,
    HUANGSHANG,
    JINGFEI,
    JINXI,
    NVHUANG,
    QIFEI,
    SUPEISHENG,
    TAISHANGHUANG,
    WENTAIYI,
    ZHENHUAN,
    Alignment,
)
from chalicelib.games.zhenhuan.state import Phase, StatusKind

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
    proposed,
    public,
    started,
    step,
)

# --- 安陵容 -----------------------------------------------------------------------------------------
RA = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, ANLINGRONG, HUANGSHANG, JINGFEI]


def test_anlingrong_poisons_only_women_until_the_next_dusk() -> None:
    """每晚可以对一名女性玩家使用香粉下毒。中毒到下一个黄昏。- 下毒持续一天，每个夜晚的最开始，会清除上一个夜晚的毒。"""
    state = step(started(RA), "anlingrong", 0, None)
    assert has(state, 0, StatusKind.POISONED)
    state = night(state)
    assert has(state, 0, StatusKind.POISONED), "still poisoned through the day"
    assert not has(dusk(state), 0, StatusKind.POISONED)
    man = step(started(RA), "anlingrong", 2, None)
    assert not has(man, 2, StatusKind.POISONED), "香粉 works on women only (果郡王 is a man)"


def test_anlingrong_curse_kills_at_the_start_of_the_next_night() -> None:
    """夜晚选择一名玩家诅咒，该玩家在下个夜晚开始时死去。- 诅咒会自动到下一个夜晚的最开始生效，目标自动死亡。"""
    state = night(step(started(RA), "anlingrong", None, 2))
    assert state.seats[2].alive and has(state, 2, StatusKind.CURSED)
    state = dusk(state)
    assert not state.seats[2].alive
    assert "3号死亡（受安陵容诅咒）" in host_lines(state), "the record says which death is the curse's"
    assert [s["alive"] for s in public(state)["seats"]][2], "the public learns deaths at dawn"
    state = night(state)
    assert [e for e in state.log if e.kind == "announce"][-1].deaths == (2,)


def test_poison_and_curse_on_one_player_lift_the_poison_before_the_curse_kills() -> None:
    """（两个技能可以在同一夜使用）如果下毒&诅咒同时对一个人释放，则下一个夜晚，会先解除下毒状态，然后诅咒致人死亡。"""
    state = dusk(night(step(started(RA), "anlingrong", 6, 6)))
    assert not state.seats[6].alive and not has(state, 6, StatusKind.POISONED)
    state = pass_until(state, "jingfei")
    assert current_view(state).disabled is None and current_view(state).impaired == ()


def test_impaired_anlingrong_neither_poisons_nor_curses() -> None:
    """DECISIONS #5: Poisoned or drunk abilities silently fail (香粉 and 诅咒)."""
    state = act(started(RA), type="set_status", seat=4, status="drunk")
    state = step(state, "anlingrong", 0, 2)
    assert not has(state, 0, StatusKind.POISONED) and not has(state, 2, StatusKind.CURSED)


# --- 华妃 ------------------------------------------------------------------------------------------
RH = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]


def test_huafei_mark_reminds_the_storyteller_when_the_player_nominates() -> None:
    """每晚可赐一名玩家一丈红，被赐予一丈红的玩家如果第二天白天发起提名则会死亡。- 死亡不会干扰正常的白天流程。
    - 发起提名后，玩家不会自动死亡，需要说书人手动使用白天「死亡」按钮操作。"""
    state = night(started(RH), {"huafei": (1,)})
    state = act(state, type="nominate", nominator=1, nominee=5)
    assert state.seats[1].alive and [(r.seat, r.press) for r in state.day.alerts if "一丈红" in r.text] == [(1, "kill")]
    assert [a.seat for a in GAME.view(state, Viewer.host()).grimoire.alerts] == [1]
    state = act(state, type="kill", seat=1)
    # done once she is dead: the storyteller is no longer told to press 「死亡」 (the log keeps the line)
    assert GAME.view(state, Viewer.host()).grimoire.alerts == ()
    state = act(state, type="vote", votes=[0, 2, 3, 6])
    assert not state.seats[1].alive and state.day.block == 5
    assert not has(dusk(state), 1, StatusKind.MARKED), "the mark lasts until the next dusk"


def test_impaired_huafei_gives_no_mark() -> None:
    """DECISIONS #5: Poisoned or drunk abilities silently fail (一丈红)."""
    state = act(started(RH), type="set_status", seat=4, status="poisoned")
    state = night(state, {"huafei": (1,)})
    assert not has(state, 1, StatusKind.MARKED)
    assert not act(state, type="nominate", nominator=1, nominee=5).day.alerts


# --- 皇后 ------------------------------------------------------------------------------------------
RQ = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG, QIFEI]


def test_huanghou_step_is_greyed_while_huangshang_lives() -> None:
    """当夜间的「皇后」行动按钮没有变灰，则代表皇后可以变为女皇。"""
    state = pass_until(night2(RQ), "huanghou")
    assert current_view(state).disabled == "不能变为女皇：皇上仍在世"


def test_huanghou_becomes_nvhuang_when_huangshang_dies_with_five_alive() -> None:
    """皇上死亡时，场上玩家大于等于5人存活，且之前无女皇。皇后会变为女皇。"""
    state = act(night(started(RQ)), type="execute", seat=5)
    assert state.seats[4].role == NVHUANG and state.phase is Phase.DAY
    state = pass_until(dusk(state), "huanghou")
    assert current_view(state).disabled is None and current_view(state).actor == 4
    state = step(state, "huanghou")
    assert "女皇" in infos(state, 4)[-1].text
    assert current(step(state, "nvhuang", 1)) is not None


def test_huanghou_does_not_succeed_with_fewer_than_five_alive() -> None:
    """变身条件为：皇上死亡时当前存活玩家大于等于5人 — DECISIONS #8: counted just before his death,
    皇上 included: four alive with him is not enough."""
    state = night(started([JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG, ZHENHUAN]))
    state = act(act(state, type="kill", seat=0), type="kill", seat=5)
    state = act(state, type="execute", seat=4)
    assert proposed(state) is Alignment.GOOD
    assert state.seats[3].role == HUANGHOU


def test_huanghou_succeeds_with_five_alive_counting_huangshang() -> None:
    """DECISIONS #8: "皇上死亡时，场上玩家大于等于5人存活" counts the living players at the moment just
    before 皇上's death, 皇上 included: with five alive and 皇上 executed, 皇后 succeeds."""
    state = act(night(started([JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG])), type="execute", seat=4)
    assert state.seats[3].role == NVHUANG and state.end is None


def test_huanghou_does_not_succeed_after_a_nvhuang_existed() -> None:
    """变身条件为：…当前女皇 (no 女皇 before): 甄嬛 became 女皇 first."""
    state = step(night2(RQ), "huangshang", 0)
    state = night(step(state, "zhenhuan"))
    assert state.seats[0].role == NVHUANG and state.seats[4].role == HUANGHOU
    assert "本局已有过女皇" in current_view(pass_until(dusk(state), "huanghou")).disabled


@pytest.mark.parametrize("status", ["poisoned", "drunk"])
def test_impaired_huanghou_does_not_succeed(status: str) -> None:
    """皇后不能毒醉。"""
    state = act(night(started(RQ)), type="set_status", seat=4, status=status)
    state = act(state, type="execute", seat=5)
    assert proposed(state) is Alignment.GOOD


def test_huanghou_needs_huangshang_not_taishanghuang() -> None:
    """变身条件为：…本局游戏有皇上;皇上死亡"""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, TAISHANGHUANG, QIFEI]
    assert current_view(pass_until(night2(roles), "huanghou")).disabled == "不能变为女皇：本局没有皇上"
    state = act(night(started(roles)), type="execute", seat=5)
    assert proposed(state) is Alignment.GOOD



def test_only_a_game_with_huanghou_logs_why_she_did_not_succeed() -> None:
    """皇上's death in a game without 皇后 says nothing of a succession (there was none to have); with 皇后
    in the game the storyteller reads why she did not become 女皇."""
    without = act(night(started([ZHENHUAN, JINXI, GUOJUNWANG, HUANGSHANG, ANLINGRONG])), type="execute", seat=3)
    assert not any("皇后" in line for line in host_lines(without))
    assert without.succession_refused == "皇上死亡时本局没有皇后"
    dead_queen = act(night(started([ZHENHUAN, JINXI, GUOJUNWANG, HUANGSHANG, HUANGHOU])), type="kill", seat=4)
    assert "皇上死亡，皇后未变为女皇：皇后已死亡" in host_lines(act(dead_queen, type="execute", seat=3))
    few = act(night(started(RQ)), type="kill", seat=0)
    few = act(act(few, type="kill", seat=1), type="kill", seat=2)
    assert "皇上死亡，皇后未变为女皇：皇上死亡时存活玩家不足5人" in host_lines(act(few, type="execute", seat=5))

# --- 皇上 / 宠妃 ---------------------------------------------------------------------------------------
def test_huangshang_does_not_kill_on_the_first_night() -> None:
    """恶魔，…除第一天夜晚外，每晚均可以杀人"""
    with pytest.raises(IllegalAction):
        step(started(RH), "huangshang", 0)


def test_conversion_works_once_on_women_and_makes_an_evil_chongfei() -> None:
    """雨露均沾：可选择一名女性角色的玩家，该角色加入你的阵营变为宠妃。（全局仅限一次）- 宠妃为加入邪恶阵营。"""
    state = step(started(RH), "huangshang", None, 2)
    assert state.seats[2].role == GUOJUNWANG and "convert" not in state.seats[5].spent
    state = step(night2(RH), "huangshang", None, 1)
    assert state.seats[1].role == CHONGFEI and state.seats[1].alignment is Alignment.EVIL
    assert state.seats[1].original_role == JINXI
    # the grimoire (and the end's reveal) names what she was: 瑾汐姑姑 who became 宠妃
    grim = GAME.view(state, Viewer.host()).grimoire.seats[1]
    assert (grim.role_name, grim.original_role_name) == ("宠妃", "瑾汐姑姑")
    state = pass_until(dusk(night(state)), "huangshang")
    assert current_view(state).slots[1].allowed == ()


def test_a_conversion_that_may_be_tried_again_leaves_no_token_and_one_used_marks_its_target() -> None:
    """A reminder token marks who was chosen, even when the ability failed (rules §12) — but 雨露均沾
    tried on a man or a protected player is not used at all (「可再用」): no 「雨露均沾」 token on him, which
    would read as a 宠妃 made; the record says whom he tried. Used — on a woman, or by an impaired 皇上
    (spent, DECISIONS #5) — the token marks its target."""
    def tokens(state, seat: int) -> list[str]:
        return [r.token for r in GAME.view(state, Viewer.host()).grimoire.seats[seat].reminders]

    tried = step(started(RH), "huangshang", None, 2)
    assert "雨露均沾" not in tokens(tried, 2) and "convert" not in tried.seats[5].spent
    assert any("雨露均沾3号失败（非女性角色），可再用" in line for line in host_lines(tried))
    shielded = step(step(started(RH), "guojunwang", 1), "huangshang", None, 1)
    assert shielded.seats[1].role == JINXI and "雨露均沾" not in tokens(shielded, 1)
    made = step(night2(RH), "huangshang", None, 1)
    assert made.seats[1].role == CHONGFEI and "雨露均沾" in tokens(made, 1)
    drunk = step(act(started(RH), type="set_status", seat=5, status="drunk"), "huangshang", None, 2)
    assert "convert" in drunk.seats[5].spent and "雨露均沾" in tokens(drunk, 2)


def test_chongfei_pin_blocks_abilities_for_the_night_and_the_next_day() -> None:
    """每回合可以按住一个玩家，玩家本回合技能无法发动。不可连续按住同一个人。"""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, "taihou"]
    state = step(started(roles), "huangshang", None, 0)
    state = step(state, "chongfei", 1)
    assert "按住" in current_view(pass_until(state, "jinxi")).disabled
    state = night(state)
    assert has(state, 1, StatusKind.PINNED), "the pin lasts through the next day"
    state = night(dusk(state), {"chongfei": (6,)})
    state = act(state, type="nominate", nominator=2, nominee=3)
    state = act(state, type="vote", votes=[])
    state = act(state, type="force_execution", by=6, nominee=3)
    assert "force_execution" not in state.seats[6].spent and not state.day.proposals
    with pytest.raises(IllegalAction):
        step(dusk(state), "chongfei", 6)


def test_huangshang_self_kill_has_no_other_effect() -> None:
    """皇上 - 自杀无其他效果。"""
    state = night(step(night2(RH), "huangshang", 5))
    assert proposed(state) is Alignment.GOOD


# --- 太上皇 / 女皇 ---------------------------------------------------------------------------------------
RT = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, TAISHANGHUANG, QIFEI]


def test_taishanghuang_self_kill_passes_the_crown_to_the_storytellers_choice() -> None:
    """自杀，则会让位给上一个白天和说书人私聊过的玩家，成为下一任皇上（人选由说书人决定）
    - 太上皇自杀后，一名玩家会变成「皇上」，拥有皇上的技能。"""
    state = night(step(night2(RT), "taishanghuang", 5, 2))
    assert not state.seats[5].alive and state.phase is Phase.DAY
    heir = state.seats[2]
    assert heir.role == HUANGSHANG and heir.alignment is Alignment.EVIL and heir.spent == frozenset()
    assert [e.role for e in state.log if e.kind == "you_are" and e.seat == 2] == [GUOJUNWANG, HUANGSHANG]
    state = pass_until(dusk(state), "huangshang")
    assert current_view(state).slots[1].allowed, "the new 皇上 has 雨露均沾"


def test_taishanghuang_successor_only_and_always_on_a_self_kill() -> None:
    """太上皇自杀后，一名玩家会变成「皇上」 (人选由说书人决定): a self-kill needs the successor."""
    with pytest.raises(IllegalAction) as err:
        step(night2(RT), "taishanghuang", 1, 2)
    assert err.value.code == "SUCCESSOR_WITHOUT_SELF_KILL"
    with pytest.raises(IllegalAction) as err:
        step(night2(RT), "taishanghuang", 5)
    assert err.value.code == "SUCCESSOR_REQUIRED"


def test_nvhuang_kills_and_her_self_kill_has_no_other_effect() -> None:
    """女皇：每晚可以杀一个玩家。- 自杀无其他效果。"""
    state = act(night(started(RQ)), type="execute", seat=5)
    state = night(step(dusk(state), "nvhuang", 1))
    assert not state.seats[1].alive
    state = night(step(dusk(state), "nvhuang", 4))
    assert proposed(state) is Alignment.GOOD


# --- 苏培盛 ------------------------------------------------------------------------------------------
def test_supeisheng_jinxi_rule_is_the_storytellers_override() -> None:
    """（当场上有槿汐姑姑时，槿汐姑姑加入邪恶阵营）小程序不对瑾汐姑姑阵营的影响。若需要此规则说书人可自行让槿汐姑姑加入邪恶阵营。"""
    state = started([ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, SUPEISHENG, HUANGSHANG, QIFEI])
    assert state.seats[1].alignment is Alignment.GOOD
    state = act(state, type="set_alignment", seat=1, alignment="evil")
    assert state.seats[1].alignment is Alignment.EVIL and state.log[-1].override
    assert any("阵营为邪恶" in line for line in host_lines(state))


def test_female_only_abilities_skip_the_eunuch_and_the_physician() -> None:
    """注：以上，皇上的雨露均沾技能与安陵容的香粉技能所指“女性角色”为所有女性角色皆可，不包含太监太医。"""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, ANLINGRONG, HUANGSHANG, SUPEISHENG]
    state = step(started(roles), "anlingrong", 3, None)
    assert not has(state, 3, StatusKind.POISONED)
    state = step(state, "huangshang", None, 6, force=True)
    assert state.seats[6].role == SUPEISHENG and "convert" not in state.seats[5].spent
    state = step(dusk(night(state)), "huangshang", None, 3)
    assert state.seats[3].role == WENTAIYI
