"""The damage ledger of one round: what will land on every unit, and who it came from.

Seed 「同时结算」: damage and healing are noted here during the round and land all at once at the
end. Each hit is noted per source (a seat's move, a seat's place passive, an opponent), so that
guards (待机 −1, defence cards) come off the total and the rest is shared among the sources in
proportion (for stats and kill credit, DECISIONS #7).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from chalicelib.games.shengong.terms import Bar, Side

Ref = tuple[Side, int]
"""A unit: (PLAYER, seat) or (OPPONENT, index)."""


class Via(StrEnum):
    ACTION = "action"
    """Her move (an attack)."""
    PASSIVE = "passive"
    """Her place's passive (A/B/C 御膳房, 摘星楼)."""


Source = tuple[Ref, Via]


@dataclass(slots=True)
class Book:
    """One unit's page for the round (tenths)."""

    hits: dict[Bar, dict[Source, int]] = field(default_factory=lambda: {Bar.HP: {}, Bar.GRACE: {}})
    own: dict[Bar, int] = field(default_factory=lambda: {Bar.HP: 0, Bar.GRACE: 0})
    """From her own move: costs (−), 养生 / 待机 / 送膳 gains (+)."""
    bonus: dict[Bar, int] = field(default_factory=lambda: {Bar.HP: 0, Bar.GRACE: 0})
    """From elsewhere: 同宫 shares, palace cards, the daily 好感, her place's toll."""
    guard: dict[Bar, int] = field(default_factory=lambda: {Bar.HP: 0, Bar.GRACE: 0})
    after_heal: int = 0
    """战后回血, if she still stands once everything has landed."""


def split_net(gross: Mapping[Source, int], net: int) -> dict[Source, int]:
    """Share a victim's net damage among its sources in proportion to their gross damage.

    Floors first, then the leftover tenths go to the largest remainders (then larger gross, then
    the lower source), so the shares always add up to `net` exactly.
    """
    total = sum(gross.values())
    if net >= total:
        return dict(gross)
    if net <= 0:
        return {k: 0 for k in gross}
    shares = {k: g * net // total for k, g in gross.items()}
    left = net - sum(shares.values())
    for k in sorted(gross, key=lambda k: (-(gross[k] * net % total), -gross[k], k))[:left]:
        shares[k] += 1
    return shares


class Ledger:
    """Every unit's Book for one round, and the netting at the end."""

    def __init__(self, units: list[Ref]) -> None:
        self.books: dict[Ref, Book] = {u: Book() for u in units}

    def hit(self, victim: Ref, source: Source, bar: Bar, amount: int) -> None:
        page = self.books[victim].hits[bar]
        page[source] = page.get(source, 0) + amount

    def own(self, unit: Ref, bar: Bar, amount: int) -> None:
        self.books[unit].own[bar] += amount

    def bonus(self, unit: Ref, bar: Bar, amount: int) -> None:
        self.books[unit].bonus[bar] += amount

    def guard(self, unit: Ref, bar: Bar, amount: int) -> None:
        self.books[unit].guard[bar] += amount

    def net(self, unit: Ref, bar: Bar) -> dict[Source, int]:
        """What lands on `unit` from each source: the round's total minus her guard, not below 0."""
        book = self.books[unit]
        gross = book.hits[bar]
        return split_net(gross, sum(gross.values()) - book.guard[bar])

    def gross(self, unit: Ref, bar: Bar) -> int:
        return sum(self.books[unit].hits[bar].values())


def credit(book: Book, nets: Mapping[Bar, Mapping[Source, int]], fatal: tuple[Bar, ...]) -> tuple[Ref, ...]:
    """DECISIONS #7 击败: among the sources of the fatal kind of damage this round (both summed if
    both bars fell) whose blows landed, the one that dealt the most; ties credit each; nobody when no
    other unit's damage of that kind landed (her own costs credit nobody).

    "Dealt" is compared before her guard came off (`book.hits`): the guard is shared out in whole
    tenths, and a leftover tenth going to one of two equal blows must not make the other's kill hers."""
    landed: set[Ref] = set()
    dealt: dict[Ref, int] = {}
    for bar in fatal:
        for (unit, via), n in nets[bar].items():
            landed |= {unit} if n > 0 else set()
            dealt[unit] = dealt.get(unit, 0) + book.hits[bar].get((unit, via), 0)
    most = max((n for u, n in dealt.items() if u in landed), default=0)
    return tuple(sorted(u for u, n in dealt.items() if u in landed and n == most)) if most > 0 else ()
