"""The sealed declaration: 明保, 造反 and its forced reveal, 抢独."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import PendingKind, Viewer
from chalicelib.games.baohuang.actions import Declare, GrabSolo, Play, StayHidden, TakeThrone
from chalicelib.games.baohuang.game import GAME
from chalicelib.games.baohuang.model import Phase, Solo

from .helpers import act, kinds, rng, table

SIMPLE = ("BJ#1 S7#1", "LJ#1 S8#1", "S9#1 S9#2", "S10#1 S10#2", "SJ#1 SJ#2")


def declaring(*hands: str, **fields):
    fields.setdefault("phase", Phase.DECLARE)
    return table(*hands, **fields)


def test_guard_declaring_is_mingbao_and_reveals_her():
    """DECISIONS 保皇 #4: "The guard declaring is 明保"; seed: "若公开身份则为明保"."""
    tr = GAME.settle(declaring(*SIMPLE), {1: Declare(), 2: StayHidden()}, rng())
    deal = tr.state.deal
    assert deal.open_guard and deal.revealed and deal.rebels == ()
    assert [(e.seat, e.how) for e in tr.events if e.kind == "guard_revealed"] == [(1, "declared")]
    assert tr.state.phase is Phase.PLAY and deal.turn == 0
    assert GAME.view(tr.state, Viewer.player(3)).guard == 1


def test_one_rebel_marks_the_hoe_but_reveals_nobody():
    """DECISIONS 保皇 #4: "a commoner declaring is 造反"; seed: "造反者显示锄头标识"."""
    tr = GAME.settle(declaring(*SIMPLE), {3: Declare()}, rng())
    deal = tr.state.deal
    assert deal.rebels == (3,) and not deal.revealed
    seen = GAME.view(tr.state, Viewer.player(3))
    assert seen.seats[3].rebel and seen.guard is None


def test_two_rebels_force_the_guard_to_be_revealed():
    """Seed: "当有两个或两个以上起义军造反时，强制亮明侍卫的身份"."""
    tr = GAME.settle(declaring(*SIMPLE), {2: Declare(), 3: Declare(), 4: StayHidden()}, rng())
    assert tr.state.deal.rebels == (2, 3) and tr.state.deal.revealed
    assert [(e.seat, e.how, e.solo) for e in tr.events if e.kind == "guard_revealed"] == [(1, "forced", False)]
    assert GAME.view(tr.state, Viewer.spectator()).guard == 1


def test_forced_reveal_in_a_hidden_solo_exposes_the_lone_emperor():
    """Seed: "造反成功后输赢的分数加倍（包括暗独保）": rebels can face a hidden solo. Decision: the forced
    reveal then shows that the emperor holds the guard card herself; the score stays the hidden table."""
    state = declaring(*SIMPLE, guard=None, solo=Solo.HIDDEN)
    tr = GAME.settle(state, {1: Declare(), 2: Declare()}, rng())
    assert tr.state.deal.rebels == (1, 2) and tr.state.deal.solo is Solo.HIDDEN
    assert [(e.seat, e.solo) for e in tr.events if e.kind == "guard_revealed"] == [(0, True)]
    assert GAME.view(tr.state, Viewer.player(4)).solo is Solo.HIDDEN


def test_missing_moves_stay_hidden_and_the_emperor_does_not_declare():
    """Brief: for the sealed phase missing seats = stay hidden (不声明)."""
    state = declaring(*SIMPLE)
    tr = GAME.settle(state, {}, rng())
    assert tr.state.deal.rebels == () and not tr.state.deal.open_guard
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, Viewer.player(0), Declare())
    assert err.value.code == "EMPEROR_DOES_NOT_DECLARE"
    with pytest.raises(IllegalAction) as err:
        GAME.apply(state, Viewer.player(2), Declare(), rng())
    assert err.value.code == "SEALED_MOVE"


def test_rebels_keep_the_hoe_mark_when_they_lose():
    """DECISIONS 保皇 #4: "Rebels keep the hoe mark even if they lose." (and a failed 造反 is not ×2)."""
    state = declaring("BJ#1", "BJ#2", "S9#1 S9#2", "S10#1 S10#2", "SJ#1 SJ#2")
    state = GAME.settle(state, {3: Declare()}, rng()).state
    state = act(state, 0, Play(cards=("BJ#1",))).state
    tr = act(state, 1, Play(cards=("BJ#2",)), step=2)
    (outcome,) = tr.results
    assert outcome.extra["rebels"] == [3] and outcome.extra["multiplier"] == 1 and outcome.extra["doubled"] == []
    assert outcome.extra["winner"] == "emperor"  # the result names the side, for every screen alike
    by_seat = {r.seat: r for r in outcome.results}
    assert by_seat[3].stats["rebel"] == 1 and by_seat[3].score == -3 and not by_seat[3].won
    assert tr.state.last.rebels == (3,)


CLASSIC = (
    "BJ#1 S3#1 S3#2 S3#3 D7#1",
    "S3#4 C9#1",
    "BJ#2 BJ#3 LJ#1 HK#1 HK#2 HK#3 HK#4",
    "LJ#2 LJ#3 BJ#4 DQ#1 DQ#2 DQ#3 DQ#4",
    "C9#2",
)


def classic_declaring(**fields):
    fields.setdefault("called", "S3")
    return declaring(*CLASSIC, variant="classic", **fields)


def test_grab_goes_to_the_claimant_nearest_the_emperor_on_the_shangjia_side():
    """Seed: "其他玩家多个人'抢独'，在上家方向上离皇帝最近的人'抢独'优先成功" and "其他玩家抢独成功则直接
    '明独保'". With the emperor at 0, 上家-wards is 4, 3, 2, 1: seat 3 beats seat 2."""
    tr = GAME.settle(classic_declaring(), {2: GrabSolo(), 3: GrabSolo(), 4: Declare()}, rng())
    deal = tr.state.deal
    assert (deal.emperor, deal.solo, deal.guard, deal.grabbed, deal.rebels) == (3, Solo.OPEN, None, True, ())
    assert tr.state.phase is Phase.PLAY and deal.turn == 3
    assert [e.seat for e in tr.events if e.kind == "grab_failed"] == [2]
    # the failure is private to the claimant
    assert "grab_failed" not in [e.kind for e in GAME.report(tr.state, tr.events, Viewer.player(3))]
    assert "grab_failed" in [e.kind for e in GAME.report(tr.state, tr.events, Viewer.player(2))]


def test_grab_fails_against_the_emperors_own_solo():
    """Seed: "皇帝'独保'优先成功". Against 暗独保 the grab fails (told to the claimant only)."""
    tr = GAME.settle(classic_declaring(guard=None, solo=Solo.HIDDEN), {3: GrabSolo()}, rng())
    assert tr.state.deal.emperor == 0 and tr.state.deal.solo is Solo.HIDDEN
    assert kinds(tr).count("grab_failed") == 1
    assert "grab_failed" not in [e.kind for e in GAME.report(tr.state, tr.events, Viewer.player(1))]


@pytest.mark.parametrize(
    ("state_fields", "seat", "code"),
    [
        ({"guard": None, "solo": Solo.OPEN, "called": None}, 3, "EMPEROR_OPEN_SOLO"),
        ({}, 1, "GRAB_NOT_ELIGIBLE"),
    ],
)
def test_grab_conditions(state_fields, seat, code):
    """Seed: "抢独条件：1、玩家手中有3个王（不分大小）和四张同花色同点数的牌。2、拿有皇牌的玩家没有选择明独保。" """
    with pytest.raises(IllegalAction) as err:
        GAME.check(classic_declaring(**state_fields), Viewer.player(seat), GrabSolo())
    assert err.value.code == code


def test_no_grab_in_simple_mode():
    """Seed: 抢独 is listed under "与简单玩法的区别" (classic only)."""
    with pytest.raises(IllegalAction) as err:
        GAME.check(declaring(*SIMPLE), Viewer.player(2), GrabSolo())
    assert err.value.code == "NO_GRAB_IN_SIMPLE"


def test_tuoguan_seats_are_not_waited_for_and_all_tuoguan_settles_at_once():
    """Decision: the sealed phase waits only for seats not in 托管 (they count as 不声明); if every
    non-emperor is in 托管 the engine settles at once."""
    state = declaring(*SIMPLE, auto=(False, True, False, True, False))
    pending = GAME.pending(state)
    assert pending.kind is PendingKind.SEALED and pending.seats == frozenset({2, 4})
    throne = table(*SIMPLE, phase=Phase.THRONE, emperor=None, guard=None, auto=(False, True, True, True, True))
    tr = act(throne, 0, TakeThrone())
    assert tr.state.phase is Phase.PLAY and "declared" in kinds(tr)


def test_timeout_in_the_sealed_phase_settles_with_no_moves():
    """Decision: if the room calls on_timeout during the sealed phase (it should call settle with the
    stored moves), the engine settles as if nobody submitted: everyone 不声明."""
    tr = GAME.on_timeout(declaring(*SIMPLE), rng())
    assert tr.state.phase is Phase.PLAY and tr.state.deal.rebels == () and not any(tr.state.auto)


def test_the_huang_card_holder_cannot_grab():
    """Seed: 「没有抓到皇牌的人如果认为自己有实力独自对抗其他四人时，可以抢当皇帝"独保"（称为"抢独"）」.
    DECISIONS 保皇 #9: only players who did not draw the 皇牌 may 抢独, so a holder who passed the
    throne cannot grab it back; any other seat with the cards still may."""
    hands = (
        "S3#1 S3#2 S3#3 D7#1",
        "S3#4 C9#1",
        "BJ#1 BJ#2 LJ#1 HK#1 HK#2 HK#3 HK#4",  # dealt the 皇 card, passed the throne to seat 1, then 0
        "LJ#2 LJ#3 BJ#4 DQ#1 DQ#2 DQ#3 DQ#4",
        "C9#2 BJ#3",
    )
    state = declaring(*hands, variant="classic", called="S3", holder=2)
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, Viewer.player(2), GrabSolo())
    assert err.value.code == "HOLDER_CANNOT_GRAB"
    assert not GAME.view(state, Viewer.player(2)).can_grab
    assert GAME.view(state, Viewer.player(3)).can_grab
    # a holder's grab slipped into the sealed moves counts as 不声明; seat 3's grab stands
    tr = GAME.settle(state, {2: GrabSolo()}, rng())
    assert tr.state.deal.emperor == 0 and not tr.state.deal.grabbed and "grab_failed" not in kinds(tr)
    tr = GAME.settle(state, {2: GrabSolo(), 3: GrabSolo()}, rng())
    assert (tr.state.deal.emperor, tr.state.deal.solo, tr.state.deal.grabbed) == (3, Solo.OPEN, True)
