"""A room's effective history and the one fold that turns it into the game state.

The log keeps every transition, including the host's 撤销 (UNDO entries, each naming the step it
took back). The effective history is the log without the undone transitions and without the UNDO
entries themselves; folding it from the setup with each transition's own generator
(`Rng(seed, ply)`) gives the current state — that is how an undo is made (never by reversing state
by hand), and how anyone recomputes a finished game from its published seed.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from chalicelib.core.game import AnyGame, Entrant, Persona, ViewerRole
from chalicelib.core.rng import Rng
from chalicelib.domain.model import LogKind, LogRecord
from chalicelib.rooms.engine import viewer_from_json


def entrant_json(e: Entrant) -> dict[str, Any]:
    out = {"seat": e.seat, "name": e.name, "persona": e.persona.to_json() if e.persona else None}
    return {**out, "bot": True} if e.bot else out  # (games set up before bots were told keep their logs)


def entrant_from_json(raw: dict[str, Any]) -> Entrant:
    p = raw.get("persona")
    return Entrant(seat=int(raw["seat"]), name=str(raw["name"]), persona=Persona.from_json(p) if p else None,
                   bot=bool(raw.get("bot", False)))


def effective(logs: Sequence[LogRecord]) -> list[LogRecord]:
    """The transitions that stand, in order."""
    kept: dict[int, LogRecord] = {}
    for log in sorted(logs, key=lambda entry: entry.step):
        if log.kind is LogKind.UNDO:
            if log.undoes is not None:
                kept.pop(log.undoes, None)
        else:
            kept[log.step] = log
    return [kept[step] for step in sorted(kept)]


def replay_one(game: AnyGame, state: Any, log: LogRecord, seed: bytes) -> Any:
    """The state after one logged transition."""
    rng = Rng(seed, log.step if log.ply is None else log.ply)
    if log.kind is LogKind.SETTLE:
        moves = {int(seat): game.parse_action(a) for seat, a in (log.moves or {}).items()}
        return game.settle(state, moves, rng).state
    if log.kind is LogKind.APPLY:
        assert log.actor is not None and log.action is not None
        return game.apply(state, viewer_from_json(log.actor), game.parse_action(log.action), rng).state
    if log.kind is LogKind.TIMEOUT:
        return game.on_timeout(state, rng).state
    if log.kind is LogKind.ADMIT:
        assert log.action is not None and game.admit_model is not None
        entrant = entrant_from_json(log.action["entrant"])
        return game.admit(state, entrant, game.admit_model.model_validate(log.action["details"]), rng).state
    raise ValueError(f"cannot replay a {log.kind} entry")


def fold(game: AnyGame, seed: bytes, logs: Sequence[LogRecord]) -> Any:
    """The state after the effective history of `logs` (which start with the setup, step 0).

    Raises:
        ValueError: the log does not start with its setup.
    """
    history = effective(logs)
    if not history or history[0].kind is not LogKind.SETUP or history[0].action is None:
        raise ValueError("a history starts with its setup")
    setup = history[0].action
    entrants = [entrant_from_json(e) for e in setup["entrants"]]
    state = game.setup(entrants, game.parse_options(setup["options"]), Rng(seed, 0))
    for log in history[1:]:
        state = replay_one(game, state, log, seed)
    return state


NOTHING_YET = "还没有可以撤销的操作"
_NOT_A_PRESS = {
    LogKind.SETTLE: "上一步是回合结算，撤销只收回说书人的操作",
    LogKind.TIMEOUT: "上一步是计时到点，撤销只收回说书人的操作",
    LogKind.ADMIT: "上一步是旅行者入座，撤销只收回说书人的操作",
}


def undo_block(game: AnyGame, last: LogRecord | None, state: Any) -> str | None:
    """Why the host's 撤销 cannot take back `last`, the last transition that stands, which left
    `state` (None: it can). What the room keeps (`Room.undo_block`) so the host's view can grey 撤销
    with the reason, and what `host.undo` refuses with (NOTHING_TO_UNDO): one answer for both."""
    if last is None or last.kind is LogKind.SETUP:
        return NOTHING_YET
    if last.kind is not LogKind.APPLY or last.actor is None or last.action is None:
        return _NOT_A_PRESS.get(last.kind, "上一步不是说书人的操作")
    actor = viewer_from_json(last.actor)
    if actor.role is not ViewerRole.HOST:
        return "上一步是玩家自己的操作，撤销只收回说书人的操作"
    if not game.undoable(state, actor, game.parse_action(last.action)):
        return "上一步不能撤销"
    return None
