"""Events of one settlement: a union on `kind`. They carry everything (the host sees all of it);
report.py decides what each viewer may read. Amounts are integer tenths; damage is positive.

    cards       a seat's played / discarded cards (玩法C)
    action      one order and its result (HIT, MISS, ...) with the net damage it dealt to each victim
    passive     a special place acting: 御膳房 occupant, 摘星楼 framer
    decree      the round's 圣意 and who topped each dimension among the 送膳-ers at 乾清宫
    tally       a seat's 气血 / 好感 before and after the round, and the damage it took from others
    eliminated  a seat falls: cause, placement, credited killers
    round       the round is settled; the next round and its 圣意 (None when the game ends)
    ended       the game is over: reason and final placements
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter


class Result(StrEnum):
    """Per-order result of the resolver."""

    HIT = "HIT"
    """Attack rolled a hit on at least one victim; 送膳 topped at least one 圣意 dimension."""
    MISS = "MISS"
    """Attack roll failed."""
    NO_TARGET = "NO_TARGET"
    """Attack on a place where nobody else stood."""
    VOID = "VOID"
    """The order was voided by last round's 暗杀."""
    FAILED = "FAILED"
    """送膳 from outside 乾清宫 (失仪)."""
    EMPTY = "EMPTY"
    """送膳 at 乾清宫 that topped no dimension (落空)."""
    OK = "OK"
    """养生, 待机, 移动, 继续驻留 done."""


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int


class Hit(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    hp: int = 0
    grace: int = 0


class CardsPlayed(_Event):
    kind: Literal["cards"] = "cards"
    seat: int
    attack: str | None = None
    defence: str | None = None
    general: str | None = None
    discard: tuple[str, ...] = ()


class ActionDone(_Event):
    kind: Literal["action"] = "action"
    seat: int
    action: str
    place: str | None = None
    result: Result
    defaulted: bool = False
    """No order came in: 待机 by default."""
    hits: tuple[Hit, ...] = ()
    self_hp: int = 0
    """Her own 气血 change from this order (cost −, 养生/待机 +)."""
    self_grace: int = 0
    won: tuple[str, ...] = ()
    """送膳: the 圣意 dimensions she topped."""


class PassiveDone(_Event):
    kind: Literal["passive"] = "passive"
    seat: int
    place: str
    hits: tuple[Hit, ...] = ()
    self_hp: int = 0
    self_grace: int = 0


class DecreeSettled(_Event):
    kind: Literal["decree"] = "decree"
    dims: tuple[str, ...]
    winners: tuple[int | None, ...] = ()
    """Seat that topped each dimension (None: nobody served at 乾清宫)."""


class Tally(_Event):
    kind: Literal["tally"] = "tally"
    seat: int
    hp_before: int
    hp_after: int
    grace_before: int
    grace_after: int
    taken_hp: int = 0
    taken_grace: int = 0


class Eliminated(_Event):
    kind: Literal["eliminated"] = "eliminated"
    seat: int
    cause: Literal["hp", "grace", "both"]
    placement: int
    killers: tuple[int, ...] = ()


class RoundSettled(_Event):
    kind: Literal["round"] = "round"
    next_round: int | None = None
    next_decree: tuple[str, ...] = ()


class Ended(_Event):
    kind: Literal["ended"] = "ended"
    reason: Literal["last_standing", "limit"]
    placements: tuple[int, ...]
    """placement of seat 0..7."""
    scores: tuple[float, ...]


Event = Annotated[
    CardsPlayed | ActionDone | PassiveDone | DecreeSettled | Tally | Eliminated | RoundSettled | Ended,
    Field(discriminator="kind"),
]
event_adapter: TypeAdapter[Event] = TypeAdapter(Event)
