"""Rooms, generic over games: open, list, join, leave, spectate, start, act, 催战, view, reports."""

from __future__ import annotations

from dataclasses import asdict

from chalice import Blueprint
from pydantic import Field

from chalicelib.api.routing import route
from chalicelib.api.schemas import (
    ActBody,
    ActOut,
    Body,
    PasswordBody,
    ReplayOut,
    ReportsOut,
    ResultsOut,
    RoomCreate,
    RoomListOut,
    RoomOut,
    RoomViewOut,
    StepBody,
)
from chalicelib.core.identity import Caller
from chalicelib.domain.model import Room
from chalicelib.rooms import lobby, play, views
from chalicelib.wiring import services

bp = Blueprint(__name__)


class RoomListQuery(Body):
    game: str = Field(min_length=1, max_length=32)
    limit: int = Field(default=20, ge=1, le=50)
    cursor: str | None = Field(default=None, max_length=512)


class ReportsQuery(Body):
    after: int = Field(default=0, ge=-1, description="只返回 step 大于它的战报（用上次的 next_after）")
    limit: int = Field(default=20, ge=1, le=100)


def _view(caller: Caller, room: Room) -> views.RoomView:
    return views.render_view(services().room_deps(), caller, room)


def _ack(room: Room, settled: bool) -> dict:
    return {"accepted": True, "settled": settled, "step": room.step, "version": room.version,
            "status": room.status.value}


@route(bp, "/v1/rooms", "POST", body=RoomCreate, response=RoomViewOut, tag="rooms", headers=("Idempotency-Key",),
       summary="开房（玩家开房为自由赛，司礼开房为锦标赛）", errors=(400, 401, 403, 404, 409, 422))
def create_room(caller: Caller, body: RoomCreate) -> views.RoomView:
    """Send an `Idempotency-Key` header to make a retried 开房 return the same room."""
    request = bp.current_request
    key = (request.headers or {}).get("idempotency-key")
    return _view(caller, lobby.create_room(services().room_deps(), caller, body.game, body.options, body.password, key))


@route(bp, "/v1/rooms", query=RoomListQuery, response=RoomListOut, tag="rooms", summary="等待入席的房间",
       errors=(400, 401, 404, 422))
def list_rooms(caller: Caller, query: RoomListQuery) -> dict:
    page = lobby.list_open(services().room_deps(), query.game, query.limit, query.cursor)
    return {"rooms": [asdict(card) for card in page.items], "cursor": page.cursor}


@route(bp, "/v1/rooms/{room_id}", response=RoomViewOut, tag="rooms", etag=True,
       summary="房间与局面（按观看者投影；带 If-None-Match 轮询，未变化返回 304）", errors=(401, 403, 404))
def get_room(caller: Caller, room_id: str) -> views.RoomView:
    return views.room_view(services().room_deps(), caller, room_id)


@route(bp, "/v1/rooms/{room_id}/join", "POST", body=PasswordBody, response=RoomViewOut, tag="rooms",
       summary="入席（有暗号须报号；满员自动开战的玩法在此开战）", errors=(400, 401, 403, 404, 409, 422, 429))
def join_room(caller: Caller, room_id: str, body: PasswordBody) -> views.RoomView:
    return _view(caller, lobby.join_room(services().room_deps(), caller, room_id, body.password))


@route(bp, "/v1/rooms/{room_id}/leave", "POST", response=RoomOut, tag="rooms", summary="开战前离席",
       errors=(401, 404, 409))
def leave_room(caller: Caller, room_id: str) -> dict:
    return views.room_summary(lobby.leave_room(services().room_deps(), caller, room_id), caller)


@route(bp, "/v1/rooms/{room_id}/spectate", "POST", body=PasswordBody, response=RoomViewOut, tag="rooms",
       summary="观战（有暗号须报号）", errors=(400, 401, 403, 404, 422, 429))
def spectate_room(caller: Caller, room_id: str, body: PasswordBody) -> views.RoomView:
    return _view(caller, lobby.spectate_room(services().room_deps(), caller, room_id, body.password))


@route(bp, "/v1/rooms/{room_id}/start", "POST", response=RoomViewOut, tag="rooms",
       summary="开战（开房者；人数不足或关卡未解锁会被拦下并点名）", errors=(401, 403, 404, 409, 422))
def start_room(caller: Caller, room_id: str) -> views.RoomView:
    return _view(caller, lobby.start_room(services().room_deps(), caller, room_id))


@route(bp, "/v1/rooms/{room_id}/actions", "POST", body=ActBody, response=ActOut, tag="play",
       summary="落子 / 行动（同一 step 的同一行动重试是安全的）", errors=(400, 401, 403, 404, 409, 422))
def act(caller: Caller, room_id: str, body: ActBody) -> dict:
    """In a sealed round the move is stored hidden; the round settles when every living seat has
    submitted. In turn-based and storyteller games the action applies at once."""
    outcome = play.act(services().room_deps(), caller, room_id, body.step, body.action)
    return _ack(outcome.room, outcome.settled)


@route(bp, "/v1/rooms/{room_id}/hurry", "POST", body=StepBody, response=ActOut, tag="play",
       summary="催战：开房者立即结算本回合，未落子者按待机处理", errors=(400, 401, 403, 404, 409, 422))
def hurry(caller: Caller, room_id: str, body: StepBody) -> dict:
    room = play.hurry(services().room_deps(), caller, room_id, body.step)
    return _ack(room, room.step > body.step)


@route(bp, "/v1/rooms/{room_id}/reports", query=ReportsQuery, response=ReportsOut, tag="play",
       summary="战报（与你有关的全文，其余匿名播报）", errors=(400, 401, 403, 404, 422))
def reports(caller: Caller, room_id: str, query: ReportsQuery) -> dict:
    return views.reports(services().room_deps(), caller, room_id, query.after, query.limit)


@route(bp, "/v1/rooms/{room_id}/result", response=ResultsOut, tag="play", summary="终局结果",
       errors=(401, 403, 404))
def result(caller: Caller, room_id: str) -> dict:
    return views.results(services().room_deps(), caller, room_id)


@route(bp, "/v1/rooms/{room_id}/replay", response=ReplayOut, tag="play",
       summary="复盘：终局后公布种子与完整行动记录，任何人可复算", errors=(401, 403, 404, 409))
def replay(caller: Caller, room_id: str) -> dict:
    return views.replay(services().room_deps(), caller, room_id)
