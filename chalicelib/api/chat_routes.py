"""Talk at the table: room chat, 心战 phrases, mutes, reports (the 司礼's list), and the "your turn"
subscriptions a player grants. Thin routes over `chalicelib.chat`; the models here are the contract."""

from __future__ import annotations

from typing import Any, Literal

from chalice import Blueprint
from pydantic import Field, StrictInt

from chalicelib.api.routing import idempotency_key, route
from chalicelib.api.schemas import Body, Out
from chalicelib.chat import notices, service
from chalicelib.chat.build import ChatServices, chat_services
from chalicelib.chat.settings import NoticeKind
from chalicelib.core.game import ViewerRole
from chalicelib.core.identity import Caller
from chalicelib.domain.chat_model import Channel, ReportReason
from chalicelib.rooms.views import RoomView
from chalicelib.wiring import services

bp = Blueprint(__name__)

USER_ID = r"^[A-Za-z0-9_-]{1,64}$"


def _chat() -> ChatServices:
    return chat_services(services())


# ---- models -------------------------------------------------------------------------------------

class ChatQuery(Body):
    after: str | None = Field(default=None, max_length=40,
                              description="上次返回的 cursor：只取此后的新发言；不带则取最近一页")
    limit: int = Field(default=50, ge=1, le=100)


class ChatPostBody(Body):
    text: str | None = Field(default=None, min_length=1, max_length=500,
                             description="自由发言：最多 100 字，发出前经微信内容安全检查；与 phrase 二选一")
    phrase: str | None = Field(default=None, pattern=r"^q[0-9a-f]{6}$",
                               description="心战短语的 id（GET /v1/games/{family}/phrases）；与 text 二选一")
    channel: Channel | None = Field(default=None, description="频道（省略：你的默认频道，见 post_channels）")


class ChatSpeakerOut(Out):
    role: ViewerRole
    seat: int | None
    name: str = Field(description="房间里显示的名字（座位名、主持人或观战者昵称），从不显示身份牌")
    is_me: bool
    user: str | None = Field(description="用户 id：只给能禁言的人（禁言观战者时用）")


class ChatMessageOut(Out):
    id: str
    channel: Channel
    at_ms: int
    speaker: ChatSpeakerOut
    text: str = Field(description="显示的文字（心战短语也给出其文字）")
    phrase: str | None = Field(description="心战短语的 id；自由发言为 null")
    can_mute: bool
    can_report: bool


class ChatOut(Out):
    room_id: str
    messages: list[ChatMessageOut] = Field(description="按时间先后；同一频道内按存储顺序，不缺不重")
    cursor: str = Field(description="下次带上 after=它，只取新发言")
    more: bool = Field(description="还有更多新发言：立即再读一次")
    channels: list[Channel] = Field(description="你能看到的频道")
    post_channels: list[Channel] = Field(description="你能发言的频道，第一个为默认")
    can_moderate: bool = Field(description="你能禁言（房主、主持人或司礼）")
    server_time: int


class ChatPostOut(Out):
    message: ChatMessageOut


class ChatMuteBody(Body):
    seat: StrictInt | None = Field(default=None, ge=0, le=63, description="禁言这个座位；与 user 二选一")
    user: str | None = Field(default=None, pattern=USER_ID, description="禁言这个用户（观战者）；与 seat 二选一")
    minutes: StrictInt = Field(default=10, ge=1, le=1440)


class ChatUnmuteBody(Body):
    seat: StrictInt | None = Field(default=None, ge=0, le=63)
    user: str | None = Field(default=None, pattern=USER_ID)


class ChatMuteOut(Out):
    room_id: str
    seat: int | None
    user: str | None
    muted_until_ms: int | None = Field(description="禁言到何时（毫秒）；解除后为 null")


class ChatReportBody(Body):
    reason: Literal["abuse", "spoiler", "spam", "other"] = Field(
        description="abuse 辱骂、spoiler 泄露暗中信息、spam 广告刷屏、other 其他")


class ChatReportAck(Out):
    room_id: str
    message_id: str
    reported: bool = Field(description="已送司礼查看（重复举报同一句不会重复计）")


class ChatReportedSpeakerOut(Out):
    role: ViewerRole
    seat: int | None
    name: str
    user: str


class ChatReportedMessageOut(Out):
    id: str
    channel: Channel
    at_ms: int
    text: str
    phrase: str | None
    speaker: ChatReportedSpeakerOut


class ChatReporterOut(Out):
    user: str = Field(description="举报人；system 为内容安全检查建议人工复核的发言")
    name: str


class ChatReportOut(Out):
    room_id: str
    message: ChatReportedMessageOut
    reporter: ChatReporterOut
    reason: ReportReason
    at_ms: int


class ChatReportsQuery(Body):
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=512)


class ChatReportsOut(Out):
    reports: list[ChatReportOut] = Field(description="最新的在前")
    cursor: str | None


class PhraseOut(Out):
    id: str
    text: str


class GamePhrasesOut(Out):
    game: str
    title: str
    phrases: list[PhraseOut]


class PhrasesOut(Out):
    family: str
    games: list[GamePhrasesOut]


class SubscriptionsBody(Body):
    templates: list[str] = Field(min_length=1, max_length=3, description=(
        "wx.requestSubscribeMessage 中用户点了「允许」的模板 id（每次允许记一次可发送）"))


class SubscriptionTemplateOut(Out):
    kind: NoticeKind
    template_id: str


class SubscriptionsOut(Out):
    enabled: bool = Field(description="本环境是否发送订阅消息")
    templates: list[SubscriptionTemplateOut] = Field(description="向用户申请订阅时用的模板")
    credits: dict[str, int] = Field(description="模板 id -> 还可发送几次")


# ---- routes -------------------------------------------------------------------------------------

@route(bp, "/v1/rooms/{room_id}/chat", query=ChatQuery, response=ChatOut, tag="chat", etag=True,
       summary="房间聊天（带上次的 cursor 只取新发言；带 If-None-Match 轮询，未变化返回 304）",
       errors=(400, 401, 403, 404, 422))
def chat_read(caller: Caller, room_id: str, query: ChatQuery) -> RoomView:
    """Players read the table; in games whose spectators chat apart, spectators read the table and
    their own channel (never the other way round) and the host reads both."""
    return service.read(_chat().deps(), caller, room_id, query.after, query.limit)


@route(bp, "/v1/rooms/{room_id}/chat", "POST", body=ChatPostBody, response=ChatPostOut, tag="chat",
       headers=("Idempotency-Key",), summary="发言：文字（≤100 字，经内容安全检查）或心战短语（按 id）",
       errors=(400, 401, 403, 404, 409, 413, 422, 429, 503))
def chat_post(caller: Caller, room_id: str, body: ChatPostBody) -> dict[str, Any]:
    """At most 5 lines per 10 s (429 with Retry-After). Send an `Idempotency-Key` header to make a
    retried line appear once."""
    key = idempotency_key(bp.current_request)
    return service.post(_chat().deps(), caller, room_id, text=body.text, phrase=body.phrase, channel=body.channel,
                        request_key=key)


@route(bp, "/v1/rooms/{room_id}/chat/mute", "POST", body=ChatMuteBody, response=ChatMuteOut, tag="chat",
       summary="禁言（房主、主持人或司礼）", errors=(400, 401, 403, 404, 413, 422))
def chat_mute(caller: Caller, room_id: str, body: ChatMuteBody) -> dict[str, Any]:
    return service.mute(_chat().deps(), caller, room_id, seat=body.seat, user=body.user, minutes=body.minutes)


@route(bp, "/v1/rooms/{room_id}/chat/unmute", "POST", body=ChatUnmuteBody, response=ChatMuteOut, tag="chat",
       summary="解除禁言", errors=(400, 401, 403, 404, 413, 422))
def chat_unmute(caller: Caller, room_id: str, body: ChatUnmuteBody) -> dict[str, Any]:
    return service.unmute(_chat().deps(), caller, room_id, seat=body.seat, user=body.user)


@route(bp, "/v1/rooms/{room_id}/chat/{message_id}/report", "POST", body=ChatReportBody, response=ChatReportAck,
       tag="chat", summary="举报一句发言（送司礼查看）", errors=(400, 401, 403, 404, 413, 422))
def chat_report(caller: Caller, room_id: str, message_id: str, body: ChatReportBody) -> dict[str, Any]:
    return service.report(_chat().deps(), caller, room_id, message_id, ReportReason(body.reason))


@route(bp, "/v1/admin/chat/reports", query=ChatReportsQuery, response=ChatReportsOut, tag="admin",
       summary="司礼：被举报的发言（最新的在前）", errors=(400, 401, 403, 422))
def chat_reports(caller: Caller, query: ChatReportsQuery) -> dict[str, Any]:
    return service.list_reports(_chat().deps(), caller, query.limit, query.cursor)


@route(bp, "/v1/games/{family}/phrases", response=PhrasesOut, tag="chat",
       summary="心战短语（每个玩法一组，按 id 发送）", errors=(401, 404))
def chat_phrases(caller: Caller, family: str) -> dict[str, Any]:
    return service.family_phrases(family)


@route(bp, "/v1/me/subscriptions", response=SubscriptionsOut, tag="auth",
       summary="订阅消息：本环境的模板与我还可收几次", errors=(401,))
def subscriptions_get(caller: Caller) -> dict[str, Any]:
    chat = _chat()
    return notices.subscriptions(chat.settings, chat.store, caller)


@route(bp, "/v1/me/subscriptions", "POST", body=SubscriptionsBody, response=SubscriptionsOut, tag="auth",
       headers=("Idempotency-Key",),
       summary="订阅消息：告知服务器用户允许了哪些模板（每次允许可收一次「轮到你了」；带 Idempotency-Key 重试安全）",
       errors=(400, 401, 413, 422))
def subscriptions_post(caller: Caller, body: SubscriptionsBody) -> dict[str, Any]:
    """Send an `Idempotency-Key` header (one per consent) to make a retried report count once."""
    chat = _chat()
    key = idempotency_key(bp.current_request)
    return notices.subscribe(chat.settings, chat.store, caller, body.templates, consent_key=key,
                             now_ms=chat.clock.now_ms())
