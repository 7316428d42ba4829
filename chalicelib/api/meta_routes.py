"""The published contract and a health check."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path
from typing import Any

from chalice import Blueprint

from chalicelib.api.catalogue import catalogue
from chalicelib.api.routing import route
from chalicelib.api.schemas import ErrorCatalogueOut, HealthOut
from chalicelib.config import settings

bp = Blueprint(__name__)
SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi.json"


@cache
def _spec() -> dict[str, Any]:
    spec: dict[str, Any] = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    return spec


@route(bp, "/openapi.json", auth=False, tag="meta", summary="OpenAPI 3.1 契约")
def openapi_json() -> dict[str, Any]:
    return _spec()


@route(bp, "/v1/errors", auth=False, response=ErrorCatalogueOut, tag="meta",
       summary="错误目录：每个 code 的 HTTP 状态、中文提示与含义（客户端据 code 分支）")
def errors() -> dict[str, Any]:
    return {"errors": [{"code": code, "status": spec.status, "message": spec.message,
                        "description": spec.description} for code, spec in catalogue().items()]}


@route(bp, "/v1/health", auth=False, response=HealthOut, tag="meta", summary="健康检查")
def health() -> dict[str, Any]:
    return {"ok": True, "stage": settings().stage}
