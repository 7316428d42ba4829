"""Room chat: read (incremental, per viewer), post (text or 心战 phrase), mute, report.

Posting a line, in order: who may post where (`chalicelib.chat.access`), the line itself (one of
text or phrase, ≤ 100 characters), a retry by Idempotency-Key answered with the first result, the
mute, one of 5 posts per 10 s taken atomically, WeChat's content check (text only; before anything
is stored), then the store gives it the next place in its channel. A refused line is never stored.
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import unicodedata
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from chalicelib.accounts.service import require_admin
from chalicelib.chat.access import is_moderator, moderators, postable, readable
from chalicelib.chat.moderation import TextChecker, check_with
from chalicelib.chat.phrases import find_phrase, phrases_for
from chalicelib.core.errors import (
    Conflict,
    Forbidden,
    MalformedRequest,
    NotFound,
    RateLimited,
    ValidationFailed,
)
from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.core.identity import Caller
from chalicelib.core.text import hidden_characters, visible
from chalicelib.domain.chat_model import (
    Channel,
    ChatMessage,
    MessageDraft,
    Mute,
    Report,
    ReportReason,
    RequestKey,
    Scene,
    Speaker,
    Verdict,
    channel_of_letter,
    parse_message_id,
)
from chalicelib.domain.chat_ports import ChatStore
from chalicelib.domain.model import Room, RoomStatus
from chalicelib.games import families, get_game
from chalicelib.observability import metrics_count
from chalicelib.rooms.access import viewer_for
from chalicelib.rooms.deps import RoomDeps, request_hash
from chalicelib.rooms.views import RoomView

MAX_TEXT_CHARS = 100
RATE_LIMIT = 5
RATE_WINDOW_MS = 10_000
"""At most 5 lines per user and room in any 10 seconds (phrases count too)."""
MAX_MUTE_MINUTES = 24 * 60
CLOSED = frozenset({RoomStatus.EXPIRED, RoomStatus.ABANDONED})
SYSTEM_REPORTER = "system"
_CURSOR = re.compile(r"^(?:[a-z][0-9]{1,9}){1,4}$")
_PART = re.compile(r"([a-z])([0-9]{1,9})")
_SPACES = re.compile(r"\s+")


@dataclass
class ChatDeps:
    rooms: RoomDeps
    store: ChatStore
    checker: TextChecker
    openid_of: Callable[[str], str | None]


# -- reading ---------------------------------------------------------------------------------------

def parse_cursor(cursor: str | None) -> dict[Channel, int] | None:
    """"t12w3": the last seq read in each channel (None: no cursor, read the latest page).

    Raises:
        MalformedRequest: BAD_CURSOR.
    """
    if cursor is None or cursor == "":
        return None
    if not _CURSOR.match(cursor):
        raise MalformedRequest("聊天游标无效，请从头读取", code="BAD_CURSOR")
    seen: dict[Channel, int] = {}
    for letter, seq in _PART.findall(cursor):
        channel = channel_of_letter(letter)
        if channel is None:
            raise MalformedRequest("聊天游标无效，请从头读取", code="BAD_CURSOR")
        seen[channel] = int(seq)
    return seen


def format_cursor(seen: dict[Channel, int], channels: Sequence[Channel]) -> str:
    return "".join(f"{c.letter}{seen.get(c, 0)}" for c in channels)


def _merge(lists: dict[Channel, list[ChatMessage]]) -> list[ChatMessage]:
    """One timeline, earliest first, keeping each channel's own order (so every cut of it is a
    prefix of each channel and a cursor never skips a line)."""
    heads = {c: 0 for c in lists}
    order = list(Channel)
    out: list[ChatMessage] = []
    while True:
        ready = [c for c in lists if heads[c] < len(lists[c])]
        if not ready:
            return out
        c = min(ready, key=lambda ch: (lists[ch][heads[ch]].at_ms, order.index(ch)))
        out.append(lists[c][heads[c]])
        heads[c] += 1


def message_json(m: ChatMessage, caller: Caller, room: Room, moderator: bool) -> dict[str, Any]:
    mine = m.speaker.user == caller.user_id
    protected = m.speaker.role is ViewerRole.HOST or m.speaker.user in moderators(room)
    return {
        "id": m.id, "channel": m.channel.value, "at_ms": m.at_ms,
        "speaker": {"role": m.speaker.role.value, "seat": m.speaker.seat, "name": m.speaker.name, "is_me": mine,
                    "user": m.speaker.user if moderator else None},
        "text": m.text, "phrase": m.phrase,
        "can_mute": moderator and not mine and not protected,
        "can_report": not mine,
    }


def _etag(body: dict[str, Any]) -> str:
    text = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return 'W/"' + hashlib.sha256(text.encode()).hexdigest()[:24] + '"'


def read(deps: ChatDeps, caller: Caller, room_id: str, after: str | None, limit: int) -> RoomView:
    """The lines the caller may see: with `after` (the last answer's cursor) only newer ones, one
    bounded Query per channel she reads; without it the latest `limit`.

    Raises:
        NotFound: ROOM_NOT_FOUND; Forbidden: PASSWORD_REQUIRED; MalformedRequest: BAD_CURSOR.
    """
    room = deps.rooms.rooms.get_room(room_id)
    viewer = viewer_for(deps.rooms, caller, room)
    apart = get_game(room.game).spectators_chat_apart
    channels = readable(apart, viewer)
    seen = parse_cursor(after)
    fetched = {c: deps.store.list_messages(room.id, c, None if seen is None else seen.get(c, 0), limit)
               for c in channels}
    timeline = _merge(fetched)
    if seen is None:
        shown = timeline[-limit:]
        position = {c: max((m.seq for m in fetched[c]), default=0) for c in channels}
        more = False
    else:
        shown = timeline[:limit]
        position = {c: max([seen.get(c, 0), *(m.seq for m in shown if m.channel is c)]) for c in channels}
        more = len(timeline) > limit or any(len(fetched[c]) == limit for c in channels)
    moderator = is_moderator(caller, room)
    body: dict[str, Any] = {
        "room_id": room.id,
        "messages": [message_json(m, caller, room, moderator) for m in shown],
        "cursor": format_cursor(position, channels),
        "more": more,
        "channels": [c.value for c in channels],
        "post_channels": [c.value for c in postable(apart, viewer)],
        "can_moderate": moderator,
    }
    etag = _etag(body)
    body["server_time"] = deps.rooms.clock.now_ms()
    return RoomView(body=body, etag=etag)


# -- posting ---------------------------------------------------------------------------------------

def clean_text(text: str) -> str:
    """One line as shown: spaces and line breaks collapsed; at most 100 characters.

    Raises:
        ValidationFailed: CHAT_EMPTY, CHAT_TOO_LONG, CHAT_BAD_MESSAGE (control, zero-width or
            direction-changing characters: a line must read as it shows).
    """
    line = _SPACES.sub(" ", unicodedata.normalize("NFC", text)).strip()
    if hidden_characters(line, allow_zwj=True):
        raise ValidationFailed("发言不能包含看不见、改变文字方向或层层叠加的字符", code="CHAT_BAD_MESSAGE")
    if not visible(line):  # empty, or nothing in it draws
        raise ValidationFailed("发言不能为空", code="CHAT_EMPTY")
    if len(line) > MAX_TEXT_CHARS:
        raise ValidationFailed(f"发言最多 {MAX_TEXT_CHARS} 字（现有 {len(line)} 字）", code="CHAT_TOO_LONG",
                               limit=MAX_TEXT_CHARS)
    return line


def speaker_for(room: Room, caller: Caller, viewer: Viewer) -> Speaker:
    """The speaker as the room shows her: her seat's name, the host, or a spectator's nickname."""
    if viewer.role is ViewerRole.PLAYER:
        seat = room.seat_of(caller.user_id)
        assert seat is not None
        return Speaker(user=caller.user_id, role=ViewerRole.PLAYER, seat=seat.seat, name=seat.name)
    name = caller.name or ("主持" if viewer.role is ViewerRole.HOST else "观战者")
    return Speaker(user=caller.user_id, role=viewer.role, seat=None, name=name)


def _too_fast(wait_ms: int) -> RateLimited:
    return RateLimited.waiting(wait_ms, f"发言太快了，请 {math.ceil(wait_ms / 1000)} 秒后再说", code="CHAT_TOO_FAST",
                               retry_after_ms=wait_ms)


def post(deps: ChatDeps, caller: Caller, room_id: str, *, text: str | None, phrase: str | None,
         channel: Channel | None, request_key: str | None) -> dict[str, Any]:
    """Say one line (free text, or a 心战 phrase by id) in the room.

    Raises:
        Forbidden: CHAT_WRONG_CHANNEL, CHAT_MUTED, PASSWORD_REQUIRED; Conflict: CHAT_CLOSED;
        ValidationFailed: CHAT_BAD_MESSAGE, CHAT_EMPTY, CHAT_TOO_LONG, CHAT_UNKNOWN_PHRASE,
            CONTENT_REFUSED, IDEMPOTENCY_KEY_REUSED; RateLimited: CHAT_TOO_FAST, BUSY;
        UpstreamError: the content check could not be made (nothing is posted unchecked).
    """
    room = deps.rooms.rooms.get_room(room_id)
    viewer = viewer_for(deps.rooms, caller, room)
    if room.status in CLOSED:
        raise Conflict("房间已关闭，不能再发言", code="CHAT_CLOSED")
    game = get_game(room.game)
    allowed = postable(game.spectators_chat_apart, viewer)
    where = channel or allowed[0]
    if where not in allowed:
        # only where watchers talk apart is there a 看台 to send her to
        raise Forbidden("观战者只能在看台说话，不能传话到席上"
                        if viewer.role is ViewerRole.SPECTATOR and game.spectators_chat_apart
                        else "这个房间没有这个频道" if not game.spectators_chat_apart
                        else "你不能在这个频道发言", code="CHAT_WRONG_CHANNEL")
    if (text is None) == (phrase is None):
        raise ValidationFailed("请发送文字或心战短语（二选一）", code="CHAT_BAD_MESSAGE")
    shown = find_phrase(game, phrase).text if phrase is not None else clean_text(text or "")
    moderator = is_moderator(caller, room)
    request = None
    if request_key:
        request = RequestKey(caller.user_id, request_key, request_hash("chat", where.value, text, phrase))
        found = deps.store.message_for_key(room.id, caller.user_id, request_key)
        if found is not None:
            stored = request.same_as(found)
            if stored.flagged:
                _queue_for_review(deps, stored)  # the first attempt may have failed before queuing it
            return {"message": message_json(stored, caller, room, moderator)}
    now = deps.rooms.clock.now_ms()
    if not moderator:
        mute = deps.store.get_mute(room.id, caller.user_id)
        if mute is not None and mute.until_ms > now:
            raise Forbidden(f"你已被禁言，{math.ceil((mute.until_ms - now) / 60000)} 分钟后可再发言",
                            code="CHAT_MUTED", until_ms=mute.until_ms)
    wait = deps.store.take_rate_slot(room.id, caller.user_id, now, RATE_WINDOW_MS, RATE_LIMIT)
    if wait:
        metrics_count("ChatThrottled")
        raise _too_fast(wait)
    verdict = Verdict.PASS
    if phrase is None:  # phrases are ours: only free text is checked
        verdict = check_with(deps.checker, shown, scene=Scene.COMMENT, openid=deps.openid_of(caller.user_id))
    draft = MessageDraft(channel=where, at_ms=deps.rooms.clock.now_ms(), speaker=speaker_for(room, caller, viewer),
                         text=shown, phrase=phrase, flagged=verdict is Verdict.REVIEW)
    message = deps.store.append_message(room.id, draft, request)
    metrics_count("ChatMessages")
    if message.flagged:
        _queue_for_review(deps, message)
    return {"message": message_json(message, caller, room, moderator)}


def _queue_for_review(deps: ChatDeps, message: ChatMessage) -> None:
    """Put a line WeChat asked a person to review into the 司礼's queue. Written once per line
    (`add_report` is put-if-absent), so the keyed retry of a post that failed here queues it."""
    deps.store.add_report(Report(message=message, reporter=SYSTEM_REPORTER, reporter_name="内容安全",
                                 reason=ReportReason.REVIEW, at_ms=message.at_ms))


# -- moderation ------------------------------------------------------------------------------------

def _target(room: Room, seat: int | None, user: str | None) -> str:
    if (seat is None) == (user is None):
        raise ValidationFailed("请指定座位或用户（二选一）", code="CHAT_BAD_TARGET")
    if seat is not None:
        entry = next((s for s in room.seats if s.seat == seat), None)
        if entry is None:
            raise NotFound("没有这个座位", code="CHAT_SEAT_NOT_FOUND")
        return entry.user
    assert user is not None
    return user


def _moderated(deps: ChatDeps, caller: Caller, room_id: str) -> Room:
    room = deps.rooms.rooms.get_room(room_id)
    if not is_moderator(caller, room):
        raise Forbidden("只有房主、主持人或司礼可以禁言", code="CHAT_NOT_MODERATOR")
    return room


def mute(deps: ChatDeps, caller: Caller, room_id: str, *, seat: int | None, user: str | None,
         minutes: int) -> dict[str, Any]:
    """Silence a seat or a spectator in this room for `minutes` (a new mute replaces the old).

    Raises:
        Forbidden: CHAT_NOT_MODERATOR, CHAT_CANNOT_MUTE; NotFound: CHAT_SEAT_NOT_FOUND;
        ValidationFailed: CHAT_BAD_TARGET.
    """
    room = _moderated(deps, caller, room_id)
    target = _target(room, seat, user)
    if target == caller.user_id or target in moderators(room):
        raise Forbidden("不能禁言自己、房主或主持人", code="CHAT_CANNOT_MUTE")
    now = deps.rooms.clock.now_ms()
    until = now + min(minutes, MAX_MUTE_MINUTES) * 60_000
    deps.store.set_mute(room.id, Mute(user=target, until_ms=until, by=caller.user_id, at_ms=now))
    metrics_count("ChatMutes")
    return {"room_id": room.id, "seat": seat, "user": user, "muted_until_ms": until}


def unmute(deps: ChatDeps, caller: Caller, room_id: str, *, seat: int | None, user: str | None) -> dict[str, Any]:
    room = _moderated(deps, caller, room_id)
    deps.store.clear_mute(room.id, _target(room, seat, user))
    return {"room_id": room.id, "seat": seat, "user": user, "muted_until_ms": None}


def report(deps: ChatDeps, caller: Caller, room_id: str, message_id: str, reason: ReportReason) -> dict[str, Any]:
    """Report a line the caller can see to the 司礼 (reporting it again changes nothing).

    Raises:
        NotFound: CHAT_MESSAGE_NOT_FOUND (also for a line in a channel she cannot read);
        ValidationFailed: CHAT_OWN_MESSAGE.
    """
    room = deps.rooms.rooms.get_room(room_id)
    viewer = viewer_for(deps.rooms, caller, room)
    parsed = parse_message_id(message_id)
    channels = readable(get_game(room.game).spectators_chat_apart, viewer)
    message = deps.store.get_message(room.id, *parsed) if parsed and parsed[0] in channels else None
    if message is None:
        raise NotFound("找不到这条发言", code="CHAT_MESSAGE_NOT_FOUND")
    if message.speaker.user == caller.user_id:
        raise ValidationFailed("不能举报自己的发言", code="CHAT_OWN_MESSAGE")
    first = deps.store.add_report(Report(message=message, reporter=caller.user_id, reporter_name=caller.name,
                                         reason=reason, at_ms=deps.rooms.clock.now_ms()))
    if first:
        metrics_count("ChatReports")
    return {"room_id": room.id, "message_id": message.id, "reported": True}


def report_json(r: Report) -> dict[str, Any]:
    m = r.message
    return {
        "room_id": m.room_id,
        "message": {"id": m.id, "channel": m.channel.value, "at_ms": m.at_ms, "text": m.text, "phrase": m.phrase,
                    "speaker": {"role": m.speaker.role.value, "seat": m.speaker.seat, "name": m.speaker.name,
                                "user": m.speaker.user}},
        "reporter": {"user": r.reporter, "name": r.reporter_name},
        "reason": r.reason.value,
        "at_ms": r.at_ms,
    }


def list_reports(deps: ChatDeps, caller: Caller, limit: int, cursor: str | None) -> dict[str, Any]:
    """Reported lines, newest first (the 司礼 only).

    Raises:
        Forbidden: ADMIN_ONLY; MalformedRequest: BAD_CURSOR.
    """
    require_admin(caller)
    page = deps.store.list_reports(limit, cursor)
    return {"reports": [report_json(r) for r in page.items], "cursor": page.cursor}


def family_phrases(family: str) -> dict[str, Any]:
    """The 心战 phrases of each game of a family.

    Raises:
        NotFound: UNKNOWN_GAME.
    """
    keys = families().get(family)
    if keys is None:
        raise NotFound(f"没有这个玩法族：{family}", code="UNKNOWN_GAME")
    games = [get_game(k) for k in keys]
    return {"family": family, "games": [
        {"game": g.key, "title": g.title, "phrases": [{"id": p.id, "text": p.text} for p in phrases_for(g)]}
        for g in games]}
