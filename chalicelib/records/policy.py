"""From a final result to the writes that records and boards need (done in the same transaction).

Boards never mix (DECISIONS 深宫杀 #8 and the seed's 「战绩分表统计，互不相混」): each game declares
its board family in its `RecordsPolicy`, and each family has a free and a tournament board. Nothing
here names a game: the registry says which boards exist.
"""

from __future__ import annotations

from functools import cache
from typing import Any

from chalicelib.core.errors import NotFound
from chalicelib.core.game import AnyGame, Outcome, RecordsPolicy, RecordSubject
from chalicelib.domain.model import Competition, Room
from chalicelib.domain.ports import ClearEntry, RecordIncrement, ResultWrite, SideWrite, StageCleared
from chalicelib.games import game_keys, get_game

COMPETITIONS = ("free", "tournament")


def board_name(policy: RecordsPolicy, competition: Competition) -> str:
    kind = "tournament" if competition is Competition.TOURNAMENT else "free"
    return f"{policy.board}-{kind}"


@cache
def boards() -> dict[str, RecordsPolicy]:
    """Every board there is -> the policy that fills it, in registry order."""
    out: dict[str, RecordsPolicy] = {}
    for key in game_keys():
        policy = get_game(key).records
        if policy is not None:
            for kind in COMPETITIONS:
                out.setdefault(f"{policy.board}-{kind}", policy)
    return out


def board_policy(board: str) -> RecordsPolicy:
    """The policy behind a board name.

    Raises:
        NotFound: BOARD_NOT_FOUND, naming the boards there are.
    """
    policy = boards().get(board)
    if policy is None:
        raise NotFound(f"没有这个榜单：{board}（可选：{'、'.join(boards())}）", code="BOARD_NOT_FOUND")
    return policy


def named_outcome(room: Room, outcome: Outcome) -> dict[str, Any]:
    """The outcome as stored and shown: each seat's result with her name."""
    names = {s.seat: s for s in room.seats}
    body = outcome.model_dump(mode="json")
    for r in body["results"]:
        seat = names.get(r["seat"])
        r["name"] = seat.name if seat else None
        r["consort"] = seat.consort if seat else None
    return body


COUNTER_DIGITS = 2
"""Figures are tenths (bars) and hundredths (scores): a sum of floats is rounded to them before it is
stored, or 6.4 + 2.2 = 8.600000000000001 would be kept exactly and carried into every later total."""


def _counters(policy: RecordsPolicy, stats: dict[str, float], won: bool) -> dict[str, float]:
    counters = {"games": 1.0, "wins": 1.0 if won else 0.0}
    counters.update({k: float(stats.get(k, 0)) for k in policy.counted})
    if policy.damage:
        counters["damage"] = float(sum(stats.get(k, 0) for k in policy.damage))
    return {k: round(v, COUNTER_DIGITS) for k, v in counters.items()}


def side_writes(game: AnyGame, room: Room, outcome: Outcome, now_ms: int) -> list[SideWrite]:
    writes: list[SideWrite] = [ResultWrite(unit=outcome.unit, outcome=named_outcome(room, outcome), step=room.step)]
    policy = game.records
    if policy is None or room.practice:
        # a game a bot sat at or played in is practice (练习): its result stands, but it reaches no
        # board, no fastest-clear list and unlocks nothing (docs/rules/platform.md P1)
        return writes
    board = board_name(policy, room.competition)
    seats = {s.seat: s for s in room.seats}
    for r in outcome.results:
        if not r.played:
            continue  # a seat nobody played (every move defaulted) earns no rank
        seat = seats[r.seat]
        subject = seat.consort if policy.subject is RecordSubject.CONSORT and seat.consort else seat.user
        writes.append(RecordIncrement(board=board, subject=subject, subject_name=seat.name,
                                      counters=_counters(policy, r.stats, r.won),
                                      score_delta=round(float(r.score), COUNTER_DIGITS)))
    if outcome.clear is not None:
        stage = outcome.clear.stage
        # seed ⑦: 保留小组三人姓名与各自积分 — all three, a seat that never moved marked so (P11: the
        # clear, its record and its unlock are theirs who played)
        team = tuple({"seat": r.seat, "name": seats[r.seat].name, "consort": seats[r.seat].consort,
                      "score": r.score, "played": r.played} for r in outcome.results)
        writes.append(ClearEntry(stage=stage, rounds=outcome.clear.rounds, ended_ms=now_ms, room_id=room.id,
                                 team=team, competition=room.competition))
        writes.extend(StageCleared(consort_id=consort, stage=stage)
                      for r in outcome.results if r.played and (consort := seats[r.seat].consort))
    return writes
