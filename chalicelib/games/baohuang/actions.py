"""Actions of 保皇: a discriminated union on `type`.

JSON shapes::

    {"type": "take_throne"}                          登基 (simple; 暗独保 if she holds the 侍卫 card)
    {"type": "take_throne", "open_solo": true}       登基 and declare 明独保
    {"type": "take_throne", "call": "HA"}            classic: 登基 and call ♥A (she holds 3 → guard
                                                     is the 4th copy's holder; holds 4 → 暗独保)
    {"type": "pass_throne"}                          让位 to 上家
    {"type": "stay_hidden"} / {"type": "declare"} / {"type": "grab_solo"}
                                                     sealed declaration: 不声明 / 明保·造反 / 抢独
    {"type": "play", "cards": ["S7#1", "H7#3", "BJ#2"]}
    {"type": "pass"}
    {"type": "auto"} / {"type": "resume"}            enter 托管 / take back control
    {"type": "next_deal"}                            继续 (between deals)
    {"type": "leave"}                                leave between deals (ends the table, no penalty)
    {"type": "quit"}                                 强退 (mid-deal: −30 and the table ends)
    {"type": "kick", "seat": 3}                      host only (mid-deal: the seat loses 30)
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from chalicelib.games.baohuang.model import Frozen


class TakeThrone(Frozen):
    type: Literal["take_throne"] = "take_throne"
    open_solo: bool = False
    call: str | None = Field(default=None, max_length=4)


class PassThrone(Frozen):
    type: Literal["pass_throne"] = "pass_throne"


class StayHidden(Frozen):
    type: Literal["stay_hidden"] = "stay_hidden"


class Declare(Frozen):
    type: Literal["declare"] = "declare"


class GrabSolo(Frozen):
    type: Literal["grab_solo"] = "grab_solo"


class Play(Frozen):
    type: Literal["play"] = "play"
    cards: tuple[Annotated[str, Field(max_length=6)], ...] = Field(min_length=1, max_length=44)


class Pass(Frozen):
    type: Literal["pass"] = "pass"


class Auto(Frozen):
    type: Literal["auto"] = "auto"


class Resume(Frozen):
    type: Literal["resume"] = "resume"


class NextDeal(Frozen):
    type: Literal["next_deal"] = "next_deal"


class Leave(Frozen):
    type: Literal["leave"] = "leave"


class Quit(Frozen):
    type: Literal["quit"] = "quit"


class Kick(Frozen):
    type: Literal["kick"] = "kick"
    seat: int = Field(ge=0, le=4)


Action = Annotated[
    TakeThrone | PassThrone | StayHidden | Declare | GrabSolo | Play | Pass | Auto | Resume
    | NextDeal | Leave | Quit | Kick,
    Field(discriminator="type"),
]
action_adapter: TypeAdapter[Action] = TypeAdapter(Action)
