"""The seed's 「行动」 table, row by row (下毒, 暗杀, 诬告, 送膳, 养生, 待机; 移动 in test_places.py)."""

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.formulas import heal_amount
from chalicelib.games.shengong.game import GAME_A
from chalicelib.games.shengong.resolve import draw_decree
from chalicelib.games.shengong.terms import Result

from .helpers import Script, act, action_of, board, landed_on, run, seat, t


def _check(state, s, **order):
    GAME_A.check(state, Viewer.player(s), act(**order))


# ---- 下毒 -----------------------------------------------------------------------------------------

def test_poison_hits_highest_two_others_one_and_costs_half_grace():
    """| 下毒 | 六处 + 御膳房 | 90% | 好感 −0.5 | 目标地所有人受伤：气血最高者 −2，其余各 −1（波及衰减）"""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=10), seat(2, "景仁宫", hp=8))
    new, ev = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="stay")})
    assert action_of(ev, 0).result is Result.HIT
    assert (new.players[1].hp, new.players[2].hp) == (t(8), t(7))
    assert new.players[0].grace == t(5 - 0.5 + 0.2)


def test_poison_hits_ninety_percent():
    """| 下毒 | … | 90% |: a roll below 90 (of 0..99) hits, 90 and above miss."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"))
    _, ev = run(s, {0: dict(type="poison", place="景仁宫")}, Script(rolls=[89]))
    assert action_of(ev, 0).result is Result.HIT
    new, ev = run(s, {0: dict(type="poison", place="景仁宫")}, Script(rolls=[90]))
    assert action_of(ev, 0).result is Result.MISS
    assert new.players[0].grace == t(5 - 0.5 + 0.2), "the cost is paid on a miss too"


def test_poison_tied_highest_all_take_two():
    """气血最高者 −2: every victim tied at the top takes −2 (no one is picked over another)."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=9), seat(2, "景仁宫", hp=9), seat(3, "景仁宫", hp=5))
    new, _ = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="stay"),
                     3: dict(type="stay")})
    assert [p.hp for p in new.players[1:4]] == [t(7), t(7), t(4)]


def test_poison_halved_on_a_healing_victim():
    """正在养生者伤害减半."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=10), seat(2, "景仁宫", hp=9))
    new, ev = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="heal"), 2: dict(type="stay")})
    assert new.players[1].hp == t(10 - 1 + 0.8)
    assert new.players[2].hp == t(9 - 1)
    assert landed_on(action_of(ev, 0)) == {1: (t(1), 0), 2: (t(1), 0)}


def test_poison_never_hurts_the_poisoner_and_empty_place_is_no_target():
    """目标地所有人受伤: everyone there but the poisoner herself; nobody else there = NO_TARGET."""
    s = board(seat(0, "景仁宫"), seat(1, "承乾宫"))
    new, ev = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="stay")})
    assert action_of(ev, 0).result is Result.NO_TARGET
    assert new.players[0].hp == t(10)


@pytest.mark.parametrize("kind", ["poison", "assassinate"])
def test_poison_and_assassinate_targets_are_six_places_and_kitchen(kind):
    """| 下毒 | 六处 + 御膳房 | … | 暗杀 | 六处 + 御膳房 |"""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"))
    for place in ("景仁宫", "承乾宫", "钟粹宫", "延禧宫", "永寿宫", "长春宫", "御膳房"):
        _check(s, 0, type=kind, place=place)
    for place in ("摘星楼", "乾清宫"):
        with pytest.raises(IllegalAction) as e:
            _check(s, 0, type=kind, place=place)
        assert e.value.code == "BAD_TARGET"


# ---- 暗杀 -----------------------------------------------------------------------------------------

def test_assassinate_hits_only_the_highest_for_three_and_voids_next_action():
    """| 暗杀 | 六处 + 御膳房 | 75% | 好感 −0.5 | 只杀目标地气血最高 1 人 −3 … 并令其下回合行动作废"""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=10), seat(2, "景仁宫", hp=9))
    new, ev = run(s, {0: dict(type="assassinate", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="stay")})
    assert (new.players[1].hp, new.players[2].hp) == (t(7), t(9))
    assert new.players[1].voided and not new.players[2].voided
    assert new.players[0].grace == t(5 - 0.5 + 0.2)
    assert action_of(ev, 0).hits[0].index == 1


def test_assassinate_hits_seventy_five_percent():
    """| 暗杀 | … | 75% |"""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"))
    _, ev = run(s, {0: dict(type="assassinate", place="景仁宫")}, Script(rolls=[74]))
    assert action_of(ev, 0).result is Result.HIT
    new, ev = run(s, {0: dict(type="assassinate", place="景仁宫")}, Script(rolls=[75]))
    assert action_of(ev, 0).result is Result.MISS and not new.players[1].voided


def test_assassinate_tie_for_highest_is_random():
    """只杀目标地气血最高 1 人: a tie at the top is broken by the seeded generator."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=9), seat(2, "景仁宫", hp=9))
    moves = {0: dict(type="assassinate", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="stay")}
    first, _ = run(s, moves, Script(picks=[0]))
    second, _ = run(s, moves, Script(picks=[1]))
    assert (first.players[1].hp, first.players[2].hp) == (t(6), t(9))
    assert (second.players[1].hp, second.players[2].hp) == (t(9), t(6))


def test_assassinate_on_a_healing_target_deals_one_and_still_voids():
    """可穿透养生（仅 −1）— DECISIONS #6: on a 养生 target only −1, and the next action is still voided."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=10))
    new, _ = run(s, {0: dict(type="assassinate", place="景仁宫"), 1: dict(type="heal")})
    assert new.players[1].hp == t(10 - 1 + 0.8)
    assert new.players[1].voided


def test_voided_seat_may_only_idle_and_gets_no_bonuses():
    """并令其下回合行动作废: the voided seat may seal only 待机, which resolves as VOID without bonuses."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", voided=True))
    with pytest.raises(IllegalAction) as e:
        _check(s, 1, type="poison", place="承乾宫")
    assert e.value.code == "ACTION_VOIDED"
    _check(s, 1, type="idle")
    new, ev = run(s, {0: dict(type="stay"), 1: dict(type="idle")})
    assert action_of(ev, 1).result is Result.VOIDED
    assert (new.players[1].hp, new.players[1].grace) == (t(10), t(5.2))
    assert not new.players[1].voided


# ---- 诬告 -----------------------------------------------------------------------------------------

def test_frame_hits_highest_grace_two_others_one_and_costs_one_hp():
    """| 诬告 | 六处 + 摘星楼 | 85% | 气血 −1 | 目标地所有人好感：最高者 −2，其余各 −1"""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", grace=6), seat(2, "景仁宫", grace=5))
    new, ev = run(s, {0: dict(type="frame", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="stay")})
    assert (new.players[1].grace, new.players[2].grace) == (t(4.2), t(4.2))
    assert new.players[0].hp == t(9)
    assert landed_on(action_of(ev, 0)) == {1: (0, t(2)), 2: (0, t(1))}


def test_frame_hits_eighty_five_percent():
    """| 诬告 | … | 85% |"""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"))
    _, ev = run(s, {0: dict(type="frame", place="景仁宫")}, Script(rolls=[84]))
    assert action_of(ev, 0).result is Result.HIT
    new, ev = run(s, {0: dict(type="frame", place="景仁宫")}, Script(rolls=[85]))
    assert action_of(ev, 0).result is Result.MISS and new.players[0].hp == t(9)


def test_frame_targets_are_six_places_and_tower():
    """| 诬告 | 六处 + 摘星楼 |"""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"))
    for place in ("景仁宫", "承乾宫", "钟粹宫", "延禧宫", "永寿宫", "长春宫", "摘星楼"):
        _check(s, 0, type="frame", place=place)
    for place in ("御膳房", "乾清宫"):
        with pytest.raises(IllegalAction) as e:
            _check(s, 0, type="frame", place=place)
        assert e.value.code == "BAD_TARGET"


def test_frame_zeroing_grace_is_the_framers_kill():
    """被诬告致好感归零者，计入你的击败."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", grace=1.5), seat(2, "延禧宫"))
    new, ev = run(s, {0: dict(type="frame", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="stay")})
    assert not new.players[1].alive
    assert new.players[0].stats.kills == 1
    out = next(e for e in ev if e.kind == "fell")
    assert (out.index, out.cause, out.killers) == (1, "grace", (0,))


# ---- 送膳 and 圣意 ----------------------------------------------------------------------------------

def test_meal_tops_of_each_decree_dimension_gain_one_grace():
    """| 送膳 | 乾清宫 | … 每轮圣意随机 2 维（容/宠/才/权），各维居首者 +1 好感"""
    s = board(seat(0, "乾清宫", looks=80, favor=10), seat(1, "乾清宫", looks=20, favor=60),
              seat(2, "乾清宫", looks=10, favor=10), decree=("looks", "favor"))
    new, ev = run(s, {0: dict(type="meal"), 1: dict(type="meal"), 2: dict(type="meal")})
    assert (new.players[0].grace, new.players[1].grace) == (t(6.2), t(6.2))
    assert action_of(ev, 0).won == ("looks",) and action_of(ev, 1).won == ("favor",)
    decree = next(e for e in ev if e.kind == "decree")
    assert decree.winners == (0, 1)


def test_meal_topping_both_dimensions_gains_two():
    """各维居首者 +1 好感: one consort may top both dimensions."""
    s = board(seat(0, "乾清宫", looks=80, favor=80), seat(1, "乾清宫", looks=20, favor=20))
    new, _ = run(s, {0: dict(type="meal"), 1: dict(type="meal")})
    assert new.players[0].grace == t(5 + 2 + 0.2)


def test_meal_that_tops_nothing_is_empty_and_costs_one_hp():
    """| 送膳 | … | 落空 −1 气血 |: 落空 = served at 乾清宫 but topped neither dimension."""
    s = board(seat(0, "乾清宫", looks=80, favor=80), seat(1, "乾清宫", looks=20, favor=20))
    new, ev = run(s, {0: dict(type="meal"), 1: dict(type="meal")})
    assert action_of(ev, 1).result is Result.EMPTY
    assert (new.players[1].hp, new.players[1].grace) == (t(9), t(5.2))


def test_meal_from_outside_the_hall_is_a_breach_of_etiquette():
    """须身处乾清宫（不在而送＝失仪 −1 好感）."""
    s = board(seat(0, "景仁宫"), seat(1, "承乾宫"))
    new, ev = run(s, {0: dict(type="meal"), 1: dict(type="stay")})
    assert action_of(ev, 0).result is Result.FAILED
    assert (new.players[0].hp, new.players[0].grace) == (t(10), t(4.2))


def test_meal_ties_are_broken_at_random():
    """各维居首者 +1 好感，并列随机取."""
    s = board(seat(0, "乾清宫", looks=50, talent=10), seat(1, "乾清宫", looks=50, talent=10),
              seat(2, "乾清宫", looks=10, talent=90), decree=("looks", "talent"))
    moves = {0: dict(type="meal"), 1: dict(type="meal"), 2: dict(type="meal")}
    a, _ = run(s, moves, Script(picks=[0]))
    b, _ = run(s, moves, Script(picks=[1]))
    assert (a.players[0].grace, a.players[1].grace) == (t(6.2), t(5.2))
    assert (b.players[0].grace, b.players[1].grace) == (t(5.2), t(6.2))


def test_decree_is_two_distinct_dimensions_drawn_at_random():
    """每轮圣意随机 2 维（容/宠/才/权）."""
    seen = set()
    for step in range(200):
        d = draw_decree(Rng.from_int(5, step))
        assert len(d) == 2 and len(set(d)) == 2 and set(d) <= {"looks", "favor", "talent", "power"}
        seen.add(d)
    assert len(seen) == 6


def test_decree_changes_every_round_and_is_drawn_for_the_next_round():
    """每轮圣意随机: settling a round draws the next round's 圣意 (shown when that round opens)."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"))
    new, ev = run(s, {}, Rng.from_int(3, 1))
    nxt = next(e for e in ev if e.kind == "round")
    assert new.decree == nxt.next_decree and len(new.decree) == 2


# ---- 养生 -----------------------------------------------------------------------------------------

def test_heal_is_one_and_a_half_below_eight_and_point_eight_below_twelve():
    """| 养生 | 无 | — | 无 | 回血 +1.5（气血<8）／+0.8（气血<12）"""
    s = board(seat(0, "承乾宫", hp=7.9), seat(1, "景仁宫", hp=8), seat(2, "延禧宫", hp=12))
    new, _ = run(s, {0: dict(type="heal"), 1: dict(type="heal"), 2: dict(type="heal")})
    assert [p.hp for p in new.players[:3]] == [t(9.4), t(8.8), t(12)]


def test_heal_decays_point_three_each_consecutive_round_down_to_point_two():
    """连养每轮递减 0.3（下限 +0.2）."""
    s = board(seat(0, "承乾宫", hp=1), seat(1, "景仁宫"))
    gains = []
    for _ in range(7):
        before = s.players[0].hp
        s, _ = run(s, {0: dict(type="heal"), 1: dict(type="stay")})
        gains.append(s.players[0].hp - before)
    assert gains == [15, 12, 9, 6, 3, 2, 2]
    assert [heal_amount(t(9), t(12), k) for k in range(4)] == [8, 5, 2, 2]


def test_heal_streak_resets_after_another_action():
    """连养: only consecutive 养生 decays; any other order resets it."""
    s = board(seat(0, "承乾宫", hp=1), seat(1, "景仁宫"))
    for kind in ("heal", "heal", "stay", "heal"):
        before = s.players[0].hp
        s, _ = run(s, {0: dict(type=kind), 1: dict(type="stay")})
    assert s.players[0].hp - before == 15


def test_hp_is_capped_at_twelve():
    """气血封顶 12."""
    s = board(seat(0, "承乾宫", hp=11.5), seat(1, "景仁宫", hp=11.8))
    new, _ = run(s, {0: dict(type="heal"), 1: dict(type="idle")})
    assert (new.players[0].hp, new.players[1].hp) == (t(12), t(12))


# ---- 待机 -----------------------------------------------------------------------------------------

def test_idle_gains_half_and_half_and_neighbours_a_tenth():
    """| 待机 | 无 | — | 无 | 自身 +0.5 气血 +0.5 好感，同宫者各 +0.1"""
    s = board(seat(0, "景仁宫"), seat(1, "景仁宫"), seat(2, "承乾宫"))
    new, _ = run(s, {0: dict(type="idle"), 1: dict(type="stay"), 2: dict(type="stay")})
    p0, p1, p2 = new.players[:3]
    assert (p0.hp, p0.grace) == (t(10.5), t(5.7))
    assert (p1.hp, p1.grace) == (t(10.1), t(5.3))
    assert (p2.hp, p2.grace) == (t(10), t(5.2))


def test_idle_reduces_this_rounds_hp_damage_by_one():
    """待机 … 且本回合受到的气血伤害 −1 (once per round, on the total)."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"), seat(2, "延禧宫"))
    one, _ = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="idle"), 2: dict(type="stay")})
    assert one.players[1].hp == t(10 - 2 + 1 + 0.5)
    two, _ = run(s, {0: dict(type="poison", place="景仁宫"), 2: dict(type="poison", place="景仁宫"),
                     1: dict(type="idle")})
    assert two.players[1].hp == t(10 - 4 + 1 + 0.5)


def test_missing_order_is_idle():
    """有人迟迟不动…（未落子按待机处理）."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"))
    new, ev = run(s, {0: dict(type="stay")})
    assert action_of(ev, 1).defaulted and action_of(ev, 1).action == "idle"
    assert (new.players[1].hp, new.players[1].grace) == (t(10.5), t(5.7))


def test_grace_regenerates_point_two_each_round():
    """每轮自然回复好感 +0.2."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"))
    new, _ = run(s, {0: dict(type="stay"), 1: dict(type="stay")})
    assert (new.players[0].grace, new.players[1].grace) == (t(5.2), t(5.2))


def test_idle_neighbour_bonus_stacks_per_idler():
    """同宫者各 +0.1: each 待机 at her place gives her +0.1 气血 and +0.1 好感."""
    s = board(seat(0, "景仁宫"), seat(1, "景仁宫"), seat(2, "景仁宫"))
    new, _ = run(s, {0: dict(type="idle"), 1: dict(type="idle"), 2: dict(type="stay")})
    assert (new.players[2].hp, new.players[2].grace) == (t(10.2), t(5.4))
    assert (new.players[0].hp, new.players[0].grace) == (t(10.6), t(5.8))


def test_order_failing_the_rules_at_settlement_is_idle():
    """A sealed order that no longer passes `check` when the round settles counts as 待机 (defaulted)."""
    s = board(seat(0, "承乾宫", grace=5.5), seat(1, "景仁宫"))
    new, ev = run(s, {0: dict(type="move", place="御膳房"), 1: dict(type="stay")})
    assert action_of(ev, 0).defaulted and action_of(ev, 0).action == "idle"
    assert action_of(ev, 0).refused == "ENTRY_THRESHOLD"
    assert new.players[0].place == "承乾宫"


def test_a_voided_seat_is_still_waited_for_in_the_palace_and_told_her_idle_earns_nothing():
    """Seed 暗杀: 「并令其下回合行动作废」; DECISIONS 深宫杀 #6: 「the target's next action is still voided」.
    Decision (A/B/C, unlike 宫斗杀): the round still waits for a voided seat — the seats a round waits for
    are public, and in a free-for-all whom a 暗杀 hit is hers to know (`test_voided_flag_is_private`); in
    C she may still discard. What her one move does is said as the void, not as 待机's bonuses."""
    from chalicelib.games.shengong.check import VOIDED_EFFECT
    from chalicelib.games.shengong.game import GAME_B, GAME_C
    from chalicelib.games.shengong.terms import ModeKey

    for game, mode in ((GAME_A, ModeKey.A), (GAME_B, ModeKey.B), (GAME_C, ModeKey.C)):
        s = board(seat(0, "承乾宫"), seat(1, "景仁宫", voided=True), mode=mode)
        assert game.pending(s).seats == frozenset({0, 1}), mode
        idle = next(o for o in game.view(s, Viewer.player(1)).you.options if o.type == "idle")
        assert idle.allowed and idle.effect == VOIDED_EFFECT, mode
        normal = next(o for o in game.view(s, Viewer.player(0)).you.options if o.type == "idle")
        assert normal.effect != VOIDED_EFFECT and "0.5" in normal.effect, mode
