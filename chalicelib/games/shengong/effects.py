"""How 宫女 act: passively in 玩法B, as played cards in 玩法C and D, not at all in 玩法A.

Every effect is a magnitude (percentage points for 命中, tenths otherwise) × the 宫女's level (seed
⑥ 效果一律 ×宫女等级). What the resolver does with each `Effect`:

* *_HIT: + to that attack's chance (before the 95% cap). *_DAMAGE: + to every victim of that attack
  (a 养生 victim of 下毒 takes half of the total; 暗杀 on 养生 stays −1).
* GUARD_HP / GUARD_GRACE: off this round's 气血 / 好感 damage from others (after 待机's −1), not below 0.
* AFTER_HEAL: + 气血 once the round has landed, only if she still stands.
* PALACE_HP / PALACE_GRACE: everyone at her place (snapshot, herself included).
* MEAL_GRACE: + 好感 once, when her 送膳 tops at least one 圣意 dimension.

玩法B (DECISIONS #9): every R 宫女 she owns, each once at her level, every round; an attack effect only
with that attack, MEAL_GRACE only with 送膳. 玩法C/D: only the cards she plays; an attack or 送膳
card must fit her move (checked when she submits), defence and general cards go with any move.
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import lru_cache

from chalicelib.core.errors import IllegalAction
from chalicelib.games.shengong.cards import ACTION_OF_EFFECT, CATALOGUE, Effect
from chalicelib.games.shengong.deck import CardPlay, copy_card
from chalicelib.games.shengong.terms import ACTION_ZH, ActionType

Mods = dict[Effect, int]


@lru_cache(maxsize=4096)
def _passive(items: tuple[tuple[str, int], ...]) -> tuple[tuple[Effect, int], ...]:
    total: dict[Effect, int] = {}
    for cid, level in items:
        c = CATALOGUE.get(cid)
        if c is not None and c.in_deck:
            total[c.effect] = total.get(c.effect, 0) + c.magnitude(level)
    return tuple(sorted(total.items()))


def passive_mods(maids: Mapping[str, int], action: ActionType | None) -> Mods:
    """玩法B: the sum of her R 宫女's effects that act with `action` (None: her move is voided, so
    only the effects that need no move act)."""
    out: Mods = {}
    for effect, magnitude in _passive(tuple(sorted(maids.items()))):
        need = ACTION_OF_EFFECT.get(effect)
        if need is None or need is action:
            out[effect] = magnitude
    return out


def card_mods(maids: Mapping[str, int], play: CardPlay) -> Mods:
    """玩法C/D: the effects of the played cards (discards do nothing)."""
    out: Mods = {}
    for copy in play.used():
        c = copy_card(copy)
        out[c.effect] = out.get(c.effect, 0) + c.magnitude(maids.get(c.id, 1))
    return out


def card_misfit(copy: str, action: ActionType) -> str | None:
    """Why this card may not be played with `action` (it would do nothing with it), or None: the one
    rule behind both `check_cards_fit` at 落子 and her hand's `refused` while she composes."""
    c = copy_card(copy)
    need = ACTION_OF_EFFECT.get(c.effect)
    if need is not None and need is not action:
        return f"「{c.skill}」只对{ACTION_ZH[need]}生效（可以弃掉）"
    return None


def check_cards_fit(play: CardPlay, action: ActionType) -> None:
    """Every played attack or 送膳 card must act with `action`; any card may be discarded.

    Raises:
        IllegalAction: CARD_NO_EFFECT when a card would do nothing with this move.
    """
    for copy in play.used():
        why = card_misfit(copy, action)
        if why is not None:
            raise IllegalAction(why, code="CARD_NO_EFFECT")
