"""Setup: the composition table, modifiers, proposal, reroll, hand-picking, bluffs, travellers."""

from __future__ import annotations

from collections import Counter

import pytest

from chalicelib.core.errors import DomainError, IllegalAction
from chalicelib.core.game import Entrant
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import (
    GUOJUNWANG,
    HUANBI,
    HUANGSHANG,
    JINXI,
    NVHUANG,
    QIFEI,
    ROLES,
    SUPEISHENG,
    TAISHANGHUANG,
    TRAVELLER,
    ZHENHUAN,
    Team,
)
from chalicelib.games.zhenhuan.setup import composition, composition_issues, draw_roles
from chalicelib.games.zhenhuan.state import Phase, StatusKind, ZhenhuanOptions

from .helpers import act, has, host_lines, new_state, started

# players: (村民, 外来者, 爪牙, 恶魔, 旅行者) without modifiers
TABLE = {
    5: (3, 0, 1, 1, 0),
    6: (3, 1, 1, 1, 0),
    7: (5, 0, 1, 1, 0),
    8: (5, 1, 1, 1, 0),
    9: (5, 2, 1, 1, 0),
    10: (7, 0, 2, 1, 0),
    11: (7, 1, 2, 1, 0),
    12: (7, 2, 2, 1, 0),
    13: (9, 0, 3, 1, 0),
    14: (9, 1, 3, 1, 0),
    15: (9, 2, 3, 1, 0),
    16: (9, 2, 3, 1, 1),
    17: (9, 2, 3, 1, 2),
    18: (9, 2, 3, 1, 3),
    19: (9, 2, 3, 1, 4),
    20: (9, 2, 3, 1, 5),
}


def _counts(c) -> tuple[int, int, int, int, int]:
    return (c.townsfolk, c.outsiders, c.minions, c.demons, c.travellers)


@pytest.mark.parametrize("players", range(5, 21))
@pytest.mark.parametrize("modifiers", [0, 1, 2], ids=["none", "one", "both"])
def test_composition_table_for_every_count_and_modifier(players: int, modifiers: int) -> None:
    """当有【苏培盛】加入时，村民数量-1，外来者数量+1。当有【太上皇】加入时，村民数量-1，外来者数量+1。"""
    t, o, m, d, tr = TABLE[players]
    assert _counts(composition(players, modifiers=modifiers)) == (t - modifiers, o + modifiers, m, d, tr)


@pytest.mark.parametrize("players", [4, 21])
def test_player_count_outside_5_to_20_is_refused(players: int) -> None:
    """5~20 位玩家"""
    with pytest.raises(IllegalAction):
        composition(players)
    with pytest.raises(DomainError):
        GAME.check_start([Entrant(i, "x") for i in range(players)], ZhenhuanOptions())


def _draw_for(players: int, demon: str, supeisheng: bool) -> tuple[str, ...]:
    """Find a seeded draw with the wanted demon and 苏培盛 presence."""
    for seed in range(2000):
        roles = draw_roles(players, Rng.from_int(seed))
        if demon in roles and (SUPEISHENG in roles) == supeisheng:
            return roles
    raise AssertionError("no draw found")


@pytest.mark.parametrize("players", range(5, 21))
@pytest.mark.parametrize(
    ("demon", "supeisheng", "mods"),
    [(HUANGSHANG, False, 0), (HUANGSHANG, True, 1), (TAISHANGHUANG, False, 1), (TAISHANGHUANG, True, 2)],
    ids=["plain", "supeisheng", "taishanghuang", "both"],
)
def test_proposed_roles_follow_the_table_with_modifiers(
    players: int, demon: str, supeisheng: bool, mods: int
) -> None:
    """当有【苏培盛】加入时…外来者数量+1 / 太上皇在场时，外来者+1."""
    roles = _draw_for(players, demon, supeisheng)
    teams = Counter(ROLES[r].team for r in roles)
    t, o, m, d, tr = TABLE[players]
    assert (teams[Team.TOWNSFOLK], teams[Team.OUTSIDER]) == (t - mods, o + mods)
    assert (teams[Team.MINION], teams[Team.DEMON], teams[Team.TRAVELLER]) == (m, d, tr)
    assert len({r for r in roles if r != TRAVELLER}) == players - tr
    assert roles[players - tr :] == (TRAVELLER,) * tr, "travellers take the last seats"


def test_setup_proposes_three_bluffs_not_in_play() -> None:
    """7人及以上，爪牙和恶魔互知，恶魔知道三个不在场的角色。"""
    state = GAME.setup([Entrant(i, f"p{i}") for i in range(9)], ZhenhuanOptions(), Rng.from_int(3))
    in_play = {s.role for s in state.seats}
    assert len(state.bluffs) == 3 and not in_play & set(state.bluffs)
    assert all(ROLES[r].good for r in state.bluffs)


def test_reroll_redraws_with_the_rng() -> None:
    """The storyteller can reroll (redraw with the seeded generator)."""
    state = new_state([ZHENHUAN, JINXI, GUOJUNWANG, QIFEI, HUANGSHANG])
    again = act(state, type="reroll")
    assert [s.role for s in again.seats] != [s.role for s in state.seats] or again.bluffs != state.bluffs
    assert not composition_issues(again)
    assert "说书人重新抽取角色" in host_lines(again)


def test_hand_pick_swaps_and_flags_a_custom_setup() -> None:
    """The storyteller may hand-pick: assigning a role held elsewhere swaps the two seats."""
    state = new_state([ZHENHUAN, JINXI, GUOJUNWANG, QIFEI, HUANGSHANG])
    swapped = act(state, type="assign", seat=0, role=HUANGSHANG)
    assert [s.role for s in swapped.seats][:1] == [HUANGSHANG] and swapped.seats[4].role == ZHENHUAN
    custom = act(state, type="assign", seat=1, role=TAISHANGHUANG)
    assert composition_issues(custom)  # two demons, one townsfolk short: flagged, not refused
    begun = act(custom, type="begin")
    assert any("自定义配置" in line for line in host_lines(begun))


def test_derived_roles_cannot_be_dealt() -> None:
    """*宠妃 / *女皇: 游戏中间产生的角色."""
    state = new_state([ZHENHUAN, JINXI, GUOJUNWANG, QIFEI, HUANGSHANG])
    with pytest.raises(IllegalAction):
        act(state, type="assign", seat=0, role=NVHUANG)


def test_begin_needs_a_demon_and_valid_bluffs() -> None:
    """恶魔知道三个不在场的角色: bluffs are three good roles not in play; a game needs a demon."""
    state = new_state([ZHENHUAN, JINXI, GUOJUNWANG, QIFEI, JINXI])
    state = act(state, type="assign", seat=4, role=QIFEI)
    with pytest.raises(IllegalAction) as err:
        act(state, type="begin")
    assert err.value.code == "NO_DEMON"
    seven = new_state([ZHENHUAN, JINXI, GUOJUNWANG, QIFEI, HUANBI, SUPEISHENG, HUANGSHANG])
    with pytest.raises(IllegalAction):
        act(seven, type="set_bluffs", roles=[ZHENHUAN, "taihou", "yelanyi"])  # 甄嬛 is in play
    with pytest.raises(IllegalAction):
        act(seven, type="set_bluffs", roles=["taihou", "taihou", "yelanyi"])
    ok = act(seven, type="set_bluffs", roles=["taihou", "yelanyi", "longyue"])
    assert ok.bluffs == ("taihou", "yelanyi", "longyue")


def test_begin_locks_setup_and_starts_the_first_night() -> None:
    """A 'begin' action locks setup; the game starts with the first night."""
    state = started([ZHENHUAN, JINXI, GUOJUNWANG, QIFEI, HUANGSHANG])
    assert state.phase is Phase.NIGHT and state.night_no == 1
    with pytest.raises(DomainError):
        act(state, type="reroll")


def test_travellers_identity_and_alignment_are_set_by_the_storyteller() -> None:
    """旅行者：人数超过 15 人…具体身份由玩家自行选择，具体阵营所属由说书人根据场上局势进行分配。"""
    state = GAME.setup([Entrant(i, f"p{i}") for i in range(17)], ZhenhuanOptions(), Rng.from_int(5))
    assert [s.role for s in state.seats[15:]] == [TRAVELLER, TRAVELLER]
    state = act(state, type="set_traveller", seat=16, identity="西域使臣", alignment="evil", female=True)
    assert state.seats[16].traveller_identity == "西域使臣" and state.seats[16].alignment.value == "evil"
    with pytest.raises(IllegalAction):
        act(state, type="set_traveller", seat=0, identity="x")


def test_huanbi_beside_guojunwang_is_drunk_for_good() -> None:
    """如果位置与果郡王相邻，则浣碧醉酒。此醉酒为永久效果。后续就算果郡王死亡也依旧存在。"""
    state = started([HUANBI, GUOJUNWANG, JINXI, QIFEI, HUANGSHANG])
    assert has(state, 0, StatusKind.DRUNK)
    status = next(s for s in state.statuses if s.seat == 0)
    assert status.until is None and status.source == HUANBI
    state = act(state, type="kill", seat=1)
    state = act(state, type="dawn")
    assert not state.seats[1].alive and has(state, 0, StatusKind.DRUNK)
    apart = started([HUANBI, JINXI, GUOJUNWANG, QIFEI, HUANGSHANG])
    assert not has(apart, 0, StatusKind.DRUNK)
