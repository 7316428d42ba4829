"""Scheduled functions (each its own Lambda with an EventBridge rule): settle overdue rounds every
minute, expire stalled rooms every five minutes. Both are safe to run twice."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import asdict
from typing import Any

from chalice import Blueprint, Rate

from chalicelib.observability import flush_metrics, logger
from chalicelib.rooms import sweeper
from chalicelib.wiring import services

bp = Blueprint(__name__)


def _time_left(event: Any) -> Callable[[], int] | None:
    """The invocation's remaining milliseconds (None outside Lambda, e.g. the local server's ticks)."""
    context = getattr(event, "context", None)
    return getattr(context, "get_remaining_time_in_millis", None)


@bp.schedule(Rate(1, unit=Rate.MINUTES), name="settle_overdue", description="Settle rounds past their deadline")
def settle_overdue(event):  # type: ignore[no-untyped-def]
    report = sweeper.settle_overdue(services().room_deps(), _time_left(event))
    flush_metrics()
    return asdict(report)


@bp.schedule(Rate(5, unit=Rate.MINUTES), name="expire_stalled", description="Expire stalled and abandoned rooms")
def expire_stalled(event):  # type: ignore[no-untyped-def]
    report = sweeper.expire_stalled(services().room_deps(), _time_left(event))
    logger.info("expire sweep done", extra=asdict(report))
    flush_metrics()
    return asdict(report)
