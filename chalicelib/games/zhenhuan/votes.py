"""Nominations and votes (DECISIONS #4), from the storyteller or from the players' phones: the vote
clock, the tally in circle order, the chopping block, corrections, and the exile of travellers."""

from __future__ import annotations

from math import ceil

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan import actions as A
from chalicelib.games.zhenhuan.board import Board, no
from chalicelib.games.zhenhuan.enums import Ability, ButtonKind, Phase, StatusKind
from chalicelib.games.zhenhuan.events import (
    ExecutionEvent,
    HandEvent,
    NominationEvent,
    VoteEvent,
    VoteOpenEvent,
)
from chalicelib.games.zhenhuan.roles import CHUNYUAN, ROLES, TRAVELLER, Team
from chalicelib.games.zhenhuan.state import Alert, DayState, Hand, Nomination, Proposal, VoteClock

CLOCK_BASE_S, CLOCK_PER_VOTER_S = 15, 3


def day_of(b: Board) -> DayState:
    if b.state.day is None or b.state.phase is not Phase.DAY:
        raise IllegalAction("现在不是白天", code="NOT_DAY")
    return b.state.day


def set_day(b: Board, **changes: object) -> None:
    b.update(day=day_of(b).model_copy(update=changes))


def open_nomination(day: DayState) -> Nomination | None:
    last = day.nominations[-1] if day.nominations else None
    return last if last is not None and last.voters is None else None


def no_execution_yet(day: DayState, *, to_player: bool = False) -> None:
    if day.executed_done:
        # the storyteller is the one to press 入夜; a player is only told why she cannot nominate
        message = "今日已处决，不能再提名" if to_player else "今日已处决，请入夜"
        raise IllegalAction(message, code="ALREADY_EXECUTED")


def threshold(b: Board) -> int:
    """Execution: ⌈living / 2⌉, travellers included."""
    return ceil(len(b.living()) / 2)


def exile_threshold(b: Board) -> int:
    """Exile: ⌈players still in the game / 2⌉, the dead included."""
    return ceil(len(b.present()) / 2)


def circle(b: Board, nominee: int) -> list[int]:
    """Seats still in the game clockwise from the nominee's left neighbour; the nominee votes last."""
    n = len(b.seats)
    return [s for k in range(1, n + 1) if not b.seats[(s := (nominee + k) % n)].departed]


def voters_for(b: Board, nom: Nomination) -> list[int]:
    """Who may vote, in circle order: the living and the dead with a ghost vote; anyone on an exile."""
    return [s for s in circle(b, nom.nominee) if nom.exile or b.alive(s) or b.seat(s).ghost_vote]


def remind(b: Board, seat: int, press: ButtonKind, text: str) -> None:
    """Tell the storyteller what the rules ask of her about `seat` today (she presses; nothing is automatic)."""
    set_day(b, alerts=day_of(b).alerts + (Alert(text=text, seat=seat, press=press),))
    b.host(text)


def propose(b: Board, seat: int, reason: str) -> None:
    set_day(b, proposals=day_of(b).proposals + (Proposal(seat=seat, reason=reason),))
    b.host(f"建议处决{no(seat)}：{reason}（请按「处决」，之后「入夜」）")


def nominate(b: Board, a: A.Nominate, *, by_player: bool = False) -> None:
    """Raises IllegalAction: the nominator is dead or has nominated, today's execution is done, a vote
    is open, or the nominee was nominated today (exile calls: anyone, any time of the day). The lasting
    reason comes first: a dead player is told she cannot nominate, not to wait for the vote."""
    day = day_of(b)
    b.present_seat(a.nominator)
    b.present_seat(a.nominee)
    nominator, nominee = b.seat(a.nominator), b.seat(a.nominee)
    exile = nominee.role == TRAVELLER
    if not exile:
        # from her own phone the refusal speaks to her (「你」), to the storyteller of the seat
        who = "你" if by_player else no(a.nominator)
        if not nominator.alive:
            raise IllegalAction(f"{who}已死亡，不能提名" if by_player else "死亡的玩家不能提名", code="DEAD_NOMINATOR")
        if any(n.nominator == a.nominator and not n.exile for n in day.nominations):
            raise IllegalAction(f"{who}今天已经提名过", code="ALREADY_NOMINATED_TODAY")
        no_execution_yet(day, to_player=by_player)
    if open_nomination(day) is not None:
        raise IllegalAction("请先完成上一个提名的投票", code="VOTE_PENDING")
    if any(n.nominee == a.nominee for n in day.nominations):
        raise IllegalAction(f"{no(a.nominee)}今天已经被提名过", code="ALREADY_NOMINEE_TODAY")
    set_day(b, nominations=day.nominations + (Nomination(nominator=a.nominator, nominee=a.nominee, exile=exile),))
    verb = "提议流放" if exile else "提名"
    b.emit(NominationEvent(
        nominator=a.nominator, nominee=a.nominee, exile=exile, text=f"{no(a.nominator)}{verb}{no(a.nominee)}",
    ))  # fmt: skip
    if exile:
        return
    if b.has(a.nominator, StatusKind.MARKED):
        remind(b, a.nominator, ButtonKind.KILL, f"一丈红：{no(a.nominator)}发起了提名，应死亡（请按「死亡」）")
    if nominee.role == CHUNYUAN and nominee.alive and Ability.CHUNYUAN not in nominee.spent:
        b.spend(a.nominee, Ability.CHUNYUAN)
        b.remind(CHUNYUAN, "已被提名", a.nominee)
        if b.impaired(a.nominee):
            b.host(f"纯元皇后{no(a.nominee)}首次被提名，但她{b.impairment_text(a.nominee)}：无效（技能已用）")
        elif ROLES[nominator.role].team is Team.TOWNSFOLK:
            propose(b, a.nominator, "纯元皇后首次被提名，提名者是村民")
        else:
            b.host(f"纯元皇后{no(a.nominee)}首次被提名，提名者不是村民：无事发生（技能已用）")


def open_vote(b: Board, a: A.OpenVote) -> None:
    day = day_of(b)
    nom = open_nomination(day)
    if nom is None:
        raise IllegalAction("没有待投票的提名", code="NO_OPEN_NOMINATION")
    if day.clock is not None:
        raise IllegalAction("投票已在进行", code="VOTE_OPEN")
    voters = voters_for(b, nom)
    seconds = a.seconds or CLOCK_BASE_S + CLOCK_PER_VOTER_S * len(voters)
    serial = b.state.vote_serial + 1
    b.update(vote_serial=serial)
    set_day(b, clock=VoteClock(serial=serial, seconds=seconds))
    b.emit(VoteOpenEvent(
        nominee=nom.nominee, seconds=seconds, voters=tuple(voters),
        text=f"开始对{no(nom.nominee)}投票（{seconds}秒）",
    ))  # fmt: skip


def may_still_vote(b: Board) -> list[int]:
    day = b.state.day
    nom = open_nomination(day) if day is not None else None
    if day is None or day.clock is None or nom is None:
        return []
    cast = {h.seat for h in day.clock.hands}
    return [s for s in voters_for(b, nom) if s not in cast]


def vote(b: Board, a: A.Vote, player: int | None) -> None:
    """A hand from a player (`player`) or the storyteller, or the storyteller's whole record.

    Raises:
        IllegalAction: no open nomination or vote, a repeated voter, a dead voter without a ghost vote.
    """
    day = day_of(b)
    nom = open_nomination(day)
    if nom is None:
        raise IllegalAction("没有待投票的提名", code="NO_OPEN_NOMINATION")
    if a.votes is not None:
        _check_voters(b, nom, a.votes)
        tally(b, a.votes)
        return
    seat = player if player is not None else a.seat
    if seat is None:
        raise IllegalAction("请指明投票的玩家", code="BAD_VOTE")
    clock = day.clock
    if clock is None:
        raise IllegalAction("现在没有进行中的投票", code="NO_OPEN_VOTE")
    if player is not None and any(h.seat == seat for h in clock.hands):
        raise IllegalAction("你已经投过票了", code="ALREADY_VOTED")
    _check_voters(b, nom, (seat,))
    hands = tuple(h for h in clock.hands if h.seat != seat) + (Hand(seat=seat, yes=a.yes, dead=not b.alive(seat)),)
    set_day(b, clock=clock.model_copy(update={"hands": hands}))
    b.emit(HandEvent(seat=seat, yes=a.yes, text=f"{no(seat)}{'举手' if a.yes else '不举手'}"))
    if not may_still_vote(b):
        close(b)


def close(b: Board) -> None:
    clock = day_of(b).clock
    if clock is None:
        raise IllegalAction("现在没有进行中的投票", code="NO_OPEN_VOTE")
    tally(b, tuple(h.seat for h in clock.hands if h.yes), raised_dead={h.seat for h in clock.hands if h.dead})


def _check_voters(b: Board, nom: Nomination, votes: tuple[int, ...]) -> None:
    if len(set(votes)) != len(votes):
        raise IllegalAction("同一玩家不能投两票", code="DUPLICATE_VOTER")
    allowed = set(voters_for(b, nom))
    for v in votes:
        b.seat(v)
        if v not in allowed:
            if not b.seat(v).departed and not b.alive(v):
                raise IllegalAction(f"{no(v)}已没有幽灵票", code="NO_GHOST_VOTE")
            raise IllegalAction(f"{no(v)}不能投票", code="NOT_A_VOTER")


def tally(b: Board, yes: tuple[int, ...], raised_dead: set[int] | None = None) -> None:
    """Count the raised hands on the open nomination: the chopping block, or the exile. A ghost vote
    is spent by a hand raised while dead (`raised_dead`, from the phones' hands; the storyteller's
    count of a table vote: dead now)."""
    day = day_of(b)
    nom = open_nomination(day)
    assert nom is not None
    raised = set(yes)
    voters = tuple(s for s in circle(b, nom.nominee) if s in raised)
    dead = raised_dead if raised_dead is not None else {s for s in voters if not b.alive(s)}
    ghost = () if nom.exile else tuple(s for s in voters if s in dead)
    for g in ghost:
        b.update_seat(g, ghost_vote=False)
    need = exile_threshold(b) if nom.exile else threshold(b)
    counted = nom.model_copy(update={"voters": voters, "ghost": ghost, "threshold": need})
    set_day(b, nominations=day.nominations[:-1] + (counted,), clock=None)
    _announce(b, counted)
    if nom.exile and len(voters) >= need:
        died = b.die(nom.nominee)
        b.emit(ExecutionEvent(seat=nom.nominee, died=died, exile=True, text=f"{no(nom.nominee)}被流放"))


def _announce(b: Board, nom: Nomination, prefix: str = "", *, corrected: bool = False) -> str:
    block, high = _block(day_of(b).nominations)
    set_day(b, block=block, block_votes=high)
    assert nom.voters is not None
    count, need = len(nom.voters), nom.threshold
    if nom.exile:
        # the bar decides and the line says what happened; a correction changes the record, not what
        # the vote did (she stays exiled, or not), so it tells only whether the count reaches the bar
        enough = count >= need
        what = ("够流放票数" if enough else "不够流放票数") if corrected else ("流放" if enough else "未流放")
    else:
        what = f"处决台：{no(block) if block is not None else '无人'}"
    hands = "、".join(no(v) for v in nom.voters) or "无"
    text = f"{prefix}{no(nom.nominee)}得{count}票（需{need}票）；举手：{hands}；{what}"
    b.emit(VoteEvent(
        nominee=nom.nominee, voters=nom.voters, count=count, threshold=need, block=block, exile=nom.exile,
        text=text,
    ))  # fmt: skip
    return text


def _block(nominations: tuple[Nomination, ...]) -> tuple[int | None, int]:
    """The chopping block after these votes: the first to reach the bar goes up; a later nominee needs
    strictly more to replace her; equal clears the block and the bar stays."""
    block: int | None = None
    high = 0
    for n in nominations:
        if n.exile or n.voters is None or len(n.voters) < n.threshold:
            continue
        if len(n.voters) > high:
            block, high = n.nominee, len(n.voters)
        elif len(n.voters) == high:
            block = None
    return block, high


def _counted(b: Board, index: int) -> Nomination:
    day = day_of(b)
    if not 0 <= index < len(day.nominations):
        raise IllegalAction("今天没有这一次提名", code="NO_SUCH_NOMINATION")
    return day.nominations[index]


def edit_vote(b: Board, a: A.EditVote) -> None:
    """Correct a recorded vote: ghost votes follow the change; the block is recounted."""
    nom = _counted(b, a.index)
    if nom.voters is None:
        raise IllegalAction("这次提名还没有计票", code="NOT_COUNTED")
    if len(set(a.votes)) != len(a.votes):
        raise IllegalAction("同一玩家不能投两票", code="DUPLICATE_VOTER")
    new = set(a.votes)
    for v in new - set(nom.voters):
        b.present_seat(v)
        if not nom.exile and not b.alive(v) and not b.seat(v).ghost_vote:
            raise IllegalAction(f"{no(v)}已没有幽灵票", code="NO_GHOST_VOTE")
    for g in set(nom.ghost) - new:
        b.update_seat(g, ghost_vote=True)
    spent = {v for v in new - set(nom.voters) if not nom.exile and not b.alive(v)}
    for g in spent:
        b.update_seat(g, ghost_vote=False)
    voters = tuple(s for s in circle(b, nom.nominee) if s in new)
    ghost = tuple(s for s in voters if s in (set(nom.ghost) & new) | spent)
    fixed = nom.model_copy(update={"voters": voters, "ghost": ghost})
    day = day_of(b)
    set_day(b, nominations=day.nominations[: a.index] + (fixed,) + day.nominations[a.index + 1 :])
    text = _announce(b, fixed, "说书人更正投票：", corrected=True)
    b.host(text, override=True, restates=1)


def delete_nomination(b: Board, a: A.DeleteNomination) -> None:
    """Remove a mistaken nomination and its vote (ghost votes come back); what it triggered stays."""
    nom = _counted(b, a.index)
    for g in nom.ghost:
        b.update_seat(g, ghost_vote=True)
    day = day_of(b)
    clock = None if nom.voters is None else day.clock
    nominations = day.nominations[: a.index] + day.nominations[a.index + 1 :]
    block, high = _block(nominations)
    set_day(b, nominations=nominations, clock=clock, block=block, block_votes=high)
    text = f"说书人删除了提名：{no(nom.nominator)}{'提议流放' if nom.exile else '提名'}{no(nom.nominee)}"
    b.emit(NominationEvent(
        nominator=nom.nominator, nominee=nom.nominee, exile=nom.exile, deleted=True, text=text,
    ))  # fmt: skip
    b.host(text, override=True, restates=1)
