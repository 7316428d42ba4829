"""A random storyteller: drives seeded games with legal-looking host actions (for soak and leak tests)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

from chalicelib.core.errors import DomainError
from chalicelib.core.game import Entrant, Transition
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import DEALT, ROLES
from chalicelib.games.zhenhuan.state import GameState, Phase, StatusKind, ZhenhuanOptions

from .helpers import HOST

MAX_ACTIONS = 220


def _candidates(state: GameState, r: random.Random) -> Iterator[dict[str, Any]]:
    n = len(state.seats)
    seats = range(n)
    living = [s.seat for s in state.seats if s.alive]
    if state.phase is Phase.SETUP:
        if r.random() < 0.15:
            yield {"type": "reroll"}
        if r.random() < 0.2:
            yield {"type": "assign", "seat": r.choice(seats), "role": r.choice(DEALT)}
        for s in state.seats:
            if s.role == "traveller" and s.traveller_identity == "旅行者":
                yield {
                    "type": "set_traveller",
                    "seat": s.seat,
                    "identity": f"旅人{s.seat + 1}",
                    "alignment": r.choice(["good", "evil"]),
                    "female": r.random() < 0.5,
                }
        yield {"type": "begin"}
        yield {"type": "reroll"}
        return
    x = r.random()
    if x < 0.03:
        yield {"type": "kill", "seat": r.choice(living or [0])}
    elif x < 0.05:
        yield {
            "type": "set_status",
            "seat": r.choice(seats),
            "status": r.choice(list(StatusKind)),
            "until": r.choice(["dusk", "dawn", "never"]),
        }
    elif x < 0.06:
        yield {"type": "set_alive", "seat": r.choice(seats), "alive": r.random() < 0.5}
    elif x < 0.065:
        yield {
            "type": "set_role",
            "seat": r.choice(seats),
            "role": r.choice([k for k in ROLES if k != "traveller"]),
        }
    elif x < 0.07:
        yield {"type": "set_alignment", "seat": r.choice(seats), "alignment": r.choice(["good", "evil"])}
    elif x < 0.075:
        yield {"type": "clear_status", "seat": r.choice(seats), "status": r.choice(list(StatusKind))}
    if state.phase is Phase.NIGHT:
        yield from _night(state, r)
    else:
        yield from _day(state, r)


def _night(state: GameState, r: random.Random) -> Iterator[dict[str, Any]]:
    grim = GAME.view(state, HOST).grimoire
    assert grim is not None and grim.night is not None
    cur = grim.night.current
    if cur is None or r.random() < 0.01:
        yield {"type": "dawn"}
        return
    if cur.disabled is not None or r.random() < 0.08:
        yield {"type": "night_step", "step": cur.key, "skip": cur.disabled is None}
        return
    for _ in range(3):
        targets = [
            None if (sl.optional and r.random() < 0.3) or not sl.allowed else r.choice(sl.allowed)
            for sl in cur.slots
        ]
        action: dict[str, Any] = {"type": "night_step", "step": cur.key, "targets": targets}
        if cur.answer_kind and r.random() < 0.3:
            action["answer"] = _answer(cur.answer_kind, len(state.seats), r)
        yield action
    yield {"type": "night_step", "step": cur.key, "skip": True}


def _answer(kind: str, n: int, r: random.Random) -> Any:
    if kind in ("yesno", "success"):
        return r.random() < 0.5
    if kind == "number":
        return r.randrange(0, 6)
    if kind == "seats":
        return r.sample(range(n), r.randrange(0, 3))
    return {"seat": r.randrange(n), "role": r.choice(DEALT)}


def _day(state: GameState, r: random.Random) -> Iterator[dict[str, Any]]:
    day = state.day
    assert day is not None
    n = len(state.seats)
    living = [s.seat for s in state.seats if s.alive]
    voters = [s.seat for s in state.seats if s.alive or s.ghost_vote]
    holders = {s.role: s.seat for s in state.seats if s.alive}
    if r.random() < 0.25 and "qiguiren" in holders:
        yield {"type": "accuse", "by": holders["qiguiren"], "target": r.randrange(n), "role": r.choice(DEALT)}
    if r.random() < 0.25 and "qifei" in holders:
        yield {"type": "silence", "by": holders["qifei"], "target": r.choice(living)}
    if r.random() < 0.25 and "dunqinwang" in holders:
        yield {"type": "toast", "by": holders["dunqinwang"], "target": r.choice(living)}
    if r.random() < 0.1:
        yield {"type": "drunk", "seat": r.randrange(n)}
    if r.random() < 0.3 and "taihou" in holders and day.nominations:
        yield {
            "type": "force_execution",
            "by": holders["taihou"],
            "nominee": r.choice(day.nominations).nominee,
        }
    if day.proposals and r.random() < 0.5:
        yield {"type": "execute", "seat": day.proposals[-1].seat}
    if day.nominations and day.nominations[-1].voters is None:
        yield {"type": "vote", "votes": r.sample(voters, r.randrange(0, len(voters) + 1))}
    if r.random() < 0.15 * (1 + len(day.nominations)):
        yield {"type": "dusk", "execute_block": r.random() < 0.9}
    yield {"type": "nominate", "nominator": r.choice(living or [0]), "nominee": r.randrange(n)}
    if r.random() < 0.05:
        yield {"type": "execute", "seat": r.randrange(n)}
    yield {"type": "dusk"}


def play(seed: int, players: int | None = None) -> Iterator[tuple[GameState, Transition | None]]:
    """Yield (state, transition that produced it) for one seeded random game, to the end."""
    r = random.Random(seed)
    n = players or r.randint(5, 20)
    options = ZhenhuanOptions(mass_drunk_scope=r.choice(["all", "good"]), auto_end=r.random() < 0.9)
    state = GAME.setup([Entrant(i, f"玩家{i + 1}") for i in range(n)], options, Rng.from_int(seed))
    yield state, None
    for count in range(MAX_ACTIONS):
        if GAME.pending(state) is None:
            return
        if count == MAX_ACTIONS - 1 or (state.phase is not Phase.SETUP and r.random() < 0.002):
            candidates: Iterator[dict[str, Any]] = iter(
                [{"type": "declare_winner", "winner": r.choice(["good", "evil"])}]
            )
        else:
            candidates = _candidates(state, r)
        for raw in candidates:
            action = GAME.action_adapter.validate_python(raw)
            try:
                GAME.check(state, HOST, action)
            except DomainError:
                continue
            t = GAME.apply(state, HOST, action, Rng.from_int(seed, count + 1))
            state = t.state
            yield state, t
            break
