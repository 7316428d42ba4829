"""Every number of 深宫杀, for every mode, written once.

All 气血/好感 arithmetic is in integer tenths (the seed's numbers are all multiples of 0.1: −0.5, +1.5,
+0.8, −0.3, +0.2, +0.1), so there is no float drift in caps, thresholds or ≤ 0 checks. Hit chances
are whole percentage points; a roll is `rng.below(100)` and hits when it is below the chance.
Numbers that only some modes use are in the mode's tables (`places.py`, `modes.py`, `bosses.py`).
"""

from __future__ import annotations

from chalicelib.games.shengong.terms import Attack


def tenths(value: float) -> int:
    """3.5 -> 35. Only for constants written as decimals; state never holds floats."""
    return round(value * 10)


def points(value: int) -> float:
    """35 -> 3.5, for views and outcomes."""
    return value / 10


def fmt(value: int) -> str:
    """Tenths as the seed writes numbers: 25 -> "2.5", 30 -> "3", -5 -> "-0.5"."""
    whole, frac = divmod(abs(value), 10)
    sign = "-" if value < 0 else ""
    return f"{sign}{whole}" if frac == 0 else f"{sign}{whole}.{frac}"


def score_text(value: float) -> str:
    """Points as the result panel shows every figure, as players write numbers (a score is exact to
    the hundredth, 承伤×0.1; no trailing zeros), the minus sign, not a hyphen: 8.6, 12, −0.42."""
    text = f"{abs(value):.2f}".rstrip("0").rstrip(".")
    return f"−{text}" if value < 0 and text != "0" else text


ROUND_LIMIT = 20
"""DECISIONS 深宫杀 #2: the seed says 12 once and 20 in the fixed setting; 20, shown read-only."""

# ---- hit chances (percentage points) -----------------------------------------------------------
BASE_HIT: dict[Attack, int] = {Attack.POISON: 90, Attack.ASSASSINATE: 75, Attack.FRAME: 85}
"""Seed 「行动」 table: 下毒 90%, 暗杀 75%, 诬告 85%."""
HIT_CAP = 95
"""Seed D② 「上限 95%」; DECISIONS #14: every chance, players' and opponents', in every mode."""
ATTR_DIVISOR = 20
"""D②: + 权势/20 (下毒), 才情/20 (暗杀), 圣宠/20 (诬告); DECISIONS #14: floored to whole points."""

# ---- blows (tenths) ----------------------------------------------------------------------------
DAMAGE: dict[Attack, int] = {Attack.POISON: tenths(2), Attack.ASSASSINATE: tenths(3), Attack.FRAME: tenths(2)}
"""The full blow: 下毒 −2 气血, 暗杀 −3 气血, 诬告 −2 好感 (a single target, or a group's highest)."""
SPLASH = tenths(1)
"""A group attack's others: 其余各 −1 (波及衰减)."""
ASSASSINATE_ON_HEALING = tenths(1)
"""暗杀 可穿透养生（仅 −1） (DECISIONS #6); attack cards do not add to it."""

# ---- own costs (players only; paid on a miss too) ------------------------------------------------
COST_GRACE: dict[Attack, int] = {Attack.POISON: tenths(0.5), Attack.ASSASSINATE: tenths(0.5)}
COST_HP: dict[Attack, int] = {Attack.FRAME: tenths(1)}

# ---- 养生 (one formula for every mode) -----------------------------------------------------------
HEAL_LOW = tenths(1.5)
"""回血 +1.5（气血<8）..."""
HEAL_LOW_BELOW = tenths(8)
HEAL_HIGH = tenths(0.8)
"""...／+0.8 (气血 below her cap; at the cap 养生 heals nothing)."""
HEAL_DECAY = tenths(0.3)
"""连养每轮递减 0.3..."""
HEAL_FLOOR = tenths(0.2)
"""...（下限 +0.2）."""

# ---- 待机 and the daily 好感 ----------------------------------------------------------------------
IDLE_SELF = tenths(0.5)
"""自身 +0.5 气血 +0.5 好感."""
IDLE_SHARE = tenths(0.1)
"""同宫者各 +0.1 (气血 and 好感), per idler."""
IDLE_GUARD = tenths(1)
"""本回合受到的气血伤害 −1 (once, on the round's total)."""
GRACE_REGEN = tenths(0.2)
"""每轮自然回复好感 +0.2."""

# ---- 送膳 and 圣意 (A/B/C) -------------------------------------------------------------------------
MEAL_GRACE = tenths(1)
"""各维居首者 +1 好感."""
MEAL_EMPTY_HP = tenths(1)
"""落空 −1 气血."""
MEAL_ABSENT_GRACE = tenths(1)
"""不在而送＝失仪 −1 好感."""
DECREE_SIZE = 2
"""每轮圣意随机 2 维."""

# ---- score -------------------------------------------------------------------------------------
PLACE_POINTS: tuple[int, ...] = (10, 7, 5, 3, 1)
"""A/B/C 名次分 (places 6-8: 0)."""
KILL_POINTS = 3
HP_DAMAGE_POINTS = 0.5
GRACE_DAMAGE_POINTS = 0.4
TAKEN_POINTS = 0.1
"""DECISIONS #8: 击败×3 ＋ 气血伤害×0.5 ＋ 好感伤害×0.4 − 承伤×0.1 ＋ 名次分."""
SURVIVAL_POINTS = 30
"""D⑦ 存活 30."""
CLEAR_BONUS_BASE = 60
CLEAR_BONUS_PER_ROUND = 3
"""D⑦ 通关奖励（60 − 回合×3，不为负）."""
