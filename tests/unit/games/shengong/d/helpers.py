"""Builders for 宫斗杀 tests: personas, entrants, states in a chosen shape, and a scripted rng."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from chalicelib.core.game import Entrant, Persona
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.deck import Deck
from chalicelib.games.shengong.game import GAME_D
from chalicelib.games.shengong.state import State
from chalicelib.games.shengong.terms import Place, Side

GAME = GAME_D
NAMES = ("甄嬛", "沈眉庄", "安陵容")


def profile(name: str, *, looks: int = 50, talent: int = 0, favor: int = 0, power: int = 0,
            maids: Iterable[tuple[str, int]] = (), cleared: Iterable[int] = (1, 2)) -> Persona:
    return Persona(consort_id=f"c-{name}", name=f"{name}（妃）", looks=looks, talent=talent, favor=favor,
                   power=power, maids=dict(maids), cleared_stages=frozenset(cleared))


def entrants(*profiles: Persona) -> list[Entrant]:
    profs = list(profiles) + [profile(n) for n in NAMES[len(profiles):]]
    return [Entrant(seat=i, name=NAMES[i], persona=p) for i, p in enumerate(profs)]


def new_game(stage: int = 1, *profiles: Persona, seed: int = 1) -> State:
    return GAME.setup(entrants(*profiles), GAME.parse_options({"stage": stage}), Rng.from_int(seed))


def shape(state: State, *, hp: Sequence[float] | None = None, grace: Sequence[float] | None = None,
          places: Sequence[Place] | None = None, opp_hp: Sequence[float] | None = None,
          opp_grace: Sequence[float | None] | None = None, hands: Sequence[Sequence[str]] | None = None,
          **updates: Any) -> State:
    """Set bars (in points), places and hands directly. Hands move cards between hand and pile."""
    players = list(state.players)
    for i, p in enumerate(players):
        upd: dict[str, Any] = {}
        if hp is not None:
            upd["hp"] = round(hp[i] * 10)
        if grace is not None:
            upd["grace"] = round(grace[i] * 10)
        if places is not None:
            upd["place"] = places[i]
        if hands is not None:
            assert p.deck is not None
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
        if opp_grace is not None and opp_grace[i] is not None:
            upd["grace"] = round(opp_grace[i] * 10)
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


def settle(state: State, moves: dict[int, Any], rng: Rng | None = None):
    return GAME.settle(state, moves, rng or ScriptRng())


def event(transition, kind: str, **match: Any):
    """The single event of `kind` whose fields match."""
    found = [e for e in transition.events if e.kind == kind and all(getattr(e, k) == v for k, v in match.items())]
    assert len(found) == 1, (kind, match, transition.events)
    return found[0]


def acted(transition, seat: int):
    return event(transition, "acted", seat=seat)


def landed(transition, seat: int):
    return event(transition, "landed", side=Side.PLAYER, index=seat)


def blow(transition, seat: int) -> int:
    """The blow her attack dealt its opponent (0 on a miss)."""
    hits = acted(transition, seat).hits
    return hits[0].hp + hits[0].grace if hits else 0


def quiet() -> ScriptRng:
    """Stage 1 with no player attack: 高明珠 draws her last row (群诬) and misses."""
    return ScriptRng(99, 99)


def rolls(*player_rolls: int, boss: int = 99) -> ScriptRng:
    """Stage 1: 高明珠 draws her last row (群诬, no tie draw), players roll as given, she rolls `boss`."""
    return ScriptRng(99, *player_rolls, boss)


def force_plan(monkeypatch, key, attack, target: int | None = None, *, tower: bool = False) -> None:
    """Make opponent `key` always do this (no tactic draw); only her hit roll is still drawn."""
    from dataclasses import replace

    from chalicelib.games.shengong import bosses

    plan = bosses.BossAction(tactic=bosses.Tactic.GROUP_POISON, label="测试", attack=attack, target=target,
                             tower=tower)
    monkeypatch.setitem(bosses.SPECS, key, replace(bosses.SPECS[key], policy=lambda snap, rng: plan))
