"""During the game: submit a move (落子), act, 催战, settle and time out.

Sealed rounds: each move is its own item, written once with `attribute_not_exists`, so players never
contend on the room item. Whoever sees the round complete (the last submitter, 催战, the scheduler)
settles it with one transaction guarded by the room version; that transaction also writes a
placeholder for every seat that has not submitted, so a move arriving after the round closed fails
instead of being silently lost, and the round settles exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chalicelib.core.errors import (
    Conflict,
    DomainError,
    Forbidden,
    GameOver,
    NotFound,
    NotYourTurn,
    StaleVersion,
    ValidationFailed,
)
from chalicelib.core.game import AnyGame, PendingKind, Transition, Viewer, ViewerRole
from chalicelib.core.identity import Caller
from chalicelib.core.rng import Rng
from chalicelib.domain.model import LogKind, LogRecord, MoveRecord, MoveSource, Room, RoomStatus, Trigger
from chalicelib.games import get_game
from chalicelib.observability import logger, metrics_count
from chalicelib.records.policy import side_writes
from chalicelib.rooms.access import actor_for
from chalicelib.rooms.deps import RoomDeps
from chalicelib.rooms.engine import dump_state, hides_steps, load_state, parse_action, pending_info, viewer_json


@dataclass(frozen=True)
class ActOutcome:
    room: Room
    settled: bool
    """True when this request applied a transition (a turn action, or the round it completed)."""
    step: int
    """The step the action belongs to (an old step when a retry found it already recorded)."""


def _require_active(room: Room) -> None:
    if room.status is RoomStatus.ACTIVE:
        return
    if room.status is RoomStatus.OPEN:
        raise Conflict("游戏尚未开始", code="NOT_STARTED")
    raise GameOver()


def commit_transition(
    deps: RoomDeps, game: AnyGame, room: Room, tr: Transition[Any, Any], log: LogRecord,
    moves: tuple[MoveRecord, ...] = (), human_ms: int | None = None,
) -> Room:
    """Write one transition: new state, next step, pending and deadline, log, results, records, and
    the sealed-move items it closes or carries (see `settle_round`, `_carried_moves`)."""
    now = deps.clock.now_ms()
    pending = game.pending(tr.state)
    finished = pending is None
    writes = [w for outcome in tr.results for w in side_writes(game, room, outcome, now)]
    new_room = room.model_copy(update={
        "state": dump_state(tr.state),
        "step": room.step + 1,
        "version": room.version + 1,
        "pending": pending_info(pending, now),
        "status": RoomStatus.FINISHED if finished else RoomStatus.ACTIVE,
        "results": (*room.results, *(o.unit for o in tr.results)),
        "updated_ms": now,
        "active_ms": max(room.active_ms, human_ms) if human_ms else room.active_ms,
        "ended_ms": now if finished else None,
    })
    deps.rooms.commit(new_room, room.version, log, moves, writes)
    metrics_count("Transitions")
    if finished:
        metrics_count("GamesFinished")
    return new_room


def settle_round(deps: RoomDeps, room: Room, moves: dict[int, MoveRecord] | None, trigger: Trigger) -> Room:
    """Resolve the current sealed round with the moves stored for it (missing seats: the game's default).

    Raises:
        StaleVersion: someone else settled (or a late move landed) first; the caller re-reads.
    """
    game = get_game(room.game)
    state = load_state(game, room)
    pending = game.pending(state)
    if pending is None or pending.kind is not PendingKind.SEALED:
        raise Conflict("当前不是落子阶段", code="NOT_SEALED_PHASE")
    if moves is None:
        moves = deps.rooms.list_moves(room.id, room.step)
    submitted = {
        seat: game.parse_action(m.action)
        for seat, m in moves.items()
        if m.by.submitted and m.action is not None and seat in pending.seats
    }
    tr = game.settle(state, submitted, Rng(room.seed or b"", room.step))
    now = deps.clock.now_ms()
    placeholders = tuple(
        MoveRecord(step=room.step, seat=seat, action=None, by=MoveSource.DEFAULT, at_ms=now)
        for seat in sorted(pending.seats - moves.keys())
    )
    log = LogRecord(
        step=room.step, kind=LogKind.SETTLE, label=pending.label, trigger=trigger, at_ms=now,
        moves={str(seat): game.dump_action(a) for seat, a in sorted(submitted.items())},
        events=game.dump_events(tr.events),
    )
    human = max((m.at_ms for m in moves.values() if m.by is MoveSource.PLAYER), default=None)
    if trigger is Trigger.HURRY:
        human = now
    new_room = commit_transition(deps, game, room, tr, log, placeholders, human_ms=human)
    metrics_count(f"Settles.{trigger}")
    logger.info("round settled", extra={"room": room.id, "step": room.step, "trigger": trigger,
                                        "submitted": len(submitted), "defaulted": len(placeholders)})
    return new_room


def _step_details(game: AnyGame, actor: Viewer, room: Room) -> dict[str, Any]:
    """Where the room is now, for a client that is behind, unless the step count is secret to her."""
    return {} if hides_steps(game, actor) else {"current_step": room.step}


def _retried(deps: RoomDeps, game: AnyGame, room: Room, actor: Viewer, step: int, action: Any) -> ActOutcome:
    """A request for an earlier step: fine if it is the very action already recorded (a phone retry)."""
    wanted = game.dump_action(action)
    log = deps.rooms.get_log(room.id, step) if 0 < step < room.step else None
    if log is not None:
        mine_sealed = log.kind is LogKind.SETTLE and (log.moves or {}).get(str(actor.seat)) == wanted
        mine_applied = log.kind is LogKind.APPLY and log.actor == viewer_json(actor) and log.action == wanted
        if (mine_sealed and actor.role is ViewerRole.PLAYER) or mine_applied:
            return ActOutcome(room=room, settled=False, step=step)
    raise Conflict("这一步已经过去了，请刷新", code="STALE_STEP", **_step_details(game, actor, room))


def act(deps: RoomDeps, caller: Caller, room_id: str, step: int | None, raw_action: Any,
        family: str | None = None) -> ActOutcome:
    """One action (or sealed move) by the caller for `step` (None: the current step, only where the
    step count is hidden from her).

    Raises:
        Conflict: STEP_AHEAD / STALE_STEP / NOT_STARTED / GAME_OVER …; ValidationFailed: BAD_ACTION.
    """
    room = deps.rooms.get_room(room_id)
    game = get_game(room.game)
    if family is not None and game.family != family:
        raise NotFound(f"这个房间是{game.title}的房间", code="WRONG_FAMILY", family=game.family)
    actor = actor_for(caller, room)
    _require_active(room)
    action = parse_action(game, raw_action)
    if step is None:
        if not hides_steps(game, actor):
            raise ValidationFailed("请带上房间当前的 step", code="VALIDATION_FAILED",
                                   errors=[{"loc": ["step"], "type": "missing", "msg": "Field required"}])
        step = room.step
    if step > room.step:
        raise Conflict("房间还没到这一步，请刷新", code="STEP_AHEAD", **_step_details(game, actor, room))
    if step < room.step:
        return _retried(deps, game, room, actor, step, action)
    state = load_state(game, room)
    pending = game.pending(state)
    if pending is None:
        raise GameOver()
    sealed = pending.kind is PendingKind.SEALED
    if sealed and actor.role is ViewerRole.PLAYER and not game.immediate(state, actor, action):
        return _submit_sealed(deps, game, room, state, pending.seats, actor, action)
    game.check(state, actor, action)
    tr = game.apply(state, actor, action, Rng(room.seed or b"", room.step))
    now = deps.clock.now_ms()
    log = LogRecord(step=room.step, kind=LogKind.APPLY, label=pending.label, actor=viewer_json(actor),
                    action=game.dump_action(action), events=game.dump_events(tr.events), at_ms=now,
                    trigger=Trigger.HOST if actor.is_host else Trigger.PLAYER)
    carried = _carried_moves(deps, game, room, pending.seats, tr.state, now) if sealed else ()
    return ActOutcome(room=commit_transition(deps, game, room, tr, log, carried, human_ms=now), settled=True,
                      step=room.step)


def _carried_moves(deps: RoomDeps, game: AnyGame, room: Room, old_seats: frozenset[int], new_state: Any,
                   now_ms: int) -> tuple[MoveRecord, ...]:
    """When an immediate action interrupts a sealed round, the moves already sealed stay sealed: they
    move to the new step if their seat still owes one and they are still legal. The old round is
    closed with placeholders, as a settlement would, so a move racing this transition is refused
    (or makes this transition retry) instead of being lost."""
    moves = deps.rooms.list_moves(room.id, room.step)
    out = [MoveRecord(step=room.step, seat=seat, action=None, by=MoveSource.DEFAULT, at_ms=now_ms)
           for seat in sorted(old_seats - moves.keys())]
    pending = game.pending(new_state)
    if pending is None or pending.kind is not PendingKind.SEALED:
        return tuple(out)
    for seat, move in sorted(moves.items()):
        if not move.by.submitted or move.action is None or seat not in pending.seats:
            continue
        try:
            game.check(new_state, Viewer.player(seat), game.parse_action(move.action))
        except DomainError:
            continue
        out.append(move.model_copy(update={"step": room.step + 1, "at_ms": now_ms}))
    return tuple(out)


def _submit_sealed(deps: RoomDeps, game: AnyGame, room: Room, state: Any, seats: frozenset[int], actor: Viewer,
                   action: Any) -> ActOutcome:
    assert actor.seat is not None
    if actor.seat not in seats:
        raise NotYourTurn("本回合你无需落子", code="NOT_IN_ROUND")
    game.check(state, actor, action)
    move = MoveRecord(step=room.step, seat=actor.seat, action=game.dump_action(action), by=MoveSource.PLAYER,
                      at_ms=deps.clock.now_ms())
    existing = deps.rooms.put_move(room.id, move)
    if existing is not None:
        if existing.by.submitted and existing.action != move.action:
            raise Conflict("本回合已经落子，不能更改", code="ALREADY_SUBMITTED")
        if not existing.by.submitted:
            raise Conflict("本回合已结算", code="ROUND_CLOSED")
        # the same move, retried: the first attempt may have failed while settling, so go on as it would
    else:
        metrics_count("MovesSubmitted")
    moves = deps.rooms.list_moves(room.id, room.step)
    if not seats <= moves.keys():
        return ActOutcome(room=room, settled=False, step=room.step)
    settled, mine = settle_now(deps, room, Trigger.PLAYER, moves)
    return ActOutcome(room=settled, settled=mine, step=room.step)


SETTLE_ATTEMPTS = 5


def settle_now(deps: RoomDeps, room: Room, trigger: Trigger,
               moves: dict[int, MoveRecord] | None = None) -> tuple[Room, bool]:
    """Settle the room's current round, whoever else is racing to: a lost race means someone settled
    it (done), a move landed just before our placeholders, or the transaction met a transient
    conflict (both: settle again, with what is stored now). Returns the room after the round and
    whether this call was the one that settled it.

    Raises:
        StaleVersion: still contended after SETTLE_ATTEMPTS (the client retries; nothing was written).
    """
    step = room.step
    for _ in range(SETTLE_ATTEMPTS):
        try:
            return settle_round(deps, room, moves, trigger=trigger), True
        except StaleVersion:
            metrics_count("Retries")
            moves = None
            room = deps.rooms.get_room(room.id)
            if room.step != step or room.status is not RoomStatus.ACTIVE:
                return room, False
    raise StaleVersion()


def hurry(deps: RoomDeps, caller: Caller, room_id: str, step: int) -> Room:
    """催战: the creator settles the round now; seats that have not submitted act as the default (待机)."""
    room = deps.rooms.get_room(room_id)
    if caller.user_id != room.creator and not caller.is_admin and room.host != caller.user_id:
        raise Forbidden("只有开房者可以催战", code="NOT_CREATOR")
    _require_active(room)
    if not get_game(room.game).allows_hurry:
        raise Conflict("这个玩法不能催战，到时自动托管", code="HURRY_NOT_ALLOWED")
    if step < room.step:
        return room  # already settled: a retried 催战
    if step > room.step:
        raise Conflict("房间还没到这一步，请刷新", code="STEP_AHEAD", current_step=room.step)
    return settle_now(deps, room, trigger=Trigger.HURRY)[0]


def run_timeout(deps: RoomDeps, room: Room, now_ms: int) -> Room | None:
    """The scheduler's action for one room whose deadline has passed: settle, or the game's on_timeout.
    None when there was nothing to do (not due, or someone else settled it first).

    Raises:
        StaleVersion: a turn game's room changed under us (the next sweep looks again).
    """
    if room.status is not RoomStatus.ACTIVE or room.pending is None:
        return None
    deadline = room.pending.deadline_ms
    if deadline is None or deadline > now_ms:
        return None
    if room.pending.kind is PendingKind.SEALED:
        settled, mine = settle_now(deps, room, trigger=Trigger.DEADLINE)
        return settled if mine else None
    game = get_game(room.game)
    state = load_state(game, room)
    tr = game.on_timeout(state, Rng(room.seed or b"", room.step))
    log = LogRecord(step=room.step, kind=LogKind.TIMEOUT, label=room.pending.label, trigger=Trigger.DEADLINE,
                    events=game.dump_events(tr.events), at_ms=deps.clock.now_ms())
    new_room = commit_transition(deps, game, room, tr, log)
    metrics_count("Timeouts")
    return new_room
