"""玩法A (宫女 blocked), 玩法B (宫女 passive) and 玩法C (宫女 as cards)."""

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.deck import Deck
from chalicelib.games.shengong.events import CardsPlayed
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, PalaceOptions
from chalicelib.games.shengong.terms import ModeKey as Mode
from chalicelib.games.shengong.terms import Result

from .helpers import Script, act, action_of, board, entrants, run, seat, t

MAIDS = {0: [("xunyi", 3), ("tieshen", 1), ("tongxin", 2), ("jianqiu", 5)], 1: [("xunyi", 2)]}


# ---- 玩法A ----------------------------------------------------------------------------------------

def test_mode_a_blocks_maids():
    """A · 竞技局 屏蔽宫女，纯拼策略: her 宫女 are not even brought in, and no card may be played."""
    s = GAME_A.setup(entrants(MAIDS), PalaceOptions(), Rng.from_int(1))
    assert all(p.maids == {} and p.deck is None for p in s.players)
    with pytest.raises(IllegalAction) as e:
        GAME_A.check(s, Viewer.player(0), act(type="heal", cards={"defence": "tieshen#1"}))
    assert e.value.code == "CARDS_NOT_ALLOWED"


def test_mode_a_ignores_maids_on_the_board():
    """A · 竞技局 屏蔽宫女: even a board carrying maids gets no effect from them in A."""
    s = board(seat(0, "承乾宫", maids={"xunyi": 3}), seat(1, "景仁宫"))
    _, ev = run(s, {0: dict(type="poison", place="景仁宫")}, Script(rolls=[95]))
    assert action_of(ev, 0).result is Result.MISS


# ---- 玩法B ----------------------------------------------------------------------------------------

def test_mode_b_brings_r_maids_at_their_level_and_no_hand():
    """B · 宫女局 宫女技能全线被动生效 (DECISIONS #9: R 宫女 only, no hand, no slots)."""
    s = GAME_B.setup(entrants(MAIDS), PalaceOptions(), Rng.from_int(1))
    assert s.players[0].maids == {"xunyi": 3, "tieshen": 1, "tongxin": 2}
    assert s.players[1].maids == {"xunyi": 2}
    assert all(p.deck is None for p in s.players)
    with pytest.raises(IllegalAction) as e:
        GAME_B.check(s, Viewer.player(0), act(type="poison", place="景仁宫", cards={"attack": "xunyi#1"}))
    assert e.value.code == "CARDS_NOT_ALLOWED"


def test_mode_b_attack_maid_acts_only_with_her_attack():
    """宫女技能全线被动生效: 寻医问药 Lv.3 = 下毒命中 +30% every round she poisons (90 + 30, capped at 95 by
    DECISIONS #14), nothing for 诬告."""
    s = board(seat(0, "承乾宫", maids={"xunyi": 3}), seat(1, "景仁宫"), mode=Mode.B)
    _, ev = run(s, {0: dict(type="poison", place="景仁宫")}, Script(rolls=[94]))
    assert action_of(ev, 0).result is Result.HIT and action_of(ev, 0).chance == 95
    _, ev = run(s, {0: dict(type="frame", place="景仁宫")}, Script(rolls=[90]))
    assert action_of(ev, 0).result is Result.MISS


def test_mode_b_every_maid_acts_every_round():
    """宫女技能全线被动生效 (decision): all her R 宫女, each once at her level, every round."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", maids={"tieshen": 2, "yinzhen": 3}), mode=Mode.B)
    for _ in range(2):
        before = s.players[1].hp
        s, _ = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="stay")})
        assert before - s.players[1].hp == t(2 - 0.4 - 0.3)


def test_mode_b_palace_and_after_heal_maids():
    """同宫全员气血加成 and 战后回血 (only for a survivor) act passively in 玩法B."""
    s = board(seat(0, "景仁宫", maids={"tongxin": 2}), seat(1, "景仁宫"), seat(2, "承乾宫"),
              seat(3, "延禧宫", hp=1, maids={"shentang": 1}), seat(4, "永寿宫", maids={"shentang": 1}),
              mode=Mode.B)
    new, _ = run(s, {0: dict(type="stay"), 1: dict(type="stay"), 2: dict(type="poison", place="延禧宫"),
                     3: dict(type="stay"), 4: dict(type="stay")})
    assert (new.players[0].hp, new.players[1].hp) == (t(10.2), t(10.2))
    assert new.players[4].hp == t(10.3)
    assert not new.players[3].alive and new.players[3].hp == t(-1), "no 战后回血 for the fallen"


# ---- 玩法C ----------------------------------------------------------------------------------------

def test_mode_c_deals_five_from_two_copies_of_each_r_maid():
    """玩法C ① 牌库＝你名下已有的 R 卡宫女…每位宫女计 2 张 ② 开局发 5 张."""
    s = GAME_C.setup(entrants(MAIDS), PalaceOptions(), Rng.from_int(1))
    d0 = s.players[0].deck
    assert len(d0.hand) == 5 and len(d0.pile) == 1
    assert sorted(d0.all_copies()) == ["tieshen#1", "tieshen#2", "tongxin#1", "tongxin#2", "xunyi#1", "xunyi#2"]
    assert sorted(s.players[1].deck.hand) == ["xunyi#1", "xunyi#2"]


def test_mode_c_without_r_maids_has_no_cards():
    """玩法C ① 若一张 R 卡都没，则本局无牌可出."""
    s = GAME_C.setup(entrants(MAIDS), PalaceOptions(), Rng.from_int(1))
    assert s.players[2].deck == Deck()
    with pytest.raises(IllegalAction) as e:
        GAME_C.check(s, Viewer.player(2), act(type="poison", place="景仁宫", cards={"attack": "xunyi#1"}))
    assert e.value.code == "CARD_NOT_IN_HAND"
    # and her view says why her hand is empty (not a bare 「手中无牌」), and where 宫女 come from
    you = GAME_C.view(s, Viewer.player(2)).you
    assert you is not None and you.hand is not None
    assert you.hand.empty == "你名下没有良品（R）宫女，本局无牌可出 · 宫女由司礼赏赐"
    held = GAME_C.view(s, Viewer.player(0)).you
    assert held is not None and held.hand is not None and held.hand.empty is None


def test_mode_c_card_effect_times_level():
    """玩法C ⑥ 效果一律 ×宫女等级（Lv.3 的「寻医问药」＝下毒命中 +30%）."""
    deck = Deck(hand=("xunyi#1",), pile=("xunyi#2",))
    s = board(seat(0, "承乾宫", maids={"xunyi": 3}, deck=deck), seat(1, "景仁宫"), mode=Mode.C)
    _, ev = run(s, {0: dict(type="poison", place="景仁宫", cards={"attack": "xunyi#1"})}, Script(rolls=[94]))
    assert action_of(ev, 0).result is Result.HIT and action_of(ev, 0).chance == 95  # DECISIONS #14 cap
    _, ev = run(s, {0: dict(type="poison", place="景仁宫")}, Script(rolls=[94]))
    assert action_of(ev, 0).result is Result.MISS


def test_mode_c_attack_card_must_fit_the_action():
    """玩法C ⑤ 进攻牌…提升下毒/暗杀/诬告的命中与伤害: a 下毒 card with another order does nothing, so it is refused."""
    deck = Deck(hand=("xunyi#1", "tieshen#1"))
    s = board(seat(0, "承乾宫", maids={"xunyi": 3, "tieshen": 1}, deck=deck), seat(1, "景仁宫"), mode=Mode.C)
    with pytest.raises(IllegalAction) as e:
        GAME_C.check(s, Viewer.player(0), act(type="frame", place="景仁宫", cards={"attack": "xunyi#1"}))
    assert e.value.code == "CARD_NO_EFFECT"
    with pytest.raises(IllegalAction) as e:
        GAME_C.check(s, Viewer.player(0), act(type="idle", cards={"attack": "tieshen#1"}))
    assert e.value.code == "CARD_WRONG_SLOT"
    GAME_C.check(s, Viewer.player(0), act(type="idle", cards={"defence": "tieshen#1"}))


def test_mode_c_damage_card_and_heal_halving():
    """玩法C ⑤ 提升…伤害; 正在养生者伤害减半 halves the whole hit (2 + 0.4 → 1.2)."""
    deck = Deck(hand=("hedinghong#1",))
    s = board(seat(0, "承乾宫", maids={"hedinghong": 2}, deck=deck), seat(1, "景仁宫"), seat(2, "景仁宫", hp=9),
              mode=Mode.C)
    new, _ = run(s, {0: dict(type="poison", place="景仁宫", cards={"attack": "hedinghong#1"}),
                     1: dict(type="heal"), 2: dict(type="stay")})
    assert new.players[1].hp == t(10 - 1.2 + 0.8)
    assert new.players[2].hp == t(9 - 1.4)


def test_mode_c_assassinate_card_does_not_pierce_heal():
    """可穿透养生（仅 −1）: a damage card does not add to the −1 on a 养生 target."""
    deck = Deck(hand=("yexing#1",))
    s = board(seat(0, "承乾宫", maids={"yexing": 5}, deck=deck), seat(1, "景仁宫"), mode=Mode.C)
    new, _ = run(s, {0: dict(type="assassinate", place="景仁宫", cards={"attack": "yexing#1"}),
                     1: dict(type="heal")})
    assert new.players[1].hp == t(10 - 1 + 0.8)


def test_mode_c_defence_and_general_cards():
    """玩法C ⑤ 防守牌…减免所受气血/好感伤害、战后回血；通用牌…同宫全员气血/好感加成、送膳所得好感加成."""
    s = board(
        seat(0, "承乾宫"),
        seat(1, "景仁宫", grace=6, maids={"jinyan": 2}, deck=Deck(hand=("jinyan#1",))),
        seat(2, "景仁宫", maids={"huayu": 3}, deck=Deck(hand=("huayu#1",))),
        seat(3, "乾清宫", maids={"chushou": 2}, deck=Deck(hand=("chushou#1",))),
        mode=Mode.C,
    )
    new, _ = run(s, {0: dict(type="frame", place="景仁宫"), 1: dict(type="stay", cards={"defence": "jinyan#1"}),
                     2: dict(type="stay", cards={"general": "huayu#1"}),
                     3: dict(type="meal", cards={"general": "chushou#1"})})
    assert new.players[1].grace == t(6 - 2 + 0.4 + 0.3 + 0.2)
    assert new.players[2].grace == t(5 - 1 + 0.3 + 0.2)
    assert new.players[3].grace == t(5 + 2 + 0.4 + 0.2)


def test_mode_c_used_cards_freeze_three_rounds_and_hand_refills_to_five():
    """玩法C ② 每轮结算后补满 5 张 ④ 用过的牌冻结 3 轮——本轮用过，接下来 3 轮不会再出现."""
    s = GAME_C.setup(entrants({**MAIDS, 2: [("xiuzhen", 1)]}), PalaceOptions(), Rng.from_int(4))
    card = next(c for c in s.players[0].deck.hand if c.startswith("xunyi"))
    tr = GAME_C.settle(s, {0: act(type="poison", place="景仁宫", cards={"attack": card})}, Rng.from_int(4, 1))
    s = tr.state
    assert len(s.players[0].deck.hand) == 5
    assert [f.back_in_round for f in s.players[0].deck.frozen if f.card == card] == [5]
    for step in (2, 3, 4):
        assert card not in s.players[0].deck.hand + s.players[0].deck.pile
        s = GAME_C.settle(s, {}, Rng.from_int(4, step)).state
    assert card in s.players[0].deck.hand + s.players[0].deck.pile


def test_mode_c_discards_go_back_at_once():
    """玩法C ③ 也可弃牌（每轮最多 2 张）④ 弃掉的牌不冻结，立刻回到牌库."""
    s = GAME_C.setup(entrants(MAIDS), PalaceOptions(), Rng.from_int(2))
    drop = s.players[0].deck.hand[:2]
    new = GAME_C.settle(s, {0: act(type="idle", cards={"discard": list(drop)})}, Rng.from_int(2, 1)).state
    d = new.players[0].deck
    assert d.frozen == () and len(d.hand) == 5
    assert set(drop) <= set(d.hand + d.pile)


def test_mode_c_voided_seat_may_discard_but_not_play():
    """并令其下回合行动作废: a voided seat plays no card (discarding is not an action)."""
    s = board(seat(0, "承乾宫", voided=True, maids={"tieshen": 1}, deck=Deck(hand=("tieshen#1", "tieshen#2"))),
              seat(1, "景仁宫"), mode=Mode.C)
    with pytest.raises(IllegalAction):
        GAME_C.check(s, Viewer.player(0), act(type="idle", cards={"defence": "tieshen#1"}))
    GAME_C.check(s, Viewer.player(0), act(type="idle", cards={"discard": ["tieshen#1"]}))
    _, ev = run(s, {0: dict(type="idle", cards={"discard": ["tieshen#1"]})})
    assert next(e for e in ev if isinstance(e, CardsPlayed)).discard == ("tieshen#1",)
