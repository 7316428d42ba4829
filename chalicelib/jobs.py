"""Scheduled functions (each its own Lambda with an EventBridge rule): settle overdue rounds every
minute, expire stalled rooms every five minutes. Both are safe to run twice."""

from __future__ import annotations

from dataclasses import asdict

from chalice import Blueprint, Rate

from chalicelib.observability import flush_metrics, logger
from chalicelib.rooms import sweeper
from chalicelib.wiring import services

bp = Blueprint(__name__)


@bp.schedule(Rate(1, unit=Rate.MINUTES), name="settle_overdue", description="Settle rounds past their deadline")
def settle_overdue(event):  # type: ignore[no-untyped-def]
    report = sweeper.settle_overdue(services().room_deps())
    flush_metrics()
    return asdict(report)


@bp.schedule(Rate(5, unit=Rate.MINUTES), name="expire_stalled", description="Expire stalled and abandoned rooms")
def expire_stalled(event):  # type: ignore[no-untyped-def]
    report = sweeper.expire_stalled(services().room_deps())
    logger.info("expire sweep done", extra=asdict(report))
    flush_metrics()
    return asdict(report)
