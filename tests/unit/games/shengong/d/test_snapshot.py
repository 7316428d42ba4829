"""Seed: 「回合初统一快照，命中、受害者、养生免疫一律按快照判定，伤害与治疗最后一次性落账 —— 不存在先手压制」."""

from chalicelib.games.shengong.actions import Assassinate, Frame, Heal, Idle, Poison
from chalicelib.games.shengong.terms import Attack, Place, Result

from .helpers import ScriptRng, acted, event, force_plan, new_game, settle, shape

G, T, K = Place.GARDEN, Place.TAVERN, Place.KITCHEN


def test_a_boss_felled_this_round_still_acts_this_round(monkeypatch):
    """不存在「先下手把人砍了、对方这轮白打」的先手压制: 高明珠 at 2 气血 still strikes."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=1)
    s = shape(new_game(1), opp_hp=(2,), places=(G, T, K))
    t = settle(s, {0: Poison(target=0), 1: Poison(target=0)}, ScriptRng(0, 0, 0))
    assert not t.state.opponents[0].alive and t.state.over and t.state.cleared
    assert event(t, "opponent_acted", opponent=0).result is Result.HIT
    assert t.state.players[1].hp == 150 - 30  # her 暗杀 landed although 高明珠 fell this round


def test_a_player_felled_this_round_still_lands_her_blow(monkeypatch):
    """命中…一律按快照判定: her attack counts although she falls the same round."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    s = shape(new_game(1), hp=(2, 15, 15), places=(G, T, K))
    t = settle(s, {0: Assassinate(target=0)}, ScriptRng(0, 0))
    assert not t.state.players[0].alive
    assert t.state.opponents[0].hp == 240 - 30
    assert t.state.players[0].stats.hp_damage == 30


def test_healing_and_damage_land_together(monkeypatch):
    """伤害与治疗最后一次性落账: at 1.5 气血 she takes −3 (−1 待机) = −2, which alone would fell her,
    but her +0.9 of 待机 gains lands in the same stroke: 0.4 — she stands."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    s = shape(new_game(1), hp=(1.5, 15, 15), places=(G, G, T))
    # seat 0 待机 at 御花园: +0.5 +0.3, guard −1; seat 1 待机 beside her: +0.1.
    t = settle(s, {0: Idle(), 1: Idle(), 2: Heal()}, ScriptRng(0))
    assert t.state.players[0].hp == 15 - 30 + 10 + 5 + 3 + 1 == 4
    assert t.state.players[0].alive


def test_victims_are_chosen_on_the_snapshot():
    """受害者…按快照判定: 高明珠 直取 the player with the least 气血 at the start of the round,
    even if another player's own cost drops her lower during the round."""
    s = shape(new_game(1), hp=(9, 9.5, 15), places=(G, T, K))
    # tactic roll 0 = 直取气血最少者 (no tie), seat 1 frames (−1 气血 cost: 8.5 < 9), boss hits.
    t = settle(s, {1: Frame(target=0)}, ScriptRng(0, 0, 0))
    assert event(t, "opponent_acted", opponent=0).aimed == (0,)


def test_heal_immunity_is_judged_on_this_rounds_orders(monkeypatch):
    """养生免疫…按快照判定; DECISIONS #6: 暗杀 on someone who 养生 deals only −1."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    s = shape(new_game(1), hp=(10, 15, 15), places=(G, T, K))
    t = settle(s, {0: Heal()}, ScriptRng(0))
    assert event(t, "opponent_acted", opponent=0).hits[0].hp == 10
    assert t.state.players[0].hp == 100 - 10 + 8


def test_poison_on_a_healing_player_is_halved(monkeypatch):
    """Seed table 下毒：正在养生者伤害减半."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.POISON, target=None)
    s = shape(new_game(1), hp=(15, 12, 10), places=(G, T, K))
    t = settle(s, {0: Heal(), 1: Heal(), 2: Heal()}, ScriptRng(0))
    assert [v.hp for v in event(t, "opponent_acted", opponent=0).hits] == [10, 5, 5]


def test_hit_chances_are_the_snapshot_places_not_the_destinations():
    """命中…按快照判定: a player leaving 醉江南 this round still had its +10% this round."""
    s = shape(new_game(1), places=(T, G, G))
    t = settle(s, {0: Assassinate(target=0), 1: Idle()}, ScriptRng(99, 0, 99))
    assert acted(t, 0).chance == 85
