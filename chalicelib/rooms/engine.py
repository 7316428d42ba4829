"""Glue between stored rooms and a game's typed rules: parse what clients send, load what is stored."""

from __future__ import annotations

import json
from typing import Any

from pydantic import BaseModel, ValidationError

from chalicelib.core.errors import Conflict, ValidationFailed
from chalicelib.core.game import AnyGame, Pending, Viewer, ViewerRole
from chalicelib.domain.model import PendingInfo, Room


def validation_details(err: ValidationError) -> list[dict[str, Any]]:
    # loc and type only: echoing input back could repeat something the client should not log
    return [{"loc": [str(p) for p in e["loc"]], "type": e["type"], "msg": e["msg"]} for e in err.errors()]


def parse_model[M: BaseModel](model: type[M], raw: Any, what: str, *, strict: bool = True) -> M:
    """Validate what a client sent. Strict (the default, for JSON bodies): "1" is not a number and
    true is not 1. Query strings are text, so their models are read with strict=False.

    Raises:
        ValidationFailed: VALIDATION_FAILED, `errors` saying where.
    """
    try:
        if strict:
            return model.model_validate_json(json.dumps(raw), strict=True)
        return model.model_validate(raw)
    except ValidationError as e:
        raise ValidationFailed(f"{what}格式有误", errors=validation_details(e)) from e


def parse_action(game: AnyGame, raw: Any) -> Any:
    """A client's action, strictly typed (see `parse_model`).

    Raises:
        ValidationFailed: BAD_ACTION.
    """
    try:
        return game.action_adapter.validate_json(json.dumps(raw), strict=True)
    except ValidationError as e:
        raise ValidationFailed("行动格式有误", code="BAD_ACTION", errors=validation_details(e)) from e


def load_state(game: AnyGame, room: Room) -> Any:
    if room.state is None:
        raise Conflict("游戏尚未开始", code="NOT_STARTED")
    return game.load_state(room.state)


def dump_state(state: BaseModel) -> dict[str, Any]:
    return state.model_dump(mode="json")


def pending_info(pending: Pending | None, now_ms: int, before: PendingInfo | None = None) -> PendingInfo | None:
    """What the room stores of whom the game waits for, and until when: a new deadline from now, or
    the running one if the game says it is the same clock as `before`'s."""
    if pending is None:
        return None
    deadline = now_ms + pending.timeout_s * 1000 if pending.timeout_s else None
    if pending.clock is not None and before is not None and before.clock == pending.clock and before.deadline_ms:
        deadline = before.deadline_ms
    return PendingInfo(kind=pending.kind, seats=tuple(sorted(pending.seats)), deadline_ms=deadline,
                       label=pending.label, clock=pending.clock)


def hides_steps(game: AnyGame, viewer: Viewer) -> bool:
    """Games where the number of transitions is itself secret (血染甄嬛传: the storyteller's night
    steps depend on the roles in play) show players no step counter and no empty reports."""
    return game.hidden_steps and not viewer.is_host


def viewer_json(viewer: Viewer) -> dict[str, Any]:
    return {"role": viewer.role.value, "seat": viewer.seat}


def viewer_from_json(raw: dict[str, Any]) -> Viewer:
    return Viewer(ViewerRole(raw["role"]), raw.get("seat"))
