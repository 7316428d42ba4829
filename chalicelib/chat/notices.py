"""「轮到你了」: WeChat subscribe messages for a player who is not watching.

`notices_for(old, new)` decides, from two versions of a room and nothing else, who should hear of
what (a pure function: the lead calls it from the DynamoDB-streams fan-out with the room's old and
new images). `NoticeSender` sends them: at most one per event and player (a conditional put of a
dedupe item), never to a player watching live, only on a one-time credit she granted
(`subscribe`), and never in a stage without templates (the local default: disabled, logged).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta, timezone
from enum import StrEnum
from typing import Any, Protocol

from chalicelib.chat.settings import ChatSettings, NoticeKind, NoticeTemplate
from chalicelib.core.clock import Clock
from chalicelib.core.errors import UpstreamError, ValidationFailed
from chalicelib.core.game import PendingKind
from chalicelib.core.identity import Caller
from chalicelib.domain.chat_ports import NoticeStore
from chalicelib.domain.model import Room, RoomStatus, Trigger
from chalicelib.observability import logger, metrics_count

MAX_CREDITS = 20
"""Credits kept per user and template (each accepted request adds one; WeChat counts its own too)."""
NO_CREDIT = 43101
"""WeChat: the user refused this template, or has used every acceptance."""
CHINA = timezone(timedelta(hours=8))
TIPS: Mapping[NoticeKind, str] = {
    NoticeKind.TURN: "轮到你出手了",
    NoticeKind.HURRY: "房主催战，新一回合请速落子",
    NoticeKind.VOTE: "投票开始了，请速来投票",
    NoticeKind.GAME_END: "对局已结束，来看战果",
}
LIMITS = {"thing": 20, "phrase": 5, "character_string": 32, "name": 10}
"""Subscribe-message value limits by keyword type (WeChat rejects longer values with 47003)."""


@dataclass(frozen=True, slots=True)
class Notice:
    kind: NoticeKind
    room_id: str
    game: str
    title: str
    user: str
    seat: int
    event: str
    """Names the transition: the dedupe key with the user (a stream redelivery maps to the same)."""


def _seats(room: Room, seats: Iterable[int]) -> list[tuple[int, str]]:
    wanted = set(seats)
    return [(s.seat, s.user) for s in room.seats if s.seat in wanted and s.bot is None]


def notices_for(old: Room, new: Room, trigger: Trigger | None = None) -> list[Notice]:
    """Whom to tell of what, from a room before and after one change.

    - the game ended (status becomes finished): every seated player;
    - 催战 (`trigger` HURRY, from the transition's log entry): the seats the new round waits for;
    - a vote opened (a HOST pending becomes a TURN with a deadline): the seats that vote;
    - her turn (a TURN pending whose seats newly include hers).
    Bots and anything not newer than `old` get nothing.
    """
    if new.id != old.id or new.version <= old.version:
        return []
    event = f"{new.version:08d}"

    def each(kind: NoticeKind, seats: Iterable[int]) -> list[Notice]:
        return [Notice(kind=kind, room_id=new.id, game=new.game, title=new.title, user=user, seat=seat,
                       event=f"{event}#{kind.value}") for seat, user in _seats(new, seats)]

    if new.status is RoomStatus.FINISHED and old.status is not RoomStatus.FINISHED:
        return each(NoticeKind.GAME_END, (s.seat for s in new.seats))
    pending = new.pending
    if new.status is not RoomStatus.ACTIVE or pending is None:
        return []
    before = old.pending if old.status is RoomStatus.ACTIVE else None
    if trigger is Trigger.HURRY and pending.kind is PendingKind.SEALED:
        return each(NoticeKind.HURRY, pending.seats)
    if pending.kind is not PendingKind.TURN:
        return []
    if before is not None and before.kind is PendingKind.HOST and pending.deadline_ms is not None:
        return each(NoticeKind.VOTE, pending.seats)
    waiting = set(before.seats) if before is not None and before.kind is PendingKind.TURN else set()
    return each(NoticeKind.TURN, (s for s in pending.seats if s not in waiting))


class Outcome(StrEnum):
    SENT = "sent"
    DISABLED = "disabled"
    NO_TEMPLATE = "no_template"
    WATCHING = "watching"
    NO_OPENID = "no_openid"
    DUPLICATE = "duplicate"
    NO_CREDIT = "no_credit"
    REFUSED = "refused"
    """WeChat answered 43101: her credits for the template are dropped."""
    FAILED = "failed"
    """Any other failure: the credit is given back, the event is not retried (at most once)."""


class Reply(Protocol):
    @property
    def errcode(self) -> int: ...


class SubscribeSender(Protocol):
    def send_subscribe_message(self, *, touser: str, template_id: str, page: str, data: Mapping[str, str],
                               state: str) -> Reply: ...


def _value(keyword: str, value: str) -> str:
    kind = keyword.rstrip("0123456789")
    limit = LIMITS.get(kind)
    return value[:limit] if limit else value


@dataclass
class NoticeSender:
    settings: ChatSettings
    store: NoticeStore
    client: Callable[[], SubscribeSender]
    """The WeChat server client, built on first send (a stage without notices never builds it)."""
    clock: Clock
    is_watching: Callable[[str, str], bool] = field(default=lambda room_id, user: False)
    """(room id, user id) -> she has the room open now (the lead wires WebSocket presence)."""

    def data(self, notice: Notice, template: NoticeTemplate) -> dict[str, str]:
        when = datetime.fromtimestamp(self.clock.now_ms() / 1000, UTC).astimezone(CHINA)
        values = {"game": notice.title, "tip": TIPS[notice.kind], "time": when.strftime("%Y-%m-%d %H:%M"),
                  "room": notice.room_id}
        return {keyword: _value(keyword, values[name]) for keyword, name in template.fields.items()}

    def page(self, notice: Notice) -> str:
        from chalicelib.games import families

        family = next((f for f, keys in families().items() if notice.game in keys), notice.game)
        return self.settings.notice_page.format(room_id=notice.room_id, game=notice.game, family=family)

    def send(self, notices: Iterable[Notice]) -> list[tuple[Notice, Outcome]]:
        return [(n, self.send_one(n)) for n in notices]

    def send_one(self, notice: Notice) -> Outcome:
        if not self.settings.notices_enabled:
            logger.info("notices disabled in this stage", extra={"kind": notice.kind.value})
            return Outcome.DISABLED
        template = self.settings.notices.get(notice.kind)
        if template is None:
            return Outcome.NO_TEMPLATE
        if self.is_watching(notice.room_id, notice.user):
            return Outcome.WATCHING
        openid = self.store.openid_of(notice.user)
        if openid is None:
            return Outcome.NO_OPENID
        if not self.store.claim_notice(notice.room_id, notice.event, notice.user, self.clock.now_ms()):
            return Outcome.DUPLICATE
        if not self.store.take_credit(notice.user, template.template_id):
            return Outcome.NO_CREDIT
        try:
            reply = self.client().send_subscribe_message(
                touser=openid, template_id=template.template_id, page=self.page(notice),
                data=self.data(notice, template), state=self.settings.miniprogram_state)
        except UpstreamError:
            self.store.refund_credit(notice.user, template.template_id)
            metrics_count("NoticesFailed")
            return Outcome.FAILED
        if reply.errcode == 0:
            metrics_count("NoticesSent")
            return Outcome.SENT
        if reply.errcode == NO_CREDIT:
            self.store.clear_credits(notice.user, template.template_id)
            metrics_count("NoticesRefused")
            return Outcome.REFUSED
        self.store.refund_credit(notice.user, template.template_id)
        metrics_count("NoticesFailed")
        logger.warning("subscribe message refused", extra={"errcode": reply.errcode, "kind": notice.kind.value})
        return Outcome.FAILED


# -- subscriptions ---------------------------------------------------------------------------------

def subscriptions(settings: ChatSettings, store: NoticeStore, caller: Caller) -> dict[str, Any]:
    """Which templates this stage sends (the client asks `wx.requestSubscribeMessage` for them) and
    her credits."""
    have = store.credits(caller.user_id) if settings.notices_enabled else {}
    return {
        "enabled": settings.notices_enabled,
        "templates": [{"kind": kind.value, "template_id": t.template_id} for kind, t in settings.notices.items()],
        "credits": {tid: have.get(tid, 0) for tid in sorted(settings.template_ids())},
    }


def subscribe(settings: ChatSettings, store: NoticeStore, caller: Caller, accepted: list[str], *,
              consent_key: str | None = None, now_ms: int = 0) -> dict[str, Any]:
    """She accepted these templates in `wx.requestSubscribeMessage`: one credit each (a template
    named twice is one consent; a report retried with the same `consent_key` adds nothing).

    Raises:
        ValidationFailed: SUBSCRIBE_UNKNOWN_TEMPLATE (a template this stage does not send).
    """
    if not settings.notices_enabled:
        logger.info("notices disabled in this stage: subscription ignored")
        return subscriptions(settings, store, caller)
    unknown = sorted(set(accepted) - settings.template_ids())
    if unknown:
        raise ValidationFailed("没有这个订阅消息模板", code="SUBSCRIBE_UNKNOWN_TEMPLATE", templates=unknown)
    for template_id in sorted(set(accepted)):
        # keyed by the consent on each credit item: a retry adds only what its first attempt did not
        store.add_credits(caller.user_id, template_id, 1, MAX_CREDITS, consent=consent_key)
    return subscriptions(settings, store, caller)
