"""Generate the OpenAPI 3.1 contract from the pydantic models and the app's routes (never by hand).

    .venv/bin/python -m infra.openapi_gen          # rewrite openapi/openapi.json and the served copy

Each route's body, query, response, auth and error statuses come from its `@route` declaration;
the schemas from pydantic. Game-specific parts (a game's options, actions and views) are attached
as `oneOf` of every registered game's own schemas, under names prefixed with the game key.
"""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

from pydantic import BaseModel
from pydantic.json_schema import models_json_schema

ROOT = Path(__file__).resolve().parent.parent
SPEC_FILES = (ROOT / "openapi" / "openapi.json", ROOT / "chalicelib" / "openapi.json")
REF = "#/components/schemas/{model}"

STATUS_TEXT = {
    200: "成功", 304: "未变化（If-None-Match 命中）", 400: "请求格式有误", 401: "未登录或登录已过期",
    403: "无权操作", 404: "不存在", 409: "与当前状态冲突", 422: "内容不符合要求或违反规则",
    429: "太频繁", 503: "上游服务（微信）不可用",
}


def _prefixed(schema: dict[str, Any], prefix: str) -> tuple[dict[str, Any], dict[str, Any]]:
    """Move a schema's $defs into components under `prefix__Name`, rewriting its refs."""
    defs = schema.pop("$defs", {})
    text = json.dumps(schema)
    defs_text = json.dumps(defs)
    for name in defs:
        for_old = f'"#/components/schemas/{name}"'
        new = f'"#/components/schemas/{prefix}__{name}"'
        text = text.replace(for_old, new)
        defs_text = defs_text.replace(for_old, new)
    return json.loads(text), {f"{prefix}__{k}": v for k, v in json.loads(defs_text).items()}


def _game_schemas(components: dict[str, Any]) -> dict[str, list[dict[str, str]]]:
    from pydantic import TypeAdapter

    from chalicelib.games import game_keys, get_game

    refs: dict[str, list[dict[str, str]]] = {"options": [], "action": [], "view": []}
    for key in game_keys():
        game = get_game(key)
        parts = {
            "options": TypeAdapter(game.options_model).json_schema(ref_template=REF),
            "action": game.action_adapter.json_schema(ref_template=REF),
            "view": TypeAdapter(game.view_model).json_schema(ref_template=REF, mode="serialization"),
        }
        for part, schema in parts.items():
            body, defs = _prefixed(schema, key)
            components.update(defs)
            name = f"{key}__{part.capitalize()}"
            components[name] = {**body, "title": f"{game.title} {part}"}
            refs[part].append({"$ref": f"#/components/schemas/{name}"})
    return refs


def _query_parameters(model: type[BaseModel]) -> list[dict[str, Any]]:
    schema = model.model_json_schema()
    required = set(schema.get("required", []))
    return [{"name": name, "in": "query", "required": name in required, "schema": prop}
            for name, prop in schema["properties"].items()]


def generate() -> dict[str, Any]:
    import app  # noqa: F401 - registers every route
    from chalicelib.api.routing import ROUTES
    from chalicelib.api.schemas import ErrorOut

    models: set[type[BaseModel]] = {ErrorOut}
    for r in ROUTES:
        models.update(m for m in (r.body, r.response) if m is not None)
    ordered = sorted(models, key=lambda m: m.__name__)
    _, top = models_json_schema(
        [(m, "validation" if any(r.body is m for r in ROUTES) else "serialization") for m in ordered],
        ref_template=REF,
    )
    components: dict[str, Any] = dict(top.get("$defs", {}))
    games = _game_schemas(components)
    components["RoomCreate"]["properties"]["options"] = {
        "description": components["RoomCreate"]["properties"]["options"].get("description", ""),
        "anyOf": games["options"]}
    components["ActBody"]["properties"]["action"] = {
        "description": components["ActBody"]["properties"]["action"].get("description", ""),
        "oneOf": games["action"]}
    components["RoomViewOut"]["properties"]["game"] = {
        "description": components["RoomViewOut"]["properties"]["game"].get("description", ""),
        "anyOf": [*games["view"], {"type": "null"}]}

    paths: dict[str, Any] = {}
    for r in sorted(ROUTES, key=lambda r: (r.path, r.method)):
        op: dict[str, Any] = {
            "operationId": r.name, "summary": r.summary, "tags": [r.tag],
            "security": [{"token": []}] if r.auth else [],
        }
        if r.description:
            op["description"] = r.description
        params = [{"name": p, "in": "path", "required": True, "schema": {"type": "string"}}
                  for p in re.findall(r"{(\w+)}", r.path)]
        if r.query is not None:
            params += _query_parameters(r.query)
        if r.etag:
            params.append({"name": "If-None-Match", "in": "header", "required": False,
                           "schema": {"type": "string"}, "description": "上次响应的 ETag"})
        params += [{"name": h, "in": "header", "required": False, "schema": {"type": "string"}} for h in r.headers]
        if params:
            op["parameters"] = params
        if r.body is not None:
            op["requestBody"] = {"required": True, "content": {"application/json": {
                "schema": {"$ref": REF.format(model=r.body.__name__)}}}}
        ok: dict[str, Any] = {"description": STATUS_TEXT[200]}
        if r.response is not None:
            ok["content"] = {"application/json": {"schema": {"$ref": REF.format(model=r.response.__name__)}}}
        else:
            ok["content"] = {"application/json": {"schema": {"type": "object"}}}
        if r.etag:
            ok["headers"] = {"ETag": {"schema": {"type": "string"}}}
        responses: dict[str, Any] = {"200": ok}
        if r.etag:
            responses["304"] = {"description": STATUS_TEXT[304]}
        for status in sorted(set(r.errors) | ({401} if r.auth else set())):
            responses[str(status)] = {"description": STATUS_TEXT[status], "content": {"application/json": {
                "schema": {"$ref": REF.format(model="ErrorOut")}}}}
        op["responses"] = responses
        paths.setdefault(r.path, {})[r.method.lower()] = op

    return {
        "openapi": "3.1.0",
        "info": {
            "title": "深宫 API",
            "version": "1.0.0",
            "description": "深宫杀、保皇、血染甄嬛传的后端。错误一律为 ErrorOut：code 为稳定的英文代码，message 为中文提示。",
        },
        "servers": [{"url": "/"}],
        "paths": paths,
        "components": {
            "schemas": dict(sorted(components.items())),
            "securitySchemes": {"token": {"type": "apiKey", "in": "header", "name": "Authorization",
                                          "description": "登录接口返回的 token"}},
        },
    }


def render() -> str:
    return json.dumps(generate(), ensure_ascii=False, indent=1, sort_keys=False) + "\n"


def main() -> int:
    text = render()
    for path in SPEC_FILES:
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
        print(f"wrote {path.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
