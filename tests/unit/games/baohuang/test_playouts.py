"""Seeded random playouts of whole tables in both modes, checked at every step.

Invariants: cards are conserved (168 / 216), every play is legal by an independent referee (the
element-wise rule of DECISIONS 保皇 #1, tracked from the events), every finished deal's scores sum
to zero (a quit: −30), totals are the sum of the results, and no view or report ever shows a seat
another seat's cards, the hidden guard, or a hidden solo.

By default a short run (50 simple and 100 classic deals) keeps the suite fast; `SOAK_FULL=1` plays
the full soak (1000 simple, 2000 classic), which must also have met every rare case (redeals, open
solos, 抢独); `SOAK_DEALS` sets any count for both modes. Views and reports are checked at every step
of the first `SOAK_VIEW_DEALS` deals (default 2, full 20) and at every `SOAK_VIEW_EVERY`-th step after
that (default 97, full 31). Run as a module (`python -m tests.unit.games.baohuang.test_playouts`) to
print the counters.
"""

from __future__ import annotations

import os
import re
from collections import Counter

import pytest

from chalicelib.core.game import PendingKind, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.baohuang.actions import (
    Declare,
    GrabSolo,
    Leave,
    NextDeal,
    Pass,
    PassThrone,
    Play,
    Quit,
    Resume,
    StayHidden,
    TakeThrone,
)
from chalicelib.games.baohuang.cards import SHIWEI, Variant, pack
from chalicelib.games.baohuang.combos import beats_elementwise, classify, pick
from chalicelib.games.baohuang.game import GAME
from chalicelib.games.baohuang.lines import line_adapter
from chalicelib.games.baohuang.model import BaohuangDealResult, BaohuangState, Options, Phase, Solo
from chalicelib.games.baohuang.play import legal_plays, marked
from chalicelib.games.baohuang.throne import callable_faces, forced

from .helpers import ENTRANTS

FULL = os.environ.get("SOAK_FULL") == "1"
DEALS = {Variant.SIMPLE: 1000 if FULL else 50, Variant.CLASSIC: 2000 if FULL else 100}
if "SOAK_DEALS" in os.environ:
    DEALS = dict.fromkeys(Variant, int(os.environ["SOAK_DEALS"]))
VIEW_DEALS = int(os.environ.get("SOAK_VIEW_DEALS", "20" if FULL else "2"))
VIEW_EVERY = int(os.environ.get("SOAK_VIEW_EVERY", "31" if FULL else "97"))
DEALS_PER_TABLE = 12
CODE = re.compile(r'"([A-Z0-9]{2,3}#[1-4])"')


def throne_move(state: BaohuangState, seat: int, r: Rng, reluctance: float):
    hand = state.deal.hands[seat]
    if not forced(state) and r.chance(reluctance):
        return PassThrone()
    if state.options.variant is Variant.SIMPLE:
        return TakeThrone(open_solo=SHIWEI in hand and r.chance(0.3))
    triples, quads = callable_faces(hand)
    faces = triples + quads
    if faces and not r.chance(0.04):
        return TakeThrone(call=r.choice(faces))
    return TakeThrone(open_solo=True) if (forced(state) or r.chance(0.2)) else PassThrone()


def sealed_moves(state: BaohuangState, seats, r: Rng):
    moves = {}
    for seat in sorted(seats):
        roll = r.random()
        if GAME.view(state, Viewer.player(seat)).can_grab and roll < 0.5:
            moves[seat] = GrabSolo()
        elif roll < 0.15:
            moves[seat] = Declare()
        elif roll < 0.6:
            moves[seat] = StayHidden()
        else:
            continue  # not submitted: 不声明
        GAME.check(state, Viewer.player(seat), moves[seat])
    return moves


def play_move(state: BaohuangState, seat: int, r: Rng):
    deal = state.deal
    options = legal_plays(state, seat)
    if deal.trick is not None and (not options or r.chance(0.3)):
        return Pass()
    combo = options[min(int(r.random() ** 3 * len(options)), len(options) - 1)]
    keep = marked(deal) if r.chance(0.5) else frozenset()
    return Play(cards=pick(deal.hands[seat], combo, keep))


class Referee:
    """Follows the events with nothing but the element-wise rule and the card pack."""

    def __init__(self) -> None:
        self.top = None

    def see(self, events) -> None:
        for event in events:
            if event.kind == "played":
                combo = classify(event.cards)
                assert combo is not None, event
                assert self.top is None or beats_elementwise(combo, self.top), (event, self.top)
                self.top = combo
            elif event.kind in ("trick_won", "deal_started", "deal_ended"):
                self.top = None


def check_conservation(state: BaohuangState, full: bool) -> None:
    deal = state.deal
    if deal is None:
        return
    played = [code for entry in deal.log if entry.act == "play" for code in entry.cards]
    held = [code for hand in deal.hands for code in hand]
    assert len(played) + len(held) == len(pack(state.options.variant))
    assert all(not deal.hands[s] for s in deal.out)
    if full:
        assert sorted(played + held) == sorted(pack(state.options.variant))


def check_secrets(state: BaohuangState, events) -> None:
    deal = state.deal
    for seat in range(5):
        viewer = Viewer.player(seat)
        view = GAME.view(state, viewer)
        text = view.model_dump_json()
        lines = GAME.report(state, events, viewer)
        assert all(line_adapter.validate_python(line.model_dump()).text for line in lines)
        reported = "".join(line.model_dump_json() for line in lines if line.kind != "deal_ended")
        if deal is None:
            continue
        others = {code for s in range(5) if s != seat for code in deal.hands[s]}
        assert not others & set(CODE.findall(text)), "a view shows another hand"
        assert not others & set(CODE.findall(reported)), "a report shows another hand"
        holder = deal.guard if deal.guard is not None else deal.emperor
        if holder is not None and not deal.revealed and seat != holder:
            current = view.model_dump_json(exclude={"last_deal"})  # last_deal: a finished deal
            assert view.guard is None and f'"guard":{holder}' not in current
            assert not view.seats[holder].guard
            assert view.my_role != "guard"
            if deal.solo is Solo.HIDDEN:
                assert view.solo is None
    watched = GAME.view(state, Viewer.spectator())
    spectator = watched.model_dump_json()
    if deal is not None:
        assert not set(CODE.findall(spectator)) & {c for h in deal.hands for c in h}
        if deal.solo is not Solo.OPEN and not deal.revealed:
            assert watched.solo is None and watched.guard is None, "a spectator sees who plays with whom"


def run(variant: Variant, deals: int, seed: int) -> Counter:
    stats: Counter = Counter()
    r = Rng.from_int(seed, 0)
    step = 0
    table_no = 0
    while stats["deals"] < deals:
        table_no += 1
        options = Options(variant=variant, baoliu=table_no % 3 == 0)
        state = GAME.setup(ENTRANTS, options, Rng.from_int(seed + table_no, 0))
        referee = Referee()
        totals = [0] * 5
        table_deals = 0
        while (pending := GAME.pending(state)) is not None:
            step += 1
            rng = Rng.from_int(seed + table_no, step)
            watch = stats["deals"] < VIEW_DEALS or step % VIEW_EVERY == 0
            roll = r.random()
            if pending.kind is PendingKind.SEALED:
                tr = GAME.settle(state, sealed_moves(state, pending.seats, r), rng)
            elif roll < 0.0004 and state.phase is not Phase.BETWEEN:
                tr = GAME.apply(state, Viewer.player(r.below(5)), Quit(), rng)
                stats["quits"] += 1
            elif roll < 0.01:
                tr = GAME.on_timeout(state, rng)
                stats["timeouts"] += 1
            elif roll < 0.02 and any(state.auto):
                seat = r.choice([s for s in range(5) if state.auto[s]])
                tr = GAME.apply(state, Viewer.player(seat), Resume(), rng)
            else:
                seat = min(pending.seats)
                if state.phase is Phase.THRONE:
                    action = throne_move(state, seat, r, 0.85 if table_no % 4 == 1 else 0.3)
                elif state.phase is Phase.PLAY:
                    action = play_move(state, seat, r)
                elif table_deals >= DEALS_PER_TABLE:
                    action = Leave()
                else:
                    action = NextDeal()
                GAME.check(state, Viewer.player(seat), action)
                tr = GAME.apply(state, Viewer.player(seat), action, rng)
            referee.see(tr.events)
            for outcome in tr.results:
                BaohuangDealResult.model_validate(outcome.extra)
                scores = [int(res.score) for res in outcome.results]
                assert sum(scores) == (-30 if outcome.reason in ("quit", "kicked") else 0), outcome
                totals = [t + s for t, s in zip(totals, scores, strict=True)]
                stats["deals"] += 1
                stats[f"solo_{outcome.extra['solo']}"] += 1
                stats["rebels"] += bool(outcome.extra.get("rebels"))
                stats["grabbed"] += bool(outcome.extra.get("grabbed"))
                table_deals += 1
            stats["redeals"] += sum(1 for e in tr.events if e.kind == "redealt")
            stats["reveals"] += sum(1 for e in tr.events if e.kind == "guard_revealed")
            state = tr.state
            assert list(state.totals) == totals
            check_conservation(state, watch)
            if watch:
                check_secrets(state, tr.events)
        stats["tables"] += 1
        assert GAME.state_model.model_validate(state.model_dump(mode="json")) == state
    return stats


if __name__ == "__main__":  # pragma: no cover - a manual soak with the counters printed
    for v in Variant:
        print(v, dict(run(v, DEALS[v], 1000)))


@pytest.mark.slow
@pytest.mark.parametrize(("variant", "seed"), [(Variant.SIMPLE, 1000), (Variant.CLASSIC, 2000)])
def test_seeded_random_playouts(variant, seed):
    stats = run(variant, DEALS[variant], seed)
    assert stats["deals"] >= DEALS[variant]
    # the playouts really exercised the rules
    assert stats["solo_hidden"] and stats["rebels"] and stats["reveals"] and stats["timeouts"]
    if FULL:
        assert stats["solo_open"] and stats["redeals"]
        if variant is Variant.CLASSIC:
            assert stats["grabbed"]
