"""A transition under construction: the newest frozen state plus the events and results so far.

Rules functions take a `Step`, replace its state with updated copies (never mutate a model) and
append events; `game.py` turns the finished step into a `Transition`.
"""

from __future__ import annotations

from typing import Any

from chalicelib.core.game import Outcome
from chalicelib.games.baohuang.events import AutoChanged, Event, Ready
from chalicelib.games.baohuang.model import Act, BaohuangState, Deal, LogEntry


class Step:
    __slots__ = ("events", "results", "state")

    def __init__(self, state: BaohuangState) -> None:
        self.state = state
        self.events: list[Event] = []
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

    def emit(self, *events: Event) -> None:
        self.events.extend(events)

    def log(self, seat: int, act: Act, cards: tuple[str, ...] = (), note: str = "", auto: bool = False) -> None:
        entry = LogEntry.model_construct(seat=seat, act=act, cards=cards, note=note, auto=auto)
        self.set_deal(log=self.deal.log + (entry,))

    def set_auto(self, seat: int, on: bool, clock: bool = False) -> None:
        """Put `seat` in 托管 (`clock`: her turn's clock ran out, she did not ask) or take her out of it
        (an `auto_changed` event when it changes). A seat already in 托管 keeps how she got there."""
        if self.state.auto[seat] != on:
            self.set(auto=tuple(on if s == seat else a for s, a in enumerate(self.state.auto)),
                     timed_out=tuple(on and clock if s == seat else t for s, t in enumerate(self.state.timed_out)))
            self.emit(AutoChanged(seat=seat, on=on))

    def set_ready(self, seat: int) -> None:
        """Between deals: `seat` pressed 继续 (a `ready` event the first time)."""
        if not self.state.ready[seat]:
            self.set(ready=tuple(True if s == seat else r for s, r in enumerate(self.state.ready)))
            self.emit(Ready(seat=seat))
