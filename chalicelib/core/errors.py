"""Domain errors: one tree, each with a stable English code, a Chinese message and an HTTP status.

Game rules and services raise these; the API maps them to a single JSON error shape in one place
(`chalicelib.api.errors`). Nothing else decides status codes.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar


@dataclass(frozen=True, slots=True)
class ErrorSpec:
    """One entry of the closed error catalogue: a code has exactly one HTTP status."""

    status: int
    message: str
    """The generic Chinese message (raise sites may say more, e.g. name the player)."""
    description: str
    """What it means, in English, for client developers."""


class DomainError(Exception):
    """Base of every expected failure. `code` is stable English, `message` is for the player (中文)."""

    status: ClassVar[int] = 400
    default_code: ClassVar[str] = "BAD_REQUEST"
    default_message: ClassVar[str] = "请求有误"

    def __init__(self, message: str | None = None, *, code: str | None = None, **details: Any) -> None:
        self.code = code or self.default_code
        self.message = message or self.default_message
        self.details = details
        super().__init__(f"{self.code}: {self.message}")


class MalformedRequest(DomainError):
    """The request body or parameters cannot be understood (bad JSON, wrong types)."""

    status = 400
    default_code = "MALFORMED_REQUEST"
    default_message = "请求格式有误"


class Unauthenticated(DomainError):
    status = 401
    default_code = "UNAUTHENTICATED"
    default_message = "请先登录"


class Forbidden(DomainError):
    status = 403
    default_code = "FORBIDDEN"
    default_message = "无权进行此操作"


class NotFound(DomainError):
    status = 404
    default_code = "NOT_FOUND"
    default_message = "找不到该对象"


class Conflict(DomainError):
    """The request is valid but the current state forbids it (already done, full, not your turn...)."""

    status = 409
    default_code = "CONFLICT"
    default_message = "当前状态不允许此操作"


class StaleVersion(Conflict):
    """A conditional write lost a race; the client should re-read and try again."""

    default_code = "STALE_VERSION"
    default_message = "房间状态已变化，请刷新后重试"


class RoomCodeTaken(Conflict):
    """The 房号 drawn for a new room is held by another (recent) room: the store wrote nothing, and the
    room service draws again."""

    default_code = "ROOM_CODE_TAKEN"
    default_message = "暂时分不出房号，请重试"


class NotYourTurn(Conflict):
    default_code = "NOT_YOUR_TURN"
    default_message = "还没轮到你"


class GameOver(Conflict):
    default_code = "GAME_OVER"
    default_message = "本局已结束"


class ValidationFailed(DomainError):
    """The JSON parsed but does not fit the schema (wrong types, unknown fields)."""

    status = 422
    default_code = "VALIDATION_FAILED"
    default_message = "提交的内容不符合格式要求"


class IllegalAction(DomainError):
    """Well-formed but against the rules of the game in its current state."""

    status = 422
    default_code = "ILLEGAL_ACTION"
    default_message = "不符合规则的操作"


class PayloadTooLarge(DomainError):
    status = 413
    default_code = "BODY_TOO_LARGE"
    default_message = "请求内容过大"


class RateLimited(DomainError):
    """Too many requests: the answer carries `Retry-After: retry_after_s`."""

    status = 429
    default_code = "RATE_LIMITED"
    default_message = "操作太频繁，请稍后再试"
    retry_after_s: int = 1

    @classmethod
    def waiting(cls, wait_ms: int, message: str, *, code: str, **details: Any) -> RateLimited:
        """Refused for `wait_ms` more: `Retry-After` says so, in whole seconds (at least one)."""
        e = cls(message, code=code, **details)
        e.retry_after_s = max(1, -(-wait_ms // 1000))
        return e


class Unavailable(DomainError):
    """A fault that survived our retries (storage throttling, timeouts, internal errors): nothing was
    half-written, and the same request may be sent again after `Retry-After`."""

    status = 503
    default_code = "UNAVAILABLE"
    default_message = "服务暂时不可用，请稍后再试"
    retry_after_s: int = 1


class UpstreamError(DomainError):
    """A dependency we call (WeChat) failed in a way the client can retry later."""

    status = 503
    default_code = "UPSTREAM_UNAVAILABLE"
    default_message = "微信服务繁忙，请稍后再试"
