"""The games one can open, which are locked (置灰), and the 司礼's switch to open or lock them."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chalice import Blueprint

from chalicelib.accounts import service as accounts
from chalicelib.api.routing import route
from chalicelib.api.schemas import GamesOut, GuideOut, ModesUpdate
from chalicelib.core.identity import Caller
from chalicelib.games import game_keys, get_game
from chalicelib.rooms.deps import default_open_games
from chalicelib.rooms.lobby import option_locks
from chalicelib.wiring import services

bp = Blueprint(__name__)

LOCKED_REASON = "暂未开放，敬请期待"


def _games(open_games: dict[str, bool], caller: Caller) -> dict[str, Any]:
    """Every game, as this caller may use it: a 司礼 opens a room of any game, locked or not (DECISIONS
    #1: her rooms are 锦标赛), and hosts it without a seat, so she needs no 妃子 to open one. Each
    option's choices this caller could not open a room with are in its schema's `x-locked` (choice ->
    the reason, e.g. a 宫斗杀 stage her 妃子 has not unlocked), for the 开房 dialog to grey."""
    games = [get_game(key) for key in game_keys()]
    locks = option_locks(services().room_deps(), caller, games)
    out = []
    for game in games:
        key = game.key
        is_open = open_games.get(key, False)
        out.append({
            "key": key, "family": game.family, "title": game.title, "min_seats": game.min_seats, "max_seats": game.max_seats,
            "open": is_open, "locked_reason": None if is_open else LOCKED_REASON,
            "can_open": is_open or caller.is_admin,
            "host_runs": game.host_runs, "auto_start": game.auto_start,
            "options_schema": _with_locks(game.options_model.model_json_schema(), locks.get(key, {})),
            "fixed_rules": dict(game.fixed_rules), "bots": game.bots and game.bot_fill,
            "needs_consort": game.seats_consorts and not caller.is_admin,
        })
    return {"games": out}


def _with_locks(schema: dict[str, Any], locks: Mapping[str, Mapping[str, str]]) -> dict[str, Any]:
    """The options schema with each locked option's `x-locked` (choice -> reason); a choice not
    named there is open to this caller."""
    props = schema.get("properties", {})
    for name, locked in locks.items():
        props[name] = {**props[name], "x-locked": dict(locked)}
    return schema


@route(bp, "/v1/games", response=GamesOut, tag="games", summary="玩法列表（未开放的玩法置灰并说明原因）",
       errors=(401,))
def list_games(caller: Caller) -> dict[str, Any]:
    return _games(services().room_deps().open_games(), caller)


@route(bp, "/v1/admin/games", "PUT", body=ModesUpdate, response=GamesOut, tag="admin",
       summary="司礼：开放或锁定玩法", errors=(400, 401, 403, 404, 422))
def set_games(caller: Caller, body: ModesUpdate) -> dict[str, Any]:
    stored = accounts.set_open_games(services().account_deps(), caller, body.open)
    return _games({**default_open_games(), **stored}, caller)


@route(bp, "/v1/guides/{game_key}", auth=False, response=GuideOut, tag="games", errors=(404,),
       summary="玩法说明：开房、入席前读的规则（数值取自规则本身）")
def guide(game_key: str) -> dict[str, Any]:
    game = get_game(game_key)  # only this game's package is imported
    return {"key": game_key, "title": game.title,
            "sections": [section.model_dump(mode="json") for section in game.guide()]}
