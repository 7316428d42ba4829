"""The frozen state of a 深宫杀 game, every mode: players, opponents (D), the round and its 圣意.

All 气血/好感 values are integer tenths (`numbers.py`): 气血 18.5 is stored as 185. The state is the
round's snapshot: `settle` reads it, never mutates it, and returns the next one. It never holds a
sealed move (the room keeps those apart), so no projection of it can leak one.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from chalicelib.games.shengong.deck import Deck
from chalicelib.games.shengong.terms import BossKey, Dim, ModeKey, Place, Reason

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class Stats(BaseModel):
    """Running tallies for the score (tenths, except kills)."""

    model_config = _FROZEN

    kills: int = 0
    """击败 (DECISIONS #7), against seats in A/B/C and against opponents in D (#12)."""
    hp_damage: int = 0
    """Net 气血 damage she dealt (after her victims' guards; overkill included)."""
    grace_damage: int = 0
    """Net 好感 damage she dealt."""
    taken: int = 0
    """承伤: net 气血 + 好感 damage she took from others (never her own costs)."""
    moves: int = 0
    """Rounds she sent a move of her own (not 待机 by default): a seat that never did gets no record."""


class Player(BaseModel):
    """One seat: her 妃子's attributes, her bars, her place, her 宫女."""

    model_config = _FROZEN

    seat: int
    name: str
    """The seat's display name (what reports and boards show)."""
    consort: str
    """Her 妃子's name."""
    looks: int
    talent: int
    favor: int
    """圣宠 (an attribute), not 好感."""
    power: int
    maids: dict[str, int] = {}
    """R 宫女 she brought: card id -> level (empty in A)."""
    hp: int
    """气血; may be ≤ 0 once she is down (her last value)."""
    hp_max: int
    grace: int
    """好感."""
    place: Place
    alive: bool = True
    out_round: int | None = None
    placement: int | None = None
    """A/B/C final place."""
    heal_streak: int = 0
    """Consecutive earlier rounds in which she chose 养生 (for 连养递减)."""
    voided: bool = False
    """Her move this round is void: a 暗杀 hit her last round."""
    stats: Stats = Stats()
    deck: Deck | None = None
    """C and D: her 宫女 cards."""


class Opponent(BaseModel):
    """玩法D: a boss or 随从. Her fixed numbers and tactic are `bosses.SPECS[key]`."""

    model_config = _FROZEN

    index: int
    key: BossKey
    name: str
    hp: int
    hp_max: int
    grace: int | None = None
    """None: a 随从 with no 好感 listed; she falls by 气血 only (DECISIONS #10)."""
    grace_max: int | None = None
    alive: bool = True
    out_round: int | None = None


class State(BaseModel):
    """The whole game between two settlements."""

    model_config = _FROZEN

    mode: ModeKey
    stage: int | None = None
    """玩法D only."""
    turn_seconds: int = 90
    round: int = 1
    """The round being played (after the end: the last round played)."""
    decree: tuple[Dim, ...] = ()
    """A/B/C: 圣意 of the open round, drawn when the round opens."""
    players: tuple[Player, ...]
    opponents: tuple[Opponent, ...] = ()
    over: bool = False
    reason: Reason | None = None

    @property
    def cleared(self) -> bool:
        return self.reason is Reason.CLEAR

    def living(self) -> tuple[Player, ...]:
        return tuple(p for p in self.players if p.alive)

    def living_opponents(self) -> tuple[Opponent, ...]:
        return tuple(o for o in self.opponents if o.alive)
