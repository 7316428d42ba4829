"""Frozen state of a 保皇 table: options, the running deal, the table's totals and the last replay.

Seats are 0…4 and play goes counter-clockwise, which in seat numbers is upward: the next seat
(下家) of `s` is ``(s + 1) % 5`` and the previous seat (上家) is ``(s + 4) % 5``. The throne is
passed to 上家; 抢独 priority runs from the emperor's 上家 onward.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict, Field

from chalicelib.games.baohuang.cards import Variant

SEATS = 5
QUIT_PENALTY = 30
"""Seed: 强行退出或被管理员踢出游戏将被扣去30分."""


def next_seat(seat: int) -> int:
    """下家: the seat that plays after `seat`."""
    return (seat + 1) % SEATS


def prev_seat(seat: int) -> int:
    """上家: the seat that plays before `seat`."""
    return (seat + SEATS - 1) % SEATS


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class Options(Frozen):
    """Room options. `variant`: 简明 "simple" (168 cards) or 经典 "classic" (216 cards)."""

    variant: Variant = Variant.SIMPLE
    baoliu: bool = False
    """保六: sixes must be kept to the player's last play and played all at once."""
    turn_seconds: int = Field(default=30, ge=10, le=300, title="每手时限（秒）")
    """Deadline of every turn (and of the sealed declaration) before 托管 / settlement. Its title is the
    开房 dialog's label: 每手, as the room says it (「每手 30 秒」), not 宫斗杀's 每回合."""


class Phase(StrEnum):
    THRONE = "throne"
    """The 皇 card's holder (then 上家, …) takes the throne or passes it on."""
    DECLARE = "declare"
    """Sealed: every non-emperor stays hidden, declares (明保 / 造反) or, in classic, grabs (抢独)."""
    PLAY = "play"
    """Tricks, from the emperor's lead."""
    BETWEEN = "between"
    """A deal is over; seats press 继续 (next_deal) or leave the table."""
    OVER = "over"
    """The table has ended."""


class Solo(StrEnum):
    NONE = "none"
    """Emperor and guard against three."""
    HIDDEN = "hidden"
    """暗独保: the emperor is alone and only she knows it."""
    OPEN = "open"
    """明独保: the emperor is alone and said so (also the result of a successful 抢独)."""


class Role(StrEnum):
    """A seat's part in a deal once the emperor is fixed."""

    EMPEROR = "emperor"
    """皇帝."""
    GUARD = "guard"
    """侍卫 (保): the emperor's secret partner."""
    COMMONER = "commoner"
    """平民: one of the three against the emperor and her guard."""


class Act(StrEnum):
    """What one line of a deal's public log records."""

    TAKE = "take"
    """登基 (`note` = the called face, or "open_solo" for 明独保)."""
    YIELD = "yield"
    """让位: passed the throne to 上家."""
    REBEL = "rebel"
    """造反."""
    GRAB = "grab"
    """抢独 won."""
    REVEAL = "reveal"
    """The guard (or a lone emperor) became known (`note` = a `RevealHow`)."""
    PLAY = "play"
    PASS = "pass"
    QUIT = "quit"
    """强退."""
    KICK = "kick"
    """Kicked by the 司礼."""


class RevealHow(StrEnum):
    DECLARED = "declared"
    """明保: the guard declared herself."""
    FORCED = "forced"
    """Two or more 造反 forced the guard to show herself."""
    CARD = "card"
    """She played the guard card (simple: 侍卫 card; classic: a copy of the called face)."""


class RedealReason(StrEnum):
    NO_EMPEROR = "no_emperor"
    """Simple: two full rounds without an emperor."""
    UNABLE = "unable"
    """Classic: the throne came back to its holder, who has no face to call."""


class DealWinner(StrEnum):
    """Which side a scored deal went to (the emperor's score says it: her side's gain is his)."""

    EMPEROR = "emperor"
    """皇帝方胜: the emperor (with his guard, or alone)."""
    REBELS = "rebels"
    """造反方胜."""
    DRAW = "draw"
    """平局: nobody scored."""


class DealEnd(StrEnum):
    """Why a deal ended (`Outcome.reason`)."""

    FINISHED = "finished"
    """Its result became certain."""
    QUIT = "quit"
    """A seat quit (强退): −30 for her, nothing else scored."""
    KICKED = "kicked"
    """The 司礼 kicked a seat: −30 for her, nothing else scored."""


class TableEnd(StrEnum):
    """Why the table ended (`over_reason`)."""

    QUIT = "quit"
    """A seat quit mid-deal."""
    KICKED = "kicked"
    """The 司礼 kicked a seat."""
    LEFT = "left"
    """A seat left between deals."""
    ALL_AUTO = "all_auto"
    """Every seat was in 托管 or a bot's when a deal ended: no person was playing."""


class Trick(Frozen):
    """The play currently on the table and how many seats passed on it in a row."""

    seat: int
    cards: tuple[str, ...]
    passes: int = 0


class LogEntry(Frozen):
    """One public line of a deal's record (the replay). `auto` marks moves made by 托管."""

    seat: int
    act: Act
    cards: tuple[str, ...] = ()
    note: str = ""
    auto: bool = False


class Deal(Frozen):
    """The running deal."""

    no: int
    dealer: int
    holder: int
    """Seat dealt the 皇 card (first offered the throne)."""
    dealt: tuple[tuple[str, ...], ...]
    """Hands as dealt, for the replay."""
    hands: tuple[tuple[str, ...], ...]
    redeals: int = 0
    candidate: int | None = None
    """Seat offered the throne now."""
    offers: int = 0
    """Passes of the throne so far in this deal."""
    emperor: int | None = None
    solo: Solo = Solo.NONE
    guard: int | None = None
    """The guard's seat; None when solo (the emperor is her own guard) or before the throne."""
    called: str | None = None
    """Classic: the face the emperor called (public)."""
    revealed: bool = False
    """The guard (or, in a hidden solo, the fact that the emperor is alone) is public."""
    open_guard: bool = False
    """明保: the guard declared herself (×2)."""
    rebels: tuple[int, ...] = ()
    """造反: commoners who declared (hoe mark, kept even when they lose)."""
    grabbed: bool = False
    """The emperor won the throne by 抢独."""
    called_out: int = 0
    """Classic hidden solo: copies of the called face the emperor has played (the 4th reveals her)."""
    turn: int | None = None
    trick: Trick | None = None
    trick_from: int = 0
    """Where in `log` the trick being played began: each seat's play or pass in it is after it, and the
    last play before it took the trick last won (a table of quick bots plays several in a moment)."""
    out: tuple[int, ...] = ()
    """Seats in the order they went out."""
    log: tuple[LogEntry, ...] = ()


class DealRecord(Frozen):
    """A finished deal in full: hands as dealt, every public move in order, roles and scores."""

    no: int
    variant: Variant
    baoliu: bool
    dealer: int
    holder: int
    dealt: tuple[tuple[str, ...], ...]
    log: tuple[LogEntry, ...]
    emperor: int | None
    guard: int | None
    solo: Solo
    called: str | None
    open_guard: bool
    rebels: tuple[int, ...]
    grabbed: bool
    places: tuple[int, ...]
    """Seats by place (first = 头游); empty when the deal was abandoned."""
    scores: tuple[int, ...]
    multiplier: int
    reason: DealEnd
    left: tuple[tuple[str, ...], ...]
    """Cards still in each hand when the deal ended."""


class BaohuangState(Frozen):
    """A whole 保皇 table: deal after deal with running totals."""

    options: Options
    names: tuple[str, ...]
    phase: Phase
    deal_no: int
    deal: Deal | None = None
    totals: tuple[int, ...] = (0,) * SEATS
    deals_played: int = 0
    wins: tuple[int, ...] = (0,) * SEATS
    auto: tuple[bool, ...] = (False,) * SEATS
    """托管 flags (public)."""
    timed_out: tuple[bool, ...] = (False,) * SEATS
    """The turn clock put her in 托管 (`on_timeout`), not she herself (`auto`); cleared with her 托管 when
    she acts. The last person playing, put in 托管 by the clock, is waited for between deals (§15)."""
    bots: tuple[bool, ...] = (False,) * SEATS
    """Seats bots played from the start: once every other seat is in 托管, no person is playing."""
    ready: tuple[bool, ...] = (False,) * SEATS
    """BETWEEN: who pressed 继续."""
    last_emperor: int | None = None
    last: DealRecord | None = None
    """Record of the last finished deal (also carried by its `deal_ended` event)."""
    over_reason: TableEnd | None = None


class BaohuangDealResult(Frozen):
    """`Outcome.extra` of one deal (`Outcome.unit` = "deal-<n>"): its roles, multiplier, places, the
    table's running totals after it, and its full record for the replay (牌局回放)."""

    variant: Variant
    baoliu: bool
    emperor: int | None
    guard: int | None
    """The guard's seat; None in a solo (or when the deal was abandoned before the throne)."""
    solo: Solo
    called: str | None
    """Classic: the called face."""
    open_guard: bool
    rebels: tuple[int, ...]
    grabbed: bool
    multiplier: int
    doubled: tuple[str, ...] = ()
    """Why the multiplier (each doubled it): 「明保」, 「造反成功」."""
    basis: str = ""
    """How the places made the score before doubling (「皇帝四游 −1，侍卫头游 +2，合计 +1」); "" for a deal
    without a result (quit, kicked)."""
    places: tuple[int, ...]
    """Seats by place, first = 头游; empty when the deal was abandoned."""
    totals: tuple[int, ...]
    """Every seat's running total after this deal."""
    winner: DealWinner | None = None
    """Who won the deal; None when it ended without a result (quit / kicked, or before the throne)."""
    left_seat: int | None = None
    """The seat that quit or was kicked (reason quit / kicked)."""
    penalty: int = 0
    """Points the leaving seat lost (30), else 0."""
    replay: DealRecord
