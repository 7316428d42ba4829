"""The published contract and a health check."""

from __future__ import annotations

import json
from functools import cache
from pathlib import Path

from chalice import Blueprint

from chalicelib.api.routing import route
from chalicelib.api.schemas import HealthOut
from chalicelib.config import settings

bp = Blueprint(__name__)
SPEC_PATH = Path(__file__).resolve().parent.parent / "openapi.json"


@cache
def _spec() -> dict:
    return json.loads(SPEC_PATH.read_text(encoding="utf-8"))


@route(bp, "/openapi.json", auth=False, tag="meta", summary="OpenAPI 3.1 契约")
def openapi_json() -> dict:
    return _spec()


@route(bp, "/v1/health", auth=False, response=HealthOut, tag="meta", summary="健康检查")
def health() -> dict:
    return {"ok": True, "stage": settings().stage}
