"""Glue between stored rooms and a game's typed rules: parse what clients send, load what is stored."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ValidationError

from chalicelib.core.errors import Conflict, ValidationFailed
from chalicelib.core.game import AnyGame, Pending, Viewer, ViewerRole
from chalicelib.domain.model import PendingInfo, Room


def validation_details(err: ValidationError) -> list[dict[str, Any]]:
    # loc and type only: echoing input back could repeat something the client should not log
    return [{"loc": [str(p) for p in e["loc"]], "type": e["type"], "msg": e["msg"]} for e in err.errors()]


def parse_model[M: BaseModel](model: type[M], raw: Any, what: str) -> M:
    try:
        return model.model_validate(raw)
    except ValidationError as e:
        raise ValidationFailed(f"{what}格式有误", errors=validation_details(e)) from e


def parse_action(game: AnyGame, raw: Any) -> Any:
    try:
        return game.parse_action(raw)
    except ValidationError as e:
        raise ValidationFailed("行动格式有误", code="BAD_ACTION", errors=validation_details(e)) from e


def load_state(game: AnyGame, room: Room) -> Any:
    if room.state is None:
        raise Conflict("游戏尚未开始", code="NOT_STARTED")
    return game.load_state(room.state)


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
