"""Places and every number of the A/B/C rules, in integer tenths (气血, 好感) or percent (命中).

Seed 「行动」 table, 「特殊地被动」 and DECISIONS 深宫杀 #4/#5. Nothing here is computed at run time.
"""

from __future__ import annotations

from typing import Literal

# ---- places (DECISIONS #4) -------------------------------------------------------------------
ORDINARY: tuple[str, ...] = ("景仁宫", "承乾宫", "钟粹宫", "延禧宫", "永寿宫", "长春宫")
"""六处: the six ordinary places; players start spread over them."""
KITCHEN = "御膳房"
TOWER = "摘星楼"
HALL = "乾清宫"
SPECIAL: tuple[str, ...] = (KITCHEN, TOWER, HALL)
ALL_PLACES: tuple[str, ...] = ORDINARY + SPECIAL

PlaceName = Literal["景仁宫", "承乾宫", "钟粹宫", "延禧宫", "永寿宫", "长春宫", "御膳房", "摘星楼", "乾清宫"]

POISON_TARGETS: frozenset[str] = frozenset(ORDINARY + (KITCHEN,))
"""下毒: 六处 + 御膳房."""
ASSASSINATE_TARGETS: frozenset[str] = frozenset(ORDINARY + (KITCHEN,))
"""暗杀: 六处 + 御膳房."""
FRAME_TARGETS: frozenset[str] = frozenset(ORDINARY + (TOWER,))
"""诬告: 六处 + 摘星楼."""
MOVE_TARGETS: frozenset[str] = frozenset(ALL_PLACES)
"""移动: 六处 + 三处特殊地."""

ENTRY: dict[str, tuple[str, int]] = {KITCHEN: ("grace", 60), TOWER: ("hp", 60), HALL: ("grace", 50)}
"""特殊地准入：御膳房 好感≥6、摘星楼 气血≥6、乾清宫 好感≥5 (stat, minimum in tenths)."""

# ---- starting values and caps (DECISIONS #5) -------------------------------------------------
HP_START = 100
HP_CAP = 120
GRACE_START = 50
GRACE_REGEN = 2
"""每轮自然回复好感 +0.2."""

# ---- attacks ----------------------------------------------------------------------------------
POISON_HIT = 90
ASSASSINATE_HIT = 75
FRAME_HIT = 85
HIT_CAP = 100
POISON_COST_GRACE = 5
ASSASSINATE_COST_GRACE = 5
FRAME_COST_HP = 10
FRAME_COST_HP_AT_TOWER = 20
"""身处摘星楼行诬告 → 自己 −2 气血 (instead of the table's −1)."""
POISON_TOP = 20
POISON_OTHER = 10
ASSASSINATE_DAMAGE = 30
ASSASSINATE_VS_REST = 10
"""可穿透养生（仅 −1）, DECISIONS #6."""
FRAME_TOP = 20
FRAME_OTHER = 10

# ---- 送膳 and 圣意 ------------------------------------------------------------------------------
MEAL_FAVOUR = 10
"""+1 好感 for each 圣意 dimension she tops."""
MEAL_EMPTY_HP = 10
"""落空 −1 气血: at 乾清宫, served, topped neither dimension."""
MEAL_ABSENT_GRACE = 10
"""不在而送＝失仪 −1 好感."""
DECREE_DIMS: tuple[str, ...] = ("looks", "favor", "talent", "power")
DECREE_ZH: dict[str, str] = {"looks": "容", "favor": "宠", "talent": "才", "power": "权"}
DECREE_SIZE = 2

# ---- 养生 / 待机 --------------------------------------------------------------------------------
REST_LOW_BELOW = 80
REST_LOW = 15
"""+1.5 when 气血 < 8."""
REST_HIGH = 8
"""+0.8 when 气血 < 12."""
REST_DECAY = 3
REST_FLOOR = 2
IDLE_HP = 5
IDLE_GRACE = 5
IDLE_NEIGHBOUR = 1
"""同宫者各 +0.1 (气血 and 好感)."""
IDLE_GUARD = 10
"""本回合受到的气血伤害 −1."""

# ---- special-place passives --------------------------------------------------------------------
KITCHEN_SELF_GRACE = 10
KITCHEN_HIT_HP = 10
TOWER_HIT_GRACE = 10

# ---- scoring (DECISIONS #8) ------------------------------------------------------------------
PLACE_POINTS: tuple[int, ...] = (10, 7, 5, 3, 1)
SEATS = 8


def fmt(tenths: int) -> str:
    """35 -> "3.5", -10 -> "-1"; for report text."""
    whole, frac = divmod(abs(tenths), 10)
    sign = "-" if tenths < 0 else ""
    return f"{sign}{whole}" if frac == 0 else f"{sign}{whole}.{frac}"
