"""`Room.missed`: the rounds in a row a seat sent nothing, counted as each sealed round settles — what
代打 waits for (`ABSENT_ROUNDS`). Every write of the room item carries it, so seats that play are left
out: a room whose players all play stores nothing."""

from __future__ import annotations

from chalicelib.domain.model import MoveRecord, MoveSource, Room, RoomStatus
from chalicelib.rooms.transitions import missed_after


def _room(missed: dict[str, int]) -> Room:
    return Room(id="r", game="shengong_d", title="t", status=RoomStatus.ACTIVE, creator="u0", creator_name="甄嬛",
                max_seats=3, min_seats=3, created_ms=0, updated_ms=0, active_ms=0, missed=missed)


def _move(seat: int, by: MoveSource) -> MoveRecord:
    return MoveRecord(step=4, seat=seat, action={"type": "idle"} if by.submitted else None, by=by, at_ms=0)


def test_a_seat_that_sent_nothing_counts_on_and_one_that_moved_drops_out():
    room = _room({"1": 2, "2": 1})
    moves = {0: _move(0, MoveSource.PLAYER), 1: _move(1, MoveSource.BOT)}
    assert missed_after(room, frozenset({0, 1, 2}), moves) == {"2": 2}  # a bot's move for her counts as a move


def test_a_room_whose_players_all_play_stores_nothing():
    moves = {s: _move(s, MoveSource.PLAYER) for s in range(3)}
    assert missed_after(_room({}), frozenset({0, 1, 2}), moves) == {}
    assert missed_after(_room({}), frozenset({0, 1, 2}), {0: _move(0, MoveSource.DEFAULT)}) == {"0": 1, "1": 1, "2": 1}


def test_a_seat_the_round_did_not_wait_for_keeps_her_count():
    """深宫杀 (DECISIONS #12, a voided move is not waited for in 宫斗杀): a round she could not play neither
    counts her absent nor clears the rounds she already missed."""
    room = _room({"1": 2, "2": 1})
    moves = {0: _move(0, MoveSource.PLAYER)}
    assert missed_after(room, frozenset({0, 1}), moves) == {"1": 3, "2": 1}
