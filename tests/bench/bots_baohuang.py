"""保皇 bots benchmark (not part of the test suite): ADVANCED (进阶) against SIMPLE (简单 = 托管).

    .venv/bin/python -m tests.bench.bots_baohuang                 # 2000 deals of each mode
    .venv/bin/python -m tests.bench.bots_baohuang --deals 500 --mode classic --seed 7

Each deal is a fresh seeded table played to its result exactly as the platform would drive bots:
for the seat (or, in the sealed declaration, each seat) the game waits for, build that seat's view,
ask `GAME.bot_action(view, seat, level, rng)`, check it and apply (or settle) it. Which seats are
ADVANCED rotates deal by deal: 1, 2, 3 or 4 advanced seats, starting at every seat in turn, so each
level sits in every position and every kind of table equally often.

Printed per mode and level: seat-deals, win rate (score > 0) and mean score with 95% confidence
intervals (normal approximation over seat-deals; the five seats of one deal are not independent, so
the paired line — per deal, mean advanced score minus mean simple score — is the one to trust), and
the median time per decision (the bot's own call, and view + bot together).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from collections import defaultdict
from dataclasses import dataclass, field

from chalicelib.core.game import BotLevel, Entrant, PendingKind, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.baohuang.actions import Action
from chalicelib.games.baohuang.cards import Variant
from chalicelib.games.baohuang.game import GAME
from chalicelib.games.baohuang.model import BaohuangState, Options

ENTRANTS = [Entrant(seat, f"bot{seat}") for seat in range(5)]
Z = 1.96


def advanced_seats(deal: int) -> frozenset[int]:
    """Deal d: 1–4 advanced seats (cycling every 5 deals), starting at seat d % 5."""
    k = 1 + (deal // 5) % 4
    return frozenset((deal + j) % 5 for j in range(k))


@dataclass
class Tally:
    scores: dict[BotLevel, list[float]] = field(default_factory=lambda: defaultdict(list))
    wins: dict[BotLevel, list[int]] = field(default_factory=lambda: defaultdict(list))
    paired: list[float] = field(default_factory=list)
    bot_s: dict[BotLevel, list[float]] = field(default_factory=lambda: defaultdict(list))
    decide_s: dict[BotLevel, list[float]] = field(default_factory=lambda: defaultdict(list))
    reasons: dict[str, int] = field(default_factory=lambda: defaultdict(int))


def decide(state: BaohuangState, seat: int, level: BotLevel, rng: Rng, tally: Tally) -> Action | None:
    t0 = time.perf_counter()
    view = GAME.view(state, Viewer.player(seat))
    t1 = time.perf_counter()
    action = GAME.bot_action(view, seat, level, rng)
    t2 = time.perf_counter()
    tally.bot_s[level].append(t2 - t1)
    tally.decide_s[level].append(t2 - t0)
    return action


def play_deal(variant: Variant, seed: int, deal: int, tally: Tally) -> None:
    advanced = advanced_seats(deal)
    levels = {s: BotLevel.ADVANCED if s in advanced else BotLevel.SIMPLE for s in range(5)}
    state = GAME.setup(ENTRANTS, Options(variant=variant), Rng.from_int(seed, 0))
    step = 0
    while (pending := GAME.pending(state)) is not None:
        step += 1
        rng = Rng.from_int(seed, step)
        if pending.kind is PendingKind.SEALED:
            moves = {}
            for seat in sorted(pending.seats):
                move = decide(state, seat, levels[seat], rng, tally)
                if move is not None:
                    GAME.check(state, Viewer.player(seat), move)
                    moves[seat] = move
            tr = GAME.settle(state, moves, rng)
        else:
            seat = min(pending.seats)
            move = decide(state, seat, levels[seat], rng, tally)
            if move is None:
                raise RuntimeError(f"bot in seat {seat} had nothing to do in {state.phase}")
            GAME.check(state, Viewer.player(seat), move)
            tr = GAME.apply(state, Viewer.player(seat), move, rng)
        state = tr.state
        if tr.results:
            (outcome,) = tr.results
            tally.reasons[outcome.reason] += 1
            by_level: dict[BotLevel, list[float]] = defaultdict(list)
            for r in outcome.results:
                tally.scores[levels[r.seat]].append(r.score)
                tally.wins[levels[r.seat]].append(1 if r.won else 0)
                by_level[levels[r.seat]].append(r.score)
            tally.paired.append(statistics.fmean(by_level[BotLevel.ADVANCED])
                                - statistics.fmean(by_level[BotLevel.SIMPLE]))
            return
    raise RuntimeError("the table ended without a result")


def ci(values: list[float]) -> tuple[float, float]:
    """Mean and the half-width of its 95% confidence interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = Z * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else float("nan")
    return mean, half


def report(variant: Variant, deals: int, tally: Tally, seconds: float) -> None:
    print(f"\n## {variant} — {deals} deals ({seconds:.0f} s)\n")
    print("| level | seat-deals | win rate (95% CI) | mean score (95% CI) | median bot_action | median view + bot |")
    print("|---|---|---|---|---|---|")
    for level in (BotLevel.ADVANCED, BotLevel.SIMPLE):
        win, win_half = ci([float(w) for w in tally.wins[level]])
        score, score_half = ci(tally.scores[level])
        bot_ms = statistics.median(tally.bot_s[level]) * 1000
        decide_ms = statistics.median(tally.decide_s[level]) * 1000
        print(f"| {level} | {len(tally.scores[level])} | {win:.1%} ± {win_half:.1%} | {score:+.2f} ± {score_half:.2f} "
              f"| {bot_ms:.3f} ms | {decide_ms:.3f} ms |")
    diff, diff_half = ci(tally.paired)
    print(f"\nPer deal, mean ADVANCED score − mean SIMPLE score: {diff:+.2f} ± {diff_half:.2f} (95% CI, {deals} deals)")
    print(f"Deal endings: {dict(tally.reasons)}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=2000, help="deals per mode (default 2000)")
    parser.add_argument("--mode", choices=["simple", "classic", "both"], default="both")
    parser.add_argument("--seed", type=int, default=20261130)
    args = parser.parse_args()
    variants = list(Variant) if args.mode == "both" else [Variant(args.mode)]
    for variant in variants:
        tally = Tally()
        start = time.perf_counter()
        for deal in range(args.deals):
            play_deal(variant, args.seed * 100_003 + deal, deal, tally)
        report(variant, args.deals, tally, time.perf_counter() - start)


if __name__ == "__main__":
    main()
