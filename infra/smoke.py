"""A smoke test of a running API: health (with the table and the secrets it needs), a refused request
without a token, the contract, and (in any deployed stage) no development login.

    .venv/bin/python -m infra.smoke https://….execute-api.….amazonaws.com/v/ [--stage dev]

Used by the deploy and the rollback; each failed check is one line.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
import urllib.error
import urllib.request
from typing import Any

from infra.awsutil import Refused, run, say


def _call(url: str, method: str = "GET", body: dict[str, Any] | None = None,
          timeout_s: float = 10) -> tuple[int, Any]:
    data = json.dumps(body).encode() if body is not None else None
    request = urllib.request.Request(url, data=data, method=method,
                                     headers={"Content-Type": "application/json"} if data else {})
    try:
        with urllib.request.urlopen(request, timeout=timeout_s) as response:
            status, raw = response.status, response.read()
    except urllib.error.HTTPError as e:
        status, raw = e.code, e.read()
    try:
        return status, json.loads(raw or b"null")
    except ValueError:
        return status, raw.decode(errors="replace")[:200]


def smoke(base_url: str, stage: str | None = None, attempts: int = 10, wait_s: float = 3) -> list[str]:
    """Run the checks; the lines that passed. `stage`: what /v1/health must report (None: any)."""
    base = base_url.rstrip("/")
    passed: list[str] = []
    status: int = 0
    health: Any = None
    for attempt in range(attempts):  # a fresh deployment may take a few seconds to answer
        try:
            status, health = _call(f"{base}/v1/health")
        except (urllib.error.URLError, OSError) as e:
            status, health = 0, str(e)
        if status == 200:
            break
        if attempt + 1 < attempts:
            time.sleep(wait_s)
    if status != 200 or not isinstance(health, dict) or health.get("ok") is not True:
        raise Refused(f"smoke test: GET /v1/health answered {status} {health!r:.120}")
    if stage is not None and health.get("stage") != stage:
        raise Refused(f"smoke test: /v1/health reports stage {health.get('stage')!r}, expected {stage!r}")
    passed.append(f"GET /v1/health: ok (stage {health.get('stage')})")

    status, deep = _call(f"{base}/v1/health?deep=true")
    checks = deep.get("checks") if isinstance(deep, dict) else None
    if status != 200 or not isinstance(checks, dict) or deep.get("ok") is not True:
        failing = ", ".join(k for k, v in (checks or {}).items() if v != "ok") or f"answered {status}"
        raise Refused(f"smoke test: GET /v1/health?deep=true: {failing} unavailable (ops.sh logs shows why)")
    passed.append(f"GET /v1/health?deep=true: {', '.join(checks)} ok")

    deployed = health.get("stage") != "local"
    status, body = _call(f"{base}/v1/me")
    if status != 401:
        raise Refused(f"smoke test: GET /v1/me without a token answered {status} {body!r:.120}, expected 401")
    if deployed:  # the gateway's own refusal, in the API's error shape (a Gateway Response)
        if not isinstance(body, dict) or body.get("code") != "UNAUTHENTICATED" or not body.get("message"):
            raise Refused(f"smoke test: GET /v1/me without a token answered {body!r:.120}, expected the API's "
                          "error shape {code: UNAUTHENTICATED, message}")
        passed.append("GET /v1/me without a token: 401 UNAUTHENTICATED")
    else:
        passed.append("GET /v1/me without a token: 401 (local server: no API Gateway error shape to check)")

    status, spec = _call(f"{base}/openapi.json")
    if status != 200 or not isinstance(spec, dict) or not str(spec.get("openapi", "")).startswith("3."):
        raise Refused(f"smoke test: GET /openapi.json answered {status}, not an OpenAPI 3 document")
    passed.append(f"GET /openapi.json: OpenAPI {spec['openapi']}, {len(spec.get('paths', {}))} paths")

    if deployed:
        status, body = _call(f"{base}/v1/auth/dev", "POST", {"name": "smoke"})
        if status != 404:
            raise Refused(f"smoke test: the development login answered {status} in stage {health.get('stage')}")
        passed.append("POST /v1/auth/dev: 404 (no development login)")
    return passed


def main(argv: list[str]) -> int:
    parser = argparse.ArgumentParser(prog="infra.smoke")
    parser.add_argument("url")
    parser.add_argument("--stage")
    args = parser.parse_args(argv)
    for line in smoke(args.url, args.stage):
        say(f"  {line}")
    return 0


if __name__ == "__main__":
    sys.exit(run(main, name="smoke"))
