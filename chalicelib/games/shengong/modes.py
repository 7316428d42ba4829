"""The four modes as data and small policies: whom you fight, what 宫女 do, which places, which
actions, the start values. The resolver and the checks read a `Mode`; they never test a mode's name.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import StrEnum

from chalicelib.games.shengong.numbers import ROUND_LIMIT, tenths
from chalicelib.games.shengong.places import (
    PALACE_PLACES,
    PALACE_TARGETS,
    STAGE_PLACES,
    PlaceRule,
)
from chalicelib.games.shengong.terms import ActionType, Attack, ModeKey, Place


class Foes(StrEnum):
    SEATS = "seats"
    """A/B/C: everyone else at the table; attacks aim at a place (seed: 目标地所有人)."""
    BOSSES = "bosses"
    """D: the stage's opponents; attacks name one of them (`target`, seed D④)."""


class MaidUse(StrEnum):
    NONE = "none"
    """A 竞技局 屏蔽宫女."""
    PASSIVE = "passive"
    """B 宫女局 宫女技能全线被动生效."""
    HAND = "hand"
    """C 卡牌局 and D 默认出牌: 宫女 as cards in hand (玩法C ①–⑦)."""


@dataclass(frozen=True, slots=True)
class Mode:
    key: ModeKey
    title: str
    seats: int
    foes: Foes
    maids: MaidUse
    places: Mapping[Place, PlaceRule]
    targets: Mapping[Attack, frozenset[Place]]
    """Places each attack may aim at (A/B/C); empty in D, where attacks name an opponent."""
    actions: frozenset[ActionType]
    grace_start: int
    grace_cap: int | None
    """D: 好感 never exceeds its start (10); A/B/C: no cap."""
    hp_start: int
    """A/B/C: 10. D: 0, because 气血 = 容貌/10 + 10 (`hp_from_looks`)."""
    hp_cap: int
    hp_from_looks: bool
    attribute_hits: bool
    """D②: 命中 + 权势/20 (下毒), 才情/20 (暗杀), 圣宠/20 (诬告)."""
    start_place: Place | None
    """D: everyone starts at 御花园; None: spread over the 六处 (DECISIONS #4)."""
    end_text: str
    round_limit: int = ROUND_LIMIT

    def rule(self, place: Place) -> PlaceRule:
        return self.places[place]

    def start_hp(self, looks: int) -> int:
        """D② 气血 = 容貌/10 + 10, exact in tenths (容貌 85 -> 185); A/B/C 10 (DECISIONS #5). Also her cap
        in D."""
        return looks + tenths(10) if self.hp_from_looks else self.hp_start

    def hp_max(self, looks: int) -> int:
        return self.start_hp(looks) if self.hp_from_looks else self.hp_cap


_ALL_ACTIONS = frozenset(ActionType)


def _palace(key: ModeKey, title: str, maids: MaidUse) -> Mode:
    """A/B/C: eight seats in the palace, the same table, 宫女 as the only difference."""
    return Mode(
        key=key, title=title, seats=8, foes=Foes.SEATS, maids=maids, places=PALACE_PLACES, targets=PALACE_TARGETS,
        actions=_ALL_ACTIONS, grace_start=tenths(5), grace_cap=None, hp_start=tenths(10), hp_cap=tenths(12),
        hp_from_looks=False, attribute_hits=False, start_place=None,
        end_text=f"只剩 1 人即止，或打满 {ROUND_LIMIT} 回合",
    )


MODES: dict[ModeKey, Mode] = {
    ModeKey.A: _palace(ModeKey.A, "深宫杀 · 竞技局", MaidUse.NONE),
    ModeKey.B: _palace(ModeKey.B, "深宫杀 · 宫女局", MaidUse.PASSIVE),
    ModeKey.C: _palace(ModeKey.C, "深宫杀 · 卡牌局", MaidUse.HAND),
    ModeKey.D: Mode(
        key=ModeKey.D, title="宫斗杀", seats=3, foes=Foes.BOSSES, maids=MaidUse.HAND, places=STAGE_PLACES,
        targets={}, actions=_ALL_ACTIONS - {ActionType.MEAL}, grace_start=tenths(10), grace_cap=tenths(10),
        hp_start=0, hp_cap=0, hp_from_looks=True, attribute_hits=True, start_place=Place.GARDEN,
        end_text=f"放倒全部对手即通关；全队倒下，或打满 {ROUND_LIMIT} 回合仍未通关，即闯关失败",
    ),
}
"""DECISIONS #5 (A/B/C: 气血 10, cap 12, 好感 5), #10 (D: 好感 10), seed D④ (no 送膳 in D)."""
