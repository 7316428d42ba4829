"""群芳战绩 and leaderboards, read through the board index (top N, my rank) without scanning."""

from __future__ import annotations

from typing import Any

from chalicelib.core.errors import NotFound
from chalicelib.core.game import RecordSubject
from chalicelib.core.identity import Caller
from chalicelib.domain.model import Competition
from chalicelib.domain.ports import AccountStore, BoardRow, RecordStore
from chalicelib.records.policy import board_policy, boards

# 品级 by cumulative score on a board, in the spirit of the 宫廷游戏 ranks of seed 001
# (新人「必须从低级做起」…「为了升级当"皇后"」). Thresholds: docs/rules/shengong.md §15.
TITLES: tuple[tuple[float, str], ...] = (
    (0, "官女子"), (30, "答应"), (80, "常在"), (160, "贵人"), (300, "嫔"),
    (500, "妃"), (800, "贵妃"), (1200, "皇贵妃"), (2000, "皇后"),
)


def title_for(score: float) -> str:
    name = TITLES[0][1]
    for threshold, title in TITLES:
        if score >= threshold:
            name = title
    return name


def board_list() -> dict[str, Any]:
    """Every board with what fills it, and the stages with a fastest-clear board."""
    rows = [{"board": name, "family": policy.board, "competition": name.rsplit("-", 1)[1],
             "subject": policy.subject.value} for name, policy in boards().items()]
    return {"boards": rows, "stages": list(stages())}


def stages() -> tuple[int, ...]:
    """Every stage with a fastest-clear board."""
    return tuple(sorted({s for policy in boards().values() for s in policy.stages}))


def derived(record: dict[str, Any]) -> dict[str, Any]:
    games = int(record.get("games", 0))
    wins = int(record.get("wins", 0))
    kills = float(record.get("kills", 0))
    deaths = float(record.get("deaths", 0))
    damage = float(record.get("damage", 0))
    score = round(float(record.get("score", 0)), 2)
    return {
        "subject": record.get("subject"), "name": record.get("subject_name"),
        "games": games, "wins": wins,
        "win_rate": round(wins / games, 4) if games else 0.0,
        "kd": round(kills / deaths, 2) if deaths else kills,
        "avg_damage": round(damage / games, 2) if games else 0.0,
        "kills": kills, "deaths": deaths, "damage": damage,
        "score": score, "title": title_for(score),
    }


def _row_json(rank: int, row: BoardRow) -> dict[str, Any]:
    d = derived({"subject": row.subject, "subject_name": row.subject_name, "games": row.games, "wins": row.wins,
                 "kills": row.kills, "deaths": row.deaths, "damage": row.damage, "score": row.score})
    return {"rank": rank, **d}


def top(records: RecordStore, board: str, limit: int) -> dict[str, Any]:
    board_policy(board)
    rows = records.top(board, limit)
    out, rank = [], 0
    for i, row in enumerate(rows):
        if i == 0 or row.score != rows[i - 1].score:
            rank = i + 1  # ties share a rank
        out.append(_row_json(rank, row))
    return {"board": board, "rows": out}


def my_rank(records: RecordStore, accounts: AccountStore, caller: Caller, board: str) -> dict[str, Any]:
    """The caller's record and rank on a board (her 妃子's record on boards kept per 妃子)."""
    policy = board_policy(board)
    subject = caller.user_id
    if policy.subject is RecordSubject.CONSORT:
        user = accounts.get_user(caller.user_id)
        if user is None or user.consort is None:
            return {"board": board, "rank": None, "record": None}  # no 妃子 yet: no record on her boards
        subject = user.consort
    record = records.record(board, subject)
    if record is None:
        return {"board": board, "rank": None, "record": None}
    rank = records.count_above(board, float(record.get("score", 0))) + 1
    return {"board": board, "rank": rank, "record": derived(record)}


def consort_records(records: RecordStore, consort_id: str) -> dict[str, Any]:
    """群芳战绩 of one 妃子 on every board kept per 妃子 that she has played."""
    out = {}
    for board, policy in boards().items():
        if policy.subject is not RecordSubject.CONSORT:
            continue
        record = records.record(board, consort_id)
        if record is not None:
            rank = records.count_above(board, float(record.get("score", 0))) + 1
            out[board] = {"rank": rank, **derived(record)}
    return {"consort": consort_id, "boards": out}


def fastest(records: RecordStore, stage: int, limit: int, competition: Competition = Competition.FREE) -> dict[str, Any]:
    """The fastest clears of a stage in one competition (自由赛 and 锦标赛 keep apart, as every board)."""
    if stage not in stages():
        raise NotFound(f"没有这个关卡（可选：{'、'.join(map(str, stages()))}）", code="STAGE_NOT_FOUND")
    rows = records.fastest(stage, limit, competition)
    return {"stage": stage, "competition": competition.value, "rows": [
        {"rank": i + 1, "rounds": r["rounds"], "ended_ms": r["ended_ms"], "room": r["room"], "team": r["team"]}
        for i, r in enumerate(rows)
    ]}
