"""Plays: classification, the closed-form comparison, and move generation (perft-style counts)."""

from __future__ import annotations

from itertools import combinations

import pytest

from chalicelib.core.rng import Rng
from chalicelib.games.baohuang.cards import (
    BIG,
    FACE,
    HUANG,
    SHIWEI,
    SMALL,
    VALUE,
    Variant,
    card_label,
    cards_label,
    counts,
    is_card,
    lowest_rank,
    pack,
    sort_cards,
)
from chalicelib.games.baohuang.combos import (
    Refusal,
    allowed,
    beats,
    beats_elementwise,
    classify,
    follows,
    leads,
    pick,
    size,
    values,
)

from .helpers import hands_of

ALPHABET = (6, 9, 14, 15)
"""Low, middle, A and 2: enough to produce every order relation between two plays."""


def all_combos(max_size: int) -> list[tuple[int, int, int, int]]:
    """Every play up to `max_size` cards over ALPHABET, with at most four jokers of each kind."""
    out = []
    for small in range(5):
        for big in range(5):
            if 0 < small + big <= max_size:
                out.append((0, 0, small, big))
            for rank in ALPHABET:
                for n in range(1, max_size - small - big + 1):
                    out.append((rank, n, small, big))
    return out


def test_closed_form_equals_elementwise_on_every_pair_up_to_eight_cards():
    """DECISIONS 保皇 #1: "Sort both plays; the reply must have the same number of cards and every card
    must be strictly higher than its counterpart ... jokers are not wild." The closed form used by the
    engine agrees with that rule on every pair of plays of up to 8 cards."""
    plays = all_combos(8)
    assert len(plays) == 424  # 179,776 ordered pairs
    mismatches = [(c, p) for c in plays for p in plays if beats(c, p) != beats_elementwise(c, p)]
    assert mismatches == []


@pytest.mark.parametrize(
    ("new", "old", "expected"),
    [
        ((8, 4, 0, 0), (7, 4, 0, 0), True),  # 8888 > 7777
        ((0, 0, 3, 1), (14, 4, 0, 0), True),  # 1 个大王带 3 个小王 > AAAA
        ((7, 3, 1, 0), (6, 4, 0, 0), True),  # 小王带777 > 6666
        ((6, 4, 0, 1), (5, 4, 1, 0), True),  # 大王带6666 > 小王带5555
        ((9, 4, 0, 0), (8, 3, 1, 0), False),  # 不能出9999压888+小王
        ((15, 4, 0, 0), (6, 4, 0, 1), False),  # 挂大王的牌为最大
        ((7, 2, 0, 0), (7, 2, 0, 0), False),  # equal never beats
        ((8, 2, 0, 0), (7, 3, 0, 0), False),  # same count required
    ],
)
def test_seed_comparison_examples(new, old, expected):
    """Seed: "必须跟出张数相同的牌，要求每张牌必须能压过上一手牌；如：（1）8888>7777 （2）1个大王带3个
    小王>AAAA （3）小王带777>6666 （4）大王带6666>小王带5555" / "套牌不能压同张数的王挂牌" / "挂大王的牌为最大"."""
    assert beats(new, old) is expected
    assert beats_elementwise(new, old) is expected


def test_the_marked_jokers_are_no_stronger_than_the_others():
    """DECISIONS 保皇 #2; seed: "四张大王一样大（皇牌无区别），4张小王一样大（侍卫牌无区别）" — the 皇 card
    (BJ#1) cannot beat another 大王, nor the 侍卫 card (LJ#1) another 小王, and the other way round."""
    for marked, plain in (("BJ#1", "BJ#2"), ("LJ#1", "LJ#3")):
        assert classify([marked]) == classify([plain])
        assert not beats(classify([marked]), classify([plain]))
        assert not beats(classify([plain]), classify([marked]))
    assert beats(classify(["BJ#1"]), classify(["LJ#2"])) and beats(classify(["LJ#1"]), classify(["S2#1"]))


def test_classify_sets_and_joker_attachments():
    """Seed: "套牌…点数相同的一组牌，不分花色"; "王挂牌，即大小王带任何套牌"; "不可以用2配牌"; "不可以出顺牌"."""
    assert classify(["S7#1", "H7#2", "BJ#3"]) == (7, 2, 0, 1)
    assert classify(["LJ#1", "BJ#2"]) == (0, 0, 1, 1)
    assert classify(["S2#1", "H2#1", "D2#4"]) == (15, 3, 0, 0)
    assert classify(["S7#1", "S2#1"]) is None  # a 2 is its own rank, never filler
    assert classify(["S7#1", "S8#1", "S9#1"]) is None  # no straights
    assert classify([]) is None
    assert values((7, 2, 0, 1)) == [7, 7, BIG]


def brute_force_leads(hand: tuple[str, ...]) -> set[tuple[int, int, int, int]]:
    out = set()
    for k in range(1, len(hand) + 1):
        for subset in combinations(hand, k):
            combo = classify(subset)
            if combo is not None:
                out.add(combo)
    return out


PERFT = [
    # (variant, hand, leads, {previous play: follows})
    ("simple", "S6#1 H6#1 S7#1 LJ#2 BJ#2", 15,
     {(6, 1, 0, 0): 3, (6, 2, 0, 0): 3, (7, 1, 1, 0): 1, (0, 0, 0, 1): 0}),
    ("classic", "S3#1 H3#1 D3#2 S4#1 S2#1 H2#2 LJ#1 LJ#2 BJ#1", 41,
     {(15, 1, 0, 0): 2, (14, 2, 0, 0): 5, (3, 3, 0, 0): 7, (0, 0, 1, 0): 1}),
    ("simple", "S6#1 S6#2 S6#3 S6#4 H6#1 H6#2", 6, {(6, 1, 0, 0): 0, (0, 0, 1, 0): 0}),
    ("simple", "LJ#1 LJ#2 LJ#3 LJ#4 BJ#1 BJ#2 BJ#3 BJ#4", 24,
     {(15, 8, 0, 0): 1, (0, 0, 4, 0): 1, (0, 0, 1, 0): 1, (15, 1, 0, 0): 2}),
]


@pytest.mark.parametrize(("variant", "spec", "n_leads", "n_follows"), PERFT)
def test_move_generation_counts(variant, spec, n_leads, n_follows):
    """Perft-style: the number of distinct legal leads (and follows to fixed plays) of fixed hands.
    A lead count is (small+1)(big+1)(naturals+1) − 1; each follow count matches brute force."""
    hand = hands_of(spec, "", "", "", "")[0]
    cnt, lo = counts(hand), lowest_rank(Variant(variant))
    generated = leads(cnt, lo)
    assert len(generated) == n_leads == len(set(generated))
    assert set(generated) == brute_force_leads(hand)
    for prev, expected in n_follows.items():
        replies = follows(cnt, lo, prev)
        assert len(replies) == expected, prev
        assert set(replies) == {c for c in generated if beats_elementwise(c, prev)}


def test_follows_match_brute_force_on_random_hands():
    """Move generation agrees with "classify every subset, keep those that beat" on random hands."""
    rng = Rng.from_int(11)
    for variant in Variant:
        lo = lowest_rank(variant)
        for _ in range(60):
            hand = rng.sample(pack(variant), 10)
            cnt = counts(hand)
            generated = leads(cnt, lo)
            assert set(generated) == brute_force_leads(hand)
            for prev in rng.sample(all_combos(4), 12):
                expected = {c for c in generated if beats_elementwise(c, prev)}
                assert set(follows(cnt, lo, prev)) == expected


def test_a_44_card_hand_lists_every_lead_once():
    """The largest hand (classic dealer, 44 cards) still yields the closed-form number of leads."""
    hand = Rng.from_int(5).sample(pack(Variant.CLASSIC), 44)
    cnt = counts(hand)
    naturals = sum(cnt[3:SMALL])
    generated = leads(cnt, 3)
    assert len(generated) == len(set(generated)) == (cnt[SMALL] + 1) * (cnt[BIG] + 1) * (naturals + 1) - 1


def test_hints_are_cheapest_first():
    """可出牌型提示: fewer 大王, then fewer 小王, then lower rank; a lead plays a whole group first."""
    hand = hands_of("S7#1 H7#1 S9#1 LJ#1 BJ#1", "", "", "", "")[0]
    cnt = counts(hand)
    assert leads(cnt, 6)[:3] == [(7, 2, 0, 0), (7, 1, 0, 0), (9, 1, 0, 0)]
    replies = follows(cnt, 6, (6, 2, 0, 0))
    assert replies == [(7, 2, 0, 0), (7, 1, 1, 0), (9, 1, 1, 0), (7, 1, 0, 1), (9, 1, 0, 1), (0, 0, 1, 1)]
    keys = [(c[3], c[2], c[0] or 99) for c in replies]
    assert keys == sorted(keys)


def test_baoliu_sixes_only_as_the_last_play():
    """Seed: "保六玩法。，即六必须留到最后一手一次出完。" Sixes never go out before the rest of the hand,
    and then all together and without jokers (decision)."""
    mixed = counts(hands_of("S6#1 H6#1 S7#1 BJ#1", "", "", "", "")[0])
    assert all(c[0] != 6 for c in leads(mixed, 6, baoliu=True))
    assert allowed(mixed, 6, (6, 2, 0, 0), None, True) is Refusal.BAOLIU_SIXES_LAST
    sixes = counts(hands_of("S6#1 H6#1", "", "", "", "")[0])
    assert leads(sixes, 6, baoliu=True) == [(6, 2, 0, 0)]
    assert allowed(sixes, 6, (6, 1, 0, 0), None, True) is Refusal.BAOLIU_SIXES_LAST
    assert allowed(sixes, 6, (6, 2, 0, 0), None, True) is None
    assert follows(sixes, 3, (5, 2, 0, 0), baoliu=True) == [(6, 2, 0, 0)]
    assert follows(sixes, 3, (5, 1, 0, 0), baoliu=True) == []
    sixes_and_joker = counts(hands_of("S6#1 H6#1 LJ#1", "", "", "", "")[0])
    assert leads(sixes_and_joker, 6, baoliu=True) == [(0, 0, 1, 0)]


def test_pick_keeps_marked_cards_back():
    """Hints use unmarked copies first, so a hint never reveals the guard needlessly."""
    hand = hands_of("S7#1 H7#1 LJ#1 LJ#2 BJ#1 BJ#3", "", "", "", "")[0]
    keep = frozenset({"LJ#1", "BJ#1", "S7#1"})
    assert pick(hand, (7, 1, 1, 1), keep) == ("H7#1", "LJ#2", "BJ#3")
    assert pick(hand, (7, 2, 2, 0), keep) == ("S7#1", "H7#1", "LJ#1", "LJ#2")
    assert size((7, 2, 2, 0)) == 4


def test_card_codes():
    """Decision: a card is suit+rank+"#"+copy ("S10#2"); jokers "BJ#n" (大王) and "LJ#n" (小王, since
    "SJ" is ♠J); BJ#1 is the 皇 card, LJ#1 the 侍卫 card; 2 is above A, jokers above 2."""
    assert (HUANG, SHIWEI) == ("BJ#1", "LJ#1")
    assert (VALUE["SJ#1"], VALUE["LJ#1"], VALUE["BJ#4"], VALUE["H2#3"], VALUE["DA#1"]) == (11, SMALL, BIG, 15, 14)
    assert FACE["S10#2"] == "S10" and is_card("S3#1", Variant.CLASSIC) and not is_card("S3#1", Variant.SIMPLE)
    assert sort_cards(["BJ#1", "LJ#2", "S2#1", "HA#1", "D6#1"]) == ("D6#1", "HA#1", "S2#1", "LJ#2", "BJ#1")
    # as report lines write them
    assert (card_label("S10#2"), card_label("LJ#3"), card_label("BJ#1")) == ("♠10", "小王", "大王")
    assert cards_label(["BJ#2", "H7#1", "C7#4"]) == "♥7 ♣7 大王"
