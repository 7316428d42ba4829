"""Seed D⑦: 积分 ＝ 输出伤害 ＋ 存活 30 ＋ 通关奖励（60 − 回合×3，不为负）.

输出伤害 counts both 气血 and 好感 damage dealt to opponents (诬告 is a full way to fell a boss),
at the nominal amount of each hit (no overkill trimming: hits of one round land together). 存活
means 气血 > 0 and 好感 > 0 at the end. The 通关奖励 goes to all three players when the stage is
cleared, fallen or not; 回合 is the round in which the last opponent fell.
"""

from __future__ import annotations

from chalicelib.core.game import Outcome, SeatResult
from chalicelib.games.shengong.coop.events import SeatScore
from chalicelib.games.shengong.coop.state import (
    CLEAR_BONUS_BASE,
    CLEAR_BONUS_PER_ROUND,
    SURVIVAL_POINTS,
    CoopState,
)
from chalicelib.games.shengong.numbers import points


def clear_bonus(cleared: bool, rounds: int) -> int:
    """Points: max(0, 60 − 回合×3) on a clear, else 0."""
    return max(0, CLEAR_BONUS_BASE - CLEAR_BONUS_PER_ROUND * rounds) if cleared else 0


def score_tenths(damage: int, survived: bool, bonus: int) -> int:
    return damage + (SURVIVAL_POINTS * 10 if survived else 0) + bonus * 10


def seat_scores(state: CoopState) -> tuple[SeatScore, ...]:
    bonus = clear_bonus(state.cleared, state.round)
    return tuple(
        SeatScore(
            seat=p.seat,
            damage=p.dealt_hp + p.dealt_favor,
            survived=p.alive,
            bonus=bonus,
            score=points(score_tenths(p.dealt_hp + p.dealt_favor, p.alive, bonus)),
        )
        for p in state.players
    )


def outcome(state: CoopState) -> Outcome:
    """The final result the room writes once (only for a finished state)."""
    assert state.over and state.reason is not None
    results = tuple(
        SeatResult(
            seat=s.seat,
            place=None,
            score=s.score,
            won=state.cleared,
            stats={
                "damage": points(s.damage),
                "hp_damage": points(p.dealt_hp),
                "favor_damage": points(p.dealt_favor),
                "survived": 1.0 if s.survived else 0.0,
                "clear_bonus": float(s.bonus),
                "damage_taken": points(p.taken),
            },
        )
        for s, p in zip(seat_scores(state), state.players, strict=True)
    )
    return Outcome(
        unit="game",
        reason=state.reason,
        results=results,
        extra={"stage": state.stage, "cleared": state.cleared, "rounds": state.round},
    )
