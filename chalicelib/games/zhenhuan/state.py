"""Frozen game state of 血染甄嬛传. Everything the storyteller's grimoire holds lives here.

Time: night n is followed by day n; the game starts with night 1. A status ends at a point in time
(`Expiry`: the dusk that starts night n, or the dawn that ends night n), or never.

The state is everything: `apply` reads nothing else but the action and the transition's `Rng`, so a
game replays exactly from its setup and its action log (the platform's undo relies on it).
"""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field, field_validator

from chalicelib.games.zhenhuan.enums import (
    Ability,
    ButtonKind,
    DeathCause,
    ExpiryAt,
    OwedKind,
    Phase,
    StatusKind,
    StepKey,
)
from chalicelib.games.zhenhuan.events import Answer, Event
from chalicelib.games.zhenhuan.roles import Alignment, RoleKey

__all__ = ["Phase", "StatusKind"]


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Expiry(Frozen):
    at: ExpiryAt
    night: int


class Status(Frozen):
    seat: int
    kind: StatusKind
    source: RoleKey | None = None
    """Role that caused it; None = the storyteller."""
    source_seat: int | None = None
    until: Expiry | None = None
    """None: permanent (浣碧 beside 果郡王)."""


class LastPick(Frozen):
    """The previous target of a no-repeat ability (果郡王, 宠妃, 齐妃)."""

    ability: Ability
    target: int


class SeatState(Frozen):
    seat: int
    name: str
    role: RoleKey
    alignment: Alignment
    alive: bool = True
    ghost_vote: bool = True
    """Dead players keep one ghost vote until they spend it."""
    original_role: RoleKey | None = None
    """The role before the latest transformation (宠妃 to restore; 皇后/甄嬛 behind a 女皇)."""
    original_alignment: Alignment | None = None
    spent: frozenset[Ability] = frozenset()
    """Once-per-game abilities used (reset by 叶澜依's revival and by a change of role)."""
    last_pick: LastPick | None = None
    link: int | None = None
    """玉娆's linked good player."""
    traveller_identity: str | None = None
    traveller_ability: str = ""
    traveller_female: bool = False
    admitted: bool = False
    """A traveller who joined the running game."""
    departed: bool = False
    """A traveller who left: no longer plays, counts nowhere, keeps her seat number."""


class StepRecord(Frozen):
    """What happened at one night step: for the storyteller's book."""

    step: StepKey
    actor: int | None
    targets: tuple[int | None, ...] = ()
    skipped: bool = False
    disabled: str | None = None
    impaired: bool = False
    truth: Answer | None = None
    given: Answer | None = None
    suggested: Answer | None = None
    note: str = ""

    @property
    def passed(self) -> bool:
        return self.skipped or self.disabled is not None


class NightDeath(Frozen):
    seat: int
    cause: DeathCause
    by: int | None = None


class NightState(Frozen):
    number: int
    cursor: int = 0
    """Index into this night's order; len(order) = every step is done, waiting for 天亮."""
    reopened: StepKey | None = None
    """A passed step the storyteller reopened: it is current until resolved; the cursor waits."""
    salt: int = 0
    """Drawn from the transition's Rng whenever the current step changes: seeds the false-answer suggestion."""
    records: tuple[StepRecord, ...] = ()
    deaths: tuple[NightDeath, ...] = ()
    """Died tonight (dusk included): dead at once, announced at dawn."""
    conversion: int | None = None
    """Tonight's effective 雨露均沾 target (三阿哥 is caught touching her)."""
    counter_kill: tuple[int, int] | None = None
    """(甄嬛, her killer): at dawn 甄嬛 becomes 女皇."""
    counter_kill_alive: int | None = None
    """Living players just before the counter-kill, 皇上 included: 皇后's count if 甄嬛 dies again (#8)."""
    succession: tuple[int, int] | None = None
    """(太上皇, successor): at dawn the successor becomes 皇上."""
    revive: int | None = None
    qiguiren: tuple[int, int] | None = None
    """(祺贵人, suggested random victim) when yesterday's accusation was right."""

    @property
    def dusk_deaths(self) -> tuple[int, ...]:
        return tuple(d.seat for d in self.deaths if d.cause in (DeathCause.CURSE, DeathCause.QIGUIREN))


class Nomination(Frozen):
    nominator: int
    nominee: int
    exile: bool = False
    """A call to exile a traveller: anyone may call it, everyone may vote, no ghost vote is spent."""
    voters: tuple[int, ...] | None = None
    """None until the vote is closed; then the raised hands in circle order from the nominee."""
    ghost: tuple[int, ...] = ()
    """Voters who spent their ghost vote on it."""
    threshold: int = 0
    """The votes needed when it was counted."""


class Hand(Frozen):
    seat: int
    yes: bool
    dead: bool = False
    """She was dead when she raised it: a ghost vote (one raised alive stays a living vote, whatever
    happens to her before the count)."""


class VoteClock(Frozen):
    """An open vote on the last nomination: players vote from their phones until it closes."""

    serial: int
    seconds: int
    hands: tuple[Hand, ...] = ()


class Accusation(Frozen):
    by: int
    target: int
    role: RoleKey
    correct: bool
    effective: bool


class Proposal(Frozen):
    """A forced execution the rules call for; the storyteller presses 「处决」."""

    seat: int
    reason: str


class Alert(Frozen):
    """A reminder to the storyteller about one seat today, and the button it asks her to press."""

    text: str
    seat: int | None = None
    """Whom it is about: once she is dead (or gone), or the day has had its execution, it is done."""
    press: ButtonKind | None = None


class DayState(Frozen):
    number: int
    nominations: tuple[Nomination, ...] = ()
    clock: VoteClock | None = None
    block: int | None = None
    block_votes: int = 0
    executed: int | None = None
    executed_done: bool = False
    proposals: tuple[Proposal, ...] = ()
    accusations: tuple[Accusation, ...] = ()
    used: tuple[tuple[int, Ability], ...] = ()
    """(seat, ability) day abilities used today."""
    alerts: tuple[Alert, ...] = ()
    """Today's reminders to the storyteller (一丈红 nominated, 禁言)."""

    @field_validator("alerts", mode="before")
    @classmethod
    def _plain_text_alerts(cls, value: object) -> object:
        """A day stored before alerts named their seat held plain lines: read them as alerts about no one."""
        if isinstance(value, (list, tuple)):
            return tuple({"text": item} if isinstance(item, str) else item for item in value)
        return value


class Owed(Frozen):
    kind: OwedKind
    seat: int


class Reminder(Frozen):
    """A reminder token on a seat in the grimoire (storyteller only)."""

    id: int
    seat: int
    role: RoleKey | None
    """The role whose token it is; None = the storyteller's own."""
    token: str
    auto: bool = False
    """Placed by the engine (moved when the role chooses again)."""
    until: Expiry | None = None
    """A timed effect's token (一丈红, 按住, 受保护, 中毒…) is taken off when its time is up, whether or not
    the effect took hold (a drunk 果郡王's choice is marked, and goes at the same dusk)."""


class Note(Frozen):
    seat: int
    text: str


class EndProposal(Frozen):
    """A met win condition (or the storyteller's word) waiting for 「确认结束」."""

    winner: Alignment
    reason: str
    declared: bool = False
    """Declared by the storyteller rather than detected."""


class ZhenhuanOptions(Frozen):
    script: Literal["zhenhuan"] = "zhenhuan"


class GameState(Frozen):
    options: ZhenhuanOptions = Field(default_factory=ZhenhuanOptions)
    phase: Phase = Phase.SETUP
    seats: tuple[SeatState, ...]
    bluffs: tuple[RoleKey, ...] = ()
    statuses: tuple[Status, ...] = ()
    night_no: int = 0
    night: NightState | None = None
    day: DayState | None = None
    empress_ever: bool = False
    """A 女皇 has existed: 皇后 can no longer become one."""
    empress_notice: int | None = None
    """A 皇后 who became 女皇 and has not been woken to learn it yet."""
    succession_refused: str | None = None
    """Why no 皇后 became 女皇 when 皇上 died (shown on her greyed night step)."""
    owed: tuple[Owed, ...] = ()
    unannounced: tuple[int, ...] = ()
    """Died during the night; the public learns it at dawn."""
    unannounced_revivals: tuple[int, ...] = ()
    """Seats the storyteller revived at night: alive in the grimoire, shown and announced at dawn."""
    vote_serial: int = 0
    """Vote clocks opened so far (names each clock for the platform's deadline)."""
    reminders: tuple[Reminder, ...] = ()
    next_reminder: int = 1
    notes: tuple[Note, ...] = ()
    end: EndProposal | None = None
    winner: Alignment | None = None
    end_reason: str | None = None
    log: tuple[Event, ...] = ()
