"""A boto3 DynamoDB client that fails its N-th call: the faults that survive botocore's own retries.

`FaultyClient` wraps the client `wiring.build(..., client=...)` receives, so it sits below the adapters
(which wrap it in `GuardedClient`) and above botocore's retry handler: what it raises is what a Lambda
would see after `standard` mode gave up. Every operation call counts (reads, writes, transactions,
queries, batch reads); attribute reads (`meta`, `exceptions`) and paginators do not.

Error classes (`CLASSES`):

* `throttled` — `ProvisionedThroughputExceededException` / `ThrottlingException` (alternating by N); a
  transaction alternates `ThrottlingException` with a `TransactionCanceledException` whose reasons
  say `ThrottlingError`, which is how DynamoDB reports a throttled transaction.
* `server` — `InternalServerError` (HTTP 500).
* `timeout` — `ReadTimeoutError`: no answer in time, nothing happened.
* `closed` — `ConnectionClosedError`.
* `lost` — the call went through (the write happened) and then the answer was lost: a
  `ReadTimeoutError` or an `InternalServerError` (alternating) reaches the caller anyway.
* `replayed` — the call went through, its answer was lost, and botocore resent it: the caller sees
  the resent call's answer. A conditional write then fails its own condition (the first attempt
  already changed the item); a transaction carries botocore's `ClientRequestToken`, so DynamoDB
  answers its resend with the first one's success (nothing to inject); a read is just read twice.
"""

from __future__ import annotations

import itertools
from dataclasses import dataclass, field
from typing import Any

from botocore.exceptions import ClientError, ConnectionClosedError, ReadTimeoutError

ENDPOINT = "https://dynamodb.ap-northeast-1.amazonaws.com"
CLASSES = ("throttled", "server", "timeout", "closed", "lost", "replayed")
NOT_CALLS = frozenset({"get_paginator", "get_waiter", "can_paginate", "close"})


def client_error(code: str, operation: str, status: int = 400, message: str = "injected",
                 reasons: list[dict[str, str]] | None = None) -> ClientError:
    response: dict[str, Any] = {
        "Error": {"Code": code, "Message": message},
        "ResponseMetadata": {"HTTPStatusCode": status, "RetryAttempts": 3},
    }
    if reasons is not None:
        response["CancellationReasons"] = reasons
    return ClientError(response, operation)


def _pascal(name: str) -> str:
    return "".join(part.title() for part in name.split("_"))


def fault_for(kind: str, n: int, operation: str, kwargs: dict[str, Any]) -> Exception:
    """The exception a caller sees for fault class `kind` at call number `n` (before or after the call)."""
    op = _pascal(operation)
    if kind == "throttled":
        if operation == "transact_write_items" and n % 2:
            items = kwargs.get("TransactItems", [])
            reasons = [{"Code": "ThrottlingError" if i == 0 else "None"} for i in range(len(items))]
            return client_error("TransactionCanceledException", op, reasons=reasons,
                                message="Transaction cancelled, please refer cancellation reasons for specific "
                                        "reasons [ThrottlingError]")
        return client_error("ThrottlingException" if n % 2 else "ProvisionedThroughputExceededException", op)
    if kind == "server" or (kind == "lost" and n % 2):
        return client_error("InternalServerError", op, status=500)
    if kind in ("timeout", "lost"):
        return ReadTimeoutError(endpoint_url=ENDPOINT)
    if kind == "closed":
        return ConnectionClosedError(endpoint_url=ENDPOINT)
    raise ValueError(f"unknown fault class {kind!r}")


@dataclass
class Injection:
    """One injected fault: which call, which operation, and what the caller saw."""

    kind: str
    n: int
    operation: str
    raised: str


@dataclass
class FaultyClient:
    """Counts operation calls; call number `fail_at` (1-based) fails with fault class `kind`."""

    client: Any
    kind: str | None = None
    fail_at: int | None = None
    calls: int = 0
    operations: list[str] = field(default_factory=list)
    injected: list[Injection] = field(default_factory=list)
    record: bool = False
    """Keep every operation's name in `operations` (the census of a fault-free run)."""
    before_call: Any = None
    """Called with each call's number before the call is made (the forked sweep's checkpoints)."""

    def __getattr__(self, name: str) -> Any:
        target = getattr(self.client, name)
        if not callable(target) or name.startswith("_") or name in NOT_CALLS:
            return target

        def call(*args: Any, **kwargs: Any) -> Any:
            self.calls += 1
            n = self.calls
            if self.record:
                self.operations.append(name)
            if self.before_call is not None:
                self.before_call(n)
            if n != self.fail_at or self.kind is None:
                return target(*args, **kwargs)
            return self._inject(n, name, target, args, kwargs)

        return call

    def _inject(self, n: int, name: str, target: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
        kind = self.kind
        assert kind is not None
        if kind == "replayed":
            first = target(*args, **kwargs)
            if name == "transact_write_items":
                self.injected.append(Injection(kind, n, name, "none (idempotency token)"))
                return first
            try:
                again = target(*args, **kwargs)
            except ClientError as e:
                self.injected.append(Injection(kind, n, name, e.response["Error"]["Code"]))
                raise
            self.injected.append(Injection(kind, n, name, "none (same answer)"))
            return again
        if kind == "lost":
            target(*args, **kwargs)
        error = fault_for(kind, n, name, kwargs)
        code = error.response["Error"]["Code"] if isinstance(error, ClientError) else type(error).__name__
        self.injected.append(Injection(kind, n, name, code))
        raise error


def sample_points(total: int, count: int, seed: int) -> list[int]:
    """`count` distinct call numbers in 1..total, spread over the whole run: one drawn at random
    (seeded) from each of `count` equal slices, so every phase of the game is sampled."""
    import random

    if count >= total:
        return list(range(1, total + 1))
    rng = random.Random(seed)
    bounds = [round(i * total / count) for i in range(count + 1)]
    return [rng.randint(lo + 1, hi) for lo, hi in itertools.pairwise(bounds)]
