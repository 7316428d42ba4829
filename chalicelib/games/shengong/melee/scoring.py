"""Placement (DECISIONS #3) and score (DECISIONS #8), and the final Outcome.

Placement: a later elimination ranks higher. Players who fall in the same round, and survivors at
the round limit, rank by 气血, then 好感 (their values after the round, which may be ≤ 0), then fewer
damage taken (承伤) over the game; players equal on all three share the better place.

Score = 击败×3 + 气血伤害×0.5 + 好感伤害×0.4 − 承伤×0.1 + 名次分 (10/7/5/3/1, places 6–8 get 0),
computed exactly in hundredths from the integer-tenths stats.
"""

from __future__ import annotations

from collections.abc import Iterable

from chalicelib.core.game import Outcome, SeatResult
from chalicelib.games.shengong.melee.places import PLACE_POINTS
from chalicelib.games.shengong.melee.state import MeleeState, Player, Stats


def rank_key(p: Player) -> tuple[int, int, int]:
    return (-p.hp, -p.grace, p.stats.taken)


def assign_places(players: Iterable[Player], first: int) -> dict[int, int]:
    """Places first, first+1, ... for `players` by rank_key; exact ties share the better place."""
    ordered = sorted(players, key=lambda p: (rank_key(p), p.seat))
    out: dict[int, int] = {}
    for i, p in enumerate(ordered):
        if i and rank_key(p) == rank_key(ordered[i - 1]):
            out[p.seat] = out[ordered[i - 1].seat]
        else:
            out[p.seat] = first + i
    return out


def place_points(place: int) -> int:
    return PLACE_POINTS[place - 1] if 1 <= place <= len(PLACE_POINTS) else 0


def score_hundredths(stats: Stats, place: int) -> int:
    return (
        stats.kills * 300
        + stats.hp_damage * 5
        + stats.favor_damage * 4
        - stats.taken
        + place_points(place) * 100
    )


def score(stats: Stats, place: int) -> float:
    """DECISIONS #8, in points (two decimals, exact)."""
    return score_hundredths(stats, place) / 100


def outcome(state: MeleeState) -> Outcome:
    """The final result of a finished game."""
    results = []
    for p in state.players:
        place = p.placement or len(state.players)
        results.append(
            SeatResult(
                seat=p.seat,
                place=place,
                score=score(p.stats, place),
                won=place == 1,
                stats={
                    "kills": p.stats.kills,
                    "hp_damage": p.stats.hp_damage / 10,
                    "favor_damage": p.stats.favor_damage / 10,
                    "taken": p.stats.taken / 10,
                    "deaths": 0 if p.alive else 1,
                },
            )
        )
    return Outcome(
        unit="game",
        reason=state.reason or "limit",
        results=tuple(results),
        extra={"mode": state.mode.value, "rounds": state.round},
    )
