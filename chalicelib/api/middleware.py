"""Per-request logging context, latency and error metrics, and one error shape for framework errors."""

from __future__ import annotations

import time

from chalice import Blueprint

from chalicelib.api.errors import normalize_framework_error
from chalicelib.observability import annotate, flush_metrics, logger, metrics_count, metrics_ms

bp = Blueprint(__name__)


@bp.middleware("http")
def observe(event, get_response):  # type: ignore[no-untyped-def]
    logger.remove_keys(["user", "room"])
    context = event.context or {}
    # API Gateway's request id; locally (no gateway) the Lambda context's id
    request_id = context.get("requestId") or getattr(getattr(event, "lambda_context", None), "aws_request_id", None)
    logger.append_keys(request_id=request_id, method=event.method, route=context.get("resourcePath"))
    annotate(route=str(context.get("resourcePath") or ""))
    started = time.perf_counter()
    response = normalize_framework_error(get_response(event))
    elapsed = (time.perf_counter() - started) * 1000
    metrics_count("Requests")
    metrics_ms("Latency", elapsed)
    logger.info("request", extra={"status": response.status_code, "ms": round(elapsed, 2)})
    flush_metrics()
    return response
