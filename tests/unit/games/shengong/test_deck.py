"""玩法C card rules ①–⑥, shared by 玩法C and 玩法D."""

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.cards import CATALOGUE, Rarity, Slot
from chalicelib.games.shengong.deck import (
    CardPlay,
    build_deck,
    check_play,
    deal,
    deck_levels,
    refill,
    spend,
)
from chalicelib.games.shengong.profile import MaidHolding

HOLDINGS = (
    MaidHolding(card="xunyi", level=3),
    MaidHolding(card="tieshen", level=1),
    MaidHolding(card="tongxin", level=2),
    MaidHolding(card="jianqiu", level=5),  # SSR
)


def _deck(seed=1):
    return deal(build_deck(deck_levels(HOLDINGS)), Rng.from_int(seed))


def test_catalogue_has_twelve_r_cards_covering_every_effect_family():
    """DECISIONS #9: at least 12 R 宫女 covering attack, defence and general effects."""
    r_cards = [c for c in CATALOGUE.values() if c.rarity is Rarity.R]
    assert len(r_cards) >= 12
    assert {c.slot for c in r_cards} == set(Slot)
    assert {c.effect for c in r_cards} == {c.effect for c in CATALOGUE.values()}


def test_xunyi_is_poison_hit_ten_points_per_level():
    """⑥ 效果一律 ×宫女等级（Lv.3 的「寻医问药」＝下毒命中 +30%）。"""
    assert CATALOGUE["xunyi"].magnitude(3) == 30
    # and her hand says it at her level, as it will act (a card read 「−0.2/级」 left the sum to her)
    assert CATALOGUE["xunyi"].text_at(3) == "下毒命中 +30%"
    assert CATALOGUE["tieshen"].text_at(2) == "所受气血伤害 −0.4"
    assert CATALOGUE["shentang"].text_at(1) == "战后回血 +0.3"


def test_deck_is_two_copies_of_each_r_maid_and_no_sr_or_ssr():
    """① 牌库＝你名下已有的 R 卡宫女（…SR / SSR 不入牌库），每位宫女计 2 张。"""
    assert build_deck(deck_levels(HOLDINGS)) == (
        "tieshen#1", "tieshen#2", "tongxin#1", "tongxin#2", "xunyi#1", "xunyi#2",
    )


def test_no_r_card_means_no_cards():
    """① 若一张 R 卡都没，则本局无牌可出。"""
    deck = deal(build_deck(deck_levels([MaidHolding(card="jianqiu", level=2)])), Rng.from_int(1))
    assert deck.hand == () and deck.pile == ()


def test_deal_five():
    """② 开局发 5 张。"""
    deck = _deck()
    assert len(deck.hand) == 5 and len(deck.pile) == 1


def test_slots_are_enforced():
    """⑤ 进攻牌（只可放进攻位）…防守牌（只可放防守位）…通用牌（只可放通用位）。"""
    deck = _deck()
    attack = next(c for c in deck.hand if c.startswith("xunyi"))
    with pytest.raises(IllegalAction) as e:
        check_play(deck, CardPlay(defence=attack))
    assert e.value.code == "CARD_WRONG_SLOT"
    check_play(deck, CardPlay(attack=attack))


def test_at_most_two_discards():
    """③ 也可弃牌（每轮最多 2 张）。"""
    with pytest.raises(ValueError):
        CardPlay(discard=("a#1", "b#1", "c#1"))


def test_cannot_play_a_card_not_in_hand_or_twice():
    deck = _deck()
    missing = next(c for c in build_deck(deck_levels(HOLDINGS)) if c not in deck.hand)
    with pytest.raises(IllegalAction):
        check_play(deck, CardPlay(discard=(missing,)))
    card = deck.hand[0]
    with pytest.raises(IllegalAction):
        check_play(deck, CardPlay(discard=(card, card)))


def test_used_cards_freeze_three_rounds_and_discards_return_at_once():
    """④ 用过的牌冻结 3 轮——本轮用过，接下来 3 轮不会再出现；弃掉的牌不冻结，立刻回到牌库。"""
    deck = _deck(seed=5)
    used = next(c for c in deck.hand if c.startswith("xunyi"))
    dropped = next(c for c in deck.hand if not c.startswith("xunyi"))
    deck = spend(deck, CardPlay(attack=used, discard=(dropped,)), round_no=1)
    assert dropped in deck.pile
    for r in (2, 3, 4):
        deck = refill(deck, r, Rng.from_int(r))
        assert used not in deck.hand and used not in deck.pile
        # discard the whole hand every round so the pile is always drawn from
        deck = spend(deck, CardPlay(discard=deck.hand[:2]), round_no=r)
    deck = refill(deck, 5, Rng.from_int(5))
    assert used in deck.hand or used in deck.pile


def test_refill_to_five_and_conservation_over_many_rounds():
    """② 每轮结算后补满 5 张 — and hand + pile + frozen is always the whole deck."""
    full = build_deck(deck_levels(HOLDINGS))
    deck = _deck(seed=9)
    rng = Rng.from_int(99)
    for r in range(1, 60):
        atk = next((c for c in deck.hand if c.startswith("xunyi")), None)
        deck = spend(deck, CardPlay(attack=atk, discard=deck.hand[-1:] if deck.hand[-1:] != (atk,) else ()), r)
        deck = refill(deck, r + 1, rng)
        assert deck.all_copies() == full
        assert len(deck.hand) == min(5, len(full) - len(deck.frozen))
