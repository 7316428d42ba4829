"""What a seat may do this round, and why not: the buttons her phone shows, greyed with the reason.

The app holds no rules: for each action of the mode the server tries the move with every target
(an opponent in D, a place in A/B/C) or destination, through the same `check_move` the room runs on
a sealed move, and tells her which are open and, for the closed ones, the first refusal in the
player's words. Cards are left out (any legal move may add them; a wrong card is refused on sending)."""

from __future__ import annotations

from functools import cache

from pydantic import BaseModel, ConfigDict

from chalicelib.core.errors import DomainError
from chalicelib.games.shengong.actions import Action, action_adapter
from chalicelib.games.shengong.cards import HIT_EFFECT
from chalicelib.games.shengong.check import VOIDED_EFFECT, check_move, shut_words
from chalicelib.games.shengong.deck import copy_card
from chalicelib.games.shengong.formulas import player_chance
from chalicelib.games.shengong.guide import action_effects
from chalicelib.games.shengong.modes import MODES, Foes, MaidUse, Mode
from chalicelib.games.shengong.numbers import MEAL_ABSENT_GRACE, fmt
from chalicelib.games.shengong.state import Opponent, Player, State
from chalicelib.games.shengong.terms import ACTION_ZH, ActionType, Attack, ModeKey, Place

_FROZEN = ConfigDict(frozen=True, extra="forbid")
_ATTACKS = {ActionType.POISON: Attack.POISON, ActionType.ASSASSINATE: Attack.ASSASSINATE,
            ActionType.FRAME: Attack.FRAME}


class ShutPlace(BaseModel):
    """A place 移动 may not go to now, and why (the refusal she would get: 准入 with her own value)."""

    model_config = _FROZEN

    place: Place
    reason: str
    short: str = ""
    """The same in a tile's few words (「好感 5＜6」), for the map."""


class CardChance(BaseModel):
    """Her chance with one attack card of her hand played on this attack (寻医问药 on 下毒)."""

    model_config = _FROZEN

    copy_id: str
    chances: tuple[int, ...]
    """D: one per `targets` of the option, in order; A/B/C: one, at her place."""


class ActionOption(BaseModel):
    """One button: the action, whether she may seal it now, and with which targets or places."""

    model_config = _FROZEN

    type: ActionType
    label: str
    """The button's Chinese name (下毒, 暗杀, 诬告, 送膳, 养生, 待机, 移动, 驻留)."""
    allowed: bool
    reason: str | None = None
    """Why not (the refusal she would get on sending), when not allowed."""
    code: str | None = None
    targets: tuple[int, ...] = ()
    """D: the opponents (by index) she may aim at."""
    chances: tuple[int, ...] = ()
    """D attacks: her chance against each of `targets`, in order, with that opponent's defence taken off
    (石露's 诬告防守), before cards."""
    places: tuple[Place, ...] = ()
    """A/B/C: the places she may attack, or (移动) go to."""
    warning: str | None = None
    """Allowed, but at a cost she should see first (送膳 away from 乾清宫: 失仪)."""
    shut: tuple[ShutPlace, ...] = ()
    """移动: the places she may not go to, each with its reason."""
    effect: str = ""
    """What the action does, one line as the 玩法 page says it: the chosen button tells a newcomer (待机 and
    继续驻留 look alike until read)."""
    card_chances: tuple[CardChance, ...] = ()
    """C/D attacks: the chance with each card in her hand that raises it, as the round settles it
    (capped, then an opponent's defence off): the button shows the figure of the move she composes."""


def _try(mode: Mode, state: State, seat: int, raw: dict[str, object]) -> DomainError | None:
    action: Action = action_adapter.validate_python(raw)
    try:
        check_move(mode, state, seat, action)
    except DomainError as e:
        return e
    return None


def _option(mode: Mode, state: State, seat: int, kind: ActionType) -> ActionOption:
    label = ACTION_ZH[kind]
    if kind in _ATTACKS and mode.foes is Foes.BOSSES:
        tries = {o.index: _try(mode, state, seat, {"type": kind, "target": o.index}) for o in state.opponents}
        ok = tuple(i for i, err in tries.items() if err is None)
        first = next((err for err in tries.values() if err is not None), None)
        foes = {o.index: o for o in state.opponents}
        chances = tuple(player_chance(mode, state.players[seat], _ATTACKS[kind], target=foes[i]) for i in ok)
        with_cards = _card_chances(mode, state.players[seat], _ATTACKS[kind], tuple(foes[i] for i in ok))
        return ActionOption(type=kind, label=label, allowed=bool(ok), targets=ok, chances=chances,
                            card_chances=with_cards,
                            reason=None if ok or first is None else first.message, code=None if ok or first is None else first.code)
    if kind in _ATTACKS or kind is ActionType.MOVE:
        candidates = mode.targets.get(_ATTACKS[kind], frozenset()) if kind in _ATTACKS else mode.places
        tries_p = {p: _try(mode, state, seat, {"type": kind, "place": p}) for p in sorted(candidates)}
        okp = tuple(p for p, err in tries_p.items() if err is None)
        firstp = next((err for err in tries_p.values() if err is not None), None)
        shut = tuple(ShutPlace(place=p, reason=err.message, short=shut_words(mode, state.players[seat], p, err))
                     for p, err in tries_p.items() if err is not None and kind is ActionType.MOVE)
        with_cards = _card_chances(mode, state.players[seat], _ATTACKS[kind], (None,)) if kind in _ATTACKS else ()
        return ActionOption(type=kind, label=label, allowed=bool(okp), places=okp, shut=shut, card_chances=with_cards,
                            reason=None if okp or firstp is None else firstp.message,
                            code=None if okp or firstp is None else firstp.code)
    err = _try(mode, state, seat, {"type": kind})
    warning = None
    if kind is ActionType.MEAL and err is None and state.players[seat].place is not Place.HALL:
        # seed: 送膳须身处乾清宫，不在而送＝失仪 — allowed (a bluff, or a slip), but never unawares
        warning = f"不在乾清宫，送膳即失仪：好感 −{fmt(MEAL_ABSENT_GRACE)}"
    return ActionOption(type=kind, label=label, allowed=err is None, warning=warning,
                        reason=err.message if err else None, code=err.code if err else None)


def _card_chances(mode: Mode, player: Player, attack: Attack,
                  targets: tuple[Opponent | None, ...]) -> tuple[CardChance, ...]:
    """Each card of her hand that adds to `attack`'s chance, with the chance it gives against each target."""
    if mode.maids is not MaidUse.HAND or player.deck is None:
        return ()
    out = []
    for copy in player.deck.hand:
        card = copy_card(copy)
        if card.effect is not HIT_EFFECT[attack]:
            continue
        mods = {card.effect: card.magnitude(player.maids.get(card.id, 1))}
        out.append(CardChance(copy_id=copy, chances=tuple(player_chance(mode, player, attack, mods, target=t)
                                                          for t in targets)))
    return tuple(out)


def options_for(mode: Mode, state: State, seat: int) -> tuple[ActionOption, ...]:
    """Every action of the mode for this seat, in the table's order, open or greyed with the reason."""
    if state.over:
        return ()
    effects = _effects(mode.key)
    if 0 <= seat < len(state.players) and state.players[seat].voided:
        effects = {ActionType.IDLE: VOIDED_EFFECT}  # her one move is the void: none of 待机's bonuses
    return tuple(_option(mode, state, seat, kind).model_copy(update={"effect": effects.get(kind, "")})
                 for kind in ActionType if kind in mode.actions)


@cache
def _effects(key: ModeKey) -> dict[ActionType, str]:
    return action_effects(MODES[key])
