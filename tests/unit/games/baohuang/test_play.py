"""Playing tricks: order, soft pass, 接风, reveals by card, 保六, the early end and its result."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import IllegalAction, MalformedRequest, NotYourTurn
from chalicelib.core.game import PendingKind, Viewer
from chalicelib.games.baohuang.actions import Pass, Play
from chalicelib.games.baohuang.game import GAME
from chalicelib.games.baohuang.model import Phase, Solo
from chalicelib.games.baohuang.play import legal_plays

from .helpers import act, kinds, table


def play(state, seat, cards: str, step: int = 1):
    return act(state, seat, Play(cards=tuple(cards.split())), step)


def passes(state, *seats: int):
    for seat in seats:
        state = act(state, seat, Pass()).state
    return state


def test_emperor_leads_and_play_goes_to_the_next_seat():
    """Seed: "按逆时针方向，由皇帝先出牌". Decision: counter-clockwise is seat + 1 (下家 = (s + 1) % 5)."""
    state = table("S7#1 S8#1", "S9#1 S9#2", "S10#1 S10#2", "SQ#1 SQ#2", "SK#1 SK#2", emperor=2, guard=3)
    assert GAME.pending(state).seats == frozenset({2})
    assert GAME.pending(state).kind is PendingKind.TURN
    after = play(state, 2, "S10#1").state
    assert after.deal.turn == 3


def test_soft_pass_lets_a_player_come_back_into_the_trick():
    """DECISIONS 保皇 #6: "Passing is soft (a player who passed may play again in the same trick)";
    seed: "跟牌时可以选择不出，过牌准上"."""
    state = table("S7#1 S7#2 SA#1", "S8#1 S9#1 S2#1", "S10#1 SQ#1 H10#1", "SJ#1 DJ#1 CJ#1",
                  "S6#1 D6#1 C6#1")
    state = play(state, 0, "S7#1").state
    state = passes(state, 1)
    state = play(state, 2, "S10#1").state
    state = play(state, 3, "SJ#1").state
    state = passes(state, 4)
    state = play(state, 0, "SA#1").state
    state = play(state, 1, "S2#1").state  # passed earlier, plays again
    state = passes(state, 2, 3, 4)
    tr = act(state, 0, Pass())
    assert [(e.seat, e.leader) for e in tr.events if e.kind == "trick_won"] == [(1, 1)]
    assert tr.state.deal.trick is None and tr.state.deal.turn == 1


def test_jiefeng_when_the_trick_winner_has_gone_out():
    """DECISIONS 保皇 #6: "when the trick winner has gone out, the lead passes to the next player still
    holding cards (接风)"."""
    state = table("S7#1 S7#2", "S6#1 H6#1 S8#1", "S6#2 H6#2 S9#1", "S6#3 H6#3", "S6#4 H6#4")
    state = play(state, 0, "S7#1 S7#2").state
    assert state.deal.out == (0,) and state.phase is Phase.PLAY
    state = passes(state, 1, 2, 3)
    tr = act(state, 4, Pass())
    assert [(e.seat, e.leader) for e in tr.events if e.kind == "trick_won"] == [(0, 1)]
    assert tr.state.deal.turn == 1 and tr.state.deal.trick is None


def test_a_play_nobody_can_beat_ends_the_trick_at_once():
    """DECISIONS 保皇 #1: "a play holding a 大王 cannot be beaten". Decision: the trick then ends at once
    (as it does when every other hand is smaller than the play); the player leads again."""
    state = table("S7#1 BJ#2 S9#1", "S8#1 S8#2", "S10#1 S10#2", "SQ#1 SQ#2", "SK#1 SK#2")
    tr = play(state, 0, "S7#1 BJ#2")
    assert "trick_won" in kinds(tr) and tr.state.deal.turn == 0 and tr.state.deal.trick is None
    small = table("S7#1 S7#2 S7#3 S9#1", "S8#1", "S10#1", "SQ#1 SQ#2", "SK#1")
    tr = play(small, 0, "S7#1 S7#2 S7#3")
    assert tr.state.deal.turn == 0 and tr.state.deal.trick is None


@pytest.mark.parametrize(
    ("cards", "error", "code"),
    [
        ("X7#1", MalformedRequest, "BAD_CARD"),
        ("S5#1", MalformedRequest, "BAD_CARD"),  # no 5s in simple mode
        ("S7#1 S7#1", MalformedRequest, "DUPLICATE_CARD"),
        ("S8#1", IllegalAction, "CARD_NOT_IN_HAND"),
        ("S7#1 S9#1", IllegalAction, "NOT_A_SET"),
        ("S9#1 H9#1", IllegalAction, "WRONG_SIZE"),
        ("S7#1", IllegalAction, "DOES_NOT_BEAT"),
        ("H2#1", IllegalAction, "DOES_NOT_BEAT"),  # a 小王 in the top play needs a 大王
    ],
)
def test_bad_plays_are_refused_with_a_code(cards, error, code):
    """Seed: "必须跟出张数相同的牌，要求每张牌必须能压过上一手牌"; input cards are validated."""
    state = table("S7#1 S9#1 H9#1 H2#1", "S8#1", "S10#1", "SQ#1", "SK#1", turn=0, trick=(4, "S8#2"))
    if code == "DOES_NOT_BEAT" and cards == "H2#1":
        state = table("S7#1 H2#1", "S8#1", "S10#1", "SQ#1", "SK#1", turn=0, trick=(4, "LJ#2"))
    with pytest.raises(error) as err:
        GAME.check(state, Viewer.player(0), Play(cards=tuple(cards.split())))
    assert err.value.code == code


def test_leader_must_play_and_others_wait_their_turn():
    """Seed: "跟牌时可以选择不出" — only a follower may pass; the leader must play."""
    state = table("S7#1", "S8#1", "S10#1", "SQ#1", "SK#1")
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, Viewer.player(0), Pass())
    assert err.value.code == "MUST_LEAD"
    with pytest.raises(NotYourTurn):
        GAME.check(state, Viewer.player(1), Play(cards=("S8#1",)))


def test_playing_the_shiwei_card_reveals_the_guard():
    """Research §B.14: "The guard also becomes public the moment the 保 card is played" (simple mode)."""
    state = table("S7#1 S7#2", "LJ#1 S8#1", "S10#1 S10#2", "SQ#1 SQ#2", "SK#1 SK#2")
    state = play(state, 0, "S7#1").state
    tr = play(state, 1, "LJ#1")
    assert [(e.seat, e.how) for e in tr.events if e.kind == "guard_revealed"] == [(1, "card")]
    assert GAME.view(tr.state, Viewer.player(4)).guard == 1


def test_hidden_solo_emperor_playing_shiwei_exposes_her():
    state = table("LJ#1 S7#1", "S8#1 S8#2", "S10#1 S10#2", "SQ#1 SQ#2", "SK#1 SK#2", guard=None,
                  solo=Solo.HIDDEN)
    tr = play(state, 0, "LJ#1")
    assert [(e.seat, e.solo) for e in tr.events if e.kind == "guard_revealed"] == [(0, True)]


def test_classic_guard_is_revealed_by_playing_the_called_card():
    """Decision (classic): the guard is revealed when she plays her copy of the called card; the
    emperor's own copies reveal nothing."""
    hands = ("S3#1 S3#2 S3#3 D9#1", "S3#4 D4#1 D4#2", "D5#1 D5#2", "DQ#1 DQ#2", "DK#1 DK#2")
    state = table(*hands, variant="classic", called="S3")
    state = play(state, 0, "S3#1").state
    assert not state.deal.revealed
    tr = play(state, 1, "D4#1")
    assert not tr.state.deal.revealed
    state = passes(tr.state, 2, 3, 4, 0)
    tr = play(state, 1, "S3#4")
    assert tr.state.deal.revealed and "guard_revealed" in kinds(tr)


def test_classic_hidden_solo_is_exposed_by_the_fourth_called_copy():
    """Decision (classic 暗独保): the emperor holds all four copies; playing the fourth shows she is alone."""
    hands = ("S3#1 S3#2 S3#3 S3#4 D9#1", "D4#1 D4#2 C4#1", "D5#1 D5#2", "DQ#1 DQ#2", "DK#1 DK#2")
    state = table(*hands, variant="classic", called="S3", guard=None, solo=Solo.HIDDEN)
    state = play(state, 0, "S3#1 S3#2").state
    state = passes(state, 1, 2, 3, 4)
    assert not state.deal.revealed and state.deal.called_out == 2
    tr = play(state, 0, "S3#3 S3#4")
    assert [(e.seat, e.solo) for e in tr.events if e.kind == "guard_revealed"] == [(0, True)]


def test_baoliu_sixes_are_kept_to_the_last_play():
    """Seed: "保六玩法。，即六必须留到最后一手一次出完。" Decision: all her sixes, as her last play, no jokers."""
    state = table("S6#1 H6#1 S7#1", "S8#1 S8#2", "S10#1 S10#2", "SQ#1 SQ#2", "SK#1 SK#2", baoliu=True)
    for cards in ("S6#1", "S6#1 H6#1"):
        with pytest.raises(IllegalAction) as err:
            GAME.check(state, Viewer.player(0), Play(cards=tuple(cards.split())))
        assert err.value.code == "BAOLIU_SIXES_LAST"
    assert legal_plays(state, 0) == [(7, 1, 0, 0)]
    state = play(state, 0, "S7#1").state
    state = passes(state, 1, 2, 3, 4)
    assert legal_plays(state, 0) == [(6, 2, 0, 0)]
    tr = play(state, 0, "S6#1 H6#1")
    assert tr.state.deal.out == (0,)


def test_deal_ends_when_certain_and_reports_one_outcome():
    """DECISIONS 保皇 #5: "A deal ends as soon as the result is certain." Both royals out first: the
    commoners' order no longer matters. The result is an Outcome for `deal-1`."""
    state = table("BJ#1", "BJ#2", "S9#1 S9#2", "S10#1 S10#2 S10#3", "SJ#1 SJ#2")
    state = play(state, 0, "BJ#1").state
    tr = play(state, 1, "BJ#2", step=2)
    (outcome,) = tr.results
    assert outcome.unit == "deal-1" and outcome.reason == "finished"
    assert [(r.seat, r.place, r.score, r.won) for r in outcome.results] == [
        (0, 1, 6, True), (1, 2, 3, True), (2, 3, -3, False), (3, 5, -3, False), (4, 4, -3, False),
    ]
    assert outcome.results[0].stats == {"deals": 1, "wins": 1, "points": 6, "emperor": 1, "guard": 0, "rebel": 0}
    assert outcome.extra["emperor"] == 0 and outcome.extra["guard"] == 1 and outcome.extra["totals"] == [6, 3, -3, -3, -3]
    assert outcome.extra["basis"] == "皇帝头游 +2，侍卫二游 +1，合计 +3"  # the score sheet's line under its verdict
    state = tr.state
    assert state.phase is Phase.BETWEEN and state.totals == (6, 3, -3, -3, -3) and state.deal is None
    assert GAME.pending(state).seats == frozenset(range(5))
    assert state.last.places == (0, 1, 2, 4, 3) and state.last.left[3] == ("S10#1", "S10#2", "S10#3")


def test_a_refused_follow_names_the_play_on_the_table_before_hers():
    """Seed: "必须跟出张数相同的牌，要求每张牌必须能压过上一手牌": the refusal names both plays, the table's
    first (her own alone, 「9×3」, read as the play the rule asked for)."""
    state = table("S9#1 H9#1 C9#1 S7#1 S7#2 S7#3 S7#4", "S8#1", "S10#1", "SQ#1", "SK#1", turn=0,
                  trick=(4, "S8#2 H8#2 C8#2 D8#2"))
    with pytest.raises(IllegalAction) as size:
        GAME.check(state, Viewer.player(0), Play(cards=("S9#1", "H9#1", "C9#1")))
    assert size.value.message == "跟牌须出相同张数：桌上是 8×4（4 张），你选了 9×3（3 张）"
    with pytest.raises(IllegalAction) as low:
        GAME.check(state, Viewer.player(0), Play(cards=("S7#1", "S7#2", "S7#3", "S7#4")))
    assert low.value.message == "每张牌都须大过桌上那手的对应牌：桌上是 8×4，你选了 7×4"
