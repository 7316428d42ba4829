"""甄嬛's counter-kill and the information roles: 瑾汐姑姑, 温太医, 玉娆, 浣碧, 敬妃 (and 果郡王's guard)."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan.events import SeatRole
from chalicelib.games.zhenhuan.roles import (
    ANLINGRONG,
    GUOJUNWANG,
    HUAFEI,
    HUANBI,
    HUANGHOU,
    HUANGSHANG,
    JINGFEI,
    JINXI,
    NIANGENGYAO,
    NVHUANG,
    QIFEI,
    SANAGE,
    SUPEISHENG,
    TAISHANGHUANG,
    WENTAIYI,
    YURAO,
    ZHENHUAN,
    Alignment,
)
from chalicelib.games.zhenhuan.state import Phase

from .helpers import (
    act,
    current,
    current_view,
    dusk,
    host_lines,
    infos,
    night,
    night2,
    pass_until,
    started,
    step,
)

R7 = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]


# --- 甄嬛 ------------------------------------------------------------------------------------------
def test_zhenhuan_killed_by_huangshang_counter_kills_and_becomes_nvhuang() -> None:
    """被动:当你在夜晚被皇上皇后杀死, 你可以反杀成女皇。 / 若杀甄嬛成功，则会被反杀"""
    state = step(night2(R7), "huangshang", 0)
    assert current(state) == "zhenhuan" and current_view(state).disabled is None
    state = step(state, "zhenhuan")
    state = night(state)
    assert (
        state.seats[0].role == NVHUANG and state.seats[0].alignment is Alignment.EVIL and state.seats[0].alive
    )
    assert not state.seats[5].alive
    assert state.phase is Phase.DAY, "a new demon exists: the game goes on"
    assert [e for e in state.log if e.kind == "you_are" and e.seat == 0][-1].role == NVHUANG


def test_zhenhuan_may_decline_the_counter_kill() -> None:
    """你可以反杀成女皇 (may): skipping the step means she simply dies."""
    state = step(night2(R7), "huangshang", 0)
    state = night(step(state, "zhenhuan", skip=True))
    assert not state.seats[0].alive and state.seats[5].alive


def test_protected_zhenhuan_does_not_counter_kill() -> None:
    """如果甄嬛被保护，则不会触发反杀。"""
    state = step(night2(R7), "guojunwang", 0)
    state = step(state, "huangshang", 0)
    assert current(state) == "zhenhuan" and "未被" in current_view(state).disabled
    state = night(state)
    assert state.seats[0].alive and state.seats[0].role == ZHENHUAN and state.seats[5].alive


@pytest.mark.parametrize("status", ["poisoned", "drunk", "pinned"])
def test_impaired_zhenhuan_does_not_counter_kill(status: str) -> None:
    """如果甄嬛被毒、醉酒、宠妃按住，则不会触发反杀。"""
    state = act(night2(R7), type="set_status", seat=0, status=status)
    state = step(state, "huangshang", 0)
    assert "不会反杀" in current_view(state).disabled
    state = night(state)
    assert not state.seats[0].alive and state.seats[5].alive


def test_taishanghuang_kill_does_not_trigger_the_counter_kill() -> None:
    """当你在夜晚被皇上皇后杀死 — 太上皇 is neither."""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, TAISHANGHUANG, QIFEI]
    state = step(night2(roles), "taishanghuang", 0)
    assert current(state) == "zhenhuan" and current_view(state).disabled
    assert not night(state).seats[0].alive


def test_empress_who_was_huanghou_is_counter_killed_by_zhenhuan() -> None:
    """女皇若是皇后选择杀甄嬛成功，则会被甄嬛反杀。甄嬛成为新女皇。"""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG, QIFEI]
    state = act(night(started(roles)), type="execute", seat=5)
    assert state.seats[4].role == NVHUANG
    state = step(dusk(state), "huanghou")
    state = step(state, "nvhuang", 0)
    state = night(step(state, "zhenhuan"))
    assert state.seats[0].role == NVHUANG and not state.seats[4].alive
    assert state.phase is Phase.DAY


# --- 瑾汐姑姑 ----------------------------------------------------------------------------------------
def test_jinxi_learns_whether_a_demon_is_among_two_players_herself_included() -> None:
    """每晚选择场上两名玩家，可得知玩家中是否有恶魔乔装。- 夜晚选择两名玩家验证其身份，可以选择自己。"""
    state = step(started(R7), "jinxi", 1, 5)
    assert infos(state, 1)[-1].value is True and "有恶魔" in infos(state, 1)[-1].text
    state = night2(R7, {"jinxi": (1, 2)})
    assert [e.value for e in infos(state, 1)] == [False]
    with pytest.raises(IllegalAction):
        step(started(R7), "jinxi", 1, 1)


def test_storyteller_answer_differing_from_truth_is_recorded_and_flagged() -> None:
    """DECISIONS #5: the storyteller may give any answer; what she gave is recorded."""
    state = step(started(R7), "jinxi", 0, 5, answer=False)
    assert infos(state, 1)[-1].value is False
    record = state.night.records[-1]
    assert record.truth is True and record.given is False
    assert state.log[-1].kind == "host" and state.log[-1].override


def test_the_book_names_whom_an_information_step_asked_about_and_what_was_said() -> None:
    """温太医：每晚可以查验一个人，得知其是否醉酒或者中毒 — by day, when he claims, the storyteller reads back
    whom he checked and what she told him: her record and her night plan name the seats, not a bare 是/否,
    and a false answer sits beside the truth."""
    state = step(started(R7), "jinxi", 0, 5, answer=False)
    line = host_lines(state)[-1]
    assert line.endswith("2号；告知：1号与6号之中没有恶魔（真实：1号与6号之中有恶魔）"), line
    assert state.night.records[-1].note == "告知：1号与6号之中没有恶魔（真实：1号与6号之中有恶魔）"
    state = step(state, "wentaiyi", 6)
    assert host_lines(state)[-1].endswith("4号；告知：7号未中毒也未醉酒"), host_lines(state)[-1]
    assert state.night.records[-1].note == "告知：7号未中毒也未醉酒"


def test_the_plan_keeps_what_was_told_beside_what_happened_when_they_differ() -> None:
    """三阿哥 and 玉娆 have their own note (what the touch or the bond did): when the storyteller tells
    something else (a lie, or false information to an impaired player), the plan's note says what she
    told too — by day she reads it back when the player claims; told the truth, the note stays as it was."""
    roles = [JINXI, SANAGE, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
    lied = step(night2(roles), "sanage", 0, answer=False)
    assert lied.night.records[-1].note.endswith("；告知：染指1号：失败（真实：染指1号：成功）"), lied.night.records[-1].note
    honest = step(night2(roles), "sanage", 0)
    assert "告知" not in honest.night.records[-1].note and honest.night.records[-1].note.startswith("染指1号：")


def test_a_chosen_status_reads_as_one_phrase_in_the_book() -> None:
    """华妃：每晚可赐一名玩家一丈红 / 果郡王：每晚可以保护除自己外一个人 — the storyteller's record reads
    「赐一丈红给4号」「保护1号」, not 「4号：一丈红」 after the actor's own 「5号：」."""
    state = step(started(R7), "huafei", 3)
    assert host_lines(state)[-1].endswith("」5号：赐一丈红给4号"), host_lines(state)[-1]
    state = step(state, "guojunwang", 0)
    assert host_lines(state)[-1].endswith("」3号：保护1号"), host_lines(state)[-1]
    assert state.night.records[-1].note == "保护1号"


# --- 果郡王 ------------------------------------------------------------------------------------------
def test_guojunwang_cannot_protect_himself_nor_the_same_player_twice_running() -> None:
    """每晚可以保护除自己外一个人。- 不可选择自己。- 不可连续保护同一个人。"""
    with pytest.raises(IllegalAction):
        step(started(R7), "guojunwang", 2)
    state = night2(R7, {"guojunwang": (0,)})
    state = step(state, "huafei")
    assert 0 not in current_view(pass_until(state, "guojunwang")).slots[0].allowed
    with pytest.raises(IllegalAction):
        step(state, "guojunwang", 0)


def test_protection_blocks_the_kill_and_the_conversion() -> None:
    """被保护的人，免刀免睡(即染指与雨露均沾)。"""
    state = step(night2(R7), "guojunwang", 1)
    state = step(state, "huangshang", 1, 1)
    state = night(state)
    assert state.seats[1].alive and state.seats[1].role == JINXI
    assert "convert" not in state.seats[5].spent, "a blocked 雨露均沾 may be tried again"


# --- 温太医 ------------------------------------------------------------------------------------------
def test_wentaiyi_learns_poisoned_or_drunk_from_the_first_night() -> None:
    """每晚可以查验一个人，得知其是否醉酒或者中毒 - 首夜会有行动，说书人告知其被查验者是否中毒或醉酒。"""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, ANLINGRONG, HUANGSHANG, QIFEI]
    state = step(started(roles), "anlingrong", 0, None)
    state = step(state, "wentaiyi", 0)
    assert infos(state, 3)[-1].value is True


def test_impaired_wentaiyi_is_flagged_and_may_be_told_anything() -> None:
    """如果温太医中毒/醉，可能会得知错误的信息。"""
    state = act(started(R7), type="set_status", seat=3, status="drunk")
    state = pass_until(state, "wentaiyi")
    assert current_view(state).impaired == ("drunk",)
    state = step(state, "wentaiyi", 6, answer=True)
    assert infos(state, 3)[-1].value is True
    assert state.night.records[-1].impaired and not state.log[-1].override


# --- 玉娆 --------------------------------------------------------------------------------------------
RY = [YURAO, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]


def test_yurao_learns_a_good_player_and_is_linked() -> None:
    """首夜得知一个善良玩家的身份。- 首夜会有行动，说书人告知玉娆善良玩家及其身份。"""
    with pytest.raises(IllegalAction):
        step(started(RY), "yurao", 4)  # 华妃 is evil
    state = step(started(RY), "yurao", 1)
    assert infos(state, 0)[-1].value == SeatRole(seat=1, role=JINXI)
    assert state.seats[0].link == 1


def test_yurao_pinned_on_the_first_night_learns_nothing_but_is_linked() -> None:
    """如果首夜玉娆被宠妃按住，则不会告知玉娆信息，但是绑定信息依旧客观存在。"""
    state = step(started(RY), "huangshang", None, 6)
    assert state.seats[6].role == "chongfei"
    state = step(state, "chongfei", 0)
    state = step(state, "yurao", 1)
    assert infos(state, 0) == [] and state.seats[0].link == 1


def test_yurao_dies_with_her_link_killed_by_the_demon_when_the_storyteller_confirms() -> None:
    """如果恶魔杀死了这名玩家，则你也会死亡。- 连带的死亡需要说书人使用夜晚「死亡」按钮来操作。"""
    state = step(night2(RY, {"yurao": (1,)}), "huangshang", 1)
    state = step(state, "yurao")
    state = night(state)
    assert not state.seats[0].alive and not state.seats[1].alive
    declined = night(step(step(night2(RY, {"yurao": (1,)}), "huangshang", 1), "yurao", skip=True))
    assert declined.seats[0].alive


def test_yurao_dies_only_from_a_demon_kill() -> None:
    """只有被恶魔杀死才会被连带死亡"""
    roles = [YURAO, NIANGENGYAO, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, JINXI]
    state = step(night2(roles, {"yurao": (6,)}), "huangshang", 1)
    state = step(state, "niangengyao", 6)
    assert (
        current(pass_until(state, "yurao")) == "yurao" and current_view(pass_until(state, "yurao")).disabled
    )
    state = night(state)
    assert not state.seats[6].alive and state.seats[0].alive


@pytest.mark.parametrize("status", ["poisoned", "drunk", "pinned"])
def test_impaired_yurao_does_not_die_with_her_link(status: str) -> None:
    """如果当前玉娆为中毒/醉/按住状态，也不会被连带死亡。"""
    state = act(night2(RY, {"yurao": (1,)}), type="set_status", seat=0, status=status)
    state = step(state, "huangshang", 1)
    assert "不会连带死亡" in current_view(pass_until(state, "yurao")).disabled
    assert night(state).seats[0].alive


# --- 浣碧 --------------------------------------------------------------------------------------------
def test_huanbi_learns_the_distance_from_the_demon_to_the_nearest_minion() -> None:
    """首夜，得知恶魔与爪牙的间距。- 首夜得知的是恶魔与最近的爪牙的间距。"""
    roles = [HUANBI, JINXI, HUAFEI, WENTAIYI, ZHENHUAN, HUANGSHANG, ANLINGRONG]
    state = step(started(roles), "huanbi")
    assert infos(state, 0)[-1].value == 1
    far = [HUANBI, JINXI, HUAFEI, WENTAIYI, ZHENHUAN, HUANGSHANG, QIFEI]
    assert infos(step(started(far), "huanbi"), 0)[-1].value == 3


# --- 敬妃 --------------------------------------------------------------------------------------------
def test_jingfei_counts_women_with_the_eunuch_and_the_physician() -> None:
    """首夜得知场上女性玩家数量(不排除太监、太医)。"""
    roles = [JINGFEI, JINXI, GUOJUNWANG, WENTAIYI, SUPEISHENG, HUANGSHANG, SANAGE]
    state = step(started(roles), "jingfei")
    assert infos(state, 0)[-1].value == 4  # 敬妃, 瑾汐, 温太医, 苏培盛


RJ = [JINGFEI, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, NIANGENGYAO]


def test_jingfei_killed_by_the_demon_learns_the_living_evil_players() -> None:
    """你当晚被杀死，可知道当前场上存活的邪恶阵营玩家。"""
    state = step(night2(RJ), "huangshang", 0)
    state = step(state, "jingfei")
    assert infos(state, 0)[-1].value == (4, 5)
    assert not night(state).seats[0].alive


def test_jingfei_taken_by_niangengyao_also_learns() -> None:
    """只要是夜晚被杀死，都能触发效果，包括被恶魔杀死、被年羹尧带走。"""
    state = step(night2(RJ), "huangshang", 6)
    state = step(state, "niangengyao", 0)
    assert current(state) == "jingfei" and not current_view(state).disabled
    assert infos(step(state, "jingfei"), 0)[-1].value == (4, 5)


def test_jingfei_not_killed_tonight_does_not_wake() -> None:
    """你当晚被杀死，可知道… — not killed tonight, the step is greyed."""
    state = pass_until(night2(RJ), "jingfei")
    assert current_view(state).disabled == "今晚未被杀死"
    assert any("敬妃" in line and "今晚未被杀死" in line for line in host_lines(night(state)))


def test_a_step_that_differs_by_night_is_named_for_tonight() -> None:
    """Decision (docs/rules/zhenhuan.md): 敬妃's and 玉娆's steps carry tonight's half of their text. Seed:
    "首夜得知场上女性玩家数量(不排除太监、太医)。" and "你当晚被杀死，可知道当前场上存活的邪恶阵营玩家。" """
    first = pass_until(started(RJ), "jingfei")
    assert current_view(first).label == "敬妃：得知女性玩家数"
    assert current_view(first).prompt == "唤醒敬妃，比出场上女性玩家的数量（含太监、太医）。"
    later = pass_until(night2(RJ), "jingfei")
    assert current_view(later).label == "敬妃：夜晚被杀时得知存活的邪恶玩家"
    assert "女性" not in (current_view(later).prompt or "")
    assert any(line.startswith("第2夜「敬妃：夜晚被杀时得知存活的邪恶玩家」不可用") for line in host_lines(night(later)))
