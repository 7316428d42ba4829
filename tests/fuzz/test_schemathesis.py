"""Schemathesis over every operation of the committed contract (`openapi/openapi.json`), in process.

Each operation gets generated requests — valid and invalid bodies, query strings, headers and path
values (schemathesis' positive and negative modes) — sent through the Chalice test client to the real
app on moto (a custom call: no server, no socket), once with a player's token and once with the 司礼's
(the local stage's dev login `司礼` is the admin). Half of the path values are real ids (a room of
the operation's own game family, the player's 妃子, a board, a stage …) so requests reach the
services and not only the 404s. Every answer must pass:

* `not_a_server_error` — no 5xx (no fault is injected here: a 500 or a 503 is a bug);
* `status_code_conformance` — the status is documented for the operation;
* `content_type_conformance` and `response_headers_conformance` — the documented media type and
  headers (`Retry-After` on 429 / 503, `ETag` where documented);
* `response_schema_conformance` — the body validates against the documented schema.

The default run draws FUZZ_EXAMPLES (3) derandomized examples per operation, role and generation
mode, about 30 s on one core; `FUZZ_FULL=1` (or a run selecting `-m slow`) draws FUZZ_SLOW_EXAMPLES
(50) from a random seed. FUZZ_REPORT=file appends one JSON line per operation and role (requests,
statuses) for the figures in docs/reliability.md.
"""

from __future__ import annotations

import hashlib
import json
import os
import random
from collections import Counter
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import requests
import schemathesis
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_headers_conformance,
    response_schema_conformance,
    status_code_conformance,
)

SPEC = Path(__file__).resolve().parents[2] / "openapi" / "openapi.json"
FULL = os.environ.get("FUZZ_FULL") == "1"
EXAMPLES = int(os.environ.get("FUZZ_EXAMPLES", "3"))
SLOW_EXAMPLES = int(os.environ.get("FUZZ_SLOW_EXAMPLES", "50"))
CHECKS = [not_a_server_error, status_code_conformance, content_type_conformance, response_headers_conformance,
          response_schema_conformance]
TABLE = "fuzz"
FAMILIES = ("shengong", "baohuang", "zhenhuan")

schema = schemathesis.openapi.from_path(SPEC, config=schemathesis.Config.from_dict({
    "phases": {"coverage": {"enabled": False}, "stateful": {"enabled": False}},
    "generation": {"mode": "all"},
}))


def full_run(config: pytest.Config) -> bool:
    markexpr = config.getoption("markexpr", "") or ""
    return FULL or ("slow" in markexpr and "not slow" not in markexpr)


class Fuzzed:
    """The app on moto, two tokens, and real ids to put into paths."""

    def __init__(self, http: Any) -> None:
        self.http = http
        self.tokens = {"player": self._login("玩家"), "admin": self._login("司礼")}
        admin = self.tokens["admin"]
        consort = self._ok("POST", "/v1/admin/consorts", admin, {"name": "甄嬛", "looks": 80, "talent": 80,
                                                                  "favor": 80, "power": 80})
        self._ok("POST", f"/v1/consorts/{consort['id']}/claim", self.tokens["player"], {})
        player = self.tokens["player"]
        self.rooms = {
            "shengong": self._ok("POST", "/v1/rooms", player, {"game": "shengong_d", "options": {"stage": 1}}),
            "baohuang": self._ok("POST", "/v1/rooms", admin, {"game": "baohuang", "options": {}}),
            "zhenhuan": self._ok("POST", "/v1/rooms", admin, {"game": "zhenhuan", "options": {}}),
        }
        self.rooms = {family: body["room"]["id"] for family, body in self.rooms.items()}
        self.values = {"consort_id": [consort["id"]], "board": ["coop-free", "baohuang-free"],
                       "stage": ["1", "2"], "family": list(FAMILIES)}
        self.statuses: Counter[tuple[str, str, int]] = Counter()

    def _login(self, name: str) -> str:
        r = self.http.post("/v1/auth/dev", body=json.dumps({"name": name}),
                           headers={"Content-Type": "application/json"})
        assert r.status_code == 200, r.body
        return str(json.loads(r.body)["token"])

    def _ok(self, method: str, path: str, token: str, body: Any) -> Any:
        r = self.http.request(method, path, headers={"Authorization": token, "Content-Type": "application/json"},
                              body=json.dumps(body))
        assert r.status_code == 200, (path, r.body)
        return json.loads(r.body)

    def real_ids(self, case: schemathesis.Case) -> None:
        """Half of the cases (by a hash of the generated values) get real ids in their path."""
        params = case.path_parameters or {}
        if not params:
            return
        digest = hashlib.sha256(json.dumps([case.operation.label, params], sort_keys=True, default=str).encode())
        rng = random.Random(digest.digest())
        if rng.random() < 0.5:
            return
        for name in params:
            if name == "room_id":
                family = next((f for f in FAMILIES if case.path.startswith(f"/v1/games/{f}/")), None)
                params[name] = self.rooms[family] if family else rng.choice(list(self.rooms.values()))
            elif name in self.values:
                params[name] = rng.choice(self.values[name])

    def send(self, case: schemathesis.Case, role: str) -> schemathesis.Response:
        """The case as an HTTP request to the Chalice test client; its answer as schemathesis sees one."""
        self.real_ids(case)
        kwargs = case.as_transport_kwargs(base_url="http://localhost")
        kwargs.pop("timeout", None)
        kwargs.pop("allow_redirects", None)
        prepared = requests.Request(**{k: v for k, v in kwargs.items() if k in (
            "method", "url", "headers", "params", "json", "data", "files", "cookies")}).prepare()
        headers = {k: v for k, v in prepared.headers.items() if k.lower() != "authorization"}
        if case.operation.definition.raw.get("security") != []:
            headers["Authorization"] = self.tokens[role]
        body = prepared.body or b""
        r = self.http.request(prepared.method, prepared.path_url, headers=headers,
                              body=body.encode() if isinstance(body, str) else body)
        self.statuses[(case.operation.label, role, r.status_code)] += 1
        return schemathesis.Response(
            status_code=r.status_code, headers={k: [str(v)] for k, v in r.headers.items()},
            content=r.body or b"", request=prepared, elapsed=0.0, verify=True)


WECHAT = Path(__file__).resolve().parents[1] / "fixtures" / "wechat"


def wechat(url: str, timeout: float) -> Any:
    """WeChat's jscode2session as recorded: every generated code is an invalid one (40029)."""
    import io

    return io.BytesIO(json.loads((WECHAT / "invalid_code.json").read_text(encoding="utf-8"))["body"].encode())


@pytest.fixture(scope="module")
def fuzzed() -> Iterator[Fuzzed]:
    from chalice.test import Client
    from moto import mock_aws

    import app
    from chalicelib import wiring
    from chalicelib.config import load_settings
    from chalicelib.store.table import create_table
    from tests.conftest import dynamodb_client
    from tests.faults.harness import fast_moto

    with mock_aws(), fast_moto():
        raw = dynamodb_client()
        create_table(raw, TABLE)
        env = {"STAGE": "local", "TABLE_NAME": TABLE, "ADMIN_OPENIDS": "dev:司礼", "WECHAT_APPID": "wx-fuzz",
               "WECHAT_SECRET": "fuzz-secret", "WECHAT_BASE_URL": "http://wechat.invalid"}
        wiring.override(wiring.build(load_settings(env), client=raw, wechat_opener=wechat))
        try:
            with Client(app.app, stage_name="local") as client:
                f = Fuzzed(client.http)
                yield f
        finally:
            wiring.override(None)
    report = os.environ.get("FUZZ_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as out:
            out.writelines(json.dumps({"operation": label, "role": role, "status": status, "n": n},
                                      ensure_ascii=False) + "\n"
                           for (label, role, status), n in sorted(f.statuses.items()))


FAST = settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
                suppress_health_check=list(HealthCheck))
SLOW = settings(max_examples=SLOW_EXAMPLES, deadline=None, database=None, suppress_health_check=list(HealthCheck))


@pytest.mark.parametrize("role", ["player", "admin"])
@schema.parametrize()
@FAST
def test_every_operation_answers_as_documented(case, role, fuzzed, request):
    if full_run(request.config):
        pytest.skip("the full run draws more examples (test_every_operation_at_length)")
    case.validate_response(fuzzed.send(case, role), checks=CHECKS)


@pytest.mark.slow
@pytest.mark.parametrize("role", ["player", "admin"])
@schema.parametrize()
@SLOW
def test_every_operation_at_length(case, role, fuzzed, request):
    if not full_run(request.config):
        pytest.skip("FUZZ_FULL=1 (or -m slow) draws FUZZ_SLOW_EXAMPLES per operation")
    case.validate_response(fuzzed.send(case, role), checks=CHECKS)
