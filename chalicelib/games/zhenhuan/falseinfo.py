"""False-information help: when the acting player is poisoned or drunk, the storyteller sees the true
answer and one suggested plausible false answer, legal for the role and consistent with what that
player was told before. The draw is seeded by the night's `salt` (drawn from the transition's Rng
whenever the current step changes and stored in the state), so a replay gives the same suggestion.
"""

from __future__ import annotations

from collections.abc import Sequence

from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.board import Board
from chalicelib.games.zhenhuan.enums import StepKey
from chalicelib.games.zhenhuan.events import InfoEvent, SeatRole
from chalicelib.games.zhenhuan.roles import GOOD_ROLES, YURAO, RoleKey


def _rng(b: Board) -> Rng:
    return Rng.from_int(b.night.salt)


def told_before(b: Board, seat: int, step: StepKey) -> list[InfoEvent]:
    return [e for e in b.state.log if isinstance(e, InfoEvent) and e.seat == seat and e.step is step]


def fake_demon(b: Board, actor: int) -> int:
    """瑾汐姑姑: a seat to answer as if she were the demon, consistent with every earlier answer
    (each earlier pair said "yes" exactly when it held this seat); a non-demon when one fits."""
    past = [(set(e.targets), bool(e.value)) for e in told_before(b, actor, StepKey.JINXI) if len(e.targets) == 2]
    seats = b.present()
    fits = [d for d in seats if all((d in pair) == said for pair, said in past)]
    # a living player other than herself, when one fits: a dead or self "demon" would betray the lie
    plausible = [d for d in fits if not b.is_demon(d) and d != actor and b.alive(d)]
    pool = (plausible or [d for d in fits if not b.is_demon(d)] or fits
            or [d for d in seats if not b.is_demon(d)] or seats)
    return _rng(b).choice(pool)


def other_number(b: Board, truth: int, lo: int, hi: int) -> int:
    """A different number in [lo, hi] (the truth itself only when nothing else fits)."""
    pool = [n for n in range(lo, hi + 1) if n != truth]
    return _rng(b).choice(pool) if pool else truth


def other_seats(b: Board, truth: Sequence[int], pool: Sequence[int]) -> tuple[int, ...]:
    """As many seats as the truth names, drawn from `pool`, not the same set when another exists."""
    size = len(truth)
    if size == 0 or size > len(pool):
        return tuple(sorted(truth))
    rng = _rng(b)
    for _ in range(8):
        pick = tuple(sorted(rng.sample(pool, size)))
        if set(pick) != set(truth):
            return pick
    return tuple(sorted(truth))


_NAMEABLE = tuple(r for r in GOOD_ROLES if r != YURAO)
"""Roles are unique: told another player is 玉娆, she would know at once the answer is false."""


def fake_good_role(b: Board) -> RoleKey:
    """The good role 玉娆's false answer names (described before the target is picked)."""
    return _rng(b).choice(_NAMEABLE)


def wrong_good_role(b: Board, seat: int) -> SeatRole:
    """玉娆: the chosen player shown as a good role she does not hold (the described one, or the next)."""
    fake = fake_good_role(b)
    if fake == b.seat(seat).role:
        fake = _NAMEABLE[(_NAMEABLE.index(fake) + 1) % len(_NAMEABLE)]
    return SeatRole(seat=seat, role=fake)
