"""The single mapping from failures to HTTP: one JSON shape {code, message, details?} everywhere."""

from __future__ import annotations

import json
from typing import Any

from chalice import Response

from chalicelib.core.error_codes import PLATFORM_ERRORS
from chalicelib.core.errors import DomainError
from chalicelib.observability import logger, metrics_count

# Errors the framework (or the local gateway) produces itself, by status: codes of the catalogue
FRAMEWORK_CODES = {
    400: "BAD_REQUEST", 401: "UNAUTHENTICATED", 403: "FORBIDDEN", 404: "NOT_FOUND", 405: "METHOD_NOT_ALLOWED",
    413: "BODY_TOO_LARGE", 415: "UNSUPPORTED_MEDIA_TYPE", 429: "RATE_LIMITED", 500: "INTERNAL_ERROR",
    503: "UNAVAILABLE",
}


def framework_error(status: int) -> tuple[str, str]:
    """(code, Chinese message) for an error status the framework produced."""
    code = FRAMEWORK_CODES.get(status, "INTERNAL_ERROR" if status >= 500 else "BAD_REQUEST")
    return code, PLATFORM_ERRORS[code].message


def _body(code: str, message: str, details: dict[str, Any] | None = None) -> str:
    body: dict[str, Any] = {"code": code, "message": message}
    if details:
        body["details"] = details
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


RETRY_AFTER_DEFAULT_S = 5
"""Retry-After for a 429 or 503 whose error names no wait of its own (WeChat busy or unreachable, a
deployment missing a setting)."""


def error_response(e: DomainError) -> Response:
    metrics_count("ClientErrors" if e.status < 500 else "UpstreamErrors")
    if e.status == 409:
        metrics_count("ConflictResponses")
    logger.info("request refused", extra={"code": e.code, "status": e.status})
    headers: dict[str, str | list[str]] = {"Content-Type": "application/json; charset=utf-8"}
    retry_after = getattr(e, "retry_after_s", None)
    if retry_after is None and e.status in (429, 503):
        retry_after = RETRY_AFTER_DEFAULT_S  # docs/errors.md: every 429 and 503 says when to try again
    if retry_after is not None:
        headers["Retry-After"] = str(retry_after)
    return Response(body=_body(e.code, e.message, e.details or None), status_code=e.status, headers=headers)


def normalize_framework_error(response: Response) -> Response:
    """Chalice answers some requests itself ({"Code", "Message"}): give them our shape."""
    body = response.body
    if response.status_code < 400 or not isinstance(body, dict) or "Code" not in body:
        return response
    status = response.status_code
    if status >= 500:
        metrics_count("ServerErrors")
        logger.error("unhandled error", extra={"status": status})
    code, message = framework_error(status)
    headers = {k: v for k, v in response.headers.items() if k.lower() != "content-type"}
    headers["Content-Type"] = "application/json; charset=utf-8"
    return Response(body=_body(code, message), status_code=status, headers=headers)


def gateway_answer(status: int, body: bytes | str | None) -> tuple[int, bytes] | None:
    """What API Gateway's Gateway Responses (infra/template.py) make of an error the gateway itself
    produced — a missing token (401), an unknown path (403 "Missing Authentication Token" → 404), a
    denial, throttling — so the local server answers exactly as a deployed stage does. None when the
    answer is the API's own (it already has a `code`) or not an error."""
    if status < 400:
        return None
    try:
        parsed = json.loads(body or b"{}")
    except ValueError:
        parsed = {}
    if isinstance(parsed, dict) and "code" in parsed:
        return None
    message = str(parsed.get("message") or parsed.get("Message") or "") if isinstance(parsed, dict) else ""
    if status == 403 and ("Missing Authentication Token" in message or "Authorization header requires" in message):
        status = 404  # an unknown path (API Gateway's MISSING_AUTHENTICATION_TOKEN / INCOMPLETE_SIGNATURE)
    code, text = framework_error(status)
    return status, _body(code, text).encode()
