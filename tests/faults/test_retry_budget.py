"""The DynamoDB client's retry budget fits the Lambda that waits on it.

A call that keeps failing is retried by botocore (`standard` mode: `max_attempts` tries in all, each
bounded by the connect and read timeouts, with jittered exponential backoff between them: up to
2**i seconds after a throttle, 25 ms * 2**i after another fault). Only after that does the fault reach
`store.faults` and become a 429 / 503 with Retry-After, in our error shape. If one call's worst case
does not fit well inside the function's timeout, the Lambda is killed first and the phone gets API
Gateway's bare 5xx instead — no Retry-After, no error shape, and the request's remaining work cut
short wherever it was.
"""

from __future__ import annotations

import json
from pathlib import Path

from chalicelib import wiring

ROOT = Path(__file__).resolve().parents[2]
HEADROOM_S = 3.0
"""What a request needs besides one failing call: its other calls, the rules, the answer."""


def worst_case_s(config) -> float:
    attempts = config.retries["total_max_attempts"] if "total_max_attempts" in config.retries \
        else config.retries["max_attempts"]
    per_try = config.connect_timeout + config.read_timeout
    throttle_backoff = sum(min(1 * 2**i, 20) for i in range(attempts - 1))  # rand() at its maximum
    return attempts * per_try + throttle_backoff


def lambda_timeouts() -> dict[str, int]:
    """The timeout of every function of every stage that builds the DynamoDB client."""
    config = json.loads((ROOT / ".chalice" / "config.json").read_text(encoding="utf-8"))
    default = config.get("lambda_timeout", 60)
    out = {}
    for stage, body in config["stages"].items():
        stage_default = body.get("lambda_timeout", default)
        out[f"{stage}/api_handler"] = stage_default
        for name, fn in body.get("lambda_functions", {}).items():
            if name in ("api_handler", "settle_overdue", "expire_stalled"):
                out[f"{stage}/{name}"] = fn.get("lambda_timeout", stage_default)
    return out


def test_one_failing_call_gives_up_well_before_the_lambda_times_out(monkeypatch):
    monkeypatch.setenv("AWS_DEFAULT_REGION", "ap-northeast-1")
    client = wiring.dynamodb_client()
    config = client.meta.config
    assert config.retries["mode"] == "standard"
    worst = worst_case_s(config)
    for function, timeout in lambda_timeouts().items():
        assert worst + HEADROOM_S <= timeout, (
            f"{function}: one DynamoDB call may take {worst:.1f} s before it gives up "
            f"(+{HEADROOM_S} s for the rest of the request) but the function times out after {timeout} s")
