"""What the room service needs, passed in (wiring builds the real ones; tests inject clocks and seeds)."""

from __future__ import annotations

import base64
import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chalicelib.core.clock import Clock

DEFAULT_OPEN_GAMES: dict[str, bool] = {
    # DECISIONS 深宫杀 #1: only D open by default; A/B/C shown locked until the 司礼 opens them.
    "shengong_d": True,
    "shengong_a": False,
    "shengong_b": False,
    "shengong_c": False,
    "baohuang": True,
    "zhenhuan": True,
}


def new_room_id() -> str:
    return base64.b32encode(secrets.token_bytes(10)).decode().lower()


def room_id_for_request(user_id: str, request_key: str) -> str:
    """A retried create with the same Idempotency-Key maps to the same room id."""
    digest = hashlib.sha256(f"{user_id}\x00{request_key}".encode()).digest()
    return base64.b32encode(digest[:10]).decode().lower()


@dataclass
class RoomDeps:
    rooms: Any
    accounts: Any
    clock: Clock
    new_seed: Callable[[], bytes] = field(default=lambda: secrets.token_bytes(32))
    new_id: Callable[[], str] = field(default=new_room_id)

    def open_games(self) -> dict[str, bool]:
        stored = self.accounts.get_open_games()
        return {**DEFAULT_OPEN_GAMES, **(stored or {})}
