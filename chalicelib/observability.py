"""Structured logs, metrics and traces (powertools Logger, CloudWatch EMF Metrics, X-Ray Tracer),
shared by routes and jobs.

Log lines carry the request id, user and room as keys (appended per request by the API middleware),
never an action, a hand or a role: hidden information does not enter logs. Metrics carry the stage as a
dimension, so stages sharing an account never share an alarm.
"""

from __future__ import annotations

import os
from collections import defaultdict
from functools import cache
from typing import Any

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

logger = Logger(service="shengong")
metrics = Metrics(namespace="Shengong", service="shengong")
metrics.set_default_dimensions(stage=os.environ.get("STAGE", "local"))


@cache
def tracer() -> Any:
    """The X-Ray tracer in a Lambda with tracing on (it patches botocore, so every DynamoDB call is a
    subsegment); None elsewhere, where there is no daemon to send to."""
    if not os.environ.get("AWS_LAMBDA_FUNCTION_NAME") or os.environ.get("POWERTOOLS_TRACE_DISABLED") == "true":
        return None
    from aws_lambda_powertools import Tracer

    return Tracer(service="shengong")


def annotate(**keys: str) -> None:
    """Searchable keys on the current trace (route, room), when tracing."""
    t = tracer()
    if t is not None:
        for key, value in keys.items():
            t.put_annotation(key=key, value=value)

COUNTS: defaultdict[str, float] = defaultdict(float)
"""This process's running totals of every metric (tests and the local server read them)."""


def metrics_count(name: str, value: float = 1) -> None:
    COUNTS[name] += value
    metrics.add_metric(name=name, unit=MetricUnit.Count, value=value)


def metrics_ms(name: str, value: float) -> None:
    metrics.add_metric(name=name, unit=MetricUnit.Milliseconds, value=value)


def flush_metrics() -> None:
    """Emit the EMF blob for this invocation (a no-op when nothing was recorded)."""
    if metrics.metric_set:
        metrics.flush_metrics()
    metrics.clear_metrics()
