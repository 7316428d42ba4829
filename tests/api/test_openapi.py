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


def test_every_family_has_its_own_typed_action_route():
    """Contract v2: one action route per game family, its body typed by that family's action union
    (a 血染 action cannot be sent to a 宫斗杀 room's route: the schemas do not overlap)."""
    spec = json.loads(COMMITTED.read_text(encoding="utf-8"))
    schemas = spec["components"]["schemas"]
    from chalicelib.games import families

    for family in families():
        op = spec["paths"][f"/v1/games/{family}/rooms/{{room_id}}/actions"]["post"]
        body = op["requestBody"]["content"]["application/json"]["schema"]["$ref"].split("/")[-1]
        title = family.capitalize()
        assert body == f"{title}ActBody"
        action = schemas[body]["properties"]["action"]
        assert action["$ref"] == f"#/components/schemas/{title}Action", action
        mapping = schemas[f"{title}Action"]["discriminator"]["mapping"]
        assert mapping and all(ref.split("/")[-1].startswith(title) for ref in mapping.values())


def test_openapi_json_is_served(api):
    r = api.http.get("/openapi.json")
    assert r.status_code == 200
    assert r.json_body == json.loads(COMMITTED.read_text(encoding="utf-8"))


def test_every_operation_has_a_recorded_example_that_fits_its_schema():
    """Issue #9: examples recorded from real games (`python -m infra.record_examples`), one per
    operation, each still valid against the schema it illustrates (a changed model breaks this)."""
    from tests.contract_check import _errors, _validator

    spec = json.loads(COMMITTED.read_text(encoding="utf-8"))
    missing, broken = [], []
    for path, methods in spec["paths"].items():
        for method, op in methods.items():
            ok = op["responses"].get("200", {}).get("content", {}).get("application/json")
            if ok is None or op["operationId"] == "openapi_json":  # the spec is not its own example
                continue
            if "examples" not in ok:
                missing.append(op["operationId"])
                continue
            pairs = [(ok["schema"], ex["value"]) for ex in ok["examples"].values()]
            body = op.get("requestBody", {}).get("content", {}).get("application/json")
            if body is not None and "examples" in body:
                pairs += [(body["schema"], ex["value"]) for ex in body["examples"].values()]
            for schema, value in pairs:
                if "$ref" in schema and (problems := _errors(_validator(schema["$ref"][1:]), value)):
                    broken.append((method, path, problems))
    assert not missing, missing
    assert not broken, broken
