"""The day: nominations, votes and the chopping block (DECISIONS #4), executions, the day abilities
(祺贵人, 齐妃, 敦亲王, 太后, 纯元皇后, 华妃's 一丈红), 「醉酒」 and 「死亡」."""

from __future__ import annotations

from math import ceil

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan import actions as A
from chalicelib.games.zhenhuan.board import ALIGNMENT_NAMES, Board, no
from chalicelib.games.zhenhuan.events import DeathEvent, ExecutionEvent, NominationEvent, VoteEvent
from chalicelib.games.zhenhuan.roles import (
    CHUNYUAN,
    DUNQINWANG,
    LONGYUE,
    QIFEI,
    QIGUIREN,
    ROLES,
    TAIHOU,
    Alignment,
    Team,
)
from chalicelib.games.zhenhuan.state import (
    Accusation,
    DayState,
    LastPick,
    Nomination,
    PendingDeath,
    Phase,
    Proposal,
    StatusKind,
)

FORCE = "force_execution"


def _day(b: Board) -> DayState:
    if b.state.day is None:
        raise IllegalAction("现在不是白天", code="NOT_DAY")
    return b.state.day


def _set_day(b: Board, **changes: object) -> None:
    b.update(day=_day(b).model_copy(update=changes))


def _open_nomination(day: DayState) -> Nomination | None:
    last = day.nominations[-1] if day.nominations else None
    return last if last is not None and last.voters is None else None


def _no_execution_yet(day: DayState) -> None:
    if day.executed_done:
        raise IllegalAction("今日已处决，请入夜", code="ALREADY_EXECUTED")


def threshold(b: Board) -> int:
    """⌈living / 2⌉, travellers included."""
    return ceil(len(b.living()) / 2)


def nominate(b: Board, a: A.Nominate) -> None:
    """Raises IllegalAction: a vote is open, the nominator is dead or has nominated, the nominee was
    nominated today, or today's execution is done."""
    day = _day(b)
    _no_execution_yet(day)
    if _open_nomination(day) is not None:
        raise IllegalAction("请先记录上一个提名的投票", code="VOTE_PENDING")
    nominator, nominee = b.seat(a.nominator), b.seat(a.nominee)
    if not nominator.alive:
        raise IllegalAction("死亡的玩家不能提名", code="DEAD_NOMINATOR")
    if any(n.nominator == a.nominator for n in day.nominations):
        raise IllegalAction(f"{no(a.nominator)}今天已经提名过", code="ALREADY_NOMINATED_TODAY")
    if any(n.nominee == a.nominee for n in day.nominations):
        raise IllegalAction(f"{no(a.nominee)}今天已经被提名过", code="ALREADY_NOMINEE_TODAY")
    _set_day(b, nominations=day.nominations + (Nomination(nominator=a.nominator, nominee=a.nominee),))
    b.emit(
        NominationEvent(
            nominator=a.nominator, nominee=a.nominee, text=f"{no(a.nominator)}提名{no(a.nominee)}"
        )
    )
    if b.has(a.nominator, StatusKind.MARKED):
        _remind(b, f"一丈红：{no(a.nominator)}发起了提名，应死亡（请按「死亡」）")
    if nominee.role == CHUNYUAN and nominee.alive and CHUNYUAN not in nominee.spent:
        b.spend(a.nominee, CHUNYUAN)
        if b.impaired(a.nominee):
            b.host(f"纯元皇后{no(a.nominee)}首次被提名，但她{b.impairment_text(a.nominee)}：无效（技能已用）")
        elif ROLES[nominator.role].team is Team.TOWNSFOLK:
            _propose(b, a.nominator, "纯元皇后首次被提名，提名者是村民")
        else:
            b.host(f"纯元皇后{no(a.nominee)}首次被提名，提名者不是村民：无事发生（技能已用）")


def _remind(b: Board, text: str) -> None:
    _set_day(b, reminders=_day(b).reminders + (text,))
    b.host(text)


def _propose(b: Board, seat: int, reason: str) -> None:
    _set_day(b, proposals=_day(b).proposals + (Proposal(seat=seat, reason=reason),))
    b.host(f"建议处决{no(seat)}：{reason}（请按「处决」，之后「入夜」）")


def vote(b: Board, a: A.Vote) -> None:
    """Record the hands on the open nomination and move the chopping block.

    Raises:
        IllegalAction: no open nomination, a repeated voter, or a dead voter without a ghost vote.
    """
    day = _day(b)
    _no_execution_yet(day)
    open_nom = _open_nomination(day)
    if open_nom is None:
        raise IllegalAction("没有待投票的提名", code="NO_OPEN_NOMINATION")
    if len(set(a.votes)) != len(a.votes):
        raise IllegalAction("同一玩家不能投两票", code="DUPLICATE_VOTER")
    for v in a.votes:
        s = b.seat(v)
        if not s.alive and not s.ghost_vote:
            raise IllegalAction(f"{no(v)}已没有幽灵票", code="NO_GHOST_VOTE")
    for v in a.votes:
        if not b.alive(v):
            b.update_seat(v, ghost_vote=False)
    count, need = len(a.votes), threshold(b)
    block, high = day.block, day.block_votes
    if count >= need:
        if count > high:
            block, high = open_nom.nominee, count
        elif count == high:
            block = None  # a tie clears the block; the bar stays
    noms = day.nominations[:-1] + (open_nom.model_copy(update={"voters": tuple(sorted(a.votes))}),)
    _set_day(b, nominations=noms, block=block, block_votes=high)
    text = f"{no(open_nom.nominee)}得{count}票（需{need}票）；处决台：{no(block) if block is not None else '无人'}"
    b.emit(
        VoteEvent(
            nominee=open_nom.nominee,
            voters=tuple(sorted(a.votes)),
            count=count,
            threshold=need,
            block=block,
            text=text,
        )
    )


def execute(b: Board, seat: int) -> None:
    """处决 (at most one a day). 胧月 dying by execution makes her team lose.

    Raises:
        IllegalAction: not day, or today's execution is done.
    """
    day = _day(b)
    _no_execution_yet(day)
    s = b.seat(seat)
    why = next((p.reason for p in day.proposals if p.seat == seat), None)
    if why is None:
        why = "处决台" if day.block == seat else "说书人裁定"
    impaired = b.impaired(seat)
    _set_day(b, executed=seat, executed_done=True)
    died = b.die(seat)
    b.emit(ExecutionEvent(seat=seat, died=died, text=f"{no(seat)}被处决" + ("" if died else "（已死亡）")))
    b.host(f"处决{no(seat)}（{why}）")
    if died and s.role == LONGYUE and not impaired:
        loser = s.alignment
        winner = Alignment.EVIL if loser is Alignment.GOOD else Alignment.GOOD
        b.win(winner, f"胧月被处决，{ALIGNMENT_NAMES[loser]}阵营失败")
        return
    if died:
        b.after_deaths([seat], {seat: s.role})


def _ability(b: Board, by: int, role: str, ability: str, *, once_a_day: bool = True) -> DayState:
    day = _day(b)
    s = b.seat(by)
    if s.role != role:
        raise IllegalAction(f"{no(by)}不是{ROLES[role].name}", code="WRONG_ROLE")
    if not s.alive:
        raise IllegalAction("死亡的玩家不能发动技能", code="DEAD_ACTOR")
    if once_a_day and (by, ability) in day.used:
        raise IllegalAction("今天已经用过这个技能", code="USED_TODAY")
    _set_day(b, used=day.used + ((by, ability),))
    return _day(b)


def accuse(b: Board, a: A.Accuse) -> None:
    """祺贵人: right → someone dies at the start of the next night; wrong → she dies then."""
    if a.role not in ROLES or a.target == a.by:
        raise IllegalAction("请检举另一名玩家的角色", code="BAD_ACCUSATION")
    b.seat(a.target)
    day = _ability(b, a.by, QIGUIREN, "accuse")
    correct = b.seat(a.target).role == a.role
    effective = not b.impaired(a.by)
    acc = Accusation(by=a.by, target=a.target, role=a.role, correct=correct, effective=effective)
    _set_day(b, accusations=day.accusations + (acc,))
    result = (
        ("猜对：下一夜开始时随机死一人" if correct else "猜错：她将在下一夜开始时死亡")
        if effective
        else "无效（中毒、醉酒或被按住）"
    )
    b.host(f"祺贵人{no(a.by)}检举{no(a.target)}是{ROLES[a.role].name}：{result}")


def silence(b: Board, a: A.Silence) -> None:
    """齐妃: not herself, not the player she chose last time."""
    s = b.seat(a.by)
    if a.target == a.by or not b.alive(a.target):
        raise IllegalAction("请选择另一名存活玩家", code="BAD_TARGET")
    if s.last_pick is not None and s.last_pick.ability == "silence" and s.last_pick.target == a.target:
        raise IllegalAction("不可以连续选择同一玩家", code="SAME_TARGET_AGAIN")
    _ability(b, a.by, QIFEI, "silence")
    b.update_seat(a.by, last_pick=LastPick(ability="silence", target=a.target))
    if b.impaired(a.by):
        b.host(f"齐妃{no(a.by)}禁言{no(a.target)}无效（{b.impairment_text(a.by)}）：不配合也不会被强制处决")
        return
    b.add_status(a.target, StatusKind.SILENCED, QIFEI, by=a.by, until=b.next_dusk())
    _remind(b, f"{no(a.target)}被齐妃禁言：若不配合开口，可按「处决」强制处决")


def toast(b: Board, a: A.Toast) -> None:
    """敦亲王: the target is drunk for a day (until the start of the next day)."""
    if not b.alive(a.target):
        raise IllegalAction("请选择一名存活玩家", code="BAD_TARGET")
    _ability(b, a.by, DUNQINWANG, "toast")
    if b.impaired(a.by):
        b.host(f"敦亲王{no(a.by)}让{no(a.target)}喝酒，但他{b.impairment_text(a.by)}：不标记醉酒")
        return
    b.add_status(a.target, StatusKind.DRUNK, DUNQINWANG, by=a.by, until=b.next_dawn())
    b.host(f"敦亲王{no(a.by)}：{no(a.target)}醉酒至下一个白天开始")


def force_execution(b: Board, a: A.ForceExecution) -> None:
    """太后: once a game, after the nominee's vote, whatever the count."""
    day = _day(b)
    _no_execution_yet(day)
    if not any(n.nominee == a.nominee and n.voters is not None for n in day.nominations):
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
    _propose(b, a.nominee, "太后强制处决")


def drunk(b: Board, seat: int) -> None:
    """「醉酒」 button: drunk until the start of the next day."""
    _day(b)
    b.seat(seat)
    b.add_status(seat, StatusKind.DRUNK, "storyteller", until=b.next_dawn())
    b.host(f"说书人「醉酒」：{no(seat)}醉酒至下一个白天开始")


def kill(b: Board, seat: int) -> None:
    """「死亡」: now in the day (public at once); at night she dies at dawn with the others."""
    s = b.seat(seat)
    if not s.alive:
        raise IllegalAction(f"{no(seat)}已经死亡", code="ALREADY_DEAD")
    if b.state.phase is Phase.NIGHT:
        night = b.night
        if any(p.seat == seat for p in night.pending):
            raise IllegalAction(f"{no(seat)}今晚已会死亡", code="ALREADY_DYING")
        b.update_night(pending=night.pending + (PendingDeath(seat=seat, cause="storyteller"),))
        b.host(f"说书人「死亡」：{no(seat)}天亮时死亡")
        return
    if b.state.phase is not Phase.DAY:
        raise IllegalAction("游戏尚未开始", code="NOT_STARTED")
    b.kill_now([seat], "说书人「死亡」")
    b.emit(DeathEvent(seat=seat, text=f"{no(seat)}死亡"))


_DAY_ABILITIES = (
    (QIGUIREN, "accuse", "祺贵人检举"),
    (QIFEI, "silence", "齐妃禁言"),
    (DUNQINWANG, "toast", "敦亲王喝酒"),
    (TAIHOU, FORCE, "太后强制处决"),
)


def buttons(b: Board) -> list[tuple[str, int | None, str, str | None, str]]:
    """The day's buttons for the storyteller: (action type, by, label, why disabled, impairment)."""
    day = _day(b)
    voted = any(n.voters is not None for n in day.nominations)
    done = "今日已处决" if day.executed_done else None
    out: list[tuple[str, int | None, str, str | None, str]] = []
    for role, kind, label in _DAY_ABILITIES:
        for seat in b.holders(role):
            s = b.seat(seat)
            reason = None
            if not s.alive:
                reason = "已死亡"
            elif kind == FORCE:
                reason = "技能已用过" if FORCE in s.spent else done or (None if voted else "需在提名投票之后")
            elif (seat, kind) in day.used:
                reason = "今天已用过"
            out.append((kind, seat, label, reason, b.impairment_text(seat)))
    open_vote = _open_nomination(day) is not None
    out.append(("nominate", None, "提名", done or ("请先记录投票" if open_vote else None), ""))
    out.append(("vote", None, "投票", done or (None if open_vote else "没有待投票的提名"), ""))
    out.append(("execute", None, "处决", done, ""))
    out.append(("drunk", None, "醉酒", None, ""))
    out.append(("kill", None, "死亡", None, ""))
    out.append(("dusk", None, "入夜", None, ""))
    return out
