"""Cards of 保皇: the two packs, the JSON card codes and rank values.

A card code is suit + rank + "#" + deck copy, e.g. ``"S10#2"`` (♠10 of the second pack), ``"HA#1"``,
``"DQ#4"``. Suits are ``S`` ♠, ``H`` ♥, ``C`` ♣, ``D`` ♦; ranks ``3``…``10``, ``J``, ``Q``, ``K``,
``A``, ``2``; copies ``#1``…``#4``. Jokers are ``"BJ#1"``…``"BJ#4"`` (big joker, 大王) and
``"LJ#1"``…``"LJ#4"`` (little joker, 小王; not "SJ", which is ♠J). Two jokers carry marks: ``BJ#1``
is the 皇 card (权杖), ``LJ#1`` the 侍卫 card (宝剑; it names the guard in simple mode only). A *face* is a code without the copy (``"HA"``): the unit the emperor
calls in classic mode, four copies of each face exist.

Rank values order the cards for play: 3…10 are 3…10, J 11, Q 12, K 13, A 14, 2 15, 小王 16, 大王 17.
Suits never matter in play (DECISIONS 保皇 #1/#2: the marked jokers are plain jokers).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum


class Variant(StrEnum):
    SIMPLE = "simple"
    """简明玩法: 168 cards, four packs without 3, 4, 5; the 侍卫 card names the guard."""
    CLASSIC = "classic"
    """经典玩法: 216 cards, four full packs; the emperor calls a card to name the guard."""


SUITS = ("S", "H", "C", "D")
RANK_LABELS = {3: "3", 4: "4", 5: "5", 6: "6", 7: "7", 8: "8", 9: "9", 10: "10",
               11: "J", 12: "Q", 13: "K", 14: "A", 15: "2"}
LABEL_RANK = {label: value for value, label in RANK_LABELS.items()}
SMALL = 16
"""Value of a 小王."""
BIG = 17
"""Value of a 大王."""
SIX = 6
COPIES = 4
HUANG = "BJ#1"
"""The 皇 card: its holder is first offered the throne."""
SHIWEI = "LJ#1"
"""The 侍卫 card: in simple mode its holder is the emperor's guard."""


def lowest_rank(variant: Variant) -> int:
    """Lowest natural rank in play: 6 in simple mode, 3 in classic."""
    return 6 if variant is Variant.SIMPLE else 3


def _build() -> tuple[dict[str, tuple[int, int, str]], dict[Variant, tuple[str, ...]]]:
    info: dict[str, tuple[int, int, str]] = {}
    packs: dict[Variant, list[str]] = {Variant.SIMPLE: [], Variant.CLASSIC: []}
    for copy in range(1, COPIES + 1):
        for value in range(3, 16):
            for suit_index, suit in enumerate(SUITS):
                face = suit + RANK_LABELS[value]
                code = f"{face}#{copy}"
                info[code] = (value, suit_index, face)
                packs[Variant.CLASSIC].append(code)
                if value >= 6:
                    packs[Variant.SIMPLE].append(code)
        for value, name in ((SMALL, "LJ"), (BIG, "BJ")):
            code = f"{name}#{copy}"
            info[code] = (value, 4, name)
            packs[Variant.CLASSIC].append(code)
            packs[Variant.SIMPLE].append(code)
    return info, {variant: tuple(cards) for variant, cards in packs.items()}


_INFO, _PACKS = _build()
_SORT_KEY = {code: (value, suit, int(code.rsplit("#", 1)[1])) for code, (value, suit, _) in _INFO.items()}
VALUE: dict[str, int] = {code: value for code, (value, _, _) in _INFO.items()}
"""Rank value of every card code (both packs)."""
FACE: dict[str, str] = {code: face for code, (_, _, face) in _INFO.items()}
"""Face (suit + rank, no copy) of every card code; jokers map to "LJ"/"BJ"."""
FACES = frozenset(face for code, face in FACE.items() if VALUE[code] < SMALL)
"""Every callable face (jokers are not callable)."""


def pack(variant: Variant) -> tuple[str, ...]:
    """All card codes of one mode: 168 (simple) or 216 (classic)."""
    return _PACKS[variant]


def is_card(code: str, variant: Variant) -> bool:
    """True if `code` is a card of this mode's pack."""
    value = VALUE.get(code)
    return value is not None and value >= lowest_rank(variant)


def sort_cards(cards: Iterable[str]) -> tuple[str, ...]:
    """Cards in ascending play order (rank, then suit ♠♥♣♦, then copy)."""
    return tuple(sorted(cards, key=_SORT_KEY.__getitem__))


def counts(cards: Iterable[str]) -> list[int]:
    """Card counts indexed by rank value (length 18: index 16 = 小王, 17 = 大王)."""
    tally = [0] * 18
    value = VALUE
    for code in cards:
        tally[value[code]] += 1
    return tally


def face_counts(cards: Iterable[str]) -> dict[str, int]:
    """How many copies of each non-joker face a hand holds."""
    tally: dict[str, int] = {}
    for code in cards:
        if VALUE[code] < SMALL:
            face = FACE[code]
            tally[face] = tally.get(face, 0) + 1
    return tally


def joker_count(cards: Sequence[str]) -> int:
    return sum(1 for code in cards if VALUE[code] >= SMALL)


SUIT_SYMBOLS = {"S": "♠", "H": "♥", "C": "♣", "D": "♦"}


def face_label(face: str) -> str:
    """A face as players write it: "HA" → "♥A"; "LJ" → "小王", "BJ" → "大王"."""
    if face == "LJ":
        return "小王"
    if face == "BJ":
        return "大王"
    return SUIT_SYMBOLS[face[0]] + face[1:]


def card_label(code: str) -> str:
    """A card as players write it: "S10#2" → "♠10", "BJ#1" → "大王"."""
    return face_label(FACE[code])


def cards_label(cards: Iterable[str]) -> str:
    """Cards for a report line, low to high: "♠7 ♥7 大王"."""
    return " ".join(card_label(code) for code in sort_cards(cards))


def label(value: int) -> str:
    """Short Chinese-table label of a rank value (for messages): 2…A, 小王, 大王."""
    if value == SMALL:
        return "小王"
    if value == BIG:
        return "大王"
    return RANK_LABELS[value]
