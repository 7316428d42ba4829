"""What a viewer may read about a room. Everything leaving a room passes through `game.view` /
`game.report` for that viewer; raw state, logs and other seats' moves never do."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any

from chalicelib.core.errors import Conflict, StaleVersion
from chalicelib.core.game import PendingKind, Viewer, ViewerRole
from chalicelib.core.identity import Caller
from chalicelib.games import get_game
from chalicelib.rooms.access import viewer_for
from chalicelib.rooms.deps import RoomDeps
from chalicelib.rooms.engine import load_events, load_state, viewer_json
from chalicelib.rooms.model import MoveRecord, Room
from chalicelib.rooms.play import run_timeout


@dataclass(frozen=True)
class RoomView:
    body: dict[str, Any]
    etag: str


def _etag(room: Room, viewer: Viewer, submitted: list[int], mine: bool) -> str:
    key = f"{room.id}|{room.version}|{viewer.role}|{viewer.seat}|{submitted}|{mine}"
    return 'W/"' + hashlib.sha256(key.encode()).hexdigest()[:20] + '"'


def room_summary(room: Room, caller: Caller) -> dict[str, Any]:
    return {
        "id": room.id,
        "game": room.game,
        "title": room.title,
        "status": room.status.value,
        "version": room.version,
        "step": room.step,
        "competition": room.competition.value,
        "creator_name": room.creator_name,
        "is_creator": room.creator == caller.user_id,
        "hosted": room.host is not None,
        "seats": [{"seat": s.seat, "name": s.name, "consort": s.consort, "is_me": s.user == caller.user_id}
                  for s in room.seats],
        "max_seats": room.max_seats,
        "min_seats": room.min_seats,
        "has_password": room.has_password,
        "options": room.options,
        "seed_hash": room.seed_hash,
        # the seed is revealed only once nothing is left to play, so nobody can predict a draw
        "seed": room.seed.hex() if room.seed is not None and not room.status.live else None,
        "results": list(room.results),
    }


def _settle_if_overdue(deps: RoomDeps, room: Room) -> Room:
    """Settle-on-read: a poll that finds the deadline passed settles the round itself instead of
    waiting up to a minute for the scheduler (which would find nothing left to do)."""
    if room.pending is None or room.pending.deadline_ms is None:
        return room
    now = deps.clock.now_ms()
    if room.pending.deadline_ms > now:
        return room
    try:
        return run_timeout(deps, room, now) or deps.rooms.get_room(room.id)
    except StaleVersion:
        return deps.rooms.get_room(room.id)


def room_view(deps: RoomDeps, caller: Caller, room_id: str) -> RoomView:
    return render_view(deps, caller, deps.rooms.get_room(room_id))


def render_view(deps: RoomDeps, caller: Caller, room: Room) -> RoomView:
    """The caller's view of a room already in hand (a lobby call returns it without reading again)."""
    viewer = viewer_for(deps, caller, room)
    room = _settle_if_overdue(deps, room)
    game = get_game(room.game)
    body: dict[str, Any] = {"room": room_summary(room, caller), "viewer": viewer_json(viewer),
                            "pending": None, "game": None}
    submitted: list[int] = []
    mine: MoveRecord | None = None
    if room.pending is not None:
        pending: dict[str, Any] = room.pending.model_dump(mode="json")
        if room.pending.kind is PendingKind.SEALED:
            moves = deps.rooms.list_moves(room.id, room.step)
            submitted = sorted(s for s, m in moves.items() if m.by == "player")
            if viewer.role is ViewerRole.PLAYER:
                mine = moves.get(viewer.seat)  # type: ignore[arg-type]
            pending["submitted"] = submitted
            pending["my_move"] = mine.action if mine is not None and mine.by == "player" else None
        body["pending"] = pending
    if room.state is not None:
        body["game"] = game.view(load_state(game, room), viewer).model_dump(mode="json")
    return RoomView(body=body, etag=_etag(room, viewer, submitted, mine is not None))


def reports(deps: RoomDeps, caller: Caller, room_id: str, after_step: int, limit: int) -> dict[str, Any]:
    """Battle reports (战报) of the transitions after `after_step`, each projected for the caller."""
    room = deps.rooms.get_room(room_id)
    viewer = viewer_for(deps, caller, room)
    game = get_game(room.game)
    if room.state is None:
        return {"reports": [], "next_after": after_step}
    state = load_state(game, room)
    out = []
    for log in deps.rooms.list_log(room.id, after_step, limit):
        lines = game.report(state, load_events(game, log.events), viewer)
        out.append({"step": log.step, "label": log.label, "kind": log.kind, "trigger": log.trigger,
                    "at_ms": log.at_ms, "lines": [line.model_dump(mode="json") for line in lines]})
    return {"reports": out, "next_after": out[-1]["step"] if out else after_step}


def results(deps: RoomDeps, caller: Caller, room_id: str) -> dict[str, Any]:
    room = deps.rooms.get_room(room_id)
    viewer_for(deps, caller, room)
    return {"room_id": room.id, "status": room.status.value, "results": deps.rooms.list_results(room.id)}


def replay(deps: RoomDeps, caller: Caller, room_id: str) -> dict[str, Any]:
    """Seed and complete action log, once the room is over: anyone can recompute every draw."""
    room = deps.rooms.get_room(room_id)
    viewer_for(deps, caller, room)
    if room.status.live or room.seed is None:
        raise Conflict("对局结束后才能复盘", code="NOT_FINISHED")
    logs = deps.rooms.list_log(room.id, -1, None)
    return {
        "room_id": room.id,
        "game": room.game,
        "seed": room.seed.hex(),
        "seed_hash": room.seed_hash,
        "log": [log.model_dump(mode="json", exclude={"events"}) for log in logs],
    }
