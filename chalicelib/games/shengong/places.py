"""Places and their rules, as data: what standing at a place does, in each family of modes.

A/B/C (seed 「行动」 table, 「特殊地被动」, DECISIONS #4): the 六处 plus 御膳房, 摘星楼, 乾清宫, with
entry thresholds and passives. D (seed D④ 地点精简): five places, each with one bonus. The same name
(御膳房, 摘星楼) means different rules in the two families; a mode carries its own table. Every rule is
judged on the round's snapshot: where she stands when the round opens.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from chalicelib.games.shengong.numbers import tenths
from chalicelib.games.shengong.terms import Attack, Bar, Place


@dataclass(frozen=True, slots=True)
class Entry:
    """特殊地准入: her bar must be at least `minimum` (tenths) when she submits the 移动."""

    bar: Bar
    minimum: int


@dataclass(frozen=True, slots=True)
class PlaceRule:
    """What a place does to whoever stands there this round (all amounts in tenths, hit in points)."""

    text: str
    """The rule in Chinese, for the view."""
    entry: Entry | None = None
    hit: int = 0
    """D 醉江南: + to every attack's chance."""
    damage: Mapping[Attack, int] = field(default_factory=dict)
    """D 御膳房 下毒 +1, 摘星楼 诬告 +1."""
    heal: int = 0
    """D 太医院: 养生 +1."""
    idle: int = 0
    """D 御花园: 待机 +0.3 on each of her own 待机 gains."""
    occupant_grace: int = 0
    """A/B/C 御膳房: the occupant loses this much 好感 every round, whatever her move."""
    hurts_heal_idle: int = 0
    """A/B/C 御膳房: every other living seat who 养生s or 待机s loses this much 气血 (the occupant's)."""
    frame_cost: int | None = None
    """A/B/C 摘星楼: her 诬告 costs this instead of the table's (DECISIONS #13: −2 in all)."""
    frame_hurts: int = 0
    """A/B/C 摘星楼: her 诬告 also costs every 待机 seat and every 送膳-er at 乾清宫 this much 好感."""
    court: bool = False
    """乾清宫: where 送膳 works."""


ORDINARY: tuple[Place, ...] = (
    Place.JINGREN, Place.CHENGQIAN, Place.ZHONGCUI, Place.YANXI, Place.YONGSHOU, Place.CHANGCHUN,
)
"""六处 (DECISIONS #4): players of A/B/C start spread over them."""

_PLAIN = PlaceRule(text="寻常宫室")

PALACE_PLACES: dict[Place, PlaceRule] = {
    **{p: _PLAIN for p in ORDINARY},
    Place.KITCHEN: PlaceRule(
        text="准入好感≥6；身处者每轮 −1 好感，并让所有养生/待机的人 −1 气血",
        entry=Entry(Bar.GRACE, tenths(6)), occupant_grace=tenths(1), hurts_heal_idle=tenths(1),
    ),
    Place.TOWER: PlaceRule(
        text="准入气血≥6；在此诬告，自身代价改为 −2 气血，并让待机者与在乾清宫送膳者 −1 好感",
        entry=Entry(Bar.HP, tenths(6)), frame_cost=tenths(2), frame_hurts=tenths(1),
    ),
    Place.HALL: PlaceRule(text="准入好感≥5；送膳须身处此地", entry=Entry(Bar.GRACE, tenths(5)), court=True),
}
"""A/B/C: the 六处 and the three special places (seed 特殊地准入 and 特殊地被动)."""

PALACE_TARGETS: dict[Attack, frozenset[Place]] = {
    Attack.POISON: frozenset((*ORDINARY, Place.KITCHEN)),
    Attack.ASSASSINATE: frozenset((*ORDINARY, Place.KITCHEN)),
    Attack.FRAME: frozenset((*ORDINARY, Place.TOWER)),
}
"""A/B/C 可选目标: 下毒 / 暗杀 六处 + 御膳房; 诬告 六处 + 摘星楼."""

STAGE_PLACES: dict[Place, PlaceRule] = {
    Place.GARDEN: PlaceRule(text="起手之地：待机 +0.3", idle=tenths(0.3)),
    Place.TAVERN: PlaceRule(text="对手所在：进攻命中 +10%", hit=10),
    Place.KITCHEN: PlaceRule(text="下毒伤害 +1", damage={Attack.POISON: tenths(1)}),
    Place.INFIRMARY: PlaceRule(text="养生 +1 气血", heal=tenths(1)),
    Place.TOWER: PlaceRule(text="诬告伤害 +1", damage={Attack.FRAME: tenths(1)}),
}
"""D④: 御花园（起手，待机 +0.3）、醉江南（对手所在，进攻命中 +10%）、御膳房（下毒伤害 +1）、
太医院（养生 +1 气血）、摘星楼（诬告伤害 +1）. No entry thresholds, no passives."""
