"""The transitions every in-game path shares: apply one action, submit one sealed move, settle a
round (exactly once, whoever races), and commit it all in one version-guarded transaction.

Sealed rounds: each move is its own item, written once with `attribute_not_exists`, so players never
contend on the room item. Whoever sees the round complete (the last submitter, 催战, the scheduler,
a bot's move) settles it with one transaction guarded by the room version; that transaction also
writes a placeholder for every seat that has not submitted, so a move arriving after the round
closed fails instead of being silently lost, and the round settles exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chalicelib.core.errors import Conflict, DomainError, NotYourTurn, StaleVersion
from chalicelib.core.game import AnyGame, Pending, PendingKind, Transition, Viewer
from chalicelib.domain.model import (
    LogKind,
    LogRecord,
    MoveRecord,
    MoveSource,
    Room,
    RoomStatus,
    SeatEntry,
    Trigger,
)
from chalicelib.games import get_game
from chalicelib.observability import logger, metrics_count
from chalicelib.records.policy import side_writes
from chalicelib.rooms.bot_moves import sealed_moves
from chalicelib.rooms.deps import RoomDeps
from chalicelib.rooms.engine import dump_state, load_state, pending_info, viewer_json
from chalicelib.rooms.history import undo_block


def commit_transition(
    deps: RoomDeps, game: AnyGame, room: Room, tr: Transition[Any, Any], log: LogRecord,
    moves: tuple[MoveRecord, ...] = (), human_ms: int | None = None, ply: int | None = None,
    seats: tuple[SeatEntry, ...] | None = None, undo: str | None = None,
) -> Room:
    """Write one transition: new state, next step, pending and deadline, log, results, records, and
    the sealed-move items it closes or carries (see `settle_round`, `carried_moves`). The transition
    takes the room's next ply unless it says otherwise (an undo steps back to the undone one's);
    a late entrant's transition brings the new `seats`. A hosted room keeps why 撤销 cannot take this
    transition back (`Room.undo_block`); an undo says it of the one before the one it took back (`undo`)."""
    now = deps.clock.now_ms()
    if log.kind is not LogKind.UNDO:
        log = log.model_copy(update={"ply": room.next_ply})
    pending = game.pending(tr.state)
    finished = pending is None
    writes = [w for outcome in tr.results for w in side_writes(game, room, outcome, now)]
    new_room = room.model_copy(update={
        "state": dump_state(tr.state),
        "step": room.step + 1,
        "ply": room.next_ply + 1 if ply is None else ply,
        "seats": room.seats if seats is None else seats,
        "version": room.version + 1,
        "pending": pending_info(pending, now, room.pending),
        "status": RoomStatus.FINISHED if finished else RoomStatus.ACTIVE,
        "handover": None if finished else room.handover,
        "results": (*room.results, *(o.unit for o in tr.results)),
        "updated_ms": now,
        "active_ms": max(room.active_ms, human_ms) if human_ms else room.active_ms,
        "ended_ms": now if finished else None,
        "undo_block": None if room.host is None else undo if log.kind is LogKind.UNDO else undo_block(game, log, tr.state),
    })
    # the bots' moves for the sealed round this opens go in the same write: a phone told of the new
    # round must not see its bots still 候 (their moves, written after, are announced to nobody)
    have = {m.seat for m in moves if m.step == new_room.step}
    moves = (*moves, *sealed_moves(game, new_room, tr.state, pending, have, now))
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
    tr = game.settle(state, submitted, room.rng())
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
    new_room = commit_transition(deps, game, room.model_copy(update={"missed": missed_after(room, pending.seats, moves)}),
                                 tr, log, placeholders, human_ms=human)
    metrics_count(f"Settles.{trigger}")
    logger.info("round settled", extra={"room": room.id, "step": room.step, "trigger": trigger,
                                        "submitted": len(submitted), "defaulted": len(placeholders)})
    return new_room


def missed_after(room: Room, seats: frozenset[int], moves: dict[int, MoveRecord]) -> dict[str, int]:
    """`Room.missed` once the round the `seats` owed is settled with `moves`: one more for each seat
    that sent nothing (nor had a bot send for her); the others are left out (0), so a room whose players
    all play stores nothing (every write of the room item carries it). A seat the round did not wait
    for (深宫杀: her move voided) keeps her count: a round she could not play neither counts nor clears it."""
    kept = {key: n for key, n in room.missed.items() if int(key) not in seats}
    return kept | {str(seat): room.missed.get(str(seat), 0) + 1
                   for seat in sorted(seats) if not (seat in moves and moves[seat].by.submitted)}


def apply_action(deps: RoomDeps, game: AnyGame, room: Room, state: Any, pending: Pending, actor: Viewer,
                 action: Any, trigger: Trigger, acted: tuple[str, str] | None = None) -> Room:
    """Check and apply one turn or host action and commit it (closing a sealed round it interrupts).
    `acted`: (user, key digest) to remember for a player who sends no step (`Room.acted`)."""
    game.check(state, actor, action)
    tr = game.apply(state, actor, action, room.rng())
    now = deps.clock.now_ms()
    log = LogRecord(step=room.step, kind=LogKind.APPLY, label=pending.label, actor=viewer_json(actor),
                    action=game.dump_action(action), events=game.dump_events(tr.events), at_ms=now,
                    trigger=trigger)
    sealed = pending.kind is PendingKind.SEALED
    carried = carried_moves(deps, game, room, pending.seats, tr.state, now) if sealed else ()
    human = now if trigger in (Trigger.PLAYER, Trigger.HOST) else None
    if acted is not None:
        room = room.model_copy(update={"acted": {**room.acted, acted[0]: acted[1]}})
    after = commit_transition(deps, game, room, tr, log, carried, human_ms=human)
    return _settle_if_carried_complete(deps, after, carried, trigger)


def _settle_if_carried_complete(deps: RoomDeps, room: Room, carried: tuple[MoveRecord, ...],
                                trigger: Trigger) -> Room:
    """The moves an action carried into a new sealed round may already be all that round owes (three
    declarers had sealed, the fourth took 托管): nobody else would submit, so settle it now rather
    than at the deadline. (A round the carried moves and the bots' together complete is settled by
    the bots' run that follows, `autoplay`.) A settle still contended after its attempts is left to the deadline: the
    action itself is committed and must be answered as done."""
    pending = room.pending
    if pending is None or pending.kind is not PendingKind.SEALED or room.status is not RoomStatus.ACTIVE:
        return room
    moves = {m.seat: m for m in carried if m.step == room.step}
    if not moves or not set(pending.seats) <= moves.keys():
        return room
    try:
        return settle_now(deps, room, trigger, moves)[0]
    except StaleVersion:
        return room


def carried_moves(deps: RoomDeps, game: AnyGame, room: Room, old_seats: frozenset[int], new_state: Any,
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


@dataclass(frozen=True)
class Submitted:
    """What storing one sealed move did."""

    room: Room
    """The room afterwards (moved on if this call, or a racing one, settled the round)."""
    settled: bool
    """This call settled the round."""
    moves: dict[int, MoveRecord] | None = None
    """The round's moves as read just after this one was stored, when the round still waits for
    others: the answer's view shows them without reading them again."""


def submit_move(deps: RoomDeps, game: AnyGame, room: Room, state: Any, seats: frozenset[int], seat: int,
                action: Any, source: MoveSource = MoveSource.PLAYER) -> Submitted:
    """Store one sealed move for `seat` and settle the round if it was the last one owed.

    Raises:
        NotYourTurn: NOT_IN_ROUND; Conflict: ALREADY_SUBMITTED (another move is stored) or ROUND_CLOSED.
    """
    if seat not in seats:
        raise NotYourTurn("本回合你无需落子", code="NOT_IN_ROUND")
    game.check(state, Viewer.player(seat), action)
    move = MoveRecord(step=room.step, seat=seat, action=game.dump_action(action), by=source,
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
        return Submitted(room, False, moves)
    return Submitted(*settle_now(deps, room, Trigger.BOT if source is MoveSource.BOT else Trigger.PLAYER, moves))


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
