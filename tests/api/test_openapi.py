"""The OpenAPI contract is generated, committed, valid, complete, and served."""

from __future__ import annotations

import json
from pathlib import Path

from openapi_spec_validator import validate

import app
from infra import openapi_gen

ROOT = Path(__file__).resolve().parents[2]
COMMITTED = ROOT / "openapi" / "openapi.json"


def test_committed_spec_is_what_the_code_generates():
    generated = openapi_gen.render()
    assert COMMITTED.read_text(encoding="utf-8") == generated, "run: .venv/bin/python -m infra.openapi_gen"
    assert (ROOT / "chalicelib" / "openapi.json").read_text(encoding="utf-8") == generated


def test_spec_is_valid_openapi_3_1():
    spec = json.loads(COMMITTED.read_text(encoding="utf-8"))
    assert spec["openapi"] == "3.1.0"
    validate(spec)


def test_every_route_is_documented_with_auth_and_errors():
    spec = json.loads(COMMITTED.read_text(encoding="utf-8"))
    routes = {(path, method.lower()) for path, methods in app.app.routes.items() for method in methods}
    documented = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    assert routes == documented
    for path, ops in spec["paths"].items():
        for method, op in ops.items():
            entry = app.app.routes[path][method.upper()]
            assert bool(op["security"]) == (entry.authorizer is not None), (path, method)
            if op["security"]:
                assert "401" in op["responses"]
            for status, response in op["responses"].items():
                if int(status) >= 400:
                    assert response["content"]["application/json"]["schema"]["$ref"].endswith("/ErrorOut")
            if method == "post" and "requestBody" not in op:
                assert path.endswith(("/leave", "/start", "/claim")), path


def test_game_specific_parts_list_every_game():
    spec = json.loads(COMMITTED.read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    actions = schemas["ActBody"]["properties"]["action"]["oneOf"]
    from chalicelib.games import game_keys

    assert {a["$ref"].split("/")[-1] for a in actions} == {f"{k}__Action" for k in game_keys()}


def test_openapi_json_is_served(api):
    r = api.http.get("/openapi.json")
    assert r.status_code == 200
    assert r.json_body == json.loads(COMMITTED.read_text(encoding="utf-8"))
