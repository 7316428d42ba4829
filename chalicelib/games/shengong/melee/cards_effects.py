"""How 宫女 act in the place-based game: passively in 玩法B, as played cards in 玩法C.

Every card effect is a magnitude (percent for 命中, tenths otherwise) × the 宫女's level (seed ⑥).
Effects, as applied by resolve.py:

* POISON_HIT / ASSASSINATE_HIT / FRAME_HIT: + percentage points to that attack's hit chance.
* POISON_DAMAGE / ASSASSINATE_DAMAGE / FRAME_DAMAGE: + tenths to every victim of that attack
  (a 养生 victim of 下毒 still takes half of the total; 暗杀 on a 养生 victim stays −1).
* GUARD_HP / GUARD_FAVOR: this round's 气血 / 好感 damage from others is reduced by the magnitude.
* AFTER_HEAL: +气血 after the round lands, only if she survived it.
* PALACE_HP / PALACE_FAVOR: everyone at her place (herself included, snapshot) gains the magnitude.
* MEAL_FAVOR: + 好感 once, when her 送膳 earns favour this round.

玩法B (DECISIONS #9): all her R 宫女 act every round at their level, each maid once (not per copy);
an attack effect counts only when her action is that attack, MEAL_FAVOR only for 送膳.
玩法C: only the cards she plays this round act; an attack or 送膳 card must match her action
(checked at submission), defence and general cards go with any action.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from chalicelib.core.errors import IllegalAction
from chalicelib.games.shengong.cards import ACTION_OF_EFFECT, CATALOGUE, Effect
from chalicelib.games.shengong.deck import CardPlay, copy_card
from chalicelib.games.shengong.melee.actions import ZH

Mods = dict[Effect, int]

@lru_cache(maxsize=4096)
def _passive(items: tuple[tuple[str, int], ...]) -> tuple[tuple[Effect, int], ...]:
    total: dict[Effect, int] = {}
    for cid, level in items:
        c = CATALOGUE.get(cid)
        if c is None or not c.in_deck:
            continue
        total[c.effect] = total.get(c.effect, 0) + c.magnitude(level)
    return tuple(sorted(total.items()))


def passive_mods(maids: Mapping[str, int], action: str) -> Mods:
    """玩法B: the sum of all her R 宫女's effects that apply to `action`."""
    out: Mods = {}
    for effect, mag in _passive(tuple(sorted(maids.items()))):
        need = ACTION_OF_EFFECT.get(effect)
        if need is None or need == action:
            out[effect] = mag
    return out


def card_mods(maids: Mapping[str, int], play: CardPlay) -> Mods:
    """玩法C: the effects of the played cards (discards do nothing)."""
    out: Mods = {}
    for copy in play.used():
        c = copy_card(copy)
        out[c.effect] = out.get(c.effect, 0) + c.magnitude(maids.get(c.id, 1))
    return out


def check_cards_fit(play: CardPlay, action: str) -> None:
    """Raise unless every played attack / 送膳 card acts with `action`.

    Raises:
        IllegalAction: CARD_NO_EFFECT when a card would do nothing with this action.
    """
    for copy in play.used():
        c = copy_card(copy)
        need = ACTION_OF_EFFECT.get(c.effect)
        if need is not None and need != action:
            raise IllegalAction(f"「{c.skill}」只对{ZH[need]}生效", code="CARD_NO_EFFECT")
