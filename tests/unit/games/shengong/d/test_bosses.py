"""Seed D⑤⑥: the stages, their opponents' numbers and tactics."""

from collections import Counter

import pytest

from chalicelib.core.game import Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong import bosses
from chalicelib.games.shengong.actions import Assassinate, Frame, Poison
from chalicelib.games.shengong.formulas import opponent_chance
from chalicelib.games.shengong.terms import Attack, Place, Result

from .helpers import GAME, ScriptRng, acted, event, force_plan, new_game, settle, shape

G, T, K = Place.GARDEN, Place.TAVERN, Place.KITCHEN
DRAWS = 20_000


def _bars(o):
    return (o.name, o.hp, o.grace)


def test_stage_one_is_gao_mingzhu_24_20():
    """D⑥ 关卡1 · 高明珠（气血 24 / 好感 20，命中 +10%…）."""
    assert [_bars(o) for o in new_game(1).opponents] == [("高明珠", 240, 200)]


def test_stage_two_is_shi_lu_35_30():
    """D⑥ 关卡2 · 石露（气血 35 / 好感 30，命中 +20%、诬告防守 20%、暗杀杀伤 +1…）."""
    assert [_bars(o) for o in new_game(2).opponents] == [("石露", 350, 300)]


def test_stage_three_is_gao_mingzhu_with_two_followers():
    """D⑥ 关卡3 · 高明珠（携二随从）（本体气血 24 / 好感 20；西域间谍气血 23…；石露的哑巴宫女气血 22…）."""
    assert [_bars(o) for o in new_game(3).opponents] == [
        ("高明珠", 240, 200), ("西域间谍", 230, None), ("石露的哑巴宫女", 220, None),
    ]


@pytest.mark.parametrize("key", sorted(bosses.TACTICS))
def test_tactic_frequencies_match_the_table(key):
    """D⑤ 三位各按自身战术出手一次 — 六成 / 四成 / 五成 as probabilities from the seeded rng."""
    snap = shape(new_game(3), hp=(9, 12, 15), grace=(10, 8, 6))
    rng = Rng.from_int(2024)
    seen = Counter(bosses.SPECS[key].policy(snap, rng).tactic for _ in range(DRAWS))
    for tactic, weight in bosses.TACTICS[key]:
        assert abs(seen[tactic] / DRAWS - weight / 100) < 0.015, (tactic, seen)
    assert sum(w for _, w in bosses.TACTICS[key]) == 100
    assert set(seen) == {t for t, _ in bosses.TACTICS[key]}


def test_gao_mingzhu_strikes_the_weakest_six_times_in_ten():
    """D⑥ 高明珠…六成直取气血最少者."""
    snap = shape(new_game(1), hp=(12, 7, 15))
    rng = Rng.from_int(7)
    plans = [bosses.gao_mingzhu(snap, rng) for _ in range(DRAWS)]
    strikes = [p for p in plans if p.tactic is bosses.Tactic.STRIKE_WEAKEST]
    assert abs(len(strikes) / DRAWS - 0.6) < 0.015
    assert {(p.attack, p.target) for p in strikes} == {(Attack.ASSASSINATE, 1)}
    others = Counter((p.attack, p.target) for p in plans if p.tactic is not bosses.Tactic.STRIKE_WEAKEST)
    assert set(others) == {(Attack.POISON, None), (Attack.FRAME, None)}


def test_shi_lu_goes_up_the_tower_to_frame_four_times_in_ten():
    """D⑥ 石露…四成登摘星楼诬告."""
    snap = new_game(2)
    rng = Rng.from_int(8)
    plans = [bosses.shi_lu(snap, rng) for _ in range(DRAWS)]
    tower = [p for p in plans if p.tower]
    assert abs(len(tower) / DRAWS - 0.4) < 0.015
    assert all(p.attack is Attack.FRAME and p.target is None for p in tower)


def test_spy_poisons_the_group_half_the_time():
    """D⑥ 西域间谍…五成群毒."""
    snap = new_game(3)
    rng = Rng.from_int(9)
    plans = [bosses.xiyu_spy(snap, rng) for _ in range(DRAWS)]
    group = [p for p in plans if p.attack is Attack.POISON and p.target is None]
    assert abs(len(group) / DRAWS - 0.5) < 0.015


def test_mute_maid_strikes_a_random_player_half_the_time_uniformly():
    """D⑥ 石露的哑巴宫女…五成随机直取."""
    snap = shape(new_game(3), hp=(9, 12, 15))
    rng = Rng.from_int(10)
    plans = [bosses.mute_maid(snap, rng) for _ in range(DRAWS)]
    random_strikes = Counter(p.target for p in plans if p.tactic is bosses.Tactic.STRIKE_RANDOM)
    assert abs(sum(random_strikes.values()) / DRAWS - 0.5) < 0.015
    for seat in (0, 1, 2):
        assert abs(random_strikes[seat] / sum(random_strikes.values()) - 1 / 3) < 0.02
    assert all(p.attack is not Attack.FRAME for p in plans)  # she is mute: never 诬告


def test_ties_on_the_criterion_are_broken_at_random():
    """Selectors read the snapshot; players tied on it are equally likely."""
    snap = shape(new_game(1), hp=(8, 8, 15))
    rng = Rng.from_int(11)
    picks = Counter(bosses.least_hp(snap, rng) for _ in range(4000))
    assert set(picks) == {0, 1} and abs(picks[0] / 4000 - 0.5) < 0.03


def test_hit_bonuses_of_each_opponent_are_capped_at_95():
    """D⑥ 高明珠 命中 +10%; 石露 +20%; 西域间谍 下毒命中 +30%; 哑巴宫女 暗杀命中 +30% — under D②'s 95% cap
    (DECISIONS #14: every chance, players' and opponents', is capped at 95%)."""
    s3, s2 = new_game(3), new_game(2)
    gao, spy, mute = s3.opponents
    assert [opponent_chance(gao, a) for a in Attack] == [95, 85, 95]
    assert [opponent_chance(s2.opponents[0], a) for a in Attack] == [95, 95, 95]
    assert [opponent_chance(spy, a) for a in Attack] == [95, 75, 85]
    assert [opponent_chance(mute, a) for a in Attack] == [90, 95, 85]


def test_shi_lu_assassinates_for_four():
    """D⑥ 石露…暗杀杀伤 +1."""
    s = shape(new_game(2), hp=(9, 15, 12), places=(G, T, K))
    t = settle(s, {}, ScriptRng(50, 0, 0))  # 40..74 = 暗杀领头羊; hit
    ev = event(t, "opponent_acted", opponent=0)
    assert (ev.tactic, ev.hits[0].index, ev.hits[0].hp) == ("strike_leader", 1, 40)


def test_shi_lu_defends_twenty_points_against_frame():
    """D⑥ 石露…诬告防守 20%."""
    s = shape(new_game(2), places=(G, T, K))
    t = settle(s, {0: Frame(target=0), 1: Frame(target=0)}, ScriptRng(99, 99, 99, 99))
    assert acted(t, 0).chance == 85 - 20
    assert acted(t, 1).chance == 95 - 20


def test_shi_lu_on_the_tower_frames_everyone_one_harder():
    """D⑥ 石露…四成登摘星楼诬告 — D④ 摘星楼（诬告伤害 +1）, on each victim of her group 诬告."""
    s = shape(new_game(2), grace=(10, 9, 8), places=(G, T, K))
    t = settle(s, {}, ScriptRng(0, 0))
    ev = event(t, "opponent_acted", opponent=0)
    assert ev.tower and [v.grace for v in ev.hits] == [30, 20, 20]


def test_group_attacks_hit_the_top_for_two_and_the_rest_for_one(monkeypatch):
    """DECISIONS #10: Boss group attacks follow the base rule (highest −2, others −1); ties all take −2."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.POISON)
    s = shape(new_game(1), hp=(12, 15, 15), places=(G, T, K))
    t = settle(s, {}, ScriptRng(0))
    assert [v.hp for v in event(t, "opponent_acted", opponent=0).hits] == [10, 20, 20]


def test_group_attacks_reach_only_the_living(monkeypatch):
    """Victims are the snapshot's living players."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.FRAME)
    s = new_game(1)
    s = s.model_copy(update={"players": (s.players[0].model_copy(update={"alive": False, "hp": 0}), *s.players[1:])})
    t = settle(s, {}, ScriptRng(0))
    assert [v.index for v in event(t, "opponent_acted", opponent=0).hits] == [1, 2]


def test_each_opponent_acts_once_per_round():
    """D⑤ 三位各按自身战术出手一次."""
    t = settle(new_game(3), {}, Rng.from_int(3))
    assert sorted(e.opponent for e in t.events if e.kind == "opponent_acted") == [0, 1, 2]


def _scripted_stage_three(monkeypatch):
    for key in ("gao_mingzhu", "xiyu_spy", "mute_maid"):
        force_plan(monkeypatch, key, Attack.POISON)


def test_followers_without_grace_fall_by_hp_only(monkeypatch):
    """DECISIONS #10: 随从 with no 好感 listed have none and fall by 气血 only."""
    _scripted_stage_three(monkeypatch)
    s = shape(new_game(3), opp_hp=(24, 2, 22), places=(K, G, G))
    t = settle(s, {0: Poison(target=1)}, ScriptRng(0, 99, 99, 99))
    spy = t.state.opponents[1]
    assert spy.grace is None and spy.hp == -10 and not spy.alive


def test_a_stage_is_cleared_only_when_every_opponent_is_down(monkeypatch):
    """D⑤ 须将对手尽数放倒方算通关."""
    _scripted_stage_three(monkeypatch)
    s = shape(new_game(3), opp_hp=(2, 23, 22))
    t = settle(s, {0: Assassinate(target=0)}, ScriptRng(0, 99, 99, 99))
    assert not t.state.opponents[0].alive and not t.state.over
    assert acted(t, 0).result is Result.HIT
    fallen = [e for e in t.events if e.kind == "opponent_acted"]
    assert len(fallen) == 3  # the boss acted in the round she fell
    t2 = settle(t.state, {}, Rng.from_int(1))
    assert [e.opponent for e in t2.events if e.kind == "opponent_acted"] == [1, 2]


def test_a_follower_guarding_her_mistress_does_not_attack_or_roll(monkeypatch):
    """D⑥ 五成群毒 / 五成随机直取 — the other half (this project's choice): 护主, no attack."""
    from chalicelib.core.game import Viewer
    
    force_plan(monkeypatch, "gao_mingzhu", Attack.FRAME)
    s = new_game(3)
    rng = ScriptRng(99, 99, 99, default=99)  # gao: (forced) no draw; spy 护主; mute 护主; gao misses
    t = settle(s, {}, rng)
    spy = event(t, "opponent_acted", opponent=1)
    assert (spy.tactic, spy.attack, spy.chance, spy.result, spy.hits) == ("guard", None, None, Result.DONE, ())
    assert rng.calls == [100, 100, 100]  # two tactic draws and 高明珠's roll only
    lines = [ln.text for ln in GAME.report(t.state, t.events, Viewer.spectator())]
    assert "西域间谍护主，按兵不动" in lines


def test_opponents_pay_no_own_costs():
    """Seed table 自身代价 is a player's price: an opponent's bars change only by players' hits."""
    s = new_game(2)
    t = settle(s, {}, ScriptRng(0, 0))  # 石露 登摘星楼诬告, hits
    assert (t.state.opponents[0].hp, t.state.opponents[0].grace) == (350, 300)


def test_the_frame_button_offers_the_chance_the_settlement_will_use():
    """D⑥ 关卡2 · 石露（…诬告防守 20%…）: the chance her 诬告 seal and 石露's card show is the one the
    round is settled with — 诬告防守 off, target by target — while her untargeted `chances` stay before it."""
    s = shape(new_game(2), places=(G, T, K))
    you = GAME.view(s, Viewer.player(0)).you
    frame = next(o for o in you.options if o.type.value == "frame")
    t = settle(s, {0: Frame(target=0)}, ScriptRng(99, 99))
    assert frame.targets == (0,) and frame.chances == (acted(t, 0).chance,) == (85 - 20,)
    assert you.chances[Attack.FRAME] == 85
    poison = next(o for o in you.options if o.type.value == "poison")
    assert poison.chances == (90,) * len(poison.targets)
