"""The table around the deals: quitting and kicking, leaving, 继续, 托管 and its return, the end."""

from __future__ import annotations

import pytest
from pydantic import ValidationError

from chalicelib.core.errors import DomainError, Forbidden, GameOver, IllegalAction
from chalicelib.core.game import RecordsPolicy, RecordSubject, Viewer
from chalicelib.games import get_game
from chalicelib.games.baohuang.actions import Auto, Declare, Kick, Leave, NextDeal, Pass, Play, Quit, Resume
from chalicelib.games.baohuang.cards import Variant
from chalicelib.games.baohuang.errors import ERRORS
from chalicelib.games.baohuang.game import GAME
from chalicelib.games.baohuang.model import BaohuangDealResult, Options, Phase
from chalicelib.games.baohuang.views import HELD_MINE, HELD_OTHERS

from .helpers import ENTRANTS, act, kinds, new_table, rng, table

HANDS = ("S7#1 S7#2 SA#1", "S8#1 S9#1 S2#1", "S10#1 SQ#1 H10#1", "SJ#1 DJ#1 CJ#1", "S6#1 D6#1 C6#1")


def between():
    """A table between deals 1 and 2."""
    state = table("BJ#1", "BJ#2", "S9#1 S9#2", "S10#1 S10#2", "SJ#1 SJ#2")
    state = act(state, 0, Play(cards=("BJ#1",))).state
    return act(state, 1, Play(cards=("BJ#2",)), step=2).state


def test_quit_mid_deal_costs_thirty_and_ends_the_table():
    """Seed: "游戏开始后，如有玩家强行退出或被管理员踢出游戏将被扣去30分。游戏自动结束。" Decision: the deal
    ends with only the penalty scored (the others 0) and the table ends: five seats are fixed."""
    tr = act(new_table(), 2, Quit())
    (outcome,) = tr.results
    assert outcome.unit == "deal-1" and outcome.reason == "quit"
    assert [r.score for r in outcome.results] == [0, 0, -30, 0, 0]
    assert outcome.results[2].stats["quits"] == 1 and not any(r.won for r in outcome.results)
    assert outcome.extra["winner"] is None  # a quit deal went to nobody
    assert outcome.extra["basis"] == ""  # and the places made no score
    assert tr.state.phase is Phase.OVER and tr.state.totals == (0, 0, -30, 0, 0)
    assert GAME.pending(tr.state) is None
    assert kinds(tr)[-1] == "table_ended" and tr.state.over_reason == "quit"
    with pytest.raises(GameOver):
        GAME.check(tr.state, Viewer.player(0), Pass())


def test_host_kick_mid_deal_costs_thirty():
    """Seed: "被管理员踢出游戏将被扣去30分". Only the host may kick."""
    state = table(*HANDS)
    with pytest.raises(Forbidden):
        GAME.check(state, Viewer.player(0), Kick(seat=3))
    tr = GAME.apply(state, Viewer.host(), Kick(seat=3), rng())
    (outcome,) = tr.results
    assert outcome.reason == "kicked" and [r.score for r in outcome.results] == [0, 0, 0, -30, 0]
    assert tr.state.last.log[-1].act == "kick" and GAME.pending(tr.state) is None
    with pytest.raises(IllegalAction):
        GAME.check(state, Viewer.host(), Pass())


def test_leaving_between_deals_ends_the_table_without_penalty():
    """Decision: `leave` (or `quit`) between deals ends the table with no penalty and no result."""
    state = between()
    assert state.phase is Phase.BETWEEN
    tr = act(state, 4, Leave())
    assert tr.results == () and tr.state.phase is Phase.OVER and tr.state.over_reason == "left"
    assert tr.state.totals == state.totals and GAME.pending(tr.state) is None
    assert act(state, 4, Quit()).results == ()
    with pytest.raises(IllegalAction) as err:
        GAME.check(table(*HANDS), Viewer.player(0), Leave())
    assert err.value.code == "MID_DEAL"


def test_next_deal_starts_when_all_five_are_ready():
    """The table plays deal after deal with running totals; the last emperor deals."""
    state = between()
    for seat in range(4):
        state = act(state, seat, NextDeal(), step=seat + 3).state
        assert state.phase is Phase.BETWEEN
    with pytest.raises(IllegalAction):
        GAME.check(state, Viewer.player(0), NextDeal())
    state = act(state, 4, NextDeal(), step=9).state
    assert state.phase is Phase.THRONE and state.deal.no == 2 and state.deal.dealer == 0
    assert state.totals == (6, 3, -3, -3, -3)


def test_between_deals_timeout_makes_everyone_ready():
    """Decision: when the 继续 deadline passes, seats that did not press it are made ready (not 托管)."""
    tr = GAME.on_timeout(between(), rng(5))
    assert tr.state.phase is Phase.THRONE and tr.state.deal.no == 2 and not any(tr.state.auto)


def test_turn_timeout_puts_the_seat_in_tuoguan_until_she_acts_again():
    """DECISIONS 保皇 #8: "on expiry the seat goes to 托管 (auto-play: the cheapest legal play ...) until
    the player acts again. 托管 is not quitting and costs no penalty." """
    tr = GAME.on_timeout(table(*HANDS), rng(1))
    state = tr.state
    assert state.auto[0] and [(e.seat, e.cards, e.auto) for e in tr.events if e.kind == "played"] == [
        (0, ("S7#1", "S7#2"), True)
    ]
    assert state.deal.turn == 1 and GAME.pending(state).seats == frozenset({1})
    assert tr.results == ()
    back = act(state, 0, Resume())
    assert not back.state.auto[0] and ("auto_changed") in kinds(back)
    with pytest.raises(IllegalAction):
        GAME.check(back.state, Viewer.player(0), Resume())


def test_tuoguan_keeps_playing_until_a_human_must_act():
    """Brief: while the seat to act is in 托管 the engine keeps auto-playing in the same transition."""
    state = table(*HANDS, auto=(False, True, True, False, False))
    tr = act(state, 0, Play(cards=("S7#1",)))
    played = [(e.seat, e.auto) for e in tr.events if e.kind in ("played", "passed")]
    assert played[0] == (0, False) and all(auto for _, auto in played[1:]) and [s for s, _ in played] == [0, 1, 2]
    assert tr.state.deal.turn == 3


def test_tuoguan_passes_when_a_known_partner_holds_the_trick():
    """DECISIONS 保皇 #8: "or pass when the partner holds the trick". Decision: only partners known to that
    seat count: the guard always knows the emperor; others once the guard is revealed."""
    state = table(*HANDS, auto=(False, True, False, False, False))
    tr = act(state, 0, Play(cards=("S7#1",)))
    assert [(e.seat, e.auto) for e in tr.events if e.kind == "passed"] == [(1, True)]
    # the emperor does not know her guard yet: in 托管 she beats the guard's play
    state = table(*HANDS, auto=(True, False, False, False, False), turn=1)
    tr = act(state, 1, Play(cards=("S8#1",)))
    tr = act(tr.state, 2, Pass())
    tr = act(tr.state, 3, Pass())
    tr = act(tr.state, 4, Pass())
    assert [(e.seat, e.auto) for e in tr.events if e.kind == "played"] == [(0, True)]


def test_voluntary_tuoguan_plays_at_once_on_her_turn():
    """DECISIONS 保皇 #8 (托管), entered by choice: the engine plays for her at once on her turn."""
    state = table(*HANDS)
    tr = act(state, 0, Auto())
    assert tr.state.auto[0] and tr.state.deal.turn == 1
    with pytest.raises(IllegalAction):
        GAME.check(tr.state, Viewer.player(0), Auto())


def test_all_five_in_tuoguan_finish_the_deal_and_end_the_table():
    """Decision: if all five seats are in 托管 the table ends after the current deal, so a table
    without humans always terminates (every one of them asked for it)."""
    state = new_table(seed=3).model_copy(update={"auto": (True,) * 5})
    tr = GAME.on_timeout(state, rng(1))
    assert [o.unit for o in tr.results] == ["deal-1"]
    assert tr.state.phase is Phase.OVER and tr.state.over_reason == "all_auto"
    assert GAME.pending(tr.state) is None and kinds(tr)[-1] == "table_ended"
    assert sum(r.score for r in tr.results[0].results) == 0


def test_spectators_cannot_act():
    """Spectators (观战) see the public board only and cannot act."""
    with pytest.raises(Forbidden):
        GAME.check(table(*HANDS), Viewer.spectator(), Pass())


def test_game_attributes_and_options():
    """Brief: 5 fixed seats, created by the host pressing start; options variant / baoliu / turn_seconds
    (default 30, 10..300), the deadline of every pending step."""
    assert (GAME.key, GAME.family, GAME.title, GAME.min_seats, GAME.max_seats) == ("baohuang", "baohuang", "保皇", 5, 5)
    assert (GAME.auto_start, GAME.host_runs, GAME.seats_consorts, GAME.allows_hurry, GAME.bots) == (
        False, False, False, False, True)
    assert GAME.records == RecordsPolicy(board="baohuang", subject=RecordSubject.USER)
    assert GAME.errors is ERRORS and GAME.outcome_extra_model is BaohuangDealResult
    assert get_game("baohuang") is GAME
    defaults = Options()
    assert (defaults.variant, defaults.baoliu, defaults.turn_seconds) == ("simple", False, 30)
    assert GAME.parse_options({"variant": "classic"}) == Options(variant=Variant.CLASSIC)
    for bad in (9, 301):
        with pytest.raises(ValidationError):
            Options(turn_seconds=bad)
    state = GAME.setup(ENTRANTS, Options(variant=Variant.CLASSIC, turn_seconds=45), rng())
    assert GAME.pending(state).timeout_s == 45 and GAME.pending(state).label == "throne"
    with pytest.raises(DomainError) as err:  # the base class's seat count check
        GAME.check_start(ENTRANTS[:4], Options())
    assert err.value.code == "NOT_ENOUGH_PLAYERS"


def test_kick_between_deals_ends_the_table_without_penalty():
    """Seed: the 30-point penalty is for leaving "游戏开始后" (mid-deal). Decision: a kick between deals
    ends the table with no penalty."""
    tr = GAME.apply(between(), Viewer.host(), Kick(seat=2), rng())
    assert tr.results == () and tr.state.over_reason == "kicked" and tr.state.totals == (6, 3, -3, -3, -3)


def test_quit_stored_as_a_sealed_move_still_quits():
    """The rooms store any player action of the sealed phase as her move; a `quit` among them ends the
    deal with the penalty when the phase is settled; `auto` puts that seat in 托管 (and 不声明)."""
    state = table("BJ#1 S7#1", "LJ#1 S8#1", "S9#1", "S10#1", "SJ#1", phase=Phase.DECLARE)
    tr = GAME.settle(state, {3: Quit(), 2: Declare()}, rng())
    assert [o.reason for o in tr.results] == ["quit"] and tr.results[0].results[3].score == -30
    tr = GAME.settle(state, {4: Auto(), 2: Declare()}, rng())
    assert tr.state.auto[4] and tr.state.deal.rebels == (2,)


def test_voluntary_tuoguan_between_deals_counts_as_ready():
    """Decision: seats in 托管 are ready for the next deal automatically."""
    state = act(between(), 2, Auto()).state
    assert state.auto[2] and state.ready[2]


def _finish_deal(state, pick_seat_moves=None, outcomes: list | None = None):
    """Play the running deal to its end, every human seat choosing as 托管 would (the simple bot);
    the deal's outcomes go to `outcomes` when given."""
    from chalicelib.core.game import BotLevel

    for step in range(1, 600):
        pending = GAME.pending(state)
        if state.phase is not Phase.PLAY and state.phase is not Phase.THRONE and state.phase is not Phase.DECLARE:
            return state
        seat = min(pending.seats)
        action = GAME.bot_action(GAME.view(state, Viewer.player(seat)), seat, BotLevel.SIMPLE, rng(step))
        if pending.kind.value == "sealed":
            tr = GAME.settle(state, {s: GAME.bot_action(GAME.view(state, Viewer.player(s)), s, BotLevel.SIMPLE,
                                                        rng(step)) for s in pending.seats}, rng(step))
        else:
            tr = GAME.apply(state, Viewer.player(seat), action, rng(step))
        state = tr.state
        if outcomes is not None:
            outcomes.extend(tr.results)
    raise AssertionError("the deal did not end")


def test_a_seat_in_tuoguan_for_a_whole_deal_counts_as_absent():
    """Rules §8b: a seat in 托管 for a whole deal (every move of hers in the last finished deal was the
    engine's, and she is still in 托管) may be handed to a bot after a vote of the others."""
    state = new_table(seed=3).model_copy(update={"auto": (False, False, True, False, False)})
    assert not GAME.seat_absent(state, 2)  # no finished deal yet
    done = _finish_deal(state)
    assert done.phase is Phase.BETWEEN and done.last is not None
    assert GAME.seat_absent(done, 2)
    assert not GAME.seat_absent(done, 0)  # she played herself
    back = done.model_copy(update={"auto": (False,) * 5})
    assert not GAME.seat_absent(back, 2)  # she came back


def test_a_seat_whose_every_choice_was_tuoguans_reaches_no_board():
    """Platform P11 (boards measure play) and rules §15 (托管 is the SIMPLE bot): a seat in 托管 for the
    whole deal gets her place and score shown, but `played` is false, so no board row or record."""
    state = new_table(seed=3).model_copy(update={"auto": (False, False, True, False, False)})
    outcomes: list = []
    _finish_deal(state, outcomes=outcomes)
    (deal,) = outcomes
    assert [r.played for r in deal.results] == [True, True, False, True, True]
    assert deal.results[2].place is not None  # her result is still shown


def _lone_player_among_bots(**update):
    """Seat 0 a person, seats 1–4 bots (played here by the engine as 托管, as the SIMPLE bot plays)."""
    return new_table(seed=3).model_copy(update={"bots": (False, True, True, True, True),
                                                "auto": (False, True, True, True, True), **update})


def test_a_clock_tuoguan_of_the_last_person_playing_waits_for_her_between_deals():
    """DECISIONS 保皇 #8: "on expiry the seat goes to 托管 ... until the player acts again." Decision
    (§15): the clock's 托管 of the last person playing does not end the table at the deal's end; the
    table goes between deals and waits for her 继续, with no clock, and deals on when she presses it."""
    tr = GAME.on_timeout(_lone_player_among_bots(), rng(1))
    state = tr.state
    assert [o.unit for o in tr.results] == ["deal-1"] and "table_ended" not in kinds(tr)
    assert state.phase is Phase.BETWEEN and state.auto[0] and state.timed_out[0]
    assert state.ready == (False, True, True, True, True)
    pending = GAME.pending(state)
    assert (pending.seats, pending.timeout_s, pending.label) == (frozenset({0}), None, "between")
    assert GAME.view(state, Viewer.player(0)).held_note == HELD_MINE
    assert GAME.view(state, Viewer.spectator()).held_note == HELD_OTHERS.format(name="玩家0")
    again = GAME.on_timeout(state, rng(2))  # a late clock does not deal without her
    assert again.state.phase is Phase.BETWEEN and not again.state.ready[0] and again.results == ()
    back = act(state, 0, NextDeal(), step=3).state
    assert back.phase in (Phase.THRONE, Phase.DECLARE, Phase.PLAY) and back.deal_no == 2
    assert not back.auto[0] and not back.timed_out[0] and GAME.view(back, Viewer.player(0)).held_note == ""


def test_a_between_deals_clock_readies_the_bots_but_not_the_person_it_waits_for():
    """DECISIONS 保皇 #8: "on expiry the seat goes to 托管 ... until the player acts again." Decision (§14, §15): at the 继续 deadline the missing seats are made ready, except the last
    person playing whom the clock put in 托管: she is waited for."""
    state = GAME.on_timeout(_lone_player_among_bots(), rng(1)).state.model_copy(
        update={"auto": (True, False, False, False, False), "ready": (False,) * 5})
    assert GAME.pending(state).timeout_s == 30  # the bots are still to press 继续: the clock runs
    tr = GAME.on_timeout(state, rng(2))
    assert tr.state.phase is Phase.BETWEEN and tr.state.ready == (False, True, True, True, True)
    assert GAME.pending(tr.state).timeout_s is None


def test_a_tuoguan_the_last_person_playing_asked_for_still_ends_the_table():
    """DECISIONS 保皇 #8: "on expiry the seat goes to 托管 ... until the player acts again." Decision (§15): a 托管 she asked for as the last person playing (the app warned her,
    `last_player`) ends the table after that deal (「在座的人都已托管，本桌结束」)."""
    state = _lone_player_among_bots()
    assert GAME.view(state, Viewer.player(0)).last_player
    tr = act(state, 0, Auto())
    assert tr.state.phase is Phase.OVER and tr.state.over_reason == "all_auto" and not tr.state.timed_out[0]


def test_when_two_people_ran_out_of_time_no_one_is_waited_for():
    """DECISIONS 保皇 #8: "on expiry the seat goes to 托管 ... until the player acts again." Decision (§15): the table waits for one person, the last playing; when the clock put two
    people in 托管 (everyone walked away) the table ends after the deal, as when all five asked."""
    state = _lone_player_among_bots(bots=(False, False, True, True, True),
                                    timed_out=(False, True, False, False, False))
    tr = GAME.on_timeout(state, rng(1))
    assert tr.state.phase is Phase.OVER and tr.state.over_reason == "all_auto"


def test_the_last_player_warning_is_not_given_when_another_person_would_be_waited_for():
    """DECISIONS 保皇 #8: "on expiry the seat goes to 托管 ... until the player acts again." §15: `last_player` says her 托管 would end the table; with another person in the clock's 托管
    the table would wait for that one, so there is nothing to warn of."""
    clocked = _lone_player_among_bots(bots=(False, False, True, True, True), auto=(False, True, True, True, True),
                                      timed_out=(False, True, False, False, False))
    assert not GAME.view(clocked, Viewer.player(0)).last_player
    asked = clocked.model_copy(update={"timed_out": (False,) * 5})
    assert GAME.view(asked, Viewer.player(0)).last_player
