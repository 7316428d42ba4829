"""Decisions the seed leaves open (docs/rules/zhenhuan.md §决定), each pinned here or in the role tests."""

from __future__ import annotations

from chalicelib.core.game import Entrant, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import (
    ANLINGRONG,
    GUOJUNWANG,
    HUAFEI,
    HUANGHOU,
    HUANGSHANG,
    JINXI,
    NVHUANG,
    QIFEI,
    SUNDAYING,
    WENTAIYI,
    ZHENHUAN,
    Alignment,
)
from chalicelib.games.zhenhuan.state import Phase, StatusKind, ZhenhuanOptions

from .helpers import HOST, act, current, dusk, has, host_lines, infos, night, started, step, visited

R = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]


def test_impaired_huangshang_conversion_is_spent() -> None:
    """DECISIONS #5: a once-per-game ability used while impaired is spent."""
    state = act(started(R), type="set_status", seat=5, status="poisoned")
    state = step(state, "huangshang", None, 1)
    assert state.seats[1].role == JINXI and "convert" in state.seats[5].spent
    # spent whomever he aimed it at: a man (who could never be turned) or a protected woman — the
    # retry a sober 皇上 gets for those comes from the target, and his state failed it first
    state = act(started(R), type="set_status", seat=5, status="poisoned")
    state = step(state, "huangshang", None, 2)  # 果郡王, a man
    assert "convert" in state.seats[5].spent
    state = act(started(R), type="set_status", seat=5, status="drunk")
    state = step(step(state, "guojunwang", 1), "huangshang", None, 1)  # 瑾汐, protected tonight
    assert state.seats[1].role == JINXI and "convert" in state.seats[5].spent
    # sober, the same aims fail and leave it to use again
    state = step(started(R), "huangshang", None, 2)
    assert "convert" not in state.seats[5].spent


def test_huangshang_self_kill_lets_huanghou_succeed() -> None:
    """皇上 自杀无其他效果 — but it is still 皇上死亡, so 皇后 may become 女皇."""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG, QIFEI]
    state = night(step(dusk(night(started(roles))), "huangshang", 5))
    assert state.phase is Phase.DAY and state.seats[4].role == NVHUANG


def test_poison_outlives_a_dead_anlingrong() -> None:
    """A status lasts until its expiry even if its source dies (中毒到下一个黄昏)."""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, ANLINGRONG, HUANGSHANG, QIFEI]
    state = night(step(started(roles), "anlingrong", 0, None))
    state = act(state, type="execute", seat=4)
    assert has(state, 0, StatusKind.POISONED)


def test_set_alive_has_no_chain_effects() -> None:
    """Overrides change exactly what they say: no 孙答应 全场醉酒 from set_alive (「死亡」 has it)."""
    roles = [SUNDAYING, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
    state = act(night(started(roles)), type="set_alive", seat=0, alive=False)
    assert not has(state, 1, StatusKind.DRUNK)
    assert has(act(night(started(roles)), type="kill", seat=0), 1, StatusKind.DRUNK)


def test_evil_learn_each_other_only_from_seven_players() -> None:
    """5-6人游戏时，爪牙和恶魔不知道对方是谁。7人及以上，爪牙和恶魔互知，恶魔知道三个不在场的角色。"""
    six = started([ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG])
    assert "minion_info" not in visited(six) and "demon_info" not in visited(six)
    seven = step(step(started(R), "minion_info"), "demon_info")
    assert infos(seven, 4)[-1].value == (5,)
    demon = infos(seven, 5)[-1]
    assert demon.value == (4,) and all(GAME.view(seven, HOST).grimoire.bluffs)
    assert "不在场的角色" in demon.text


def test_dawn_skips_remaining_steps_and_logs_it() -> None:
    """天亮 may be pressed at any time; steps not done are skipped and logged as an override."""
    state = act(started(R), type="dawn")
    assert state.phase is Phase.DAY
    assert any("未进行的步骤" in line for line in host_lines(state))


def test_threshold_counts_travellers() -> None:
    """DECISIONS #4 threshold ⌈living/2⌉ (travellers count, botc.md §3.2)."""
    state = GAME.setup([Entrant(i, f"p{i}") for i in range(17)], ZhenhuanOptions(), Rng.from_int(2))
    day = night(act(state, type="begin"))
    assert GAME.view(day, HOST).day.threshold == 9


def test_night_information_reads_the_live_board() -> None:
    """Information is the truth at the moment of the step (poison given earlier tonight counts)."""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, ANLINGRONG, HUANGSHANG, QIFEI]
    state = step(step(started(roles), "anlingrong", 1, None), "wentaiyi", 1)
    assert infos(state, 3)[-1].value is True


def test_a_night_revival_shows_nothing_before_dawn_not_even_the_ghost_vote() -> None:
    """Deaths (and revivals) land together at dawn: a dead player who spent her ghost vote and is
    revived at night still shows dead with no ghost vote until dawn (no flip before it)."""
    state = night(started(R))
    state = act(act(state, type="set_alive", seat=2, alive=False), type="set_ghost_vote", seat=2, has=False)
    state = dusk(state)
    before = GAME.view(state, Viewer.spectator()).seats[2]
    state = act(state, type="set_alive", seat=2, alive=True)
    for viewer in (Viewer.spectator(), Viewer.player(3)):
        assert GAME.view(state, viewer).seats[2] == before and not before.alive and not before.ghost_vote
    assert GAME.view(state, HOST).grimoire.seats[2].alive  # the storyteller sees it at once
    assert GAME.view(night(state), Viewer.spectator()).seats[2].alive
    # revived and set dead again the same night: the public never saw her alive, nor a new ghost vote
    again = act(state, type="set_alive", seat=2, alive=False)
    assert GAME.view(again, Viewer.spectator()).seats[2] == before
    assert GAME.view(night(again), Viewer.spectator()).seats[2] == before


def test_a_dead_player_revived_at_night_and_killed_again_stays_dead_on_the_public_board() -> None:
    """DECISIONS #9: 「Deaths are still announced together at dawn, and the public board changes only at
    dawn.」 A player the table saw die by day, revived at night by the storyteller and killed again the
    same night (her 「死亡」 or the demon's kill) is dead all night as the table last saw her, spent ghost
    vote included; dawn announces nothing about her (the table never saw her alive)."""
    for how in ("button", "demon"):
        state = night(started(R))
        state = act(state, type="kill", seat=2)  # 3号 dies by day, in the open
        state = act(state, type="set_ghost_vote", seat=2, has=False)  # and spends her ghost vote
        state = dusk(state)
        before = GAME.view(state, Viewer.spectator()).seats[2]
        assert not before.alive and not before.ghost_vote
        state = act(state, type="set_alive", seat=2, alive=True)
        state = act(state, type="kill", seat=2) if how == "button" else step(state, "huangshang", 2)
        assert not state.seats[2].alive and not state.seats[2].ghost_vote, how
        for viewer in (Viewer.spectator(), Viewer.player(3)):
            assert GAME.view(state, viewer).seats[2] == before, how
        day = night(state)
        announce = [e for e in day.log if e.kind == "announce"][-1]
        assert announce.deaths == () and announce.revived == () and announce.text == "昨夜平安", how
        assert GAME.view(day, Viewer.spectator()).seats[2] == before, how


def test_a_zhenhuan_revived_at_night_who_counter_kills_comes_back_at_dawn() -> None:
    """DECISIONS #9, the same board rule through 甄嬛's counter-kill: dead by day, revived at night,
    killed by 皇上 and alive again by her counter-kill — the table sees her dead until dawn, which
    announces her back (and 皇上's death)."""
    state = act(night(started(R)), type="kill", seat=0)
    state = act(dusk(state), type="set_alive", seat=0, alive=True)
    before = GAME.view(state, Viewer.spectator()).seats[0]
    state = step(step(state, "huangshang", 0), "zhenhuan")
    assert state.seats[0].alive and not state.seats[5].alive
    assert GAME.view(state, Viewer.spectator()).seats[0] == before and not before.alive
    announce = [e for e in night(state).log if e.kind == "announce"][-1]
    assert announce.text == "昨夜死亡：6号；1号复活"


def test_public_board_hides_night_deaths_until_dawn() -> None:
    """Deaths land together at dawn; players learn who died, never why."""
    state = act(dusk(night(step(started(R), "huafei", None))), type="set_alive", seat=2, alive=False)
    assert GAME.view(state, HOST).seats[2].alive
    day = night(state)
    announce = [e for e in day.log if e.kind == "announce"][-1]
    assert announce.deaths == (2,) and announce.text == "昨夜死亡：3号"
    assert current(day) is None and day.seats[5].alignment is Alignment.EVIL
