"""Generate the OpenAPI 3.1 contract from the pydantic models and the app's routes (never by hand).

    .venv/bin/python -m infra.openapi_gen          # rewrite openapi/openapi.json and the served copy

Each route's body, query, response, auth and error statuses come from its `@route` declaration; the
schemas from pydantic. Game-specific fields are marked in `chalicelib/api/schemas.py` with an
"x-slot" (`action`, `view`, `report_lines`, `options`, …). Routes of one game family (/v1/games/
{family}/…) get their own copies of the models that hold slots, named after the family (e.g.
`ShengongRoomViewOut`), with each slot replaced by that family's schema; generic routes get the
generic reading (an enum of every game key, the discriminated union of every game's options…).
A client generated from the contract therefore types each game exactly, and a move typed for one
game does not fit another game's path. Examples come from `openapi/examples.json` (recorded from
real games by `python -m infra.record_examples`).
"""

from __future__ import annotations

import copy
import json
import re
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pydantic import BaseModel, TypeAdapter
from pydantic.json_schema import models_json_schema

ROOT = Path(__file__).resolve().parent.parent
SPEC_FILES = (ROOT / "openapi" / "openapi.json", ROOT / "chalicelib" / "openapi.json")
EXAMPLES = ROOT / "openapi" / "examples.json"
REF = "#/components/schemas/{model}"

STATUS_TEXT = {
    200: "成功", 304: "未变化（If-None-Match 命中）", 400: "请求格式有误", 401: "未登录或登录已过期",
    403: "无权操作", 404: "不存在", 405: "不支持这种请求方法", 409: "与当前状态冲突", 413: "请求内容过大",
    415: "请用 JSON 提交", 422: "内容不符合要求或违反规则", 429: "太频繁或服务繁忙：按 Retry-After 秒后重试",
    500: "服务器错误", 503: "服务暂时不可用（存储或微信）：按 Retry-After 秒后重试，重试是安全的",
}
RETRY_AFTER = {"Retry-After": {"description": "建议多少秒后重试", "schema": {"type": "integer", "minimum": 0}}}


def ref(name: str) -> dict[str, str]:
    return {"$ref": REF.format(model=name)}


def camel(key: str) -> str:
    """shengong_d -> ShengongD."""
    return "".join(part[:1].upper() + part[1:] for part in re.split(r"[_\-]", key))


# -- the games' own schemas -----------------------------------------------------------------------

def _absorb(schema: dict[str, Any], prefix: str, components: dict[str, Any]) -> dict[str, Any]:
    """Move a schema's $defs into components under names prefixed with `prefix`, rewriting its refs."""
    defs = schema.pop("$defs", {})
    rename = {name: name if name.startswith(prefix) else f"{prefix}{name}" for name in defs}
    text = json.dumps(schema)
    defs_text = json.dumps(defs)
    for old, new in rename.items():
        text = text.replace(f'"{REF.format(model=old)}"', f'"{REF.format(model=new)}"')
        defs_text = defs_text.replace(f'"{REF.format(model=old)}"', f'"{REF.format(model=new)}"')
    for old, body in json.loads(defs_text).items():
        components[rename[old]] = body
    return json.loads(text)


def _named(schema: dict[str, Any], name: str, components: dict[str, Any], title: str) -> dict[str, str]:
    """Put `schema` into components as `name` (a bare $ref stays a ref) and return a ref to it."""
    if set(schema) == {"$ref"}:
        return schema
    components[name] = {**schema, "title": title}
    return ref(name)


def _one(refs: list[dict[str, Any]]) -> dict[str, Any]:
    unique = [json.loads(r) for r in dict.fromkeys(json.dumps(x, sort_keys=True) for x in refs)]
    return unique[0] if len(unique) == 1 else {"oneOf": unique}


def _any(refs: list[dict[str, Any]]) -> dict[str, Any]:
    """Several shapes a value may take where more than one can fit (options of sibling games)."""
    one = _one(refs)
    return {"anyOf": one["oneOf"]} if "oneOf" in one else one


def _family_slots(family: str, keys: tuple[str, ...], components: dict[str, Any]) -> dict[str, dict[str, Any]]:
    from chalicelib.games import get_game

    prefix = camel(family)
    games = [get_game(k) for k in keys]
    actions, views, lines, extras = [], [], [], []
    for game in games:
        actions.append(_named(_absorb(game.action_adapter.json_schema(ref_template=REF), prefix, components),
                              f"{prefix}Action", components, f"{game.title} 行动"))
        views.append(_named(_absorb(TypeAdapter(game.view_model).json_schema(ref_template=REF, mode="serialization"),
                                    prefix, components), f"{prefix}View", components, f"{game.title} 局面"))
        lines.append(_named(_absorb(TypeAdapter(game.report_line_model).json_schema(
            ref_template=REF, mode="serialization"), prefix, components), f"{prefix}ReportLine", components,
            f"{game.title} 战报行"))
        extra = game.outcome_extra_model
        extras.append(_named(_absorb(TypeAdapter(extra).json_schema(ref_template=REF, mode="serialization"),
                                     prefix, components), f"{prefix}OutcomeExtra", components, f"{game.title} 终局细节")
                      if extra is not None else {"type": "object", "maxProperties": 0})
    action = _one(actions)
    admit = [g for g in games if g.admit_model is not None]
    log_action = action
    if admit:  # a late joiner's log entry (kind admit) holds who was seated and with what
        name = f"{prefix}AdmitEntry"
        components[name] = {
            "type": "object", "title": name, "additionalProperties": False, "required": ["entrant", "details"],
            "description": "中途入座：入座者（席位、名字）与说书人给的设置",
            "properties": {
                "entrant": {"type": "object", "required": ["seat", "name"], "additionalProperties": False,
                            "properties": {"seat": {"type": "integer", "minimum": 0}, "name": {"type": "string"},
                                           "persona": {"type": "null"}}},
                "details": _one([_admit_ref(g, prefix, components) for g in admit]),
            },
        }
        log_action = {"anyOf": [action, ref(name)]}
    from chalicelib.api.catalogue import catalogue

    return {
        "error_code": {"type": "string", "enum": list(catalogue())},
        "game_key": {"type": "string", "enum": list(keys)},
        "family": {"type": "string", "const": family},
        "options": _any([_options_ref(g.key, components) for g in games]),
        "action": action,
        "action_map": {"type": "object", "additionalProperties": action},
        "log_action": log_action,
        "view": _one(views),
        "report_lines": {"type": "array", "items": _one(lines)},
        "outcome_extra": _one(extras),
        "admit_details": _one([_admit_ref(g, prefix, components) for g in games]),
        "catalogue": _one([_named(_absorb(TypeAdapter(g.catalogue_model).json_schema(ref_template=REF,
                                                                                     mode="serialization"),
                                          prefix, components), f"{prefix}Catalogue", components, f"{g.title} 图鉴")
                           if g.catalogue_model is not None else {"type": "object", "maxProperties": 0}
                           for g in games]),
    }


def _admit_ref(game: Any, prefix: str, components: dict[str, Any]) -> dict[str, Any]:
    if game.admit_model is None:
        return {"type": "object", "maxProperties": 0}
    schema = _absorb(TypeAdapter(game.admit_model).json_schema(ref_template=REF), prefix, components)
    return _named(schema, f"{prefix}AdmitDetails", components, f"{game.title} 中途入座设置")


def _options_ref(key: str, components: dict[str, Any]) -> dict[str, str]:
    """The game's options model, named after the model (games of a family that share one share it)."""
    from chalicelib.games import get_game

    game = get_game(key)
    prefix = camel(game.family)
    model_name = game.options_model.__name__
    name = model_name if model_name.startswith(prefix) else f"{prefix}{model_name}"
    if name not in components:
        schema = _absorb(TypeAdapter(game.options_model).json_schema(ref_template=REF), prefix, components)
        components[name] = {**schema, "title": name}
    return ref(name)


def _generic_slots(components: dict[str, Any]) -> dict[str, dict[str, Any]]:
    from chalicelib.api.catalogue import catalogue
    from chalicelib.games import families, game_keys
    from chalicelib.records.policy import boards

    return {
        "error_code": {"type": "string", "enum": list(catalogue())},
        "game_key": {"type": "string", "enum": list(game_keys())},
        "family": {"type": "string", "enum": list(families())},
        "board": {"type": "string", "enum": list(boards())},
        "options": {"type": "object", "description": "该玩法的开房设置（各玩法的结构见 <Game>Options）"},
        "action": {"type": "object", "description": "该玩法的行动（各玩法的结构见 /v1/games/{family}/…）"},
        "action_map": {"type": "object", "additionalProperties": {"type": "object"}},
        "log_action": {"type": "object"},
        "view": {"type": "object"},
        "report_lines": {"type": "array", "items": {"type": "object"}},
        "outcome_extra": {"type": "object"},
        "admit_details": {"type": "object"},
        "catalogue": {"type": "object"},
    }


# -- filling the slots ----------------------------------------------------------------------------

def _fill(prop: dict[str, Any], slot: dict[str, Any]) -> dict[str, Any]:
    """A slot property with its schema replaced, keeping its description and whether it may be null."""
    nullable = any(alt.get("type") == "null" for alt in prop.get("anyOf", []))
    out: dict[str, Any] = {"anyOf": [slot, {"type": "null"}]} if nullable else dict(slot)
    for keep in ("description", "default", "title"):
        if keep in prop:
            out[keep] = prop[keep]
    return out


def _refs(schema: Any) -> set[str]:
    text = json.dumps(schema)
    return set(re.findall(r'"#/components/schemas/([^"]+)"', text))


def _has_slots(name: str, generic: dict[str, Any], seen: set[str] | None = None) -> bool:
    seen = seen or set()
    if name in seen or name not in generic:
        return False
    seen.add(name)
    schema = generic[name]
    if any("x-slot" in p for p in schema.get("properties", {}).values()):
        return True
    return any(_has_slots(r, generic, seen) for r in _refs(schema))


def _specialise(name: str, prefix: str, slots: dict[str, dict[str, Any]], generic: dict[str, Any],
                out: dict[str, Any]) -> str:
    """The copy of component `name` for a family (`prefix`), slots filled; returns its name."""
    if not _has_slots(name, generic):
        return name
    new_name = f"{prefix}{name}"
    if new_name in out:
        return new_name
    out[new_name] = {}  # reserve (cycles)
    schema = copy.deepcopy(generic[name])
    for field, prop in schema.get("properties", {}).items():
        slot = prop.pop("x-slot", None)
        if slot is not None:
            schema["properties"][field] = _fill(prop, slots[slot])
    text = json.dumps(schema)
    for r in _refs(schema):
        target = _specialise(r, prefix, slots, generic, out)
        text = text.replace(f'"{REF.format(model=r)}"', f'"{REF.format(model=target)}"')
    out[new_name] = {**json.loads(text), "title": new_name}
    return new_name


def _room_create(components: dict[str, Any]) -> dict[str, Any]:
    """POST /v1/rooms: one variant per game, discriminated by `game`, each with its own options."""
    from chalicelib.games import game_keys

    base = components["RoomCreate"]
    variants, mapping = [], {}
    for key in game_keys():
        name = f"{camel(key)}RoomCreate"
        props = copy.deepcopy(base["properties"])
        props["game"] = {"type": "string", "const": key, "description": props["game"].get("description", "")}
        props["options"] = {**_options_ref(key, components), "description": props["options"].get("description", "")}
        components[name] = {"type": "object", "title": name, "properties": props, "required": ["game"],
                            "additionalProperties": False}
        variants.append(ref(name))
        mapping[key] = REF.format(model=name)
    return {"oneOf": variants, "discriminator": {"propertyName": "game", "mapping": mapping},
            "title": "RoomCreate", "description": base.get("description", "")}


# -- operations -----------------------------------------------------------------------------------

def _query_parameters(model: type[BaseModel], fill: Callable[[dict[str, Any]], dict[str, Any]]) -> list[dict[str, Any]]:
    schema = model.model_json_schema()
    required = set(schema.get("required", []))
    defs = schema.get("$defs", {})
    params = []
    for name, prop in schema["properties"].items():
        if "$ref" in prop:  # an enum: a parameter's schema is inlined (the query model's $defs go nowhere)
            prop = {**defs[prop.pop("$ref").rsplit("/", 1)[1]], **prop}
        slot = prop.pop("x-slot", None)
        params.append({"name": name, "in": "query", "required": name in required,
                       "schema": fill({"slot": slot, "prop": prop}) if slot else prop,
                       **({"description": prop["description"]} if "description" in prop else {})})
    return params


def _operation(r: Any, body_name: str | None, response_name: str | None, query_params: list[dict[str, Any]],
               examples: dict[str, Any]) -> dict[str, Any]:
    op: dict[str, Any] = {"operationId": r.name, "summary": r.summary, "tags": [r.tag],
                          "security": [{"token": []}] if r.auth else []}
    if r.description:
        op["description"] = r.description
    params = [{"name": p, "in": "path", "required": True, "schema": {"type": "string", "maxLength": 64}}
              for p in re.findall(r"{(\w+)}", r.path)]
    params += query_params
    if r.etag:
        params.append({"name": "If-None-Match", "in": "header", "required": False, "schema": {"type": "string"},
                       "description": "上次响应的 ETag：没有变化时回 304，不带正文"})
    params += [{"name": h, "in": "header", "required": False, "schema": {"type": "string", "maxLength": 128},
                "description": "同一个值重发同一请求是安全的（返回第一次的结果）"} for h in r.headers]
    if params:
        op["parameters"] = params
    mine = examples.get(r.name, {})
    if body_name is not None:
        content: dict[str, Any] = {"schema": ref(body_name)}
        if mine.get("request"):
            content["examples"] = mine["request"]
        op["requestBody"] = {"required": True, "content": {"application/json": content}}
    ok_content: dict[str, Any] = {"schema": ref(response_name) if response_name else {"type": "object"}}
    if mine.get("response"):
        ok_content["examples"] = mine["response"]
    ok: dict[str, Any] = {"description": STATUS_TEXT[200], "content": {"application/json": ok_content}}
    if r.etag:
        ok["headers"] = {"ETag": {"schema": {"type": "string"}, "description": "带上它作 If-None-Match 轮询"}}
    responses: dict[str, Any] = {"200": ok}
    if r.etag:
        responses["304"] = {"description": STATUS_TEXT[304], "headers": ok["headers"]}
    statuses = set(r.errors) | {429, 503} | ({401} if r.auth else set()) | ({400, 413, 415} if r.body else set())
    for status in sorted(statuses):
        error: dict[str, Any] = {"description": STATUS_TEXT[status],
                                 "content": {"application/json": {"schema": ref("ErrorOut")}}}
        if status in (429, 503):
            error["headers"] = RETRY_AFTER
        responses[str(status)] = error
    op["responses"] = responses
    return op


def _prune(components: dict[str, Any], paths: dict[str, Any]) -> None:
    """Drop components no operation reaches (e.g. the generic copy of a model only families use)."""
    reached: set[str] = set()
    todo = _refs(paths) | {"ErrorOut"}
    while todo:
        name = todo.pop()
        if name in reached or name not in components:
            continue
        reached.add(name)
        todo |= _refs(components[name])
    for name in set(components) - reached:
        del components[name]


def generate() -> dict[str, Any]:
    import app  # noqa: F401 - registers every route
    from chalicelib.api.routing import ROUTES
    from chalicelib.api.schemas import ErrorOut
    from chalicelib.games import families

    models: set[type[BaseModel]] = {ErrorOut}
    for r in ROUTES:
        models.update(m for m in (r.body, r.response) if m is not None)
    ordered = sorted(models, key=lambda m: m.__name__)
    bodies = {r.body for r in ROUTES if r.body is not None}
    _, top = models_json_schema([(m, "validation" if m in bodies else "serialization") for m in ordered],
                                ref_template=REF)
    generic: dict[str, Any] = dict(top.get("$defs", {}))
    components: dict[str, Any] = {}
    family_slots = {f: _family_slots(f, keys, components) for f, keys in families().items()}
    global_slots = _generic_slots(components)
    specialised: dict[str, Any] = {}
    for f, slots in family_slots.items():
        for name in generic:
            if any(r.family == f and name in {getattr(r.body, "__name__", ""), getattr(r.response, "__name__", "")}
                   for r in ROUTES):
                _specialise(name, camel(f), slots, generic, specialised)
    for name, schema in generic.items():  # the generic reading of every model
        schema = copy.deepcopy(schema)
        for field, prop in schema.get("properties", {}).items():
            slot = prop.pop("x-slot", None)
            if slot is not None:
                schema["properties"][field] = _fill(prop, global_slots[slot])
        components[name] = schema
    components.update({k: v for k, v in specialised.items() if v})
    components["RoomCreate"] = _room_create(components)
    examples = json.loads(EXAMPLES.read_text(encoding="utf-8")) if EXAMPLES.exists() else {}

    paths: dict[str, Any] = {}
    for r in sorted(ROUTES, key=lambda r: (r.path, r.method)):
        prefix = camel(r.family) if r.family else ""
        slots = family_slots[r.family] if r.family else global_slots

        def named(model: type[BaseModel] | None, prefix: str = prefix) -> str | None:
            if model is None:
                return None
            return f"{prefix}{model.__name__}" if prefix and f"{prefix}{model.__name__}" in components \
                else model.__name__

        def fill_query(p: dict[str, Any], slots: dict[str, dict[str, Any]] = slots) -> dict[str, Any]:
            return _fill(p["prop"], slots[p["slot"]])

        query = _query_parameters(r.query, fill_query) if r.query is not None else []
        op = _operation(r, named(r.body), named(r.response), query, examples)
        paths.setdefault(r.path, {})[r.method.lower()] = op

    _prune(components, paths)
    return {
        "openapi": "3.1.0",
        "info": {
            "title": "深宫 API",
            "version": "2.0.0",
            "description": (
                "深宫杀、保皇、血染甄嬛传的后端。错误一律为 ErrorOut：code 为稳定的英文代码（全部列在 GET /v1/errors，"
                "每个 code 只对应一个 HTTP 状态），message 为给玩家看的中文提示。房间的通用操作在 /v1/rooms 之下；"
                "每个玩法族的局面、行动、战报、结果、复盘在 /v1/games/{family}/rooms/{room_id} 之下，类型各自独立。"
                "可轮询的资源带 ETag：带 If-None-Match 请求，未变化回 304。429/503 带 Retry-After，按它重试是安全的。"),
        },
        "servers": [
            {"url": "http://127.0.0.1:8000", "description": "本地（infra/dev.sh serve）"},
            {"url": "https://{api_host}/v", "description": "部署的 API Gateway 阶段 v",
             "variables": {"api_host": {"default": "example.execute-api.ap-east-1.amazonaws.com",
                                        "description": "infra/deploy.sh 打印的 API 域名"}}},
            {"url": "https://{web_host}", "description": "部署的网页端同域（CloudFront 把 /v1/* 转给 API）",
             "variables": {"web_host": {"default": "example.cloudfront.net",
                                        "description": "infra/deploy.sh 打印的网页域名"}}},
        ],
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
