"""Plays of 保皇: classification, comparison and legal-move generation on rank counts.

A play (combo) is the tuple ``(rank, n, small, big)``: ``n`` natural cards of one rank (``rank`` = 0
when ``n`` = 0) plus ``small`` 小王 and ``big`` 大王. Plain tuples keep generation fast; a hand is
read as its rank counts (`cards.counts`, index 16 = 小王, 17 = 大王).

Comparison is DECISIONS 保皇 #1: sort both plays, same size, every card strictly higher than its
counterpart; jokers keep their own value (大王 > 小王 > 2 > A …). In closed form (checked against
the element-wise rule in the tests)::

    c beats p  ⇔  |c| = |p|  ∧  p.big = 0  ∧  c.big ≥ p.small  ∧  (c.n = 0 ∨ p.n = 0 ∨ c.rank > p.rank)

Generators return plays cheapest first: fewer 大王, then fewer 小王, then lower rank, then (for
leads) the whole group of a rank before a part of it; joker-only plays come after the naturals with
the same jokers. 保六 (`baoliu`): a hand holding sixes may play them only as its last play, all of
them at once and without jokers; until then no play may contain a 6.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from enum import StrEnum

from chalicelib.games.baohuang.cards import BIG, SIX, SMALL, VALUE, label, sort_cards

Combo = tuple[int, int, int, int]
"""(rank, n, small, big): n naturals of `rank` plus jokers; rank is 0 when n is 0."""


def size(combo: Combo) -> int:
    return combo[1] + combo[2] + combo[3]


def classify(cards: Iterable[str]) -> Combo | None:
    """The play these cards form, or None (two natural ranks, or no card at all)."""
    rank = n = small = big = 0
    for code in cards:
        value = VALUE[code]
        if value == SMALL:
            small += 1
        elif value == BIG:
            big += 1
        elif rank == 0 or rank == value:
            rank = value
            n += 1
        else:
            return None
    if n + small + big == 0:
        return None
    return (rank, n, small, big)


def values(combo: Combo) -> list[int]:
    """The sorted card values of a play, e.g. (7, 2, 0, 1) → [7, 7, 17]."""
    rank, n, small, big = combo
    return [rank] * n + [SMALL] * small + [BIG] * big


def beats(new: Combo, old: Combo) -> bool:
    """True if `new` may follow `old` (closed form of DECISIONS 保皇 #1)."""
    return (
        new[1] + new[2] + new[3] == old[1] + old[2] + old[3]
        and old[3] == 0
        and new[3] >= old[2]
        and (new[1] == 0 or old[1] == 0 or new[0] > old[0])
    )


def beats_elementwise(new: Combo, old: Combo) -> bool:
    """DECISIONS 保皇 #1 verbatim: same count, each sorted card strictly higher. Reference for tests."""
    a, b = values(new), values(old)
    return len(a) == len(b) and all(x > y for x, y in zip(a, b, strict=True))


def unbeatable(combo: Combo) -> bool:
    """A play holding a 大王 can never be beaten (its 大王 would need something higher)."""
    return combo[3] > 0


def describe(combo: Combo) -> str:
    """Chinese description for messages, e.g. "7×2+大王×1"."""
    rank, n, small, big = combo
    parts = [f"{label(rank)}×{n}"] if n else []
    if small:
        parts.append(f"小王×{small}")
    if big:
        parts.append(f"大王×{big}")
    return "+".join(parts)


def _sixes_only(cnt: Sequence[int], lo: int) -> bool:
    return cnt[SMALL] == 0 and cnt[BIG] == 0 and sum(cnt[lo:SMALL]) == cnt[SIX]


def leads(cnt: Sequence[int], lo: int, baoliu: bool = False) -> list[Combo]:
    """Every distinct play this hand may lead, cheapest first.

    Args:
        cnt: rank counts of the hand (`cards.counts`).
        lo: lowest natural rank of the mode (6 simple, 3 classic).
        baoliu: 保六 is on.
    """
    if baoliu and cnt[SIX]:
        if _sixes_only(cnt, lo):
            return [(SIX, cnt[SIX], 0, 0)]
        naturals = [(r, n) for r in range(lo, SMALL) if r != SIX for n in range(cnt[r], 0, -1)]
    else:
        naturals = [(r, n) for r in range(lo, SMALL) for n in range(cnt[r], 0, -1)]
    out: list[Combo] = []
    for big in range(cnt[BIG] + 1):
        for small in range(cnt[SMALL] + 1):
            out += [(r, n, small, big) for r, n in naturals]
            if small or big:
                out.append((0, 0, small, big))
    return out


def follows(cnt: Sequence[int], lo: int, prev: Combo, baoliu: bool = False) -> list[Combo]:
    """Every distinct play this hand may put on `prev`, cheapest first (empty: must pass)."""
    p_rank, p_n, p_small, p_big = prev
    if p_big:
        return []
    k = p_n + p_small
    small_have, big_have = cnt[SMALL], cnt[BIG]
    start = max(lo, p_rank + 1) if p_n else SMALL
    lock = baoliu and cnt[SIX] > 0
    out: list[Combo] = []
    for big in range(p_small, min(big_have, k) + 1):
        for small in range(min(small_have, k - big) + 1):
            n = k - big - small
            if n == 0:
                out.append((0, 0, small, big))
                continue
            out += [(r, n, small, big) for r in range(start, SMALL) if cnt[r] >= n]
    if lock:
        final = _sixes_only(cnt, lo) and cnt[SIX] == k
        out = [c for c in out if c[0] != SIX or final]
    return out


def legal(cnt: Sequence[int], lo: int, prev: Combo | None, baoliu: bool = False) -> list[Combo]:
    """Leads when `prev` is None, else follows."""
    return leads(cnt, lo, baoliu) if prev is None else follows(cnt, lo, prev, baoliu)


class Refusal(StrEnum):
    """Why a well-formed set may not be played now."""

    WRONG_SIZE = "wrong_size"
    """A follow must have as many cards as the play on the table."""
    DOES_NOT_BEAT = "does_not_beat"
    """Some card is not higher than its counterpart in the play on the table."""
    BAOLIU_SIXES_LAST = "baoliu_sixes_last"
    """保六: sixes only as the last play, all together, without jokers."""


def allowed(cnt: Sequence[int], lo: int, combo: Combo, prev: Combo | None, baoliu: bool) -> Refusal | None:
    """Why `combo` (taken from a hand with counts `cnt`) may not be played now, or None if it may."""
    if prev is not None:
        if size(combo) != size(prev):
            return Refusal.WRONG_SIZE
        if not beats(combo, prev):
            return Refusal.DOES_NOT_BEAT
    if baoliu and combo[0] == SIX and not (_sixes_only(cnt, lo) and combo[1] == cnt[SIX]):
        return Refusal.BAOLIU_SIXES_LAST
    return None


def pick(hand: Sequence[str], combo: Combo, keep: frozenset[str] = frozenset()) -> tuple[str, ...]:
    """Concrete cards of `hand` for `combo`; cards in `keep` (marked cards) are used only if needed."""
    rank, n, small, big = combo
    want = {SMALL: small, BIG: big}
    if n:
        want[rank] = n
    chosen: list[str] = []
    later: list[str] = []
    for code in hand:
        value = VALUE[code]
        if want.get(value, 0) > 0:
            if code in keep:
                later.append(code)
                continue
            chosen.append(code)
            want[value] -= 1
    for code in later:
        value = VALUE[code]
        if want[value] > 0:
            chosen.append(code)
            want[value] -= 1
    if any(want.values()):
        raise ValueError(f"hand cannot make {combo}")
    return sort_cards(chosen)
