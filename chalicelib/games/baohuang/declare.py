"""The sealed declaration after the emperor is fixed (明保, 造反, 抢独).

DECISIONS 保皇 #4: "every non-emperor is offered the same choices at the same time (stay hidden /
declare), so the choice reveals nothing. The guard declaring is 明保; a commoner declaring is 造反.
Two or more 造反 force the guard to be revealed. Rebels keep the hoe mark even if they lose."

Classic adds 抢独 to the same sealed choice. Seed: "没有抓到皇牌的人如果认为自己有实力独自对抗其他四人
时，可以抢当皇帝'独保'（称为'抢独'）", "抢独条件：1、玩家手中有3个王（不分大小）和四张同花色同点数的牌。
2、拿有皇牌的玩家没有选择明独保。" and "皇帝'独保'优先成功，如果皇帝不'独保'，其他玩家多个人'抢独'，在上家
方向上离皇帝最近的人'抢独'优先成功". So only a seat that was not dealt the 皇 card may grab (DECISIONS
保皇 #9: a holder who passed the throne cannot grab it back); a grab is refused outright against
明独保, fails against 暗独保 (told privately to the claimant only), and otherwise the claimant nearest
the emperor going 上家-wards (emperor − 1, − 2, …) becomes emperor with 明独保 ("其他玩家抢独成功则直接
明独保"): the old emperor and guard become commoners and the other declarations of that round are void.
"""

from __future__ import annotations

from collections.abc import Mapping

from chalicelib.core.errors import DomainError, IllegalAction
from chalicelib.games.baohuang.actions import Action, Auto, Declare, GrabSolo, Quit, StayHidden
from chalicelib.games.baohuang.cards import Variant, face_counts, joker_count
from chalicelib.games.baohuang.deal import leave_table
from chalicelib.games.baohuang.events import Declared, GrabFailed
from chalicelib.games.baohuang.model import SEATS, Act, BaohuangState, Deal, Phase, RevealHow, Solo, prev_seat
from chalicelib.games.baohuang.play import begin_play
from chalicelib.games.baohuang.reveal import reveal
from chalicelib.games.baohuang.step import Step

GRAB_JOKERS = 3

SealedMove = StayHidden | Declare | GrabSolo
"""The moves of the sealed declaration; they reach the engine through `settle`."""


def grab_eligible(hand: tuple[str, ...]) -> bool:
    """Three jokers (either kind) and four copies of one face."""
    return joker_count(hand) >= GRAB_JOKERS and any(n == 4 for n in face_counts(hand).values())


def may_grab(state: BaohuangState, seat: int) -> bool:
    """True if `seat` may send 抢独 now (what her view shows as `can_grab`)."""
    try:
        check_sealed(state, seat, GrabSolo())
    except DomainError:
        return False
    return True


def check_sealed(state: BaohuangState, seat: int, action: SealedMove) -> Deal:
    """Raise unless `seat` may submit this declaration now.

    Raises:
        IllegalAction: WRONG_PHASE, EMPEROR_DOES_NOT_DECLARE; for 抢独 NO_GRAB_IN_SIMPLE,
            HOLDER_CANNOT_GRAB, EMPEROR_OPEN_SOLO, GRAB_NOT_ELIGIBLE.
    """
    deal = state.deal
    if state.phase is not Phase.DECLARE or deal is None:
        raise IllegalAction("现在不是声明阶段", code="WRONG_PHASE")
    if seat == deal.emperor:
        raise IllegalAction("皇帝无需声明", code="EMPEROR_DOES_NOT_DECLARE")
    if isinstance(action, GrabSolo):
        if state.options.variant is not Variant.CLASSIC:
            raise IllegalAction("简明玩法不能抢独", code="NO_GRAB_IN_SIMPLE")
        if seat == deal.holder:
            raise IllegalAction("抓到皇牌的人不能抢独（让出的皇位不能再抢回）", code="HOLDER_CANNOT_GRAB")
        if deal.solo is Solo.OPEN:
            raise IllegalAction("皇帝已明独保，不能抢独", code="EMPEROR_OPEN_SOLO")
        if not grab_eligible(deal.hands[seat]):
            raise IllegalAction("抢独需要三张王和四张同花色同点数的牌", code="GRAB_NOT_ELIGIBLE")
    return deal


def grab_order(emperor: int) -> tuple[int, ...]:
    """抢独 priority: the emperor's 上家 first, then that seat's 上家, and so on."""
    order, seat = [], emperor
    for _ in range(SEATS - 1):
        seat = prev_seat(seat)
        order.append(seat)
    return tuple(order)


def settle(step: Step, moves: Mapping[int, Action]) -> None:
    """Resolve the sealed declarations; missing or invalid moves count as 不声明. Then play starts."""
    deal = step.deal
    emperor = deal.emperor
    if emperor is None:
        raise RuntimeError("the declaration needs an emperor")
    # STEP 0: the rooms store any player action of this phase as her sealed move. A quit ends the
    # deal (the lowest quitting seat pays); 托管 / resume only toggle 托管 and count as 不声明.
    quitters = sorted(seat for seat, move in moves.items() if isinstance(move, Quit) and 0 <= seat < SEATS)
    if quitters:
        leave_table(step, quitters[0], kicked=False)
        return
    valid: dict[int, SealedMove] = {}
    for seat, move in sorted(moves.items()):
        if not 0 <= seat < SEATS or seat == emperor:
            continue
        step.set_auto(seat, isinstance(move, Auto))
        if not isinstance(move, StayHidden | Declare | GrabSolo):
            continue
        try:
            check_sealed(step.state, seat, move)
        except DomainError:
            continue
        valid[seat] = move
    # STEP 1: 抢独.
    claimants = {seat for seat, move in valid.items() if isinstance(move, GrabSolo)}
    if claimants:
        winner = None
        if deal.solo is Solo.NONE:
            winner = next(seat for seat in grab_order(emperor) if seat in claimants)
        step.emit(*(GrabFailed(seat=seat) for seat in sorted(claimants) if seat != winner))
        if winner is not None:
            step.set_deal(emperor=winner, solo=Solo.OPEN, guard=None, called=None, revealed=True,
                          grabbed=True, rebels=(), open_guard=False)
            step.log(winner, Act.GRAB)
            step.emit(Declared(grab=winner))
            begin_play(step)
            return
    # STEP 2: 明保 and 造反.
    rebels: list[int] = []
    open_guard = False
    for seat, move in sorted(valid.items()):
        if isinstance(move, Declare):
            if seat == deal.guard:
                open_guard = True
            else:
                rebels.append(seat)
    step.set_deal(rebels=tuple(rebels), open_guard=open_guard)
    for seat in rebels:
        step.log(seat, Act.REBEL)
    step.emit(Declared(rebels=tuple(rebels), open_guard=deal.guard if open_guard else None))
    # STEP 3: reveal the guard (declared, or forced by two or more rebels; in a hidden solo the
    # forced reveal shows that the emperor holds the guard card herself).
    if open_guard and deal.guard is not None:
        reveal(step, deal.guard, RevealHow.DECLARED)
    elif len(rebels) >= 2 and not deal.revealed:
        reveal(step, deal.guard if deal.guard is not None else emperor, RevealHow.FORCED)
    begin_play(step)
