"""Seed D③: 默认出牌：牌库与玩法C 相同 — and 玩法C ①–⑥ as they act in D."""

import pytest
from pydantic import ValidationError

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Viewer
from chalicelib.games.shengong.actions import Assassinate, Heal, Idle, Poison, action_adapter
from chalicelib.games.shengong.deck import CardPlay
from chalicelib.games.shengong.terms import Attack, Place

from .helpers import GAME, ScriptRng, acted, blow, force_plan, new_game, profile, settle, shape

G, T, K = Place.GARDEN, Place.TAVERN, Place.KITCHEN
MAIDS = (("xiuzhen", 2), ("hedinghong", 3), ("tieshen", 2), ("shentang", 1), ("tongxin", 3),
         ("huayu", 2), ("chushou", 1), ("xunyi", 3), ("jianqiu", 5))


def _game(**kw):
    return new_game(1, profile("甄嬛", maids=MAIDS), profile("沈眉庄", maids=(("tongxin", 1),)), **kw)


def _quiet(monkeypatch):
    """高明珠 always 群诬 and (with default 99) always misses; every player roll misses too."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.FRAME)


def test_deck_is_two_copies_of_each_r_maid_and_five_are_dealt():
    """玩法C ① 牌库＝你名下已有的 R 卡宫女（SR / SSR 不入牌库），每位宫女计 2 张; ② 开局发 5 张."""
    p = _game().players[0]
    assert len(p.deck.all_copies()) == 16 and len(p.deck.hand) == 5
    assert not any(c.startswith("jianqiu") for c in p.deck.all_copies())


def test_a_player_with_no_r_cards_has_no_cards():
    """D③ / 玩法C ① 若一张 R 卡都没，则本局无牌可出."""
    p = new_game(1, profile("甄嬛", maids=(("jianqiu", 5),))).players[0]
    assert p.deck.all_copies() == ()
    assert GAME.view(new_game(1), Viewer.player(2)).you.hand.hand == ()


def test_attack_hit_card_times_level():
    """玩法C ⑥ 效果一律 ×宫女等级 — 「袖里藏针」Lv.2 = 暗杀命中 +16%."""
    s = shape(_game(), hands=(("xiuzhen#1",), (), ()))
    t = settle(s, {0: Assassinate(target=0, cards=CardPlay(attack="xiuzhen#1"))}, ScriptRng(99, 0, 99))
    assert acted(t, 0).chance == 75 + 16


def test_the_attack_button_knows_the_chance_with_each_hit_card_in_hand():
    """玩法C ⑥ 效果一律 ×宫女等级: with 「袖里藏针」Lv.2 in hand, her 暗杀 seal can show 75 + 16 — the chance the
    round then settles with when she plays it (a reviewer's button said 90% while the report said 95%);
    cards that do not raise that attack's chance are not listed."""
    s = shape(_game(), hands=(("xiuzhen#1", "xunyi#1", "tieshen#1"), (), ()))
    options = {o.type.value: o for o in GAME.view(s, Viewer.player(0)).you.options}
    stab, poison = options["assassinate"], options["poison"]
    assert [(c.copy_id, c.chances) for c in stab.card_chances] == [("xiuzhen#1", (75 + 16,) * len(stab.targets))]
    assert [c.copy_id for c in poison.card_chances] == ["xunyi#1"] and options["idle"].card_chances == ()
    t = settle(s, {0: Assassinate(target=0, cards=CardPlay(attack="xiuzhen#1"))}, ScriptRng(99, 0, 99))
    assert acted(t, 0).chance == stab.card_chances[0].chances[0]


def test_attack_damage_card_times_level():
    """玩法C ⑤ 进攻牌：提升下毒/暗杀/诬告的命中与伤害 — 「鹤顶红」Lv.3 = 下毒伤害 +0.6."""
    s = shape(_game(), hands=(("hedinghong#2",), (), ()))
    t = settle(s, {0: Poison(target=0, cards=CardPlay(attack="hedinghong#2"))}, ScriptRng(99, 0, 99))
    assert blow(t, 0) == 26
    assert t.state.opponents[0].hp == 240 - 26


def test_an_attack_card_must_match_the_attack():
    """玩法C ⑤ 进攻牌…提升下毒/暗杀/诬告 — a card for another attack would do nothing, so it is refused."""
    s = shape(_game(), hands=(("xunyi#1", "chushou#1"), (), ()))
    for action in (Assassinate(target=0, cards=CardPlay(attack="xunyi#1")), Idle(cards=CardPlay(attack="xunyi#1"))):
        with pytest.raises(IllegalAction) as e:
            GAME.check(s, Viewer.player(0), action)
        assert e.value.code == "CARD_NO_EFFECT"


def test_the_meal_card_cannot_be_played_in_d_but_can_be_discarded():
    """玩法C ⑤ 通用牌…送膳所得好感加成 — there is no 送膳 in D."""
    s = shape(_game(), hands=(("chushou#1",), (), ()))
    with pytest.raises(IllegalAction) as e:
        GAME.check(s, Viewer.player(0), Idle(cards=CardPlay(general="chushou#1")))
    assert e.value.code == "CARD_NO_EFFECT"
    GAME.check(s, Viewer.player(0), Idle(cards=CardPlay(discard=("chushou#1",))))


def test_each_card_only_in_its_own_slot():
    """玩法C ③ 1 张进攻牌 ＋ 1 张防守牌 ＋ 1 张通用牌（各归各位，不可混放）."""
    s = shape(_game(), hands=(("tieshen#1", "xunyi#1"), (), ()))
    with pytest.raises(IllegalAction) as e:
        GAME.check(s, Viewer.player(0), Poison(cards=CardPlay(defence="xunyi#1")))
    assert e.value.code == "CARD_WRONG_SLOT"
    with pytest.raises(IllegalAction) as e:
        GAME.check(s, Viewer.player(0), Idle(cards=CardPlay(defence="tieshen#2")))
    assert e.value.code == "CARD_NOT_IN_HAND"


def test_at_most_two_discards():
    """玩法C ③ 也可弃牌（每轮最多 2 张）."""
    with pytest.raises(ValidationError):
        action_adapter.validate_python({"type": "idle", "cards": {"discard": ["a#1", "b#1", "c#1"]}})


def test_guard_card_reduces_hp_damage_times_level(monkeypatch):
    """玩法C ⑤ 防守牌：减免所受气血/好感伤害 — 「贴身护卫」Lv.2 = −0.4."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    s = shape(_game(), hp=(10, 15, 15), places=(G, T, K), hands=(("tieshen#1",), (), ()))
    t = settle(s, {0: Heal(cards=CardPlay(defence="tieshen#1"))}, ScriptRng(0))
    # 养生: 暗杀 only −1, guard −0.4, heal +0.8
    assert t.state.players[0].hp == 100 - 6 + 8


def test_after_heal_card_only_for_who_still_stands(monkeypatch):
    """玩法C ⑤ 防守牌：…战后回血 — after everything lands, only if she is still up."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    s = shape(_game(), hp=(10, 15, 15), places=(G, T, K), hands=(("shentang#1",), (), ()))
    t = settle(s, {0: Poison(target=0, cards=CardPlay(defence="shentang#1"))}, ScriptRng(99, 0))
    assert t.state.players[0].hp == 100 - 30 + 3
    s = shape(s, hp=(3, 15, 15))
    t = settle(s, {0: Poison(target=0, cards=CardPlay(defence="shentang#1"))}, ScriptRng(99, 0))
    assert t.state.players[0].hp == 0 and not t.state.players[0].alive


def test_palace_cards_reach_everyone_at_her_place_herself_included(monkeypatch):
    """玩法C ⑤ 通用牌（同宫全员气血/好感加成）— in D 同宫 = the living teammates at her place."""
    _quiet(monkeypatch)
    s = shape(_game(), hp=(10, 10, 10), grace=(5, 5, 5), places=(T, T, K),
              hands=(("tongxin#1",), (), ()))
    t = settle(s, {0: Heal(cards=CardPlay(general="tongxin#1")), 1: Heal(), 2: Heal()}, ScriptRng(default=99))
    assert [p.hp for p in t.state.players] == [100 + 8 + 3, 100 + 8 + 3, 108]
    s = shape(_game(), grace=(5, 5, 5), places=(T, T, K), hands=(("huayu#2",), (), ()))
    t = settle(s, {0: Heal(cards=CardPlay(general="huayu#2")), 1: Heal(), 2: Heal()}, ScriptRng(default=99))
    assert [p.grace for p in t.state.players] == [50 + 2 + 2, 50 + 2 + 2, 52]


def test_used_cards_freeze_three_rounds_and_discards_return_at_once(monkeypatch):
    """玩法C ④ 用过的牌冻结 3 轮——本轮用过，接下来 3 轮不会再出现；弃掉的牌不冻结，立刻回到牌库."""
    _quiet(monkeypatch)
    s = shape(_game(), hands=(("tieshen#1", "tongxin#2", "huayu#1", "shentang#1", "xunyi#1"), (), ()))
    t = settle(s, {0: Idle(cards=CardPlay(defence="tieshen#1", discard=("tongxin#2",)))}, ScriptRng(default=99))
    deck = t.state.players[0].deck
    assert [(f.card, f.back_in_round) for f in deck.frozen] == [("tieshen#1", 5)]
    assert "tongxin#2" in deck.hand or "tongxin#2" in deck.pile
    s = t.state
    for rnd in (2, 3, 4):
        assert "tieshen#1" not in s.players[0].deck.hand and "tieshen#1" not in s.players[0].deck.pile
        s = settle(s, {0: Idle(cards=CardPlay(discard=s.players[0].deck.hand[:2]))}, ScriptRng(default=99)).state
    assert s.round == 5
    assert "tieshen#1" in s.players[0].deck.hand or "tieshen#1" in s.players[0].deck.pile


def test_hand_is_refilled_to_five_after_each_settlement(monkeypatch):
    """玩法C ② 每轮结算后补满 5 张."""
    _quiet(monkeypatch)
    s = _game()
    hand = s.players[0].deck.hand
    guard = next(c for c in hand if c.startswith(("tieshen", "shentang")))
    t = settle(s, {0: Idle(cards=CardPlay(defence=guard))}, ScriptRng(default=99))
    assert len(t.state.players[0].deck.hand) == 5
    assert t.state.players[1].deck.hand == s.players[1].deck.hand  # two cards: all in hand already


def test_a_meal_card_in_d_says_it_can_only_be_discarded():
    """D has no 送膳 (the D action table), yet her deck is her R maids as in 玩法C: 「御厨妙手」 (送膳所得好感)
    comes to hand and can do nothing — the card says so (decision, docs/rules/shengong.md §9)."""
    s = shape(_game(), hands=(("chushou#1", "xiuzhen#1"), (), ()))
    cards = {c.card: c for c in GAME.view(s, Viewer.player(0)).you.hand.hand}
    assert cards["chushou"].unusable == "此玩法没有送膳：此牌只能弃"
    assert cards["xiuzhen"].unusable is None
