"""The one API test driver: a logged-in player who talks to the API as a phone would (every exchange is
also checked against the contract by the `api` fixture's client)."""

from __future__ import annotations

import json
from typing import Any

from chalicelib.games import get_game

_FAMILY: dict[str, str] = {}
"""room id -> game family, learnt from the room summary (rooms never change game)."""


class Player:
    """A logged-in user driving the API through the Chalice test client."""

    def __init__(self, api: Any, name: str) -> None:
        self.api = api
        self.name = name
        r = api.http.post("/v1/auth/dev", body=json.dumps({"name": name}), headers={"Content-Type": "application/json"})
        assert r.status_code == 200, r.body
        self.token = r.json_body["token"]
        self.user = r.json_body["user"]

    def headers(self, **extra: str) -> dict[str, str]:
        return {"Authorization": self.token, "Content-Type": "application/json", **extra}

    # -- raw calls ------------------------------------------------------------------------------------

    def get(self, path: str, **headers: str) -> Any:
        return self.api.http.get(path, headers=self.headers(**headers))

    def post(self, path: str, body: Any = None, **headers: str) -> Any:
        data = body if isinstance(body, (str, bytes)) else json.dumps(body or {})
        return self.api.http.post(path, body=data, headers=self.headers(**headers))

    def put(self, path: str, body: Any = None) -> Any:
        return self.api.http.put(path, body=json.dumps(body or {}), headers=self.headers())

    def ok(self, method: str, path: str, body: Any = None) -> Any:
        r = self.post(path, body) if method == "POST" else self.put(path, body) if method == "PUT" else self.get(path)
        assert r.status_code == 200, (path, r.status_code, r.body)
        return r.json_body

    # -- rooms ----------------------------------------------------------------------------------------

    def open_room(self, game: str, options: dict[str, Any] | None = None, **body: Any) -> str:
        room = self.ok("POST", "/v1/rooms", {"game": game, "options": options or {}, **body})["room"]
        _FAMILY[room["id"]] = get_game(room["game"]).family
        return str(room["id"])

    def summary(self, room_id: str) -> dict[str, Any]:
        body: dict[str, Any] = self.ok("GET", f"/v1/rooms/{room_id}")
        _FAMILY.setdefault(room_id, get_game(body["room"]["game"]).family)
        return body

    def family(self, room_id: str) -> str:
        if room_id not in _FAMILY:
            self.summary(room_id)
        return _FAMILY[room_id]

    def game_path(self, room_id: str, suffix: str = "") -> str:
        """The per-game path of a room: /v1/games/{family}/rooms/{room_id}{suffix}."""
        return f"/v1/games/{self.family(room_id)}/rooms/{room_id}{suffix}"

    def view(self, room_id: str) -> dict[str, Any]:
        """The room and the game as this player sees them."""
        body: dict[str, Any] = self.ok("GET", self.game_path(room_id))
        return body

    def act(self, room_id: str, action: dict[str, Any], step: int | None = None, query: str = "") -> Any:
        """Send an action for `step` (default: the step the room shows her; none where it is hidden);
        `query` (e.g. "?reports_after=3") asks the answer's view for what GET would fold in."""
        if step is None:
            step = self.view(room_id)["room"]["step"]
        body: dict[str, Any] = {"action": action} if step is None else {"step": step, "action": action}
        return self.post(self.game_path(room_id, f"/actions{query}"), body)

    def reports(self, room_id: str, after: int = 0, limit: int = 100) -> dict[str, Any]:
        body: dict[str, Any] = self.ok("GET", self.game_path(room_id, f"/reports?after={after}&limit={limit}"))
        return body

    def result(self, room_id: str) -> dict[str, Any]:
        body: dict[str, Any] = self.ok("GET", self.game_path(room_id, "/result"))
        return body

    def replay(self, room_id: str) -> dict[str, Any]:
        body: dict[str, Any] = self.ok("GET", self.game_path(room_id, "/replay"))
        return body


def error(r: Any) -> tuple[int, str]:
    """(status, code) of an error response, asserting the one error shape."""
    body = r.json_body
    assert set(body) <= {"code", "message", "details"} and {"code", "message"} <= set(body), body
    assert any("\u4e00" <= ch <= "\u9fff" for ch in body["message"]), body  # Chinese for the player
    return r.status_code, body["code"]
