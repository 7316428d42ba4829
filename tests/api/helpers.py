"""Small HTTP helpers for API tests."""

from __future__ import annotations

import json
from typing import Any


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

    def view(self, room_id: str) -> dict:
        return self.ok("GET", f"/v1/rooms/{room_id}")

    def act(self, room_id: str, action: dict, step: int | None = None) -> Any:
        if step is None:
            step = self.view(room_id)["room"]["step"]
        return self.post(f"/v1/rooms/{room_id}/actions", {"step": step, "action": action})


def error(r: Any) -> tuple[int, str]:
    """(status, code) of an error response, asserting the one error shape."""
    body = r.json_body
    assert set(body) <= {"code", "message", "details"} and {"code", "message"} <= set(body), body
    assert any("\u4e00" <= ch <= "\u9fff" for ch in body["message"]), body  # Chinese for the player
    return r.status_code, body["code"]
