"""The sealed move of one seat for one round: one union on `type` for every mode.

    {"type": "poison", "target": 0, "cards": {"attack": "xunyi#1"}}   D: `target` = an opponent's index
    {"type": "poison", "place": "景仁宫"}                               A/B/C: `place` = the target place
    {"type": "assassinate", ...}   {"type": "frame", ...}              the same two shapes
    {"type": "meal"}  (送膳, A/B/C, at 乾清宫)   {"type": "heal"}  (养生)   {"type": "idle"}  (待机)
    {"type": "move", "place": "御膳房"}  (移动)   {"type": "stay"}  (继续驻留)

`cards` (C and D only) is a `deck.CardPlay`: one attack, one defence, one general card, up to two
discards. A field the mode does not use is refused by `check` (FIELD_NOT_USED), not silently dropped.
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from chalicelib.games.shengong.deck import CardPlay
from chalicelib.games.shengong.terms import ActionType, Attack, Place


class _Move(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    cards: CardPlay = CardPlay()


class _Attack(_Move):
    target: int | None = None
    """D: the opponent's index (none: the first living one, seed D④ 不选则打存活中的第一个)."""
    place: Place | None = None
    """A/B/C: the place attacked (目标地所有人)."""


class Poison(_Attack):
    """下毒."""

    type: Literal[ActionType.POISON] = ActionType.POISON


class Assassinate(_Attack):
    """暗杀."""

    type: Literal[ActionType.ASSASSINATE] = ActionType.ASSASSINATE


class Frame(_Attack):
    """诬告."""

    type: Literal[ActionType.FRAME] = ActionType.FRAME


class Meal(_Move):
    """送膳 (A/B/C): only at 乾清宫 (elsewhere 失仪)."""

    type: Literal[ActionType.MEAL] = ActionType.MEAL


class Heal(_Move):
    """养生."""

    type: Literal[ActionType.HEAL] = ActionType.HEAL


class Move(_Move):
    """移动: leave now, be at `place` from the next round on."""

    type: Literal[ActionType.MOVE] = ActionType.MOVE
    place: Place


class Stay(_Move):
    """继续驻留."""

    type: Literal[ActionType.STAY] = ActionType.STAY


class Idle(_Move):
    """待机 (also what a living seat that did not submit does)."""

    type: Literal[ActionType.IDLE] = ActionType.IDLE


Action = Annotated[
    Poison | Assassinate | Frame | Meal | Heal | Move | Stay | Idle, Field(discriminator="type")
]
AttackMove = Poison | Assassinate | Frame
action_adapter: TypeAdapter[Action] = TypeAdapter(Action)

IDLE = Idle()
ACTION_CLASSES = (Poison, Assassinate, Frame, Meal, Heal, Move, Stay, Idle)

ATTACK_MOVES: dict[Attack, type[AttackMove]] = {
    Attack.POISON: Poison, Attack.ASSASSINATE: Assassinate, Attack.FRAME: Frame,
}
