"""Bots (简单 SIMPLE, 进阶 ADVANCED): they see only their seat's view, play every mode to the end with
legal moves, and replay exactly from the seed."""

from __future__ import annotations

import inspect

import pytest

from chalicelib.core.game import BotLevel, Entrant, Persona, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong import bots
from chalicelib.games.shengong import game as game_module
from chalicelib.games.shengong.actions import Heal, Idle, Poison
from chalicelib.games.shengong.cards import CATALOGUE
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, GAME_D, ShengongGame
from chalicelib.games.shengong.state import State
from chalicelib.games.shengong.terms import ActionType, Place

from .d.helpers import new_game, profile, shape

# every seat owns distinct R 宫女, so a card id in a view says whose hand it came from
OWN = (("xunyi", "tieshen"), ("xiuzhen", "jinyan"), ("qiaoshe", "shentang"), ("hedinghong", "tongxin"),
       ("yexing", "huayu"), ("bufeng", "yinzhen"), ("mizhao", "chushou"), ("xunyi", "huayu"))


def entrants(n: int, pick: Rng) -> list[Entrant]:
    return [
        Entrant(seat=i, name=f"妃{i}", persona=Persona(
            consort_id=f"c{i}", name=f"妃{i}", looks=pick.between(20, 90), talent=pick.between(20, 90),
            favor=pick.between(20, 90), power=pick.between(20, 90), maids={c: 1 + i % 5 for c in OWN[i]},
            cleared_stages=frozenset({1, 2}),
        ))
        for i in range(n)
    ]


def play(game: ShengongGame, seed: int, stage: int | None = None, levels=None):
    """A whole game of bots; every move is checked by the rules before it is sealed."""
    state = game.setup(entrants(game.max_seats, Rng.from_int(seed)), game.parse_options(
        {"stage": stage} if stage else {}), Rng.from_int(seed, 0))
    log, step = [], 1
    while (pending := game.pending(state)) is not None:
        moves = {}
        for s in sorted(pending.seats):
            level = (levels or {}).get(s, BotLevel.ADVANCED if (s + seed) % 2 else BotLevel.SIMPLE)
            action = game.bot_action(game.view(state, Viewer.player(s)), s, level, Rng.from_int(seed + 1, step * 8 + s))
            assert action is not None
            game.check(state, Viewer.player(s), action)
            moves[s] = action
        t = game.settle(state, moves, Rng.from_int(seed + 2, step))
        log.extend(t.events)
        assert all(not (e.kind == "acted" and e.defaulted and e.seat in moves) for e in t.events)
        state, step = t.state, step + 1
    return state, log, t.results


CASES = [(GAME_A, None), (GAME_B, None), (GAME_C, None), (GAME_D, 1), (GAME_D, 2), (GAME_D, 3)]
IDS = ["A", "B", "C", "D1", "D2", "D3"]


@pytest.mark.parametrize(("game", "stage"), CASES, ids=IDS)
def test_bots_play_every_mode_to_the_end(game, stage):
    """Both levels, every mode: every move passes `check` and the game reaches its end with a result."""
    for seed in range(3):
        state, _log, results = play(game, seed, stage)
        assert state.over and len(results) == 1


@pytest.mark.parametrize(("game", "stage"), CASES, ids=IDS)
def test_the_same_seed_gives_the_same_game(game, stage):
    """DECISIONS (common): every random draw comes from a seeded generator — bots too."""
    first, second, other = play(game, 11, stage), play(game, 11, stage), play(game, 12, stage)
    assert first == second
    assert other[1] != first[1]


def test_a_bot_sees_only_its_own_seats_projection(monkeypatch):
    """Seed 看不见的手 / 玩法C ⑦: a bot gets its seat's view — never another seat's hand or pending move."""
    seen = []

    def spy(view, seat, level, rng):
        seen.append((view, seat))
        return bots.decide(view, seat, level, rng)

    monkeypatch.setattr(game_module, "decide", spy)
    state = GAME_C.setup(entrants(8, Rng.from_int(5)), GAME_C.parse_options({}), Rng.from_int(5, 0))
    for step in range(1, 6):
        moves = {}
        for s in sorted(GAME_C.pending(state).seats):
            moves[s] = GAME_C.bot_action(GAME_C.view(state, Viewer.player(s)), s, BotLevel.ADVANCED, Rng.from_int(s))
            _assert_sees_only_her_own(seen[-1][0], seen[-1][1], state, moves)
        state = GAME_C.settle(state, moves, Rng.from_int(5, step)).state
    assert len(seen) >= 30
    assert list(inspect.signature(bots.decide).parameters) == ["view", "seat", "level", "rng"]


def _assert_sees_only_her_own(view, seat: int, state: State, sealed: dict) -> None:
    assert view.you is not None and view.you.seat == seat and view.private is None
    assert not {"type", "target", "aim", "cards", "my_move"} & set(view.model_dump())
    text = view.model_dump_json()
    for other, p in enumerate(state.players):
        if other == seat or p.deck is None:
            continue
        for copy in (*p.deck.hand, *p.deck.pile, *(f.card for f in p.deck.frozen)):
            if copy.split("#")[0] not in OWN[seat]:
                assert copy not in text and CATALOGUE[copy.split("#")[0]].skill not in text, (seat, other, copy)
    for other, move in sealed.items():
        if other != seat and move.cards.used():
            assert not any(c in text for c in move.cards.used() if c.split("#")[0] not in OWN[seat])


def test_simple_heals_when_low_and_otherwise_strikes_the_weakest():
    """简单: 养生 when low; otherwise attack the weakest visible opponent."""
    s = shape(new_game(1), hp=(5, 15, 15))
    view = GAME_D.view(s, Viewer.player(0))
    assert isinstance(GAME_D.bot_action(view, 0, BotLevel.SIMPLE, Rng.from_int(1)), Heal)
    s3 = shape(new_game(3), opp_hp=(24, 5, 22))
    assert GAME_D.bot_action(GAME_D.view(s3, Viewer.player(1)), 1, BotLevel.SIMPLE, Rng.from_int(1)) == Poison(target=1)


def test_a_voided_bot_can_only_stand_by_and_a_fallen_one_does_nothing():
    """并令其下回合行动作废: a voided seat may only 待机; the fallen never act again."""
    s = new_game(1)
    s = s.model_copy(update={"players": (s.players[0].model_copy(update={"voided": True}),
                                         s.players[1].model_copy(update={"alive": False, "hp": 0}), s.players[2])})
    for level in BotLevel:
        assert GAME_D.bot_action(GAME_D.view(s, Viewer.player(0)), 0, level, Rng.from_int(1)) == Idle()
        assert GAME_D.bot_action(GAME_D.view(s, Viewer.player(1)), 1, level, Rng.from_int(1)) is None


def test_advanced_weighs_cards_and_places_in_d():
    """进阶 in D: 御厨妙手 (送膳) never acts in D, so it is discarded; an attack card fitting her attack is
    played; far from danger she attacks, near death she heals."""
    s = new_game(1, profile("甄嬛", maids=(("chushou", 1), ("xunyi", 3))))
    s = shape(s, hands=(("chushou#1", "xunyi#1"), (), ()))
    action = GAME_D.bot_action(GAME_D.view(s, Viewer.player(0)), 0, BotLevel.ADVANCED, Rng.from_int(1))
    assert "chushou#1" in action.cards.discard
    if action.type is ActionType.POISON:
        assert action.cards.attack == "xunyi#1"
    low = shape(s, hp=(2.5, 15, 15))
    assert isinstance(GAME_D.bot_action(GAME_D.view(low, Viewer.player(0)), 0, BotLevel.ADVANCED, Rng.from_int(1)),
                      Heal)


def test_advanced_leaves_the_kitchen_and_respects_entry_thresholds():
    """进阶 in A/B/C: 御膳房 costs its occupant 好感 every round; a special place is entered only past its
    threshold (御膳房 好感≥6, 摘星楼 气血≥6, 乾清宫 好感≥5)."""
    from .abc.helpers import board, seat

    s = board(seat(0, "御膳房", grace=2), seat(1, "景仁宫"), seat(2, "承乾宫"))
    action = GAME_A.bot_action(GAME_A.view(s, Viewer.player(0)), 0, BotLevel.ADVANCED, Rng.from_int(3))
    GAME_A.check(s, Viewer.player(0), action)
    assert action.type is ActionType.MOVE and action.place is not Place.KITCHEN
    assert action.place not in (Place.KITCHEN, Place.HALL)  # 好感 2 < 5, 6
