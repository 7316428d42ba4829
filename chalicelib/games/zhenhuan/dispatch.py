"""One action applied to the state: who may send it, in which phase, and which rule module handles it.

Every action is the storyteller's, except a player's own `nominate` and `vote` from her phone.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from chalicelib.core.errors import Forbidden, GameOver, IllegalAction
from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan import actions as A
from chalicelib.games.zhenhuan import day, ending, night, overrides, setup, tools, votes
from chalicelib.games.zhenhuan.board import ALIGNMENT_NAMES, Board, no
from chalicelib.games.zhenhuan.enums import OwedKind, Phase
from chalicelib.games.zhenhuan.roles import ROLES
from chalicelib.games.zhenhuan.state import GameState

_SETUP = (A.Reroll, A.Assign, A.SetBluffs, A.Begin)
_ANY_PHASE = (A.SetTraveller, A.DeclareWinner, A.ConfirmEnd, A.WithdrawEnd)
_NIGHT = (A.NightStep, A.ReopenStep, A.Dawn)
_DAY = (
    A.Nominate, A.OpenVote, A.Vote, A.CloseVote, A.EditVote, A.DeleteNomination, A.Execute, A.Dusk, A.Accuse,
    A.Silence, A.Toast, A.ForceExecution, A.Drunk,
)  # fmt: skip


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
            night.begin(b, rng)


def _set_traveller(b: Board, a: A.SetTraveller, rng: Rng) -> None:
    before = b.seat(a.seat).alignment
    b.state = setup.set_traveller(b.state, a.seat, a.identity, a.alignment, a.female, a.ability)
    b.host(f"旅行者{no(a.seat)}：{a.identity}（{ALIGNMENT_NAMES[a.alignment]}）")
    if b.state.phase is not Phase.SETUP and before is not a.alignment:
        b.owe(OwedKind.ALIGNMENT, a.seat)


_HANDLERS: dict[type, Callable[[Board, Any, Rng], None]] = {
    A.SetTraveller: _set_traveller,
    A.NightStep: night.night_step,
    A.ReopenStep: night.reopen,
    A.Dawn: lambda b, a, rng: night.dawn(b),
    A.Dusk: night.dusk,
    A.Nominate: lambda b, a, rng: votes.nominate(b, a),
    A.OpenVote: lambda b, a, rng: votes.open_vote(b, a),
    A.Vote: lambda b, a, rng: votes.vote(b, a, None),
    A.CloseVote: lambda b, a, rng: votes.close(b),
    A.EditVote: lambda b, a, rng: votes.edit_vote(b, a),
    A.DeleteNomination: lambda b, a, rng: votes.delete_nomination(b, a),
    A.Execute: lambda b, a, rng: day.execute(b, a.seat),
    A.Accuse: lambda b, a, rng: day.accuse(b, a),
    A.Silence: lambda b, a, rng: day.silence(b, a),
    A.Toast: lambda b, a, rng: day.toast(b, a),
    A.ForceExecution: lambda b, a, rng: day.force_execution(b, a),
    A.Drunk: lambda b, a, rng: day.drunk(b, a.seat),
    A.Kill: lambda b, a, rng: day.kill(b, a.seat),
    A.Tell: lambda b, a, rng: tools.tell(b, a),
    A.AddReminder: lambda b, a, rng: tools.add_reminder(b, a),
    A.RemoveReminder: lambda b, a, rng: tools.remove_reminder(b, a),
    A.SetNote: lambda b, a, rng: tools.set_note(b, a),
    A.Depart: lambda b, a, rng: tools.depart(b, a),
    A.SetStatus: lambda b, a, rng: overrides.set_status(b, a),
    A.ClearStatus: lambda b, a, rng: overrides.clear_status(b, a),
    A.SetAlive: lambda b, a, rng: overrides.set_alive(b, a),
    A.SetRole: lambda b, a, rng: overrides.set_role(b, a),
    A.SetAlignment: lambda b, a, rng: overrides.set_alignment(b, a),
    A.SetGhostVote: lambda b, a, rng: overrides.set_ghost_vote(b, a),
    A.DeclareWinner: lambda b, a, rng: overrides.declare_winner(b, a),
    A.ConfirmEnd: lambda b, a, rng: overrides.confirm_end(b),
    A.WithdrawEnd: lambda b, a, rng: overrides.withdraw_end(b),
}


def player_seat(state: GameState, actor: Viewer, action: A.Action) -> int | None:
    """The seat of a player acting for herself (None: the storyteller).

    Raises:
        Forbidden: a spectator, a player sending a storyteller's action or acting for someone else,
            or a traveller who left.
    """
    if actor.is_host:
        return None
    seat = actor.seat
    if actor.role is not ViewerRole.PLAYER or seat is None or not isinstance(action, A.Nominate | A.Vote):
        raise Forbidden("只有说书人可以操作", code="STORYTELLER_ONLY")
    if not 0 <= seat < len(state.seats):
        raise Forbidden("你不在本局中", code="NOT_YOUR_SEAT")
    if state.seats[seat].departed:
        raise Forbidden("你已离开游戏", code="DEPARTED")
    mine = action.nominator == seat if isinstance(action, A.Nominate) else (
        action.votes is None and action.seat in (None, seat)
    )  # fmt: skip
    if not mine:
        raise Forbidden("只能为自己提名或投票", code="NOT_YOUR_SEAT")
    return seat


def run(state: GameState, actor: Viewer, action: A.Action, rng: Rng) -> GameState:
    """Apply one action and return the new state (events appended to its log).

    Raises:
        Forbidden: see `player_seat`.
        GameOver: the game has ended.
        IllegalAction: the action does not fit the phase or the rules.
    """
    if state.phase is Phase.OVER:
        raise GameOver()
    player = player_seat(state, actor, action)
    b = Board(state)
    phase = state.phase
    if isinstance(action, _SETUP):
        if phase is not Phase.SETUP:
            raise IllegalAction("开局已锁定", code="SETUP_LOCKED")
        _setup_action(b, action, rng)
    elif phase is Phase.SETUP and not isinstance(action, _ANY_PHASE):
        raise IllegalAction("请先完成开局设置并开始游戏", code="NOT_BEGUN")
    elif isinstance(action, _NIGHT) and phase is not Phase.NIGHT:
        raise IllegalAction("现在不是夜晚", code="NOT_NIGHT")
    elif isinstance(action, _DAY) and phase is not Phase.DAY:
        raise IllegalAction("现在不是白天", code="NOT_DAY")
    elif isinstance(action, A.Vote) and player is not None:
        votes.vote(b, action, player)
    elif isinstance(action, A.Nominate) and player is not None:
        votes.nominate(b, action, by_player=True)
    else:
        _HANDLERS[type(action)](b, action, rng)
    ending.check_win(b)
    return b.freeze()
