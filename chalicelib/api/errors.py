"""The single mapping from failures to HTTP: one JSON shape {code, message, details?} everywhere."""

from __future__ import annotations

import json
import re
from typing import Any

from chalice import Response

from chalicelib.core.errors import DomainError
from chalicelib.observability import logger, metrics_count

# Chinese messages for errors produced by the framework itself (routing, content type, crashes)
FRAMEWORK_MESSAGES = {
    400: "请求有误",
    401: "请先登录",
    403: "无权访问",
    404: "没有这个接口",
    405: "不支持这种请求方法",
    413: "请求内容过大",
    415: "请使用 JSON 格式提交",
    500: "服务器开小差了，请稍后再试",
}


def _body(code: str, message: str, details: dict[str, Any] | None = None) -> str:
    body: dict[str, Any] = {"code": code, "message": message}
    if details:
        body["details"] = details
    return json.dumps(body, ensure_ascii=False, separators=(",", ":"))


def error_response(e: DomainError) -> Response:
    metrics_count("ClientErrors" if e.status < 500 else "UpstreamErrors")
    if e.status == 409:
        metrics_count("ConflictResponses")
    logger.info("request refused", extra={"code": e.code, "status": e.status})
    return Response(body=_body(e.code, e.message, e.details or None), status_code=e.status,
                    headers={"Content-Type": "application/json; charset=utf-8"})


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).upper().removesuffix("_ERROR")


def normalize_framework_error(response: Response) -> Response:
    """Chalice answers some requests itself ({"Code", "Message"}): give them our shape."""
    body = response.body
    if response.status_code < 400 or not isinstance(body, dict) or "Code" not in body:
        return response
    status = response.status_code
    if status >= 500:
        metrics_count("ServerErrors")
        logger.error("unhandled error", extra={"status": status})
    code = "INTERNAL_ERROR" if status >= 500 else _snake(str(body["Code"]))
    headers = {k: v for k, v in response.headers.items() if k.lower() != "content-type"}
    headers["Content-Type"] = "application/json; charset=utf-8"
    return Response(body=_body(code, FRAMEWORK_MESSAGES.get(status, "请求有误")), status_code=status, headers=headers)
