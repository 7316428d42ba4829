"""A random storyteller and table: seeded games with legal-looking actions from the storyteller and
from the players' phones, vote clocks that run out, travellers who come and go, tells, reminders and
notes. Each game keeps its log like the platform does (setup, then every transition with its position),
so tests can replay it (undo) and check every projection (leaks)."""

from __future__ import annotations

import random
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from chalicelib.core.errors import DomainError
from chalicelib.core.game import Entrant, Transition, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.actions import TravellerDetails
from chalicelib.games.zhenhuan.enums import StatusKind, TellCard
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import DEALT, GOOD_ROLES, ROLES, TRAVELLER
from chalicelib.games.zhenhuan.state import GameState, Phase, ZhenhuanOptions

from .helpers import HOST

MAX_STEPS = 260


@dataclass(frozen=True)
class Entry:
    """One transition of the log: an action (with its actor), a clock running out, or a traveller joining."""

    kind: str  # "apply" | "timeout" | "admit"
    actor: Viewer = HOST
    action: Any = None
    entrant: Entrant | None = None


@dataclass
class Game:
    seed: int
    players: int
    entries: list[Entry] = field(default_factory=list)
    states: list[GameState] = field(default_factory=list)
    transitions: list[Transition] = field(default_factory=list)


def initial(seed: int, players: int) -> GameState:
    entrants = [Entrant(i, f"玩家{i + 1}") for i in range(players)]
    return GAME.setup(entrants, ZhenhuanOptions(), Rng.from_int(seed))


def apply_entry(state: GameState, entry: Entry, rng: Rng) -> Transition:
    """What the platform does with one log entry (the Rng comes from the seed and the position)."""
    if entry.kind == "timeout":
        return GAME.on_timeout(state, rng)
    if entry.kind == "admit":
        assert entry.entrant is not None
        return GAME.admit(state, entry.entrant, entry.action, rng)
    return GAME.apply(state, entry.actor, entry.action, rng)


def replay(seed: int, players: int, entries: list[Entry]) -> GameState:
    state = initial(seed, players)
    for position, entry in enumerate(entries, start=1):
        state = apply_entry(state, entry, Rng.from_int(seed, position)).state
    return state


def _host(raw: dict[str, Any]) -> Entry:
    return Entry("apply", HOST, GAME.action_adapter.validate_python(raw))


def _player(seat: int, raw: dict[str, Any]) -> Entry:
    return Entry("apply", Viewer.player(seat), GAME.action_adapter.validate_python(raw))


def _tools(state: GameState, r: random.Random) -> Iterator[Entry]:
    n = len(state.seats)
    present = [s.seat for s in state.seats if not s.departed]
    x = r.random()
    if x < 0.02:
        card = r.choice(list(TellCard))
        yield _host({
            "type": "tell", "seat": r.choice(present), "card": card, "text": "看好你的左右",
            "roles": r.sample(GOOD_ROLES, 1 if card in (TellCard.ROLE, TellCard.SEAT_ROLE) else 3),
            "seats": r.sample(range(n), 1), "alignment": r.choice(["good", "evil"]),
        })  # fmt: skip
    elif x < 0.035:
        yield _host({"type": "add_reminder", "seat": r.randrange(n), "token": "私聊", "role": "taishanghuang"})
    elif x < 0.045 and state.reminders:
        yield _host({"type": "remove_reminder", "id": r.choice(state.reminders).id})
    elif x < 0.055:
        yield _host({"type": "set_note", "seat": r.randrange(n), "text": r.choice(["像是坏人", ""])})
    elif x < 0.06:
        travellers = [s.seat for s in state.seats if s.role == TRAVELLER and not s.departed]
        if travellers:
            yield _host({"type": "depart", "seat": r.choice(travellers)})


def _overrides(state: GameState, r: random.Random) -> Iterator[Entry]:
    n = len(state.seats)
    living = [s.seat for s in state.seats if s.alive] or [0]
    x = r.random()
    if state.unannounced_revivals and r.random() < 0.2:
        # she takes tonight's revival back with a death (the board must not move before dawn)
        yield _host({"type": "kill", "seat": r.choice(state.unannounced_revivals)})
    if x < 0.03:
        yield _host({"type": "kill", "seat": r.choice(living)})
    elif x < 0.05:
        yield _host({"type": "set_status", "seat": r.randrange(n), "status": r.choice(list(StatusKind)),
                     "until": r.choice(["dusk", "dawn", "never"])})
    elif x < 0.06:
        alive = r.random() < 0.5
        pool = [s.seat for s in state.seats if s.alive is not alive and not s.departed]
        if pool:
            yield _host({"type": "set_alive", "seat": r.choice(pool), "alive": alive})
    elif x < 0.065:
        yield _host({"type": "set_role", "seat": r.randrange(n), "role": r.choice([k for k in ROLES if k != TRAVELLER])})
    elif x < 0.07:
        yield _host({"type": "set_alignment", "seat": r.randrange(n), "alignment": r.choice(["good", "evil"])})
    elif x < 0.075:
        yield _host({"type": "clear_status", "seat": r.randrange(n), "status": r.choice(list(StatusKind))})


def _setup(state: GameState, r: random.Random) -> Iterator[Entry]:
    n = len(state.seats)
    if r.random() < 0.15:
        yield _host({"type": "reroll"})
    if r.random() < 0.2:
        yield _host({"type": "assign", "seat": r.randrange(n), "role": r.choice(DEALT)})
    for s in state.seats:
        if s.role == TRAVELLER and s.traveller_identity == "旅行者":
            yield _host({"type": "set_traveller", "seat": s.seat, "identity": f"旅人{s.seat + 1}",
                         "ability": "每天可以看一眼天色", "alignment": r.choice(["good", "evil"]),
                         "female": r.random() < 0.5})  # fmt: skip
    yield _host({"type": "begin"})
    yield _host({"type": "reroll"})


def _night(state: GameState, r: random.Random) -> Iterator[Entry]:
    grim = GAME.view(state, HOST).grimoire
    assert grim is not None and grim.night is not None
    cur = grim.night.current
    passed = [s.key for s in grim.night.steps if s.passed]
    if passed and r.random() < 0.03:
        yield _host({"type": "reopen_step", "step": r.choice(passed)})
    if cur is None or r.random() < 0.01:
        yield _host({"type": "dawn"})
        return
    if cur.disabled is not None or r.random() < 0.08:
        yield _host({"type": "night_step", "step": cur.key, "skip": cur.disabled is None})
        return
    for _ in range(3):
        targets = [
            None if (sl.optional and r.random() < 0.3) or not sl.allowed else r.choice(sl.allowed)
            for sl in cur.slots
        ]
        action: dict[str, Any] = {"type": "night_step", "step": cur.key, "targets": targets}
        greyed = [g.seat for sl in cur.slots for g in sl.greyed]
        if greyed and r.random() < 0.2:
            action["targets"] = [targets[0], r.choice(greyed)]
            action["force"] = True
        if cur.suggestion is not None and r.random() < 0.6:
            action["use_suggestion"] = True
        elif cur.answer_kind and r.random() < 0.3:
            action["answer"] = _answer(cur.answer_kind, len(state.seats), r)
        yield _host(action)
    yield _host({"type": "night_step", "step": cur.key, "skip": True})


def _answer(kind: str, n: int, r: random.Random) -> Any:
    if kind in ("yesno", "success"):
        return r.random() < 0.5
    if kind == "number":
        return r.randrange(0, 6)
    if kind == "seats":
        return r.sample(range(n), r.randrange(0, 3))
    return {"seat": r.randrange(n), "role": r.choice(DEALT)}


def _day(state: GameState, r: random.Random) -> Iterator[Entry]:
    day = state.day
    assert day is not None
    n = len(state.seats)
    present = [s.seat for s in state.seats if not s.departed]
    living = [s.seat for s in state.seats if s.alive]
    holders = {s.role: s.seat for s in state.seats if s.alive}
    pending = GAME.pending(state)
    open_nom = bool(day.nominations) and day.nominations[-1].voters is None
    if day.clock is not None:
        assert pending is not None and pending.kind.value == "turn"
        if r.random() < 0.08:
            yield Entry("timeout")
        if pending.seats and r.random() < 0.85:
            yield _player(r.choice(sorted(pending.seats)), {"type": "vote", "yes": r.random() < 0.5})
        if r.random() < 0.1:
            yield _host({"type": "vote", "seat": r.choice(present), "yes": r.random() < 0.5})
        yield _host({"type": "close_vote"})
        return
    if r.random() < 0.04 and len(present) < 20:
        details = TravellerDetails(identity=f"过客{n + 1}", ability="只看不说", alignment=r.choice(["good", "evil"]))
        yield Entry("admit", HOST, details, Entrant(n, f"旅人{n + 1}"))
    if r.random() < 0.25 and "qiguiren" in holders:
        yield _host({"type": "accuse", "by": holders["qiguiren"], "target": r.randrange(n), "role": r.choice(DEALT)})
    if r.random() < 0.25 and "qifei" in holders:
        yield _host({"type": "silence", "by": holders["qifei"], "target": r.choice(living)})
    if r.random() < 0.25 and "dunqinwang" in holders:
        yield _host({"type": "toast", "by": holders["dunqinwang"], "target": r.choice(living)})
    if r.random() < 0.1:
        yield _host({"type": "drunk", "seat": r.randrange(n)})
    if r.random() < 0.3 and "taihou" in holders and day.nominations:
        yield _host({"type": "force_execution", "by": holders["taihou"], "nominee": r.choice(day.nominations).nominee})
    if day.proposals and r.random() < 0.5:
        yield _host({"type": "execute", "seat": day.proposals[-1].seat})
    counted = [i for i, nom in enumerate(day.nominations) if nom.voters is not None]
    if counted and r.random() < 0.05:
        voters = [s.seat for s in state.seats if s.alive or s.ghost_vote]
        yield _host({"type": "edit_vote", "index": r.choice(counted), "votes": r.sample(voters, r.randrange(len(voters) + 1))})
    if day.nominations and r.random() < 0.03:
        yield _host({"type": "delete_nomination", "index": r.randrange(len(day.nominations))})
    if open_nom:
        if r.random() < 0.6:
            yield _host({"type": "open_vote", "seconds": r.choice([None, 20])})
        voters = [s.seat for s in state.seats if (s.alive or s.ghost_vote) and not s.departed]
        yield _host({"type": "vote", "votes": r.sample(voters, r.randrange(0, len(voters) + 1))})
    if state.end is not None and r.random() < 0.3:
        yield _host({"type": "confirm_end"})
    if r.random() < 0.15 * (1 + len(day.nominations)):
        yield _host({"type": "dusk", "execute_block": r.random() < 0.9})
    nominee = r.randrange(n)
    nominator = r.choice(present)
    if r.random() < 0.6:
        yield _player(nominator, {"type": "nominate", "nominator": nominator, "nominee": nominee})
    yield _host({"type": "nominate", "nominator": r.choice(living or [0]), "nominee": nominee})
    if r.random() < 0.05:
        yield _host({"type": "execute", "seat": r.randrange(n)})
    yield _host({"type": "dusk"})


def _candidates(state: GameState, r: random.Random) -> Iterator[Entry]:
    if state.phase is Phase.SETUP:
        yield from _setup(state, r)
        return
    yield from _tools(state, r)
    yield from _overrides(state, r)
    if state.end is not None and r.random() < 0.15:
        yield _host({"type": "confirm_end"})
    yield from (_night(state, r) if state.phase is Phase.NIGHT else _day(state, r))


def _check(state: GameState, entry: Entry) -> bool:
    try:
        if entry.kind == "apply":
            GAME.check(state, entry.actor, entry.action)
        else:
            apply_entry(state, entry, Rng.from_int(0))
    except DomainError:
        return False
    return True


def play(seed: int, players: int | None = None) -> Game:
    """One seeded random game to the end (the storyteller confirms the end sooner or later)."""
    r = random.Random(seed)
    n = players or r.randint(5, 20)
    game = Game(seed=seed, players=n, states=[initial(seed, n)])
    for count in range(MAX_STEPS):
        state = game.states[-1]
        if GAME.pending(state) is None:
            break
        if count >= MAX_STEPS - 2 or (state.phase is not Phase.SETUP and r.random() < 0.002):
            final = state.end is not None and count >= MAX_STEPS - 2
            raw = {"type": "confirm_end"} if final else {"type": "declare_winner", "winner": r.choice(["good", "evil"])}
            candidates: Iterator[Entry] = iter([_host(raw)])
        else:
            candidates = _candidates(state, r)
        for entry in candidates:
            if not _check(state, entry):
                continue
            t = apply_entry(state, entry, Rng.from_int(seed, len(game.entries) + 1))
            game.entries.append(entry)
            game.states.append(t.state)
            game.transitions.append(t)
            break
    return game
