"""What each seat may know about the deal's sides (who is with whom), from public facts and her own
role only. Views show it (`my_role`, `guard`, `solo`, `partners`); 托管 and bots act on it.

* The guard always knows her partner: the emperor.
* The emperor knows her guard once the guard is revealed; alone (独保) she has no partner.
* A commoner knows her partners once the partnership is public (guard revealed, or the solo known),
  and, before that, every seat that declared 造反 (only commoners can: a guard declaring is 明保).
"""

from __future__ import annotations

from chalicelib.games.baohuang.model import SEATS, Deal, Role, Solo


def role_of(deal: Deal, seat: int) -> Role | None:
    """`seat`'s role once the emperor is fixed (None before)."""
    if deal.emperor is None:
        return None
    if seat == deal.emperor:
        return Role.EMPEROR
    return Role.GUARD if seat == deal.guard else Role.COMMONER


def guard_holder(deal: Deal) -> int | None:
    """Who holds the guard card: the guard, or the emperor herself in a solo."""
    return deal.guard if deal.guard is not None else deal.emperor


def known_partners(deal: Deal, seat: int) -> frozenset[int]:
    """The seats `seat` knows to be on her side."""
    emperor = deal.emperor
    if emperor is None:
        return frozenset()
    others = frozenset(s for s in range(SEATS) if s != emperor and s != seat)
    if deal.solo is not Solo.NONE:
        if seat == emperor:
            return frozenset()
        return others if deal.revealed else others & frozenset(deal.rebels)
    if seat == deal.guard:
        return frozenset({emperor})
    if seat == emperor:
        return frozenset({deal.guard}) if deal.revealed and deal.guard is not None else frozenset()
    if deal.revealed:
        return others - {deal.guard}
    return others & frozenset(deal.rebels)
