"""Seeded soak: hundreds of random games per stage to the end, invariants every round, and replay."""

import random

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Entrant, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.cards import CATALOGUE, Rarity
from chalicelib.games.shengong.coop.actions import action_adapter
from chalicelib.games.shengong.coop.events import Result
from chalicelib.games.shengong.coop.game import GAME
from chalicelib.games.shengong.coop.scoring import clear_bonus
from chalicelib.games.shengong.coop.state import START_FAVOR, CoopState, Place
from chalicelib.games.shengong.deck import copy_card
from chalicelib.games.shengong.numbers import ROUND_LIMIT

from .helpers import NAMES

GAMES_PER_STAGE = 300
CARD_IDS = sorted(CATALOGUE)
R_IDS = sorted(c for c in CATALOGUE if CATALOGUE[c].rarity is Rarity.R)
ATTACK_OF = {"poison": ("poison_hit", "poison_damage"), "assassinate": ("assassinate_hit", "assassinate_damage"),
             "frame": ("frame_hit", "frame_damage")}


def _profile(r: random.Random, name: str) -> dict:
    return {
        "consort_id": name, "name": name, "looks": r.randint(0, 100), "talent": r.randint(0, 100),
        "favor": r.randint(0, 100), "power": r.randint(0, 100), "cleared_stages": [1, 2],
        "maids": [{"card": c, "level": r.randint(1, 5)} for c in r.sample(CARD_IDS, r.randint(0, 7))],
    }


def _random_move(r: random.Random, state: CoopState, seat: int) -> dict:
    p = state.players[seat]
    kind = r.choice(["poison", "assassinate", "frame", "heal", "idle", "move"])
    move: dict = {"type": kind}
    if kind == "move":
        move["place"] = r.choice([pl.value for pl in Place])
    elif kind in ATTACK_OF and r.random() < 0.7:
        move["target"] = r.randrange(len(state.opponents) + (1 if r.random() < 0.05 else 0))
    hand = list(p.deck.hand)
    r.shuffle(hand)
    cards: dict = {}
    for copy in hand:
        c = copy_card(copy)
        slot = c.slot.value
        fits = slot != "attack" or c.effect.value in ATTACK_OF.get(kind, ())
        if slot not in cards and fits and c.effect.value != "meal_favor" and r.random() < 0.6:
            cards[slot] = copy
    rest = [c for c in hand if c not in cards.values()]
    if rest and r.random() < 0.3:
        cards["discard"] = rest[: r.randint(1, min(2, len(rest)))]
    move["cards"] = cards
    return move


def _check_invariants(before: CoopState, t, full_decks) -> None:
    after = t.state
    acted = {e.seat for e in t.events if e.kind == "player_acted"}
    landed = {e.seat for e in t.events if e.kind == "player_landed"}
    opp_acted = {e.opponent for e in t.events if e.kind == "opponent_acted"}
    assert acted == landed == {p.seat for p in before.players if p.alive}
    assert opp_acted == {o.index for o in before.opponents if o.alive}
    for p0, p1 in zip(before.players, after.players, strict=True):
        assert p1.deck.all_copies() == full_decks[p1.seat]  # cards conserved
        frozen = {f.card for f in p1.deck.frozen}
        assert not frozen & set(p1.deck.hand) and not frozen & set(p1.deck.pile)
        if p1.alive and not after.over:  # what is due has thawed (the fallen keep their deck as it was)
            assert all(f.back_in_round > after.round for f in p1.deck.frozen)
        assert p1.hp <= p1.hp_max and p1.favor <= START_FAVOR
        assert p1.alive == (p1.hp > 0 and p1.favor > 0)
        if not p0.alive:
            assert p1 == p0  # nobody acts, heals or changes after being down
        elif p1.alive and not after.over:
            assert len(p1.deck.hand) == min(5, len(p1.deck.hand) + len(p1.deck.pile))
    for o0, o1 in zip(before.opponents, after.opponents, strict=True):
        if not o0.alive:
            assert o1 == o0
        assert o1.alive == (o1.hp > 0 and (o1.favor is None or o1.favor > 0))
    assert after.over or after.round == before.round + 1


def play(stage: int, game_no: int, *, check_views: bool = False):
    r = random.Random(stage * 100_003 + game_no)
    seed = r.getrandbits(256).to_bytes(32, "big")
    entrants = [Entrant(seat=i, name=NAMES[i], profile=_profile(r, NAMES[i])) for i in range(3)]
    GAME.check_start(entrants, {"stage": stage})
    state = GAME.setup(entrants, {"stage": stage}, Rng(seed, 0))
    full_decks = {p.seat: p.deck.all_copies() for p in state.players}
    damage = {p.seat: 0 for p in state.players}
    log = []
    step = 1
    while GAME.pending(state) is not None:
        moves = {}
        for seat in sorted(GAME.pending(state).seats):
            if r.random() < 0.1:
                continue  # did not submit: 待机
            raw = _random_move(r, state, seat)
            action = action_adapter.validate_python(raw)
            try:
                GAME.check(state, Viewer.player(seat), action)
            except IllegalAction:
                if r.random() < 0.5:
                    continue
            moves[seat] = action  # some illegal ones go through: settle must VOID them
        log.append(moves)
        t = GAME.settle(state, moves, Rng(seed, step))
        step += 1
        _check_invariants(state, t, full_decks)
        for e in t.events:
            if e.kind == "player_acted" and e.result is Result.HIT:
                damage[e.seat] += e.damage
        if check_views:
            assert CoopState.model_validate(t.state.model_dump(mode="json")) == t.state
            for line in GAME.report(t.state, t.events, Viewer.spectator()):
                assert line.scope in ("anonymous", "result")
                if line.scope == "anonymous":
                    assert not any(n in line.text for n in NAMES)
            for viewer in (Viewer.player(0), Viewer.spectator(), Viewer.host()):
                GAME.view(t.state, viewer)
        state = t.state
    # the end, and the score recomputed from the events alone
    assert state.over and step - 1 == state.round <= ROUND_LIMIT
    assert (state.reason == "clear") == all(not o.alive for o in state.opponents) == state.cleared
    if state.reason == "wipe":
        assert not any(p.alive for p in state.players)
    (outcome,) = t.results
    bonus = clear_bonus(state.cleared, state.round)
    for res in outcome.results:
        alive = state.players[res.seat].alive
        assert res.score == (damage[res.seat] + (300 if alive else 0) + bonus * 10) / 10
        assert res.won == state.cleared and res.stats["survived"] == (1.0 if alive else 0.0)
    assert outcome.extra == {"stage": stage, "cleared": state.cleared, "rounds": state.round}
    return seed, entrants, log, state, outcome


@pytest.mark.parametrize("stage", [1, 2, 3])
def test_soak_random_games_to_the_end(stage):
    """Every game ends (clear / wipe / 20 回合), with the invariants above every round and each
    score equal to D⑦ 积分 ＝ 输出伤害 ＋ 存活 30 ＋ 通关奖励 recomputed from the events."""
    reasons = set()
    for n in range(GAMES_PER_STAGE):
        *_, state, _ = play(stage, n, check_views=n % 10 == 0)
        reasons.add(state.reason)
    assert reasons <= {"clear", "wipe", "limit"} and len(reasons) >= 2


@pytest.mark.parametrize("stage", [1, 2, 3])
def test_same_seed_and_moves_replay_to_the_same_state(stage):
    """DECISIONS (common): any game can be replayed exactly from its initial state and its action log."""
    seed, entrants, log, final, outcome = play(stage, 7)
    state = GAME.setup(entrants, {"stage": stage}, Rng(seed, 0))
    events = []
    for step, moves in enumerate(log, start=1):
        t = GAME.settle(state, moves, Rng(seed, step))
        events.extend(t.events)
        state = t.state
    assert state == final and t.results == (outcome,)
    assert state.model_dump_json() == final.model_dump_json()
    other = GAME.setup(entrants, {"stage": stage}, Rng(bytes(32), 0))
    assert other != GAME.setup(entrants, {"stage": stage}, Rng(seed, 0)) or all(
        not p.deck.all_copies() for p in other.players)
