"""Glue between stored rooms and a game's typed rules: parse, load, dump, and apply one transition."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from chalicelib.core.errors import DomainError, IllegalAction
from chalicelib.core.game import Pending, Viewer, ViewerRole
from chalicelib.rooms.model import PendingInfo, Room


class ValidationFailed(DomainError):
    """The JSON parsed but does not fit the schema (wrong types, unknown fields)."""

    status = 422
    default_code = "VALIDATION_FAILED"
    default_message = "提交的内容不符合格式要求"


def validation_details(err: ValidationError) -> list[dict[str, Any]]:
    # loc and type only: echoing input back could repeat something the client should not log
    return [{"loc": [str(p) for p in e["loc"]], "type": e["type"], "msg": e["msg"]} for e in err.errors()]


def parse_model(model: type[BaseModel], raw: Any, what: str) -> Any:
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        raise ValidationFailed(f"{what}格式有误", errors=validation_details(e)) from e


def parse_action(game: Any, raw: Any) -> Any:
    try:
        return game.action_adapter.validate_python(raw)
    except ValidationError as e:
        raise ValidationFailed("行动格式有误", code="BAD_ACTION", errors=validation_details(e)) from e


def dump_action(game: Any, action: Any) -> dict[str, Any]:
    return game.action_adapter.dump_python(action, mode="json")


def dump_events(game: Any, events: tuple[Any, ...]) -> list[dict[str, Any]]:
    return [game.event_adapter.dump_python(e, mode="json") for e in events]


def load_events(game: Any, raw: list[dict[str, Any]]) -> list[Any]:
    return [game.event_adapter.validate_python(e) for e in raw]


def load_state(game: Any, room: Room) -> Any:
    if room.state is None:
        raise IllegalAction("游戏尚未开始", code="NOT_STARTED")
    return game.state_model.model_validate(room.state)


def dump_state(state: BaseModel) -> dict[str, Any]:
    return state.model_dump(mode="json")


def pending_info(pending: Pending | None, now_ms: int) -> PendingInfo | None:
    if pending is None:
        return None
    deadline = now_ms + pending.timeout_s * 1000 if pending.timeout_s else None
    return PendingInfo(kind=pending.kind, seats=tuple(sorted(pending.seats)), deadline_ms=deadline,
                       label=pending.label)


def viewer_json(viewer: Viewer) -> dict[str, Any]:
    return {"role": viewer.role.value, "seat": viewer.seat}


def viewer_from_json(raw: dict[str, Any]) -> Viewer:
    return Viewer(ViewerRole(raw["role"]), raw.get("seat"))
