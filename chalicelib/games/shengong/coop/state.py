"""玩法D state: places, every rule number, the stats a 妃子 brings, and the frozen state models.

All 气血/好感 values are integer tenths (`numbers.py`): 气血 18.5 is stored as 185. Hit chances are
whole percentage points. The state is the round's snapshot: `settle` reads it, never mutates it,
and returns the next one.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict

from chalicelib.games.shengong.deck import Deck
from chalicelib.games.shengong.numbers import tenths
from chalicelib.games.shengong.profile import ConsortProfile

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class Place(StrEnum):
    """Seed D④: 地点精简 — five places, each with one bonus for whoever stands there."""

    GARDEN = "御花园"
    """起手之地: 待机 +0.3 (气血 and 好感)."""
    TAVERN = "醉江南"
    """对手所在: her attacks +10% 命中."""
    KITCHEN = "御膳房"
    """Her 下毒 +1 伤害."""
    INFIRMARY = "太医院"
    """Her 养生 +1 气血."""
    TOWER = "摘星楼"
    """Her 诬告 +1 好感伤害."""


START_PLACE = Place.GARDEN


class Attack(StrEnum):
    """The three attacks, used by players and opponents alike."""

    POISON = "poison"
    """下毒: 气血."""
    ASSASSINATE = "assassinate"
    """暗杀: 气血."""
    FRAME = "frame"
    """诬告: 好感."""


ATTACK_ZH: dict[Attack, str] = {Attack.POISON: "下毒", Attack.ASSASSINATE: "暗杀", Attack.FRAME: "诬告"}

# ---- hit chances (percentage points) -------------------------------------------------------------
BASE_HIT: dict[Attack, int] = {Attack.POISON: 90, Attack.ASSASSINATE: 75, Attack.FRAME: 85}
"""Seed's action table / D②: 下毒 90, 暗杀 75, 诬告 85."""
HIT_CAP = 95
"""Seed D② 「上限 95%」: caps every hit chance in D, after every bonus (players and opponents)."""
ATTR_DIVISOR = 20
"""D②: + 权势/20 (下毒), 才情/20 (暗杀), 圣宠/20 (诬告); floored to whole points."""
TAVERN_HIT = 10
"""D④ 醉江南: 进攻命中 +10%."""

# ---- damage (tenths) -----------------------------------------------------------------------------
DAMAGE: dict[Attack, int] = {Attack.POISON: tenths(2), Attack.ASSASSINATE: tenths(3), Attack.FRAME: tenths(2)}
"""DECISIONS #10: 下毒 −2 气血, 暗杀 −3 气血, 诬告 −2 好感 (single target, or the group's highest)."""
GROUP_OTHERS = tenths(1)
"""Opponents' group attacks: the highest −2, every other living player −1 (base rule)."""
KITCHEN_POISON = tenths(1)
TOWER_FRAME = tenths(1)
ASSASSINATE_ON_RESTING = tenths(1)
"""DECISIONS #6: 暗杀 on someone who 养生 this round deals only −1 (可穿透养生，仅 −1)."""

# ---- own costs (players only) --------------------------------------------------------------------
COST_FAVOR: dict[Attack, int] = {Attack.POISON: tenths(0.5), Attack.ASSASSINATE: tenths(0.5)}
COST_HP: dict[Attack, int] = {Attack.FRAME: tenths(1)}

# ---- support (tenths) ----------------------------------------------------------------------------
HEAL_LOW = tenths(1.5)
"""养生 +1.5 when 气血 < 8 at the snapshot..."""
HEAL_LOW_BELOW = tenths(8)
HEAL_HIGH = tenths(0.8)
"""...otherwise +0.8 (the base table's '<12' tier is 'below her cap'; 气血 never exceeds her cap)."""
HEAL_DECAY = tenths(0.3)
"""连养每轮递减 0.3 ..."""
HEAL_FLOOR = tenths(0.2)
"""... 下限 +0.2."""
INFIRMARY_HEAL = tenths(1)
IDLE_SELF = tenths(0.5)
"""待机: 自身 +0.5 气血 +0.5 好感."""
IDLE_SHARE = tenths(0.1)
"""待机: 同宫者各 +0.1 (气血 and 好感), i.e. teammates standing at her place."""
IDLE_GUARD = tenths(1)
"""待机: 本回合受到的气血伤害 −1."""
GARDEN_IDLE = tenths(0.3)
"""D④ 御花园: 待机 +0.3 (added to each of her own 待机 gains)."""
FAVOR_REGEN = tenths(0.2)
"""每轮自然回复好感 +0.2 (living players)."""

# ---- players' starting values ---------------------------------------------------------------------
START_FAVOR = tenths(10)
"""DECISIONS #10: player 好感 at start is 10; it is also her 好感 cap."""
BASE_HP = tenths(10)
"""D②: 气血 = 容貌/10 + 10 — exact in tenths (容貌 points are tenths of 气血); also her cap."""

# ---- score ---------------------------------------------------------------------------------------
SURVIVAL_POINTS = 30
CLEAR_BONUS_BASE = 60
CLEAR_BONUS_PER_ROUND = 3


def start_hp(profile: ConsortProfile) -> int:
    """D② 气血 = 容貌/10 + 10, in tenths: 容貌 85 -> 185 (18.5)."""
    return profile.looks + BASE_HP


def base_hits(profile: ConsortProfile) -> dict[Attack, int]:
    """D② hit chances before place and cards (floored attribute bonus, cap applied at the roll)."""
    return {
        Attack.POISON: BASE_HIT[Attack.POISON] + profile.power // ATTR_DIVISOR,
        Attack.ASSASSINATE: BASE_HIT[Attack.ASSASSINATE] + profile.talent // ATTR_DIVISOR,
        Attack.FRAME: BASE_HIT[Attack.FRAME] + profile.favor // ATTR_DIVISOR,
    }


def capped(chance: int) -> int:
    """Clip a hit chance to [0, HIT_CAP]."""
    return max(0, min(HIT_CAP, chance))


class PlayerState(BaseModel):
    """One seat: her stats (fixed at start), her bars, her place and her deck."""

    model_config = _FROZEN

    seat: int
    name: str
    """The seat's display name (what reports and boards show)."""
    consort: str
    """Her 妃子's name."""
    hp_max: int
    hp: int
    favor: int
    place: Place = START_PLACE
    alive: bool = True
    down_round: int | None = None
    hits: dict[Attack, int]
    """Base hit chances from her attributes (D②), before place, cards and the cap."""
    levels: dict[str, int] = {}
    """R 宫女 card id -> level (effects × level)."""
    deck: Deck = Deck()
    heal_streak: int = 0
    """Consecutive earlier rounds in which she chose 养生 (for 连养递减)."""
    dealt_hp: int = 0
    dealt_favor: int = 0
    taken: int = 0
    """气血 + 好感 damage she received from opponents, after reductions (stats only)."""


class OpponentState(BaseModel):
    """A boss or 随从: bars only; her fixed numbers and tactic are in `bosses.SPECS[key]`."""

    model_config = _FROZEN

    index: int
    key: str
    name: str
    hp_max: int
    hp: int
    favor_max: int | None = None
    favor: int | None = None
    """None: a 随从 with no 好感 listed; she falls by 气血 only (DECISIONS #10)."""
    alive: bool = True
    down_round: int | None = None


Reason = Literal["clear", "wipe", "limit"]


class CoopState(BaseModel):
    """The whole game between two settlements (and the snapshot of the round about to settle)."""

    model_config = _FROZEN

    stage: int
    turn_seconds: int
    round: int = 1
    """The round being played (1-based); after the end, the last round played."""
    players: tuple[PlayerState, ...]
    opponents: tuple[OpponentState, ...]
    over: bool = False
    reason: Reason | None = None
    cleared: bool = False

    def living_players(self) -> tuple[PlayerState, ...]:
        return tuple(p for p in self.players if p.alive)

    def living_opponents(self) -> tuple[OpponentState, ...]:
        return tuple(o for o in self.opponents if o.alive)

    def player(self, seat: int) -> PlayerState:
        return self.players[seat]

