"""The scheduled sweeps. Each reads only due rooms through a sparse index, re-checks the room it
loaded, and writes conditionally on its version, so running twice (EventBridge delivers at least
once) or racing a player changes nothing the second time."""

from __future__ import annotations

from dataclasses import dataclass

from chalicelib.core.errors import DomainError, StaleVersion
from chalicelib.domain.model import IDLE_ACTIVE_S, IDLE_OPEN_S, RoomStatus
from chalicelib.observability import logger, metrics_count
from chalicelib.rooms.deps import RoomDeps
from chalicelib.rooms.play import run_timeout

BATCH = 100


@dataclass(frozen=True)
class SweepReport:
    seen: int = 0
    changed: int = 0
    skipped: int = 0


def settle_overdue(deps: RoomDeps) -> SweepReport:
    """Settle every sealed round (or time out every turn) whose deadline has passed."""
    now = deps.clock.now_ms()
    ids = deps.rooms.due_rooms(now, BATCH)
    changed = skipped = 0
    for room_id in ids:
        try:
            room = deps.rooms.get_room(room_id)
            if run_timeout(deps, room, now) is None:
                skipped += 1
            else:
                changed += 1
        except StaleVersion:
            skipped += 1  # a player or 催战 got there first
        except DomainError as e:
            # a rules error here would repeat every minute: log it loudly for ops, keep sweeping
            metrics_count("SweepErrors")
            logger.error("overdue room could not be settled", extra={"room": room_id, "code": e.code})
            skipped += 1
    if ids:
        logger.info("overdue sweep", extra={"seen": len(ids), "changed": changed, "skipped": skipped})
    return SweepReport(seen=len(ids), changed=changed, skipped=skipped)


def expire_stalled(deps: RoomDeps) -> SweepReport:
    """Open rooms idle for 30 minutes expire; started rooms where no human acted for 6 hours are
    abandoned: results already written stand, the unfinished game or deal gets none, no records."""
    now = deps.clock.now_ms()
    ids = deps.rooms.idle_rooms(now, BATCH)
    changed = skipped = 0
    for room_id in ids:
        room = deps.rooms.get_room(room_id)
        if room.status is RoomStatus.OPEN and room.active_ms + IDLE_OPEN_S * 1000 <= now:
            status = RoomStatus.EXPIRED
        elif room.status is RoomStatus.ACTIVE and room.active_ms + IDLE_ACTIVE_S * 1000 <= now:
            status = RoomStatus.ABANDONED
        else:
            skipped += 1
            continue
        closed = room.model_copy(update={
            "status": status, "version": room.version + 1, "pending": None, "updated_ms": now, "ended_ms": now,
        })
        try:
            deps.rooms.save_room(closed, room.version)
            changed += 1
            metrics_count(f"Rooms.{status.value}")
        except StaleVersion:
            skipped += 1
    if ids:
        logger.info("expiry sweep", extra={"seen": len(ids), "changed": changed, "skipped": skipped})
    return SweepReport(seen=len(ids), changed=changed, skipped=skipped)
