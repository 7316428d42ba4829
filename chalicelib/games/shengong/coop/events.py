"""What a settlement reports: one event per action, one per landing, and the end.

Events hold the whole truth (cards, targets, rolls); only `report.report` turns them into what a
given viewer may read. All bar amounts are integer tenths.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from chalicelib.games.shengong.coop.state import Attack, Place, Reason
from chalicelib.games.shengong.deck import CardPlay

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class Result(StrEnum):
    """Per-action result of a settlement (diplomacy-style order results)."""

    HIT = "hit"
    """The attack's roll succeeded; its damage lands at the end of the round."""
    MISS = "miss"
    """The attack's roll failed (her own cost is still paid)."""
    VOID = "void"
    """The submitted move was not legal in the snapshot; she stood by (待机) instead."""
    DONE = "done"
    """养生 / 待机 / 移动: carried out."""


class PlayerActed(BaseModel):
    model_config = _FROZEN

    kind: Literal["player_acted"] = "player_acted"
    round: int
    seat: int
    action: str
    """poison | assassinate | frame | heal | idle | move (a VOID move is reported as idle)."""
    place: Place
    """Where she stood this round (whose bonus applied)."""
    target: int | None = None
    """Opponent index of an attack."""
    destination: Place | None = None
    chance: int | None = None
    """Final hit chance in %, for attacks."""
    result: Result
    damage: int = 0
    """Tenths dealt on a HIT (气血 for 下毒/暗杀, 好感 for 诬告)."""
    heal: int = 0
    """Tenths her 养生 restores (before the cap)."""
    cost_hp: int = 0
    cost_favor: int = 0
    cards: CardPlay = CardPlay()
    defaulted: bool = False
    """She did not submit: 待机."""
    void_code: str | None = None


class Victim(BaseModel):
    model_config = _FROZEN

    seat: int
    hp: int = 0
    favor: int = 0
    """Tenths this attack deals her (0 on a MISS), after 养生 halving, before round guards."""
    resting: bool = False
    """She was 养生 this round (下毒 halved, 暗杀 only −1)."""


class OpponentActed(BaseModel):
    model_config = _FROZEN

    kind: Literal["opponent_acted"] = "opponent_acted"
    round: int
    opponent: int
    tactic: str
    label: str
    attack: Attack | None
    """None: she held back (护主), result DONE, no victims."""
    group: bool
    tower: bool = False
    chance: int | None
    result: Result
    victims: tuple[Victim, ...]
    """Everyone the attack was aimed at (the single target, or every living player)."""


class PlayerLanded(BaseModel):
    model_config = _FROZEN

    kind: Literal["player_landed"] = "player_landed"
    round: int
    seat: int
    hp_before: int
    hp_after: int
    favor_before: int
    favor_after: int
    taken_hp: int
    """气血 damage from opponents after 待机 and defence cards."""
    taken_favor: int
    absorbed: int
    """气血 + 好感 damage absorbed by 待机 and defence cards."""
    down: bool
    place_after: Place


class OpponentLanded(BaseModel):
    model_config = _FROZEN

    kind: Literal["opponent_landed"] = "opponent_landed"
    round: int
    opponent: int
    hp_before: int
    hp_after: int
    favor_before: int | None
    favor_after: int | None
    down: bool


class SeatScore(BaseModel):
    model_config = _FROZEN

    seat: int
    damage: int
    """Tenths of 气血 + 好感 she dealt to opponents."""
    survived: bool
    bonus: int
    """通关奖励 in points (0 unless cleared)."""
    score: float


class GameEnded(BaseModel):
    model_config = _FROZEN

    kind: Literal["game_ended"] = "game_ended"
    round: int
    reason: Reason
    cleared: bool
    rounds: int
    scores: tuple[SeatScore, ...]


Event = Annotated[
    PlayerActed | OpponentActed | PlayerLanded | OpponentLanded | GameEnded, Field(discriminator="kind")
]
event_adapter: TypeAdapter[Event] = TypeAdapter(Event)
