"""Rulings pinned after the 2026-12-01 rules review: 皇后's succession in a night with other deaths,
胧月's loss against later win checks, evil travellers learning the demon, departed travellers as
targets, and one demon kill a night."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Entrant
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.actions import TravellerDetails
from chalicelib.games.zhenhuan.enums import TellCard
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import (
    ANLINGRONG,
    GUOJUNWANG,
    HUAFEI,
    HUANBI,
    HUANGHOU,
    HUANGSHANG,
    JINGFEI,
    JINXI,
    KUANGTU,
    LONGYUE,
    NIANGENGYAO,
    NVHUANG,
    QIFEI,
    QIGUIREN,
    SANAGE,
    SUNDAYING,
    TRAVELLER,
    WENTAIYI,
    YURAO,
    ZHENHUAN,
    Alignment,
)  # fmt: skip
from chalicelib.games.zhenhuan.state import StatusKind

from .helpers import (
    act,
    current,
    current_view,
    dusk,
    has,
    new_state,
    night,
    night2,
    pass_until,
    step,
    to_day,
    told,
)

# --- DECISIONS #8: "If 孙答应's 全场醉酒 and 皇上's death fall on the same dawn, the succession is decided first."


def test_a_mass_drunk_from_earlier_the_same_night_does_not_stop_the_succession() -> None:
    """孙答应 dies of the curse at dusk; 皇上 dies later that night: both are announced at the same dawn,
    so 皇后 succeeds although 全场醉酒 already made her drunk (she stays drunk as 女皇)."""
    roles = [SUNDAYING, JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG, KUANGTU, ANLINGRONG]
    state = dusk(to_day(roles, {ANLINGRONG: (None, 0)}), execute_block=False)
    assert not state.seats[0].alive and has(state, 4, StatusKind.DRUNK)
    state = act(state, type="kill", seat=5)
    assert state.seats[4].role == NVHUANG and has(state, 4, StatusKind.DRUNK)
    state = night(state)
    assert state.log[-1].text.startswith("昨夜死亡：1号、6号") and state.end is None


def test_the_same_dawn_exception_does_not_cover_other_impairments() -> None:
    """皇后不能毒醉 — only 孙答应's same-dawn 全场醉酒 is set aside: poison still stops her."""
    roles = [SUNDAYING, JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG, KUANGTU, ANLINGRONG]
    state = dusk(to_day(roles, {ANLINGRONG: (None, 0)}), execute_block=False)
    state = act(state, type="set_status", seat=4, status="poisoned")
    state = act(state, type="kill", seat=5)
    assert state.seats[4].role == HUANGHOU and state.end is not None
    # and her greyed step says why, as decided when 皇上 died
    state = pass_until(state, "huanghou")
    assert current_view(state).disabled == "不能变为女皇：皇后中毒、醉酒或被按住"


def test_after_a_counter_kill_the_count_is_taken_when_huangshang_died_not_at_dawn() -> None:
    """DECISIONS #8: counts the living players at the moment just before 皇上's death, 皇上 included.
    甄嬛 counter-kills 皇上 with six alive; she dies again before dawn (三阿哥, 年羹尧) and only three
    are left by then: 皇后 still becomes 女皇 at dawn."""
    roles = [ZHENHUAN, SANAGE, HUANGHOU, HUANGSHANG, NIANGENGYAO, ANLINGRONG, JINXI, WENTAIYI]
    state = act(to_day(roles, {ANLINGRONG: (None, 4)}), type="execute", seat=6)
    state = step(dusk(state), HUANGSHANG, 0)  # 年羹尧 died of the curse at dusk; 皇上 kills 甄嬛
    state = step(state, ZHENHUAN)  # she counter-kills him: alive then 甄嬛, 三阿哥, 皇后, 皇上, 安陵容, 温太医
    state = step(step(state, SANAGE, 0), NIANGENGYAO, 0)  # 三阿哥 dies touching her; 年羹尧 takes her
    assert [s.seat for s in state.seats if s.alive] == [2, 5, 7]
    state = night(state)
    assert state.seats[2].role == NVHUANG and state.seats[0].role == ZHENHUAN


# --- seed 胧月: 若你因处决而死，则你所在阵营失败。 - 说书人在胧月被处决时直接结束本局游戏


def test_longyues_loss_is_not_replaced_by_a_later_win_check() -> None:
    roles = [LONGYUE, JINXI, GUOJUNWANG, WENTAIYI, ANLINGRONG, HUANGSHANG, YURAO]
    state = act(to_day(roles), type="execute", seat=0)
    lost = state.end
    assert lost is not None and lost.winner is Alignment.EVIL and "胧月" in lost.reason
    state = act(state, type="kill", seat=5)  # the demon dies too: good's win is detected ...
    assert state.end == lost
    state = act(state, type="set_alive", seat=5, alive=True)  # ... and the board changes back
    assert state.end == lost


# --- travellers (research/botc.md §3.2: "An evil Traveller learns who the Demon is.")
SIXTEEN = [
    JINXI, GUOJUNWANG, WENTAIYI, QIGUIREN, YURAO, HUANBI, JINGFEI, SANAGE, NIANGENGYAO, QIFEI, LONGYUE,
    ANLINGRONG, HUAFEI, HUANGHOU, HUANGSHANG, TRAVELLER,
]  # fmt: skip


def _demon_told(state, seat: int) -> list[tuple[int, ...]]:
    return [e.seats for e in told(state, seat) if e.kind == "tell" and e.card is TellCard.DEMON]


def test_an_evil_traveller_learns_the_demon_whenever_she_becomes_one() -> None:
    evil = {"identity": "游医", "ability": "只看不说", "alignment": "evil", "female": False}
    seated = act(act(new_state(SIXTEEN), type="set_traveller", seat=15, **evil), type="begin")
    assert _demon_told(seated, 15) == [(14,)]
    turned = act(act(new_state(SIXTEEN), type="begin"), type="set_traveller", seat=15, **evil)
    assert _demon_told(turned, 15) == []  # told with her new alignment, at the night's step
    turned = night(turned, {"minion_info": (), "demon_info": (), "alignment_info": ()})
    assert _demon_told(turned, 15) == [(14,)]
    good = act(new_state(SIXTEEN), type="begin")
    assert _demon_told(good, 15) == []
    assert all(_demon_told(seated, s) == [] for s in range(14))  # nobody else hears it
    day = night(act(new_state(SIXTEEN[:15]), type="begin"))
    details = TravellerDetails(identity="游医", ability="只看不说", alignment=Alignment.EVIL, female=False)
    admitted = GAME.admit(day, Entrant(15, "新人"), details, Rng.from_int(1)).state
    assert _demon_told(admitted, 15) == [(14,)]


def test_a_departed_traveller_is_no_target() -> None:
    """docs §9: a traveller who left counts nowhere any more — no targets."""
    state = act(act(new_state(SIXTEEN), type="begin"), type="depart", seat=15)
    state = pass_until(state, YURAO)
    assert 15 not in current_view(state).slots[0].allowed
    with pytest.raises(IllegalAction, match="已离开游戏"):
        act(night(state), type="accuse", by=3, target=15, role=TRAVELLER)


# --- one demon kill a night (decision; seed 皇上: 自杀无其他效果)


def test_a_huanghou_who_succeeds_when_huangshang_kills_himself_kills_from_the_next_night() -> None:
    roles = [JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG, JINGFEI, YURAO]
    state = step(night2(roles), HUANGSHANG, 4)
    assert state.seats[3].role == NVHUANG
    state = pass_until(state, NVHUANG)
    assert current(state) == NVHUANG
    assert current_view(state).disabled == "今晚恶魔已杀过人：女皇明晚起杀人"
    with pytest.raises(IllegalAction):
        step(state, NVHUANG, 0)
    state = dusk(night(state), execute_block=False)
    state = pass_until(state, NVHUANG)
    assert current_view(state).disabled is None
    assert not step(state, NVHUANG, 0).seats[0].alive
