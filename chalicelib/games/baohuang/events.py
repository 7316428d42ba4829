"""Events of 保皇: a discriminated union on `kind`, stored in the room's log as they happened.

Viewers never get an event as such: `lines.report` turns the ones each viewer may see into battle-
report lines (the event's fields plus a Chinese `text`). Only `hand_dealt` and `grab_failed` are
private (their seat and the host).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import Field, TypeAdapter

from chalicelib.games.baohuang.model import DealRecord, Frozen, RedealReason, RevealHow, TableEnd


class DealStarted(Frozen):
    kind: Literal["deal_started"] = "deal_started"
    deal_no: int
    dealer: int
    holder: int
    """Seat that holds the 皇 card and is offered the throne first."""
    counts: tuple[int, ...]
    redeal: bool = False


class HandDealt(Frozen):
    """Private: the cards dealt to `seat`."""

    kind: Literal["hand_dealt"] = "hand_dealt"
    seat: int
    cards: tuple[str, ...]


class ThronePassed(Frozen):
    kind: Literal["throne_passed"] = "throne_passed"
    seat: int
    to: int
    auto: bool = False


class ThroneTaken(Frozen):
    kind: Literal["throne_taken"] = "throne_taken"
    seat: int
    open_solo: bool = False
    called: str | None = None
    auto: bool = False


class Redealt(Frozen):
    kind: Literal["redealt"] = "redealt"
    reason: RedealReason


class Declared(Frozen):
    """Public outcome of the sealed declaration."""

    kind: Literal["declared"] = "declared"
    rebels: tuple[int, ...] = ()
    open_guard: int | None = None
    grab: int | None = None
    """抢独 winner: the new emperor, 明独保."""


class GrabFailed(Frozen):
    """Private to the claimant: her 抢独 did not succeed (the emperor's 独保, or a nearer claimant)."""

    kind: Literal["grab_failed"] = "grab_failed"
    seat: int


class GuardRevealed(Frozen):
    kind: Literal["guard_revealed"] = "guard_revealed"
    seat: int
    how: RevealHow
    solo: bool = False
    """True when the reveal shows the emperor is her own guard (暗独保 exposed)."""
    called: str | None = None
    """Classic, revealed by a card: the called face whose copy was played (simple: the 侍卫 card)."""


class Played(Frozen):
    kind: Literal["played"] = "played"
    seat: int
    cards: tuple[str, ...]
    auto: bool = False


class Passed(Frozen):
    kind: Literal["passed"] = "passed"
    seat: int
    auto: bool = False


class TrickWon(Frozen):
    kind: Literal["trick_won"] = "trick_won"
    seat: int
    leader: int
    """Seat that leads next (the winner, or 接风 the next seat still holding cards)."""


class WentOut(Frozen):
    kind: Literal["went_out"] = "went_out"
    seat: int
    place: int


class DealEnded(Frozen):
    kind: Literal["deal_ended"] = "deal_ended"
    record: DealRecord
    totals: tuple[int, ...]


class AutoChanged(Frozen):
    kind: Literal["auto_changed"] = "auto_changed"
    seat: int
    on: bool


class Ready(Frozen):
    kind: Literal["ready"] = "ready"
    seat: int


class SeatQuit(Frozen):
    kind: Literal["seat_quit"] = "seat_quit"
    seat: int
    kicked: bool = False
    penalty: int = 0


class TableEnded(Frozen):
    kind: Literal["table_ended"] = "table_ended"
    reason: TableEnd
    totals: tuple[int, ...]


Event = Annotated[
    DealStarted | HandDealt | ThronePassed | ThroneTaken | Redealt | Declared | GrabFailed
    | GuardRevealed | Played | Passed | TrickWon | WentOut | DealEnded | AutoChanged | Ready
    | SeatQuit | TableEnded,
    Field(discriminator="kind"),
]
event_adapter: TypeAdapter[Event] = TypeAdapter(Event)
