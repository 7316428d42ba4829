"""One decorator for every route: parse, authenticate, call one service function, respond.

It also records each route's contract (body, query, response, auth, errors) for the OpenAPI
generator, so a route cannot exist without being documented. Domain errors become HTTP errors in
exactly one place (`errors.error_response`).
"""

from __future__ import annotations

import functools
import json
import os
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chalice import Blueprint, CORSConfig, Response
from pydantic import BaseModel

from chalicelib.api.authorizer import token_authorizer
from chalicelib.api.errors import error_response
from chalicelib.core.errors import (
    DomainError,
    MalformedRequest,
    NotFound,
    PayloadTooLarge,
    Unauthenticated,
    ValidationFailed,
)
from chalicelib.core.identity import Caller, Role
from chalicelib.observability import logger
from chalicelib.rooms.engine import parse_model
from chalicelib.rooms.views import RoomView

CORS = CORSConfig(
    allow_origin=os.environ.get("CORS_ORIGIN", "*"),
    allow_headers=["Authorization", "Content-Type", "If-None-Match", "Idempotency-Key"],
    expose_headers=["ETag"],
    max_age=600,
)
MAX_BODY_BYTES = 16 * 1024
TOKEN_MESSAGES = {"TOKEN_EXPIRED": "登录已过期，请重新登录", "BAD_TOKEN": "登录凭证无效，请重新登录"}


@dataclass(frozen=True)
class RouteDoc:
    method: str
    path: str
    name: str
    summary: str
    description: str
    tag: str
    body: type[BaseModel] | None
    query: type[BaseModel] | None
    response: type[BaseModel] | None
    auth: bool
    errors: tuple[int, ...]
    etag: bool
    headers: tuple[str, ...]
    family: str | None
    """Set on the per-family routes (/v1/games/{family}/…): their slots take that family's schemas."""


ROUTES: list[RouteDoc] = []


def caller_from(request: Any, now_s: int) -> Caller:
    ctx = (request.context or {}).get("authorizer") or {}
    if ctx.get("error") or not ctx.get("principalId") or ctx.get("principalId") == "anonymous":
        code = str(ctx.get("error") or "UNAUTHENTICATED")
        raise Unauthenticated(TOKEN_MESSAGES.get(code, "请先登录"), code=code)
    # the gateway may cache an authorizer answer: enforce expiry here as well
    if int(ctx.get("exp", 0)) <= now_s:
        raise Unauthenticated("登录已过期，请重新登录", code="TOKEN_EXPIRED")
    return Caller(user_id=ctx["principalId"], name=ctx.get("name", ""), role=Role(ctx.get("role", "player")))


def parse_body(request: Any, model: type[BaseModel]) -> Any:
    raw = request.raw_body or b""
    if len(raw) > MAX_BODY_BYTES:
        raise PayloadTooLarge("请求内容过大", code="BODY_TOO_LARGE")
    if not raw.strip():
        data: Any = {}
    else:
        try:
            data = json.loads(raw)
        except (ValueError, UnicodeDecodeError) as e:
            raise MalformedRequest("请求不是合法的 JSON", code="MALFORMED_JSON") from e
    if not isinstance(data, dict):
        raise MalformedRequest("请求体必须是 JSON 对象", code="MALFORMED_JSON")
    return parse_model(model, data, "请求")


def header(request: Any, name: str) -> str | None:
    """One request header (names are case-insensitive), or None."""
    value = (request.headers or {}).get(name.lower()) if request is not None else None
    return str(value) if value is not None else None


IDEMPOTENCY_KEY_MAX = 200


def idempotency_key(request: Any) -> str | None:
    """The `Idempotency-Key` header, or None when absent or blank: a blank key is no key, not one that
    every call sending it would share (a second action would be taken for a retry of the first).

    Raises:
        MalformedRequest: longer than 200 characters, or holding a control or unpaired character.
    """
    key = (header(request, "idempotency-key") or "").strip()
    if not key:
        return None
    if len(key) > IDEMPOTENCY_KEY_MAX or not key.isprintable():
        raise MalformedRequest("Idempotency-Key 格式有误")
    return key


def json_response(body: Any, status: int = 200, headers: dict[str, str | list[str]] | None = None) -> Response:
    text = json.dumps(body, ensure_ascii=False, separators=(",", ":"))
    return Response(body=text, status_code=status,
                    headers={"Content-Type": "application/json; charset=utf-8", **(headers or {})})


PATH_PARAM_MAX = 64
"""No id of ours is longer (rooms 16, 妃子 11, messages 10 characters); DynamoDB refuses a key over
1,024 bytes even on a read, which would otherwise surface as a 500."""
NOT_FOUND = {"room_id": ("ROOM_NOT_FOUND", "找不到这个房间"), "consort_id": ("CONSORT_NOT_FOUND", "找不到这位妃子"),
             "board": ("BOARD_NOT_FOUND", "没有这个榜单"), "stage": ("STAGE_NOT_FOUND", "没有这个关卡"),
             "family": ("UNKNOWN_GAME", "没有这个玩法"),
             "game_key": ("UNKNOWN_GAME", "没有这个玩法"), "message_id": ("CHAT_MESSAGE_NOT_FOUND", "找不到这条发言")}


MALFORMED = {"code": ("BAD_ROOM_CODE", "房号是六位数字")}
"""Path values typed by a person, with a form to be told about: too long is malformed, not absent."""


def check_path_params(params: dict[str, Any]) -> None:
    """Raises: NotFound for a path value no id of ours can be (the code of what was looked for);
    ValidationFailed for a typed value that cannot have its form (`MALFORMED`)."""
    for name, value in params.items():
        if isinstance(value, str) and len(value) > PATH_PARAM_MAX:
            if name in MALFORMED:
                code, message = MALFORMED[name]
                raise ValidationFailed(message, code=code)
            code, message = NOT_FOUND.get(name, ("NOT_FOUND", "没有这个接口或资源"))
            raise NotFound(message, code=code)


def none_match(header_value: str | None, etag: str) -> bool:
    """If-None-Match as RFC 9110 §13.1.2 reads it for GET: `*`, or a list of tags of which one
    matches ours by the weak comparison (a cache or proxy may send several, or drop the W/)."""
    if not header_value:
        return False
    if header_value.strip() == "*":
        return True
    ours = etag.removeprefix("W/")
    return any(tag.strip().removeprefix("W/") == ours for tag in header_value.split(","))


def _to_response(result: Any, request: Any, model: type[BaseModel] | None) -> Response:
    headers: dict[str, str | list[str]] = {}
    if isinstance(result, RoomView):
        headers = {"ETag": result.etag, "Cache-Control": "no-cache"}
        # a POST that answers with a view has done its work: its answer is never "not modified"
        if (request is not None and request.method == "GET" and none_match(header(request, "if-none-match"), result.etag)
                and not result.fresh):
            return Response(body="", status_code=304, headers=headers)
        result = result.body
    if isinstance(result, BaseModel):
        result = result.model_dump(mode="json")
    if model is not None and os.environ.get("VALIDATE_RESPONSES") == "1":
        model.model_validate(result)  # tests: the documented schema is what we return
    return json_response(result, 200, headers)


def route(
    bp: Blueprint, path: str, method: str = "GET", *, summary: str, tag: str, description: str = "",
    body: type[BaseModel] | None = None, query: type[BaseModel] | None = None,
    response: type[BaseModel] | None = None, auth: bool = True, errors: tuple[int, ...] = (),
    etag: bool = False, headers: tuple[str, ...] = (), family: str | None = None, name: str | None = None,
) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    def deco(fn: Callable[..., Any]) -> Callable[..., Any]:
        ROUTES.append(RouteDoc(method, path, name or fn.__name__, summary,
                               description or (fn.__doc__ or "").strip(), tag, body, query, response, auth, errors,
                               etag, headers, family))

        @functools.wraps(fn)
        def view(**params: Any) -> Response:
            request = bp.current_request
            try:
                check_path_params(params)
                kwargs = dict(params)
                if auth:
                    from chalicelib.wiring import services

                    kwargs["caller"] = caller_from(request, services().clock.now_ms() // 1000)
                    logger.append_keys(user=kwargs["caller"].user_id)
                if "room_id" in params:
                    logger.append_keys(room=params["room_id"])
                if body is not None:
                    kwargs["body"] = parse_body(request, body)
                if query is not None:
                    kwargs["query"] = parse_model(query, dict(request.query_params or {}), "查询参数", strict=False)
                return _to_response(fn(**kwargs), request, response)
            except DomainError as e:
                return error_response(e)

        view.__name__ = name or fn.__name__  # Chalice names each view: per-family routes share a function
        bp.route(path, methods=[method], authorizer=token_authorizer if auth else None, cors=CORS)(view)
        return view

    return deco
