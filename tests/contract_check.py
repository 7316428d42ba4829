"""Check HTTP exchanges against the committed OpenAPI contract, where they happen.

Every API test talks through a client wrapped by `checked(...)`: each response must be documented
for its operation and status, and its JSON body must validate against the documented schema (with
the schema's game-specific copies: a 保皇 view must be a `BaohuangRoomViewOut`). A request body is
checked too when a test means it to be valid (2xx answers). Drift is caught in the test that made it.
"""

from __future__ import annotations

import json
import os
import re
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema_rs

from chalicelib.api.errors import gateway_answer

SPEC_PATH = Path(__file__).resolve().parents[1] / "openapi" / "openapi.json"
RECORDING = bool(os.environ.get("RECORD_EXAMPLES"))


class ContractViolation(AssertionError):
    pass


@cache
def spec() -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads(SPEC_PATH.read_text(encoding="utf-8"))
    return loaded


@cache
def _validator(pointer: str) -> jsonschema_rs.Draft202012Validator:
    # the compiled (Rust) validator: every API test exchange is checked, so this is on the suite's hot
    # path (the pure-Python validator took half the time of a whole-game test)
    root = {"$schema": "https://json-schema.org/draft/2020-12/schema", "$ref": f"#{pointer}",
            "components": spec()["components"]}
    return jsonschema_rs.Draft202012Validator(root)


@cache
def _operations() -> list[tuple[str, re.Pattern[str], str]]:
    ops = []
    for template, methods in spec()["paths"].items():
        pattern = re.compile("^" + re.sub(r"\\{\w+\\}", "[^/]+", re.escape(template)) + "$")
        for method in methods:
            ops.append((method.upper(), pattern, template))
    # literal paths before templated ones (/v1/boards/x/me is not /v1/boards/{board})
    return sorted(ops, key=lambda o: o[2].count("{"))


def operation(method: str, path: str) -> tuple[str, dict[str, Any]] | None:
    bare = path.split("?", 1)[0]
    for m, pattern, template in _operations():
        if m == method.upper() and pattern.match(bare):
            return template, spec()["paths"][template][method.lower()]
    return None


def _errors(validator: jsonschema_rs.Draft202012Validator, value: Any) -> list[str]:
    if validator.is_valid(value):
        return []
    found = sorted(validator.iter_errors(value), key=lambda e: [str(p) for p in e.instance_path])
    return [f"{'/'.join(map(str, e.instance_path)) or '(root)'}: {e.message[:300]}" for e in found[:5]]


def check(method: str, path: str, status: int, body: bytes | str | None, request_body: Any = None) -> None:
    """Raise ContractViolation when this exchange is not what the contract documents."""
    found = operation(method, path)
    if found is None:
        if status in (403, 404, 405):  # an unknown path answers in the error shape; checked below
            _check_schema("/components/schemas/ErrorOut", body, method, path, status)
            return
        raise ContractViolation(f"{method} {path} is not in the contract (answered {status})")
    template, op = found
    responses = op["responses"]
    if str(status) not in responses:
        raise ContractViolation(f"{method} {template} answered {status}, documented: {sorted(responses)}")
    if status == 304:
        if body:
            raise ContractViolation(f"{method} {template}: a 304 carries no body")
        return
    schema = responses[str(status)].get("content", {}).get("application/json", {}).get("schema", {})
    if "$ref" in schema:
        _check_schema(schema["$ref"].removeprefix("#"), body, method, template, status)
    if request_body is not None and 200 <= status < 300 and "requestBody" in op:
        body_schema = op["requestBody"]["content"]["application/json"]["schema"]
        problems = _errors(_validator(body_schema["$ref"].removeprefix("#")), request_body)
        if problems:
            raise ContractViolation(f"{method} {template}: an accepted request body breaks the contract: {problems}")


def _check_schema(pointer: str, body: bytes | str | None, method: str, where: str, status: int) -> None:
    try:
        value = json.loads(body or b"null")
    except ValueError as e:
        raise ContractViolation(f"{method} {where} {status}: body is not JSON") from e
    problems = _errors(_validator(pointer), value)
    if problems:
        raise ContractViolation(f"{method} {where} {status} breaks {pointer.rsplit('/', 1)[-1]}: {problems}")


RECORDED: dict[str, dict[str, Any]] = {}
"""With RECORD_EXAMPLES set: the first successful exchange of each operation (infra/record_examples.py)."""


NOT_RECORDED = frozenset({"openapi_json"})
"""The spec itself would be its own (very large) example."""


def record(method: str, path: str, status: int, body: bytes | str | None, request_body: Any) -> None:
    found = operation(method, path)
    if found is None or not 200 <= status < 300 or not body:
        return
    op_id = found[1]["operationId"]
    if op_id in RECORDED or op_id in NOT_RECORDED:
        return
    try:
        response = json.loads(body)
    except ValueError:
        return
    RECORDED[op_id] = {"request": request_body, "response": response}


class CheckedHTTP:
    """Wraps a Chalice test client's `http`: the same calls, every exchange checked."""

    def __init__(self, http: Any) -> None:
        self._http = http

    def request(self, method: str, path: str, headers: dict[str, str] | None = None, body: Any = b"") -> Any:
        response = self._http.request(method, path, headers=headers or {}, body=body)
        # the Chalice test client plays API Gateway: its own refusals get the Gateway Responses'
        # shape, as on a deployed stage and on the local server (chalicelib.api.errors.gateway_answer)
        answer = gateway_answer(response.status_code, response.body)
        if answer is not None:
            response.status_code, response.body = answer
            response.headers = {**response.headers, "Content-Type": "application/json; charset=utf-8"}
        try:
            sent = json.loads(body) if body else None
        except (ValueError, TypeError):
            sent = None
        check(method, path, response.status_code, response.body, sent)
        if RECORDING:
            record(method, path, response.status_code, response.body, sent)
        return response

    def get(self, path: str, **kw: Any) -> Any:
        return self.request("GET", path, **kw)

    def post(self, path: str, **kw: Any) -> Any:
        return self.request("POST", path, **kw)

    def put(self, path: str, **kw: Any) -> Any:
        return self.request("PUT", path, **kw)

    def delete(self, path: str, **kw: Any) -> Any:
        return self.request("DELETE", path, **kw)

    def patch(self, path: str, **kw: Any) -> Any:
        return self.request("PATCH", path, **kw)

    def head(self, path: str, **kw: Any) -> Any:
        return self.request("HEAD", path, **kw)

    def options(self, path: str, **kw: Any) -> Any:
        return self.request("OPTIONS", path, **kw)
