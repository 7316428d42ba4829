"""Bots (机器人) at the table: seats the platform plays through the same paths a player's phone does.

After every transition, `run_bots` lets each bot the game now waits for act: a sealed move per bot
seat that the round's opening did not already carry (`bot_moves.sealed_moves`), settling the round
once every seat is in, or a turn action, until a human must act (or a
bound is reached: the scheduler picks up the rest). A bot sees only its seat's projection —
`game.view(state, Viewer.player(seat))` — never the state; its choices are drawn from a generator
derived from the room's secret seed, its seat and the step, so a bot game replays exactly (its
actions are in the log like anyone's).
"""

from __future__ import annotations

import time

from chalicelib.core.errors import StaleVersion
from chalicelib.core.game import PendingKind, Viewer
from chalicelib.domain.model import MoveSource, Room, RoomStatus, Trigger
from chalicelib.games import get_game
from chalicelib.observability import logger, metrics_count
from chalicelib.rooms.bot_moves import decide
from chalicelib.rooms.deps import RoomDeps
from chalicelib.rooms.engine import load_state
from chalicelib.rooms.transitions import apply_action, settle_now, submit_move

MAX_BOT_STEPS = 400
"""Bot transitions one request may run: enough for a whole classic 保皇 deal of bots and a 托管 seat
(~110 plays; 40 left such a table standing at its turn clock, a bot's 30 s, every 40 plays)."""
BOT_RUN_S = 3.0
"""Wall time one request spends on bots at most; what is left waits for the next request or the
round's clock (a whole deal of bots takes well under this)."""


def _one_step(deps: RoomDeps, room: Room) -> Room | None:
    """Let the bots act once; the room afterwards, or None when no bot has anything to do. A sealed
    round that waits for no seat at all (深宫杀: every living seat's move voided) settles at once: no
    one would submit, and its clock would keep the table waiting for nothing."""
    bots = room.bot_seats
    if room.status is not RoomStatus.ACTIVE or room.pending is None:
        return None
    if room.pending.kind is PendingKind.SEALED and not room.pending.seats:
        return settle_now(deps, room, Trigger.AUTO)[0]
    if not bots:
        return None
    waiting = [s for s in room.pending.seats if s in bots]
    if not waiting or room.pending.kind is PendingKind.HOST:
        return None
    game = get_game(room.game)
    state = load_state(game, room)
    pending = game.pending(state)
    if pending is None:
        return None
    if pending.kind is PendingKind.SEALED:
        stored = deps.rooms.list_moves(room.id, room.step)
        if pending.seats <= {s for s, m in stored.items() if m.by.submitted}:
            # every seat the round waits for has moved (the bots' came with the round): settle it
            return settle_now(deps, room, Trigger.BOT, stored)[0]
        owed = [s for s in waiting if s not in stored]
        for seat in owed:
            action = decide(game, room, state, seat, bots[seat])
            if action is None:
                continue
            done = submit_move(deps, game, room, state, pending.seats, seat, action, MoveSource.BOT)
            metrics_count("BotMoves")
            if done.settled or done.room.step != room.step:
                return done.room
        return None  # the bots have moved; the humans have not
    seat = waiting[0]
    action = decide(game, room, state, seat, bots[seat])
    if action is None:
        return None
    metrics_count("BotMoves")
    return apply_action(deps, game, room, state, pending, Viewer.player(seat), action, Trigger.BOT)


def run_bots(deps: RoomDeps, room: Room) -> Room:
    """Let bots act until a human must (or MAX_BOT_STEPS); returns the latest room. Never raises for
    a bot's trouble: a race, a refused bot move or a bot that fails leaves the room as it is for the
    next request (or the round's clock)."""
    until = time.monotonic() + BOT_RUN_S
    for _ in range(MAX_BOT_STEPS):
        if time.monotonic() > until:
            metrics_count("BotRunsCut")
            return room
        try:
            after = _one_step(deps, room)
        except StaleVersion:
            room = deps.rooms.get_room(room.id)  # someone else moved the room on: look again
            continue
        except Exception as e:  # noqa: BLE001 - the people's change is written: a bot's trouble waits
            logger.warning("bot could not act", extra={"room": room.id,
                                                       "code": getattr(e, "code", type(e).__name__)})
            metrics_count("BotErrors")
            return room
        if after is None:
            return room
        room = after
    return room
