"""The day: nominations, votes, the chopping block, executions, ghost votes and the day abilities."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Entrant, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.actions import TravellerDetails
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import (
    CHUNYUAN,
    DUNQINWANG,
    GUOJUNWANG,
    HUAFEI,
    HUANGSHANG,
    JINXI,
    KUANGTU,
    LONGYUE,
    QIFEI,
    QIGUIREN,
    TAIHOU,
    WENTAIYI,
    ZHENHUAN,
    Alignment,
)
from chalicelib.games.zhenhuan.state import GameState, Phase, StatusKind

from .helpers import (
    HOST,
    act,
    confirm,
    current,
    current_view,
    dusk,
    has,
    host_lines,
    night,
    player_act,
    public,
    started,
    step,
)

R = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
TRAVELLER_DETAILS = TravellerDetails(identity="江湖郎中", ability="问问题", alignment="good", female=False)


def day1(roles: list[str] = R) -> GameState:
    return night(started(roles))


def code(state: GameState, **action: object) -> str:
    with pytest.raises(IllegalAction) as err:
        act(state, **action)
    return err.value.code


# --- nominations and votes ----------------------------------------------------------------------------
def test_each_living_player_nominates_once_and_is_nominated_once_a_day() -> None:
    """DECISIONS #4: Each living player nominates at most once a day and each player is nominated at most once a day."""
    state = act(day1(), type="nominate", nominator=0, nominee=5)
    assert code(state, type="nominate", nominator=1, nominee=4) == "VOTE_PENDING"
    # while a vote is open, the lasting reason comes first: the dead and who has nominated are told why
    assert code(act(state, type="kill", seat=2), type="nominate", nominator=2, nominee=4) == "DEAD_NOMINATOR"
    assert code(state, type="nominate", nominator=0, nominee=4) == "ALREADY_NOMINATED_TODAY"
    state = act(state, type="vote", votes=[])
    assert code(state, type="nominate", nominator=0, nominee=4) == "ALREADY_NOMINATED_TODAY"
    assert code(state, type="nominate", nominator=1, nominee=5) == "ALREADY_NOMINEE_TODAY"
    dead = act(state, type="kill", seat=2)
    assert code(dead, type="nominate", nominator=2, nominee=4) == "DEAD_NOMINATOR"
    tomorrow = night(dusk(state, execute_block=False))
    assert act(tomorrow, type="nominate", nominator=0, nominee=5).day.nominations[0].nominee == 5


def test_chopping_block_threshold_replacement_and_tie() -> None:
    """DECISIONS #4: threshold ⌈living/2⌉; a later nominee needs strictly more votes to replace; tie clears."""
    state = act(day1(), type="nominate", nominator=0, nominee=5)
    state = act(state, type="vote", votes=[0, 1, 2])
    assert state.day.block is None, "3 of 7 is below ⌈7/2⌉ = 4"
    state = act(act(state, type="nominate", nominator=1, nominee=4), type="vote", votes=[0, 1, 2, 3])
    assert (state.day.block, state.day.block_votes) == (4, 4)
    state = act(act(state, type="nominate", nominator=2, nominee=3), type="vote", votes=[0, 1, 2, 6])
    assert (state.day.block, state.day.block_votes) == (None, 4), "a tie clears the block"
    state = act(act(state, type="nominate", nominator=3, nominee=2), type="vote", votes=[0, 1, 2, 3])
    assert state.day.block is None, "the bar stays at 4 after a tie"
    state = act(act(state, type="nominate", nominator=4, nominee=1), type="vote", votes=[0, 1, 2, 3, 6])
    assert (state.day.block, state.day.block_votes) == (1, 5)
    vote = [e for e in state.log if e.kind == "vote"][-1]
    assert (vote.count, vote.threshold, vote.block) == (5, 4, 1)


def test_at_most_one_execution_a_day_and_dusk_executes_the_block() -> None:
    """DECISIONS #4: at most one execution a day. 「处决」 then 「入夜」."""
    state = act(act(day1(), type="nominate", nominator=0, nominee=4), type="vote", votes=[0, 1, 2, 3])
    executed = act(state, type="execute", seat=4)
    assert not executed.seats[4].alive and executed.phase is Phase.DAY
    assert code(executed, type="execute", seat=3) == "ALREADY_EXECUTED"
    assert code(executed, type="nominate", nominator=1, nominee=3) == "ALREADY_EXECUTED"
    by_dusk = dusk(state)
    assert not by_dusk.seats[4].alive and any(e.kind == "execution" for e in by_dusk.log)
    spared = dusk(state, execute_block=False)
    assert spared.seats[4].alive
    assert any(e.kind == "host" and e.override and "不处决" in e.text for e in spared.log)


def test_dead_players_keep_one_ghost_vote() -> None:
    """DECISIONS #4: Dead players keep one ghost vote."""
    state = act(day1(), type="kill", seat=1)
    assert public(state)["seats"][1]["ghost_vote"]
    state = act(act(state, type="nominate", nominator=0, nominee=5), type="vote", votes=[1, 2])
    assert not state.seats[1].ghost_vote and not public(state)["seats"][1]["ghost_vote"]
    state = act(state, type="nominate", nominator=2, nominee=4)
    assert code(state, type="vote", votes=[1]) == "NO_GHOST_VOTE"
    assert code(state, type="vote", votes=[2, 2]) == "DUPLICATE_VOTER"


def test_day_actions_only_by_day_and_night_actions_only_by_night() -> None:
    """「醉酒」按钮…白天 / 夜晚「死亡」按钮: each button belongs to its phase."""
    state = started(R)
    assert code(state, type="nominate", nominator=0, nominee=1) == "NOT_DAY"
    assert code(state, type="drunk", seat=1) == "NOT_DAY"
    assert code(day1(), type="dawn") == "NOT_NIGHT"


# --- 纯元皇后 ---------------------------------------------------------------------------------------
RC = [CHUNYUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]


def test_chunyuan_first_nominated_by_a_townsfolk_executes_the_nominator() -> None:
    """首次被提名时，如果提名者是村民，则直接被处决。(DECISIONS #3: the nominator)
    - 需要说书人在触发此技能时，白天点击「处决」按钮来进行处决。- 处决后，需要说书人手动点击「入夜」。"""
    state = act(day1(RC), type="nominate", nominator=1, nominee=0)
    assert state.day.proposals[0].seat == 1 and state.seats[1].alive
    state = act(state, type="execute", seat=1)
    assert not state.seats[1].alive and state.phase is Phase.DAY
    assert any("纯元皇后首次被提名" in line for line in host_lines(state))
    # carried out: nothing left to propose today (the storyteller's banner no longer offers it)
    assert state.day.proposals == ()


def test_chunyuan_nominated_by_a_non_townsfolk_or_a_second_time_does_nothing() -> None:
    """首次被提名时 — only the first nomination counts, and only a 村民 nominator."""
    state = act(day1(RC), type="nominate", nominator=6, nominee=0)
    assert not state.day.proposals and CHUNYUAN in state.seats[0].spent
    state = night(dusk(act(state, type="vote", votes=[]), execute_block=False))
    state = act(state, type="nominate", nominator=1, nominee=0)
    assert not state.day.proposals


def test_impaired_chunyuan_spends_her_first_nomination() -> None:
    """DECISIONS #5: a once-per-game ability used while impaired is spent."""
    state = act(day1(RC), type="set_status", seat=0, status="poisoned")
    state = act(state, type="nominate", nominator=1, nominee=0)
    assert not state.day.proposals and CHUNYUAN in state.seats[0].spent


# --- 太后 --------------------------------------------------------------------------------------------
RT = [TAIHOU, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]


def test_taihou_forces_an_execution_after_a_vote_whatever_the_count_once() -> None:
    """在一名玩家提名投票后不论票数，发起强制处决。（全局仅一次）- 需要说书人白天点击「处决」按钮来进行处决。"""
    state = act(day1(RT), type="nominate", nominator=1, nominee=4)
    assert code(state, type="force_execution", by=0, nominee=4) == "NOT_AFTER_VOTE"
    state = act(state, type="vote", votes=[1])
    state = act(state, type="force_execution", by=0, nominee=4)
    assert state.day.proposals[-1].seat == 4
    assert not act(state, type="execute", seat=4).seats[4].alive
    assert code(state, type="force_execution", by=0, nominee=4) == "ABILITY_SPENT"


@pytest.mark.parametrize("status", ["poisoned", "drunk"])
def test_impaired_taihou_is_spent_and_nobody_is_executed(status: str) -> None:
    """如果为中毒/醉酒，会让玩家选择发动目标，但是实际目标不会死亡。"""
    state = act(day1(RT), type="set_status", seat=0, status=status)
    state = act(act(state, type="nominate", nominator=1, nominee=4), type="vote", votes=[])
    state = act(state, type="force_execution", by=0, nominee=4)
    assert not state.day.proposals and "force_execution" in state.seats[0].spent


def test_pinned_taihou_cannot_use_it() -> None:
    """如果被按住，则技能无法发动。"""
    state = act(day1(RT), type="set_status", seat=0, status="pinned")
    state = act(act(state, type="nominate", nominator=1, nominee=4), type="vote", votes=[])
    state = act(state, type="force_execution", by=0, nominee=4)
    assert not state.day.proposals and "force_execution" not in state.seats[0].spent


# --- 齐妃 / 敦亲王 / 「醉酒」 -----------------------------------------------------------------------------
RQ = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI, DUNQINWANG]


def test_qifei_silences_once_a_day_never_the_same_player_twice_running() -> None:
    """每个白天可用一次，…禁言一名玩家。若玩家不配合，则强制处决该玩家。（不可以连续选择同一玩家）"""
    state = act(day1(RQ), type="silence", by=6, target=1)
    assert has(state, 1, StatusKind.SILENCED) and any("禁言" in r.text for r in state.day.alerts)
    assert code(state, type="silence", by=6, target=2) == "USED_TODAY"
    executed = act(state, type="execute", seat=1)
    assert not executed.seats[1].alive
    # the reminder names her and the button; once the day has had its execution (hers or another's) it is done
    assert [(a.seat, a.press) for a in GAME.view(state, Viewer.host()).grimoire.alerts] == [(1, "execute")]
    assert GAME.view(act(state, type="execute", seat=2), Viewer.host()).grimoire.alerts == ()
    tomorrow = night(dusk(state, execute_block=False))
    assert not has(tomorrow, 1, StatusKind.SILENCED)
    assert code(tomorrow, type="silence", by=6, target=1) == "SAME_TARGET_AGAIN"
    assert has(act(tomorrow, type="silence", by=6, target=2), 2, StatusKind.SILENCED)


def test_impaired_qifei_silence_is_not_enforced() -> None:
    """若齐妃中毒/醉/按住后发动技能，玩家不配合禁言，也不会被强制处决。"""
    state = act(day1(RQ), type="set_status", seat=6, status="pinned")
    state = act(state, type="silence", by=6, target=1)
    assert not has(state, 1, StatusKind.SILENCED) and not state.day.alerts


def test_dunqinwang_makes_a_player_drunk_for_a_day() -> None:
    """每个白天选择一名角色把酒言欢…强制一名玩家醉酒一天。"""
    state = act(day1(RQ), type="toast", by=7, target=1)
    assert has(state, 1, StatusKind.DRUNK)
    state = dusk(state, execute_block=False)
    assert has(state, 1, StatusKind.DRUNK), "drunk through the night"
    assert not has(night(state), 1, StatusKind.DRUNK), "cleared when the next day starts"


def test_impaired_dunqinwang_marks_nobody() -> None:
    """若敦亲王中毒/醉/按住后发动技能，说书人会配合演出但不会给玩家标记醉酒。"""
    state = act(day1(RQ), type="set_status", seat=7, status="drunk")
    assert not has(act(state, type="toast", by=7, target=1), 1, StatusKind.DRUNK)


def test_drunk_button_is_unlimited_without_dunqinwang_and_cleared_next_day() -> None:
    """「醉酒」按钮可以无限次使用，且当局没有敦亲王也会展示「醉酒」按钮
    - 持续一天，到下个白天刚开始的时候清除上一个白天的醉酒。"""
    state = day1(R)
    for seat in (0, 1, 2, 3):
        state = act(state, type="drunk", seat=seat)
    assert all(has(state, s, StatusKind.DRUNK) for s in (0, 1, 2, 3))
    state = night(dusk(state, execute_block=False))
    assert not any(has(state, s, StatusKind.DRUNK) for s in (0, 1, 2, 3))


# --- 祺贵人 -------------------------------------------------------------------------------------------
RG = [QIGUIREN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, KUANGTU]


def test_qiguiren_right_guess_kills_someone_the_storyteller_picks_at_the_start_of_night() -> None:
    """白天可检举一名玩家身份。猜对则夜晚随机死一个人 - 到检举发生后的下一个夜晚一开始死亡。
    说书人在夜晚使用「死亡」按钮来决定谁死。"""
    state = act(day1(RG), type="accuse", by=0, target=5, role=HUANGSHANG)
    assert code(state, type="accuse", by=0, target=4, role=HUAFEI) == "USED_TODAY"
    state = dusk(state, execute_block=False)
    assert current(state) == "qiguiren" and "随机抽中" in current_view(state).hint
    state = step(state, "qiguiren", 2)
    assert not state.seats[2].alive and public(state)["seats"][2]["alive"]
    assert current(state) != "qiguiren"
    state = night(state)
    assert [e for e in state.log if e.kind == "announce"][-1].deaths == (2,)


def test_qiguiren_wrong_guess_dies_at_the_start_of_the_next_night() -> None:
    """否则自己在夜晚暴毙。"""
    state = act(day1(RG), type="accuse", by=0, target=5, role=HUAFEI)
    state = dusk(state, execute_block=False)
    assert not state.seats[0].alive and state.night.dusk_deaths == (0,)
    assert "1号死亡（祺贵人检举错误）" in host_lines(state)


def test_impaired_qiguiren_accusation_does_nothing() -> None:
    """DECISIONS #5: Poisoned or drunk abilities silently fail (祺贵人's 检举 included)."""
    state = act(day1(RG), type="set_status", seat=0, status="poisoned")
    state = dusk(act(state, type="accuse", by=0, target=5, role=HUAFEI), execute_block=False)
    assert state.seats[0].alive and state.night.qiguiren is None


# --- 胧月 --------------------------------------------------------------------------------------------
RL = [LONGYUE, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]


def test_longyue_executed_makes_her_team_lose() -> None:
    """若你因处决而死，则你所在阵营失败。- 说书人在胧月被处决时直接结束本局游戏，选择获胜阵营。"""
    state = act(day1(RL), type="execute", seat=0)
    assert state.phase is Phase.DAY and state.end.winner is Alignment.EVIL
    state = confirm(state)
    assert state.phase is Phase.OVER and state.winner is Alignment.EVIL


def test_longyue_killed_at_night_or_impaired_when_executed_does_not_lose() -> None:
    """若你因处决而死 — only an execution counts; impaired, the ability fails (DECISIONS #5)."""
    state = act(day1(RL), type="set_status", seat=0, status="drunk")
    assert act(state, type="execute", seat=0).phase is Phase.DAY
    state = night(step(dusk(day1(RL), execute_block=False), "huangshang", 0))
    assert not state.seats[0].alive and state.phase is Phase.DAY


def test_execution_is_not_stopped_by_a_dead_nominee() -> None:
    """An execution of a dead player still uses up the day's execution (official rules)."""
    state = act(day1(), type="kill", seat=3)
    state = act(state, type="execute", seat=3)
    assert state.day.executed == 3 and [e for e in state.log if e.kind == "execution"][-1].died is False


def test_day_buttons_report_why_they_are_disabled() -> None:
    """Steps/buttons that cannot be used are reported as disabled with a reason."""
    state = act(day1(RT), type="set_status", seat=0, status="poisoned")
    buttons = {(b.type, b.by): b for b in GAME.view(state, HOST).grimoire.buttons}
    assert buttons[("force_execution", 0)].disabled == "需在提名投票之后"
    assert buttons[("force_execution", 0)].impaired == "中毒"
    assert (
        buttons[("vote", None)].disabled == "没有待投票的提名" and buttons[("drunk", None)].disabled is None
    )
    state = act(state, type="execute", seat=4)
    buttons = {(b.type, b.by): b for b in GAME.view(state, HOST).grimoire.buttons}
    assert buttons[("execute", None)].disabled == buttons[("nominate", None)].disabled == "今日已处决"
    assert buttons[("nominate", None)].label == "提名"


def test_after_the_execution_the_storyteller_may_still_call_a_travellers_exile() -> None:
    """§8: 「afterwards no more nominations for execution (exiles still)」; §9: an exile 「may happen after
    the day's execution」. With a living traveller not yet called today, her 「提名」 button stays open as
    「提请流放」; the server still refuses a nomination for execution (hers and a player's), and once
    every traveller has been called the button is greyed 「今日已处决」 again."""
    state = act(day1(), type="execute", seat=1)
    state = GAME.admit(state, Entrant(7, "旅人"), TRAVELLER_DETAILS, Rng.from_int(5)).state
    buttons = {(b.type, b.by): b for b in GAME.view(state, HOST).grimoire.buttons}
    assert (buttons[("nominate", None)].label, buttons[("nominate", None)].disabled) == ("提请流放", None)
    assert code(state, type="nominate", nominator=0, nominee=3) == "ALREADY_EXECUTED"
    with pytest.raises(IllegalAction) as err:
        player_act(state, 0, type="nominate", nominator=0, nominee=3)
    assert err.value.message == "今日已处决，不能再提名"
    # a second traveller: while the first one's exile vote runs, the second may be called after it
    two = GAME.admit(state, Entrant(8, "过客"), TRAVELLER_DETAILS, Rng.from_int(6)).state
    called = act(two, type="nominate", nominator=0, nominee=7)
    assert called.day.nominations[-1].exile
    buttons = {(b.type, b.by): b for b in GAME.view(called, HOST).grimoire.buttons}
    assert (buttons[("nominate", None)].label, buttons[("nominate", None)].disabled) == ("提请流放", "请先完成投票")
    voted = act(act(act(called, type="vote", votes=[0]), type="nominate", nominator=1, nominee=8), type="vote", votes=[])
    buttons = {(b.type, b.by): b for b in GAME.view(voted, HOST).grimoire.buttons}
    assert (buttons[("nominate", None)].label, buttons[("nominate", None)].disabled) == ("提名", "今日已处决")
    # a traveller who is dead (exiled) or gone leaves nobody to call
    gone = act(state, type="depart", seat=7)
    buttons = {(b.type, b.by): b for b in GAME.view(gone, HOST).grimoire.buttons}
    assert (buttons[("nominate", None)].label, buttons[("nominate", None)].disabled) == ("提名", "今日已处决")


def test_taihou_revived_by_yelanyi_can_force_again() -> None:
    """如果被叶澜依复活，则下次…还可以发动。 (太后's line; 叶澜依: 重置其技能)"""
    roles = [TAIHOU, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, "yelanyi"]
    state = act(act(day1(roles), type="nominate", nominator=1, nominee=4), type="vote", votes=[])
    state = act(act(state, type="force_execution", by=0, nominee=4), type="kill", seat=0)
    assert "force_execution" in state.seats[0].spent
    state = night(step(dusk(state, execute_block=False), "yelanyi", 0))
    assert state.seats[0].alive and "force_execution" not in state.seats[0].spent
    state = act(act(state, type="nominate", nominator=1, nominee=2), type="vote", votes=[])
    assert act(state, type="force_execution", by=0, nominee=2).day.proposals[-1].seat == 2


def test_longyue_loss_stays_proposed_until_the_storyteller_confirms() -> None:
    """说书人在胧月被处决时直接结束本局游戏，选择获胜阵营 — DECISIONS #12: she confirms when."""
    state = act(day1(RL), type="execute", seat=0)
    assert state.phase is Phase.DAY and state.end.winner is Alignment.EVIL
    state = act(state, type="drunk", seat=1)
    assert state.end.winner is Alignment.EVIL
