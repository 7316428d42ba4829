"""What the three WebSocket routes do: connect, one message, disconnect.

The protocol (JSON text frames; every server message has `type`; a notice names the room and, for a
viewer who sees it anyway, the version, and — only where the stage pushes views for the game — her own
view as her `GET` would answer it, with its ETag; never anything of anyone else's):

    client → server                              server → client
    {"action": "subscribe", "room": R}           {"type": "subscribed", "room": R}
                                                 or {"type": "error", "room": R, "code", "message"}
    {"action": "unsubscribe", "room": R}         {"type": "unsubscribed", "room": R}
    {"action": "ping"}                           {"type": "pong"}
                                                 {"type": "changed", "room": R, "version"?: V,
                                                  "view"?: {...}, "etag"?: E}
                                                  (the fan-out: fetch your view, unless it came along)
                                                 {"type": "unsubscribed", "room": R} (you may no longer watch it)

Connect checks the token (the same HMAC token as the HTTP API; browsers cannot set headers on a
WebSocket, so it comes as the `token` query parameter) and refuses with 401 before the socket opens.
Subscribe applies the room's own access rules (`chalicelib.rooms.access.viewer_for`): seated players,
the host, any 司礼, and spectators — in a room with a 暗号, only those who gave it.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from chalicelib.core.errors import DomainError, MalformedRequest, RateLimited, Unauthenticated
from chalicelib.core.identity import Caller, Role
from chalicelib.domain.model import Room, Trigger
from chalicelib.domain.ports import Connection, PushStore, Subscription
from chalicelib.observability import logger, metrics_count
from chalicelib.push.sender import Sender
from chalicelib.rooms.deps import RoomDeps

MAX_ROOMS = 8
"""Rooms one connection may watch at once (a phone shows one; a host may keep a few open)."""
CONNECTION_MAX_S = 2 * 3600
"""API Gateway closes a WebSocket after 2 hours; a connection record never outlives that."""
MAX_MESSAGE_BYTES = 1024
KEEPALIVE_S = 480
"""The client pings this often: API Gateway drops a connection idle for 10 minutes."""

PUSHED_VIEW_FAMILIES = frozenset({"baohuang", "zhenhuan"})
"""The games whose room page shows a view a notice carries (the client's `usePoll(…, { takesPushed })`,
whose request is exactly that view); 深宫杀's page asks with its round's 战报 folded in, so a pushed view
would spare it nothing. PUSH_VIEWS may name only these (tests/push/test_pushed_views.py checks the
client's pages against it)."""

Watching = Callable[[str, str], bool]
NoticeHook = Callable[[Room, Room, Trigger | None, Watching], Any]
"""The chat helper's `send_notices(old, new, trigger, is_watching=...)`."""


@dataclass
class PushDeps:
    store: PushStore
    rooms: RoomDeps
    sender: Sender
    token_keys: Callable[[], bytes]
    """The token keys (`Settings.token_secret`), read only when a socket connects."""
    notices: NoticeHook | None = None
    pushed_views: frozenset[str] = frozenset()
    """Game families whose notices carry the subscriber's own view (`Settings.push_views`)."""
    max_rooms: int = MAX_ROOMS
    extra: dict[str, Any] = field(default_factory=dict)


class ClientMessage(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid", defer_build=True)  # built at the first message

    action: Literal["subscribe", "unsubscribe", "ping"]
    room: str | None = Field(default=None, min_length=1, max_length=64, pattern=r"^[a-z0-9]+$")
    etag: str | None = Field(default=None, min_length=1, max_length=80)
    """subscribe: the ETag of the view the phone holds (the per-game route's, with the game); the answer
    says whether it is still current. Any other tag reads as changed: one fetch."""


def caller_of(conn: Connection | Subscription) -> Caller:
    return Caller(user_id=conn.user, name=getattr(conn, "name", ""), role=Role(conn.role))


def connect(deps: PushDeps, connection_id: str, token: str | None) -> Connection:
    """Check the token and record the connection.

    Raises:
        Unauthenticated: UNAUTHENTICATED (no token), BAD_TOKEN, TOKEN_EXPIRED — the socket is refused.
    """
    from chalicelib.auth import tokens

    if not token:
        raise Unauthenticated("请先登录", code="UNAUTHENTICATED")
    now = deps.rooms.clock.now_ms()
    claims = tokens.verify(deps.token_keys(), token.removeprefix("Bearer "), now // 1000)
    caller = claims.caller
    conn = Connection(id=connection_id, user=caller.user_id, name=caller.name, role=caller.role.value,
                      connected_ms=now, expires_s=min(claims.expires_s, now // 1000 + CONNECTION_MAX_S))
    deps.store.put_connection(conn)
    metrics_count("SocketConnects")
    return conn


def disconnect(deps: PushDeps, connection_id: str) -> None:
    deps.store.delete_connection(connection_id)


def _error(e: DomainError, room: str | None) -> dict[str, Any]:
    return {"type": "error", "room": room, "code": e.code, "message": e.message}


def handle(deps: PushDeps, connection_id: str, body: str | None) -> dict[str, Any]:
    """One message from a socket; returns the answer to send back on it."""
    try:
        raw = (body or "").encode()
        if len(raw) > MAX_MESSAGE_BYTES:
            raise ValueError("too long")
        msg = ClientMessage.model_validate(json.loads(raw or b"null"))
    except (ValueError, ValidationError):
        return _error(MalformedRequest("消息格式有误", code="MALFORMED_REQUEST"), None)
    if msg.action == "ping":
        return {"type": "pong"}
    if msg.room is None:
        return _error(MalformedRequest("请指明房间", code="MALFORMED_REQUEST"), None)
    conn = deps.store.get_connection(connection_id)
    if conn is None or conn.expires_s <= deps.rooms.clock.now_ms() // 1000:
        return _error(Unauthenticated("登录已过期，请重新连接", code="TOKEN_EXPIRED"), msg.room)
    if msg.action == "unsubscribe":
        deps.store.unsubscribe(connection_id, msg.room)
        return {"type": "unsubscribed", "room": msg.room}
    try:
        return subscribe(deps, conn, msg.room, msg.etag)
    except DomainError as e:
        return _error(e, msg.room)


def subscribe(deps: PushDeps, conn: Connection, room_id: str, etag: str | None = None) -> dict[str, Any]:
    """Watch a room the caller may view; the subscription starts from her view as it is now.

    Notices tell of changes after this point, so a phone that fetched its view before subscribing
    (or while its socket was down) could miss one in between. Given the ETag of the view it holds,
    the answer says whether that view is still hers (`changed`: false) or she should fetch (true);
    that is all it says: the tag is compared, never sent. A room that moved while the subscription
    was being stored (its notice may have gone out before she was listed) answers `changed`: true,
    with or without a tag.

    Raises:
        NotFound: ROOM_NOT_FOUND; Forbidden: PASSWORD_REQUIRED; RateLimited: RATE_LIMITED (too many rooms).
    """
    from chalicelib.games import get_game
    from chalicelib.rooms.access import is_host, viewer_for
    from chalicelib.rooms.engine import hides_steps
    from chalicelib.rooms.views import view_tag

    caller = caller_of(conn)
    room = deps.rooms.rooms.get_room(room_id)
    viewer = viewer_for(deps.rooms, caller, room)  # refuses exactly as GET /v1/rooms/{id} would
    # her view's tag is kept only where the steps are hidden from her: anyone else hears every version
    hidden = hides_steps(get_game(room.game), viewer)
    now = view_tag(deps.rooms, caller, room) if hidden or etag is not None else None
    tag = now if hidden else None
    watcher = room.has_password and room.seat_of(caller.user_id) is None and not is_host(caller, room)
    sub = Subscription(room_id=room.id, connection_id=conn.id, user=conn.user, role=conn.role,
                       expires_s=conn.expires_s, watcher=watcher, tag=tag, version=room.version)
    if not deps.store.subscribe(sub, deps.max_rooms):
        raise RateLimited(f"一个连接最多同时关注 {deps.max_rooms} 个房间", code="RATE_LIMITED")
    logger.debug("subscribed", extra={"room": room.id})
    # a change committed between the read above and the subscription's write was fanned out to the
    # room's subscribers before hers was stored: look again, and have her fetch if what she may see
    # moved (for a player whose steps are hidden, only her own view counts: no step shows)
    fresh = deps.rooms.rooms.get_room(room.id)
    if fresh.version != room.version:
        latest = view_tag(deps.rooms, caller, fresh) if hidden or etag is not None else None
        if etag is not None:
            return {"type": "subscribed", "room": room.id, "changed": etag != latest}
        if not hidden or latest != now:
            return {"type": "subscribed", "room": room.id, "changed": True}
    if etag is None:
        return {"type": "subscribed", "room": room.id}
    return {"type": "subscribed", "room": room.id, "changed": etag != now}
