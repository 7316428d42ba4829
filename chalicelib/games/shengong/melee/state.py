"""Frozen game state of a melee (玩法A/B/C) game. All 气血/好感 values are integer tenths."""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from chalicelib.games.shengong.deck import Deck
from chalicelib.games.shengong.numbers import ROUND_LIMIT


class Mode(StrEnum):
    A = "A"
    """竞技局: 宫女 blocked."""
    B = "B"
    """宫女局: every R 宫女 acts passively each round."""
    C = "C"
    """卡牌局: 宫女 become cards (deck.py)."""


class MeleeOptions(BaseModel):
    """Room options. The round limit is numbers.ROUND_LIMIT and cannot be changed (DECISIONS #2)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    turn_seconds: int = Field(default=90, ge=15, le=600)
    """Deadline of each sealed round, in seconds."""


class Stats(BaseModel):
    """Running tallies used for the score (tenths, except kills)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    kills: int = 0
    hp_damage: int = 0
    """Net 气血 damage she dealt to others."""
    favor_damage: int = 0
    """Net 好感 damage she dealt to others."""
    taken: int = 0
    """承伤: net 气血 + 好感 damage she took from others (not her own costs)."""


class Player(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    seat: int
    name: str
    looks: int
    """容."""
    talent: int
    """才."""
    favor: int
    """宠 (the profile's 圣宠, not 好感)."""
    power: int
    """权."""
    maids: dict[str, int] = {}
    """R 宫女 she brought: card id -> level (empty in 玩法A)."""
    hp: int
    """气血, tenths. At most places.HP_CAP; may be ≤ 0 once she is out (her last value)."""
    grace: int
    """好感, tenths."""
    place: str
    alive: bool = True
    out_round: int | None = None
    placement: int | None = None
    rest_streak: int = 0
    """Consecutive 养生 rounds just before the next one (drives the 0.3 decay)."""
    voided: bool = False
    """Her next action is void (暗杀 hit her last round)."""
    stats: Stats = Stats()
    deck: Deck | None = None
    """玩法C only."""


class MeleeState(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    mode: Mode
    round: int = 1
    """The round now waiting for orders (after the end: the last round played)."""
    round_limit: int = ROUND_LIMIT
    turn_seconds: int = 90
    decree: tuple[str, ...] = ()
    """圣意 of the current round (two of looks/favor/talent/power), drawn when the round opens."""
    players: tuple[Player, ...]
    over: bool = False
    reason: str | None = None
    """"last_standing" or "limit" once over."""

    def player(self, seat: int) -> Player:
        return self.players[seat]

    def living(self) -> tuple[int, ...]:
        return tuple(p.seat for p in self.players if p.alive)
