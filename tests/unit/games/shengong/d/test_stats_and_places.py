"""Seed D② (stats from the 妃子) and D④ (five places, each with one bonus)."""

from chalicelib.games.shengong.actions import Assassinate, Frame, Heal, Idle, Move, Poison
from chalicelib.games.shengong.formulas import attribute_bonus
from chalicelib.games.shengong.numbers import HIT_CAP
from chalicelib.games.shengong.terms import Attack, Place

from .helpers import GAME, acted, blow, new_game, profile, quiet, rolls, settle, shape

G, T, K, I, Z = Place.GARDEN, Place.TAVERN, Place.KITCHEN, Place.INFIRMARY, Place.TOWER


def test_hp_is_looks_over_ten_plus_ten_exact_in_tenths():
    """D② 气血 ＝ 容貌/10 + 10."""
    s = new_game(1, profile("甄嬛", looks=85), profile("沈眉庄", looks=0), profile("安陵容", looks=100))
    assert [p.hp for p in s.players] == [185, 100, 200]
    assert [p.hp_max for p in s.players] == [185, 100, 200]


def test_poison_hit_is_ninety_plus_power_over_twenty_floored():
    """D② 下毒命中 ＝ 90 + 权势/20 + 牌 — 权势 59 gives +2 (fractions of a point are dropped)."""
    s = new_game(1, profile("甄嬛", power=59))
    assert attribute_bonus(s.players[0], Attack.POISON) == 2
    t = settle(s, {0: Poison(target=0)}, rolls(0))
    assert acted(t, 0).chance == 92


def test_assassinate_hit_is_seventy_five_plus_talent_over_twenty():
    """D② 暗杀 ＝ 75 + 才情/20 + 牌."""
    s = new_game(1, profile("甄嬛", talent=100))
    t = settle(s, {0: Assassinate(target=0)}, rolls(0))
    assert acted(t, 0).chance == 80


def test_frame_hit_is_eighty_five_plus_favor_over_twenty():
    """D② 诬告 ＝ 85 + 圣宠/20 + 牌."""
    s = new_game(1, profile("甄嬛", favor=41))
    t = settle(s, {0: Frame(target=0)}, rolls(0))
    assert acted(t, 0).chance == 87


def test_every_hit_chance_is_capped_at_95():
    """D② 诬告 ＝ 85 + 圣宠/20 + 牌（上限 95%） — the cap applies to every chance after all bonuses."""
    s = shape(new_game(1, profile("甄嬛", power=100, favor=100)), places=(T, G, G))
    t = settle(s, {0: Poison(target=0)}, rolls(0))
    assert acted(t, 0).chance == HIT_CAP == 95
    t = settle(s, {0: Frame(target=0)}, rolls(0))
    assert acted(t, 0).chance == 95


def test_player_grace_starts_at_ten():
    """DECISIONS #10: Player 好感 at start in D is 10."""
    assert {p.grace for p in new_game(1).players} == {100}


def test_everyone_starts_at_the_garden():
    """D④ 御花园（起手…）."""
    assert {p.place for p in new_game(1).players} == {G}


def test_tavern_adds_ten_to_every_attack_hit():
    """D④ 醉江南（对手所在，进攻命中 +10%）."""
    s = shape(new_game(1), places=(T, G, G))
    for action, base in ((Poison(target=0), 90), (Assassinate(target=0), 75), (Frame(target=0), 85)):
        t = settle(s, {0: action, 1: action}, rolls(0, 0))
        assert acted(t, 0).chance == min(95, base + 10)
        assert acted(t, 1).chance == base


def test_kitchen_adds_one_to_poison_damage():
    """D④ 御膳房（下毒伤害 +1）."""
    s = shape(new_game(1), places=(K, G, G))
    t = settle(s, {0: Poison(target=0), 1: Poison(target=0)}, rolls(0, 0))
    assert blow(t, 0) == 30
    assert blow(t, 1) == 20
    assert t.state.opponents[0].hp == 240 - 50


def test_tower_adds_one_to_frame_damage():
    """D④ 摘星楼（诬告伤害 +1）."""
    s = shape(new_game(1), places=(Z, G, G))
    t = settle(s, {0: Frame(target=0), 1: Frame(target=0)}, rolls(0, 0))
    assert blow(t, 0) == 30
    assert t.state.opponents[0].grace == 200 - 30 - 20


def test_infirmary_adds_one_to_heal():
    """D④ 太医院（养生 +1 气血）."""
    s = shape(new_game(1), hp=(10, 10, 10), places=(I, T, T))
    t = settle(s, {0: Heal(), 1: Heal(), 2: Heal()}, quiet())
    assert acted(t, 0).own_hp == 18
    assert [p.hp for p in t.state.players] == [118, 108, 108]


def test_garden_adds_point_three_to_idle():
    """D④ 御花园（起手，待机 +0.3）— added to each of her own 待机 gains (气血 and 好感)."""
    s = shape(new_game(1), hp=(10, 10, 10), grace=(8, 8, 8), places=(G, T, K))
    t = settle(s, {0: Idle(), 1: Idle(), 2: Idle()}, quiet())
    # garden: +0.5 +0.3 气血; +0.5 +0.3 +0.2 (daily) 好感. Elsewhere: +0.5 / +0.7.
    assert [p.hp for p in t.state.players] == [108, 105, 105]
    assert [p.grace for p in t.state.players] == [90, 87, 87]


def test_places_are_exactly_the_five_of_the_seed():
    """D④ 地点精简：御花园、醉江南、御膳房、太医院、摘星楼."""
    assert [p.value for p in GAME.mode.places] == ["御花园", "醉江南", "御膳房", "太医院", "摘星楼"]


def test_move_to_each_place_is_accepted():
    """D④ 只有「移动」要选去处."""
    s = new_game(1)
    for place in (T, K, I, Z):
        t = settle(s, {0: Move(place=place)}, quiet())
        assert t.state.players[0].place is place
