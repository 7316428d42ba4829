"""The eight orders a seat can seal each round (seed 「行动」 table), a union on `type`.

    {"type": "poison", "place": "景仁宫", "cards": {"attack": "xunyi#1"}}
    {"type": "assassinate", "place": "御膳房"}     {"type": "frame", "place": "摘星楼"}
    {"type": "meal"}  (送膳, place is always 乾清宫)   {"type": "rest"}  (养生)
    {"type": "move", "place": "乾清宫"}  (移动)     {"type": "stay"}  (继续驻留)
    {"type": "idle"}  (待机)

`cards` (玩法C only) is a deck.CardPlay: one attack, one defence, one general card, up to two discards.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from chalicelib.games.shengong.deck import CardPlay
from chalicelib.games.shengong.melee.places import HALL, PlaceName


class Kind(StrEnum):
    POISON = "poison"
    """下毒."""
    ASSASSINATE = "assassinate"
    """暗杀."""
    FRAME = "frame"
    """诬告."""
    MEAL = "meal"
    """送膳."""
    REST = "rest"
    """养生."""
    MOVE = "move"
    """移动."""
    STAY = "stay"
    """继续驻留: stays put, no bonuses, and is neither 养生 nor 待机 for the special-place passives."""
    IDLE = "idle"
    """待机 (also what a missing move becomes)."""


ZH: dict[str, str] = {
    "poison": "下毒", "assassinate": "暗杀", "frame": "诬告", "meal": "送膳",
    "rest": "养生", "move": "移动", "stay": "继续驻留", "idle": "待机",
}

ATTACKS = frozenset({Kind.POISON, Kind.ASSASSINATE, Kind.FRAME})


class _Order(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    cards: CardPlay = CardPlay()


class Poison(_Order):
    type: Literal["poison"] = "poison"
    place: PlaceName


class Assassinate(_Order):
    type: Literal["assassinate"] = "assassinate"
    place: PlaceName


class Frame(_Order):
    type: Literal["frame"] = "frame"
    place: PlaceName


class Meal(_Order):
    type: Literal["meal"] = "meal"
    place: Literal["乾清宫"] = HALL  # type: ignore[assignment]


class Rest(_Order):
    type: Literal["rest"] = "rest"


class Move(_Order):
    type: Literal["move"] = "move"
    place: PlaceName


class Stay(_Order):
    type: Literal["stay"] = "stay"


class Idle(_Order):
    type: Literal["idle"] = "idle"


Action = Annotated[
    Poison | Assassinate | Frame | Meal | Rest | Move | Stay | Idle, Field(discriminator="type")
]
action_adapter: TypeAdapter[Action] = TypeAdapter(Action)

IDLE = Idle()


def target_of(action: Action) -> str | None:
    """The target place of an order, None for 养生 / 待机 / 继续驻留."""
    return getattr(action, "place", None)
