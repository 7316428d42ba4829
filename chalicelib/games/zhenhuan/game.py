"""血染甄嬛传 as a `Game`: the storyteller (host) drives every step; the engine proposes, applies the
rules and keeps the books. Players only look (`view`); `check` refuses their actions."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from chalicelib.core.errors import Forbidden, GameOver, IllegalAction
from chalicelib.core.game import Entrant, Outcome, Pending, PendingKind, SeatResult, Transition, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan import actions as A
from chalicelib.games.zhenhuan import day, night, overrides, setup
from chalicelib.games.zhenhuan.board import ALIGNMENT_NAMES, Board, no
from chalicelib.games.zhenhuan.events import Event, event_adapter
from chalicelib.games.zhenhuan.roles import ROLES, Alignment, Team
from chalicelib.games.zhenhuan.state import GameState, Phase, ZhenhuanOptions
from chalicelib.games.zhenhuan.views import ZhenhuanView, report, view

_SETUP = (A.Reroll, A.Assign, A.SetBluffs, A.Begin)
_NIGHT = (A.NightStep, A.Dawn)
_DAY = (A.Nominate, A.Vote, A.Execute, A.Dusk, A.Accuse, A.Silence, A.Toast, A.ForceExecution, A.Drunk)


def _setup_action(b: Board, a: A.Action, rng: Rng) -> None:
    match a:
        case A.Reroll():
            b.state = setup.reroll(b.state, rng)
            b.host("说书人重新抽取角色")
        case A.Assign():
            b.state = setup.assign(b.state, a.seat, a.role)
            b.host(f"说书人指定{no(a.seat)}为{ROLES[a.role].name}")
        case A.SetBluffs():
            b.state = setup.set_bluffs(b.state, a.roles)
            b.host("恶魔伪装角色：" + "、".join(ROLES[r].name for r in a.roles))
        case A.Begin():
            setup.check_begin(b.state)
            issues = setup.composition_issues(b.state)
            if issues:
                b.host("自定义配置：" + "；".join(issues), override=True)
            night.begin(b)


_HANDLERS: dict[type, Callable[[Board, Any, Rng], None]] = {
    A.NightStep: lambda b, a, rng: night.night_step(b, a),
    A.Dawn: lambda b, a, rng: night.dawn(b),
    A.Dusk: night.dusk,
    A.Nominate: lambda b, a, rng: day.nominate(b, a),
    A.Vote: lambda b, a, rng: day.vote(b, a),
    A.Execute: lambda b, a, rng: day.execute(b, a.seat),
    A.Accuse: lambda b, a, rng: day.accuse(b, a),
    A.Silence: lambda b, a, rng: day.silence(b, a),
    A.Toast: lambda b, a, rng: day.toast(b, a),
    A.ForceExecution: lambda b, a, rng: day.force_execution(b, a),
    A.Drunk: lambda b, a, rng: day.drunk(b, a.seat),
    A.Kill: lambda b, a, rng: day.kill(b, a.seat),
    A.SetStatus: lambda b, a, rng: overrides.set_status(b, a),
    A.ClearStatus: lambda b, a, rng: overrides.clear_status(b, a),
    A.SetAlive: lambda b, a, rng: overrides.set_alive(b, a),
    A.SetRole: lambda b, a, rng: overrides.set_role(b, a),
    A.SetAlignment: lambda b, a, rng: overrides.set_alignment(b, a),
    A.SetGhostVote: lambda b, a, rng: overrides.set_ghost_vote(b, a),
    A.DeclareWinner: lambda b, a, rng: overrides.declare_winner(b, a),
}


def run(state: GameState, actor: Viewer, action: A.Action, rng: Rng) -> GameState:
    """Apply one action and return the new state (events appended to its log).

    Raises:
        Forbidden: a player or spectator tried to act.
        GameOver: the game has ended.
        IllegalAction: the action does not fit the phase or the rules.
    """
    if not actor.is_host:
        raise Forbidden("只有说书人可以操作", code="STORYTELLER_ONLY")
    if state.phase is Phase.OVER:
        raise GameOver()
    b = Board(state)
    phase = state.phase
    if isinstance(action, A.SetTraveller):
        b.state = setup.set_traveller(b.state, action.seat, action.identity, action.alignment, action.female)
        b.host(f"旅行者{no(action.seat)}：{action.identity}（{ALIGNMENT_NAMES[action.alignment]}）")
    elif isinstance(action, _SETUP):
        if phase is not Phase.SETUP:
            raise IllegalAction("开局已锁定", code="SETUP_LOCKED")
        _setup_action(b, action, rng)
    elif phase is Phase.SETUP and not isinstance(action, A.DeclareWinner):
        raise IllegalAction("请先完成开局设置并开始游戏", code="NOT_STARTED")
    elif isinstance(action, _NIGHT) and phase is not Phase.NIGHT:
        raise IllegalAction("现在不是夜晚", code="NOT_NIGHT")
    elif isinstance(action, _DAY) and phase is not Phase.DAY:
        raise IllegalAction("现在不是白天", code="NOT_DAY")
    else:
        _HANDLERS[type(action)](b, action, rng)
    b.check_win()
    return b.freeze()


def outcome(state: GameState) -> Outcome:
    assert state.winner is not None
    results = tuple(
        SeatResult(
            seat=s.seat,
            won=s.alignment is state.winner,
            stats={
                "alive": float(s.alive),
                "evil": float(s.alignment is Alignment.EVIL),
                "demon": float(ROLES[s.role].team is Team.DEMON),
            },
        )
        for s in state.seats
    )
    return Outcome(
        unit="game",
        reason=state.end_reason or "",
        results=results,
        extra={
            "winner": state.winner.value,
            "nights": state.night_no,
            "roles": [s.role for s in state.seats],
        },
    )


class ZhenhuanGame:
    key = "zhenhuan"
    hidden_steps = True
    """How many steps the storyteller takes at night depends on the roles in play: players see no counter."""
    title = "血染甄嬛传"
    min_seats = setup.MIN_PLAYERS
    max_seats = setup.MAX_PLAYERS
    auto_start = False
    host_runs = True
    options_model = ZhenhuanOptions
    profile_model = None
    state_model = GameState
    action_adapter = A.action_adapter
    event_adapter = event_adapter
    view_model = ZhenhuanView

    def check_start(self, entrants: Sequence[Entrant], options: BaseModel) -> None:
        setup.composition(len(entrants))

    def setup(self, entrants: Sequence[Entrant], options: BaseModel, rng: Rng) -> GameState:
        self.check_start(entrants, options)
        opts = (
            options
            if isinstance(options, ZhenhuanOptions)
            else ZhenhuanOptions.model_validate(options.model_dump())
        )
        return setup.new_game(entrants, opts, rng)

    def pending(self, state: GameState) -> Pending | None:
        if state.phase is Phase.OVER:
            return None
        return Pending(PendingKind.HOST, label="说书人")

    def check(self, state: GameState, actor: Viewer, action: A.Action) -> None:
        run(state, actor, action, Rng.from_int(0))

    def apply(
        self, state: GameState, actor: Viewer, action: A.Action, rng: Rng
    ) -> Transition[GameState, Event]:
        new = run(state, actor, action, rng)
        events = new.log[len(state.log) :]
        results = (outcome(new),) if new.phase is Phase.OVER else ()
        return Transition(state=new, events=events, results=results)

    def settle(
        self, state: GameState, moves: Mapping[int, A.Action], rng: Rng
    ) -> Transition[GameState, Event]:
        raise IllegalAction("血染甄嬛传没有暗选阶段", code="NO_SEALED_MOVES")

    def on_timeout(self, state: GameState, rng: Rng) -> Transition[GameState, Event]:
        raise IllegalAction("说书人回合没有超时", code="NO_TIMEOUT")

    def view(self, state: GameState, viewer: Viewer) -> ZhenhuanView:
        return view(state, viewer)

    def report(self, state: GameState, events: Sequence[Event], viewer: Viewer) -> list[BaseModel]:
        return report(state, events, viewer)


GAME = ZhenhuanGame()
