"""Compact builders for 血染甄嬛传 scenarios: a game from a list of roles, host actions from dicts."""

from __future__ import annotations

from typing import Any

from chalicelib.core.game import Entrant, Transition, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import GOOD_ROLES, ROLES, RoleKey
from chalicelib.games.zhenhuan.setup import assign
from chalicelib.games.zhenhuan.state import GameState, StatusKind, ZhenhuanOptions

HOST = Viewer.host()
SEED = 20240611


def new_state(roles: list[str]) -> GameState:
    """A game in setup with exactly these roles, seat by seat (bluffs: the first free good roles)."""
    entrants = [Entrant(i, f"玩家{i + 1}") for i in range(len(roles))]
    state = GAME.setup(entrants, ZhenhuanOptions(), Rng.from_int(SEED))
    for seat, role in enumerate(roles):
        state = assign(state, seat, RoleKey(role))
    free = [r for r in GOOD_ROLES if r not in roles][:3]
    return state.model_copy(update={"bluffs": tuple(free)})


def started(roles: list[str]) -> GameState:
    """A game with these roles, begun: the first night's first step is current."""
    return act(new_state(roles), type="begin")


def transition(state: GameState, viewer: Viewer = HOST, **action: Any) -> Transition:
    a = GAME.action_adapter.validate_python(action)
    GAME.check(state, viewer, a)
    return GAME.apply(state, viewer, a, Rng.from_int(SEED, len(state.log)))


def act(state: GameState, **action: Any) -> GameState:
    return transition(state, **action).state


def player_act(state: GameState, seat: int, **action: Any) -> GameState:
    """An action a player sends from her phone."""
    return transition(state, Viewer.player(seat), **action).state


def proposed(state: GameState) -> Any:
    """The winner a met win condition proposes (DECISIONS #12), None if none."""
    return state.end.winner if state.end is not None else None


def confirm(state: GameState) -> GameState:
    """「确认结束」 the proposed end."""
    return act(state, type="confirm_end")


def current(state: GameState) -> str | None:
    night = GAME.view(state, HOST).grimoire.night  # type: ignore[union-attr]
    return night.current.key if night and night.current else None


def current_view(state: GameState):
    return GAME.view(state, HOST).grimoire.night.current  # type: ignore[union-attr]


def step(
    state: GameState, key: str, *targets: int | None, answer: Any = None, skip: bool = False, **extra: Any
) -> GameState:
    """Pass every step before `key`, then resolve `key` with the targets."""
    state = pass_until(state, key)
    action: dict[str, Any] = {"type": "night_step", "step": key, "targets": list(targets), "skip": skip, **extra}
    if answer is not None:
        action["answer"] = answer
    return act(state, **action)


def pass_until(state: GameState, key: str) -> GameState:
    while (now := current(state)) != key:
        assert now is not None, f"step {key} never came"
        state = act(state, type="night_step", step=now, skip=not disabled(state))
    return state


def disabled(state: GameState) -> bool:
    return current_view(state).disabled is not None


def night(state: GameState, plan: dict[str, tuple[int | None, ...]] | None = None) -> GameState:
    """Run the rest of the night: steps in `plan` with their targets, the others passed; then dawn."""
    plan = plan or {}
    while (now := current(state)) is not None:
        if now in plan and not disabled(state):
            state = act(state, type="night_step", step=now, targets=list(plan[now]))
        else:
            state = act(state, type="night_step", step=now, skip=not disabled(state))
    return act(state, type="dawn")


def to_day(roles: list[str], plan: dict[str, tuple[int | None, ...]] | None = None) -> GameState:
    return night(started(roles), plan)


def seat(state: GameState, i: int):
    return state.seats[i]


def has(state: GameState, i: int, kind: StatusKind) -> bool:
    return any(s.seat == i and s.kind is kind for s in state.statuses)


def infos(state: GameState, i: int) -> list[Any]:
    return [e for e in state.log if e.kind == "info" and e.seat == i]


def told(state: GameState, i: int) -> list[Any]:
    """Everything private the player was given (info, 「你是」, 告知)."""
    return [e for e in state.log if e.kind in ("info", "you_are", "tell") and e.seat == i]


def host_lines(state: GameState) -> list[str]:
    return [e.text for e in state.log if e.kind == "host"]


def name(role: str) -> str:
    return ROLES[role].name


def dusk(state: GameState, **kw: Any) -> GameState:
    return act(state, type="dusk", **kw)


def next_night(state: GameState, plan: dict[str, tuple[int | None, ...]] | None = None) -> GameState:
    """From a night: finish it with `plan`, then 入夜 again (no nominations in between)."""
    return dusk(night(state, plan))


def public(state: GameState, viewer: Viewer | None = None) -> dict[str, Any]:
    return GAME.view(state, viewer or Viewer.spectator()).model_dump(mode="json")


def visited(state: GameState) -> list[str]:
    """The steps the engine walks through from here to the end of the night (passing each)."""
    keys = []
    while (now := current(state)) is not None:
        keys.append(now)
        state = act(state, type="night_step", step=now, skip=not disabled(state))
    return keys


def night2(roles: list[str], plan1: dict[str, tuple[int | None, ...]] | None = None) -> GameState:
    """The game at the start of the second night: first night walked with `plan1`, then 入夜."""
    return dusk(to_day(roles, plan1))
