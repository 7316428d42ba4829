"""The day: executions, the day abilities (祺贵人, 齐妃, 敦亲王, 太后), 「醉酒」 and 「死亡」, and the
storyteller's day buttons. Nominations and votes are in `votes.py`."""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan import actions as A
from chalicelib.games.zhenhuan import ending
from chalicelib.games.zhenhuan.board import ALIGNMENT_NAMES, Board, no
from chalicelib.games.zhenhuan.enums import Ability, ButtonKind, DeathCause, Phase, StatusKind
from chalicelib.games.zhenhuan.events import ExecutionEvent
from chalicelib.games.zhenhuan.roles import (
    DUNQINWANG,
    LONGYUE,
    QIFEI,
    QIGUIREN,
    ROLES,
    TAIHOU,
    Alignment,
    RoleKey,
)
from chalicelib.games.zhenhuan.state import Accusation, DayState, LastPick
from chalicelib.games.zhenhuan.votes import (
    day_of,
    no_execution_yet,
    open_nomination,
    propose,
    remind,
    set_day,
)

FORCE = Ability.FORCE


def execute(b: Board, seat: int) -> None:
    """处决 (at most one a day). 胧月 dying by execution makes her team lose (proposed).

    Raises:
        IllegalAction: not day, today's execution is done, or the seat left the game.
    """
    day = day_of(b)
    no_execution_yet(day)
    s = b.present_seat(seat)
    why = next((p.reason for p in day.proposals if p.seat == seat), None)
    if why is None:
        why = "处决台" if day.block == seat else "说书人裁定"
    impaired = b.impaired(seat)
    alive_before = b.living_players()
    # one execution a day: once it is done, no proposal is left to carry out (her banner clears)
    set_day(b, executed=seat, executed_done=True, proposals=())
    died = b.die(seat)
    b.emit(ExecutionEvent(seat=seat, died=died, text=f"{no(seat)}被处决" + ("" if died else "（已死亡）")))
    # her record: the same line with why (the block, a proposal, her own ruling), in its place
    b.host(f"{no(seat)}被处决（{'' if died else '已死亡；'}{why}）", restates=1)
    if died and s.role == LONGYUE and not impaired:
        loser = s.alignment
        winner = Alignment.EVIL if loser is Alignment.GOOD else Alignment.GOOD
        ending.propose(b, winner, f"胧月被处决，{ALIGNMENT_NAMES[loser]}阵营失败")
    if died:
        b.after_deaths([seat], {seat: s.role}, alive_before)


def _ability(b: Board, by: int, role: RoleKey, ability: Ability, *, once_a_day: bool = True) -> DayState:
    day = day_of(b)
    s = b.seat(by)
    if s.role != role:
        raise IllegalAction(f"{no(by)}不是{ROLES[role].name}", code="WRONG_ROLE")
    if not s.alive:
        raise IllegalAction("死亡的玩家不能发动技能", code="DEAD_ACTOR")
    if once_a_day and (by, ability) in day.used:
        raise IllegalAction("今天已经用过这个技能", code="USED_TODAY")
    set_day(b, used=day.used + ((by, ability),))
    return day_of(b)


def _living_other(b: Board, by: int, target: int) -> None:
    if target == by or not b.alive(target):
        raise IllegalAction("请选择另一名存活玩家", code="BAD_TARGET")


def accuse(b: Board, a: A.Accuse) -> None:
    """祺贵人: right → someone dies at the start of the next night; wrong → she dies then."""
    if a.target == a.by:
        raise IllegalAction("请检举另一名玩家的角色", code="BAD_ACCUSATION")
    b.present_seat(a.target)
    day = _ability(b, a.by, QIGUIREN, Ability.ACCUSE)
    correct = b.seat(a.target).role == a.role
    effective = not b.impaired(a.by)
    acc = Accusation(by=a.by, target=a.target, role=a.role, correct=correct, effective=effective)
    set_day(b, accusations=day.accusations + (acc,))
    b.remind(QIGUIREN, "检举", a.target)
    result = (
        ("猜对：下一夜开始时随机死一人" if correct else "猜错：她将在下一夜开始时死亡")
        if effective
        else "无效（中毒、醉酒或被按住）"
    )
    b.host(f"祺贵人{no(a.by)}检举{no(a.target)}是{ROLES[a.role].name}：{result}")


def silence(b: Board, a: A.Silence) -> None:
    """齐妃: not herself, not the player she chose last time."""
    s = b.seat(a.by)
    _living_other(b, a.by, a.target)
    if s.last_pick is not None and s.last_pick.ability is Ability.SILENCE and s.last_pick.target == a.target:
        raise IllegalAction("不可以连续选择同一玩家", code="SAME_TARGET_AGAIN")
    _ability(b, a.by, QIFEI, Ability.SILENCE)
    b.update_seat(a.by, last_pick=LastPick(ability=Ability.SILENCE, target=a.target))
    b.remind(QIFEI, "禁言", a.target, b.next_dusk())
    if b.impaired(a.by):
        b.host(f"齐妃{no(a.by)}禁言{no(a.target)}无效（{b.impairment_text(a.by)}）：不配合也不会被强制处决")
        return
    b.add_status(a.target, StatusKind.SILENCED, QIFEI, by=a.by, until=b.next_dusk())
    remind(b, a.target, ButtonKind.EXECUTE, f"{no(a.target)}被齐妃禁言：若不配合开口，可按「处决」强制处决")


def toast(b: Board, a: A.Toast) -> None:
    """敦亲王: the target is drunk for a day (until the start of the next day)."""
    if not b.alive(a.target):
        raise IllegalAction("请选择一名存活玩家", code="BAD_TARGET")
    _ability(b, a.by, DUNQINWANG, Ability.TOAST)
    b.remind(DUNQINWANG, "醉酒", a.target, b.next_dawn())
    if b.impaired(a.by):
        b.host(f"敦亲王{no(a.by)}让{no(a.target)}喝酒，但他{b.impairment_text(a.by)}：不标记醉酒")
        return
    b.add_status(a.target, StatusKind.DRUNK, DUNQINWANG, by=a.by, until=b.next_dawn())
    b.host(f"敦亲王{no(a.by)}：{no(a.target)}醉酒至下一个白天开始")


def force_execution(b: Board, a: A.ForceExecution) -> None:
    """太后: once a game, after the nominee's vote, whatever the count."""
    day = day_of(b)
    no_execution_yet(day)
    if not any(n.nominee == a.nominee and n.voters is not None and not n.exile for n in day.nominations):
        raise IllegalAction("只能在该玩家的提名投票之后发动", code="NOT_AFTER_VOTE")
    s = b.seat(a.by)
    if FORCE in s.spent:
        raise IllegalAction("太后的技能已经用过", code="ABILITY_SPENT")
    _ability(b, a.by, TAIHOU, FORCE, once_a_day=False)
    if b.has(a.by, StatusKind.PINNED):
        b.host(f"太后{no(a.by)}被按住：技能无法发动（未消耗）")
        return
    b.spend(a.by, FORCE)
    if b.poisoned_or_drunk(a.by):
        b.host(f"太后{no(a.by)}{b.impairment_text(a.by)}：强制处决{no(a.nominee)}无效（技能已用）")
        return
    propose(b, a.nominee, "太后强制处决")


def drunk(b: Board, seat: int) -> None:
    """「醉酒」 button: drunk until the start of the next day."""
    day_of(b)
    b.seat(seat)
    b.add_status(seat, StatusKind.DRUNK, None, until=b.next_dawn())
    b.host(f"说书人「醉酒」：{no(seat)}醉酒至下一个白天开始")


def kill(b: Board, seat: int) -> None:
    """「死亡」: dead at once; by day the public sees it now, at night at dawn (DECISIONS #9)."""
    s = b.seat(seat)
    if not s.alive:
        raise IllegalAction(f"{no(seat)}已经死亡", code="ALREADY_DEAD")
    if b.state.phase is not Phase.NIGHT:
        day_of(b)
    b.kill([seat], DeathCause.STORYTELLER, "说书人「死亡」")


def _exilable(b: Board, day: DayState) -> list[int]:
    """Living travellers still in the game whose exile nobody has called today."""
    return [s for s in b.living() if b.traveller(s) and not any(n.nominee == s for n in day.nominations)]


_DAY_ABILITIES = (
    (QIGUIREN, ButtonKind.ACCUSE, Ability.ACCUSE, "祺贵人检举"),
    (QIFEI, ButtonKind.SILENCE, Ability.SILENCE, "齐妃禁言"),
    (DUNQINWANG, ButtonKind.TOAST, Ability.TOAST, "敦亲王喝酒"),
    (TAIHOU, ButtonKind.FORCE, FORCE, "太后强制处决"),
)
Button = tuple[ButtonKind, int | None, str, str | None, str]


def buttons(b: Board) -> list[Button]:
    """The day's buttons for the storyteller: (kind, by, label, why disabled, impairment)."""
    day = day_of(b)
    voted = any(n.voters is not None and not n.exile for n in day.nominations)
    done = "今日已处决" if day.executed_done else None
    out: list[Button] = []
    for role, kind, ability, label in _DAY_ABILITIES:
        for seat in b.holders(role):
            s = b.seat(seat)
            reason = None
            if not s.alive:
                reason = "已死亡"
            elif kind is ButtonKind.FORCE:
                reason = "技能已用过" if FORCE in s.spent else done or (None if voted else "需在提名投票之后")
            elif (seat, ability) in day.used:
                reason = "今天已用过"
            out.append((kind, seat, label, reason, b.impairment_text(seat)))
    nom = open_nomination(day)
    clock = day.clock
    pending = "请先完成投票" if nom is not None else None
    if day.executed_done and _exilable(b, day):
        # after the execution only a traveller's exile may still be called (§9): the press says so
        out.append((ButtonKind.NOMINATE, None, "提请流放", pending, ""))
    else:
        out.append((ButtonKind.NOMINATE, None, "提名", done or pending, ""))
    no_vote = None if nom is not None else "没有待投票的提名"
    out.append((ButtonKind.OPEN_VOTE, None, "开始投票计时", no_vote or ("投票进行中" if clock else None), ""))
    out.append((ButtonKind.CLOSE_VOTE, None, "结束投票", None if clock else "没有进行中的投票", ""))
    out.append((ButtonKind.VOTE, None, "记录投票", no_vote, ""))
    out.append((ButtonKind.EXECUTE, None, "处决", done, ""))
    out.append((ButtonKind.DRUNK, None, "醉酒", None, ""))
    out.append((ButtonKind.KILL, None, "死亡", None, ""))
    out.append((ButtonKind.DUSK, None, "入夜", "请先结束投票" if clock else None, ""))
    if b.state.end is not None:
        out.append((ButtonKind.CONFIRM_END, None, "确认结束", None, ""))
    return out
