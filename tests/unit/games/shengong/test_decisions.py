"""DECISIONS 深宫杀 #12–#14 (added 2026-11-30), each pinned by a test quoting it. (#12's void rule in D
is pinned in d/test_actions.py.)"""

from __future__ import annotations

from chalicelib.core.game import Viewer
from chalicelib.games.shengong.actions import Assassinate, Frame, Poison
from chalicelib.games.shengong.cards import HIT_EFFECT
from chalicelib.games.shengong.formulas import player_chance
from chalicelib.games.shengong.game import GAME_A, GAME_D
from chalicelib.games.shengong.modes import MODES
from chalicelib.games.shengong.terms import Attack, ModeKey, Place, Side

from .abc.helpers import Script, board, run, seat, t
from .d.helpers import ScriptRng, new_game, profile, settle, shape


def _kills(transition) -> dict[int, float]:
    return {r.seat: r.stats["kills"] for r in transition.results[0].results}


def test_kill_credit_against_a_boss_goes_to_who_dealt_most_and_reaches_the_results():
    """DECISIONS #12: Kill credit (击败) in D follows #7 against bosses and 随从 and reaches the D boards
    (#7: if several hits did it together, the one that dealt the most this round)."""
    s = shape(new_game(1), opp_hp=(2,))
    t_ = settle(s, {0: Poison(target=0), 1: Assassinate(target=0)}, ScriptRng(99, 0, 0, 99))
    fell = next(e for e in t_.events if e.kind == "fell")
    assert (fell.side, fell.index, fell.killers) == (Side.OPPONENT, 0, (1,))
    assert _kills(t_) == {0: 0.0, 1: 1.0, 2: 0.0}
    assert t_.state.players[1].stats.kills == 1


def test_kill_credit_on_a_follower_tie_credits_each():
    """DECISIONS #12 (#7 in D): ties credit each of them — a 随从 falls by 气血 only."""
    s = shape(new_game(3), opp_hp=(24, 2, 22), places=(Place.GARDEN, Place.GARDEN, Place.TAVERN))
    t_ = settle(s, {0: Poison(target=1), 1: Poison(target=1)}, ScriptRng(99, 99, 99, 0, 0))
    assert not t_.state.opponents[1].alive
    assert [p.stats.kills for p in t_.state.players] == [1, 1, 0]


def test_d_boards_count_kills_and_deaths():
    """DECISIONS #12: … reaches the D boards (records sum `kills` and `deaths`)."""
    policy = GAME_D.records
    assert policy is not None and policy.board == "coop"
    assert {"kills", "deaths"} <= set(policy.counted)
    assert set(policy.damage) == {"hp_damage", "grace_damage"}


def test_framing_from_the_tower_costs_two_in_all():
    """DECISIONS #13: 诬告 from 摘星楼 costs the framer −2 气血 in all, not −1 −2 (the seed's
    "身处摘星楼行诬告 → 自己 −2 气血" replaces the usual cost)."""
    s = board(seat(0, "摘星楼"), seat(1, "景仁宫"))
    new, ev = run(s, {0: dict(type="frame", place="景仁宫"), 1: dict(type="stay")})
    assert new.players[0].hp == t(10 - 2)
    acted = next(e for e in ev if e.kind == "acted" and e.seat == 0)
    assert acted.own_hp == -t(2)
    missed, _ = run(s, {0: dict(type="frame", place="景仁宫"), 1: dict(type="stay")}, Script(rolls=[99]))
    assert missed.players[0].hp == t(10 - 2), "a miss costs the same"


def test_attribute_bonuses_are_floored_to_whole_points_before_the_cap():
    """DECISIONS #14: attribute bonuses in hit chances (e.g. 权势/20) are rounded down to whole percentage
    points before the cap: 圣宠 99 → 诬告 85 + 4 (not 4.95); 权势 99 at 醉江南 → 90 + 4 + 10, capped at 95."""
    s = new_game(1, profile("甄嬛", favor=99, power=99))
    assert player_chance(MODES[ModeKey.D], s.players[0], Attack.FRAME) == 89
    tavern = shape(s, places=(Place.TAVERN, Place.GARDEN, Place.GARDEN))
    assert player_chance(MODES[ModeKey.D], tavern.players[0], Attack.POISON) == 95
    t_ = settle(s, {0: Frame(target=0)}, ScriptRng(99, 0, 99))
    assert next(e for e in t_.events if e.kind == "acted" and e.seat == 0).chance == 89


def test_every_chance_is_capped_at_95_in_every_mode():
    """DECISIONS #14: every chance, players' and opponents', is capped at 95% — in A/B/C too (宫女 cards
    and passives included)."""
    for key in ModeKey:
        mode = MODES[key]
        p = seat(0, "醉江南" if key is ModeKey.D else "景仁宫", power=100, talent=100, favor=100)
        for attack in Attack:
            assert player_chance(mode, p, attack, {e: 60 for e in HIT_EFFECT.values()}) == 95
    view = GAME_A.view(board(seat(0, "承乾宫"), seat(1, "景仁宫")), Viewer.player(0))
    assert view.hit_cap == 95 and max(view.you.chances.values()) <= 95
