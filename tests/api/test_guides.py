"""GET /v1/guides/{game_key}: every game's 怎么玩 page over HTTP, readable before logging in."""

from __future__ import annotations

import pytest

from chalicelib.games import game_keys, get_game
from tests.api.helpers import Player, error


@pytest.mark.parametrize("key", game_keys())
def test_every_game_has_a_page_before_login(api, key):
    """A visitor reads how a game goes before she has an account: no token needed; the page is the
    game's own `guide()`, title and all."""
    res = api.http.get(f"/v1/guides/{key}")
    assert res.status_code == 200
    body = res.json_body
    assert body["key"] == key and body["title"] == get_game(key).title
    assert body["sections"] == [s.model_dump(mode="json") for s in get_game(key).guide()]
    assert len(body["sections"]) >= 5 and all(s["title"] and s["lines"] for s in body["sections"])


def test_a_page_names_its_own_game(api):
    """宫斗杀 tells of stages, 竞技局 of the palace's places: each mode its own page."""
    me = Player(api, "甄嬛")
    stage = [s["title"] for s in me.ok("GET", "/v1/guides/shengong_d")["sections"]]
    arena = [s["title"] for s in me.ok("GET", "/v1/guides/shengong_a")["sections"]]
    assert "关卡与对手" in stage and "关卡与对手" not in arena


def test_an_unknown_game_is_a_404_in_the_one_error_shape(api):
    res = api.http.get("/v1/guides/shengong_e")
    assert error(res) == (404, "UNKNOWN_GAME") and "玩法" in res.json_body["message"]
    too_long = api.http.get("/v1/guides/" + "x" * 65)
    assert error(too_long) == (404, "UNKNOWN_GAME")
