"""Win conditions, the final Outcome, and the storyteller's overrides (each logged)."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import GameOver, IllegalAction
from chalicelib.core.game import Entrant
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import (
    GUOJUNWANG,
    HUAFEI,
    HUANGSHANG,
    JINXI,
    QIFEI,
    WENTAIYI,
    ZHENHUAN,
    Alignment,
)
from chalicelib.games.zhenhuan.state import Phase, ZhenhuanOptions

from .helpers import HOST, act, dusk, night, proposed, started, step, transition

R = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]


def test_good_wins_when_the_demon_dies_with_no_successor() -> None:
    """当恶魔死亡且无法立刻产生新的恶魔时，游戏结束，好人胜利 (confirmed by the storyteller: DECISIONS #12)"""
    t = transition(night(started(R)), type="execute", seat=5)
    assert t.state.phase is Phase.DAY and not t.results and proposed(t.state) is Alignment.GOOD
    assert GAME.pending(t.state).label == "说书人", "the pending label is public: it does not tell"
    t = transition(t.state, type="confirm_end")
    assert t.state.phase is Phase.OVER and t.state.winner is Alignment.GOOD
    (outcome,) = t.results
    assert outcome.unit == "game" and outcome.extra["winner"] == "good"
    assert [r.won for r in outcome.results] == [True, True, True, True, False, False, True]
    assert outcome.results[5].stats == {"alive": 0.0, "evil": 1.0, "demon": 1.0}
    assert any(e.kind == "game_over" for e in t.events)
    assert GAME.pending(t.state) is None


def test_evil_wins_when_two_are_alive_and_the_demon_is_one_of_them() -> None:
    """当场上仅有两名玩家存活时，若恶魔依然存活，则坏人胜利"""
    state = night(started([ZHENHUAN, JINXI, GUOJUNWANG, HUAFEI, HUANGSHANG]))
    state = act(act(state, type="kill", seat=0), type="kill", seat=1)
    assert state.phase is Phase.DAY
    t = transition(act(state, type="execute", seat=2), type="confirm_end")
    assert t.state.winner is Alignment.EVIL and t.results[0].extra["winner"] == "evil"


def test_travellers_do_not_count_towards_two_alive() -> None:
    """Travellers do not count toward "2 players alive" (botc.md §3.6)."""
    entrants = [Entrant(i, f"p{i}") for i in range(16)]
    state = GAME.setup(entrants, ZhenhuanOptions(), Rng.from_int(11))
    state = act(state, type="begin")
    demon = next(s.seat for s in state.seats if s.role in ("huangshang", "taishanghuang"))
    other = next(s.seat for s in state.seats if s.seat != demon and s.role != "traveller")
    state = night(state)
    for s in state.seats:
        if s.seat not in (demon, other, 15) and state.phase is Phase.DAY:
            state = act(state, type="set_alive", seat=s.seat, alive=False)
    assert state.seats[15].alive and proposed(state) is Alignment.EVIL


def test_declare_winner_is_a_logged_override_with_results() -> None:
    """The storyteller may end the game and name the winner (说书人…选择获胜阵营), then confirms (#12)."""
    t = transition(started(R), type="declare_winner", winner="evil", reason="胧月被处决")
    assert t.state.phase is Phase.NIGHT and proposed(t.state) is Alignment.EVIL and not t.results
    assert any(e.kind == "host" and e.override for e in t.events)
    t = transition(t.state, type="confirm_end")
    assert t.state.winner is Alignment.EVIL and t.results[0].reason == "胧月被处决"
    with pytest.raises(GameOver):
        GAME.check(t.state, HOST, GAME.action_adapter.validate_python({"type": "dusk"}))


def test_a_declared_winner_can_be_withdrawn_and_the_board_is_judged_afresh() -> None:
    """DECISIONS #12 (nothing is final until she confirms): her own word on the winner can be taken back
    (「撤回裁定」) — also after players acted, when 撤销 no longer reaches it; a win the board meets is
    then proposed as it stands. A met condition is not hers to withdraw (it goes when the board changes)."""
    state = act(night(started(R)), type="declare_winner", winner="evil")
    state = act(state, type="execute", seat=5)  # the demon executed: the board says good wins
    assert proposed(state) is Alignment.EVIL, "her word stands over a met condition"
    state = act(state, type="withdraw_end")
    assert proposed(state) is Alignment.GOOD and not state.end.declared
    with pytest.raises(IllegalAction) as err:
        act(state, type="withdraw_end")
    assert err.value.code == "NO_PROPOSED_END"
    assert act(act(night(started(R)), type="declare_winner", winner="evil"), type="withdraw_end").end is None


def test_a_met_win_is_only_proposed_and_no_single_press_ends_the_game() -> None:
    """DECISIONS #12: A game never ends by itself on a single press: when a win condition is met the
    storyteller sees 「确认结束」 with the reason and may confirm or override; nothing is final until
    she confirms."""
    state = act(night(started(R)), type="execute", seat=5)
    assert state.phase is Phase.DAY and state.end.reason == "恶魔死亡，且没有新的恶魔"
    buttons = [b.type for b in GAME.view(state, HOST).grimoire.buttons]
    assert "confirm_end" in buttons
    state = act(state, type="set_alive", seat=5, alive=True)
    assert state.end is None, "the board changed back: the proposal goes"
    with pytest.raises(IllegalAction) as err:
        act(state, type="confirm_end")
    assert err.value.code == "NO_PROPOSED_END"
    assert act(act(state, type="declare_winner", winner="good"), type="confirm_end").phase is Phase.OVER


@pytest.mark.parametrize(
    "action",
    [
        {"type": "set_status", "seat": 1, "status": "poisoned", "until": "never"},
        {"type": "set_alive", "seat": 1, "alive": False},
        {"type": "set_role", "seat": 1, "role": "chongfei"},
        {"type": "set_alignment", "seat": 1, "alignment": "evil"},
        {"type": "set_ghost_vote", "seat": 1, "has": False},
    ],
    ids=lambda a: a["type"],
)
def test_every_override_is_logged(action: dict) -> None:
    """DECISIONS #6: every override is logged."""
    t = transition(night(started(R)), **action)
    assert any(e.kind == "host" and e.override for e in t.events)


def test_clear_status_is_logged_and_needs_the_status() -> None:
    """DECISIONS #6: every override is logged."""
    state = act(night(started(R)), type="set_status", seat=1, status="drunk")
    t = transition(state, type="clear_status", seat=1, status="drunk")
    assert any(e.kind == "host" and e.override for e in t.events)
    with pytest.raises(Exception, match="NO_SUCH_STATUS"):
        transition(t.state, type="clear_status", seat=1, status="drunk")


def test_set_role_tells_the_player_and_changes_alignment() -> None:
    """If a player's alignment or character changes, they learn it (botc.md §3.4)."""
    state = act(night(started(R)), type="set_role", seat=1, role="chongfei")
    assert state.seats[1].role == "chongfei" and state.seats[1].alignment is Alignment.EVIL
    assert state.log[-2].kind == "you_are" and state.log[-2].seat == 1


def test_night_set_alive_is_announced_at_dawn() -> None:
    """Deaths land together at dawn; players learn who died, never why."""
    state = act(started(R), type="set_alive", seat=1, alive=False)
    assert state.unannounced == (1,)
    assert [e for e in night(state).log if e.kind == "announce"][-1].deaths == (1,)


def test_storyteller_cancels_a_night_death() -> None:
    """DECISIONS #6: every automatic step (death included) can be overridden, and is logged."""
    state = step(dusk(night(started(R))), "huangshang", 1)
    assert not state.seats[1].alive and state.unannounced == (1,)
    t = transition(state, type="set_alive", seat=1, alive=True)
    assert not t.state.night.deaths and any(e.kind == "host" and e.override for e in t.events)
    day = night(t.state)
    assert day.seats[1].alive and day.log[-1].deaths == () and day.log[-1].revived == ()
