"""Battle-report lines (战报): each event a viewer may see, with a readable Chinese `text` next to
its structured fields.

A line is its event plus `text` (`PlayedLine` = `Played` + text, and so on), a union on `kind`
(`BaohuangReportLine`). Only `hand_dealt` (one per seat) and `grab_failed` are private: their seat
and the host see them, nobody else. Everything else is public when it happens; `deal_ended` reveals
the deal's roles and carries its full record (hands as dealt and every move) for the replay.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Annotated

from pydantic import BaseModel, Field, TypeAdapter

from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.baohuang.cards import cards_label, face_label
from chalicelib.games.baohuang.events import (
    AutoChanged,
    DealEnded,
    DealStarted,
    Declared,
    Event,
    GrabFailed,
    GuardRevealed,
    HandDealt,
    Passed,
    Played,
    Ready,
    Redealt,
    SeatQuit,
    TableEnded,
    ThronePassed,
    ThroneTaken,
    TrickWon,
    WentOut,
)
from chalicelib.games.baohuang.model import BaohuangState, DealEnd, RedealReason, RevealHow, TableEnd
from chalicelib.games.baohuang.scoring import PLACE_NAMES


class DealStartedLine(DealStarted):
    text: str


class HandDealtLine(HandDealt):
    text: str


class ThronePassedLine(ThronePassed):
    text: str


class ThroneTakenLine(ThroneTaken):
    text: str


class RedealtLine(Redealt):
    text: str


class DeclaredLine(Declared):
    text: str


class GrabFailedLine(GrabFailed):
    text: str


class GuardRevealedLine(GuardRevealed):
    text: str


class PlayedLine(Played):
    text: str


class PassedLine(Passed):
    text: str


class TrickWonLine(TrickWon):
    text: str


class WentOutLine(WentOut):
    text: str


class DealEndedLine(DealEnded):
    text: str


class AutoChangedLine(AutoChanged):
    text: str


class ReadyLine(Ready):
    text: str


class SeatQuitLine(SeatQuit):
    text: str


class TableEndedLine(TableEnded):
    text: str


BaohuangReportLine = Annotated[
    DealStartedLine | HandDealtLine | ThronePassedLine | ThroneTakenLine | RedealtLine | DeclaredLine
    | GrabFailedLine | GuardRevealedLine | PlayedLine | PassedLine | TrickWonLine | WentOutLine
    | DealEndedLine | AutoChangedLine | ReadyLine | SeatQuitLine | TableEndedLine,
    Field(discriminator="kind"),
]
"""One line of a 保皇 battle report."""
line_adapter: TypeAdapter[BaohuangReportLine] = TypeAdapter(BaohuangReportLine)

_LINE: dict[type[BaseModel], type[BaseModel]] = {
    DealStarted: DealStartedLine, HandDealt: HandDealtLine, ThronePassed: ThronePassedLine,
    ThroneTaken: ThroneTakenLine, Redealt: RedealtLine, Declared: DeclaredLine, GrabFailed: GrabFailedLine,
    GuardRevealed: GuardRevealedLine, Played: PlayedLine, Passed: PassedLine, TrickWon: TrickWonLine,
    WentOut: WentOutLine, DealEnded: DealEndedLine, AutoChanged: AutoChangedLine, Ready: ReadyLine,
    SeatQuit: SeatQuitLine, TableEnded: TableEndedLine,
}
PRIVATE = (HandDealt, GrabFailed)


def _auto(on: bool) -> str:
    return "（托管）" if on else ""


def _signed(n: int) -> str:
    return f"+{n}" if n > 0 else str(n)


def text_of(event: Event, names: Sequence[str]) -> str:
    """The event in one Chinese sentence, naming seats by their players' names."""
    match event:
        case DealStarted():
            again = "重新发牌" if event.redeal else "开始"
            return f"第{event.deal_no}局{again}：{names[event.dealer]}先发牌，{names[event.holder]}抓到皇牌"
        case HandDealt():
            return f"{names[event.seat]}的手牌：{len(event.cards)}张"
        case ThronePassed():
            return f"{names[event.seat]}让位给上家{names[event.to]}{_auto(event.auto)}"
        case ThroneTaken():
            how = "，明独保" if event.open_solo else (f"，叫{face_label(event.called)}" if event.called else "")
            return f"{names[event.seat]}登基{how}{_auto(event.auto)}"
        case Redealt():
            if event.reason is RedealReason.NO_EMPEROR:
                return "两轮无人登基，重新发牌"
            return "皇位传回皇牌持有者，她无三张同牌可叫，不必登基，重新发牌"
        case Declared():
            return _declared_text(event, names)
        case GrabFailed():
            return f"{names[event.seat]}抢独未成功"
        case GuardRevealed():
            return _revealed_text(event, names)
        case Played():
            return f"{names[event.seat]}出 {cards_label(event.cards)}{_auto(event.auto)}"
        case Passed():
            return f"{names[event.seat]}不出{_auto(event.auto)}"
        case TrickWon():
            if event.leader == event.seat:
                return f"{names[event.seat]}最大，由她先出"
            return f"{names[event.seat]}最大且已出完，{names[event.leader]}接风先出"
        case WentOut():
            place = PLACE_NAMES[event.place - 1] if 0 < event.place <= len(PLACE_NAMES) else f"第{event.place}名"
            return f"{names[event.seat]}出完牌，{place}"
        case DealEnded():
            record = event.record
            scores = "，".join(f"{names[s]} {_signed(record.scores[s])}" for s in range(len(names)))
            if record.reason is DealEnd.FINISHED:
                times = f"（×{record.multiplier}）" if record.multiplier > 1 else ""
                return f"第{record.no}局结束{times}：{scores}"
            return f"第{record.no}局中止：{scores}"
        case AutoChanged():
            return f"{names[event.seat]}{'进入' if event.on else '取消'}托管"
        case Ready():
            return f"{names[event.seat]}准备好了"
        case SeatQuit():
            who = names[event.seat]
            if event.penalty:
                return f"{who}{'被司礼踢出' if event.kicked else '强退'}，扣{event.penalty}分"
            return f"{who}{'被司礼请出牌桌' if event.kicked else '离开牌桌'}"
        case TableEnded():
            why = {TableEnd.QUIT: "有人强退", TableEnd.KICKED: "有人被踢出", TableEnd.LEFT: "有人离桌",
                   TableEnd.ALL_AUTO: "在座的人都在托管"}[event.reason]
            totals = "，".join(f"{names[s]} {_signed(t)}" for s, t in enumerate(event.totals))
            return f"牌局结束（{why}）：总分 {totals}"


def _declared_text(event: Declared, names: Sequence[str]) -> str:
    if event.grab is not None:
        return f"{names[event.grab]}抢独成功，登基明独保"
    parts = []
    if event.open_guard is not None:
        parts.append(f"{names[event.open_guard]}明保")
    if event.rebels:
        parts.append(f"{'、'.join(names[s] for s in event.rebels)}造反")
    return "；".join(parts) if parts else "无人声明"


def _revealed_text(event: GuardRevealed, names: Sequence[str]) -> str:
    who = names[event.seat]
    # simple: the 侍卫 card; classic: a copy of the face the emperor called
    card = f"所叫的{face_label(event.called)}" if event.called else "侍卫牌"
    if event.solo:
        shown = {RevealHow.FORCED: "两人以上造反，亮明：", RevealHow.CARD: f"打出{card}，亮明："}.get(event.how, "")
        return f"{shown}{who}是独保的皇帝"
    if event.how is RevealHow.DECLARED:
        return f"{who}亮明侍卫身份"
    if event.how is RevealHow.FORCED:
        return f"两人以上造反，侍卫{who}被迫亮明身份"
    return f"{who}打出{card}，亮明侍卫身份"


def report(state: BaohuangState, events: Sequence[Event], viewer: Viewer) -> list[BaseModel]:
    """The lines of one transition this viewer may see (private ones only to their seat and the host)."""
    me = viewer.seat if viewer.role is ViewerRole.PLAYER else None
    names = state.names
    lines: list[BaseModel] = []
    for event in events:
        if isinstance(event, PRIVATE) and not viewer.is_host and event.seat != me:
            continue
        line = _LINE[type(event)]
        lines.append(line.model_construct(**dict(event), text=text_of(event, names)))
    return lines
