"""The scheduled sweeps. Each reads only due rooms through a sparse index, re-checks the room it
loaded, and writes conditionally on its version, so running twice (EventBridge delivers at least
once) or racing a player changes nothing the second time.

Rooms are isolated from each other: a room that fails (a rules error, a storage fault, a bug) is
logged with its id, counted in `SweepErrors`, tried again later, and never stops the others; the
function itself succeeds for the rest and reports the failures it met. The overdue sweep reads the
oldest deadlines first, so a room it failed on is parked (`PARK_MS`) behind the others: a hundred
broken rooms must not hold the batch and starve every healthy room behind them.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from chalicelib.core.errors import DomainError, StaleVersion
from chalicelib.core.game import Game, Viewer
from chalicelib.domain.model import IDLE_ACTIVE_S, IDLE_OPEN_S, Room, RoomStatus, Trigger
from chalicelib.games import get_game
from chalicelib.observability import logger, metrics_count
from chalicelib.rooms.deps import RoomDeps
from chalicelib.rooms.engine import load_state
from chalicelib.rooms.play import run_timeout
from chalicelib.rooms.transitions import apply_action

BATCH = 100
PARK_MS = 5 * 60 * 1000
"""How long the overdue sweep leaves a room it failed on before trying it again."""
RESERVE_MS = 3000
"""A sweep stops when its invocation has less time than this left: the next tick takes the rest
(a timeout would page on-call and retry nothing)."""


@dataclass(frozen=True)
class SweepReport:
    seen: int = 0
    changed: int = 0
    skipped: int = 0
    failed: tuple[str, ...] = field(default=())
    """Room ids that failed this time (retried next sweep)."""
    left: int = 0
    """Due rooms not reached before the invocation's time ran short (the next tick takes them)."""


def _sweep(deps: RoomDeps, name: str, ids: list[str], one: Callable[[Room, int], bool],
           park: Callable[[Room, int], None] | None = None, time_left: Callable[[], int] | None = None) -> SweepReport:
    now = deps.clock.now_ms()
    changed = skipped = 0
    failed: list[str] = []
    for done, room_id in enumerate(ids):
        if time_left is not None and time_left() < RESERVE_MS:
            metrics_count("SweepsCutShort")
            logger.warning(f"{name}: time short, the next tick takes the rest", extra={"left": len(ids) - done})
            return SweepReport(seen=done, changed=changed, skipped=skipped, failed=tuple(failed), left=len(ids) - done)
        room: Room | None = None
        try:
            room = deps.rooms.get_room(room_id)
            if one(room, now):
                changed += 1
            else:
                skipped += 1
        except StaleVersion:
            skipped += 1  # a player or 催战 got there first
        except Exception as e:  # noqa: BLE001 - one room must never stop the sweep for the others
            metrics_count("SweepErrors")
            code = e.code if isinstance(e, DomainError) else type(e).__name__
            logger.exception(f"{name}: room failed", extra={"room": room_id, "error": code})
            failed.append(room_id)
            if park is not None and room is not None:
                _park(park, room, now)
    if ids:
        logger.info(f"{name} sweep", extra={"seen": len(ids), "changed": changed, "skipped": skipped,
                                            "failed": len(failed)})
    return SweepReport(seen=len(ids), changed=changed, skipped=skipped, failed=tuple(failed))


def _park(park: Callable[[Room, int], None], room: Room, now: int) -> None:
    try:
        park(room, now + PARK_MS)
    except Exception:  # noqa: BLE001 - parking is best effort; the room is tried again next sweep anyway
        logger.exception("could not park a failing room", extra={"room": room.id})


def settle_overdue(deps: RoomDeps, time_left: Callable[[], int] | None = None) -> SweepReport:
    """Settle every sealed round (or time out every turn) whose deadline has passed, while the
    invocation has time (`time_left`: its remaining milliseconds)."""
    now = deps.clock.now_ms()
    return _sweep(deps, "overdue", deps.rooms.due_rooms(now, BATCH),
                  lambda room, at: run_timeout(deps, room, at) is not None,
                  park=lambda room, until: deps.rooms.defer_due(room.id, room.version, until), time_left=time_left)


def _expire(deps: RoomDeps, room: Room, now: int) -> bool:
    if room.status is RoomStatus.OPEN and room.active_ms + IDLE_OPEN_S * 1000 <= now:
        status = RoomStatus.EXPIRED
    elif room.status is RoomStatus.ACTIVE and room.active_ms + IDLE_ACTIVE_S * 1000 <= now:
        if _ended_by_the_game(deps, room):
            return True
        status = RoomStatus.ABANDONED
    else:
        return False
    closed = room.model_copy(update={
        "status": status, "version": room.version + 1, "pending": None, "updated_ms": now, "ended_ms": now,
    })
    deps.rooms.save_room(closed, room.version)
    metrics_count(f"Rooms.{status.value}")
    return True


def _ended_by_the_game(deps: RoomDeps, room: Room) -> bool:
    """An idle game whose end only waits on the host's word ends with it (血染 DECISIONS #12: 「确认结束」
    or the room's idle timer): applied as the host's action, with its result, instead of abandoned."""
    game = get_game(room.game)
    if type(game).on_abandon is Game.on_abandon:
        return False  # the game has no last word: nothing to load
    try:
        state = load_state(game, room)
        action = game.on_abandon(state)
        pending = game.pending(state)
        if action is None or pending is None:
            return False
        apply_action(deps, game, room, state, pending, Viewer.host(), action, Trigger.DEADLINE)
    except StaleVersion:
        raise  # someone acted at that moment: the room is not idle after all
    except Exception as e:  # noqa: BLE001 - a room whose end cannot be applied is still given up
        metrics_count("SweepErrors")
        logger.exception("expiry: the game's end could not be applied; abandoning the room",
                         extra={"room": room.id, "error": e.code if isinstance(e, DomainError) else type(e).__name__})
        return False
    metrics_count("Rooms.ended_idle")
    return True


def expire_stalled(deps: RoomDeps, time_left: Callable[[], int] | None = None) -> SweepReport:
    """Open rooms idle for 30 minutes expire; started rooms where no human acted for 6 hours are
    abandoned: results already written stand, the unfinished game or deal gets none, no records."""
    now = deps.clock.now_ms()
    return _sweep(deps, "expiry", deps.rooms.idle_rooms(now, BATCH), lambda room, at: _expire(deps, room, at),
                  time_left=time_left)
