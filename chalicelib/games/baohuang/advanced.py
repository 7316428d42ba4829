"""The ADVANCED (进阶) bot: a heuristic player that weighs the position, from its seat's view only.

* Sides: what her seat may know (`view.partners`, her role, the emperor, a revealed guard, 造反
  marks); a seat she cannot place counts as a partner with the odds the public facts give.
* Throne and declarations by hand strength (`strength`): take the throne with a fair hand, pass a
  weak one; 独保 / 明独保 / 抢独 only with a very strong hand; the guard declares 明保 and a
  commoner 造反 when their hand is strong (造反 doubles only a win, so it needs less).
* Following: never over a known partner (unless the play empties her hand: going out helps her
  side); over an opponent with the play that costs least (jokers, 2s and broken groups cost most),
  and only if it is worth it: jokers come out when an opponent is close to going out or when she
  can finish soon herself.
* Leading: go out at once if she can; near the end lead a group with a 大王 (unbeatable) to keep the
  lead; otherwise get rid of her weakest whole group, one an opponent about to go out cannot follow.

Randomness (a little jitter on the throne and declaration thresholds) comes from the `rng` the
platform gives, so a seeded game plays the same.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from chalicelib.core.rng import Rng
from chalicelib.games.baohuang.actions import (
    Action,
    Declare,
    GrabSolo,
    NextDeal,
    Pass,
    PassThrone,
    Play,
    StayHidden,
    TakeThrone,
)
from chalicelib.games.baohuang.cards import (
    BIG,
    COPIES,
    FACE,
    HUANG,
    SHIWEI,
    SMALL,
    VALUE,
    Variant,
    counts,
    face_counts,
    lowest_rank,
)
from chalicelib.games.baohuang.combos import Combo, classify, follows, leads, pick, size
from chalicelib.games.baohuang.model import SEATS, Act, Phase, Role, Solo
from chalicelib.games.baohuang.views import BaohuangView

TAKE_AT = 0.0
"""Take the throne (with a partner) at this strength or more."""
SOLO_AT = 3.0
"""暗独保 (and 抢独) at this strength or more."""
OPEN_SOLO_AT = 4.0
"""明独保 at this strength or more."""
DECLARE_GUARD_AT = 1.0
"""明保 at this strength or more."""
REBEL_AT = 0.0
"""造反 at this strength or more."""
JITTER = 0.5
"""Thresholds move by up to ± this (seeded)."""
BUDGET_OPPONENT = 10.0
"""Following over an opponent: the most a play may cost (`cost`) in a quiet position."""
BUDGET_UNSURE = 2.0
"""Following over a seat that may be a partner: only this cheap."""
BUDGET_DANGER = 15.0
"""Added when an opponent holds 3 cards or fewer: jokers come out."""
BUDGET_CHASE = 8.0
"""Added when the opponent holding the trick has 6 cards or fewer."""
BUDGET_FINISH = 4.0
"""Added when the play would leave her 6 cards or fewer."""


def strength(hand: Sequence[str], lo: int) -> float:
    """How well a hand controls the tricks, about 0 for an average hand of either mode.

    Jokers and 2s win leads back; every group of low cards must be led and costs a lead. The
    expected count of each is subtracted so that both modes centre on 0.
    """
    cnt = counts(hand)
    control = 1.2 * cnt[BIG] + 0.8 * cnt[SMALL] + 0.35 * cnt[15] + 0.15 * cnt[14]
    low_groups = sum(1 for r in range(lo, 11) if cnt[r])
    mid_groups = sum(1 for r in range(11, 14) if cnt[r])
    burden = 0.5 * low_groups + 0.25 * mid_groups
    ranks = 15 - lo + 1
    share = len(hand) / (4 * COPIES * ranks + 2 * COPIES)  # her share of each kind of card
    expected_control = share * (1.2 * 4 + 0.8 * 4 + 0.35 * 16 + 0.15 * 16)
    expected_burden = 0.5 * (11 - lo) + 0.25 * 3  # nearly every rank shows up in a hand
    return (control - expected_control) - (burden - expected_burden)


def _jitter(rng: Rng) -> float:
    return (rng.random() * 2 - 1) * JITTER


# -- throne and declarations ------------------------------------------------------------------


def throne_choice(view: BaohuangView, rng: Rng) -> TakeThrone | PassThrone:
    """Take the throne with a fair hand (with a partner), alone only with a very strong one."""
    s = strength(view.hand, lowest_rank(view.variant)) + _jitter(rng)
    if view.variant is Variant.SIMPLE:
        if SHIWEI in view.hand:
            # taking is 独保; passing makes her the next emperor's guard
            if s >= OPEN_SOLO_AT:
                return TakeThrone(open_solo=True)
            return TakeThrone() if s >= SOLO_AT else PassThrone()
        second_round = view.throne_offers >= SEATS
        return TakeThrone() if s >= TAKE_AT - (1.0 if second_round else 0.0) else PassThrone()
    copies = face_counts(view.hand)
    triples = [f for f in view.callable if copies[f] == 3]
    quads = [f for f in view.callable if copies[f] == 4]
    if s >= OPEN_SOLO_AT:
        return TakeThrone(open_solo=True)
    if quads and s >= SOLO_AT:
        return TakeThrone(call=quads[0])
    # must_take only ever comes with a triple to call (throne.bound_to_take)
    if triples and (view.must_take or s >= TAKE_AT):
        return TakeThrone(call=triples[0])
    return PassThrone()


def declaration(view: BaohuangView, rng: Rng) -> StayHidden | Declare | GrabSolo:
    """抢独 with a very strong hand; 明保 (×2 win or lose) with a strong one; 造反 (×2 only if the
    commoners win) with a fair one."""
    s = strength(view.hand, lowest_rank(view.variant)) + _jitter(rng)
    if view.can_grab and s >= SOLO_AT:
        return GrabSolo()
    if view.my_role is Role.GUARD:
        return Declare() if s >= DECLARE_GUARD_AT else StayHidden()
    return Declare() if s >= REBEL_AT else StayHidden()


# -- tricks -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Seen:
    """The play phase as her view shows it, digested."""

    me: int
    hand: tuple[str, ...]
    cnt: list[int]
    lo: int
    baoliu: bool
    left: tuple[int, ...]
    """Cards in each hand."""
    partner: tuple[float, ...]
    """For each seat, how sure she is that it is on her side (1 known partner, 0 known opponent)."""
    big_out: int
    """大王 neither played nor in her hand."""
    keep: frozenset[str]
    """Her marked cards (played last when another copy will do)."""

    def opponents(self) -> list[int]:
        return [s for s in range(SEATS) if s != self.me and self.left[s] and self.partner[s] < 0.5]

    def danger(self) -> int:
        """Fewest cards an opponent still holding cards has (99 when none)."""
        return min((self.left[s] for s in self.opponents()), default=99)


def sides(view: BaohuangView) -> tuple[float, ...]:
    """For each seat, the chance it is on her side, from what her seat knows."""
    me = view.seat
    assert me is not None
    out = [0.0] * SEATS
    out[me] = 1.0
    known = set(view.partners)
    emperor = view.emperor
    rebels = set(view.rebels)
    others = [s for s in range(SEATS) if s != me]
    for s in known:
        out[s] = 1.0
    if view.my_role is Role.GUARD or emperor is None:
        return tuple(out)
    if view.my_role is Role.EMPEROR:
        if view.solo is not Solo.NONE or view.guard is not None:
            return tuple(out)  # alone, or the guard is known (and in `partners`)
        unknown = [s for s in others if s not in rebels]
        for s in unknown:
            out[s] = 1.0 / len(unknown)  # one of them is her guard
        return tuple(out)
    # a commoner: the emperor is against her; a revealed guard too; the rest are split by the odds
    if view.guard_revealed:
        return tuple(out)
    unknown = [s for s in others if s != emperor and s not in known]
    friends_left = max(0, 2 - len(known))  # two other commoners, one guard among the rest
    for s in unknown:
        out[s] = friends_left / len(unknown)
    return tuple(out)


def seen(view: BaohuangView) -> Seen:
    """Digest her view for the play phase (she counts the 大王 already played from the public log)."""
    me = view.seat
    assert me is not None
    hand = view.hand
    played_big = sum(1 for entry in view.log if entry.act is Act.PLAY for c in entry.cards if VALUE[c] == BIG)
    cnt = counts(hand)
    keep = {HUANG, SHIWEI} | {c for c in hand if view.called is not None and FACE[c] == view.called}
    return Seen(
        me=me, hand=hand, cnt=cnt, lo=lowest_rank(view.variant), baoliu=view.baoliu,
        left=tuple(s.cards for s in view.seats), partner=sides(view),
        big_out=COPIES - played_big - cnt[BIG], keep=frozenset(keep),
    )


def cost(c: Combo, t: Seen) -> float:
    """What a play gives up: jokers (a 大王 above a quiet position's budget, a 小王 within it), top
    ranks, and groups broken apart."""
    rank, n, small, big = c
    value = 12.0 * big + (6.0 if t.big_out else 4.0) * small
    if n:
        value += {15: 4.0, 14: 2.5, 13: 1.5}.get(rank, 0.1 * (rank - t.lo))
        rest = t.cnt[rank] - n
        if rest:
            value += 2.0 + 0.5 * rest
    return value


def _play(t: Seen, c: Combo) -> Play:
    return Play(cards=pick(t.hand, c, t.keep))


def follow(t: Seen, prev: Combo, holder: int) -> Play | Pass:
    """Go out if one play empties her hand (over a partner too: going out helps her side); else beat
    the trick if it is worth what the cheapest beating play costs, never over a known partner."""
    options = follows(t.cnt, t.lo, prev, t.baoliu)
    if not options:
        return Pass()
    everything = [c for c in options if size(c) == len(t.hand)]
    if everything:
        return _play(t, everything[0])
    p = t.partner[holder]
    if p >= 0.99:
        return Pass()
    best = min(options, key=lambda c: cost(c, t))
    budget = BUDGET_OPPONENT if p < 0.5 else BUDGET_UNSURE
    danger = t.danger()
    if danger <= 3:
        budget += BUDGET_DANGER
    elif p < 0.5 and t.left[holder] <= 6:
        budget += BUDGET_CHASE
    if len(t.hand) - size(best) <= 6:
        budget += BUDGET_FINISH
    return _play(t, best) if cost(best, t) <= budget else Pass()


def lead(t: Seen) -> Play:
    """Out at once if she can; a group with a 大王 near the end; else her weakest whole group."""
    options = leads(t.cnt, t.lo, t.baoliu)
    everything = [c for c in options if size(c) == len(t.hand)]
    if everything:
        return _play(t, everything[0])
    ranks = [r for r in range(t.lo, SMALL) if t.cnt[r]]
    whole = [c for c in options if c[1] and c[1] == t.cnt[c[0]] and not c[2]]
    # near the end: a weak group with a 大王 cannot be beaten and keeps the lead
    if t.cnt[BIG] and 2 <= len(ranks) <= t.cnt[BIG] + 1:
        crowned = [c for c in whole if c[3] == 1]
        if crowned:
            return _play(t, crowned[0])
    plain = [c for c in whole if not c[3]]
    if not plain:
        return _play(t, options[0])
    danger = t.danger()
    if danger <= 3:
        safe = [c for c in plain if size(c) > danger]
        return _play(t, safe[0] if safe else plain[-1])
    return _play(t, plain[0])


def play_choice(view: BaohuangView) -> Play | Pass:
    """Her move in the trick on the table (she is to act)."""
    t = seen(view)
    trick = view.trick
    if trick is None:
        return lead(t)
    prev = classify(trick.cards)
    assert prev is not None
    return follow(t, prev, trick.seat)


def advanced_action(view: BaohuangView, seat: int, rng: Rng) -> Action | None:
    """The ADVANCED bot's move for `seat`, or None when it has nothing to do now."""
    match view.phase:
        case Phase.THRONE:
            return throne_choice(view, rng) if view.candidate == seat else None
        case Phase.DECLARE:
            return None if seat == view.emperor else declaration(view, rng)
        case Phase.PLAY:
            return play_choice(view) if view.turn == seat else None
        case Phase.BETWEEN:
            return None if view.seats[seat].ready else NextDeal()
        case Phase.OVER:
            return None
