"""The actions in D (DECISIONS #10 and the seed's general action table)."""

import pytest

from chalicelib.core.errors import IllegalAction, NotYourTurn
from chalicelib.core.game import Viewer
from chalicelib.games.shengong.actions import Assassinate, Frame, Heal, Idle, Move, Poison, Stay
from chalicelib.games.shengong.check import VOIDED_EFFECT
from chalicelib.games.shengong.terms import Attack, Place, Result

from .helpers import (
    GAME,
    ScriptRng,
    acted,
    blow,
    event,
    force_plan,
    landed,
    new_game,
    quiet,
    rolls,
    settle,
    shape,
)

G, T, K, I, Z = Place.GARDEN, Place.TAVERN, Place.KITCHEN, Place.INFIRMARY, Place.TOWER


def _apart(state, **kw):
    """Players at three different places (no 同宫 sharing), the others idle."""
    return shape(state, places=(G, T, K), **kw)


def test_poison_deals_two_hp_and_costs_half_a_grace():
    """DECISIONS #10 下毒 −2 气血; seed table 下毒 自身代价 好感 −0.5."""
    s = _apart(new_game(1))
    t = settle(s, {0: Poison(target=0)}, rolls(0))
    assert t.state.opponents[0].hp == 220
    assert t.state.players[0].grace == 100 - 5 + 2  # cost, then the round's +0.2
    assert acted(t, 0).result is Result.HIT


def test_assassinate_deals_three_hp_and_costs_half_a_grace():
    """DECISIONS #10 暗杀 −3 气血; seed table 暗杀 自身代价 好感 −0.5."""
    s = _apart(new_game(1))
    t = settle(s, {0: Assassinate(target=0)}, rolls(0))
    assert t.state.opponents[0].hp == 210
    assert t.state.players[0].grace == 97


def test_frame_deals_two_grace_and_costs_one_hp():
    """DECISIONS #10 诬告 −2 好感; seed table 诬告 自身代价 气血 −1."""
    s = _apart(new_game(1), hp=(12, 12, 12))
    t = settle(s, {0: Frame(target=0)}, rolls(0))
    assert t.state.opponents[0].grace == 180 and t.state.opponents[0].hp == 240
    assert t.state.players[0].hp == 110


def test_a_miss_deals_nothing_but_the_cost_is_paid():
    """Seed table 自身代价: paid for the attempt."""
    s = _apart(new_game(1))
    t = settle(s, {0: Poison(target=0)}, rolls(99))
    assert acted(t, 0).result is Result.MISS
    assert t.state.opponents[0].hp == 240 and t.state.players[0].grace == 97


def test_no_target_hits_the_first_living_opponent():
    """D④ 只须在「目标对手」里挑打谁（不选则打存活中的第一个）."""
    s = new_game(3)
    s = s.model_copy(update={"opponents": (s.opponents[0].model_copy(update={"alive": False, "hp": 0}),
                                           *s.opponents[1:])})
    t = settle(s, {0: Poison()}, ScriptRng(99, 99, 99, 99, 0, 99, 99, 99))
    assert acted(t, 0).target == 1


def test_frame_without_target_skips_followers_with_no_grace():
    """DECISIONS #10 随从 with no 好感 listed have none — so 诬告 looks for the first with 好感."""
    s = new_game(3)
    s = s.model_copy(update={"opponents": (s.opponents[0].model_copy(update={"alive": False, "hp": 0}),
                                           *s.opponents[1:])})
    with pytest.raises(IllegalAction) as e:
        GAME.check(s, Viewer.player(0), Frame())
    assert e.value.code == "NO_TARGET"
    with pytest.raises(IllegalAction) as e:
        GAME.check(new_game(3), Viewer.player(0), Frame(target=1))
    assert e.value.code == "NO_GRACE"
    GAME.check(new_game(3), Viewer.player(0), Frame())


def test_attacks_on_a_fallen_or_unknown_opponent_are_refused():
    """D④ 目标对手 must be a living opponent."""
    s = new_game(3)
    s = s.model_copy(update={"opponents": (s.opponents[0].model_copy(update={"alive": False}), *s.opponents[1:])})
    for action, code in ((Poison(target=0), "TARGET_DOWN"), (Assassinate(target=3), "BAD_TARGET")):
        with pytest.raises(IllegalAction) as e:
            GAME.check(s, Viewer.player(0), action)
        assert e.value.code == code


def test_heal_is_one_and_a_half_below_eight_else_point_eight():
    """Seed table 养生：回血 +1.5（气血<8）／+0.8（气血<12）— in D the second tier is 'below her cap'."""
    s = _apart(new_game(1), hp=(7.9, 8, 14))
    t = settle(s, {0: Heal(), 1: Heal(), 2: Heal()}, quiet())
    assert [p.hp for p in t.state.players] == [79 + 15, 80 + 8, 148]


def test_heal_never_exceeds_her_starting_hp():
    """Seed table 气血封顶 — in D the cap is her own starting 气血 (容貌/10 + 10)."""
    s = _apart(new_game(1), hp=(14.9, 15, 15))
    t = settle(s, {0: Heal(), 1: Heal()}, quiet())
    assert [p.hp for p in t.state.players][:2] == [150, 150]


def test_consecutive_heals_lose_point_three_each_down_to_point_two():
    """Seed table 连养每轮递减 0.3（下限 +0.2）."""
    s = _apart(new_game(1), hp=(5, 10, 10))
    got = []
    for _ in range(6):
        t = settle(s, {0: Heal()}, quiet())
        got.append(acted(t, 0).own_hp)
        s = t.state.model_copy(update={"players": (t.state.players[0].model_copy(update={"hp": 50}),
                                                   *t.state.players[1:])})
    assert got == [15, 12, 9, 6, 3, 2]
    t = settle(s, {0: Idle()}, quiet())
    t = settle(t.state, {0: Heal()}, quiet())
    assert acted(t, 0).own_hp == 15  # the streak broke


def test_idle_gives_half_a_point_of_each_and_a_tenth_to_teammates_at_her_place():
    """Seed table 待机：自身 +0.5 气血 +0.5 好感，同宫者各 +0.1."""
    s = shape(new_game(1), hp=(10, 10, 10), grace=(5, 5, 5), places=(T, T, K))
    t = settle(s, {0: Idle(), 1: Heal(), 2: Heal()}, quiet())
    p0, p1, p2 = t.state.players
    assert (p0.hp, p0.grace) == (105, 57)
    assert (p1.hp, p1.grace) == (100 + 8 + 1, 50 + 2 + 1)
    assert (p2.hp, p2.grace) == (108, 52)


def test_idle_takes_one_off_the_round_hp_damage(monkeypatch):
    """Seed table 待机：本回合受到的气血伤害 −1."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    s = _apart(new_game(1), hp=(10, 10, 10))
    t = settle(s, {0: Idle(), 1: Idle(), 2: Idle()}, ScriptRng(0))
    assert t.state.players[0].hp == 100 - 30 + 10 + 5 + 3  # −3 +1 guard, +0.5 +0.3 (garden)
    assert landed(t, 0).absorbed == 10


def test_a_seat_that_does_not_submit_stands_by():
    """Seed: 未落子按待机处理."""
    s = _apart(new_game(1), hp=(10, 10, 10))
    t = settle(s, {}, quiet())
    assert all(e.action == "idle" and e.defaulted for e in t.events if e.kind == "acted")
    assert t.state.players[0].hp == 108


def test_move_arrives_next_round_and_this_round_uses_the_old_place():
    """Seed table 移动：本轮计划、下轮抵达."""
    s = shape(new_game(1), places=(G, G, G))
    t = settle(s, {0: Move(place=K)}, quiet())
    assert acted(t, 0).place is G
    assert t.state.players[0].place is K
    t2 = settle(t.state, {0: Poison(target=0)}, rolls(0))
    assert blow(t2, 0) == 30  # the 御膳房 bonus from the next round on


def test_a_move_this_round_does_not_use_the_destination_bonus():
    """Seed table 移动：本轮计划、下轮抵达 — no attack in the round she moves, and 待机 shares go by the old place."""
    s = shape(new_game(1), hp=(10, 10, 10), places=(G, G, T))
    t = settle(s, {0: Move(place=T), 1: Idle(), 2: Heal()}, quiet())
    assert t.state.players[0].hp == 101  # 同宫 +0.1 from seat 1 at 御花园, where seat 0 still was
    assert t.state.players[2].hp == 108


def test_moving_to_where_she_stands_is_refused():
    """Seed table 移动…可「继续驻留」不来回弹 — staying is 继续驻留, not a 移动 to where she stands."""
    with pytest.raises(IllegalAction) as e:
        GAME.check(new_game(1), Viewer.player(0), Move(place=G))
    assert e.value.code == "ALREADY_THERE"
    t = settle(new_game(1), {0: Stay()}, quiet())
    assert acted(t, 0).result is Result.DONE and t.state.players[0].place is G


def test_grace_regenerates_point_two_a_round_and_is_capped_at_ten():
    """Seed: 每轮自然回复好感 +0.2 — capped at her starting 10 in D."""
    s = _apart(new_game(1), grace=(9.9, 5, 10))
    t = settle(s, {0: Heal(), 1: Heal(), 2: Heal()}, quiet())
    assert [p.grace for p in t.state.players] == [100, 52, 100]


def test_a_player_at_zero_grace_or_hp_is_down_and_cannot_move_again():
    """DECISIONS #10 (players): 气血 ≤ 0 or 好感 ≤ 0 is down."""
    s = _apart(new_game(1), grace=(0.3, 10, 10))
    t = settle(s, {0: Poison(target=0)}, rolls(0))
    assert t.state.players[0].grace == 0 and not t.state.players[0].alive
    assert 0 not in GAME.pending(t.state).seats
    with pytest.raises(NotYourTurn) as e:
        GAME.check(t.state, Viewer.player(0), Idle())
    assert e.value.code == "ELIMINATED"


def test_an_opponents_assassinate_voids_the_players_next_move(monkeypatch):
    """DECISIONS #12: a boss or 随从 who 暗杀s a player voids that player's next action, as the seed's
    table says (暗杀 … 并令其下回合行动作废)."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    s = _apart(new_game(1))
    t = settle(s, {0: Poison(target=0)}, ScriptRng(99, 0))  # she misses, 高明珠 hits her
    assert t.state.players[0].voided and not t.state.players[1].voided
    with pytest.raises(IllegalAction) as e:
        GAME.check(t.state, Viewer.player(0), Poison(target=0))
    assert e.value.code == "ACTION_VOIDED"
    GAME.check(t.state, Viewer.player(0), Idle())
    t2 = settle(t.state, {0: Idle()}, ScriptRng(99, 99))
    assert acted(t2, 0).result is Result.VOIDED and acted(t2, 0).own_hp == 0  # no 待机 bonus
    assert not t2.state.players[0].voided


def test_a_voided_player_is_not_waited_for_and_her_move_is_the_void(monkeypatch):
    """DECISIONS #12: "a boss or 随从 who 暗杀s a player voids that player's next action"; seed 暗杀:
    「并令其下回合行动作废」. Decision (宫斗杀): the round does not wait for her — her one possible move is
    the void, so she presses nothing; the settlement gives her the void exactly as a sealed 待机 did
    (no bonus), and her screen is told why, with 「无加成」 as her 待机's effect."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    s = _apart(new_game(1))
    t = settle(s, {0: Poison(target=0)}, ScriptRng(99, 0))
    assert t.state.players[0].voided
    pending = GAME.pending(t.state)
    assert 0 not in pending.seats and pending.seats == frozenset({1, 2})
    you = GAME.view(t.state, Viewer.player(0)).you
    assert you.voided_reason == "你本回合的行动已被暗杀作废，只能待机（无加成）：本回合不必落子，自动待机"
    idle = next(o for o in you.options if o.type == "idle")
    assert idle.allowed and idle.effect == VOIDED_EFFECT and "＋" not in idle.effect
    assert all(o.effect == "" for o in you.options if o.type != "idle")
    with pytest.raises(IllegalAction):  # she seals nothing, so no discard rides on it either
        GAME.check(t.state, Viewer.player(0), Idle(cards={"discard": ["xunyi#1"]}))
    unsent = settle(t.state, {}, ScriptRng(99, 99))
    sealed = settle(t.state, {0: Idle()}, ScriptRng(99, 99))  # as it was when she had to press 待机
    assert acted(unsent, 0).result is Result.VOIDED and acted(unsent, 0).own_hp == 0
    assert unsent.state.players[0].hp == sealed.state.players[0].hp
    assert unsent.state.players[0].grace == sealed.state.players[0].grace
    assert not unsent.state.players[0].voided and 0 in GAME.pending(unsent.state).seats


def test_a_players_assassinate_does_not_void_the_opponents_next_action(monkeypatch):
    """DECISIONS #12: a player's 暗杀 on a boss or 随从 does not void the opponent's next action
    (opponents' tactics are the stage design; three players must not be able to lock a boss)."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.POISON)
    s = _apart(new_game(1))
    t = settle(s, {0: Assassinate(target=0)}, ScriptRng(0, 99))
    assert t.state.opponents[0].hp == 210
    t2 = settle(t.state, {}, ScriptRng(0))
    assert event(t2, "opponent_acted", opponent=0).result is Result.HIT


def test_no_entry_thresholds_and_no_abc_place_passives_in_d():
    """D④ 地点精简 — each place has exactly its one listed bonus: no 准入 (御膳房 好感≥6, 摘星楼 气血≥6)
    and no A/B/C passives (御膳房 −1 好感, 摘星楼 诬告 −2 气血)."""
    s = shape(new_game(1), hp=(3, 15, 15), grace=(2, 10, 10), places=(G, K, Z))
    GAME.check(s, Viewer.player(0), Move(place=K))
    GAME.check(s, Viewer.player(0), Move(place=Z))
    t = settle(s, {0: Move(place=K), 1: Idle(), 2: Frame(target=0)}, rolls(99))
    assert t.state.players[1].grace == 100 and t.state.players[1].hp == 150
    assert t.state.players[2].hp == 140  # only the 诬告 cost of −1
