"""Recompute a finished game from its published seed and action log (GET …/replay).

Every transition's generator is `Rng(seed, ply)`, so folding the logged actions with the game's own
rules reproduces the final state bit for bit: nobody has to trust the server's dice."""

from __future__ import annotations

from typing import Any

from chalicelib.domain.model import LogKind, LogRecord
from chalicelib.games import get_game
from chalicelib.rooms.history import fold


def recompute(replay: dict[str, Any]) -> Any:
    """The game state at the end of `replay` (the replay endpoint's body)."""
    game = get_game(replay["game"])
    logs = [LogRecord(step=e["step"], kind=LogKind(e["kind"]), label=e.get("label", ""), actor=e.get("actor"),
                      action=e["setup"] if e["kind"] == LogKind.SETUP else e.get("action"), moves=e.get("moves"),
                      at_ms=e["at_ms"], ply=e.get("ply"), undoes=e.get("undoes"))
            for e in replay["log"]]
    return fold(game, bytes.fromhex(replay["seed"]), logs)
