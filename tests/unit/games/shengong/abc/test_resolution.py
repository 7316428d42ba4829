"""Simultaneous resolution, kill credit (DECISIONS #7), elimination and placement (#3, #5), score (#8)."""

import pytest

from chalicelib.games.shengong.events import Ended, Fell
from chalicelib.games.shengong.ledger import Via, split_net
from chalicelib.games.shengong.modes import MODES
from chalicelib.games.shengong.scoring import outcome, palace_score
from chalicelib.games.shengong.state import Stats
from chalicelib.games.shengong.terms import ModeKey, Side

from .helpers import board, run, seat, t


def _out(ev):
    return {e.index: e for e in ev if isinstance(e, Fell)}


def _src(seat_no):
    return ((Side.PLAYER, seat_no), Via.ACTION)


# ---- 同时结算 --------------------------------------------------------------------------------------

def test_no_first_mover_both_strike_and_both_fall():
    """同时结算 … 不存在「先下手把人砍了、对方这轮白打」的先手压制."""
    s = board(seat(0, "景仁宫", hp=1.5), seat(1, "承乾宫", hp=1.5), seat(2, "延禧宫"))
    new, ev = run(s, {0: dict(type="poison", place="承乾宫"), 1: dict(type="poison", place="景仁宫"),
                      2: dict(type="stay")})
    out = _out(ev)
    assert set(out) == {0, 1}
    assert out[0].killers == (1,) and out[1].killers == (0,)
    assert new.players[0].stats.kills == new.players[1].stats.kills == 1
    assert new.over and new.reason == "last_standing" and new.players[2].placement == 1
    assert new.players[0].placement == new.players[1].placement == 2, "equal in every tiebreak: shared"


def test_victims_and_heal_immunity_are_judged_on_the_snapshot():
    """命中、受害者、养生免疫一律按快照判定: the highest is the highest at the start of the round,
    even if healing this round would change who is highest."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=9), seat(2, "景仁宫", hp=9.5))
    new, _ = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="heal"), 2: dict(type="stay")})
    assert new.players[2].hp == t(9.5 - 2)
    assert new.players[1].hp == t(9 - 0.5 + 0.8)


def test_damage_and_healing_land_together():
    """伤害与治疗最后一次性落账: at 1.0 气血 she rests through a poison (−2 halved to −1, +1.5 heal):
    the sum lands at once, so she ends at 1.5 instead of falling first."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=1))
    new, _ = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="heal")})
    assert new.players[1].alive and new.players[1].hp == t(1.5)


def test_net_damage_is_shared_among_sources_in_proportion():
    """Reductions come off the total and the rest is shared among sources (exact in tenths)."""
    a, b = _src(0), _src(1)
    assert split_net({a: 20, b: 10}, 20) == {a: 13, b: 7}
    assert split_net({a: 10, b: 10}, 5) == {a: 3, b: 2}
    assert split_net({a: 10}, -3) == {a: 0}


# ---- 击败 -----------------------------------------------------------------------------------------

def test_kill_credit_single_attacker():
    """DECISIONS #7: the attacker whose hit this round took the victim to ≤ 0."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=1.5), seat(2, "延禧宫"))
    new, ev = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="stay")})
    assert _out(ev)[1].killers == (0,) and _out(ev)[1].cause == "hp"
    assert new.players[0].stats.kills == 1


def test_kill_credit_shared_goes_to_who_dealt_most():
    """DECISIONS #7: if several hits did it together, the one that dealt the most this round."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=2.5), seat(2, "延禧宫"), seat(3, "永寿宫"))
    new, ev = run(s, {0: dict(type="assassinate", place="景仁宫"), 2: dict(type="poison", place="景仁宫"),
                      1: dict(type="stay"), 3: dict(type="stay")})
    assert _out(ev)[1].killers == (0,)
    assert (new.players[0].stats.kills, new.players[2].stats.kills) == (1, 0)


def test_kill_credit_tie_credits_each():
    """DECISIONS #7: ties credit each of them."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=3), seat(2, "延禧宫"), seat(3, "永寿宫"))
    new, ev = run(s, {0: dict(type="poison", place="景仁宫"), 2: dict(type="poison", place="景仁宫"),
                      1: dict(type="stay"), 3: dict(type="stay")})
    assert _out(ev)[1].killers == (0, 2)
    assert (new.players[0].stats.kills, new.players[2].stats.kills) == (1, 1)


def test_kill_credit_ties_survive_the_guard_shared_out_in_tenths():
    """DECISIONS #7: ties credit each of them — also when her 待机 guard (−1) is shared out among three
    equal blows in whole tenths (1.7 / 1.7 / 1.6 land): the leftover tenth decides no kill."""
    s = board(seat(0, "承乾宫"), seat(1, "延禧宫"), seat(2, "钟粹宫"), seat(3, "景仁宫", hp=4.5))
    new, ev = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="poison", place="景仁宫"),
                      2: dict(type="poison", place="景仁宫"), 3: dict(type="idle")})
    assert [new.players[i].stats.hp_damage for i in range(3)] == [17, 17, 16]
    assert _out(ev)[3].killers == (0, 1, 2)
    assert [new.players[i].stats.kills for i in range(3)] == [1, 1, 1]


def test_self_inflicted_fall_credits_nobody():
    """DECISIONS #7: credit needs a hit; her own 下毒 cost taking 好感 to 0 is nobody's kill."""
    s = board(seat(0, "承乾宫", grace=0.3), seat(1, "景仁宫"), seat(2, "延禧宫"))
    new, ev = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="stay")})
    assert _out(ev)[0].killers == () and _out(ev)[0].cause == "grace"
    assert new.players[1].stats.kills == 0


# ---- 出局与名次 -------------------------------------------------------------------------------------

def test_out_at_zero_hp_or_zero_grace():
    """DECISIONS #5: A player is eliminated at 气血 ≤ 0 or 好感 ≤ 0."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=2), seat(2, "延禧宫", grace=1.8), seat(3, "永寿宫"))
    new, _ = run(s, {0: dict(type="poison", place="景仁宫"), 3: dict(type="frame", place="延禧宫"),
                      1: dict(type="stay"), 2: dict(type="stay")})
    assert new.players[1].hp == 0 and not new.players[1].alive, "exactly 0 is out"
    assert new.players[2].grace == 0 and not new.players[2].alive
    assert new.players[1].out_round == 1


def test_later_elimination_ranks_higher():
    """DECISIONS #3: Placement: later elimination ranks higher."""
    s = board(seat(0, "承乾宫"), seat(1, "延禧宫"), seat(2, "景仁宫", hp=5), seat(3, "永寿宫", hp=1))
    s, _ = run(s, {0: dict(type="poison", place="永寿宫"), 1: dict(type="stay"), 2: dict(type="stay"),
                   3: dict(type="stay")})
    assert s.players[3].placement == 4
    s, _ = run(s, {0: dict(type="assassinate", place="景仁宫"), 1: dict(type="assassinate", place="景仁宫"),
                   2: dict(type="stay")})
    assert s.players[2].placement == 3 and not s.over


def test_same_round_falls_rank_by_hp_then_grace():
    """DECISIONS #3 (same round): by 气血, then 好感, then fewer damage taken."""
    s = board(seat(0, "承乾宫"), seat(1, "延禧宫"), seat(2, "景仁宫", hp=1.5), seat(3, "景仁宫", hp=1),
              seat(4, "永寿宫"), seat(5, "长春宫", hp=1.5, grace=6), seat(6, "长春宫", hp=1.5))
    _, ev = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="poison", place="长春宫"),
                      2: dict(type="stay"), 3: dict(type="stay"), 4: dict(type="stay"), 5: dict(type="stay"),
                      6: dict(type="stay")})
    # 景仁宫: 2 is highest (−2 → −0.5), 3 takes −1 (→ 0.0); 长春宫: 5 and 6 tie at the top (−2 → −0.5
    # each), 5 has more 好感; 2 and 6 are equal on 气血, 好感 and 承伤, so they share 6th.
    places = {s_: e.placement for s_, e in _out(ev).items()}
    assert places == {3: 4, 5: 5, 2: 6, 6: 6}


def test_survivors_at_the_limit_rank_by_hp_then_grace_then_damage_taken():
    """DECISIONS #3: survivors at the limit rank by HP, then 好感, then fewer damage taken."""
    s = board(seat(0, "承乾宫", hp=10, grace=5), seat(1, "延禧宫", hp=10, grace=6),
              seat(2, "景仁宫", hp=9, grace=5, stats=Stats(taken=t(3))),
              seat(3, "永寿宫", hp=9, grace=5, stats=Stats(taken=t(1))), round=20)
    new, ev = run(s, {i: dict(type="stay") for i in range(4)})
    assert new.over and new.reason == "limit"
    assert [p.placement for p in new.players[:4]] == [2, 1, 4, 3]
    end = next(e for e in ev if isinstance(e, Ended))
    assert end.placements[:4] == (2, 1, 4, 3)


def test_last_one_standing_wins_and_ends_the_game():
    """只剩 1 人…终局 (DECISIONS #3: the game ends when one is left)."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=1.5))
    new, ev = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="stay")})
    assert new.over and new.reason == "last_standing"
    assert (new.players[0].placement, new.players[1].placement) == (1, 2)
    assert isinstance(ev[-1], Ended)


def test_nobody_left_the_best_of_the_last_to_fall_wins():
    """Decision: if the last players all fall in the same round, they rank among themselves by 气血,
    好感, fewer damage taken; the best is first and wins (reason last_standing)."""
    s = board(seat(0, "景仁宫", hp=1.5), seat(1, "承乾宫", hp=1))
    new, _ = run(s, {0: dict(type="poison", place="承乾宫"), 1: dict(type="poison", place="景仁宫")})
    assert new.over and new.reason == "last_standing"
    assert (new.players[0].placement, new.players[1].placement) == (1, 2)
    res = outcome(MODES[ModeKey.A], new).results
    assert res[0].won and not res[1].won


def test_round_limit_is_twenty():
    """终局规则固定（剩 1 人即止，或打满 20 回合）— DECISIONS #2."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"), round=19)
    s, _ = run(s, {})
    assert not s.over and s.round == 20
    s, _ = run(s, {})
    assert s.over and s.reason == "limit" and s.round == 20


# ---- 积分 -----------------------------------------------------------------------------------------

def test_score_formula():
    """＋ 击败×3 ＋ 气血伤害×0.5 ＋ 好感伤害×0.4 − 承伤×0.1 ＋ 名次分（10/7/5/3/1）."""
    st = Stats(kills=2, hp_damage=t(7.5), grace_damage=t(3), taken=t(4))
    assert palace_score(st, 1) == 20.55 == pytest.approx(2 * 3 + 7.5 * 0.5 + 3 * 0.4 - 4 * 0.1 + 10)
    assert [palace_score(Stats(), p) for p in range(1, 9)] == [10, 7, 5, 3, 1, 0, 0, 0]


def test_taken_counts_hp_and_grace_damage_from_others_but_not_own_costs():
    """承伤 (decision): net 气血 + 好感 damage taken from others; her own costs are not 承伤."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"), seat(2, "延禧宫"))
    new, _ = run(s, {0: dict(type="poison", place="景仁宫"), 2: dict(type="frame", place="景仁宫"),
                     1: dict(type="frame", place="承乾宫")})
    assert new.players[1].stats.taken == t(2 + 2)
    assert new.players[0].stats.taken == t(2)
    assert new.players[2].stats.taken == 0


def test_outcome_shape():
    """The final Outcome: unit game, reason, one SeatResult per seat with the five stats."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=1.5))
    new, _ = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="stay")})
    o = outcome(MODES[ModeKey.A], new)
    assert (o.unit, o.reason, o.extra) == ("game", "last_standing", {"mode": "A", "rounds": 1, "verdict": "一人独存",
                                                                "ending": "终局：只剩一人（第 1 回合）"})
    r0 = o.results[0]
    assert r0.place == 1 and r0.won
    assert r0.stats == {"kills": 1, "hp_damage": 2.0, "grace_damage": 0.0, "taken": 0.0, "deaths": 0}
    assert r0.score == 3 + 1 + 10
    assert o.results[1].stats["deaths"] == 1
