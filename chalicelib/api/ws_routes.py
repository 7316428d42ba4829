"""The WebSocket API (API Gateway WebSocket, through Chalice's experimental WEBSOCKETS feature) and
`GET /v1/live`, which tells a client where it is.

Three routes, each its own Lambda: `$connect` checks the token (the `token` query parameter:
browsers cannot set headers on a WebSocket) and refuses the socket with 401 before it opens;
`$default` handles subscribe / unsubscribe / ping (`chalicelib.push.service`); `$disconnect` forgets
the connection and its subscriptions. The notices themselves come from the table's stream
(`chalicelib.api.stream_handler`), never from these.

Chalice wraps WebSocket handlers only for an object that has a `websocket_api`; a blueprint has
none, so this one is given push's own (`chalicelib.push.build.WEBSOCKET_API`) before its handlers
are declared: each Lambda then receives a `WebsocketEvent` and configures that client from it.
"""

from __future__ import annotations

import functools
import os
from collections.abc import Callable
from typing import Any

from chalice import Blueprint
from pydantic import Field

from chalicelib.api.routing import route
from chalicelib.api.schemas import Out
from chalicelib.core.errors import DomainError
from chalicelib.observability import flush_metrics, logger
from chalicelib.push.build import WEBSOCKET_API

bp = Blueprint(__name__)
bp.websocket_api = WEBSOCKET_API
KEEPALIVE_S = 480


class LiveOut(Out):
    url: str | None = Field(description="WebSocket 地址（wss://…，连接时带 ?token=<登录凭证>）；null 表示本环境只能轮询")
    keepalive_s: int = Field(description="每隔这么多秒发一次 {\"action\": \"ping\"}，连接才不会因空闲被断开")


@route(bp, "/v1/live", auth=False, response=LiveOut, tag="meta",
       summary="房间推送：WebSocket 地址。连上后发 {\"action\":\"subscribe\",\"room\":…,\"etag\":…}，"
               "房间有变化时收到 {\"type\":\"changed\",\"room\":…,\"version\":…}（看不到步数者无 version），"
               "已有该版本则不必再取，否则带 If-None-Match 取自己的视图；保皇与血染甄嬛传的通知（默认，PUSH_VIEWS）"
               "另带 \"view\" 与 \"etag\"：即你自己 GET /v1/games/{family}/rooms/{id} 所得，可直接显示")
def live() -> dict[str, Any]:
    return {"url": os.environ.get("LIVE_URL") or None, "keepalive_s": KEEPALIVE_S}


def _push() -> Any:
    from chalicelib.push.build import current

    return current()


def _flushed(handler: Callable[[Any], dict[str, Any]]) -> Callable[[Any], dict[str, Any]]:
    """Each socket event emits what it counted: these functions have no request middleware to do it,
    and what a warm instance buffers is lost when it is recycled."""

    @functools.wraps(handler)
    def run(event: Any) -> dict[str, Any]:
        try:
            return handler(event)
        finally:
            flush_metrics()

    return run


@bp.on_ws_connect()
@_flushed
def ws_connect(event: Any) -> dict[str, Any]:
    from chalicelib.push import service

    params = event.to_dict().get("queryStringParameters") or {}
    try:
        service.connect(_push(), event.connection_id, params.get("token"))
    except DomainError as e:
        logger.info("socket refused", extra={"code": e.code})
        return {"statusCode": e.status}
    return {"statusCode": 200}


@bp.on_ws_message()
@_flushed
def ws_message(event: Any) -> dict[str, Any]:
    from chalicelib.push import service

    deps = _push()
    answer = service.handle(deps, event.connection_id, event.body)
    deps.sender.send(event.connection_id, answer)
    return {"statusCode": 200}


@bp.on_ws_disconnect()
@_flushed
def ws_disconnect(event: Any) -> dict[str, Any]:
    from chalicelib.push import service

    service.disconnect(_push(), event.connection_id)
    return {"statusCode": 200}
