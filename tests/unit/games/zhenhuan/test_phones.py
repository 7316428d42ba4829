"""Players from their phones (issue #11, item 6): a living player nominates, everyone votes during an
open vote with a clock; the storyteller opens, closes and corrects it. DECISIONS #4 throughout."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import Conflict, Forbidden, IllegalAction
from chalicelib.core.game import PendingKind, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import GUOJUNWANG, HUAFEI, HUANGSHANG, JINXI, QIFEI, WENTAIYI, ZHENHUAN
from chalicelib.games.zhenhuan.state import GameState

from .helpers import act, night, player_act, public, started

R = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]


def day1() -> GameState:
    return night(started(R))


def _code(exc: type[Exception], fn, *args, **kw) -> str:  # type: ignore[no-untyped-def]
    with pytest.raises(exc) as err:
        fn(*args, **kw)
    return err.value.code  # type: ignore[attr-defined]


def test_a_living_player_nominates_for_herself_once_a_day() -> None:
    """DECISIONS #4: Each living player nominates at most once a day and each player is nominated at
    most once a day — from her own phone, for herself only."""
    state = player_act(day1(), 0, type="nominate", nominator=0, nominee=5)
    assert public(state)["day"]["nominations"][0]["nominee"] == 5
    state = act(state, type="vote", votes=[])
    assert _code(Forbidden, player_act, state, 1, type="nominate", nominator=2, nominee=4) == "NOT_YOUR_SEAT"
    assert _code(IllegalAction, player_act, state, 0, type="nominate", nominator=0, nominee=4) == (
        "ALREADY_NOMINATED_TODAY"
    )
    assert _code(IllegalAction, player_act, state, 1, type="nominate", nominator=1, nominee=5) == (
        "ALREADY_NOMINEE_TODAY"
    )
    dead = act(state, type="kill", seat=3)
    assert _code(IllegalAction, player_act, dead, 3, type="nominate", nominator=3, nominee=4) == "DEAD_NOMINATOR"
    pending = player_act(state, 1, type="nominate", nominator=1, nominee=4)
    assert _code(IllegalAction, player_act, pending, 2, type="nominate", nominator=2, nominee=3) == "VOTE_PENDING"


def test_players_send_only_their_nomination_and_their_hand() -> None:
    """Everything else stays the storyteller's (DECISIONS #6); spectators never act."""
    state = day1()
    assert _code(Forbidden, player_act, state, 0, type="dusk") == "STORYTELLER_ONLY"
    assert _code(Forbidden, player_act, state, 0, type="vote", votes=[0, 1]) == "NOT_YOUR_SEAT"
    action = GAME.action_adapter.validate_python({"type": "nominate", "nominator": 0, "nominee": 5})
    with pytest.raises(Forbidden):
        GAME.check(state, Viewer.spectator(), action)


def test_the_vote_clock_waits_for_who_may_still_vote_and_closes_on_its_deadline() -> None:
    """The storyteller opens the vote on a nomination (default 15 s + 3 s per voter): while it is open
    the game waits for the players who may still vote (TURN, with the clock as the deadline); when the
    deadline passes `on_timeout` closes and counts it, seats that did not vote counting as no."""
    state = player_act(day1(), 0, type="nominate", nominator=0, nominee=5)
    assert GAME.pending(state).kind is PendingKind.HOST
    state = act(state, type="open_vote")
    pending = GAME.pending(state)
    assert pending.kind is PendingKind.TURN and pending.seats == frozenset(range(7))
    assert pending.timeout_s == 15 + 3 * 7 and pending.label == "投票计时#1"
    state = player_act(state, 6, type="vote", yes=True)
    state = player_act(state, 1, type="vote", yes=False)
    state = player_act(state, 2, type="vote", yes=True)
    assert GAME.pending(state).seats == frozenset({0, 3, 4, 5})
    assert GAME.pending(state).timeout_s == pending.timeout_s, "the clock's length: counted from the opening"
    t = GAME.on_timeout(state, Rng.from_int(1))
    (vote,) = [e for e in t.events if e.kind == "vote"]
    assert vote.voters == (6, 2) and vote.count == 2 and vote.threshold == 4
    assert GAME.pending(t.state).kind is PendingKind.HOST
    with pytest.raises(Conflict):
        GAME.on_timeout(t.state, Rng.from_int(1))


def test_the_tally_runs_clockwise_from_the_nominee_who_votes_last() -> None:
    """The tally is shown in circle order starting clockwise from the nominee (official clock hand)."""
    state = act(player_act(day1(), 1, type="nominate", nominator=1, nominee=3), type="open_vote")
    for seat in (0, 3, 6, 4):
        state = player_act(state, seat, type="vote", yes=True)
    state = act(state, type="close_vote")
    assert public(state)["day"]["nominations"][0]["voters"] == [4, 6, 0, 3]
    assert state.day.block == 3


def test_dead_players_vote_once_with_their_ghost_vote_and_the_last_hand_closes_the_vote() -> None:
    """DECISIONS #4: Dead players keep one ghost vote. Each player votes once; when nobody is left to
    vote the vote closes by itself."""
    state = act(act(day1(), type="kill", seat=2), type="set_ghost_vote", seat=2, has=True)
    state = act(act(state, type="kill", seat=3), type="set_ghost_vote", seat=3, has=False)
    state = act(player_act(state, 0, type="nominate", nominator=0, nominee=5), type="open_vote")
    assert 3 not in GAME.pending(state).seats
    assert _code(IllegalAction, player_act, state, 3, type="vote", yes=True) == "NO_GHOST_VOTE"
    state = player_act(state, 2, type="vote", yes=True)
    assert _code(IllegalAction, player_act, state, 2, type="vote", yes=False) == "ALREADY_VOTED"
    for seat in (0, 1, 4, 5):
        state = player_act(state, seat, type="vote", yes=seat < 2)
    assert state.day.clock is not None
    state = player_act(state, 6, type="vote", yes=True)
    assert state.day.clock is None and state.day.nominations[0].voters == (6, 0, 1, 2)
    assert not state.seats[2].ghost_vote and state.day.nominations[0].ghost == (2,)


def test_a_hand_raised_alive_stays_a_living_vote_if_she_dies_before_the_count() -> None:
    """DECISIONS #4: Dead players keep one ghost vote — spent by a hand raised while dead. One raised
    alive, the storyteller's 「死亡」 before the count, is a living vote: she keeps her ghost vote."""
    state = act(player_act(day1(), 0, type="nominate", nominator=0, nominee=1), type="open_vote")
    state = player_act(state, 2, type="vote", yes=True)
    state = act(act(state, type="kill", seat=2), type="close_vote")
    assert state.day.nominations[0].voters is not None and 2 in state.day.nominations[0].voters
    assert state.day.nominations[0].ghost == () and state.seats[2].ghost_vote


def test_the_storyteller_closes_early_and_enters_or_corrects_any_hand() -> None:
    """The storyteller may close the vote early and still enter or correct any of it."""
    state = act(player_act(day1(), 0, type="nominate", nominator=0, nominee=5), type="open_vote", seconds=30)
    assert GAME.pending(state).timeout_s == 30
    state = player_act(state, 1, type="vote", yes=True)
    state = act(state, type="vote", seat=1, yes=False)
    state = act(state, type="vote", seat=4, yes=True)
    assert {(h.seat, h.yes) for h in state.day.clock.hands} == {(1, False), (4, True)}
    assert [h["seat"] for h in public(state)["day"]["vote"]["hands"]] == [1, 4], "hands are public"
    closed = act(state, type="close_vote")
    assert closed.day.nominations[0].voters == (4,) and closed.day.clock is None
    recorded = act(state, type="vote", votes=[0, 1, 2, 3])
    assert recorded.day.nominations[0].voters == (0, 1, 2, 3) and recorded.day.block == 5
    assert _code(IllegalAction, act, closed, type="close_vote") == "NO_OPEN_VOTE"
    assert _code(IllegalAction, act, state, type="dusk") == "VOTE_OPEN"


def test_the_storyteller_edits_or_deletes_a_recorded_nomination_while_the_day_is_open() -> None:
    """Issue #11: edit or delete a recorded nomination or vote while the day is open; ghost votes and
    the chopping block (DECISIONS #4) follow the correction."""
    state = act(day1(), type="kill", seat=6)
    state = act(act(state, type="nominate", nominator=0, nominee=5), type="vote", votes=[0, 1, 2])
    assert state.day.block == 5 and state.day.nominations[0].threshold == 3
    state = act(state, type="edit_vote", index=0, votes=[0, 1])
    assert state.day.block is None and [e for e in state.log if e.kind == "vote"][-1].count == 2
    state = act(state, type="edit_vote", index=0, votes=[0, 1, 6])
    assert state.day.block == 5 and not state.seats[6].ghost_vote
    state = act(state, type="delete_nomination", index=0)
    assert state.day.nominations == () and state.day.block is None and state.seats[6].ghost_vote
    assert any(e.kind == "nomination" and e.deleted for e in state.log), "the deletion is public"
    again = act(state, type="nominate", nominator=0, nominee=5)
    assert again.day.nominations[0].nominator == 0
    assert _code(IllegalAction, act, again, type="edit_vote", index=0, votes=[1]) == "NOT_COUNTED"
    assert _code(IllegalAction, act, again, type="delete_nomination", index=3) == "NO_SUCH_NOMINATION"
