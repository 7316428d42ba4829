"""Time as a dependency: services take a Clock so tests and the scheduler can inject 'now'."""

from __future__ import annotations

import time
from typing import Protocol


class Clock(Protocol):
    def now_ms(self) -> int: ...


class SystemClock:
    def now_ms(self) -> int:
        return time.time_ns() // 1_000_000


class FixedClock:
    """A clock that moves only when told to (tests, replays of the scheduler)."""

    def __init__(self, now_ms: int = 1_800_000_000_000) -> None:
        self._now = now_ms

    def now_ms(self) -> int:
        return self._now

    def advance(self, seconds: float) -> None:
        self._now += int(seconds * 1000)
