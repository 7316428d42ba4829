"""From a final result to the writes that records and boards need (done in the same transaction).

Boards never mix (DECISIONS 深宫杀 #8 and the seed's 「战绩分表统计，互不相混」): each game family and
competition has its own board; 玩法C has its own board whoever opened the room.
"""

from __future__ import annotations

from typing import Any

from chalicelib.core.game import Outcome
from chalicelib.rooms.model import Competition, Room
from chalicelib.store.ports import ClearEntry, RecordIncrement, ResultWrite, SideWrite, StageCleared

FAMILY = {
    "shengong_a": "melee",
    "shengong_b": "melee",
    "shengong_c": "cards",
    "shengong_d": "coop",
    "baohuang": "baohuang",
}

BOARDS = (
    "melee-free", "melee-tournament", "cards-free", "cards-tournament", "coop-free", "coop-tournament",
    "baohuang-free", "baohuang-tournament",
)

# which SeatResult.stats are summed into records, per family
COUNTED_STATS = {
    "melee": ("kills", "deaths", "hp_damage", "favor_damage", "taken"),
    "cards": ("kills", "deaths", "hp_damage", "favor_damage", "taken"),
    "coop": ("damage", "survived"),
    "baohuang": (),
}


def board_for(room: Room) -> str | None:
    family = FAMILY.get(room.game)
    if family is None:
        return None
    kind = "tournament" if room.competition is Competition.TOURNAMENT else "free"
    return f"{family}-{kind}"


def named_outcome(room: Room, outcome: Outcome) -> dict[str, Any]:
    """The outcome as stored and shown: each seat's result with her name."""
    names = {s.seat: s for s in room.seats}
    body = outcome.model_dump(mode="json")
    for r in body["results"]:
        seat = names.get(r["seat"])
        r["name"] = seat.name if seat else None
        r["consort"] = seat.consort if seat else None
    return body


def side_writes(room: Room, outcome: Outcome, now_ms: int) -> list[SideWrite]:
    writes: list[SideWrite] = [ResultWrite(unit=outcome.unit, outcome=named_outcome(room, outcome), step=room.step)]
    board = board_for(room)
    if board is None:
        return writes
    family = FAMILY[room.game]
    seats = {s.seat: s for s in room.seats}
    for r in outcome.results:
        seat = seats[r.seat]
        subject = seat.consort or seat.user
        counters = {"games": 1.0, "wins": 1.0 if r.won else 0.0}
        counters.update({k: float(r.stats.get(k, 0)) for k in COUNTED_STATS[family]})
        if family in ("melee", "cards"):
            counters["damage"] = counters["hp_damage"] + counters["favor_damage"]
        writes.append(RecordIncrement(board=board, subject=subject, subject_name=seat.name,
                                      counters=counters, score_delta=float(r.score)))
    extra = outcome.extra
    if family == "coop" and extra.get("cleared"):
        stage = int(extra["stage"])
        team = tuple({"seat": r.seat, "name": seats[r.seat].name, "consort": seats[r.seat].consort,
                      "score": r.score} for r in outcome.results)
        writes.append(ClearEntry(stage=stage, rounds=int(extra["rounds"]), ended_ms=now_ms, room_id=room.id,
                                 team=team))
        writes.extend(StageCleared(consort_id=seats[r.seat].consort, stage=stage)
                      for r in outcome.results if seats[r.seat].consort)
    return writes
