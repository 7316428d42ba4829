"""「我的对局」: the rooms a player plays or hosts that are still open or under way, on any device.

Games that wait on her come first, marked (`my_turn`): her seat is among those the game waits on and,
in a sealed round, her move is not in yet (one more read, for all her sealed rounds together). A host
is never marked: a storyteller's game waits on her between any two presses.

Each create, join, 再战 and admission notes the room for the person it seats (`RoomStore.add_member`,
after the room's own write: a note lost with a crashed request leaves one room off her list, never a
room she is not in, since the list is checked against the rooms as they stand). Notes of rooms that
ended are marked done as the list finds them, so they stop taking its places."""

from __future__ import annotations

from typing import Any

from chalicelib.core.game import PendingKind
from chalicelib.core.identity import Caller
from chalicelib.domain.model import Room, RoomStatus
from chalicelib.domain.ports import MoveSlot
from chalicelib.rooms.deps import RoomDeps

MY_ROOMS = 20
"""Rooms looked at, newest first: more than anyone keeps going at once."""


def noted(deps: RoomDeps, user: str, room: Room) -> Room:
    """Note `room` for `user` (she was seated in it, or hosts it); returns the room."""
    deps.rooms.add_member(user, room)
    return room


def my_rooms(deps: RoomDeps, caller: Caller) -> list[dict[str, Any]]:
    """Her rooms still open or under way where she still sits or hosts: those waiting on her first, each
    part newest first."""
    rooms = deps.rooms.member_rooms(caller.user_id, MY_ROOMS)
    live = [room for room in rooms if _hers_now(room, caller)]
    # over: marked, so it never again takes a live one's place (only an ended room: one she left may
    # see her back, and a mark racing her rejoin would hide it)
    ended = [room for room in rooms if not room.status.live]
    for room in ended:
        deps.rooms.member_done(caller.user_id, room)
    if len(rooms) == MY_ROOMS and ended:  # older live ones may be behind those: once more
        live = [room for room in deps.rooms.member_rooms(caller.user_id, MY_ROOMS) if _hers_now(room, caller)]
    asked = {room.id: _asked(room, caller) for room in live}
    sealed = deps.rooms.moves_made([slot for slot in asked.values() if isinstance(slot, MoveSlot)])
    out = []
    for room in live:
        seat = room.seat_of(caller.user_id)
        ask = asked[room.id]
        out.append({"room_id": room.id, "game": room.game, "title": room.title, "status": room.status.value,
                    "seat": seat.seat if seat else None, "hosting": room.host == caller.user_id,
                    "seat_count": len(room.seats), "max_seats": room.max_seats,
                    "my_turn": ask is True or (isinstance(ask, MoveSlot) and ask not in sealed)})
    return sorted(out, key=lambda r: not r["my_turn"])  # stable: newest first within each


def _asked(room: Room, caller: Caller) -> bool | MoveSlot:
    """Whether the game waits on her seat now: True / False, or (a sealed round) the slot her move
    fills, which says whether it is in."""
    seat = room.seat_of(caller.user_id)
    pending = room.pending
    if room.status is not RoomStatus.ACTIVE or pending is None or seat is None or seat.seat not in pending.seats:
        return False
    if seat.bot is not None:  # handed to a bot (she was away): it plays, not she
        return False
    if pending.kind is PendingKind.SEALED:
        return MoveSlot(room.id, room.step, seat.seat)
    return pending.kind is PendingKind.TURN


def _hers_now(room: Room, caller: Caller) -> bool:
    return room.status.live and room.takes_part(caller.user_id)

