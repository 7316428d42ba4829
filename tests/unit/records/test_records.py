"""群芳战绩: derived figures, 品级 titles and which board a room's results go to."""

from __future__ import annotations

import pytest

from chalicelib.core.game import Outcome, SeatResult, StageClear
from chalicelib.domain.model import Competition, Room, RoomStatus, SeatEntry
from chalicelib.domain.ports import ClearEntry, RecordIncrement, ResultWrite, StageCleared
from chalicelib.games import get_game
from chalicelib.records.policy import board_name, side_writes
from chalicelib.records.service import TITLES, derived, title_for


def _room(game: str, competition: Competition = Competition.FREE, seats: int = 3) -> Room:
    return Room(id="r1", game=game, title="t", status=RoomStatus.ACTIVE, creator="u0", creator_name="n",
                competition=competition, max_seats=seats, min_seats=seats, created_ms=0, updated_ms=0, active_ms=0,
                seats=tuple(SeatEntry(seat=i, user=f"u{i}", name=f"妃{i}", consort=f"c{i}") for i in range(seats)))


def test_seed_derived_figures():
    """Seed: 战绩跨局累计，派生胜率 · KD · 场均杀伤 · 总积分."""
    d = derived({"subject": "c1", "subject_name": "甄嬛", "games": 4, "wins": 1, "kills": 6, "deaths": 3,
                 "damage": 30, "score": 55.25})
    assert (d["win_rate"], d["kd"], d["avg_damage"], d["score"]) == (0.25, 2.0, 7.5, 55.25)
    assert derived({"games": 2, "wins": 0, "kills": 3, "deaths": 0})["kd"] == 3  # no deaths: KD = kills


@pytest.mark.parametrize("score,title", [(0, "官女子"), (29.9, "官女子"), (30, "答应"), (80, "常在"), (160, "贵人"),
                                         (300, "嫔"), (500, "妃"), (800, "贵妃"), (1200, "皇贵妃"),
                                         (2000, "皇后"), (99999, "皇后"), (-5, "官女子")])
def test_titles_rise_with_total_score_from_guannvzi_to_empress(score, title):
    """Seed 001: 新人来到后，必须从低级做起 … 为了升级当"皇后" — 品级 follows the total score."""
    assert title_for(score) == title
    assert (TITLES[0][1], TITLES[-1][1]) == ("官女子", "皇后")


@pytest.mark.parametrize("game,competition,board", [
    ("shengong_a", Competition.FREE, "melee-free"), ("shengong_b", Competition.TOURNAMENT, "melee-tournament"),
    ("shengong_c", Competition.FREE, "cards-free"), ("shengong_c", Competition.TOURNAMENT, "cards-tournament"),
    ("shengong_d", Competition.FREE, "coop-free"), ("baohuang", Competition.FREE, "baohuang-free"),
    ("zhenhuan", Competition.FREE, None),
])
def test_boards_never_mix(game, competition, board):
    """Seed: 三种赛制…玩法C 卡牌局另设一榜。战绩分表统计，互不相混."""
    policy = get_game(game).records
    assert (board_name(policy, competition) if policy else None) == board


def test_a_clear_writes_result_records_board_entry_and_unlocks_for_the_whole_team():
    """Seed D⑥⑦: 关卡解锁 … 按关卡记最快击杀榜…保留小组三人姓名与各自积分."""
    outcome = Outcome(unit="game", reason="clear", clear=StageClear(stage=1, rounds=6), results=tuple(
        SeatResult(seat=i, score=40.0 + i, won=True, stats={"hp_damage": 8.0, "grace_damage": 2.0,
                                                             "survived": float(i != 2)})
        for i in range(3)))
    writes = side_writes(get_game("shengong_d"), _room("shengong_d"), outcome, now_ms=123)
    assert isinstance(writes[0], ResultWrite) and writes[0].outcome["results"][1]["name"] == "妃1"
    records = [w for w in writes if isinstance(w, RecordIncrement)]
    assert [(r.subject, r.score_delta, r.counters["wins"], r.counters["damage"]) for r in records] == [
        ("c0", 40.0, 1.0, 10.0), ("c1", 41.0, 1.0, 10.0), ("c2", 42.0, 1.0, 10.0)]
    (clear,) = [w for w in writes if isinstance(w, ClearEntry)]
    assert (clear.stage, clear.rounds, [m["name"] for m in clear.team]) == (1, 6, ["妃0", "妃1", "妃2"])
    assert [w.consort_id for w in writes if isinstance(w, StageCleared)] == ["c0", "c1", "c2"]  # fallen c2 too


def test_a_seat_that_never_played_shares_no_part_of_the_clear():
    """Platform rule P11: her result is written, but no record and no unlock comes from a game she never
    made a move in; seed ⑦ 「保留小组三人姓名与各自积分」: the fastest-clear entry still names all three,
    her marked as not having played."""
    outcome = Outcome(unit="game", reason="clear", clear=StageClear(stage=1, rounds=6), results=tuple(
        SeatResult(seat=i, score=40.0, won=True, stats={"hp_damage": 8.0}, played=i != 1) for i in range(3)))
    writes = side_writes(get_game("shengong_d"), _room("shengong_d"), outcome, now_ms=123)
    assert len(writes[0].outcome["results"]) == 3  # the result shows all three
    assert [w.subject for w in writes if isinstance(w, RecordIncrement)] == ["c0", "c2"]
    (clear,) = [w for w in writes if isinstance(w, ClearEntry)]
    assert [(m["name"], m["played"]) for m in clear.team] == [("妃0", True), ("妃1", False), ("妃2", True)]
    assert [w.consort_id for w in writes if isinstance(w, StageCleared)] == ["c0", "c2"]


def test_record_figures_are_rounded_before_they_are_stored():
    """战绩跨局累计: a record adds up every game's figures, so each game's must be exact — 气血伤害 6.4 and
    好感伤害 2.2 are 8.6 damage, not 8.600000000000001 carried into every later total."""
    outcome = Outcome(unit="game", reason="over", results=(
        SeatResult(seat=0, score=12.3 + 0.1 + 0.2, won=True, stats={"hp_damage": 6.4, "grace_damage": 2.2}),
        SeatResult(seat=1), SeatResult(seat=2)))
    (mine, *_) = [w for w in side_writes(get_game("shengong_d"), _room("shengong_d"), outcome, now_ms=1)
                  if isinstance(w, RecordIncrement)]
    assert (mine.counters["damage"], mine.score_delta) == (8.6, 12.6)
