"""Scoring (DECISIONS 保皇 #5) and the early end of a deal."""

from __future__ import annotations

from itertools import permutations

import pytest

from chalicelib.games.baohuang.model import Deal, Solo
from chalicelib.games.baohuang.scoring import basis, certain_places, doublings, score

T_BY_ROYAL_PLACES = {
    frozenset({1, 2}): 3, frozenset({1, 3}): 2, frozenset({1, 4}): 1, frozenset({2, 3}): 1,
    frozenset({1, 5}): 0, frozenset({2, 4}): 0, frozenset({2, 5}): -1, frozenset({3, 4}): -1,
    frozenset({3, 5}): -2, frozenset({4, 5}): -3,
}


def places_with(emperor_place: int, guard_place: int, emperor: int = 0, guard: int = 2) -> tuple[int, ...]:
    """Five seats in finishing order, with the emperor and guard at the given places (1-based)."""
    order: list[int | None] = [None] * 5
    order[emperor_place - 1], order[guard_place - 1] = emperor, guard
    rest = iter(s for s in range(5) if s not in (emperor, guard))
    return tuple(s if s is not None else next(rest) for s in order)


@pytest.mark.parametrize(("e_place", "g_place"), [p for p in permutations(range(1, 6), 2)])
def test_every_row_of_the_two_against_three_table(e_place, g_place):
    """DECISIONS 保皇 #5: "places score +2 +1 0 −1 −2; T = emperor's plus guard's points; emperor 2T,
    guard T, each commoner −T." Every pair of royal places, in both orders."""
    places = places_with(e_place, g_place)
    scores, multiplier = score(places, emperor=0, guard=2, solo=Solo.NONE)
    t = T_BY_ROYAL_PLACES[frozenset({e_place, g_place})]
    assert multiplier == 1
    assert scores == (2 * t, -t, t, -t, -t)
    assert sum(scores) == 0


def test_published_fixture_and_its_doubling():
    """Anchor fixture: order 0,1,2,3,4; E=0, G=2 → [4, −2, 2, −2, −2]; doubled → [8, −4, 4, −4, −4]."""
    assert score((0, 1, 2, 3, 4), 0, 2, Solo.NONE)[0] == (4, -2, 2, -2, -2)
    assert score((0, 1, 2, 3, 4), 0, 2, Solo.NONE, open_guard=True) == ((8, -4, 4, -4, -4), 2)


@pytest.mark.parametrize(
    ("solo", "emperor_place", "expected"),
    [
        (Solo.HIDDEN, 1, (12, -3)), (Solo.HIDDEN, 2, (0, 0)), (Solo.HIDDEN, 3, (-12, 3)),
        (Solo.HIDDEN, 4, (-12, 3)), (Solo.HIDDEN, 5, (-12, 3)),
        (Solo.OPEN, 1, (24, -6)), (Solo.OPEN, 2, (-24, 6)), (Solo.OPEN, 3, (-24, 6)),
        (Solo.OPEN, 5, (-24, 6)),
    ],
)
def test_solo_table(solo, emperor_place, expected):
    """DECISIONS 保皇 #5: "Hidden solo ±12/0 (others ∓3); open solo ±24 (others ∓6), winning only on
    first place.\""""
    places = [1, 2, 3, 4]
    places.insert(emperor_place - 1, 0)
    scores, multiplier = score(places, emperor=0, guard=None, solo=solo)
    assert multiplier == 1
    assert scores == (expected[0],) + (expected[1],) * 4


@pytest.mark.parametrize(
    ("case", "places", "solo", "open_guard", "rebels", "expected", "multiplier"),
    [
        ("明保, royals win", (0, 2, 1, 3, 4), Solo.NONE, True, (), (12, -6, 6, -6, -6), 2),
        ("明保, royals lose", (1, 3, 4, 0, 2), Solo.NONE, True, (), (-12, 6, -6, 6, 6), 2),
        ("造反 succeeds", (1, 3, 4, 0, 2), Solo.NONE, False, (1,), (-12, 6, -6, 6, 6), 2),
        ("造反 fails", (0, 2, 1, 3, 4), Solo.NONE, False, (1, 3), (6, -3, 3, -3, -3), 1),
        ("造反 on a draw", (0, 1, 3, 4, 2), Solo.NONE, False, (1,), (0, 0, 0, 0, 0), 1),
        ("明保 and 造反 succeed: ×4", (1, 3, 4, 0, 2), Solo.NONE, True, (3,), (-24, 12, -12, 12, 12), 4),
        ("明保 and 造反 fails: ×2", (0, 2, 1, 3, 4), Solo.NONE, True, (3,), (12, -6, 6, -6, -6), 2),
        ("暗独保 beaten by 造反", (1, 2, 0, 3, 4), Solo.HIDDEN, False, (1, 2), (-24, 6, 6, 6, 6), 2),
        ("暗独保 wins against 造反", (0, 1, 2, 3, 4), Solo.HIDDEN, False, (1,), (12, -3, -3, -3, -3), 1),
        ("明独保 beaten by 造反", (3, 0, 1, 2, 4), Solo.OPEN, False, (4,), (-48, 12, 12, 12, 12), 2),
        ("明独保 wins against 造反", (0, 3, 1, 2, 4), Solo.OPEN, False, (4,), (24, -6, -6, -6, -6), 1),
    ],
)
def test_multipliers(case, places, solo, open_guard, rebels, expected, multiplier):
    """DECISIONS 保皇 #5: "Multipliers: 明保 ×2, 明独保 is the ×2 in its table, a successful 造反 ×2
    (seed); they multiply." Seed: "造反成功后输赢的分数加倍（包括暗独保）"."""
    guard = None if solo is not Solo.NONE else 2
    assert score(places, 0, guard, solo, open_guard, rebels) == (expected, multiplier), case


def deal_with(out: tuple[int, ...], solo: Solo = Solo.NONE, guard: int | None = 2, cards=(5, 5, 5, 5, 5)) -> Deal:
    hands = tuple(() if s in out else ("S7#1",) * cards[s] for s in range(5))
    return Deal(no=1, dealer=0, holder=0, dealt=hands, hands=hands, emperor=0, guard=guard, solo=solo, out=out,
                turn=next(s for s in range(5) if s not in out))


@pytest.mark.parametrize(
    ("out", "solo", "certain"),
    [
        ((0,), Solo.NONE, False),
        ((0, 2), Solo.NONE, True),  # both royals out
        ((0, 1), Solo.NONE, False),
        ((1, 3, 4), Solo.NONE, True),  # all commoners out
        ((1, 3), Solo.NONE, False),
        ((0, 1, 3), Solo.NONE, False),
        ((0,), Solo.HIDDEN, True),  # hidden solo: emperor first
        ((1,), Solo.HIDDEN, False),
        ((1, 0), Solo.HIDDEN, True),  # emperor second → 0
        ((1, 2), Solo.HIDDEN, True),  # two others out first
        ((1,), Solo.OPEN, True),  # open solo: one other out first
        ((0,), Solo.OPEN, True),
    ],
)
def test_deal_ends_as_soon_as_the_result_is_certain(out, solo, certain):
    """DECISIONS 保皇 #5: "A deal ends as soon as the result is certain." """
    deal = deal_with(out, solo, guard=None if solo is not Solo.NONE else 2)
    places = certain_places(deal)
    assert (places is not None) is certain
    if places is not None:
        assert places[: len(out)] == out and sorted(places) == [0, 1, 2, 3, 4]


def test_remaining_seats_take_places_by_fewest_cards_left():
    """Decision: when a deal ends early, the seats still holding cards take the remaining places by
    fewest cards left, ties in play order from the seat to act."""
    deal = deal_with((0, 2), cards=(0, 7, 0, 3, 3)).model_copy(update={"turn": 4})
    assert certain_places(deal) == (0, 2, 4, 3, 1)


@pytest.mark.parametrize(
    ("solo", "open_guard", "rebels", "commoners_won", "why"),
    [
        (Solo.NONE, True, (3,), True, ("明保", "造反成功")),
        (Solo.NONE, True, (3,), False, ("明保",)),
        (Solo.NONE, False, (1,), True, ("造反成功",)),
        (Solo.NONE, False, (), True, ()),  # the three won without declaring: no 造反 to double
        (Solo.OPEN, True, (4,), False, ()),  # 明独保's stake is its own table, not a 明保
    ],
)
def test_the_deal_says_why_its_score_was_doubled(solo, open_guard, rebels, commoners_won, why):
    """DECISIONS 保皇 #5 (明保 ×2, a successful 造反 ×2, they multiply); seed: "造反成功后输赢的分数加倍": the
    result names each doubling, and the multiplier is two to the number of them."""
    assert doublings(solo, open_guard, rebels, commoners_won=commoners_won) == why


@pytest.mark.parametrize(("places", "guard", "solo", "said"), [
    # the emperor 四游 and still her side wins: her guard's 头游 carries it
    ((2, 1, 3, 0, 4), 2, Solo.NONE, "皇帝四游 −1，侍卫头游 +2，合计 +1"),
    ((2, 4, 3, 0, 1), 4, Solo.NONE, "皇帝四游 −1，侍卫二游 +1，合计 0"),
    ((1, 2, 3, 4, 0), 2, Solo.NONE, "皇帝末游 −2，侍卫二游 +1，合计 −1"),
    ((1, 0, 2, 3, 4), None, Solo.HIDDEN, "暗独保，皇帝二游：不输不赢"),
    ((1, 2, 0, 3, 4), None, Solo.HIDDEN, "暗独保，皇帝三游：−12"),
    ((0, 1, 2, 3, 4), None, Solo.OPEN, "明独保，皇帝头游：+24"),
    ((1, 0, 2, 3, 4), None, Solo.OPEN, "明独保，皇帝二游：−24"),
])
def test_the_score_sheet_says_how_the_places_made_the_score(places, guard, solo, said):
    assert basis(places, 0, guard, solo) == said
    # it agrees with the score: the sign of 合计 (or of the solo's stake) is the sign of the emperor's points
    points = score(places, 0, guard, solo)[0][0]
    tail = said.rsplit(" ", 1)[-1].rsplit("：", 1)[-1]
    assert (points > 0) == tail.startswith("+") and (points < 0) == tail.startswith("−")
