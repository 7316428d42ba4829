"""Registry of games: the only place that names them all. Adding a game touches its own package and
one line here. Modules load on first use so a cold Lambda imports only the game it serves."""

from __future__ import annotations

import importlib
from functools import cache

from chalicelib.core.errors import NotFound
from chalicelib.core.game import AnyGame, Game

# key -> ("module:attribute" of the Game instance, contract family)
_GAMES: dict[str, tuple[str, str]] = {
    "shengong_d": ("chalicelib.games.shengong.game:GAME_D", "shengong"),
    "shengong_a": ("chalicelib.games.shengong.game:GAME_A", "shengong"),
    "shengong_b": ("chalicelib.games.shengong.game:GAME_B", "shengong"),
    "shengong_c": ("chalicelib.games.shengong.game:GAME_C", "shengong"),
    "baohuang": ("chalicelib.games.baohuang.game:GAME", "baohuang"),
    "zhenhuan": ("chalicelib.games.zhenhuan.game:GAME", "zhenhuan"),
}
"""The family is listed here too so routes can be declared per family without importing any game."""

LATE_JOIN_FAMILIES = frozenset({"zhenhuan"})
"""Families whose games seat late entrants (`Game.late_join`): they get an admit route typed with
their `admit_model`."""
CATALOGUE_FAMILIES = frozenset({"zhenhuan"})
"""Families whose games publish a catalogue (`Game.catalogue_model`), served at /v1/games/{family}/catalogue.
Both sets are listed here so routes exist before any game is imported; a test keeps them in step."""


def game_keys() -> tuple[str, ...]:
    return tuple(_GAMES)


def families() -> dict[str, tuple[str, ...]]:
    """Contract family -> the game keys in it, in registry order."""
    out: dict[str, list[str]] = {}
    for key, (_, family) in _GAMES.items():
        out.setdefault(family, []).append(key)
    return {f: tuple(keys) for f, keys in out.items()}


def register(key: str, target: str, family: str) -> None:
    """Add a game (tests register their fake games exactly as a real one is listed above)."""
    _GAMES[key] = (target, family)
    get_game.cache_clear()


def unregister(key: str) -> None:
    _GAMES.pop(key, None)
    get_game.cache_clear()


@cache
def get_game(key: str) -> AnyGame:
    """The Game registered under `key`.

    Raises:
        NotFound: UNKNOWN_GAME (the message lists the games there are).
    """
    entry = _GAMES.get(key)
    if entry is None:
        raise NotFound(f"没有这个玩法：{key}（可选：{'、'.join(_GAMES)}）", code="UNKNOWN_GAME")
    target, family = entry
    module, attr = target.split(":")
    game = getattr(importlib.import_module(module), attr)
    if not isinstance(game, Game) or game.key != key or game.family != family:
        raise TypeError(f"{target} is not the Game registered as {key!r} in family {family!r}")
    return game
