"""What a settlement records, every mode: a union on `kind`. Events hold the whole truth (cards,
targets, rolls, who hit whom); only `report.py` decides what a given viewer may read. Amounts are
integer tenths, damage positive.

    cards           a seat's played and discarded cards (C, D)
    acted           one seat's move and its result, with every victim of it
    opponent_acted  an opponent's tactic, roll and victims (D)
    passive         a place acting through its occupant (A/B/C 御膳房, 摘星楼)
    decree          the round's 圣意 and who topped each dimension among the 送膳-ers (A/B/C)
    landed          a unit's bars before and after the round
    fell            a unit is down: cause, place (A/B/C), credited killers
    round           the round is settled; the next one and its 圣意
    ended           the game is over: reason, places, scores
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from chalicelib.games.shengong.bosses import Tactic
from chalicelib.games.shengong.terms import ActionType, Attack, Dim, FallCause, Place, Reason, Result, Side


class _Event(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int


class Hit(BaseModel):
    """One victim of one source this round."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    side: Side
    index: int
    """Her seat, or the opponent's index."""
    hp: int = 0
    grace: int = 0
    """The blow (after 养生 halving, before the victim's guards)."""
    hp_net: int = 0
    grace_net: int = 0
    """What landed from this source once her guards came off (shared among sources)."""
    healing: bool = False
    """She 养生'd this round (下毒 halved, 暗杀 only −1)."""


class CardsPlayed(_Event):
    kind: Literal["cards"] = "cards"
    seat: int
    attack: str | None = None
    defence: str | None = None
    general: str | None = None
    discard: tuple[str, ...] = ()


class Acted(_Event):
    kind: Literal["acted"] = "acted"
    seat: int
    action: ActionType
    """What she did: a missing or refused move is `idle` (defaulted)."""
    place: Place
    """Where she stood this round (whose rules applied)."""
    aim: Place | None = None
    """A/B/C: the place she attacked; 移动: the destination."""
    target: int | None = None
    """D: the opponent she attacked."""
    chance: int | None = None
    result: Result
    defaulted: bool = False
    """No readable, legal move came in: 待机."""
    refused: str | None = None
    """The check's code when a sealed move was no longer legal at settlement (or MALFORMED_ACTION)."""
    hits: tuple[Hit, ...] = ()
    own_hp: int = 0
    own_grace: int = 0
    """Her bars' change from this move alone (costs −, 养生 / 待机 / 送膳 +), as it landed: a gain past
    her cap is lost (at full 气血 a 待机 gives nothing)."""
    won: tuple[Dim, ...] = ()
    """送膳: the 圣意 dimensions she topped."""


class OpponentActed(_Event):
    kind: Literal["opponent_acted"] = "opponent_acted"
    opponent: int
    tactic: Tactic
    label: str
    attack: Attack | None
    """None: she held back (护主), no roll."""
    group: bool
    tower: bool = False
    chance: int | None
    result: Result
    aimed: tuple[int, ...] = ()
    """Every seat the attack was aimed at (the single target, or every living player)."""
    hits: tuple[Hit, ...] = ()


class PassiveDone(_Event):
    kind: Literal["passive"] = "passive"
    seat: int
    place: Place
    hits: tuple[Hit, ...] = ()
    own_grace: int = 0


class DecreeSettled(_Event):
    kind: Literal["decree"] = "decree"
    dims: tuple[Dim, ...]
    winners: tuple[int | None, ...] = ()
    """The seat that topped each dimension (None: nobody served at 乾清宫)."""


class Landed(_Event):
    kind: Literal["landed"] = "landed"
    side: Side
    index: int
    hp_before: int
    hp_after: int
    grace_before: int | None
    grace_after: int | None
    taken_hp: int = 0
    taken_grace: int = 0
    """Damage from others after her guards."""
    absorbed: int = 0
    """气血 + 好感 damage her guards took off."""
    down: bool = False


class Fell(_Event):
    kind: Literal["fell"] = "fell"
    side: Side
    index: int
    cause: FallCause
    placement: int | None = None
    killers: tuple[int, ...] = ()
    """Seats credited with the kill (DECISIONS #7); opponents are never credited."""


class RoundSettled(_Event):
    kind: Literal["round"] = "round"
    next_round: int | None = None
    next_decree: tuple[Dim, ...] = ()


class Ended(_Event):
    kind: Literal["ended"] = "ended"
    reason: Reason
    placements: tuple[int | None, ...]
    """Each seat's final place (A/B/C), in seat order; None in D."""
    scores: tuple[float, ...]


Event = Annotated[
    CardsPlayed | Acted | OpponentActed | PassiveDone | DecreeSettled | Landed | Fell | RoundSettled | Ended,
    Field(discriminator="kind"),
]
event_adapter: TypeAdapter[Event] = TypeAdapter(Event)
