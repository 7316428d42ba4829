"""Registry of games. Modules load on first use so a cold Lambda imports only the game it serves."""

from __future__ import annotations

import importlib
from functools import cache
from typing import Any

from chalicelib.core.errors import NotFound

# key -> "module:attribute" of the Game instance
_GAMES: dict[str, str] = {
    "shengong_d": "chalicelib.games.shengong.coop.game:GAME",
    "shengong_a": "chalicelib.games.shengong.melee.game:GAME_A",
    "shengong_b": "chalicelib.games.shengong.melee.game:GAME_B",
    "shengong_c": "chalicelib.games.shengong.melee.game:GAME_C",
    "baohuang": "chalicelib.games.baohuang.game:GAME",
    "zhenhuan": "chalicelib.games.zhenhuan.game:GAME",
}


def game_keys() -> tuple[str, ...]:
    return tuple(_GAMES)


@cache
def get_game(key: str) -> Any:
    """The Game instance registered under `key` (see chalicelib.core.game.Game)."""
    target = _GAMES.get(key)
    if target is None:
        raise NotFound(f"没有这个玩法：{key}", code="UNKNOWN_GAME")
    module, attr = target.split(":")
    return getattr(importlib.import_module(module), attr)
