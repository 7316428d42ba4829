"""Placement (A/B/C, DECISIONS #3), the score of each mode, and the final Outcome.

A/B/C (DECISIONS #8): 击败×3 + 气血伤害×0.5 + 好感伤害×0.4 − 承伤×0.1 + 名次分 10/7/5/3/1 (places 6-8: 0),
exact in hundredths. D (seed D⑦): 积分 = 输出伤害 + 存活 30 + 通关奖励 max(0, 60 − 回合×3), exact in
tenths; 输出伤害 is the 气血 + 好感 damage she dealt opponents, each hit in full even past zero.
"""

from __future__ import annotations

from collections.abc import Iterable

from pydantic import BaseModel, ConfigDict

from chalicelib.core.game import Outcome, SeatResult, StageClear
from chalicelib.games.shengong.modes import Foes, Mode
from chalicelib.games.shengong.numbers import (
    CLEAR_BONUS_BASE,
    CLEAR_BONUS_PER_ROUND,
    GRACE_DAMAGE_POINTS,
    HP_DAMAGE_POINTS,
    KILL_POINTS,
    PLACE_POINTS,
    SURVIVAL_POINTS,
    TAKEN_POINTS,
    points,
)
from chalicelib.games.shengong.state import Player, State, Stats
from chalicelib.games.shengong.terms import ModeKey
from chalicelib.games.shengong.wording import end_text, verdict


class OutcomeExtra(BaseModel):
    """`Outcome.extra` of a 深宫杀 game."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: ModeKey
    rounds: int
    """Rounds played."""
    stage: int | None = None
    """D: the stage."""
    cleared: bool | None = None
    """D: whether it was cleared (the clear itself is `Outcome.clear`)."""
    verdict: str | None = None
    """The end in a seal's few words, for the result's head: 通关, 全军覆没, 一人独存, 回合已满 — in D the
    round limit reads 闯关失败 (the team failed). None in results written before it was added."""
    ending: str | None = None
    """The end in a sentence, the 战报's last line (「20 回合已满，对手仍未倒下，闯关失败」). None in results
    written before it was added."""


def rank_key(p: Player) -> tuple[int, int, int]:
    """DECISIONS #3: by 气血, then 好感 (after the round), then fewer 承伤 over the game."""
    return (-p.hp, -p.grace, p.stats.taken)


def assign_places(players: Iterable[Player], first: int) -> dict[int, int]:
    """Places first, first+1, ... by rank_key; players equal on all three share the better place."""
    ordered = sorted(players, key=lambda p: (rank_key(p), p.seat))
    out: dict[int, int] = {}
    for i, p in enumerate(ordered):
        same = i > 0 and rank_key(p) == rank_key(ordered[i - 1])
        out[p.seat] = out[ordered[i - 1].seat] if same else first + i
    return out


def place_points(place: int) -> int:
    return PLACE_POINTS[place - 1] if 1 <= place <= len(PLACE_POINTS) else 0


def palace_score(stats: Stats, place: int) -> float:
    """DECISIONS #8, in points (two decimals, exact)."""
    per_tenth = {w: round(w * 10) for w in (HP_DAMAGE_POINTS, GRACE_DAMAGE_POINTS, TAKEN_POINTS)}  # hundredths
    hundredths = (stats.kills * KILL_POINTS * 100 + stats.hp_damage * per_tenth[HP_DAMAGE_POINTS]
                  + stats.grace_damage * per_tenth[GRACE_DAMAGE_POINTS] - stats.taken * per_tenth[TAKEN_POINTS]
                  + place_points(place) * 100)
    return hundredths / 100


def clear_bonus(cleared: bool, rounds: int) -> int:
    """D⑦ 通关奖励（60 − 回合×3，不为负）, only on a clear."""
    return max(0, CLEAR_BONUS_BASE - CLEAR_BONUS_PER_ROUND * rounds) if cleared else 0


def stage_score(p: Player, cleared: bool, rounds: int) -> float:
    """D⑦ 积分 ＝ 输出伤害 ＋ 存活 30 ＋ 通关奖励."""
    tenths = p.stats.hp_damage + p.stats.grace_damage + (SURVIVAL_POINTS * 10 if p.alive else 0)
    return points(tenths + clear_bonus(cleared, rounds) * 10)


def score(mode: Mode, state: State, p: Player) -> float:
    if mode.foes is Foes.BOSSES:
        return stage_score(p, state.cleared, state.round)
    return palace_score(p.stats, p.placement or len(state.players))


def seat_stats(mode: Mode, state: State, p: Player) -> dict[str, float]:
    """`SeatResult.stats`: the same names in every mode (D adds survived and clear_bonus)."""
    stats = {
        "kills": float(p.stats.kills), "deaths": 0.0 if p.alive else 1.0, "hp_damage": points(p.stats.hp_damage),
        "grace_damage": points(p.stats.grace_damage), "taken": points(p.stats.taken),
    }
    if mode.foes is Foes.BOSSES:
        stats["survived"] = 1.0 if p.alive else 0.0
        stats["clear_bonus"] = float(clear_bonus(state.cleared, state.round))
    return stats


def outcome(mode: Mode, state: State) -> Outcome:
    """The final result the room writes once (a finished state only)."""
    assert state.over and state.reason is not None
    bosses = mode.foes is Foes.BOSSES
    results = tuple(
        SeatResult(seat=p.seat, place=None if bosses else p.placement, score=score(mode, state, p),
                   won=state.cleared if bosses else p.placement == 1, stats=seat_stats(mode, state, p),
                   played=p.stats.moves > 0)
        for p in state.players
    )
    extra = OutcomeExtra(mode=mode.key, rounds=state.round, stage=state.stage,
                         cleared=state.cleared if bosses else None, verdict=verdict(bosses, state.reason),
                         ending=end_text(bosses, state.reason, state.round))
    clear = StageClear(stage=state.stage, rounds=state.round) if state.cleared and state.stage else None
    return Outcome(unit="game", reason=state.reason.value, results=results, clear=clear,
                   extra=extra.model_dump(mode="json", exclude_none=True))
