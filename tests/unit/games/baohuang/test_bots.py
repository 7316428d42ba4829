"""Bots (issue #12.1–2): a bot sees only its seat's view; SIMPLE is 托管; ADVANCED plays by what her
seat knows; five bots finish whole deals, and the same seed plays the same deal."""

from __future__ import annotations

import inspect
import re

import pytest

from chalicelib.core.game import BotLevel, PendingKind, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.baohuang.actions import (
    Declare,
    NextDeal,
    Pass,
    PassThrone,
    Play,
    StayHidden,
    TakeThrone,
)
from chalicelib.games.baohuang.cards import Variant
from chalicelib.games.baohuang.game import GAME
from chalicelib.games.baohuang.model import BaohuangState, Options, Phase

from .helpers import ENTRANTS, rng, table

CODE = re.compile(r'"([A-Z0-9]{2,3}#[1-4])"')
LEVELS = (BotLevel.SIMPLE, BotLevel.ADVANCED)


def bot_move(state: BaohuangState, seat: int, level: BotLevel, step: int = 1):
    """The platform's path: the seat's own view, then the bot."""
    return GAME.bot_action(GAME.view(state, Viewer.player(seat)), seat, level, rng(step))


def bot_deal(variant: Variant, levels: tuple[BotLevel, ...], seed: int, on_turn=None):
    """Five bots play one deal to its result as the platform drives them; returns (outcome, state)."""
    state = GAME.setup(ENTRANTS, Options(variant=variant), Rng.from_int(seed, 0))
    for step in range(1, 2000):
        pending = GAME.pending(state)
        r = Rng.from_int(seed, step)
        if pending.kind is PendingKind.SEALED:
            moves = {}
            for seat in sorted(pending.seats):
                move = GAME.bot_action(GAME.view(state, Viewer.player(seat)), seat, levels[seat], r)
                GAME.check(state, Viewer.player(seat), move)
                moves[seat] = move
            tr = GAME.settle(state, moves, r)
        else:
            (seat,) = pending.seats
            move = GAME.bot_action(GAME.view(state, Viewer.player(seat)), seat, levels[seat], r)
            if on_turn is not None:
                on_turn(state, seat, move)
            GAME.check(state, Viewer.player(seat), move)
            tr = GAME.apply(state, Viewer.player(seat), move, r)
        state = tr.state
        if tr.results:
            (outcome,) = tr.results
            return outcome, state
    raise AssertionError("the deal did not end")


def mid_play(variant: str = "classic", seed: int = 21) -> BaohuangState:
    """A real deal after the declaration, the guard still hidden, nobody in 托管."""
    state = GAME.setup(ENTRANTS, Options(variant=Variant(variant)), rng(0, seed))
    state = GAME.on_timeout(state, rng(1)).state
    state = GAME.settle(state, {}, rng(2)).state
    return state.model_copy(update={"auto": (False,) * 5})


# -- what a bot is given --------------------------------------------------------------------------


def test_a_bot_is_given_its_own_seat_projection_and_nothing_else():
    """Issue #12.1: `bot_action(view, seat, level, rng)` sees only that seat's projection — never the
    state, never another hand, never the hidden guard."""
    assert list(inspect.signature(GAME.bot_action).parameters) == ["view", "seat", "level", "rng"]
    state = mid_play()
    deal = state.deal
    assert deal.guard is not None and not deal.revealed
    for seat in range(5):
        view = GAME.view(state, Viewer.player(seat))
        assert view.hands is None and view.hand == deal.hands[seat]
        others = {code for s in range(5) if s != seat for code in deal.hands[s]}
        assert not others & set(CODE.findall(view.model_dump_json()))
        if seat != deal.guard:
            assert view.guard is None and deal.guard not in view.partners
        for level in LEVELS:
            move = GAME.bot_action(view, seat, level, rng())
            assert (move is None) == (seat != deal.turn)
            if move is not None:
                GAME.check(state, Viewer.player(seat), move)
    with pytest.raises(ValueError):  # the host's projection holds every hand: never a bot's
        GAME.bot_action(GAME.view(state, Viewer.host()), deal.turn, BotLevel.ADVANCED, rng())
    with pytest.raises(ValueError):
        GAME.bot_action(GAME.view(state, Viewer.player(0)), 1, BotLevel.SIMPLE, rng())


def test_the_view_shows_the_partners_a_seat_knows():
    """The guard knows the emperor; a commoner knows the seats that declared 造反 (only commoners can)."""
    hands = ("S7#1", "S8#1", "S9#1", "S10#1", "SJ#1")
    state = table(*hands, emperor=0, guard=1, rebels=(3,))
    assert GAME.view(state, Viewer.player(1)).partners == (0,)
    assert GAME.view(state, Viewer.player(2)).partners == (3,)
    assert GAME.view(state, Viewer.player(0)).partners == ()
    revealed = table(*hands, emperor=0, guard=1, revealed=True)
    assert GAME.view(revealed, Viewer.player(0)).partners == (1,)
    assert GAME.view(revealed, Viewer.player(4)).partners == (2, 3)


# -- SIMPLE is 托管 -----------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(Variant))
def test_simple_bot_moves_exactly_as_tuoguan(variant):
    """Issue #12.2: SIMPLE (简单) = today's 托管 heuristics. At every throne and trick decision of a
    whole deal, the SIMPLE bot's move from the seat's view is the move 托管 makes for that seat."""
    compared = []

    def compare(state, seat, move):
        if state.phase not in (Phase.THRONE, Phase.PLAY):
            return
        events = [e for e in GAME.on_timeout(state, rng(99)).events if e.kind != "auto_changed"]
        first = events[0]
        match move:
            case Play():
                assert (first.kind, first.seat, first.cards) == ("played", seat, move.cards)
            case Pass():
                assert (first.kind, first.seat) == ("passed", seat)
            case TakeThrone():
                assert (first.kind, first.seat, first.called, first.open_solo) == (
                    "throne_taken", seat, move.call, move.open_solo)
            case PassThrone():
                assert (first.kind, first.seat) == ("throne_passed", seat)
        compared.append(move)

    bot_deal(variant, (BotLevel.SIMPLE,) * 5, seed=31, on_turn=compare)
    assert len(compared) > 50 and any(isinstance(m, Pass) for m in compared)


def test_simple_bot_passes_when_a_known_partner_holds_the_trick():
    """DECISIONS 保皇 #8: "pass when the partner holds the trick" (a partner her seat knows)."""
    state = table("S7#1 S7#2 SA#1", "S8#1 S9#1 S2#1", "S10#1", "SJ#1", "S6#1", turn=1, trick=(0, "S7#1"))
    for level in LEVELS:
        assert bot_move(state, 1, level) == Pass()  # the guard behind her emperor
    assert bot_move(state.model_copy(update={"deal": state.deal.model_copy(update={"turn": 2, "trick": None})}),
                    2, BotLevel.SIMPLE) == Play(cards=("S10#1",))


# -- ADVANCED -----------------------------------------------------------------------------------

def filler(copy: int) -> str:
    """Ten low cards of pack `copy` (a pair of 6s, four 8s, four 9s): nobody is close to going out."""
    return " ".join([f"S6#{copy}", f"H6#{copy}"] + [f"{s}{r}#{copy}" for r in (8, 9) for s in "SHCD"])


def test_advanced_keeps_a_big_joker_in_a_quiet_trick_and_spends_it_when_it_matters():
    """An opponent's single A in a quiet position is not worth a 大王; when an opponent is about to go
    out, it is."""
    quiet = table("SA#1 " + filler(1), filler(2), "BJ#2 S7#1 H7#1 D10#1 " + filler(3), "S10#2 " + filler(4),
                  "SJ#4 DJ#4 CJ#4 HJ#4 SQ#1 SQ#2 SQ#3 SQ#4 HQ#1 HQ#2 HQ#3",
                  emperor=0, guard=1, revealed=True, turn=2, trick=(0, "SA#1"))
    assert bot_move(quiet, 2, BotLevel.ADVANCED) == Pass()
    hands = list(quiet.deal.hands)
    hands[0] = ("S7#3", "S7#4")  # the emperor holds two cards
    urgent = quiet.model_copy(update={"deal": quiet.deal.model_copy(update={"hands": tuple(hands)})})
    assert bot_move(urgent, 2, BotLevel.ADVANCED) == Play(cards=("BJ#2",))


def test_advanced_leads_her_weakest_whole_group_and_keeps_jokers():
    queens = "SQ#1 SQ#2 SQ#3 HQ#1 HQ#2 HQ#3 DQ#1 DQ#2 DQ#3 CQ#1"
    hand = "S7#1 H7#1 SK#1 SK#2 SK#3 LJ#2 BJ#2 S2#1 " + filler(1)
    state = table(hand, filler(2), "S10#1 " + filler(3), "SJ#1 " + filler(4), queens, emperor=0, guard=1, turn=0)
    assert bot_move(state, 0, BotLevel.ADVANCED) == Play(cards=("S6#1", "H6#1"))
    # a seat that may be against her holds two cards: lead a group she cannot follow
    short = table(hand, filler(2), "S10#1 " + filler(3), "SJ#1 " + filler(4), "SQ#1 SQ#2",
                  emperor=0, guard=1, turn=0)
    assert bot_move(short, 0, BotLevel.ADVANCED) == Play(cards=("S8#1", "H8#1", "C8#1", "D8#1"))
    # near the end a weak group goes out under a 大王, which nobody can beat
    end = table("S7#1 H7#1 SK#1 BJ#2", filler(2), "S10#1 " + filler(3), filler(4), queens,
                emperor=0, guard=1, turn=0)
    assert bot_move(end, 0, BotLevel.ADVANCED) == Play(cards=("S7#1", "H7#1", "BJ#2"))


def test_advanced_goes_out_at_once_when_her_whole_hand_is_one_play():
    state = table("S9#1 H9#1 LJ#2", "S8#1 S8#2 S8#3 S6#1", "S10#1", "SJ#1", "S6#2", turn=0, trick=(4, "S7#1 S7#2 S7#3"))
    assert bot_move(state, 0, BotLevel.ADVANCED) == Play(cards=("S9#1", "H9#1", "LJ#2"))


def test_advanced_goes_out_over_her_partner_and_otherwise_lets_the_partner_hold_the_trick():
    """Decision (§15a): a known partner's trick is never beaten, except by a play that empties her
    hand — going out helps her side (the result is the order the sides go out in)."""
    out = table("S7#1 S9#1 S9#2", "S8#1", "SQ#1 SQ#2", "SJ#1 SJ#2", "SK#1 SK#2", emperor=0, guard=1,
                turn=1, trick=(0, "S7#1"))
    assert bot_move(out, 1, BotLevel.ADVANCED) == Play(cards=("S8#1",))
    stay = table("S7#1 S9#1 S9#2", "S8#1 S10#1", "SQ#1 SQ#2", "SJ#1 SJ#2", "SK#1 SK#2", emperor=0, guard=1,
                 turn=1, trick=(0, "S7#1"))
    assert bot_move(stay, 1, BotLevel.ADVANCED) == Pass()


def full_hand(spec: str, n: int = 34) -> str:
    cards = spec.split()
    assert len(cards) == n
    return spec


STRONG = full_hand(" ".join([f"BJ#{c}" for c in (2, 3, 4)] + [f"LJ#{c}" for c in (2, 3, 4)]
                            + [f"{s}2#{c}" for s in "SHCD" for c in (1, 2, 3, 4)]
                            + [f"{s}A#{c}" for s in "SHCD" for c in (1, 2, 3)]))
WEAK = full_hand(" ".join([f"{s}{r}#{c}" for r in (6, 7) for s in "SHCD" for c in (1, 2, 3, 4)]
                          + ["S8#1", "H9#1"]))


def test_advanced_takes_the_throne_with_a_strong_hand_and_passes_a_weak_one():
    """Seed: "抓到皇牌的玩家可以当皇帝，如果没有实力当皇帝，可以让位给上家"."""
    for hand, expected in ((STRONG, TakeThrone()), (WEAK, PassThrone())):
        state = table(hand, "S8#2", "S9#2", "S10#2", "SJ#2", phase=Phase.THRONE, emperor=None, guard=None)
        for step in range(5):  # the seeded jitter never turns these around
            assert bot_move(state, 0, BotLevel.ADVANCED, step) == expected
        assert bot_move(state, 0, BotLevel.SIMPLE) == TakeThrone()


def test_advanced_declares_with_a_strong_hand_and_stays_hidden_with_a_weak_one():
    """DECISIONS 保皇 #4: 明保 (the guard) and 造反 (a commoner) are the same `declare`."""
    state = table("S8#2", STRONG, WEAK, "S10#2", "SJ#2", phase=Phase.DECLARE, emperor=0, guard=1)
    assert bot_move(state, 1, BotLevel.ADVANCED) == Declare()
    assert bot_move(state, 2, BotLevel.ADVANCED) == StayHidden()
    assert bot_move(state, 1, BotLevel.SIMPLE) == StayHidden()
    assert bot_move(state, 0, BotLevel.ADVANCED) is None  # the emperor has nothing to declare


# -- whole deals ----------------------------------------------------------------------------------


@pytest.mark.parametrize("variant", list(Variant))
@pytest.mark.parametrize("levels", [(BotLevel.SIMPLE,) * 5, (BotLevel.ADVANCED,) * 5,
                                    (BotLevel.ADVANCED, BotLevel.SIMPLE) * 2 + (BotLevel.ADVANCED,)])
def test_five_bots_finish_a_whole_deal(variant, levels):
    outcome, state = bot_deal(variant, levels, seed=5)
    assert outcome.reason == "finished" and sum(r.score for r in outcome.results) == 0
    assert sorted(r.place for r in outcome.results) == [1, 2, 3, 4, 5]
    assert state.phase is Phase.BETWEEN
    for seat in range(5):
        assert GAME.bot_action(GAME.view(state, Viewer.player(seat)), seat, levels[seat], rng()) == NextDeal()


@pytest.mark.parametrize("variant", list(Variant))
def test_the_same_seed_plays_the_same_deal(variant):
    """Bots are seeded through `rng` only: the same seed gives the same deal, move for move."""
    levels = (BotLevel.ADVANCED,) * 3 + (BotLevel.SIMPLE,) * 2
    first, state_1 = bot_deal(variant, levels, seed=8)
    again, state_2 = bot_deal(variant, levels, seed=8)
    assert first == again and state_1 == state_2
    other, _ = bot_deal(variant, levels, seed=9)
    assert other.extra["replay"]["log"] != first.extra["replay"]["log"]
