"""Submission checks for one sealed order (`check`), in a fixed order: seat alive → voided →
target allowed for the action → entry threshold (移动) → cards (玩法C only)."""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction, NotYourTurn
from chalicelib.games.shengong.deck import Deck, check_play
from chalicelib.games.shengong.melee.actions import ZH, Action
from chalicelib.games.shengong.melee.cards_effects import check_cards_fit
from chalicelib.games.shengong.melee.places import (
    ASSASSINATE_TARGETS,
    ENTRY,
    FRAME_TARGETS,
    POISON_TARGETS,
    fmt,
)
from chalicelib.games.shengong.melee.state import MeleeState, Mode

_TARGETS = {"poison": POISON_TARGETS, "assassinate": ASSASSINATE_TARGETS, "frame": FRAME_TARGETS}
_STAT_ZH = {"hp": "气血", "grace": "好感"}

EMPTY_DECK = Deck()


def check_order(state: MeleeState, seat: int, action: Action) -> None:
    """Raise unless `seat` may seal `action` this round.

    Entry thresholds are judged on her values at the start of the round (what she sees when she
    submits; nothing changes before the settlement).

    Raises:
        NotYourTurn: ELIMINATED / NOT_SEATED.
        IllegalAction: ACTION_VOIDED, BAD_TARGET, ALREADY_THERE, ENTRY_THRESHOLD,
            CARDS_NOT_ALLOWED, CARD_* (deck.check_play), CARD_NO_EFFECT.
    """
    if not 0 <= seat < len(state.players):
        raise NotYourTurn("你不在本局", code="NOT_SEATED")
    p = state.players[seat]
    if not p.alive:
        raise NotYourTurn("你已出局", code="ELIMINATED")
    kind = action.type
    cards = action.cards
    if p.voided and (kind != "idle" or cards.used()):
        raise IllegalAction("你本回合的行动已被暗杀作废，只能待机（无加成），可弃牌", code="ACTION_VOIDED")
    place = getattr(action, "place", None)
    allowed = _TARGETS.get(kind)
    if allowed is not None and place not in allowed:
        raise IllegalAction(f"{ZH[kind]}不能以{place}为目标", code="BAD_TARGET")
    if kind == "move":
        if place == p.place:
            raise IllegalAction("你已在此处；留在原地请选「继续驻留」", code="ALREADY_THERE")
        need = ENTRY.get(place)
        if need is not None:
            stat, minimum = need
            if getattr(p, stat) < minimum:
                raise IllegalAction(
                    f"{place} 须{_STAT_ZH[stat]}≥{fmt(minimum)}方可进入", code="ENTRY_THRESHOLD"
                )
    if state.mode is not Mode.C:
        if not cards.empty:
            raise IllegalAction("本玩法不能出牌", code="CARDS_NOT_ALLOWED")
        return
    check_play(p.deck or EMPTY_DECK, cards)
    check_cards_fit(cards, kind)
