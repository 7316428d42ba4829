"""Rooms, generic over games: open, list, join, leave, spectate, start, 催战 and the room summary.

The game itself (its view, actions, reports, results, replay) is under /v1/games/{family}/… in
`family_routes`, one literal path per family, so a generated client types each game exactly."""

from __future__ import annotations

from dataclasses import asdict
from typing import Any, Literal

from chalice import Blueprint
from pydantic import Field

from chalicelib.api.routing import idempotency_key, route
from chalicelib.api.schemas import (
    ActOut,
    AgainBody,
    Body,
    BotsBody,
    HandoverBody,
    LeaveOut,
    MyRoomsOut,
    PasswordBody,
    RoomCodeOut,
    RoomCreate,
    RoomListOut,
    RoomSummaryOut,
    StepBody,
    UserBody,
    VoteBody,
)
from chalicelib.core.errors import ValidationFailed
from chalicelib.core.identity import Caller
from chalicelib.domain.model import Room, RoomStatus
from chalicelib.games import game_keys
from chalicelib.rooms import again, handover, host, lobby, mine, play, views
from chalicelib.wiring import services

bp = Blueprint(__name__)


class RoomListQuery(Body):
    game: str | None = Field(default=None, max_length=32, description="玩法 key（必填），见 GET /v1/games",
                             json_schema_extra={"x-slot": "game_key"})
    status: Literal["open", "active"] = Field(default="open", description="open：等待入席；active：对局中（可观战）")
    limit: int = Field(default=20, ge=1, le=50)
    cursor: str | None = Field(default=None, max_length=512, description="上一页返回的 cursor")


def _summary(caller: Caller, room: Room) -> views.RoomView:
    return views.render_view(services().room_deps(), caller, room, with_game=False)


def ack(outcome: play.ActOutcome, caller: Caller) -> dict[str, Any]:
    """The answer to an action: which step it counted for and where the room is now (steps stay
    null for a viewer who may not count them)."""
    from chalicelib.games import get_game
    from chalicelib.rooms.access import actor_for
    from chalicelib.rooms.engine import hides_steps

    room = outcome.room
    hidden = hides_steps(get_game(room.game), actor_for(caller, room))
    return {"accepted": True, "settled": outcome.settled, "step": None if hidden else outcome.step,
            "current_step": None if hidden else room.step, "version": None if hidden else room.version,
            "status": room.status.value}


@route(bp, "/v1/rooms", "POST", body=RoomCreate, response=RoomSummaryOut, tag="rooms",
       headers=("Idempotency-Key",), summary="开房（玩家开房为自由赛，司礼开房为锦标赛）",
       errors=(400, 401, 403, 404, 409, 413, 422, 429))
def create_room(caller: Caller, body: RoomCreate) -> views.RoomView:
    """Send an `Idempotency-Key` header to make a retried 开房 return the same room."""
    key = idempotency_key(bp.current_request)
    deps = services().room_deps()
    return _summary(caller, lobby.create_room(deps, caller, body.game, body.options, body.password, key))


@route(bp, "/v1/rooms", query=RoomListQuery, response=RoomListOut, tag="rooms",
       summary="大厅：等待入席的房间，或对局中的房间（status=active，可观战；按玩法）",
       errors=(400, 401, 404, 422))
def list_rooms(caller: Caller, query: RoomListQuery) -> dict[str, Any]:
    if query.game is None:
        raise ValidationFailed(f"请指定玩法 game（可选：{'、'.join(game_keys())}）",
                               errors=[{"loc": ["game"], "type": "missing", "msg": "Field required"}])
    page = lobby.list_rooms(services().room_deps(), query.game, RoomStatus(query.status), query.limit, query.cursor)
    return {"rooms": [asdict(card) for card in page.items], "cursor": page.cursor}


@route(bp, "/v1/me/rooms", response=MyRoomsOut, tag="rooms",
       summary="我的对局：我在座或主持、尚未结束的房间（换一台手机也在）", errors=(401,))
def my_rooms(caller: Caller) -> dict[str, Any]:
    return {"rooms": mine.my_rooms(services().room_deps(), caller)}


@route(bp, "/v1/rooms/{room_id}", response=RoomSummaryOut, tag="rooms", etag=True,
       summary="房间概况（座位、状态、等谁；不含局面）。带 If-None-Match 轮询，未变化返回 304", errors=(401, 403, 404))
def get_room(caller: Caller, room_id: str) -> views.RoomView:
    return views.room_view(services().room_deps(), caller, room_id)


@route(bp, "/v1/room-codes/{code}", response=RoomCodeOut, tag="rooms",
       summary="按房号找房间（六位数字；开房三日内有效）", errors=(401, 404, 422))
def find_room_code(caller: Caller, code: str) -> dict[str, Any]:
    """A friend says 「房号 482913」: this answers the room's id and game, to open its page. It tells no
    more than the lobby lists (a room with a 暗号 still asks for it on its page)."""
    room = lobby.find_by_code(services().room_deps(), code)
    return {"room_id": room.id, "game": room.game, "has_password": room.has_password}


@route(bp, "/v1/rooms/{room_id}/join", "POST", body=PasswordBody, response=RoomSummaryOut, tag="rooms",
       summary="入席（有暗号须报号；满员自动开战的玩法在此开战）", errors=(400, 401, 403, 404, 409, 413, 422, 429))
def join_room(caller: Caller, room_id: str, body: PasswordBody) -> views.RoomView:
    return _summary(caller, lobby.join_room(services().room_deps(), caller, room_id, body.password))


@route(bp, "/v1/rooms/{room_id}/leave", "POST", response=LeaveOut, tag="rooms", summary="开战前离席",
       errors=(401, 404, 409))
def leave_room(caller: Caller, room_id: str) -> dict[str, Any]:
    """Answers the same to anyone not (or no longer) seated: leaving tells nothing about the room."""
    lobby.leave_room(services().room_deps(), caller, room_id)
    return {"room_id": room_id, "left": True}


@route(bp, "/v1/rooms/{room_id}/again", "POST", body=AgainBody, response=RoomSummaryOut, tag="rooms",
       summary="再战：这一局的玩家开同样设置的新房（宫斗杀可选关卡），同桌其他人再点即入这同一间；主持的玩法由主持人开",
       errors=(400, 401, 403, 404, 409, 413, 422, 429))
def play_again(caller: Caller, room_id: str, body: AgainBody) -> views.RoomView:
    """Answers the new room (as 入席 does). Safe to retry: the same room, her one seat."""
    return _summary(caller, again.play_again(services().room_deps(), caller, room_id, body.stage))


@route(bp, "/v1/rooms/{room_id}/spectate", "POST", body=PasswordBody, response=RoomSummaryOut, tag="rooms",
       summary="观战（有暗号须报号）", errors=(400, 401, 403, 404, 413, 422, 429))
def spectate_room(caller: Caller, room_id: str, body: PasswordBody) -> views.RoomView:
    return _summary(caller, lobby.spectate_room(services().room_deps(), caller, room_id, body.password))


@route(bp, "/v1/rooms/{room_id}/start", "POST", response=RoomSummaryOut, tag="rooms",
       summary="开战（开房者；人数不足或关卡未解锁会被拦下并点名）", errors=(401, 403, 404, 409, 422))
def start_room(caller: Caller, room_id: str) -> views.RoomView:
    return _summary(caller, lobby.start_room(services().room_deps(), caller, room_id))


@route(bp, "/v1/rooms/{room_id}/bots", "POST", body=BotsBody, response=RoomSummaryOut, tag="rooms",
       summary="开房者用机器人补满空位（有机器人的对局为练习局，不计入榜单）", errors=(400, 401, 403, 404, 409, 413, 422))
def add_bots(caller: Caller, room_id: str, body: BotsBody) -> views.RoomView:
    return _summary(caller, lobby.add_bots(services().room_deps(), caller, room_id, body.level, body.count,
                                            body.seated))


@route(bp, "/v1/rooms/{room_id}/undo", "POST", body=StepBody, response=RoomSummaryOut, tag="host",
       summary="撤销：主持人收回最后一次操作（按记录重算局面；已看到信息的玩家会被告知已撤回）",
       errors=(400, 401, 403, 404, 409, 413, 422))
def undo(caller: Caller, room_id: str, body: StepBody) -> views.RoomView:
    return _summary(caller, host.undo(services().room_deps(), caller, room_id, body.step))


@route(bp, "/v1/rooms/{room_id}/decline", "POST", body=UserBody, response=RoomSummaryOut, tag="host",
       summary="主持人拒绝一位请求中途加入的玩家", errors=(400, 401, 403, 404, 409, 413, 422))
def decline(caller: Caller, room_id: str, body: UserBody) -> views.RoomView:
    return _summary(caller, host.decline(services().room_deps(), caller, room_id, body.user))


@route(bp, "/v1/rooms/{room_id}/handover", "POST", body=HandoverBody, response=RoomSummaryOut, tag="rooms",
       summary="开房者提议：把离开的玩家（托管整局或连续 3 回合未落子）的座位交给机器人代打，由其他玩家投票",
       errors=(400, 401, 403, 404, 409, 413, 422))
def propose_handover(caller: Caller, room_id: str, body: HandoverBody) -> views.RoomView:
    return _summary(caller, handover.propose(services().room_deps(), caller, room_id, body.seat, body.level))


@route(bp, "/v1/rooms/{room_id}/handover/vote", "POST", body=VoteBody, response=RoomSummaryOut, tag="rooms",
       summary="对代打提议投票（过半数同意即由机器人代打；原玩家一行动即收回座位）",
       errors=(400, 401, 403, 404, 409, 413, 422))
def vote_handover(caller: Caller, room_id: str, body: VoteBody) -> views.RoomView:
    return _summary(caller, handover.vote(services().room_deps(), caller, room_id, body.yes, body.seat))


@route(bp, "/v1/rooms/{room_id}/hurry", "POST", body=StepBody, response=ActOut, tag="play",
       summary="催战：开房者立即结算本回合，未落子者按待机处理", errors=(400, 401, 403, 404, 409, 413, 422))
def hurry(caller: Caller, room_id: str, body: StepBody) -> dict[str, Any]:
    hurried = play.hurry(services().room_deps(), caller, room_id, body.step)
    room = hurried.room
    return {"accepted": True, "settled": hurried.settled, "step": body.step, "current_step": room.step,
            "version": room.version, "status": room.status.value}
