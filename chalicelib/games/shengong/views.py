"""The board as one viewer may see it: one model for player, spectator and host, every mode.

Public: the mode's rules (actions, places with their entry thresholds and bonuses), the round and its
圣意, every seat's 妃子 card (容/才/宠/权), 气血, 好感, place, alive; every opponent's bars; the end and
the scores. A player also gets `you`: her void flag, 养生 streak and what 养生 would heal now, her hit
chances at her place, her 宫女 and (C, D) her hand. The host gets `private`: every seat's. Nobody
gets another seat's hand, and no move of the open round is in the state at all. Bars below zero
show as 0 (the state keeps the true value).
"""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict

from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.shengong import bosses
from chalicelib.games.shengong.cards import ACTION_OF_EFFECT, CATALOGUE, Effect, Slot
from chalicelib.games.shengong.check import voided_reason
from chalicelib.games.shengong.deck import copy_card
from chalicelib.games.shengong.effects import card_misfit, passive_mods
from chalicelib.games.shengong.formulas import heal_amount, player_chance
from chalicelib.games.shengong.modes import Foes, MaidUse, Mode
from chalicelib.games.shengong.numbers import HIT_CAP, MEAL_EMPTY_HP, MEAL_GRACE, fmt, points
from chalicelib.games.shengong.options import ActionOption, options_for
from chalicelib.games.shengong.scoring import clear_bonus, score
from chalicelib.games.shengong.state import Opponent, Player, State
from chalicelib.games.shengong.terms import (
    ACTION_ZH,
    DIM_NAME_ZH,
    DIM_ZH,
    ActionType,
    Attack,
    Bar,
    BossKey,
    Dim,
    ModeKey,
    Place,
    Reason,
)

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class PlaceView(BaseModel):
    """A place of this mode and its rule (amounts in points)."""

    model_config = _FROZEN

    place: Place
    text: str
    entry_bar: Bar | None = None
    entry_min: float | None = None
    targets: tuple[Attack, ...] = ()
    """A/B/C: the attacks that may aim here."""
    hit: int = 0
    poison: float = 0
    frame: float = 0
    heal: float = 0
    idle: float = 0
    toll: float = 0
    """A/B/C 御膳房: 好感 its occupant loses every round."""
    hurts_heal_idle: float = 0
    """A/B/C 御膳房: 气血 each occupant takes from everyone who 养生s or 待机s."""
    frame_cost: float | None = None
    """A/B/C 摘星楼: what 诬告 from here costs."""
    frame_hurts: float = 0
    court: bool = False


class PlayerView(BaseModel):
    model_config = _FROZEN

    seat: int
    name: str
    consort: str
    looks: int
    talent: int
    favor: int
    power: int
    hp: float
    hp_max: float
    grace: float
    grace_max: float | None
    place: Place
    alive: bool
    out_round: int | None = None
    placement: int | None = None


class OpponentView(BaseModel):
    model_config = _FROZEN

    index: int
    key: BossKey
    name: str
    hp: float
    hp_max: float
    grace: float | None
    grace_max: float | None
    alive: bool
    frame_defence: int = 0
    """Points off players' 诬告 chance against her (石露)."""


class CardRefusal(BaseModel):
    """An action of this mode a card may not be played with, and the words 落子 would be refused with."""

    model_config = _FROZEN

    type: ActionType
    reason: str
    """「「寻医问药」只对下毒生效（可以弃掉）」 — CARD_NO_EFFECT's message, word for word."""


class CardView(BaseModel):
    model_config = _FROZEN

    copy_id: str
    """The copy to submit ("xunyi#1")."""
    card: str
    maid: str
    skill: str
    slot: Slot
    level: int
    effect: Effect
    amount: int
    """Effect × level: percentage points for hit effects, tenths otherwise."""
    text: str
    text_now: str = ""
    """The effect at her card's level, as it will act (「所受气血伤害 −0.4」); `text` says it per level."""
    unusable: str | None = None
    """Why it can do nothing in this mode (its action is not played here): it can only be discarded."""
    refused: tuple[CardRefusal, ...] = ()
    """The actions of this mode it may not go with, each with the reason (the app greys it once she
    picks one of them; it may still be discarded). Every other action of the mode takes it."""


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
    empty: str | None = None
    """An empty hand's words: none at all without R 宫女 (seed C①), said with where 宫女 come from."""


class MaidView(BaseModel):
    model_config = _FROZEN

    card: str
    maid: str
    skill: str
    slot: Slot
    effect: Effect
    level: int
    amount: int
    """Effect × level (B: what she brings every round)."""
    text: str
    text_now: str = ""
    """The effect at her level, as it acts every round in B (「下毒命中 +30%」); `text` says it per level."""


class SeatPrivate(BaseModel):
    """What only this seat (and the host) may see."""

    model_config = _FROZEN

    seat: int
    voided: bool
    """Her move this round is void (暗杀 last round): only 待机 without bonuses, discards allowed."""
    voided_reason: str | None = None
    """Why, in the words a refused move would get (the app shows it once, not on every greyed seal)."""
    heal_streak: int
    heal_now: float
    """What 养生 would heal this round."""
    chances: dict[Attack, int]
    """Her hit chances at her place this round (capped at 95): with her 宫女 in B, before cards in C/D,
    before any opponent's defence (D: each option's `chances` has it, target by target)."""
    maids: tuple[MaidView, ...] = ()
    hand: HandView | None = None
    """C and D."""
    options: tuple[ActionOption, ...] = ()
    """Her buttons this round: each action open (with its targets or places) or greyed with the reason."""


class ScoreView(BaseModel):
    model_config = _FROZEN

    seat: int
    place: int | None
    score: float
    kills: int
    hp_damage: float
    grace_damage: float
    taken: float
    clear_bonus: int | None = None


class ShengongView(BaseModel):
    model_config = _FROZEN

    mode: ModeKey
    title: str
    stage: int | None = None
    stage_title: str | None = None
    round: int
    round_limit: int
    hit_cap: int = HIT_CAP
    turn_seconds: int
    over: bool
    reason: Reason | None = None
    cleared: bool = False
    decree: tuple[Dim, ...] = ()
    decree_zh: str = ""
    decree_text: str = ""
    """What the 圣意 means this round, in a sentence (A/B/C; the chip says only 「容、宠」)."""
    actions: tuple[ActionType, ...]
    places: tuple[PlaceView, ...]
    players: tuple[PlayerView, ...]
    opponents: tuple[OpponentView, ...] = ()
    you: SeatPrivate | None = None
    """Player only: her own."""
    private: tuple[SeatPrivate, ...] | None = None
    """Host only: every seat's."""
    scores: tuple[ScoreView, ...] | None = None
    """Once over."""


def _place(mode: Mode, place: Place) -> PlaceView:
    rule = mode.rule(place)
    return PlaceView(
        place=place, text=rule.text, entry_bar=rule.entry.bar if rule.entry else None,
        entry_min=points(rule.entry.minimum) if rule.entry else None,
        targets=tuple(a for a in Attack if place in mode.targets.get(a, ())), hit=rule.hit,
        poison=points(rule.damage.get(Attack.POISON, 0)), frame=points(rule.damage.get(Attack.FRAME, 0)),
        heal=points(rule.heal), idle=points(rule.idle), toll=points(rule.occupant_grace),
        hurts_heal_idle=points(rule.hurts_heal_idle), frame_cost=None if rule.frame_cost is None else points(rule.frame_cost),
        frame_hurts=points(rule.frame_hurts), court=rule.court,
    )


def _player(p: Player, mode: Mode) -> PlayerView:
    return PlayerView(
        seat=p.seat, name=p.name, consort=p.consort, looks=p.looks, talent=p.talent, favor=p.favor, power=p.power,
        hp=points(max(p.hp, 0)), hp_max=points(p.hp_max), grace=points(max(p.grace, 0)),
        grace_max=None if mode.grace_cap is None else points(mode.grace_cap), place=p.place, alive=p.alive,
        out_round=p.out_round, placement=p.placement,
    )


def _opponent(o: Opponent) -> OpponentView:
    return OpponentView(
        index=o.index, key=o.key, name=o.name, hp=points(max(o.hp, 0)), hp_max=points(o.hp_max),
        grace=None if o.grace is None else points(max(o.grace, 0)),
        grace_max=None if o.grace_max is None else points(o.grace_max), alive=o.alive,
        frame_defence=bosses.SPECS[o.key].frame_defence,
    )


def _decree_text(decree: tuple[Dim, ...]) -> str:
    if not decree:
        return ""
    dims = "、".join(DIM_NAME_ZH[d] for d in decree)
    return (f"圣意：本回合皇上看重{dims}。在乾清宫送膳的人中，每一项最高者好感 +{fmt(MEAL_GRACE)}；"
            f"哪一项都不居首为落空，气血 −{fmt(MEAL_EMPTY_HP)}")


NO_R_MAIDS = "你名下没有良品（R）宫女，本局无牌可出 · 宫女由司礼赏赐"
"""Seed C①: "若一张 R 卡都没，则本局无牌可出" — the deck is her R 宫女 alone, and the 司礼 grants them."""


def _refused(mode: Mode, copy: str, voided: bool) -> tuple[CardRefusal, ...]:
    """The mode's actions `check_cards_fit` would refuse this card with, by the same rule (`card_misfit`);
    for a voided seat, every action (check_move: no card may be played with her 待机 either)."""
    out = []
    for action in (a for a in ActionType if a in mode.actions):
        why = voided_reason(mode) if voided else card_misfit(copy, action)
        if why is not None:
            out.append(CardRefusal(type=action, reason=why))
    return tuple(out)


def _hand(mode: Mode, p: Player) -> HandView | None:
    if p.deck is None:
        return None
    cards = []
    for copy in p.deck.hand:
        c = copy_card(copy)
        level = p.maids.get(c.id, 1)
        needs = ACTION_OF_EFFECT.get(c.effect)
        unusable = None if needs is None or needs in mode.actions else f"此玩法没有{ACTION_ZH[needs]}：此牌只能弃"
        cards.append(CardView(copy_id=copy, card=c.id, maid=c.maid, skill=c.skill, slot=c.slot, level=level,
                              effect=c.effect, amount=c.magnitude(level), text=c.text, text_now=c.text_at(level),
                              unusable=unusable, refused=_refused(mode, copy, p.voided)))
    frozen = tuple(FrozenView(copy_id=f.card, skill=copy_card(f.card).skill, back_in_round=f.back_in_round)
                   for f in p.deck.frozen)
    empty = None if cards else NO_R_MAIDS if not p.maids else "手中无牌"
    return HandView(seat=p.seat, hand=tuple(cards), frozen=frozen, pile=len(p.deck.pile), empty=empty)


def _chances(mode: Mode, p: Player) -> dict[Attack, int]:
    """What each attack would hit with this round: B's 宫女 always act, so they are in; C and D's
    cards come on top of these only if she plays them."""
    if mode.maids is MaidUse.PASSIVE:
        return {a: player_chance(mode, p, a, passive_mods(p.maids, ActionType(a.value))) for a in Attack}
    return {a: player_chance(mode, p, a) for a in Attack}


def _private(mode: Mode, p: Player, state: State) -> SeatPrivate:
    maids = tuple(
        MaidView(card=cid, maid=CATALOGUE[cid].maid, skill=CATALOGUE[cid].skill, slot=CATALOGUE[cid].slot,
                 effect=CATALOGUE[cid].effect, level=level, amount=CATALOGUE[cid].magnitude(level),
                 text=CATALOGUE[cid].text, text_now=CATALOGUE[cid].text_at(level))
        for cid, level in sorted(p.maids.items())
    )
    heal = heal_amount(p.hp, p.hp_max, p.heal_streak, mode.rule(p.place).heal)
    return SeatPrivate(
        seat=p.seat, voided=p.voided, voided_reason=voided_reason(mode) if p.voided else None, heal_streak=p.heal_streak, heal_now=points(heal),
        chances=_chances(mode, p), maids=maids, hand=_hand(mode, p),
        options=options_for(mode, state, p.seat) if p.alive else (),
    )


def _scores(mode: Mode, state: State) -> tuple[ScoreView, ...]:
    return tuple(
        ScoreView(seat=p.seat, place=p.placement, score=score(mode, state, p), kills=p.stats.kills,
                  hp_damage=points(p.stats.hp_damage), grace_damage=points(p.stats.grace_damage),
                  taken=points(p.stats.taken),
                  clear_bonus=clear_bonus(state.cleared, state.round) if mode.foes is Foes.BOSSES else None)
        for p in state.players
    )


def build_view(mode: Mode, state: State, viewer: Viewer) -> ShengongView:
    """Project the state for `viewer` (player: her own secrets; spectator: public; host: all)."""
    you = None
    if viewer.role is ViewerRole.PLAYER and viewer.seat is not None and 0 <= viewer.seat < len(state.players):
        you = _private(mode, state.players[viewer.seat], state)
    decree = () if state.over else state.decree
    return ShengongView(
        mode=mode.key, title=mode.title, stage=state.stage,
        stage_title=bosses.STAGE_TITLES[state.stage] if state.stage else None, round=state.round,
        round_limit=mode.round_limit, turn_seconds=state.turn_seconds, over=state.over, reason=state.reason,
        cleared=state.cleared, decree=decree, decree_zh="、".join(DIM_ZH[d] for d in decree),
        decree_text=_decree_text(decree),
        actions=tuple(a for a in ActionType if a in mode.actions),
        places=tuple(_place(mode, place) for place in mode.places),
        players=tuple(_player(p, mode) for p in state.players),
        opponents=tuple(_opponent(o) for o in state.opponents), you=you,
        private=tuple(_private(mode, p, state) for p in state.players) if viewer.is_host else None,
        scores=_scores(mode, state) if state.over else None,
    )
