"""Seeded random games driven by a random storyteller: no player or spectator ever sees another
player's role, status or private information (views and reports), while the storyteller sees it all;
after the end everyone sees the full grimoire."""

from __future__ import annotations

import json
import re

import pytest

from chalicelib.core.game import Viewer
from chalicelib.games.zhenhuan.events import PUBLIC_KINDS
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import ROLES, TRAVELLER
from chalicelib.games.zhenhuan.state import STATUS_NAMES, GameState, Phase, StatusKind

from .driver import play
from .helpers import HOST

SECRET_WORDS = tuple(
    sorted(
        {k for k in ROLES if k != TRAVELLER}
        | {r.name for r in ROLES.values() if r.key != TRAVELLER}
        | {k.value for k in StatusKind}
        | set(STATUS_NAMES.values()),
        key=len,
        reverse=True,
    )
)
SECRET = re.compile("|".join(map(re.escape, SECRET_WORDS)))
GAMES, CHUNKS = 240, 6
FULL_SWEEP_EVERY = 8
"""Every 8th game checks every seat at every step; the others check one seat (plus the spectator)."""


def _secrets_in(text: str) -> list[str]:
    return SECRET.findall(text)


def _check_player(state: GameState, seat: int | None) -> None:
    viewer = Viewer.player(seat) if seat is not None else Viewer.spectator()
    dumped = GAME.view(state, viewer).model_dump(mode="json")
    over = state.phase is Phase.OVER
    me = dumped.pop("me")
    if over:
        assert [s["role"] for s in dumped["grimoire"]["seats"]] == [s.role for s in state.seats]
        return
    assert dumped["grimoire"] is None
    log = dumped.pop("log")
    assert all(e["kind"] in PUBLIC_KINDS for e in log), "event texts are checked once, in the reports"
    leaked = _secrets_in(json.dumps(dumped, ensure_ascii=False))
    assert not leaked, f"seat {seat} sees {leaked}"
    if seat is None:
        assert me is None
        return
    assert set(me) == {"seat", "role", "role_name", "alignment", "info"}
    assert all(e["seat"] == seat for e in me["info"])
    if state.phase is not Phase.SETUP:
        assert me["role"] == state.seats[seat].role


def _check_host(state: GameState) -> None:
    text = GAME.view(state, HOST).model_dump_json()
    assert all(f'"role":"{s.role}"' in text for s in state.seats)


def _check_reports(state: GameState, events: tuple, seats: range) -> None:
    over = state.phase is Phase.OVER
    for seat in seats:
        for event in GAME.report(state, events, Viewer.player(seat)):
            dumped = event.model_dump(mode="json")
            if over:
                continue
            if dumped["kind"] in ("info", "you_are"):
                assert dumped["seat"] == seat
            else:
                assert dumped["kind"] in PUBLIC_KINDS
                assert not _secrets_in(json.dumps(dumped, ensure_ascii=False)), dumped
    for event in GAME.report(state, events, Viewer.spectator()):
        assert over or (event.kind in PUBLIC_KINDS and not _secrets_in(event.model_dump_json()))
    assert list(GAME.report(state, events, HOST)) == list(events)


@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_never_leak_secrets(chunk: int) -> None:
    """Each player then sees only her own role and alignment; players learn who died, never why."""
    per = GAMES // CHUNKS
    ended = 0
    for seed in range(chunk * per, (chunk + 1) * per):
        state = None
        for state, t in play(seed):
            seats = range(len(state.seats))
            full = seed % FULL_SWEEP_EVERY == 0 or state.phase is Phase.OVER
            viewers = seats if full else range(seed % len(seats), seed % len(seats) + 1)
            for seat in viewers:
                _check_player(state, seat)
            _check_player(state, None)
            _check_host(state)
            if t is not None:
                _check_reports(state, t.events, viewers)
                assert bool(t.results) == (state.phase is Phase.OVER)
        assert state is not None and state.phase is Phase.OVER
        ended += 1
    assert ended == per


def test_random_games_replay_exactly_from_seed_and_actions() -> None:
    """DECISIONS (common): any game can be replayed exactly from its initial state and its action log."""
    first = [s for s, _ in play(4242)]
    second = [s for s, _ in play(4242)]
    assert first[-1] == second[-1] and len(first) == len(second)
    again = GAME.state_model.model_validate(first[-1].model_dump(mode="json"))
    assert again == first[-1]
