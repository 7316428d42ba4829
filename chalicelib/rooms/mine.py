"""「我的对局」: the rooms a player plays or hosts that are still open or under way, on any device.

Each create, join, 再战 and admission notes the room for the person it seats (`RoomStore.add_member`,
after the room's own write: a note lost with a crashed request leaves one room off her list, never a
room she is not in, since the list is checked against the rooms as they stand). Notes of rooms that
ended are marked done as the list finds them, so they stop taking its places."""

from __future__ import annotations

from typing import Any

from chalicelib.core.identity import Caller
from chalicelib.domain.model import Room
from chalicelib.rooms.deps import RoomDeps

MY_ROOMS = 20
"""Rooms looked at, newest first: more than anyone keeps going at once."""


def noted(deps: RoomDeps, user: str, room: Room) -> Room:
    """Note `room` for `user` (she was seated in it, or hosts it); returns the room."""
    deps.rooms.add_member(user, room)
    return room


def my_rooms(deps: RoomDeps, caller: Caller) -> list[dict[str, Any]]:
    """Her rooms still open or under way where she still sits or hosts, newest first."""
    rooms = deps.rooms.member_rooms(caller.user_id, MY_ROOMS)
    live = [room for room in rooms if _hers_now(room, caller)]
    # over: marked, so it never again takes a live one's place (only an ended room: one she left may
    # see her back, and a mark racing her rejoin would hide it)
    ended = [room for room in rooms if not room.status.live]
    for room in ended:
        deps.rooms.member_done(caller.user_id, room)
    if len(rooms) == MY_ROOMS and ended:  # older live ones may be behind those: once more
        live = [room for room in deps.rooms.member_rooms(caller.user_id, MY_ROOMS) if _hers_now(room, caller)]
    out = []
    for room in live:
        seat = room.seat_of(caller.user_id)
        hosting = room.host == caller.user_id
        out.append({"room_id": room.id, "game": room.game, "title": room.title, "status": room.status.value,
                    "seat": seat.seat if seat else None, "hosting": hosting, "seat_count": len(room.seats),
                    "max_seats": room.max_seats})
    return out


def _hers_now(room: Room, caller: Caller) -> bool:
    return room.status.live and room.takes_part(caller.user_id)

