"""The published contract and a health check."""

from __future__ import annotations

import json
from collections.abc import Callable
from functools import cache
from pathlib import Path
from typing import Any

from chalice import Blueprint
from pydantic import Field

from chalicelib.api.catalogue import catalogue
from chalicelib.api.routing import route
from chalicelib.api.schemas import Body, ErrorCatalogueOut, HealthOut
from chalicelib.config import settings
from chalicelib.observability import logger

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


class HealthQuery(Body):
    deep: bool = Field(default=False, description="也检查数据表与各密钥能否读到（部署、回滚后的冒烟测试用）")


def _probes() -> dict[str, Callable[[], object]]:
    """What a deployed API needs besides its code: the table and the three secrets."""
    from chalicelib.wiring import services

    s = settings()
    return {"table": services().accounts.get_open_games, "token_keys": lambda: s.token_secret,
            "admins": s.current_admins, "wechat": s.wechat_credentials}


@route(bp, "/v1/health", auth=False, query=HealthQuery, response=HealthOut, tag="meta", errors=(422,),
       summary="健康检查（deep=true 时也查数据表与密钥）")
def health(query: HealthQuery) -> dict[str, Any]:
    answer: dict[str, Any] = {"ok": True, "stage": settings().stage}
    if query.deep:
        checks = {}
        for name, probe in _probes().items():
            try:
                probe()
                checks[name] = "ok"
            except Exception:  # noqa: BLE001 - a health check reports any failure (logged with its cause)
                logger.exception("health check failed", extra={"check": name})
                checks[name] = "unavailable"
        answer.update(ok=all(v == "ok" for v in checks.values()), checks=checks)
    return answer
