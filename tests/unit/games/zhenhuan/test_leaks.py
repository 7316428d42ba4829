"""Seeded random games driven by a random storyteller and table: no player or spectator ever sees
another player's role, status, alignment (a traveller's included) or private information (views and
reports), nor the grimoire's reminders, notes, suggested false answers or night plan; the storyteller
sees it all; after the end everyone sees the full grimoire. Undo notices never tell anyone more.

The default run is small; `SOAK_FULL=1` plays the full soak."""

from __future__ import annotations

import json
import os
from typing import Any

import pytest

from chalicelib.core.game import Viewer
from chalicelib.games.zhenhuan.enums import STATUS_NAMES, StatusKind
from chalicelib.games.zhenhuan.events import PUBLIC_KINDS
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import ROLES, TRAVELLER
from chalicelib.games.zhenhuan.state import GameState, Phase

from .driver import play
from .helpers import HOST

SECRET_WORDS = tuple(
    sorted(
        {k.value for k in ROLES if k != TRAVELLER}
        | {r.name for r in ROLES.values() if r.key != TRAVELLER}
        | {k.value for k in StatusKind}
        | set(STATUS_NAMES.values())
        | {"善良", "邪恶", '"good"', '"evil"'}  # alignments, a traveller's too
        | {"私聊", "受保护", "像是坏人", "reminders", "suggestion", "当作恶魔", "告知与真实"},  # grimoire only
        key=len,
        reverse=True,
    )
)
FULL = os.environ.get("SOAK_FULL") == "1"
GAMES, CHUNKS = (240, 6) if FULL else (12, 2)
FULL_SWEEP_EVERY = 8 if FULL else 6
"""Every few games check every seat at every step; the others check one seat (plus the spectator)."""
PRIVATE = ("info", "you_are", "tell")


def _secrets_in(data: Any) -> list[str]:
    text = json.dumps(data, ensure_ascii=False)
    return [w for w in SECRET_WORDS if w in text]


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
    assert all(e["kind"] in PUBLIC_KINDS or e["kind"] == "withdrawn" for e in log), "texts are checked in reports"
    leaked = _secrets_in(dumped)
    assert not leaked, f"seat {seat} sees {leaked}"
    if seat is None:
        assert me is None
        return
    assert set(me) == {"seat", "role", "role_name", "ability", "alignment", "info"}
    assert all(e["seat"] == seat for e in me["info"])
    told = [e for e in state.log if e.kind == "you_are" and e.seat == seat]
    assert me["role"] == (told[-1].role if told else None)


def _check_host(state: GameState) -> None:
    text = GAME.view(state, HOST).model_dump_json()
    assert all(f'"role":"{s.role}"' in text for s in state.seats)


def _seen(state: GameState, events: Any, viewer: Viewer) -> list[str]:
    return [e.text for e in GAME.report(state, events, viewer)]  # type: ignore[attr-defined]


def _check_reports(state: GameState, events: tuple, seats: range) -> None:
    over = state.phase is Phase.OVER
    for seat in seats:
        for event in GAME.report(state, events, Viewer.player(seat)):
            dumped = event.model_dump(mode="json")
            if over:
                continue
            if dumped["kind"] in PRIVATE:
                assert dumped["seat"] == seat
            else:
                assert dumped["kind"] in PUBLIC_KINDS
                assert not _secrets_in(dumped), dumped
    for event in GAME.report(state, events, Viewer.spectator()):
        assert over or (event.kind in PUBLIC_KINDS and not _secrets_in(event.model_dump(mode="json")))
    assert list(GAME.report(state, events, HOST)) == list(events)


def _check_withdrawn(before: GameState, after: GameState, events: tuple, seats: range) -> None:
    """Undoing this transition tells each viewer only that what she saw is withdrawn."""
    notices = GAME.withdrawn(after, events)
    for viewer in [Viewer.player(s) for s in seats] + [Viewer.spectator()]:
        saw = _seen(after, events, viewer)
        told = GAME.report(before, notices, viewer)
        if not saw:
            assert told == [], (viewer, told)
        for notice in told:
            assert notice.kind == "withdrawn"  # type: ignore[attr-defined]
            assert set(notice.lines) <= set(saw)  # type: ignore[attr-defined]


def _check_night_board(before: GameState, after: GameState) -> None:
    """DECISIONS #9: the public board changes only at dawn — through a night, every seat still in the
    game is alive or dead, with or without her ghost vote, as the table last saw her (a departure is
    public at once)."""
    if before.phase is not Phase.NIGHT or after.phase is not Phase.NIGHT:
        return
    seen = GAME.view(before, Viewer.spectator()).seats
    now = GAME.view(after, Viewer.spectator()).seats
    for old, new in zip(seen, now, strict=True):
        if not new.departed:
            assert (new.alive, new.ghost_vote) == (old.alive, old.ghost_vote), (old, new)


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
def test_random_games_never_leak_secrets(chunk: int) -> None:
    """Each player then sees only her own role and alignment; players learn who died, never why;
    travellers' alignment stays secret (DECISIONS #13); reminders, notes and suggested false answers
    are the storyteller's; undo notices reach only who had seen the undone information; the public
    board does not move during a night (DECISIONS #9)."""
    per = GAMES // CHUNKS
    for seed in range(chunk * per, (chunk + 1) * per):
        game = play(seed)
        for i, state in enumerate(game.states):
            seats = range(len(state.seats))
            full = seed % FULL_SWEEP_EVERY == 0 or state.phase is Phase.OVER
            viewers = seats if full else range(seed % len(seats), seed % len(seats) + 1)
            for seat in viewers:
                _check_player(state, seat)
            _check_player(state, None)
            _check_host(state)
            pending = GAME.pending(state)
            assert pending is None or pending.label == "说书人" or pending.label.startswith("投票计时#"), pending
            if i == 0:
                continue
            t = game.transitions[i - 1]
            _check_night_board(game.states[i - 1], state)
            _check_reports(state, t.events, viewers)
            assert bool(t.results) == (state.phase is Phase.OVER)
            entry = game.entries[i - 1]
            if entry.kind == "apply" and GAME.undoable(game.states[i - 1], entry.actor, entry.action):
                _check_withdrawn(game.states[i - 1], state, t.events, seats)
        assert game.states[-1].phase is Phase.OVER


def test_random_games_replay_exactly_from_seed_and_actions() -> None:
    """DECISIONS (common): any game can be replayed exactly from its initial state and its action log."""
    first, second = play(4242), play(4242)
    assert first.states[-1] == second.states[-1] and len(first.states) == len(second.states)
    again = GAME.state_model.model_validate(first.states[-1].model_dump(mode="json"))
    assert again == first.states[-1]
