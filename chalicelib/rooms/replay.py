"""Recompute a finished game from its published seed and action log (GET /v1/rooms/{id}/replay).

Every transition's generator is `Rng(seed, step)`, so applying the logged actions in order with the
game's own rules reproduces the final state bit for bit: nobody has to trust the server's dice.
"""

from __future__ import annotations

from typing import Any

from chalicelib.core.rng import Rng
from chalicelib.games import get_game
from chalicelib.rooms.engine import viewer_from_json
from chalicelib.rooms.lobby import entrant_from_json


def recompute(replay: dict[str, Any]) -> Any:
    """The game state after every logged transition of `replay` (the replay endpoint's body)."""
    game = get_game(replay["game"])
    seed = bytes.fromhex(replay["seed"])
    setup, *transitions = replay["log"]
    if setup["kind"] != "setup" or setup["step"] != 0:
        raise ValueError("a replay starts with its setup")
    entrants = [entrant_from_json(e) for e in setup["setup"]["entrants"]]
    options = game.parse_options(setup["setup"]["options"])
    state = game.setup(entrants, options, Rng(seed, 0))
    for expected_step, entry in enumerate(transitions, start=1):
        if entry["step"] != expected_step:
            raise ValueError(f"log step {entry['step']} where {expected_step} was expected")
        rng = Rng(seed, entry["step"])
        if entry["kind"] == "settle":
            moves = {int(seat): game.parse_action(a) for seat, a in (entry["moves"] or {}).items()}
            state = game.settle(state, moves, rng).state
        elif entry["kind"] == "apply":
            action = game.parse_action(entry["action"])
            state = game.apply(state, viewer_from_json(entry["actor"]), action, rng).state
        elif entry["kind"] == "timeout":
            state = game.on_timeout(state, rng).state
        else:
            raise ValueError(f"unknown log entry kind {entry['kind']!r}")
    return state
