"""Storyteller overrides (DECISIONS #6): each changes exactly what it says, with no chain effects, and
is logged as an override line. The win is checked afterwards like after any action; nothing ends the
game but 「确认结束」 (DECISIONS #12)."""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan import actions as A
from chalicelib.games.zhenhuan import ending
from chalicelib.games.zhenhuan.board import ALIGNMENT_NAMES, Board, no
from chalicelib.games.zhenhuan.enums import STATUS_NAMES, DeathCause, OwedKind, Phase, Until
from chalicelib.games.zhenhuan.events import DeathEvent
from chalicelib.games.zhenhuan.roles import TRAVELLER
from chalicelib.games.zhenhuan.state import Expiry, NightDeath


def set_status(b: Board, a: A.SetStatus) -> None:
    b.seat(a.seat)
    until: Expiry | None = {Until.DUSK: b.next_dusk(), Until.DAWN: b.next_dawn(), Until.NEVER: None}[a.until]
    b.add_status(a.seat, a.status, None, until=until)
    b.host(f"说书人设置：{no(a.seat)}{STATUS_NAMES[a.status]}（{_until(until)}）", override=True)


def _until(until: Expiry | None) -> str:
    if until is None:
        return "永久"
    return f"至第{until.night}夜" + ("入夜" if until.at == "dusk" else "天亮")


def clear_status(b: Board, a: A.ClearStatus) -> None:
    b.seat(a.seat)
    if not b.has(a.seat, a.status):
        raise IllegalAction(f"{no(a.seat)}没有这个状态", code="NO_SUCH_STATUS")
    b.clear_status(a.seat, a.status)
    b.host(f"说书人清除：{no(a.seat)}的{STATUS_NAMES[a.status]}", override=True)


def set_alive(b: Board, a: A.SetAlive) -> None:
    """At night the public learns of it at dawn; reviving a player who died tonight erases the death."""
    s = b.seat(a.seat)
    if s.alive == a.alive or s.departed:
        raise IllegalAction(f"{no(a.seat)}已经是{'存活' if a.alive else '死亡'}状态", code="NO_CHANGE")
    # a death brings a fresh ghost vote; a revival keeps the one she had (an alive player's is unused),
    # so a night revival, shown dead until dawn, still shows the ghost vote the public last saw — and
    # so does her death again the same night (the public never saw her alive)
    unseen_revival = b.state.phase is Phase.NIGHT and a.seat in b.state.unannounced_revivals
    b.update_seat(a.seat, alive=a.alive, ghost_vote=True if not a.alive and not unseen_revival else s.ghost_vote)
    if a.alive:
        b.revived(a.seat)
    line = f"说书人设置：{no(a.seat)}{'复活' if a.alive else '死亡'}"
    if b.state.phase is not Phase.NIGHT:
        # in the open: the public line, and hers in its place
        b.emit(DeathEvent(seat=a.seat, alive=a.alive, text=f"{no(a.seat)}{'复活' if a.alive else '死亡'}"))
        b.host(line, override=True, restates=1)
        return
    b.host(line, override=True)
    night = b.night
    if a.alive:
        b.update_night(deaths=tuple(d for d in night.deaths if d.seat != a.seat))
    else:
        b.update_night(deaths=night.deaths + (NightDeath(seat=a.seat, cause=DeathCause.STORYTELLER),))
    b.unseen_at_night(a.seat, alive=a.alive)


def set_role(b: Board, a: A.SetRole) -> None:
    b.seat(a.seat)
    if a.role == TRAVELLER or b.traveller(a.seat):
        raise IllegalAction("旅行者请用「旅行者」设置", code="TRAVELLER_ROLE")
    b.change_role(a.seat, a.role, a.alignment, why="（说书人设置）", override=True)


def set_alignment(b: Board, a: A.SetAlignment) -> None:
    """The player learns it at the night's 「阵营改变」 step (e.g. 苏培盛's 瑾汐, left to the storyteller)."""
    b.seat(a.seat)
    b.update_seat(a.seat, alignment=a.alignment)
    b.owe(OwedKind.ALIGNMENT, a.seat)
    b.host(f"说书人设置：{no(a.seat)}阵营为{ALIGNMENT_NAMES[a.alignment]}（夜晚告知本人）", override=True)


def set_ghost_vote(b: Board, a: A.SetGhostVote) -> None:
    b.seat(a.seat)
    b.update_seat(a.seat, ghost_vote=a.has)
    b.host(f"说书人设置：{no(a.seat)}{'有' if a.has else '没有'}幽灵票", override=True)


def declare_winner(b: Board, a: A.DeclareWinner) -> None:
    b.host(f"说书人宣布：{ALIGNMENT_NAMES[a.winner]}阵营获胜（{a.reason}）", override=True)
    ending.propose(b, a.winner, a.reason, declared=True)


def withdraw_end(b: Board) -> None:
    """Her declared winner withdrawn (only her own word: a win the board meets stays proposed while it
    holds, and 胧月's loss ends the game whatever follows). The board is then judged afresh."""
    end = b.state.end
    if end is None or not end.declared:
        raise IllegalAction("没有说书人的裁定可以撤回", code="NO_PROPOSED_END")
    b.update(end=None)
    b.host(f"说书人撤回裁定：{ALIGNMENT_NAMES[end.winner]}阵营获胜（{end.reason}）", override=True)
    ending.check_win(b)


def confirm_end(b: Board) -> None:
    end = b.state.end
    if end is None:
        raise IllegalAction("没有待确认的结束条件", code="NO_PROPOSED_END")
    b.host(f"说书人确认结束：{ALIGNMENT_NAMES[end.winner]}阵营获胜（{end.reason}）")
    ending.end(b, end.winner, end.reason)
