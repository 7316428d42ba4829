"""`view(state, viewer)`: the public board plus what this viewer may see in private.

Public (everyone): round, round limit, deadline, this round's 圣意 (revealed when the round opens, so
players can plan 送膳), every seat's name, 容/宠/才/权, 气血, 好感, place, alive, round out and
placement; scores once the game is over. Private (`private`): a PLAYER gets only her own entry
(voided flag, 养生 streak, her 宫女 and, in 玩法C, her hand, pile size and frozen cards); the HOST gets
every seat's; a SPECTATOR none. Nobody's pending order is held by the engine, so none can leak.
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.shengong.cards import CATALOGUE
from chalicelib.games.shengong.deck import FrozenCard, copy_card
from chalicelib.games.shengong.melee.places import ALL_PLACES, DECREE_ZH, ENTRY
from chalicelib.games.shengong.melee.resolve import rest_heal
from chalicelib.games.shengong.melee.scoring import score
from chalicelib.games.shengong.melee.state import MeleeState, Player

_CFG = ConfigDict(frozen=True, extra="forbid")


class PublicPlayer(BaseModel):
    model_config = _CFG

    seat: int
    name: str
    looks: int
    talent: int
    favor: int
    power: int
    hp: float
    grace: float
    place: str
    alive: bool
    out_round: int | None = None
    placement: int | None = None
    kills: int | None = None
    score: float | None = None
    """Both only once the game is over."""


class HandCard(BaseModel):
    model_config = _CFG

    copy_id: str
    """The copy, e.g. "xunyi#1" (what CardPlay names)."""
    card: str
    skill: str
    maid: str
    slot: str
    level: int
    text: str


class MaidView(BaseModel):
    model_config = _CFG

    card: str
    maid: str
    skill: str
    slot: str
    level: int
    text: str


class PrivateSeat(BaseModel):
    model_config = _CFG

    seat: int
    voided: bool
    """Her order this round is void (暗杀 last round): only 待机 without bonuses."""
    rest_streak: int
    rest_now: float
    """What 养生 would heal this round."""
    maids: tuple[MaidView, ...] = ()
    hand: tuple[HandCard, ...] = ()
    pile: int = 0
    frozen: tuple[FrozenCard, ...] = ()


class MeleeView(BaseModel):
    model_config = _CFG

    mode: str
    round: int
    round_limit: int
    turn_seconds: int
    over: bool
    reason: str | None = None
    decree: tuple[str, ...]
    decree_zh: str
    places: tuple[str, ...] = ALL_PLACES
    entry: dict[str, str] = {p: f"{'好感' if s == 'grace' else '气血'}≥{m // 10}" for p, (s, m) in ENTRY.items()}
    players: tuple[PublicPlayer, ...]
    me: int | None = None
    private: tuple[PrivateSeat, ...] = ()


def _public(p: Player, over: bool) -> PublicPlayer:
    return PublicPlayer(
        seat=p.seat, name=p.name, looks=p.looks, talent=p.talent, favor=p.favor, power=p.power,
        hp=max(p.hp, 0) / 10, grace=max(p.grace, 0) / 10, place=p.place, alive=p.alive,
        out_round=p.out_round, placement=p.placement,
        kills=p.stats.kills if over else None,
        score=score(p.stats, p.placement or 0) if over else None,
    )


def _private(p: Player) -> PrivateSeat:
    maids = tuple(
        MaidView(card=cid, maid=CATALOGUE[cid].maid, skill=CATALOGUE[cid].skill, slot=CATALOGUE[cid].slot.value,
                 level=lv, text=CATALOGUE[cid].text)
        for cid, lv in sorted(p.maids.items())
    )
    hand: tuple[HandCard, ...] = ()
    if p.deck is not None:
        hand = tuple(
            HandCard(copy_id=c, card=copy_card(c).id, skill=copy_card(c).skill, maid=copy_card(c).maid,
                     slot=copy_card(c).slot.value, level=p.maids.get(copy_card(c).id, 1), text=copy_card(c).text)
            for c in p.deck.hand
        )
    return PrivateSeat(
        seat=p.seat, voided=p.voided, rest_streak=p.rest_streak, rest_now=rest_heal(p.hp, p.rest_streak) / 10,
        maids=maids, hand=hand, pile=len(p.deck.pile) if p.deck else 0,
        frozen=p.deck.frozen if p.deck else (),
    )


def build_view(state: MeleeState, viewer: Viewer) -> MeleeView:
    if viewer.role is ViewerRole.HOST:
        private = tuple(_private(p) for p in state.players)
        me = None
    elif viewer.role is ViewerRole.PLAYER and viewer.seat is not None and 0 <= viewer.seat < len(state.players):
        private = (_private(state.players[viewer.seat]),)
        me = viewer.seat
    else:
        private, me = (), None
    return MeleeView(
        mode=state.mode.value, round=state.round, round_limit=state.round_limit,
        turn_seconds=state.turn_seconds, over=state.over, reason=state.reason,
        decree=() if state.over else state.decree,
        decree_zh="、".join(DECREE_ZH[d] for d in state.decree) if not state.over else "",
        players=tuple(_public(p, state.over) for p in state.players),
        me=me, private=private,
    )
