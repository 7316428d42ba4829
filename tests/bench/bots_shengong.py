"""深宫杀 bots: 进阶 ADVANCED against 简单 SIMPLE in seeded A/B/C games (not part of the pytest run).

    .venv/bin/python -m tests.bench.bots_shengong [--games 1000] [--modes A,B,C] [--seed 1]

Every game seats four ADVANCED and four SIMPLE bots, alternating, rotated by one seat each game so both
levels sit in every seat equally often. Personas are drawn from the game's seed (attributes 20-90, up
to four R 宫女 at levels 1-5), the same draw for both levels. Each bot sees only its seat's view.

Printed per mode and over all modes, per level: win rate (first place; 95% Wilson interval), mean
score (95% normal interval), and the median time of one decision (the bot's `bot_action` on a view
it was handed; and view + decision together).
"""

from __future__ import annotations

import argparse
import math
import statistics
import time
from dataclasses import dataclass, field

from chalicelib.core.game import BotLevel, Entrant, Persona, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.cards import CATALOGUE, Rarity
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, ShengongGame

R_CARDS = sorted(c.id for c in CATALOGUE.values() if c.rarity is Rarity.R)
LEVELS = (BotLevel.ADVANCED, BotLevel.SIMPLE)


@dataclass
class Tally:
    wins: int = 0
    seats: int = 0
    scores: list[float] = field(default_factory=list)
    decide_ms: list[float] = field(default_factory=list)
    total_ms: list[float] = field(default_factory=list)

    def add(self, other: Tally) -> None:
        self.wins += other.wins
        self.seats += other.seats
        self.scores += other.scores
        self.decide_ms += other.decide_ms
        self.total_ms += other.total_ms


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def mean_ci(xs: list[float], z: float = 1.96) -> tuple[float, float, float]:
    m = statistics.fmean(xs)
    half = z * statistics.stdev(xs) / math.sqrt(len(xs)) if len(xs) > 1 else 0.0
    return m, m - half, m + half


def entrants(pick: Rng) -> list[Entrant]:
    return [
        Entrant(seat=i, name=f"妃{i}", persona=Persona(
            consort_id=f"c{i}", name=f"妃{i}", looks=pick.between(20, 90), talent=pick.between(20, 90),
            favor=pick.between(20, 90), power=pick.between(20, 90),
            maids={c: pick.between(1, 5) for c in pick.sample(R_CARDS, pick.below(5))},
        ))
        for i in range(8)
    ]


def play(game: ShengongGame, g: int, seed: int, tallies: dict[BotLevel, Tally]) -> None:
    levels = {s: LEVELS[(s + g) % 2] for s in range(8)}
    state = game.setup(entrants(Rng.from_int(seed * 1_000_003 + g)), game.parse_options({}), Rng.from_int(seed, g))
    step = 1
    while (pending := game.pending(state)) is not None:
        moves = {}
        for s in sorted(pending.seats):
            t0 = time.perf_counter()
            view = game.view(state, Viewer.player(s))
            t1 = time.perf_counter()
            action = game.bot_action(view, s, levels[s], Rng.from_int(seed * 7919 + g, step * 8 + s))
            t2 = time.perf_counter()
            tallies[levels[s]].decide_ms.append((t2 - t1) * 1000)
            tallies[levels[s]].total_ms.append((t2 - t0) * 1000)
            if action is not None:
                moves[s] = action
        t = game.settle(state, moves, Rng.from_int(seed * 31 + g, step))
        state, step = t.state, step + 1
    for r in t.results[0].results:
        tally = tallies[levels[r.seat]]
        tally.seats += 1
        tally.wins += int(r.place == 1)
        tally.scores.append(r.score)


def report(title: str, tallies: dict[BotLevel, Tally]) -> None:
    print(title)
    for level in LEVELS:
        t = tallies[level]
        lo, hi = wilson(t.wins, t.seats)
        m, mlo, mhi = mean_ci(t.scores)
        print(f"  {level.value:<9} seats {t.seats:>6}  win rate {t.wins / t.seats:6.1%} [{lo:.1%}, {hi:.1%}]"
              f"  mean score {m:6.2f} [{mlo:.2f}, {mhi:.2f}]  median decision {statistics.median(t.decide_ms):.3f} ms"
              f" (view + decision {statistics.median(t.total_ms):.3f} ms)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=1000, help="games per mode")
    parser.add_argument("--modes", default="A,B,C")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    games = {"A": GAME_A, "B": GAME_B, "C": GAME_C}
    overall = {level: Tally() for level in LEVELS}
    started = time.perf_counter()
    for key in args.modes.split(","):
        tallies = {level: Tally() for level in LEVELS}
        for g in range(args.games):
            play(games[key], g, args.seed, tallies)
        report(f"玩法{key} ({args.games} games, 4 ADVANCED vs 4 SIMPLE seats each)", tallies)
        for level in LEVELS:
            overall[level].add(tallies[level])
    report(f"all modes ({time.perf_counter() - started:.0f} s)", overall)


if __name__ == "__main__":
    main()
