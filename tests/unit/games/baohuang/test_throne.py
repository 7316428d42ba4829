"""Dealing, choosing the emperor, and the classic card call."""

from __future__ import annotations

from collections import Counter

import pytest

from chalicelib.core.errors import IllegalAction, NotYourTurn
from chalicelib.core.game import PendingKind, Viewer
from chalicelib.games.baohuang.actions import NextDeal, PassThrone, TakeThrone
from chalicelib.games.baohuang.cards import HUANG, Variant, pack
from chalicelib.games.baohuang.deal import deal_hands
from chalicelib.games.baohuang.game import GAME
from chalicelib.games.baohuang.model import Phase, Solo
from chalicelib.games.baohuang.scoring import score

from .helpers import act, kinds, new_table, rng, table

SIMPLE_HANDS = ("BJ#1 S7#1", "LJ#1 S8#1", "S9#1", "S10#1", "SJ#1")


def throne_table(*hands: str, variant: str = "simple", holder: int = 0):
    return table(*hands, variant=variant, phase=Phase.THRONE, emperor=None, guard=None, holder=holder)


@pytest.mark.parametrize(("variant", "sizes"), [("simple", [34, 34, 34, 33, 33]), ("classic", [44, 43, 43, 43, 43])])
def test_deal_sizes_start_at_the_dealer(variant, sizes):
    """Seed: "游戏先从游戏桌的最左边玩家开始发牌…至牌发完为止" and "四副牌不含3、4、5，共计168张" /
    "四副牌，共计216张牌". Decision: one card at a time from the dealer in play order, so the dealer
    (and the next seats) get the odd cards."""
    cards = pack(Variant(variant))
    assert len(cards) == len(set(cards)) == {"simple": 168, "classic": 216}[variant]
    for dealer in range(5):
        hands = deal_hands(cards, dealer)
        assert [len(hands[(dealer + i) % 5]) for i in range(5)] == sizes
        assert Counter(c for h in hands for c in h) == Counter(cards)


def test_first_deal_from_seat_zero_later_from_the_last_emperor():
    """Seed: "游戏先从游戏桌的最左边玩家开始发牌，以后从上局皇帝开始发牌"."""
    state = new_table()
    assert state.deal.dealer == 0 and state.deal.no == 1
    assert state.deal.candidate == state.deal.holder
    assert HUANG in state.deal.hands[state.deal.holder]
    later = state.model_copy(update={"last_emperor": 3, "phase": Phase.BETWEEN, "deal": None,
                                     "ready": (True,) * 4 + (False,)})
    after = act(later, 4, NextDeal()).state
    assert after.deal.no == 2 and after.deal.dealer == 3
    assert len(after.deal.hands[3]) == 34


def test_throne_passes_to_shangjia_and_simple_redeals_after_two_rounds():
    """Seed: "如果认为牌的实力不够，可以出让皇位给上家" and "两轮之内仍然没有决定谁是皇帝时，系统重新发牌".
    上家 of seat s is (s + 4) % 5; after ten passes the same dealer deals again."""
    state = throne_table(*SIMPLE_HANDS, holder=0)
    seen = []
    for i in range(9):
        seat = state.deal.candidate
        seen.append(seat)
        state = act(state, seat, PassThrone(), step=i + 1).state
    assert seen == [0, 4, 3, 2, 1, 0, 4, 3, 2]
    assert state.phase is Phase.THRONE and state.deal.offers == 9
    tr = act(state, 1, PassThrone(), step=10)
    assert "redealt" in kinds(tr)
    deal = tr.state.deal
    assert deal.no == 1 and deal.redeals == 1 and deal.dealer == 0 and deal.offers == 0
    assert sum(len(h) for h in deal.hands) == 168 and deal.candidate == deal.holder


def test_the_candidate_is_told_whom_a_pass_offers_the_throne():
    """Seed: "可以出让皇位给上家": her 让位 names the seat it goes to (her 上家), the very seat the pass
    offers it to; nobody else is told."""
    state = throne_table(*SIMPLE_HANDS, holder=0)
    view = GAME.view(state, Viewer.player(0))
    assert view.yield_to == 4
    assert act(state, 0, PassThrone(), step=1).state.deal.candidate == view.yield_to
    assert GAME.view(state, Viewer.player(4)).yield_to is None


def test_only_the_candidate_may_decide():
    """Seed: "抓到皇牌的人当皇帝" — the holder decides first, then each 上家 in turn; nobody else."""
    state = throne_table(*SIMPLE_HANDS)
    with pytest.raises(NotYourTurn):
        GAME.check(state, Viewer.player(1), TakeThrone())


def test_simple_guard_is_the_shiwei_holder_and_the_declaration_is_sealed():
    """Seed: "牌中有一张小王标有宝剑，当作'侍卫'牌，抓到保的人当侍卫". Then every non-emperor declares at once."""
    tr = act(throne_table(*SIMPLE_HANDS), 0, TakeThrone())
    deal = tr.state.deal
    assert (deal.emperor, deal.guard, deal.solo, deal.revealed) == (0, 1, Solo.NONE, False)
    assert tr.state.phase is Phase.DECLARE
    pending = GAME.pending(tr.state)
    assert pending.kind is PendingKind.SEALED and pending.seats == frozenset({1, 2, 3, 4})


def test_simple_emperor_with_both_marked_jokers_is_solo():
    """Seed: "当一个人同时抓到'皇牌'和'侍卫牌'…如果自己当皇帝，为独保，若不声明有'侍卫牌'，为暗独保，
    再声明了有'侍卫牌'，为'明独保'"."""
    hands = ("BJ#1 LJ#1 S7#1", "S8#1", "S9#1", "S10#1", "SJ#1")
    hidden = act(throne_table(*hands), 0, TakeThrone()).state.deal
    assert (hidden.solo, hidden.guard, hidden.revealed) == (Solo.HIDDEN, None, False)
    opened = act(throne_table(*hands), 0, TakeThrone(open_solo=True)).state.deal
    assert (opened.solo, opened.revealed) == (Solo.OPEN, True)


def test_the_open_solo_offer_says_its_stakes_as_the_score_counts_them():
    """Decision (docs/rules/baohuang.md): beside 「明独保」 the candidate reads what it stakes; the numbers are
    the ones `score` pays. Seed: "当一个人同时抓到'皇牌'和'侍卫牌'…再声明了有'侍卫牌'，为'明独保'"."""
    hands = ("BJ#1 LJ#1 S7#1", "S8#1", "S9#1", "S10#1", "SJ#1")
    offer = GAME.view(throne_table(*hands), Viewer.player(0))
    won, _ = score((0, 1, 2, 3, 4), emperor=0, guard=None, solo=Solo.OPEN)
    lost, _ = score((1, 0, 2, 3, 4), emperor=0, guard=None, solo=Solo.OPEN)
    doubled, _ = score((1, 0, 2, 3, 4), emperor=0, guard=None, solo=Solo.OPEN, rebels=(2,))
    assert offer.can_open_solo and offer.open_solo_stakes == (
        f"明独保：一人对四家，头名 +{won[0]}（四家各 −{-won[1]}），不是头名 −{-lost[0]}（四家各 +{lost[1]}）；"
        "有人造反而四家赢，再翻倍")
    assert doubled[0] == 2 * lost[0]
    plain = GAME.view(throne_table(*SIMPLE_HANDS), Viewer.player(0))
    assert not plain.can_open_solo and plain.open_solo_stakes is None
    assert GAME.view(throne_table(*hands), Viewer.player(1)).open_solo_stakes is None


def test_open_solo_needs_the_shiwei_card_in_simple_mode():
    """Seed: "当一个人同时抓到'皇牌'和'侍卫牌'…再声明了有'侍卫牌'，为'明独保'" — only with the 侍卫 card;
    and "简明玩法（固定保）…抓卫牌，该牌持有者为皇帝的侍卫": nothing is called in simple mode."""
    with pytest.raises(IllegalAction) as err:
        GAME.check(throne_table(*SIMPLE_HANDS), Viewer.player(0), TakeThrone(open_solo=True))
    assert err.value.code == "OPEN_SOLO_NEEDS_GUARD_CARD"
    with pytest.raises(IllegalAction) as err:
        GAME.check(throne_table(*SIMPLE_HANDS), Viewer.player(0), TakeThrone(call="S7"))
    assert err.value.code == "NO_CALL_IN_SIMPLE"


def test_simple_emperor_by_passing_who_holds_shiwei_is_solo_too():
    """Decision: whoever takes the throne while holding the 侍卫 card is her own guard (独保)."""
    state = act(throne_table(*SIMPLE_HANDS), 0, PassThrone()).state  # → 4
    for step, seat in enumerate((4, 3, 2), start=2):
        state = act(state, seat, PassThrone(), step=step).state
    deal = act(state, 1, TakeThrone(), step=9).state.deal
    assert (deal.emperor, deal.solo, deal.guard) == (1, Solo.HIDDEN, None)


CLASSIC_HANDS = (
    "BJ#1 S3#1 S3#2 S3#3 HA#1 HA#2 HA#3 HA#4",
    "S3#4 LJ#1",
    "D5#1 D5#2 D5#3",
    "D5#4",
    "C9#1",
)


def test_classic_call_three_names_the_fourth_copy_holder():
    """Seed: "皇帝可以选择叫自己手中三张同花色同点数的牌，由持第四张该花色点数牌的人作为自己的侍卫"."""
    deal = act(throne_table(*CLASSIC_HANDS, variant="classic"), 0, TakeThrone(call="S3")).state.deal
    assert (deal.emperor, deal.guard, deal.called, deal.solo) == (0, 1, "S3", Solo.NONE)


def test_classic_call_four_is_hidden_solo_and_open_solo_needs_no_call():
    """Seed: "皇帝可以选择叫自己手中四张同花色同点数的牌'暗独保'，或是直接声明'明独保'"."""
    hidden = act(throne_table(*CLASSIC_HANDS, variant="classic"), 0, TakeThrone(call="HA")).state.deal
    assert (hidden.solo, hidden.guard, hidden.called) == (Solo.HIDDEN, None, "HA")
    opened = act(throne_table(*CLASSIC_HANDS, variant="classic"), 0, TakeThrone(open_solo=True)).state.deal
    assert (opened.solo, opened.called) == (Solo.OPEN, None)


def test_a_classic_candidate_with_nothing_to_call_is_told_why_by_the_server():
    """Decision (docs/rules/baohuang.md): with no face to call she reads why 登基 is closed and what is
    left — the server's words, so the app holds no rule of its own. Seed: "皇帝可以选择叫自己手中四张
    同花色同点数的牌'暗独保'，或是直接声明'明独保'"."""
    nothing = ("BJ#1 S3#1 S6#1", "S3#4 LJ#1", "D5#1 D5#2 D5#3", "D5#4", "C7#1")
    view = GAME.view(throne_table(*nothing, variant="classic"), Viewer.player(0))
    assert view.callable == () and view.can_open_solo
    assert view.no_call == "你手中没有三张同花色同点数的牌，无牌可叫，不能叫牌登基：可明独保，或让位。"
    assert GAME.view(throne_table(*CLASSIC_HANDS, variant="classic"), Viewer.player(0)).no_call is None
    assert GAME.view(throne_table(*nothing, variant="classic"), Viewer.player(1)).no_call is None


@pytest.mark.parametrize(
    ("action", "code"),
    [
        (TakeThrone(), "CALL_REQUIRED"),
        (TakeThrone(call="C9"), "CALL_NEEDS_THREE"),
        (TakeThrone(call="S3", open_solo=True), "CALL_OR_OPEN_SOLO"),
        (TakeThrone(call="LJ"), "BAD_CALL"),
    ],
)
def test_classic_take_needs_a_valid_call(action, code):
    """Decision: jokers cannot be called; a call needs three (or four) copies of the same face."""
    with pytest.raises(Exception) as err:
        GAME.check(throne_table(*CLASSIC_HANDS, variant="classic"), Viewer.player(0), action)
    assert err.value.code == code


def _fifth_pass(hands: tuple[str, ...]):
    """The transition of the pass that brings a classic throne back round to its holder."""
    state = throne_table(*hands, variant="classic")
    for step, seat in enumerate((0, 4, 3, 2), start=1):
        state = act(state, seat, PassThrone(), step=step).state
    return act(state, 1, PassThrone(), step=5)


def _assert_bound_to_take(state) -> None:
    assert state.deal.candidate == 0 and state.phase is Phase.THRONE
    assert GAME.view(state, Viewer.player(0)).must_take
    with pytest.raises(IllegalAction) as err:
        GAME.check(state, Viewer.player(0), PassThrone())
    assert err.value.code == "MUST_TAKE_THRONE"


def test_classic_forces_the_holder_after_one_round():
    """Seed: "传完一轮后自己必须当皇帝（除非没有能力登基或者有4张同色同点的牌）"."""
    state = _fifth_pass(CLASSIC_HANDS).state
    _assert_bound_to_take(state)
    assert act(state, 0, TakeThrone(call="S3"), step=6).state.deal.emperor == 0


def test_classic_forced_holder_unable_to_call_means_redeal():
    """Seed: "传完一轮后自己必须当皇帝（除非没有能力登基或者有4张同色同点的牌）". Decision: "没有能力登基" =
    no face with three copies to call; the holder is then not bound and the deal is redealt."""
    tr = _fifth_pass(("BJ#1 S3#1", "S3#4 LJ#1", "D5#1 D5#2 D5#3", "D5#4", "C9#1"))
    assert [e.reason for e in tr.events if e.kind == "redealt"] == ["unable"]
    assert tr.state.deal.redeals == 1 and sum(len(h) for h in tr.state.deal.hands) == 216


def test_classic_holder_with_only_a_four_of_a_face_is_not_forced_into_a_solo():
    """Seed: "传完一轮后自己必须当皇帝（除非没有能力登基或者有4张同色同点的牌）". Decision: a holder whose
    only call is four copies of a face (calling it is 暗独保, one against four) is not bound to take the
    throne: the deal is redealt, as for a holder with nothing to call."""
    tr = _fifth_pass(("BJ#1 HA#1 HA#2 HA#3 HA#4", "S3#4 LJ#1", "D5#1 D5#2 D5#3", "D5#4", "C9#1"))
    assert [e.reason for e in tr.events if e.kind == "redealt"] == ["unable"]
    assert tr.state.deal.redeals == 1 and tr.state.deal.emperor is None


def test_classic_holder_with_a_triple_and_a_four_of_a_face_is_bound_to_call():
    """Seed: "传完一轮后自己必须当皇帝（除非没有能力登基或者有4张同色同点的牌）". Decision: with three copies of
    some face to call she can take the throne as a pair against three, so she must; she may still
    call the four instead (暗独保) if she wants the solo."""
    state = _fifth_pass(("BJ#1 HA#1 HA#2 HA#3 HA#4 S3#1 S3#2 S3#3", "S3#4 LJ#1", "D5#1", "D5#4", "C9#1")).state
    _assert_bound_to_take(state)
    solo = act(state, 0, TakeThrone(call="HA"), step=6).state.deal
    assert (solo.emperor, solo.solo, solo.guard) == (0, Solo.HIDDEN, None)


def test_tuoguan_never_takes_the_throne_as_a_solo():
    """Seed: "首先，如果自己当皇帝，为独保" (simple, holding both marked jokers) and, classic, "叫自己手中四张同花色
    同点数的牌“暗独保”" — 让位 is always hers to choose ("如果没有实力当皇帝，可以让位给上家"). Decision: a seat
    whose clock ran out is not put into a one-against-four she never chose: 托管 passes the throne
    when taking it would be a solo (simple: she holds the 侍卫 card too; classic: only a four to call)."""
    simple = GAME.on_timeout(throne_table("BJ#1 LJ#1 S7#1", "S8#1", "S9#1", "S10#1", "SJ#1"), rng(1)).state
    assert simple.auto[0] and simple.phase is Phase.THRONE and simple.deal.candidate != 0
    four = ("BJ#1 HA#1 HA#2 HA#3 HA#4", "S3#4 LJ#1", "D5#1", "D5#4", "C9#1")
    classic = GAME.on_timeout(throne_table(*four, variant="classic"), rng(1)).state
    assert classic.auto[0] and classic.phase is Phase.THRONE and classic.deal.candidate != 0
    assert classic.deal.emperor is None


def test_throne_timeout_takes_the_throne_in_tuoguan():
    """Decision: on timeout the candidate enters 托管, which takes the throne (classic: calls her lowest
    triple; passes if she has none, `test_tuoguan_never_takes_the_throne_as_a_solo`)."""
    tr = GAME.on_timeout(throne_table(*CLASSIC_HANDS, variant="classic"), rng(1))
    deal = tr.state.deal
    assert tr.state.auto[0] and (deal.emperor, deal.called, deal.guard) == (0, "S3", 1)
    simple = GAME.on_timeout(throne_table(*SIMPLE_HANDS), rng(1)).state
    assert simple.deal.emperor == 0 and simple.auto[0] and simple.phase is Phase.DECLARE
