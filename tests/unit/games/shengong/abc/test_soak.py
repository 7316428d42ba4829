"""Seeded soak: thousands of random 8-player games per mode, run to the end, with invariants checked
every round. SOAK_GAMES (env) sets the number of games per mode (default 2000)."""

from __future__ import annotations

import os
import time

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.deck import CardPlay, build_deck, copy_card
from chalicelib.games.shengong.melee.actions import Assassinate, Frame, Idle, Meal, Move, Poison, Rest, Stay
from chalicelib.games.shengong.melee.cards_effects import ACTION_OF_EFFECT
from chalicelib.games.shengong.melee.events import ActionDone, Eliminated, Ended, PassiveDone, Tally
from chalicelib.games.shengong.melee.game import GAME_A, GAME_B, GAME_C
from chalicelib.games.shengong.melee.places import ALL_PLACES, FRAME_TARGETS, HP_CAP, POISON_TARGETS
from chalicelib.games.shengong.melee.scoring import score
from chalicelib.games.shengong.melee.state import MeleeOptions, Stats

from .helpers import NAMES, R_CARDS, entrants

GAMES = int(os.environ.get("SOAK_GAMES", "2000"))
POISON = sorted(POISON_TARGETS)
FRAME = sorted(FRAME_TARGETS)


def _maids(rng: Rng) -> dict[int, list[tuple[str, int]]]:
    out = {}
    for s in range(8):
        n = rng.below(5)  # some seats bring no R 宫女 at all
        out[s] = [(rng.choice(R_CARDS), rng.between(1, 5)) for _ in range(n)]
    return out


def _target(rng: Rng, occupied: list[str], allowed: list[str]) -> str:
    near = [p for p in occupied if p in allowed]
    return rng.choice(near) if near and rng.below(10) < 8 else rng.choice(allowed)


def _cards(rng: Rng, hand: tuple[str, ...], kind: str) -> CardPlay:
    if not hand or rng.below(3) == 0:
        return CardPlay()
    picked: dict[str, str] = {}
    for c in rng.shuffled(hand):
        card = copy_card(c)
        need = ACTION_OF_EFFECT.get(card.effect)
        slot = card.slot.value
        if slot not in picked and (need is None or need == kind):
            picked[slot] = c
    rest = [c for c in hand if c not in picked.values()]
    discard = tuple(rng.sample(rest, min(len(rest), rng.below(3))))
    return CardPlay(**picked, discard=discard)


def _order(game, state, s: int, rng: Rng):
    p = state.players[s]
    occupied = [q.place for q in state.players if q.alive and q.seat != s]
    k = rng.below(100)
    if p.voided or k < 8:
        return Idle()
    if k < 28:
        kind, order = "poison", Poison(place=_target(rng, occupied, POISON))
    elif k < 43:
        kind, order = "assassinate", Assassinate(place=_target(rng, occupied, POISON))
    elif k < 58:
        kind, order = "frame", Frame(place=_target(rng, occupied, FRAME))
    elif k < 68:
        kind, order = "meal", Meal()
    elif k < 78:
        kind, order = "rest", Rest()
    elif k < 88:
        kind, order = "move", Move(place=rng.choice([x for x in ALL_PLACES if x != p.place]))
    elif k < 92:
        kind, order = "stay", Stay()
    else:
        kind, order = "idle", Idle()
    if p.deck is not None:
        order = order.model_copy(update={"cards": _cards(rng, p.deck.hand, kind)})
    try:
        game.check(state, Viewer.player(s), order)
    except IllegalAction:
        return Idle()
    return order


def _check_invariants(game, before, after, events, decks):
    living = set(before.living())
    acted = {e.seat for e in events if isinstance(e, (ActionDone, Tally))}
    assert acted == living, "exactly the living act, nobody after elimination"
    for p0, p in zip(before.players, after.players):
        assert p.hp <= HP_CAP
        if not p0.alive:
            assert p == p0, "the fallen never change"
            continue
        assert p.alive == (p.hp > 0 and p.grace > 0)
        if p.deck is not None:
            d = p.deck
            assert d.all_copies() == decks[p.seat], "cards conserved"
            frozen = {f.card for f in d.frozen}
            assert not frozen & set(d.hand) and not frozen & set(d.pile), "frozen cards never dealt"
            if p.alive and not after.over:
                assert all(f.back_in_round > after.round for f in d.frozen), "thawed when due"
                assert len(d.hand) == min(5, len(d.hand) + len(d.pile)), "refilled to 5"


def _recompute(log, n=8):
    """Stats and placements from the event log alone."""
    kills, hp, grace, taken = [0] * n, [0] * n, [0] * n, [0] * n
    placement = None
    for e in log:
        if isinstance(e, (ActionDone, PassiveDone)):
            for h in e.hits:
                hp[e.seat] += h.hp
                grace[e.seat] += h.grace
                taken[h.seat] += h.hp + h.grace
        elif isinstance(e, Eliminated):
            for k in e.killers:
                kills[k] += 1
        elif isinstance(e, Ended):
            placement = e.placements
    return [Stats(kills=kills[i], hp_damage=hp[i], favor_damage=grace[i], taken=taken[i]) for i in range(n)], placement


def _play(game, g: int, check_reports: bool) -> int:
    pick = Rng.from_int(1_000_000 + g)
    state = game.setup(entrants(_maids(pick)), MeleeOptions(), Rng.from_int(g))
    decks = {p.seat: build_deck(p.maids) for p in state.players}
    log = []
    step = 1
    while (pending := game.pending(state)) is not None:
        assert pending.seats == frozenset(state.living())
        moves = {s: _order(game, state, s, pick) for s in sorted(pending.seats) if pick.below(10)}
        tr = game.settle(state, moves, Rng.from_int(g, step))
        _check_invariants(game, state, tr.state, tr.events, decks)
        if check_reports and step % 3 == 1:
            for line in game.report(tr.state, tr.events, Viewer.spectator()):
                assert line.scope in ("anon", "public")
                if line.scope == "anon":
                    assert not any(name in line.text for name in NAMES)
        log.extend(tr.events)
        state = tr.state
        step += 1
        assert step <= 21
    assert state.over and tr.results
    stats, placement = _recompute(log)
    (outcome,) = tr.results
    assert min(r.place for r in outcome.results) == 1
    for r in outcome.results:
        p = state.players[r.seat]
        assert stats[r.seat] == p.stats
        assert placement[r.seat] == r.place == p.placement
        assert r.score == score(stats[r.seat], r.place)
        assert r.stats["deaths"] == (0 if p.alive else 1)
    return state.round


@pytest.mark.parametrize("game", [GAME_A, GAME_B, GAME_C], ids=["A", "B", "C"])
def test_soak(game):
    """Random games to the end: 气血 ≤ 12, nobody acts after elimination, cards conserved, frozen cards
    never dealt, scores equal to the formula recomputed from the event log, no exception."""
    t0 = time.perf_counter()
    rounds = sum(_play(game, g, check_reports=g % 50 == 0) for g in range(GAMES))
    elapsed = time.perf_counter() - t0
    # generous bounds (they include move generation, checks and invariants): one round well under
    # 5 ms, one whole game well under 100 ms
    assert elapsed / rounds < 0.005, f"{elapsed / rounds * 1000:.2f} ms per round"
    assert elapsed / GAMES < 0.1, f"{elapsed / GAMES * 1000:.1f} ms per game"
