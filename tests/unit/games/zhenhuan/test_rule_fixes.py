"""The rule fixes of issue #11 (DECISIONS 血染 #8–#11; #12 is in test_win_and_overrides)."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan.roles import (
    ANLINGRONG,
    CHONGFEI,
    GUOJUNWANG,
    HUAFEI,
    HUANGHOU,
    HUANGSHANG,
    JINGFEI,
    JINXI,
    KUANGTU,
    NVHUANG,
    QIFEI,
    SANAGE,
    SUNDAYING,
    WENTAIYI,
    ZHENHUAN,
)  # fmt: skip
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
    transition,
)  # fmt: skip


# --- #8 ------------------------------------------------------------------------------------------------
def test_succession_is_decided_before_mass_drunk_when_both_deaths_fall_together() -> None:
    """DECISIONS #8: If 孙答应's 全场醉酒 and 皇上's death fall on the same dawn, the succession is
    decided first (so 皇后 is not yet drunk and becomes 女皇; then everyone, her included, is drunk)."""
    roles = [SUNDAYING, JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG, KUANGTU]
    state = act(night(started(roles)), type="set_status", seat=0, status="cursed")
    state = dusk(act(state, type="set_status", seat=5, status="cursed"), execute_block=False)
    assert not state.seats[0].alive and not state.seats[5].alive
    assert state.seats[4].role == NVHUANG and has(state, 4, StatusKind.DRUNK)


def test_an_earlier_mass_drunk_still_stops_the_succession() -> None:
    """皇后不能毒醉 — 全场醉酒 from an earlier death makes her drunk when 皇上 dies later."""
    roles = [SUNDAYING, JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG, KUANGTU]
    state = act(act(night(started(roles)), type="execute", seat=0), type="kill", seat=5)
    assert state.seats[4].role == HUANGHOU and state.end is not None


# --- #9 ------------------------------------------------------------------------------------------------
R9 = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, JINGFEI]


def test_a_player_killed_at_night_is_dead_at_once_for_her_later_steps() -> None:
    """DECISIONS #9: A player killed during the night is dead at once for the rest of that night: her
    later night steps are greyed 「已死亡」 … Deaths are still announced together at dawn, and the
    public board changes only at dawn."""
    state = step(night2(R9), "huangshang", 1)
    assert not state.seats[1].alive and public(state)["seats"][1]["alive"]
    assert current_view(pass_until(state, "jinxi")).disabled == "已死亡"
    with pytest.raises(IllegalAction):
        act(pass_until(state, "jinxi"), type="night_step", step="jinxi", targets=[0, 2])
    day = night(state)
    assert day.log[-1].deaths == (1,) and not public(day)["seats"][1]["alive"]
    assert "瑾汐" not in day.log[-1].text and "恶魔" not in day.log[-1].text


def test_abilities_that_trigger_on_death_still_wake() -> None:
    """DECISIONS #9: … unless her ability triggers on her own death (敬妃, 年羹尧 and the like)."""
    state = step(night2(R9), "huangshang", 6)
    assert current_view(pass_until(state, "jingfei")).disabled is None
    assert infos(step(state, "jingfei"), 6)[-1].value == (4, 5)


def test_sanage_put_to_death_is_dead_at_once() -> None:
    """DECISIONS #9: 三阿哥's 「立即被处死」 is such a night death."""
    roles = [JINXI, SANAGE, ZHENHUAN, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
    state = step(night2(roles), "sanage", 2)
    assert not state.seats[1].alive and public(state)["seats"][1]["alive"]
    assert night(state).log[-1].deaths == (1,)


# --- #10 -----------------------------------------------------------------------------------------------
RS = [SUNDAYING, KUANGTU, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, JINXI]


def test_mass_drunk_from_a_night_death_lasts_the_rest_of_the_night_and_the_next_day() -> None:
    """DECISIONS #10: 全场醉酒 starts at once when 孙答应 dies and lasts exactly one night and one day: a
    night death covers the rest of that night and the next day. The demon is included."""
    state = step(dusk(act(night(started(RS)), type="kill", seat=1)), "sundaying")
    assert has(state, 5, StatusKind.DRUNK) and current_view(pass_until(state, "jinxi")).impaired == ("drunk",)
    day = night(state)
    assert all(has(day, s, StatusKind.DRUNK) for s in (2, 3, 4, 5, 6))
    assert not any(has(dusk(day), s, StatusKind.DRUNK) for s in range(7))


def test_mass_drunk_from_a_day_death_covers_the_coming_night_and_the_day_after() -> None:
    """DECISIONS #10: a death by day or at dusk covers the coming night and the day after it."""
    state = act(night(started(RS)), type="execute", seat=0)
    assert has(state, 5, StatusKind.DRUNK)
    state = night(dusk(state))
    assert has(state, 5, StatusKind.DRUNK), "through night 2 and day 2"
    assert not has(dusk(state), 5, StatusKind.DRUNK), "gone when night 3 starts"
    assert any("全场醉酒" in line for line in host_lines(state))


def test_mass_drunk_from_a_death_at_dusk_covers_the_night_it_opens_and_the_day_after() -> None:
    """DECISIONS #10: "by day or at dusk" — 安陵容's curse kills 孙答应 as night 2 opens (at dusk): the
    whole table is drunk through night 2 and day 2, and sober again when night 3 starts."""
    rs = [SUNDAYING, KUANGTU, GUOJUNWANG, WENTAIYI, ANLINGRONG, HUANGSHANG, JINXI]
    state = dusk(night(step(started(rs), "anlingrong", None, 0)))  # night 1: the curse on 孙答应
    assert not state.seats[0].alive and has(state, 5, StatusKind.DRUNK)
    state = night(state)
    assert has(state, 5, StatusKind.DRUNK), "through night 2 and day 2"
    assert not has(dusk(state), 5, StatusKind.DRUNK), "gone when night 3 starts"


# --- #11 -----------------------------------------------------------------------------------------------
def test_conversion_greys_huangshang_s_own_team_and_forcing_it_is_a_logged_override() -> None:
    """DECISIONS #11: 雨露均沾 ("加入你的阵营") cannot be aimed at a player of 皇上's own team: the button
    greys those seats with the reason; the storyteller may still override (logged)."""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, ANLINGRONG]
    state = pass_until(started(roles), "huangshang")
    slot = current_view(state).slots[1]
    assert 4 not in slot.allowed and 6 not in slot.allowed and 1 in slot.allowed
    assert {(g.seat, g.reason) for g in slot.greyed} == {(4, "与皇上同阵营"), (6, "与皇上同阵营")}
    with pytest.raises(IllegalAction) as err:
        act(state, type="night_step", step="huangshang", targets=[None, 4])
    assert err.value.code == "TARGET_GREYED"
    t = transition(state, type="night_step", step="huangshang", targets=[None, 4], force=True)
    assert t.state.seats[4].role == CHONGFEI
    assert any(e.kind == "host" and e.override and "强制" in e.text for e in t.events)
    assert current(t.state) == "chongfei_info"
