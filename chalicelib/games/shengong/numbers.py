"""Numbers shared by every 深宫杀 mode.

All 气血/好感 arithmetic is done in integer tenths (the seed's numbers are all multiples of 0.1:
−0.5, +1.5, +0.8, −0.3, +0.2, +0.1), so there is no float drift in caps, thresholds or ≤ 0 checks.
"""

from __future__ import annotations

ROUND_LIMIT = 20
"""DECISIONS 深宫杀 #2: the seed says 12 once and 20 in the fixed setting; 20 is used, shown read-only."""

TENTH = 1


def tenths(points: float) -> int:
    """3.5 -> 35. Only for constants written as decimals; state never holds floats."""
    return round(points * 10)


def points(value_tenths: int) -> float:
    """35 -> 3.5, for views and reports."""
    return value_tenths / 10
