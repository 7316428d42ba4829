"""Builders for 宫斗杀 tests: profiles, entrants, states in a chosen shape, and a scripted rng."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from chalicelib.core.game import Entrant
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.coop.game import GAME
from chalicelib.games.shengong.coop.state import CoopState, Place
from chalicelib.games.shengong.deck import Deck

NAMES = ("甄嬛", "沈眉庄", "安陵容")


def profile(name: str, *, looks: int = 50, talent: int = 0, favor: int = 0, power: int = 0,
            maids: Iterable[tuple[str, int]] = (), cleared: Iterable[int] = (1, 2)) -> dict[str, Any]:
    return {
        "consort_id": f"c-{name}", "name": f"{name}（妃）", "looks": looks, "talent": talent, "favor": favor,
        "power": power, "maids": [{"card": c, "level": lv} for c, lv in maids], "cleared_stages": list(cleared),
    }


def entrants(*profiles: dict[str, Any]) -> list[Entrant]:
    profs = list(profiles) + [profile(n) for n in NAMES[len(profiles):]]
    return [Entrant(seat=i, name=NAMES[i], profile=p) for i, p in enumerate(profs)]


def new_game(stage: int = 1, *profiles: dict[str, Any], seed: int = 1) -> CoopState:
    return GAME.setup(entrants(*profiles), {"stage": stage}, Rng.from_int(seed))


def shape(state: CoopState, *, hp: Sequence[float] | None = None, favor: Sequence[float] | None = None,
          places: Sequence[Place] | None = None, opp_hp: Sequence[float] | None = None,
          opp_favor: Sequence[float | None] | None = None, hands: Sequence[Sequence[str]] | None = None,
          **updates: Any) -> CoopState:
    """Set bars (in points), places and hands directly. Hands move cards between hand and pile."""
    players = list(state.players)
    for i, p in enumerate(players):
        upd: dict[str, Any] = {}
        if hp is not None:
            upd["hp"] = round(hp[i] * 10)
        if favor is not None:
            upd["favor"] = round(favor[i] * 10)
        if places is not None:
            upd["place"] = places[i]
        if hands is not None:
            full = p.deck.all_copies()
            hand = tuple(hands[i])
            assert set(hand) <= set(full), hand
            upd["deck"] = Deck(hand=hand, pile=tuple(c for c in full if c not in hand))
        players[i] = p.model_copy(update=upd)
    opps = list(state.opponents)
    for i, o in enumerate(opps):
        upd = {}
        if opp_hp is not None:
            upd["hp"] = round(opp_hp[i] * 10)
        if opp_favor is not None and opp_favor[i] is not None:
            upd["favor"] = round(opp_favor[i] * 10)
        opps[i] = o.model_copy(update=upd)
    return state.model_copy(update={"players": tuple(players), "opponents": tuple(opps), **updates})


class ScriptRng(Rng):
    """An Rng whose `below(n)` returns scripted values in order (each clipped to n − 1), then
    `default`. 0 = every roll hits, first tactic row, first of the tied; 99 = every roll misses,
    last tactic row."""

    def __init__(self, *values: int, default: int = 0) -> None:
        super().__init__(b"\0" * 32, 0)
        self.values = list(values)
        self.default = default
        self.calls: list[int] = []

    def below(self, n: int) -> int:
        self.calls.append(n)
        v = self.values.pop(0) if self.values else self.default
        return min(v, n - 1)


HIT = ScriptRng  # readability alias: HIT() always hits and picks the first row


def settle(state: CoopState, moves: dict[int, Any], rng: Rng | None = None):
    return GAME.settle(state, moves, rng or ScriptRng())


def event(transition, kind: str, **match: Any):
    """The single event of `kind` whose fields match."""
    found = [e for e in transition.events if e.kind == kind and all(getattr(e, k) == v for k, v in match.items())]
    assert len(found) == 1, (kind, match, transition.events)
    return found[0]


def quiet() -> ScriptRng:
    """Stage 1 with no player attack: 高明珠 draws her last row (群诬) and misses."""
    return ScriptRng(99, 99)


def rolls(*player_rolls: int, boss: int = 99) -> ScriptRng:
    """Stage 1: 高明珠 draws her last row (群诬, no tie draw), players roll as given, she rolls `boss`."""
    return ScriptRng(99, *player_rolls, boss)


def force_plan(monkeypatch, key: str, attack, target: int | None = None, *, tower: bool = False,
               tactic: str = "forced") -> None:
    """Make opponent `key` always do this (no tactic draw); only her hit roll is still drawn."""
    from dataclasses import replace

    from chalicelib.games.shengong.coop import bosses

    plan = bosses.BossAction(tactic=tactic, label="测试", attack=attack, target=target, tower=tower)
    monkeypatch.setitem(bosses.SPECS, key, replace(bosses.SPECS[key], policy=lambda snap, rng: plan))
