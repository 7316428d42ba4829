"""Structured logs and metrics (powertools Logger, CloudWatch EMF Metrics), shared by routes and jobs.

Log lines carry the request id, user and room as keys (appended per request by the API middleware),
never an action, a hand or a role: hidden information does not enter logs.
"""

from __future__ import annotations

from collections import defaultdict

from aws_lambda_powertools import Logger, Metrics
from aws_lambda_powertools.metrics import MetricUnit

logger = Logger(service="shengong")
metrics = Metrics(namespace="Shengong", service="shengong")

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
