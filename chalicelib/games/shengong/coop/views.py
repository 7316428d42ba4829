"""The board as one viewer may see it (one model for player, spectator and host).

Bars below zero show as 0 (the state keeps the true value). Public: round, stage, every player's 气血/好感/place/alive, every opponent's bars, the end and the
scores. A player also gets `you`: her hit chances and her own hand (with frozen cards and the pile
size). The host gets `hands`: every player's hand. Nobody gets another player's hand; moves of the
round being played are not in the state at all (the room keeps them sealed).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.shengong.coop import bosses
from chalicelib.games.shengong.coop.scoring import seat_scores
from chalicelib.games.shengong.coop.state import (
    HIT_CAP,
    START_FAVOR,
    TAVERN_HIT,
    Attack,
    CoopState,
    Place,
    PlayerState,
    Reason,
    capped,
)
from chalicelib.games.shengong.deck import copy_card
from chalicelib.games.shengong.numbers import ROUND_LIMIT, points

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class PlayerBoard(BaseModel):
    model_config = _FROZEN

    seat: int
    name: str
    consort: str
    hp: float
    hp_max: float
    favor: float
    favor_max: float
    place: Place
    alive: bool


class OpponentBoard(BaseModel):
    model_config = _FROZEN

    index: int
    key: str
    name: str
    hp: float
    hp_max: float
    favor: float | None
    favor_max: float | None
    alive: bool


class CardView(BaseModel):
    model_config = _FROZEN

    copy_id: str
    """The copy to submit ("xunyi#1")."""
    card: str
    maid: str
    skill: str
    slot: str
    level: int
    effect: str
    amount: int
    """Effect × level: percentage points for hit effects, tenths otherwise."""
    text: str


class FrozenView(BaseModel):
    model_config = _FROZEN

    copy_id: str
    skill: str
    back_in_round: int


class HandView(BaseModel):
    model_config = _FROZEN

    seat: int
    hand: tuple[CardView, ...]
    frozen: tuple[FrozenView, ...]
    pile: int


class YouView(BaseModel):
    model_config = _FROZEN

    seat: int
    chances: dict[Attack, int]
    """Her hit chances this round at her place, before cards (capped at 95)."""
    heal_streak: int
    hand: HandView


class ScoreView(BaseModel):
    model_config = _FROZEN

    seat: int
    damage: float
    survived: bool
    clear_bonus: int
    score: float


class CoopView(BaseModel):
    model_config = _FROZEN

    game: str = "shengong_d"
    stage: int
    stage_title: str
    round: int
    round_limit: int = ROUND_LIMIT
    hit_cap: int = HIT_CAP
    over: bool
    reason: Reason | None
    cleared: bool
    players: tuple[PlayerBoard, ...]
    opponents: tuple[OpponentBoard, ...]
    you: YouView | None = None
    hands: tuple[HandView, ...] | None = None
    """Host only."""
    scores: tuple[ScoreView, ...] | None = None
    """Once over."""


def _hand(p: PlayerState) -> HandView:
    cards = []
    for copy in p.deck.hand:
        c = copy_card(copy)
        level = p.levels.get(c.id, 1)
        cards.append(CardView(
            copy_id=copy, card=c.id, maid=c.maid, skill=c.skill, slot=c.slot.value, level=level,
            effect=c.effect.value, amount=c.magnitude(level), text=c.text,
        ))
    frozen = tuple(
        FrozenView(copy_id=f.card, skill=copy_card(f.card).skill, back_in_round=f.back_in_round)
        for f in p.deck.frozen
    )
    return HandView(seat=p.seat, hand=tuple(cards), frozen=frozen, pile=len(p.deck.pile))


def _chances(state: CoopState, p: PlayerState) -> dict[Attack, int]:
    bonus = TAVERN_HIT if p.place is Place.TAVERN else 0
    return {a: capped(p.hits[a] + bonus) for a in Attack}


def view(state: CoopState, viewer: Viewer) -> CoopView:
    """Project the state for `viewer` (player: own hand only; spectator: public; host: all hands)."""
    players = tuple(
        PlayerBoard(
            seat=p.seat, name=p.name, consort=p.consort, hp=points(max(p.hp, 0)), hp_max=points(p.hp_max),
            favor=points(max(p.favor, 0)), favor_max=points(START_FAVOR), place=p.place, alive=p.alive,
        )
        for p in state.players
    )
    opponents = tuple(
        OpponentBoard(
            index=o.index, key=o.key, name=o.name, hp=points(max(o.hp, 0)), hp_max=points(o.hp_max),
            favor=None if o.favor is None else points(max(o.favor, 0)),
            favor_max=None if o.favor_max is None else points(o.favor_max), alive=o.alive,
        )
        for o in state.opponents
    )
    you = None
    if viewer.role is ViewerRole.PLAYER and viewer.seat is not None and 0 <= viewer.seat < len(state.players):
        p = state.players[viewer.seat]
        you = YouView(seat=p.seat, chances=_chances(state, p), heal_streak=p.heal_streak, hand=_hand(p))
    hands = tuple(_hand(p) for p in state.players) if viewer.is_host else None
    scores = None
    if state.over:
        scores = tuple(
            ScoreView(seat=s.seat, damage=points(s.damage), survived=s.survived, clear_bonus=s.bonus, score=s.score)
            for s in seat_scores(state)
        )
    return CoopView(
        stage=state.stage, stage_title=bosses.STAGE_TITLES[state.stage], round=state.round, over=state.over,
        reason=state.reason, cleared=state.cleared, players=players, opponents=opponents,
        you=you, hands=hands, scores=scores,
    )
