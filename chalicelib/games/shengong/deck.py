"""A player's 宫女 deck in 玩法C and 玩法D: pile, hand and frozen cards (seed 玩法C ①–④).

① 牌库＝你名下已有的 R 卡宫女…每位宫女计 2 张 — a deck holds two copies of each R maid she owns.
② 开局发 5 张；每轮结算后补满 5 张 — deal 5 at start, refill to 5 after each settlement.
③ 最多用三张：1 张进攻牌 ＋ 1 张防守牌 ＋ 1 张通用牌…也可弃牌（每轮最多 2 张）.
④ 用过的牌冻结 3 轮——本轮用过，接下来 3 轮不会再出现；弃掉的牌不冻结，立刻回到牌库.

A copy is named "<card id>#<1|2>" so the two copies of one maid stay distinguishable. Draws are
random from the pile (the pile is kept sorted; the rng picks). The invariant: hand + pile + frozen
is always exactly the deck built at the start.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from pydantic import BaseModel, ConfigDict, Field

from chalicelib.core.errors import IllegalAction
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.cards import CATALOGUE, MaidCard, Slot
from chalicelib.games.shengong.profile import MaidHolding

HAND_SIZE = 5
COPIES_PER_MAID = 2
FROZEN_ROUNDS = 3
MAX_DISCARDS = 2


def copy_card(copy: str) -> MaidCard:
    """The catalogue card of a copy name like "xunyi#2"."""
    return CATALOGUE[copy.split("#", 1)[0]]


def deck_levels(holdings: Iterable[MaidHolding]) -> dict[str, int]:
    """card id -> level for the R maids that enter a deck (highest level if held twice)."""
    levels: dict[str, int] = {}
    for h in holdings:
        c = CATALOGUE.get(h.card)
        if c is not None and c.in_deck:
            levels[h.card] = max(levels.get(h.card, 0), h.level)
    return levels


def build_deck(levels: Mapping[str, int]) -> tuple[str, ...]:
    """All copies of a deck, sorted."""
    return tuple(sorted(f"{cid}#{n}" for cid in levels for n in range(1, COPIES_PER_MAID + 1)))


class FrozenCard(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    card: str
    back_in_round: int
    """First round in which the copy may be dealt again."""


class Deck(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    hand: tuple[str, ...] = ()
    pile: tuple[str, ...] = ()
    frozen: tuple[FrozenCard, ...] = ()

    def all_copies(self) -> tuple[str, ...]:
        return tuple(sorted((*self.hand, *self.pile, *(f.card for f in self.frozen))))


class CardPlay(BaseModel):
    """The cards submitted with one action (seed ③: one per slot, up to two discards)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    attack: str | None = None
    defence: str | None = None
    general: str | None = None
    discard: tuple[str, ...] = Field(default=(), max_length=MAX_DISCARDS)

    def used(self) -> tuple[str, ...]:
        return tuple(c for c in (self.attack, self.defence, self.general) if c is not None)

    @property
    def empty(self) -> bool:
        return not self.used() and not self.discard


def _draw(hand: tuple[str, ...], pile: tuple[str, ...], rng: Rng) -> tuple[tuple[str, ...], tuple[str, ...]]:
    hand_l, pile_l = list(hand), list(pile)
    while len(hand_l) < HAND_SIZE and pile_l:
        hand_l.append(pile_l.pop(rng.below(len(pile_l))))
    return tuple(hand_l), tuple(pile_l)


def deal(copies: Iterable[str], rng: Rng) -> Deck:
    """Seed ②: 开局发 5 张."""
    hand, pile = _draw((), tuple(sorted(copies)), rng)
    return Deck(hand=hand, pile=pile)


def check_play(deck: Deck, play: CardPlay) -> None:
    """Raise IllegalAction unless `play` is allowed from this hand (seed ③ and ⑤).

    Raises:
        IllegalAction: a card not in hand, used twice, in the wrong slot, or too many discards.
    """
    chosen = (*play.used(), *play.discard)
    if len(set(chosen)) != len(chosen):
        raise IllegalAction("同一张牌不能用两次", code="CARD_REUSED")
    missing = [c for c in chosen if c not in deck.hand]
    if missing:
        raise IllegalAction(f"手中没有这张牌：{missing[0]}", code="CARD_NOT_IN_HAND")
    for slot, copy in ((Slot.ATTACK, play.attack), (Slot.DEFENCE, play.defence), (Slot.GENERAL, play.general)):
        if copy is not None and copy_card(copy).slot is not slot:
            raise IllegalAction(f"{copy_card(copy).skill} 不能放在这个位置（各归各位）", code="CARD_WRONG_SLOT")


def spend(deck: Deck, play: CardPlay, round_no: int) -> Deck:
    """Apply a checked play after round `round_no` settles: used cards freeze, discards go back.

    Seed ④: a card used in round r does not appear in rounds r+1..r+3; it is back for r+4.
    """
    check_play(deck, play)
    used, discarded = set(play.used()), set(play.discard)
    hand = tuple(c for c in deck.hand if c not in used and c not in discarded)
    frozen = deck.frozen + tuple(
        FrozenCard(card=c, back_in_round=round_no + FROZEN_ROUNDS + 1) for c in sorted(used)
    )
    return Deck(hand=hand, pile=tuple(sorted((*deck.pile, *discarded))), frozen=frozen)


def refill(deck: Deck, next_round: int, rng: Rng) -> Deck:
    """Seed ②: 每轮结算后补满 5 张 — thaw what is due for `next_round`, then draw to 5."""
    thawed = tuple(f.card for f in deck.frozen if f.back_in_round <= next_round)
    still = tuple(f for f in deck.frozen if f.back_in_round > next_round)
    hand, pile = _draw(deck.hand, tuple(sorted((*deck.pile, *thawed))), rng)
    return Deck(hand=hand, pile=pile, frozen=still)
