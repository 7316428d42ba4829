"""Storyteller overrides (DECISIONS #6): each changes exactly what it says, with no chain effects, and
is logged as an override line. The win is checked afterwards like after any action."""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan import actions as A
from chalicelib.games.zhenhuan.board import ALIGNMENT_NAMES, Board, no
from chalicelib.games.zhenhuan.events import DeathEvent, YouAreEvent
from chalicelib.games.zhenhuan.roles import ROLES, TRAVELLER
from chalicelib.games.zhenhuan.state import STATUS_NAMES, Expiry, Phase


def set_status(b: Board, a: A.SetStatus) -> None:
    b.seat(a.seat)
    until: Expiry | None = {"dusk": b.next_dusk(), "dawn": b.next_dawn(), "never": None}[a.until]
    b.add_status(a.seat, a.status, "storyteller", until=until)
    b.host(f"说书人设置：{no(a.seat)}{STATUS_NAMES[a.status]}（{_until(until)}）", override=True)


def _until(until: Expiry | None) -> str:
    if until is None:
        return "永久"
    return f"至第{until.night}夜" + ("黄昏" if until.at == "dusk" else "天亮")


def clear_status(b: Board, a: A.ClearStatus) -> None:
    b.seat(a.seat)
    if not b.has(a.seat, a.status):
        raise IllegalAction(f"{no(a.seat)}没有这个状态", code="NO_SUCH_STATUS")
    b.clear_status(a.seat, a.status)
    b.host(f"说书人清除：{no(a.seat)}的{STATUS_NAMES[a.status]}", override=True)


def set_alive(b: Board, a: A.SetAlive) -> None:
    """Also cancels tonight's pending deaths of a living player (alive=true at night)."""
    s = b.seat(a.seat)
    night = b.state.night
    if a.alive and s.alive and night is not None and any(p.seat == a.seat for p in night.pending):
        b.update_night(pending=tuple(p for p in night.pending if p.seat != a.seat))
        b.host(f"说书人取消：{no(a.seat)}今晚不会死亡", override=True)
        return
    if s.alive == a.alive:
        raise IllegalAction(f"{no(a.seat)}已经是{'存活' if a.alive else '死亡'}状态", code="NO_CHANGE")
    b.update_seat(a.seat, alive=a.alive, ghost_vote=True)
    b.host(f"说书人设置：{no(a.seat)}{'复活' if a.alive else '死亡'}", override=True)
    if b.state.phase is Phase.NIGHT:
        # like every night change, the public learns of it at dawn (deaths and revivals alike)
        was_hidden_death = a.seat in b.state.unannounced
        unannounced = [x for x in b.state.unannounced if x != a.seat] + ([] if a.alive else [a.seat])
        revivals = [x for x in b.state.unannounced_revivals if x != a.seat]
        if a.alive and not was_hidden_death:
            revivals.append(a.seat)
        b.update(unannounced=tuple(unannounced), unannounced_revivals=tuple(revivals))
    else:
        b.emit(DeathEvent(seat=a.seat, alive=a.alive, text=f"{no(a.seat)}{'复活' if a.alive else '死亡'}"))


def set_role(b: Board, a: A.SetRole) -> None:
    if a.role not in ROLES or a.role == TRAVELLER:
        raise IllegalAction("没有这个角色", code="UNKNOWN_ROLE")
    b.seat(a.seat)
    b.change_role(a.seat, a.role, a.alignment, why="（说书人设置）", override=True)


def set_alignment(b: Board, a: A.SetAlignment) -> None:
    s = b.seat(a.seat)
    b.update_seat(a.seat, alignment=a.alignment)
    text = f"你现在属于{ALIGNMENT_NAMES[a.alignment]}阵营"
    b.emit(YouAreEvent(seat=a.seat, role=s.role, alignment=a.alignment.value, text=text))
    b.host(f"说书人设置：{no(a.seat)}阵营为{ALIGNMENT_NAMES[a.alignment]}", override=True)


def set_ghost_vote(b: Board, a: A.SetGhostVote) -> None:
    b.seat(a.seat)
    b.update_seat(a.seat, ghost_vote=a.has)
    b.host(f"说书人设置：{no(a.seat)}{'有' if a.has else '没有'}幽灵票", override=True)


def declare_winner(b: Board, a: A.DeclareWinner) -> None:
    b.host(f"说书人宣布：{ALIGNMENT_NAMES[a.winner]}阵营获胜（{a.reason}）", override=True)
    b.end(a.winner, a.reason)
