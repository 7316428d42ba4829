"""移动, 继续驻留, entry thresholds and the special places' passives."""

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Viewer
from chalicelib.games.shengong.game import GAME_A
from chalicelib.games.shengong.terms import Result

from .helpers import act, action_of, board, landed_on, passive_of, run, seat, t


def _check(state, s, **order):
    GAME_A.check(state, Viewer.player(s), act(**order))


def test_move_arrives_next_round_and_is_hit_at_the_old_place_this_round():
    """| 移动 | 六处 + 三处特殊地 | … | 本轮计划、下轮抵达."""
    s = board(seat(0, "景仁宫"), seat(1, "延禧宫"), seat(2, "永寿宫"), seat(3, "承乾宫", hp=9))
    new, ev = run(s, {0: dict(type="move", place="承乾宫"), 1: dict(type="poison", place="景仁宫"),
                      2: dict(type="poison", place="承乾宫"), 3: dict(type="stay")})
    assert new.players[0].place == "承乾宫"
    assert new.players[0].hp == t(8), "hit where she stood this round"
    assert new.players[3].hp == t(7), "not hit where she is going"
    assert action_of(ev, 0).result is Result.DONE


def test_move_targets_are_all_nine_places_but_not_her_own():
    """| 移动 | 六处 + 三处特殊地 |; to stay where she is she seals 继续驻留."""
    s = board(seat(0, "景仁宫", hp=10, grace=7), seat(1, "承乾宫"))
    for place in ("承乾宫", "钟粹宫", "延禧宫", "永寿宫", "长春宫", "御膳房", "摘星楼", "乾清宫"):
        _check(s, 0, type="move", place=place)
    with pytest.raises(IllegalAction) as e:
        _check(s, 0, type="move", place="景仁宫")
    assert e.value.code == "ALREADY_THERE"


@pytest.mark.parametrize(
    ("place", "low", "ok"),
    [("御膳房", dict(grace=5.9), dict(grace=6)), ("摘星楼", dict(hp=5.9), dict(hp=6)),
     ("乾清宫", dict(grace=4.9), dict(grace=5))],
)
def test_special_place_entry_thresholds(place, low, ok):
    """特殊地准入：御膳房 好感≥6、摘星楼 气血≥6、乾清宫 好感≥5 (judged on her values when she submits)."""
    with pytest.raises(IllegalAction) as e:
        _check(board(seat(0, "景仁宫", **low), seat(1, "承乾宫")), 0, type="move", place=place)
    assert e.value.code == "ENTRY_THRESHOLD"
    _check(board(seat(0, "景仁宫", **ok), seat(1, "承乾宫")), 0, type="move", place=place)


def test_stay_keeps_her_there_even_below_the_threshold():
    """可「继续驻留」不来回弹: once inside she may stay, even when she falls below the entry threshold."""
    s = board(seat(0, "御膳房", grace=6), seat(1, "承乾宫"))
    for _ in range(3):
        s, ev = run(s, {0: dict(type="stay"), 1: dict(type="stay")})
        assert action_of(ev, 0).result is Result.DONE
    assert s.players[0].place == "御膳房" and s.players[0].grace < t(6)


def test_stay_gives_no_bonus():
    """继续驻留 is not 待机: no +0.5, no 同宫 bonus for others."""
    s = board(seat(0, "景仁宫"), seat(1, "景仁宫"))
    new, _ = run(s, {0: dict(type="stay"), 1: dict(type="stay")})
    assert [(p.hp, p.grace) for p in new.players[:2]] == [(t(10), t(5.2))] * 2


def test_kitchen_costs_its_occupant_one_grace_and_hurts_everyone_healing_or_idle():
    """身处御膳房 → 自己 −1 好感，并让所有养生/待机的人 −1 气血 (所有 = anywhere in the palace)."""
    s = board(seat(0, "御膳房"), seat(1, "景仁宫", hp=9), seat(2, "承乾宫"), seat(3, "延禧宫"))
    new, ev = run(s, {0: dict(type="stay"), 1: dict(type="heal"), 2: dict(type="idle"), 3: dict(type="stay")})
    assert new.players[0].grace == t(5 - 1 + 0.2)
    assert new.players[1].hp == t(9 - 1 + 0.8)
    assert new.players[2].hp == t(10 - 1 + 1 + 0.5), "待机's −1 absorbs it"
    assert new.players[3].hp == t(10), "继续驻留 is neither 养生 nor 待机"
    p = passive_of(ev, 0)
    assert landed_on(p) == {1: (t(1), 0), 2: (0, 0)}
    assert new.players[0].stats.hp_damage == t(1)


def test_each_kitchen_occupant_is_a_source():
    """身处御膳房 … 让所有养生/待机的人 −1 气血: two occupants, −2."""
    s = board(seat(0, "御膳房"), seat(1, "御膳房"), seat(2, "景仁宫", hp=5))
    new, _ = run(s, {0: dict(type="stay"), 1: dict(type="stay"), 2: dict(type="heal")})
    assert new.players[2].hp == t(5 - 2 + 1.5)


def test_kitchen_occupant_pays_even_when_voided():
    """身处御膳房 → 自己 −1 好感: being there is enough, whatever her order."""
    s = board(seat(0, "御膳房", voided=True), seat(1, "景仁宫"))
    new, _ = run(s, {1: dict(type="stay")})
    assert new.players[0].grace == t(4.2)


def test_framing_from_the_tower_costs_two_and_hurts_idlers_and_hall_servers():
    """身处摘星楼行诬告 → 自己 −2 气血，并让待机者与在乾清宫送膳者 −1 好感."""
    s = board(seat(0, "摘星楼"), seat(1, "景仁宫"), seat(2, "承乾宫"), seat(3, "乾清宫"), seat(4, "长春宫"))
    new, ev = run(s, {0: dict(type="frame", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="idle"),
                      3: dict(type="meal"), 4: dict(type="heal")})
    assert new.players[0].hp == t(8), "−2 instead of the table's −1"
    assert new.players[1].grace == t(5 - 2 + 0.2)
    assert new.players[2].grace == t(5 - 1 + 0.5 + 0.2)
    assert new.players[3].grace == t(5 - 1 + 2 + 0.2)
    assert new.players[4].grace == t(5.2), "养生 is not hit by the tower"
    assert {h.index for h in passive_of(ev, 0).hits} == {2, 3}


def test_framing_elsewhere_has_no_tower_effect():
    """身处摘星楼行诬告: only a framer standing at 摘星楼 triggers it."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"), seat(2, "延禧宫"))
    new, ev = run(s, {0: dict(type="frame", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="idle")})
    assert new.players[0].hp == t(9)
    assert new.players[2].grace == t(5.7)
    assert not [e for e in ev if e.kind == "passive"]


def test_tower_occupant_not_framing_does_nothing():
    """身处摘星楼行诬告: standing there without 诬告 has no passive."""
    s = board(seat(0, "摘星楼"), seat(1, "景仁宫"))
    new, ev = run(s, {0: dict(type="stay"), 1: dict(type="idle")})
    assert new.players[1].grace == t(5.7) and not [e for e in ev if e.kind == "passive"]


def test_kitchen_damage_can_kill_and_is_credited():
    """身处御膳房 … 让所有养生/待机的人 −1 气血: passive damage counts as hers, kill credit included."""
    s = board(seat(0, "御膳房"), seat(1, "景仁宫", hp=0.5, heal_streak=9), seat(2, "承乾宫"))
    new, ev = run(s, {0: dict(type="stay"), 1: dict(type="heal"), 2: dict(type="stay")})
    assert not new.players[1].alive
    assert next(e for e in ev if e.kind == "fell").killers == (0,)
    assert new.players[0].stats.kills == 1
