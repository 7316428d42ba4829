"""Seeded random games of every mode to the end, with invariants checked every round.

Every round: exactly the living act and land, the fallen never change, alive ⇔ 气血 > 0 and 好感 > 0,
气血 within her cap (好感 within 10 in D), cards conserved, frozen cards never dealt, thawed and
refilled to 5 when due. At the end every stat, place and score equals the one recomputed from the
event log alone, and spectators' anonymous lines name nobody. Some random moves are illegal and sent
anyway: the settlement must turn them into 待机.

By default a short run (`GAMES`, a few seconds); `SOAK_FULL=1` plays the full soak (2000 games per
A/B/C mode, 300 per D stage); `SOAK_GAMES` sets any count. No timing is asserted here: speed is
measured in tests/bench.
"""

from __future__ import annotations

import os

import pytest

from chalicelib.core.errors import DomainError
from chalicelib.core.game import Entrant, Persona, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.actions import (
    ATTACK_MOVES,
    Action,
    Heal,
    Idle,
    Meal,
    Move,
    Stay,
    action_adapter,
)
from chalicelib.games.shengong.cards import ACTION_OF_EFFECT, CATALOGUE
from chalicelib.games.shengong.deck import CardPlay, copy_card
from chalicelib.games.shengong.events import Acted, Ended, Fell, Hit, OpponentActed, PassiveDone
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, GAME_D, ShengongGame
from chalicelib.games.shengong.modes import Foes
from chalicelib.games.shengong.numbers import ROUND_LIMIT
from chalicelib.games.shengong.scoring import clear_bonus, palace_score
from chalicelib.games.shengong.state import State, Stats
from chalicelib.games.shengong.terms import ActionType, Attack, Side

FULL = os.environ.get("SOAK_FULL") == "1"
GAMES = {"palace": 2000 if FULL else 25, "stage": 300 if FULL else 15}
if "SOAK_GAMES" in os.environ:
    GAMES = dict.fromkeys(GAMES, int(os.environ["SOAK_GAMES"]))
NAMES = ("甄嬛", "沈眉庄", "安陵容", "华妃", "齐妃", "敬妃", "端妃", "曹贵人")
CARD_IDS = sorted(CATALOGUE)


def entrants(game: ShengongGame, pick: Rng) -> list[Entrant]:
    return [
        Entrant(seat=i, name=NAMES[i], persona=Persona(
            consort_id=f"c{i}", name=f"{NAMES[i]}（妃）", looks=pick.between(0, 100), talent=pick.between(0, 100),
            favor=pick.between(0, 100), power=pick.between(0, 100), cleared_stages=frozenset({1, 2}),
            maids={c: pick.between(1, 5) for c in pick.sample(CARD_IDS, pick.below(7))},
        ))
        for i in range(game.max_seats)
    ]


def _cards(pick: Rng, hand: tuple[str, ...], kind: ActionType) -> CardPlay:
    if not hand or pick.below(3) == 0:
        return CardPlay()
    chosen: dict[str, str] = {}
    for copy in pick.shuffled(hand):
        need = ACTION_OF_EFFECT.get(copy_card(copy).effect)
        if copy_card(copy).slot.value not in chosen and (need is None or need is kind or pick.below(20) == 0):
            chosen[copy_card(copy).slot.value] = copy
    rest = [c for c in hand if c not in chosen.values()]
    return CardPlay(**chosen, discard=pick.sample(rest, min(len(rest), pick.below(3))))


def random_move(game: ShengongGame, state: State, seat: int, pick: Rng) -> Action:
    """A random move, mostly sensible, sometimes illegal (a fallen target, a wrong place, a bad card)."""
    p, mode = state.players[seat], game.mode
    kind = pick.choice(sorted(mode.actions) + [ActionType.POISON, ActionType.FRAME])
    cards = _cards(pick, p.deck.hand if p.deck else (), kind)
    if kind in (ActionType.POISON, ActionType.ASSASSINATE, ActionType.FRAME):
        move = ATTACK_MOVES[Attack(kind.value)]
        if mode.foes is Foes.BOSSES:
            target = pick.below(len(state.opponents) + 1) if pick.below(4) else None
            return move(target=target if target != len(state.opponents) else None, cards=cards)
        occupied = [q.place for q in state.living() if q.seat != seat]
        place = pick.choice(occupied) if occupied and pick.below(5) else pick.choice(sorted(mode.places))
        return move(place=place, cards=cards)
    if kind is ActionType.MOVE:
        return Move(place=pick.choice(sorted(mode.places)), cards=cards)
    return {ActionType.HEAL: Heal, ActionType.IDLE: Idle, ActionType.STAY: Stay, ActionType.MEAL: Meal}[kind](cards=cards)


def _check_round(game: ShengongGame, before: State, t, decks: dict[int, tuple[str, ...]]) -> None:
    after, mode = t.state, game.mode
    living = {p.seat for p in before.living()}
    assert {e.seat for e in t.events if e.kind == "acted"} == living
    assert {e.index for e in t.events if e.kind == "landed" and e.side is Side.PLAYER} == living
    assert {e.opponent for e in t.events if e.kind == "opponent_acted"} == {o.index for o in before.living_opponents()}
    for p0, p in zip(before.players, after.players, strict=True):
        if not p0.alive:
            assert p == p0, "the fallen never change"
            continue
        assert p.hp <= p.hp_max and (mode.grace_cap is None or p.grace <= mode.grace_cap)
        assert p.alive == (p.hp > 0 and p.grace > 0)
        if p.deck is not None:
            assert p.deck.all_copies() == decks[p.seat], "cards conserved"
            frozen = {f.card for f in p.deck.frozen}
            assert not frozen & set(p.deck.hand) and not frozen & set(p.deck.pile)
            if p.alive and not after.over:
                assert all(f.back_in_round > after.round for f in p.deck.frozen), "thawed when due"
                assert len(p.deck.hand) == min(5, len(p.deck.hand) + len(p.deck.pile)), "refilled to 5"
    for o0, o in zip(before.opponents, after.opponents, strict=True):
        assert o == o0 if not o0.alive else o.alive == (o.hp > 0 and (o.grace is None or o.grace > 0))
    assert after.over or after.round == before.round + 1


def _spectator_is_anonymous(game: ShengongGame, t) -> None:
    for line in game.report(t.state, t.events, Viewer.spectator()):
        assert line.scope in ("anonymous", "public")
        if line.scope == "anonymous":
            assert line.seat is None and line.place is None and not line.cards
            assert not any(name in line.text for name in NAMES)


def _order_tells_nothing(game: ShengongGame, t) -> None:
    """#10.6: the order of a player's lines reveals no seat order. Within each round, what others did
    to her (about_you) comes as one block and what others did at all (anonymous) too, each sorted by
    text, so where a line falls says nothing about whose seat it came from."""
    for seat in range(len(t.state.players)):
        lines = game.report(t.state, t.events, Viewer.player(seat))
        rounds: dict[int, list] = {}
        for line in lines:
            rounds.setdefault(line.round, []).append(line)
        for group in rounds.values():
            for scope in ("about_you", "anonymous"):
                texts = [ln.text for ln in group if ln.scope == scope and ln.kind != "quiet"]  # the tally line closes it
                assert texts == sorted(texts), (seat, scope, texts)
            about = [i for i, ln in enumerate(group) if ln.scope == "about_you"]
            assert about == list(range(about[0], about[0] + len(about))) if about else True, about  # one block


def recompute(log: list, seats: int) -> tuple[list[Stats], tuple[int | None, ...] | None]:
    """Every seat's stats and the final places from the event log alone."""
    kills, dealt_hp, dealt_grace, taken, moves = [0] * seats, [0] * seats, [0] * seats, [0] * seats, [0] * seats

    def note(source: int | None, hits: tuple[Hit, ...]) -> None:
        for h in hits:
            if source is not None:
                dealt_hp[source] += h.hp_net
                dealt_grace[source] += h.grace_net
            if h.side is Side.PLAYER:
                taken[h.index] += h.hp_net + h.grace_net

    places = None
    for e in log:
        if isinstance(e, Acted | PassiveDone):
            note(e.seat, e.hits)
            if isinstance(e, Acted) and not e.defaulted:
                moves[e.seat] += 1
        elif isinstance(e, OpponentActed):
            note(None, e.hits)
        elif isinstance(e, Fell):
            for k in e.killers:
                kills[k] += 1
        elif isinstance(e, Ended):
            places = e.placements
    stats = [Stats(kills=kills[i], hp_damage=dealt_hp[i], grace_damage=dealt_grace[i], taken=taken[i],
                   moves=moves[i]) for i in range(seats)]
    return stats, places


def play(game: ShengongGame, g: int, stage: int | None = None, *, check_views: bool = False):
    pick = Rng.from_int(1_000_000 + g)
    seed = Rng.from_int(g).seed
    people = entrants(game, pick)
    opts = game.parse_options({"stage": stage} if stage else {})
    state = game.setup(people, opts, Rng(seed, 0))
    decks = {p.seat: p.deck.all_copies() for p in state.players if p.deck is not None}
    log, moves_log, step = [], [], 1
    while (pending := game.pending(state)) is not None:
        # the living, less (宫斗杀) the voided, whose move is the void without them (docs/rules §Voided)
        assert pending.seats == frozenset(p.seat for p in state.living() if game.mode.foes is Foes.SEATS or not p.voided)
        moves = {}
        for seat in sorted(pending.seats):
            if pick.below(10) == 0:
                continue  # did not submit: 待机
            move = random_move(game, state, seat, pick)
            try:
                game.check(state, Viewer.player(seat), move)
            except DomainError:
                if pick.below(2):
                    continue
            moves[seat] = move if pick.below(4) else action_adapter.dump_python(move, mode="json")
        moves_log.append(moves)
        t = game.settle(state, moves, Rng(seed, step))
        _check_round(game, state, t, decks)
        if check_views:
            _spectator_is_anonymous(game, t)
            _order_tells_nothing(game, t)
            assert State.model_validate(t.state.model_dump(mode="json")) == t.state
            for viewer in (Viewer.player(0), Viewer.spectator(), Viewer.host()):
                game.view(t.state, viewer)
        log.extend(t.events)
        state, step = t.state, step + 1
    assert state.over and step - 1 == state.round <= ROUND_LIMIT
    return seed, people, opts, moves_log, state, log, t.results


def _check_end(game: ShengongGame, state: State, log: list, results) -> None:
    (outcome,) = results
    stats, places = recompute(log, len(state.players))
    bosses = game.mode.foes is Foes.BOSSES
    if bosses:
        assert (state.reason == "clear") == all(not o.alive for o in state.opponents)
        assert state.reason != "wipe" or not any(p.alive for p in state.players)
    else:
        assert min(r.place for r in outcome.results) == 1
    for r in outcome.results:
        p = state.players[r.seat]
        assert stats[r.seat] == p.stats
        assert r.stats["kills"] == p.stats.kills and r.stats["deaths"] == (0 if p.alive else 1)
        if bosses:
            dealt = stats[r.seat].hp_damage + stats[r.seat].grace_damage
            assert r.score == (dealt + (300 if p.alive else 0) + 10 * clear_bonus(state.cleared, state.round)) / 10
        else:
            assert places is not None and places[r.seat] == r.place == p.placement
            assert r.score == palace_score(stats[r.seat], r.place)


@pytest.mark.slow
@pytest.mark.parametrize("game", [GAME_A, GAME_B, GAME_C], ids=["A", "B", "C"])
def test_soak_palace_games_to_the_end(game):
    """A/B/C: every game ends (只剩 1 人 or 20 回合) with the invariants above every round and every score
    equal to 击败×3 + 气血伤害×0.5 + 好感伤害×0.4 − 承伤×0.1 + 名次分 recomputed from the events."""
    reasons = set()
    for g in range(GAMES["palace"]):
        _seed, _people, _opts, _moves, state, log, results = play(game, g, check_views=g % 10 == 0)
        _check_end(game, state, log, results)
        reasons.add(state.reason)
    assert reasons <= {"last_standing", "limit"}


@pytest.mark.slow
@pytest.mark.parametrize("stage", [1, 2, 3])
def test_soak_stage_games_to_the_end(stage):
    """D: every game ends (通关 / 全队倒下 / 20 回合) with the invariants above every round and each score
    equal to D⑦ 积分 ＝ 输出伤害 ＋ 存活 30 ＋ 通关奖励 recomputed from the events."""
    reasons = set()
    for g in range(GAMES["stage"]):
        _seed, _people, _opts, _moves, state, log, results = play(GAME_D, g, stage, check_views=g % 5 == 0)
        _check_end(GAME_D, state, log, results)
        reasons.add(state.reason)
    assert reasons <= {"clear", "wipe", "limit"} and (len(reasons) >= 2 or not FULL)


@pytest.mark.parametrize(("game", "stage"), [(GAME_A, None), (GAME_B, None), (GAME_C, None), (GAME_D, 1),
                                             (GAME_D, 3)], ids=["A", "B", "C", "D1", "D3"])
def test_same_seed_and_moves_replay_to_the_same_state(game, stage):
    """DECISIONS (common): any game can be replayed exactly from its initial state and its action log."""
    seed, people, opts, moves_log, final, log, results = play(game, 7, stage)
    state = game.setup(people, opts, Rng(seed, 0))
    events = []
    for step, moves in enumerate(moves_log, start=1):
        t = game.settle(state, moves, Rng(seed, step))
        events.extend(t.events)
        state = t.state
    assert state == final and t.results == results and events == log
    assert state.model_dump_json() == final.model_dump_json()
