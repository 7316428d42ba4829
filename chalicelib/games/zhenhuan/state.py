"""Frozen game state of 血染甄嬛传. Everything the storyteller's grimoire holds lives here.

Time: night n is followed by day n; the game starts with night 1. A status ends at a point in time
(`Expiry`: the dusk that starts night n, or the dawn that ends night n), or never.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

from chalicelib.games.zhenhuan.events import Answer, Event
from chalicelib.games.zhenhuan.roles import Alignment


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Phase(StrEnum):
    SETUP = "setup"
    NIGHT = "night"
    DAY = "day"
    OVER = "over"


class StatusKind(StrEnum):
    POISONED = "poisoned"
    """中毒 (安陵容's 香粉, or the storyteller)."""
    DRUNK = "drunk"
    """醉酒 (敦亲王, the 「醉酒」 button, 浣碧 beside 果郡王, 孙答应's death)."""
    PINNED = "pinned"
    """按住 (宠妃): the player's abilities do not work this round (the night and the next day)."""
    PROTECTED = "protected"
    """保护 (果郡王): immune tonight to the demon's kill, 雨露均沾 and 三阿哥's touch."""
    MARKED = "marked"
    """一丈红 (华妃): dies if she nominates tomorrow (the storyteller presses 「死亡」)."""
    CURSED = "cursed"
    """诅咒 (安陵容): dies at the start of the next night."""
    SILENCED = "silenced"
    """禁言 (齐妃): if she speaks, the storyteller may execute her."""


STATUS_NAMES = {
    StatusKind.POISONED: "中毒",
    StatusKind.DRUNK: "醉酒",
    StatusKind.PINNED: "按住",
    StatusKind.PROTECTED: "保护",
    StatusKind.MARKED: "一丈红",
    StatusKind.CURSED: "诅咒",
    StatusKind.SILENCED: "禁言",
}


class Expiry(Frozen):
    at: Literal["dusk", "dawn"]
    night: int


class Status(Frozen):
    seat: int
    kind: StatusKind
    source: str
    """Role key that caused it, or "storyteller"."""
    source_seat: int | None = None
    until: Expiry | None = None
    """None: permanent (浣碧 beside 果郡王)."""


class LastPick(Frozen):
    """The previous target of a no-repeat ability (果郡王, 宠妃, 齐妃)."""

    ability: str
    target: int


class SeatState(Frozen):
    seat: int
    name: str
    role: str
    alignment: Alignment
    alive: bool = True
    ghost_vote: bool = True
    """Dead players keep one ghost vote until they spend it."""
    original_role: str | None = None
    """The role before the latest transformation (宠妃 to restore; 皇后/甄嬛 behind a 女皇)."""
    original_alignment: Alignment | None = None
    spent: frozenset[str] = frozenset()
    """Once-per-game abilities used (reset by 叶澜依's revival and by a change of role)."""
    last_pick: LastPick | None = None
    link: int | None = None
    """玉娆's linked good player."""
    traveller_identity: str | None = None
    traveller_female: bool = False


class StepRecord(Frozen):
    """What happened at one night step: for the storyteller's book."""

    step: str
    actor: int | None
    targets: tuple[int | None, ...] = ()
    skipped: bool = False
    disabled: str | None = None
    impaired: bool = False
    truth: Answer | None = None
    given: Answer | None = None
    note: str = ""


class PendingDeath(Frozen):
    seat: int
    cause: str
    """demon / niangengyao / sanage / yurao / sundaying / counter / storyteller."""
    by: int | None = None


class NightState(Frozen):
    number: int
    cursor: int = 0
    """Index into this night's order; len(order) = every step is done, waiting for 天亮."""
    records: tuple[StepRecord, ...] = ()
    pending: tuple[PendingDeath, ...] = ()
    dusk_deaths: tuple[int, ...] = ()
    """Died at the start of this night (curse, 祺贵人); count as night deaths."""
    conversion: int | None = None
    """Tonight's effective 雨露均沾 target (三阿哥 is caught touching her)."""
    counter_kill: tuple[int, int] | None = None
    """(甄嬛, her killer): at dawn the killer dies and 甄嬛 becomes 女皇."""
    succession: tuple[int, int] | None = None
    """(太上皇, successor): at dawn the successor becomes 皇上."""
    revive: int | None = None
    qiguiren: tuple[int, int] | None = None
    """(祺贵人, suggested random victim) when yesterday's accusation was right."""


class Nomination(Frozen):
    nominator: int
    nominee: int
    voters: tuple[int, ...] | None = None
    """None until the vote is recorded."""


class Accusation(Frozen):
    by: int
    target: int
    role: str
    correct: bool
    effective: bool


class Proposal(Frozen):
    """A forced execution the rules call for; the storyteller presses 「处决」."""

    seat: int
    reason: str


class DayState(Frozen):
    number: int
    nominations: tuple[Nomination, ...] = ()
    block: int | None = None
    block_votes: int = 0
    executed: int | None = None
    executed_done: bool = False
    proposals: tuple[Proposal, ...] = ()
    accusations: tuple[Accusation, ...] = ()
    used: tuple[tuple[int, str], ...] = ()
    """(seat, ability) day abilities used today."""
    reminders: tuple[str, ...] = ()


class ZhenhuanOptions(Frozen):
    script: Literal["zhenhuan"] = "zhenhuan"
    mass_drunk_scope: Literal["all", "good"] = "all"
    """孙答应's 全场醉酒: every other player (default), or good players only."""
    auto_end: bool = True
    """End the game as soon as a win is detected; if False, only propose it to the storyteller."""


class GameState(Frozen):
    options: ZhenhuanOptions = Field(default_factory=ZhenhuanOptions)
    phase: Phase = Phase.SETUP
    seats: tuple[SeatState, ...]
    bluffs: tuple[str, ...] = ()
    statuses: tuple[Status, ...] = ()
    night_no: int = 0
    night: NightState | None = None
    day: DayState | None = None
    empress_ever: bool = False
    """A 女皇 has existed: 皇后 can no longer become one."""
    empress_notice: int | None = None
    """A 皇后 who became 女皇 and has not been woken to learn it yet."""
    unannounced: tuple[int, ...] = ()
    unannounced_revivals: tuple[int, ...] = ()
    """Seats the storyteller revived at night: alive in the grimoire, shown and announced at dawn."""
    """Died during the night; the public learns it at dawn."""
    winner: Alignment | None = None
    end_reason: str | None = None
    proposed_winner: tuple[Alignment, str] | None = None
    log: tuple[Event, ...] = ()
