"""Scoring of one deal (DECISIONS 保皇 #5) and the "result is certain" test that ends a deal early.

Places score +2 +1 0 −1 −2. Emperor and guard against three: T = emperor's + guard's place points;
the emperor gets 2T, the guard T, each commoner −T. Hidden solo (暗独保): emperor first +12 (others
−3), second 0, lower −12 (others +3). Open solo (明独保, also after 抢独): emperor first +24 (others
−6), otherwise −24 (others +6). Multipliers multiply: 明保 ×2; a successful 造反 (at least one rebel
and the commoners' side scores > 0) ×2.
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import permutations

from chalicelib.games.baohuang.model import SEATS, Deal, Solo, next_seat

PLACE_POINTS = (2, 1, 0, -1, -2)
HIDDEN_SOLO = 12
OPEN_SOLO = 24


def score(
    places: Sequence[int],
    emperor: int,
    guard: int | None,
    solo: Solo,
    open_guard: bool = False,
    rebels: Sequence[int] = (),
) -> tuple[tuple[int, ...], int]:
    """Scores by seat and the multiplier applied, for seats finishing in `places` order.

    Args:
        places: the five seats, first place first.
        emperor: the emperor's seat.
        guard: the guard's seat (ignored for a solo).
        solo: none / hidden / open.
        open_guard: 明保 was declared.
        rebels: seats that declared 造反.
    """
    place_of = {seat: i for i, seat in enumerate(places)}
    base = [0] * SEATS
    if solo is Solo.NONE:
        if guard is None:
            raise ValueError("a deal without solo needs a guard")
        t = PLACE_POINTS[place_of[emperor]] + PLACE_POINTS[place_of[guard]]
        for seat in range(SEATS):
            base[seat] = -t
        base[emperor], base[guard] = 2 * t, t
    else:
        stake = HIDDEN_SOLO if solo is Solo.HIDDEN else OPEN_SOLO
        place = place_of[emperor]
        if place == 0:
            emperor_score = stake
        elif place == 1 and solo is Solo.HIDDEN:
            emperor_score = 0
        else:
            emperor_score = -stake
        for seat in range(SEATS):
            base[seat] = -emperor_score // 4
        base[emperor] = emperor_score
    commoner = next(seat for seat in range(SEATS) if seat != emperor and seat != guard)
    multiplier = 2 ** len(doublings(solo, open_guard, rebels, commoners_won=base[commoner] > 0))
    return tuple(points * multiplier for points in base), multiplier


def doublings(solo: Solo, open_guard: bool, rebels: Sequence[int], *, commoners_won: bool) -> tuple[str, ...]:
    """Why a deal's score is doubled, each reason once more: 明保 (not in a solo), and 造反成功 — seed:
    "造反成功后输赢的分数加倍"."""
    return (*(("明保",) if open_guard and solo is Solo.NONE else ()),
            *(("造反成功",) if rebels and commoners_won else ()))


PLACE_NAMES = ("头游", "二游", "三游", "四游", "末游")
"""Places as players say them (the report lines, the rules card, the score's basis, the app's table)."""


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else f"−{-n}" if n < 0 else "0"


def basis(places: Sequence[int], emperor: int, guard: int | None, solo: Solo) -> str:
    """How the places made the deal's score, before any doubling, for the score sheet under its verdict:
    the emperor 四游 and the guard 头游 win it for the emperor's side ("皇帝四游 −1，侍卫头游 +2，合计 +1"),
    which no screen should have to work out (and a player reading 「皇帝方胜」 beside 「四游」 asks)."""
    place_of = {seat: i for i, seat in enumerate(places)}
    e = place_of[emperor]
    if solo is Solo.NONE:
        if guard is None:
            raise ValueError("a deal without solo needs a guard")
        g = place_of[guard]
        t = PLACE_POINTS[e] + PLACE_POINTS[g]
        return (f"皇帝{PLACE_NAMES[e]} {_signed(PLACE_POINTS[e])}，侍卫{PLACE_NAMES[g]} {_signed(PLACE_POINTS[g])}，"
                f"合计 {_signed(t)}")
    # a solo's stake as `score` pays it (no 造反 or 明保 here: the basis is before any doubling)
    stake = score(places, emperor, None, solo)[0][emperor]
    kind = "暗独保" if solo is Solo.HIDDEN else "明独保"
    return f"{kind}，皇帝{PLACE_NAMES[e]}：{_signed(stake) if stake else '不输不赢'}"


def deal_score(deal: Deal, places: Sequence[int]) -> tuple[tuple[int, ...], int]:
    """`score` with the roles of a running deal."""
    if deal.emperor is None:
        raise ValueError("no emperor yet")
    return score(places, deal.emperor, deal.guard, deal.solo, deal.open_guard, deal.rebels)


def certain_places(deal: Deal) -> tuple[int, ...] | None:
    """Final places if every order of the seats still holding cards gives the same scores, else None.

    DECISIONS 保皇 #5: "A deal ends as soon as the result is certain." The seats still holding cards
    take the remaining places by fewest cards left, ties in play order from the seat to act.
    """
    remaining = [seat for seat in range(SEATS) if seat not in deal.out]
    if len(remaining) > 1:
        outcomes = {deal_score(deal, deal.out + perm)[0] for perm in permutations(remaining)}
        if len(outcomes) > 1:
            return None
    start = deal.turn if deal.turn is not None else 0
    order = {}
    seat = start
    for i in range(SEATS):
        order[seat] = i
        seat = next_seat(seat)
    remaining.sort(key=lambda s: (len(deal.hands[s]), order[s]))
    return deal.out + tuple(remaining)
