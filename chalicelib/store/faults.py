"""Faults below the adapters become domain errors, for every DynamoDB call (reads included).

botocore's retry mode (see `wiring.dynamodb_client`) already retried throttling, 5xx answers and
broken connections within a budget that fits the Lambda timeout; what survives it arrives here and
becomes a 429 `BUSY` (throttling: the client backs off) or a 503 `UNAVAILABLE` (the service or the
network failed), both with `Retry-After`. Condition failures are not faults: they pass through to
the adapter, which turns them into `StaleVersion`/`Conflict`/… where it knows what they mean.
"""

from __future__ import annotations

import functools
import random
import time
from collections.abc import Callable
from typing import Any

from botocore.exceptions import BotoCoreError, ClientError

from chalicelib.core.errors import RateLimited, Unavailable
from chalicelib.observability import logger, metrics_count

THROTTLE_CODES = frozenset({
    "ProvisionedThroughputExceededException", "ThrottlingException", "RequestLimitExceeded",
    "LimitExceededException",
})
SERVER_CODES = frozenset({"InternalServerError", "ServiceUnavailable", "InternalFailure"})
THROTTLE_REASONS = frozenset({"ThrottlingError", "ProvisionedThroughputExceeded", "RequestLimitExceeded"})


def error_code(err: ClientError) -> str:
    return str(err.response.get("Error", {}).get("Code", ""))


def _status(err: ClientError) -> int:
    return int(err.response.get("ResponseMetadata", {}).get("HTTPStatusCode", 0) or 0)


def busy(operation: str, code: str) -> RateLimited:
    metrics_count("Throttled")
    logger.warning("dynamodb throttled", extra={"operation": operation, "aws_code": code})
    return RateLimited("服务繁忙，请稍后再试", code="BUSY")


def unavailable(operation: str, what: str) -> Unavailable:
    metrics_count("StoreFaults")
    logger.warning("dynamodb fault", extra={"operation": operation, "fault": what})
    return Unavailable("服务暂时不可用，请稍后再试", code="UNAVAILABLE")


def translate(operation: str, err: Exception) -> Exception | None:
    """The domain error for a fault, or None when `err` is not a fault (a condition failure)."""
    if isinstance(err, ClientError):
        code = error_code(err)
        if code in THROTTLE_CODES or code == "TransactionConflictException":
            return busy(operation, code)  # still contended after our tries: the client backs off
        if code == "TransactionCanceledException":
            reasons = {r.get("Code") for r in err.response.get("CancellationReasons", []) or []}
            if reasons & THROTTLE_REASONS:
                return busy(operation, "TransactionThrottled")
            return None
        if code in SERVER_CODES or _status(err) >= 500:
            return unavailable(operation, code or str(_status(err)))
        return None
    if isinstance(err, BotoCoreError):
        return unavailable(operation, type(err).__name__)
    return None


class GuardedClient:
    """A DynamoDB client whose faults raise domain errors (429 / 503); everything else is unchanged."""

    def __init__(self, client: Any) -> None:
        self._client = client

    def __getattr__(self, name: str) -> Any:
        target = getattr(self._client, name)
        if not callable(target) or name.startswith("_") or name in ("get_paginator", "get_waiter"):
            return target
        return _guarded(name, target)


SINGLE_WRITES = frozenset({"put_item", "update_item", "delete_item"})
CONFLICT_WAITS_S = (0.01, 0.03, 0.08)
"""A plain write that meets a transaction in flight on its item is refused (TransactionConflict),
which botocore does not retry; the transaction ends within milliseconds, so the write is tried again
after it — and then meets what it committed (a condition failure the adapter understands)."""


def _in_conflict(err: Exception) -> bool:
    return isinstance(err, ClientError) and error_code(err) == "TransactionConflictException"


def _guarded(operation: str, call: Callable[..., Any]) -> Callable[..., Any]:
    waits = CONFLICT_WAITS_S if operation in SINGLE_WRITES else ()

    @functools.wraps(call)
    def run(*args: Any, **kwargs: Any) -> Any:
        for wait in waits:
            try:
                return call(*args, **kwargs)
            except ClientError as e:
                if not _in_conflict(e):
                    raise _domain(operation, e) from e
                metrics_count("TransactionConflicts")
                time.sleep(wait * (0.5 + random.random()))  # jittered: two writers do not meet again
            except BotoCoreError as e:
                raise _domain(operation, e) from e
        try:
            return call(*args, **kwargs)
        except (ClientError, BotoCoreError) as e:
            raise _domain(operation, e) from e

    return run


def _domain(operation: str, err: ClientError | BotoCoreError) -> Exception:
    """The domain error for a fault, or the error itself (a condition failure: the adapter's)."""
    return translate(operation, err) or err
