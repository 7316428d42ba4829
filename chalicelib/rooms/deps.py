"""What the room service needs, passed in (wiring builds the real ones; tests inject clocks and seeds)."""

from __future__ import annotations

import base64
import hashlib
import json
import random
import secrets
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from chalicelib.core.clock import Clock
from chalicelib.domain.ports import AccountStore, RoomStore
from chalicelib.games import game_keys, get_game


def new_room_id() -> str:
    return base64.b32encode(secrets.token_bytes(10)).decode().lower()


def new_room_code() -> str:
    """Six digits, never starting with 0 (a code read aloud or typed keeps all six)."""
    return str(100_000 + secrets.randbelow(900_000))


def room_id_for_request(user_id: str, request_key: str) -> str:
    """A retried create with the same Idempotency-Key maps to the same room id."""
    digest = hashlib.sha256(f"{user_id}\x00{request_key}".encode()).digest()
    return base64.b32encode(digest[:10]).decode().lower()


def request_hash(*parts: object) -> str:
    """What a request asked for, to tell a retry (same hash) from a reused Idempotency-Key (another)."""
    text = json.dumps(parts, ensure_ascii=False, sort_keys=True, separators=(",", ":"), default=str)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


JOIN_ATTEMPTS = 8
"""Joins (and requests to join) race only with each other and leaves of the same room; a lost race
is simply redone, after a short random pause (`contended_tries`): twenty joins at once all get in."""


def contended_tries(n: int) -> Iterator[int]:
    """Tries of a write that races others on one room item: the first at once, each later one after
    a short random pause, so a burst (twenty friends joining by one link) does not retry in lockstep
    and lose together again."""
    for i in range(n):
        if i:
            time.sleep(random.uniform(0, 0.005 * i))
        yield i


def default_open_games() -> dict[str, bool]:
    """Each game's own default (DECISIONS 深宫杀 #1: only D open until the 司礼 opens A/B/C)."""
    return {key: get_game(key).default_open for key in game_keys()}


@dataclass
class RoomDeps:
    rooms: RoomStore
    accounts: AccountStore
    clock: Clock
    new_seed: Callable[[], bytes] = field(default=lambda: secrets.token_bytes(32))
    new_id: Callable[[], str] = field(default=new_room_id)
    new_code: Callable[[], str] = field(default=new_room_code)
    check_text: Callable[[str, str], None] = field(default=lambda text, user: None)
    """Content security for what `user` typed that others will read (raises a DomainError to refuse);
    wiring plugs in WeChat's msgSecCheck (deployed) or the local word check."""

    def open_games(self) -> dict[str, bool]:
        stored = self.accounts.get_open_games()
        return {**default_open_games(), **(stored or {})}

    def is_open(self, key: str) -> bool:
        """Whether players may open `key` now (loads only that game)."""
        stored = self.accounts.get_open_games() or {}
        return stored[key] if key in stored else get_game(key).default_open
