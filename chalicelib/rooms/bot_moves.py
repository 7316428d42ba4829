"""What a bot at the table chooses: from its seat's projection only, with a generator derived from
the room's secret seed, its seat and the step (so a bot game replays exactly: its choices are logged
like anyone's). `autoplay` runs bots after a transition; `sealed_moves` lets the transition that opens
a sealed round carry the bots' moves for it, so the round is never seen with its bots still 候."""

from __future__ import annotations

import hashlib
from typing import Any

from chalicelib.core.game import AnyGame, BotLevel, Pending, PendingKind, Viewer
from chalicelib.core.rng import Rng
from chalicelib.domain.model import MoveRecord, MoveSource, Room
from chalicelib.observability import logger, metrics_count


def bot_rng(room: Room, seat: int) -> Rng:
    seed = hashlib.sha256((room.seed or b"") + b"|bot|" + seat.to_bytes(2, "big")).digest()
    return Rng(seed, room.step)


def decide(game: AnyGame, room: Room, state: object, seat: int, level: BotLevel) -> object | None:
    view = game.view(state, Viewer.player(seat))  # the bot sees what its seat may see, nothing more
    return game.bot_action(view, seat, level, bot_rng(room, seat))


def sealed_moves(game: AnyGame, room: Room, state: Any, pending: Pending | None, have: set[int],
                 now_ms: int) -> tuple[MoveRecord, ...]:
    """The bots' sealed moves for the round `room` (as it will be written) opens: every bot seat the
    round waits for and `have` holds no move for, unless its choice is refused or fails (then it
    moves later, through `autoplay`, after the round is written: a bot never blocks it)."""
    if pending is None or pending.kind is not PendingKind.SEALED:
        return ()
    out = []
    for seat, level in sorted(room.bot_seats.items()):
        if seat not in pending.seats or seat in have:
            continue
        try:
            action = decide(game, room, state, seat, level)
            if action is None:
                continue
            game.check(state, Viewer.player(seat), action)
        except Exception as e:  # noqa: BLE001 - a bot's trouble must never hold up the people's round
            logger.warning("bot could not decide", extra={"room": room.id, "seat": seat,
                                                          "error": getattr(e, "code", type(e).__name__)})
            metrics_count("BotErrors")
            continue
        out.append(MoveRecord(step=room.step, seat=seat, action=game.dump_action(action), by=MoveSource.BOT,
                              at_ms=now_ms))
    return tuple(out)
