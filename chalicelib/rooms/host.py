"""The host's tools that need the room's log or its seats: 撤销 (undo) and seating late entrants.

Undo takes back the last transition if it was a host press the game allows taking back: the state
is recomputed from the log without it (`history.fold`), never reversed by hand; the UNDO entry tells
the players who had been shown something by the undone press that it was withdrawn (the game's
`withdrawn` events), and steps the room's ply back so the same press made again draws the same.

Late entrants (血染 travellers): a player asks to join a running `late_join` game (`request_join`);
the host seats her with the game's `admit_model` details (`admit`), or declines (`decline`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chalicelib.core.errors import Conflict, Forbidden, StaleVersion
from chalicelib.core.game import Entrant, Transition, Viewer
from chalicelib.core.identity import Caller
from chalicelib.domain.model import JoinRequest, LogKind, LogRecord, Room, RoomStatus, SeatEntry, Trigger
from chalicelib.games import get_game
from chalicelib.observability import metrics_count
from chalicelib.rooms.access import check_password, check_typed_texts, is_host
from chalicelib.rooms.deps import JOIN_ATTEMPTS, RoomDeps, contended_tries
from chalicelib.rooms.engine import load_state, parse_model, viewer_json
from chalicelib.rooms.history import effective, entrant_json, fold, undo_block
from chalicelib.rooms.mine import noted
from chalicelib.rooms.transitions import commit_transition

ATTEMPTS = 4


def _hosted(caller: Caller, room: Room) -> None:
    if not is_host(caller, room) or room.seat_of(caller.user_id) is not None:
        raise Forbidden("只有主持人可以这样做", code="HOST_ONLY")
    if room.status is not RoomStatus.ACTIVE:
        raise Conflict("房间不在进行中", code="NOT_ACTIVE")


def _until_written(attempt: Callable[[], Room]) -> Room:
    """Run a host's change again on the room as it now is when another write won it (a request to
    join, a player's hand, her own double tap): the retry answers as the first did, or refuses for a
    reason that now holds (STALE_STEP)."""
    for _ in range(ATTEMPTS):
        try:
            return attempt()
        except StaleVersion:
            metrics_count("Retries")
    raise StaleVersion()


def undo(deps: RoomDeps, caller: Caller, room_id: str, step: int) -> Room:
    """撤销 the last transition (at `step`, the room's current step: a retried undo changes nothing).

    Raises:
        Forbidden: HOST_ONLY; Conflict: NOTHING_TO_UNDO / STEP_AHEAD / NOT_ACTIVE.
    """
    return _until_written(lambda: _undo_once(deps, caller, room_id, step))


def _undo_once(deps: RoomDeps, caller: Caller, room_id: str, step: int) -> Room:
    room = deps.rooms.get_room(room_id)
    _hosted(caller, room)
    if 0 <= step < room.step:
        done = deps.rooms.get_log(room.id, step)
        if done is not None and done.kind is LogKind.UNDO:
            return room  # this undo, retried after its answer was lost
        # someone acted first: the press she meant to take back is no longer the last one
        raise Conflict("房间已有新的变化，请刷新后再撤销", code="STALE_STEP", current_step=room.step)
    if step > room.step:
        raise Conflict("房间还没到这一步，请刷新", code="STEP_AHEAD", current_step=room.step)
    game = get_game(room.game)
    logs = deps.rooms.list_log(room.id, -1, None, consistent=True)
    if not logs or logs[-1].step != room.step - 1:
        raise StaleVersion()  # the log is behind the room item: never fold a state from part of it
    history = effective(logs)
    last = history[-1] if len(history) > 1 else None
    state = load_state(game, room)
    why = undo_block(game, last, state)
    if why is not None or last is None:
        raise Conflict(why or "没有可以撤销的说书人操作", code="NOTHING_TO_UNDO")
    restored = fold(game, room.seed or b"", history[:-1])
    # what 撤销 could take back next: the transition before this one, which left `restored`
    after = undo_block(game, history[-2], restored)
    events = game.withdrawn(state, game.load_events(last.events))
    log = LogRecord(step=room.step, kind=LogKind.UNDO, label="撤销", actor=viewer_json(Viewer.host()),
                    undoes=last.step, ply=last.step if last.ply is None else last.ply,
                    events=game.dump_events(events), at_ms=deps.clock.now_ms(), trigger=Trigger.HOST)
    metrics_count("Undos")
    return commit_transition(deps, game, room, Transition(restored, events), log, human_ms=log.at_ms,
                             ply=log.ply, undo=after)


MAX_REQUESTS = 10
"""Requests to join a running room waiting for the host at once (and never more than its free seats)."""


def request_join(deps: RoomDeps, caller: Caller, room: Room, password: str | None) -> Room:
    """Ask to join a running game that seats late entrants; the host decides. Retrying is harmless:
    a request already made checks no password again. Whoever gave the password may watch the room
    she asked to join (her answer is its summary) while the host decides."""
    if any(r.user == caller.user_id for r in room.requests):
        return room
    if room.has_password and not deps.rooms.is_watcher(room.id, caller.user_id):
        check_password(deps, caller, room, password)
        deps.rooms.add_watcher(room.id, caller.user_id, deps.clock.now_ms())
    for _ in contended_tries(JOIN_ATTEMPTS):
        if any(r.user == caller.user_id for r in room.requests):
            return room
        if room.full:  # no seat to give: nothing to wait for either
            raise Conflict("房间已满", code="ROOM_FULL")
        if len(room.requests) >= min(MAX_REQUESTS, room.max_seats - len(room.seats)):
            # a bounded list: the room item must not grow with everyone who asks
            raise Conflict("请求入座的人已满，请等说书人处理后再试", code="REQUESTS_FULL")
        now = deps.clock.now_ms()
        asked = room.model_copy(update={
            "requests": (*room.requests, JoinRequest(user=caller.user_id, name=caller.name, at_ms=now)),
            "version": room.version + 1, "updated_ms": now})
        try:
            deps.rooms.save_room(asked, room.version)
            return asked
        except StaleVersion:
            room = deps.rooms.get_room(room.id)
    raise StaleVersion()


def _request(room: Room, user: str) -> JoinRequest:
    found = next((r for r in room.requests if r.user == user), None)
    if found is None:
        raise Conflict("没有这个入座请求", code="NO_SUCH_REQUEST")
    return found


def admit(deps: RoomDeps, caller: Caller, room_id: str, user: str, raw_details: dict[str, Any]) -> Room:
    """Seat the player who asked (a new seat at the end) with the game's admission details.

    Raises:
        Forbidden: HOST_ONLY; Conflict: NO_SUCH_REQUEST / NOT_ACTIVE; ValidationFailed; the game's
        refusals (e.g. not at night).
    """
    checked: set[tuple[str, ...]] = set()
    return _until_written(lambda: _admit_once(deps, caller, room_id, user, raw_details, checked))


def _admit_once(deps: RoomDeps, caller: Caller, room_id: str, user: str, raw_details: dict[str, Any],
                checked: set[tuple[str, ...]]) -> Room:
    room = deps.rooms.get_room(room_id)
    _hosted(caller, room)
    if room.seat_of(user) is not None:
        return noted(deps, user, room)  # admitted already: a retry (its note may have been lost)
    request = _request(room, user)
    game = get_game(room.game)
    if not game.late_join or game.admit_model is None:
        raise Conflict(f"{game.title}开局后不能加入", code="NO_LATE_JOIN")
    details = parse_model(game.admit_model, raw_details, "入座设置")
    entrant = Entrant(seat=len(room.seats), name=request.name)
    tr = game.admit(load_state(game, room), entrant, details, room.rng())
    texts = game.free_texts(details)
    if texts not in checked:  # after the game accepted it: no check spent on a refusal, one per request
        check_typed_texts(deps, caller, texts)
        checked.add(texts)
    log = LogRecord(step=room.step, kind=LogKind.ADMIT, label="入座", actor=viewer_json(Viewer.host()),
                    action={"entrant": entrant_json(entrant), "details": details.model_dump(mode="json")},
                    events=game.dump_events(tr.events), at_ms=deps.clock.now_ms(), trigger=Trigger.HOST)
    rest = tuple(r for r in room.requests if r.user != user)
    seats = (*room.seats, SeatEntry(seat=entrant.seat, user=user, name=request.name))
    return noted(deps, user, commit_transition(deps, game, room.model_copy(update={"requests": rest}), tr, log,
                                               human_ms=log.at_ms, seats=seats))


def decline(deps: RoomDeps, caller: Caller, room_id: str, user: str) -> Room:
    """Turn down a request to join. Retrying is harmless (a request no longer there is declined), and a
    change that wins the room's write in between (a press, another request) makes it try again."""

    def once() -> Room:
        room = deps.rooms.get_room(room_id)
        _hosted(caller, room)
        if not any(r.user == user for r in room.requests):
            return room
        declined = room.model_copy(update={"requests": tuple(r for r in room.requests if r.user != user),
                                           "version": room.version + 1, "updated_ms": deps.clock.now_ms()})
        deps.rooms.save_room(declined, room.version)
        return declined

    return _until_written(once)
