"""What a viewer may read about a room. Everything leaving a room passes through `game.view` /
`game.report` for that viewer; raw state, logs and other seats' moves never do."""

from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass
from typing import Any

from chalicelib.core.errors import Conflict, DomainError, Forbidden, MalformedRequest, NotFound, StaleVersion
from chalicelib.core.game import AnyGame, PendingKind, Viewer, ViewerRole
from chalicelib.core.identity import Caller
from chalicelib.domain.model import LogKind, LogRecord, MoveRecord, Room, RoomStatus
from chalicelib.games import get_game
from chalicelib.observability import logger, metrics_count
from chalicelib.records.policy import board_name
from chalicelib.rooms import handover, report_cursor
from chalicelib.rooms.access import viewer_for
from chalicelib.rooms.again import SAME
from chalicelib.rooms.deps import RoomDeps
from chalicelib.rooms.engine import hides_steps, load_state, viewer_json
from chalicelib.rooms.play import run_timeout


@dataclass(frozen=True)
class RoomView:
    """A body that may be answered with 304 when the client already has it (`etag`), unless it is
    `fresh`: it carries new reports, which the view's tag does not cover."""

    body: dict[str, Any]
    etag: str
    fresh: bool = False


@dataclass(frozen=True)
class ReportsAsk:
    """The reports a view fetch asks to have folded in: those after `after` (or `cursor`)."""

    after: int
    cursor: str | None = None
    limit: int = 100


def _etag(body: dict[str, Any]) -> str:
    """A hash of exactly what this viewer receives (the clock aside): 304 means nothing she can see
    changed (a version counter would also change on steps she must not be able to count)."""
    text = json.dumps(body, ensure_ascii=False, sort_keys=True, separators=(",", ":"))
    return 'W/"' + hashlib.sha256(text.encode()).hexdigest()[:24] + '"'


def family_room(deps: RoomDeps, room_id: str, family: str) -> tuple[Room, AnyGame]:
    """The room and its game, if the game belongs to `family` (the per-game API's path).

    Raises:
        NotFound: ROOM_NOT_FOUND, or WRONG_FAMILY (the room is another game's).
    """
    room = deps.rooms.get_room(room_id)
    game = get_game(room.game)
    if game.family != family:
        raise NotFound(f"这个房间是{game.title}的房间，请用 /v1/games/{game.family}/… 访问", code="WRONG_FAMILY",
                       family=game.family)
    return room, game


def _board_of(room: Room) -> str | None:
    """The leaderboard this room's game and competition report to (None: the game keeps none)."""
    policy = get_game(room.game).records
    return board_name(policy, room.competition) if policy is not None else None


def room_summary(room: Room, caller: Caller, now_ms: int, *, hide_steps: bool = False,
                 host: bool = False, state: Any = None) -> dict[str, Any]:
    """`state`: the game's, when at hand (it tells of players gone by the game's own measure)."""
    return {
        "id": room.id,
        # to say aloud while friends may still come in; a finished room needs no inviting
        "code": room.code_at(now_ms) if room.status.live else None,
        "game": room.game,
        "title": room.title,
        "status": room.status.value,
        "version": None if hide_steps else room.version,
        "step": None if hide_steps else room.step,
        "competition": room.competition.value,
        "creator_name": room.creator_name,
        "is_creator": room.creator == caller.user_id,
        "hosted": room.host is not None,
        "seats": [{"seat": s.seat, "name": s.name, "consort": s.consort, "is_me": s.user == caller.user_id,
                   "bot": s.bot.value if s.bot else None} for s in room.seats],
        "max_seats": room.max_seats,
        "min_seats": room.min_seats,
        "has_password": room.has_password,
        "options": room.options,
        "seed_hash": room.seed_hash,
        # the seed is revealed only once nothing is left to play, so nobody can predict a draw
        "seed": room.seed.hex() if room.seed is not None and not room.status.live else None,
        "results": list(room.results),
        # who asks to join a running game: the host's to decide, nobody else's to see
        "requests": [r.model_dump() for r in room.requests] if host else None,
        # the host's 撤销, greyed with the reason when there is nothing it may take back
        "undo": {"disabled": room.undo_block} if host and room.host is not None and room.status is RoomStatus.ACTIVE else None,
        "handover": handover.vote_view(room, caller),
        "handover_offer": handover.offers(room, state, caller),
        "practice": room.practice,
        "board": _board_of(room),
        "again": [{"stage": None if choice == SAME else int(choice), "room_id": link.room, "by": link.by,
                   "by_me": link.user == caller.user_id} for choice, link in sorted(room.again.items())],
        "awaited": _awaited(room, caller),
        "leave": leave_effect(room, caller),
    }


def _awaited(room: Room, caller: Caller) -> list[str]:
    """A 再战 room before its start: who sat at the last table and has not come yet (her name there),
    but her: she is here, looking at it, even before she takes a seat."""
    if room.again_of is None or room.status is not RoomStatus.OPEN:
        return []
    return [p.name for p in room.again_of.people if not room.takes_part(p.user) and p.user != caller.user_id]


def leave_effect(room: Room, caller: Caller) -> dict[str, Any] | None:
    """What her 离席 would do, so the app can say it before she confirms (None: she cannot leave now)."""
    if room.status is not RoomStatus.OPEN or room.seat_of(caller.user_id) is None:
        return None
    if room.creator != caller.user_id or room.host is not None:
        return {"closes": False, "passes_to": None}
    heir = room.heir(caller.user_id)
    return {"closes": heir is None, "passes_to": heir.name if heir else None}


def _settle_if_overdue(deps: RoomDeps, room: Room) -> Room:
    """Settle-on-read: a poll that finds the deadline passed settles the round itself instead of
    waiting up to a minute for the scheduler (which would find nothing left to do). If settling
    fails, the read still answers, with the room as it stands: the scheduler owns the retry (and
    its alarm), and nobody should be locked out of a room by its deadline."""
    if room.pending is None or room.pending.deadline_ms is None:
        return room
    now = deps.clock.now_ms()
    if room.pending.deadline_ms > now:
        return room
    try:
        return run_timeout(deps, room, now) or deps.rooms.get_room(room.id)
    except StaleVersion:
        return deps.rooms.get_room(room.id)
    except Exception as e:  # noqa: BLE001 - a read must not fail because the deadline's work did
        metrics_count("SettleOnReadErrors")
        code = e.code if isinstance(e, DomainError) else type(e).__name__
        logger.exception("settle on read failed", extra={"room": room.id, "error": code})
        return room


def room_view(deps: RoomDeps, caller: Caller, room_id: str, family: str | None = None,
              reports: ReportsAsk | None = None) -> RoomView:
    """The caller's view of a room: with the game (the per-family route) or without (`family` None);
    with `reports`, her new reports too, so a phone told of a change makes one request, not two."""
    if family is None:
        return render_view(deps, caller, deps.rooms.get_room(room_id), with_game=False)
    room, _ = family_room(deps, room_id, family)
    return render_view(deps, caller, room, reports=reports)


def _pending(deps: RoomDeps, room: Room, viewer: Viewer, moves: dict[int, MoveRecord] | None) -> dict[str, Any] | None:
    if room.pending is None:
        return None
    pending: dict[str, Any] = {**room.pending.model_dump(mode="json"), "submitted": None, "my_move": None}
    if room.pending.kind is PendingKind.SEALED:
        if moves is None:
            moves = deps.rooms.list_moves(room.id, room.step)
        mine: MoveRecord | None = None
        if viewer.role is ViewerRole.PLAYER and viewer.seat is not None:
            mine = moves.get(viewer.seat)
        pending["submitted"] = sorted(s for s, m in moves.items() if m.by.submitted)
        pending["my_move"] = mine.action if mine is not None and mine.by.submitted else None
    return pending


def _view_body(deps: RoomDeps, caller: Caller, room: Room, viewer: Viewer, with_game: bool,
               moves: dict[int, MoveRecord] | None = None) -> dict[str, Any]:
    game = get_game(room.game)
    state = load_state(game, room) if with_game and room.state else None
    summary = room_summary(room, caller, deps.clock.now_ms(), hide_steps=hides_steps(game, viewer),
                           host=viewer.is_host, state=state)
    body: dict[str, Any] = {"room": summary,
                            "viewer": viewer_json(viewer), "pending": _pending(deps, room, viewer, moves)}
    if with_game:
        body["game"] = game.view(state, viewer).model_dump(mode="json") if state is not None else None
    return body


def render_view(deps: RoomDeps, caller: Caller, room: Room, *, with_game: bool = True,
                reports: ReportsAsk | None = None, settle: bool = True,
                moves: dict[int, MoveRecord] | None = None) -> RoomView:
    """The caller's view of a room already in hand (a lobby call returns it without reading again).
    A read settles an overdue round first (`settle`); an action's answer shows the room as the action
    left it, so a move does nothing more than move (the phone asks again at the deadline), with the
    round's `moves` it has just read.

    The ETag covers the view alone: folded-in reports are read after a cursor the phone moves on
    each answer, so a tag over them would change with no news. New reports make the answer `fresh`
    (200 whatever its tag); none, with the tag unchanged, is still a 304.

    Raises:
        MalformedRequest: BAD_CURSOR (`reports.cursor`).
    """
    viewer = viewer_for(deps, caller, room)
    if settle:
        room = _settle_if_overdue(deps, room)
    body = _view_body(deps, caller, room, viewer, with_game, moves)
    etag = _etag(body)
    fresh = False
    if reports is not None and with_game:
        body["reports"] = _reports_of(deps, caller, room, get_game(room.game), viewer, reports.after,
                                      reports.limit, reports.cursor)
        fresh = bool(body["reports"]["reports"])
    body["server_time"] = deps.clock.now_ms()
    return RoomView(body=body, etag=etag, fresh=fresh)


def view_tag(deps: RoomDeps, caller: Caller, room: Room) -> str:
    """The ETag `render_view` gives the caller for her whole view (with the game) of `room` as it
    stands, settling nothing: the push fan-out tells her of a change only when this differs.

    Raises:
        Forbidden: PASSWORD_REQUIRED (she may no longer view the room).
    """
    return _etag(_view_body(deps, caller, room, viewer_for(deps, caller, room), True))


def pushed_view(deps: RoomDeps, caller: Caller, room: Room) -> RoomView:
    """What `GET /v1/games/{family}/rooms/{id}` (no query) answers the caller for `room` as it stands,
    settling nothing: the body a room notice carries where the stage pushes views, with its ETag.

    Raises:
        Forbidden: PASSWORD_REQUIRED (she may no longer view the room).
    """
    body = _view_body(deps, caller, room, viewer_for(deps, caller, room), True)
    etag = _etag(body)
    body["server_time"] = deps.clock.now_ms()
    return RoomView(body=body, etag=etag)


def _report(game: AnyGame, state: Any, log: LogRecord, viewer: Viewer) -> list[dict[str, Any]]:
    return [line.model_dump(mode="json") for line in game.report(state, game.load_events(log.events), viewer)]


REPORT_PAGE = 25
"""Log entries per Query when reading forward from a sealed cursor."""


def _report_entry(log: LogRecord, step: int, lines: list[dict[str, Any]]) -> dict[str, Any]:
    return {"step": step, "label": log.label, "kind": log.kind.value,
            "trigger": log.trigger.value if log.trigger else None, "at_ms": log.at_ms, "lines": lines}


def reports(deps: RoomDeps, caller: Caller, room_id: str, family: str, after: int, limit: int,
            cursor: str | None = None) -> dict[str, Any]:
    """Battle reports (战报) of the transitions after `after` (or `cursor`), each projected for the caller.

    `after` is a step; in games that hide their steps it is the caller's own report count instead,
    and transitions with nothing for her are left out, so she cannot count them. `next_cursor` reads
    on from where this answer stopped with one Query bounded by it (for such a viewer it is sealed:
    see `report_cursor`); without it, a count other than 0 has to be found by reading the whole log.

    Raises:
        MalformedRequest: BAD_CURSOR.
    """
    room, game = family_room(deps, room_id, family)
    return _reports_of(deps, caller, room, game, viewer_for(deps, caller, room), after, limit, cursor)


def _newest_log(room: Room) -> int:
    """The step of the newest log entry the room can have: each is written with the transition that
    leaves its step (and the room's setup at step 0), so a phone already past it asks nothing."""
    return room.step - 1


_PLAIN_CURSOR = re.compile(r"-1|[0-9]{1,18}")


def _plain_cursor(cursor: str) -> int:
    """A step, as the `next_cursor` of a viewer who sees the steps (ASCII digits only: `int` would
    take "²" by `isdigit` and then fail)."""
    if not _PLAIN_CURSOR.fullmatch(cursor):
        raise MalformedRequest("战报游标无效，请从头读取", code="BAD_CURSOR")
    return int(cursor)


def check_reports_ask(room: Room, game: AnyGame, viewer: Viewer, user: str, ask: ReportsAsk | None) -> None:
    """Refuse the reports cursor an answer would be refused for, before an action is stored.

    Raises:
        MalformedRequest: BAD_CURSOR.
    """
    if ask is None or ask.cursor is None:
        return
    if not hides_steps(game, viewer):
        _plain_cursor(ask.cursor)
    elif room.seed is not None:
        report_cursor.open_cursor(room.seed, user, ask.cursor)


def _reports_of(deps: RoomDeps, caller: Caller, room: Room, game: AnyGame, viewer: Viewer, after: int, limit: int,
                cursor: str | None) -> dict[str, Any]:
    """`reports` for a room already read and its viewer already found."""
    hidden = hides_steps(game, viewer)
    if cursor is not None and not hidden:
        after = _plain_cursor(cursor)
    if room.state is None or room.seed is None:
        return {"reports": [], "next_after": after, "next_cursor": None if hidden else str(after)}
    state = load_state(game, room)
    if hidden and (cursor is not None or after == 0):
        step, count = report_cursor.open_cursor(room.seed, caller.user_id, cursor) if cursor else (-1, 0)
        return _hidden_reports(deps, game, state, room, caller, viewer, step, count, limit)
    if hidden:
        # a count without its cursor (an older client): where her `after`-th report is, only the whole log says
        logs = deps.rooms.list_log(room.id, -1, None)
        found: list[tuple[int, dict[str, Any]]] = []
        for log in logs:
            lines = _report(game, state, log, viewer)
            if lines:
                found.append((log.step, _report_entry(log, len(found) + 1, lines)))
        new = [(step, entry) for step, entry in found if entry["step"] > after][:limit]
        last, count = (new[-1][0], new[-1][1]["step"]) if new else (logs[-1].step if logs else -1, after)
        return {"reports": [entry for _, entry in new], "next_after": count,
                "next_cursor": report_cursor.seal(room.seed, caller.user_id, last, count)}
    out = [_report_entry(log, log.step, _report(game, state, log, viewer))
           for log in (deps.rooms.list_log(room.id, after, limit) if after < _newest_log(room) else ())]
    next_after = out[-1]["step"] if out else after
    return {"reports": out, "next_after": next_after, "next_cursor": str(next_after)}


def _hidden_reports(deps: RoomDeps, game: AnyGame, state: Any, room: Room, caller: Caller, viewer: Viewer,
                    step: int, count: int, limit: int) -> dict[str, Any]:
    """Her reports after a sealed cursor: Queries bounded below by its step, only as far as needed."""
    out: list[dict[str, Any]] = []
    page = min(100, max(limit, REPORT_PAGE))
    while len(out) < limit and step < _newest_log(room):
        logs = deps.rooms.list_log(room.id, step, page)
        for log in logs:
            step = log.step
            lines = _report(game, state, log, viewer)
            if lines:
                count += 1
                out.append(_report_entry(log, count, lines))
                if len(out) == limit:
                    break
        if len(logs) < page:
            break
    return {"reports": out, "next_after": count,
            "next_cursor": report_cursor.seal(room.seed or b"", caller.user_id, step, count)}


def results(deps: RoomDeps, caller: Caller, room_id: str, family: str) -> dict[str, Any]:
    room, _ = family_room(deps, room_id, family)
    viewer_for(deps, caller, room)
    return {"room_id": room.id, "status": room.status.value, "results": deps.rooms.list_results(room.id)}


def _log_entry(log: LogRecord) -> dict[str, Any]:
    setup = log.kind is LogKind.SETUP
    return {
        "step": log.step, "kind": log.kind.value, "label": log.label, "actor": log.actor,
        "action": None if setup else log.action, "moves": log.moves, "at_ms": log.at_ms,
        "trigger": log.trigger.value if log.trigger else None, "setup": log.action if setup else None,
        "ply": log.ply, "undoes": log.undoes,
    }


def replay(deps: RoomDeps, caller: Caller, room_id: str, family: str) -> dict[str, Any]:
    """Seed and complete action log, once the room is over: whoever may have it can recompute every
    draw. A game played with 妃子 carries each one's 宫女 (her private deck, kept from everyone else
    outside the game too): its replay is for those who sat at the table and the 司礼."""
    room, game = family_room(deps, room_id, family)
    viewer_for(deps, caller, room)
    if room.status.live or room.seed is None:
        raise Conflict("对局结束后才能复盘", code="NOT_FINISHED")
    if game.seats_consorts and room.seat_of(caller.user_id) is None and not caller.is_admin:
        raise Forbidden("这一局只有同桌的人与司礼可以复盘（妃子的宫女是她的暗牌）", code="REPLAY_TABLE_ONLY")
    return {
        "room_id": room.id,
        "game": room.game,
        "seed": room.seed.hex(),
        "seed_hash": room.seed_hash,
        "log": [_log_entry(log) for log in deps.rooms.list_log(room.id, -1, None)],
    }
