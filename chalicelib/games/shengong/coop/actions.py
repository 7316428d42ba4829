"""The sealed move of one seat for one round, and its check.

JSON forms (a discriminated union on `type`; `cards` may be omitted):
    {"type": "poison", "target": 0, "cards": {"attack": "xunyi#1", "discard": ["tieshen#2"]}}
    {"type": "assassinate"}                 (no target: the first living opponent, seed D④)
    {"type": "frame", "target": 0}
    {"type": "heal"}   {"type": "idle"}   {"type": "move", "place": "御膳房"}
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from chalicelib.core.errors import GameOver, IllegalAction
from chalicelib.core.game import Actor, ViewerRole
from chalicelib.games.shengong.cards import ACTION_OF_EFFECT
from chalicelib.games.shengong.coop.state import Attack, CoopState, OpponentState, Place
from chalicelib.games.shengong.deck import CardPlay, check_play, copy_card

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class _Move(BaseModel):
    model_config = _FROZEN

    cards: CardPlay = CardPlay()


class Poison(_Move):
    """下毒: −2 气血 (+1 at 御膳房) on one opponent; costs her 0.5 好感."""

    type: Literal["poison"] = "poison"
    target: int | None = None


class Assassinate(_Move):
    """暗杀: −3 气血 on one opponent; costs her 0.5 好感."""

    type: Literal["assassinate"] = "assassinate"
    target: int | None = None


class Frame(_Move):
    """诬告: −2 好感 (+1 at 摘星楼) on one opponent that has 好感; costs her 1 气血."""

    type: Literal["frame"] = "frame"
    target: int | None = None


class Heal(_Move):
    """养生."""

    type: Literal["heal"] = "heal"


class Idle(_Move):
    """待机 (also what a living seat that did not submit does)."""

    type: Literal["idle"] = "idle"


class Move(_Move):
    """移动: leave now, be at `place` from the next round on."""

    type: Literal["move"] = "move"
    place: Place


Action = Annotated[Poison | Assassinate | Frame | Heal | Idle | Move, Field(discriminator="type")]
action_adapter: TypeAdapter[Action] = TypeAdapter(Action)

AttackMove = Poison | Assassinate | Frame

ACTION_ZH: dict[str, str] = {
    "poison": "下毒", "assassinate": "暗杀", "frame": "诬告", "heal": "养生", "idle": "待机", "move": "移动",
}


def attack_of(action: Action) -> Attack | None:
    """The Attack an action makes, or None for 养生/待机/移动."""
    if isinstance(action, Poison):
        return Attack.POISON
    if isinstance(action, Assassinate):
        return Attack.ASSASSINATE
    if isinstance(action, Frame):
        return Attack.FRAME
    return None


def _can_take(o: OpponentState, attack: Attack) -> bool:
    return o.alive and (attack is not Attack.FRAME or o.favor is not None)


def resolve_target(state: CoopState, action: AttackMove) -> OpponentState:
    """The opponent an attack hits: the named one, or the first living one (seed D④ 不选则打存活中的第一个).

    For 诬告 without a target, the first living opponent that has 好感.

    Raises:
        IllegalAction: BAD_TARGET (no such opponent), TARGET_DOWN, NO_FAVOR (诬告 on a 随从
            without 好感), NO_TARGET (nobody left to hit).
    """
    attack = attack_of(action)
    assert attack is not None
    if action.target is None:
        for o in state.opponents:
            if _can_take(o, attack):
                return o
        what = "可诬告的对手（随从没有好感）" if attack is Attack.FRAME else "还站着的对手"
        raise IllegalAction(f"没有{what}", code="NO_TARGET")
    if not 0 <= action.target < len(state.opponents):
        raise IllegalAction(f"没有第 {action.target + 1} 位对手", code="BAD_TARGET")
    o = state.opponents[action.target]
    if not o.alive:
        raise IllegalAction(f"{o.name} 已经倒下", code="TARGET_DOWN")
    if attack is Attack.FRAME and o.favor is None:
        raise IllegalAction(f"{o.name} 没有好感，诬告无从下手", code="NO_FAVOR")
    return o


def check_move(state: CoopState, seat: int, action: Action) -> None:
    """Everything `check` asks of a living seat's move (target, place, cards).

    Raises:
        IllegalAction: see `resolve_target`; SAME_PLACE (移动 to where she stands); and the card
            codes of `deck.check_play` (CARD_NOT_IN_HAND, CARD_WRONG_SLOT, CARD_REUSED) and
            CARD_NO_EFFECT (`check_cards_fit`).
    """
    player = state.players[seat]
    if isinstance(action, Poison | Assassinate | Frame):
        resolve_target(state, action)
    if isinstance(action, Move) and action.place is player.place:
        raise IllegalAction(f"你已身在{player.place.value}，留下即可（不必移动）", code="SAME_PLACE")
    check_play(player.deck, action.cards)
    check_cards_fit(action)


def check_cards_fit(action: Action) -> None:
    """A played attack card must match her attack; 「御厨妙手」 (送膳) can never be played in D.
    Defence and general cards go with any action; any card may be discarded.

    Raises:
        IllegalAction: CARD_NO_EFFECT.
    """
    for copy in action.cards.used():
        c = copy_card(copy)
        need = ACTION_OF_EFFECT.get(c.effect)
        if need == "meal":
            raise IllegalAction(f"「{c.skill}」只对送膳生效，宫斗杀没有送膳（可以弃掉）", code="CARD_NO_EFFECT")
        if need is not None and need != action.type:
            raise IllegalAction(f"「{c.skill}」只对{ACTION_ZH[need]}生效", code="CARD_NO_EFFECT")


def check(state: CoopState, actor: Actor, action: Action) -> None:
    """Validate a sealed move before the room stores it.

    Raises:
        GameOver: the game has ended.
        IllegalAction: NOT_A_PLAYER (only seated players move), NO_SUCH_SEAT, SEAT_DOWN, or any
            code of `check_move`.
    """
    if state.over:
        raise GameOver()
    if actor.role is not ViewerRole.PLAYER or actor.seat is None:
        raise IllegalAction("只有入局的妃子才能落子", code="NOT_A_PLAYER")
    if not 0 <= actor.seat < len(state.players):
        raise IllegalAction("没有这个席位", code="NO_SUCH_SEAT")
    if not state.players[actor.seat].alive:
        raise IllegalAction("你已倒下，本局不能再落子", code="SEAT_DOWN")
    check_move(state, actor.seat, action)
