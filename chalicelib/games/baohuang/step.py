"""A transition under construction: the newest frozen state plus the events and results so far.

Rules functions take a `Step`, replace its state with updated copies (never mutate a model) and
append events; `game.py` turns the finished step into a `Transition`.
"""

from __future__ import annotations

from typing import Any

from chalicelib.core.game import Outcome
from chalicelib.games.baohuang.model import BaohuangState, Deal, LogEntry


class Step:
    __slots__ = ("events", "results", "state")

    def __init__(self, state: BaohuangState) -> None:
        self.state = state
        self.events: list[Any] = []
        self.results: list[Outcome] = []

    @property
    def deal(self) -> Deal:
        deal = self.state.deal
        if deal is None:
            raise RuntimeError("no running deal")
        return deal

    def set(self, **changes: Any) -> None:
        self.state = self.state.model_copy(update=changes)

    def set_deal(self, **changes: Any) -> None:
        self.state = self.state.model_copy(update={"deal": self.deal.model_copy(update=changes)})

    def emit(self, *events: Any) -> None:
        self.events.extend(events)

    def log(self, seat: int, act: str, cards: tuple[str, ...] = (), note: str = "", auto: bool = False) -> None:
        entry = LogEntry.model_construct(seat=seat, act=act, cards=cards, note=note, auto=auto)
        self.set_deal(log=self.deal.log + (entry,))
