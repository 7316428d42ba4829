"""The sealed declaration after the emperor is fixed (DECLARATIONS, 抢独).

DECISIONS 保皇 #4: "every non-emperor is offered the same choices at the same time (stay hidden /
declare), so the choice reveals nothing. The guard declaring is 明保; a commoner declaring is 造反.
Two or more 造反 force the guard to be revealed. Rebels keep the hoe mark even if they lose."

Classic adds 抢独 to the same sealed choice. Seed: "抢独条件：1、玩家手中有3个王（不分大小）和四张
同花色同点数的牌。2、拿有皇牌的玩家没有选择明独保。" and "皇帝'独保'优先成功，如果皇帝不'独保'，
其他玩家多个人'抢独'，在上家方向上离皇帝最近的人'抢独'优先成功". So a grab is refused outright
against 明独保, fails against 暗独保 (told privately to the claimant only), and otherwise the claimant
nearest the emperor going 上家-wards (emperor − 1, − 2, …) becomes emperor with 明独保 ("其他玩家抢独
成功则直接明独保"): the old emperor and guard become commoners and the other declarations of that
round are void.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from chalicelib.core.errors import DomainError, IllegalAction
from chalicelib.games.baohuang.actions import SEALED_ACTIONS, Auto, Declare, GrabSolo, Quit
from chalicelib.games.baohuang.cards import Variant, face_counts, joker_count
from chalicelib.games.baohuang.deal import leave_table
from chalicelib.games.baohuang.events import AutoChanged, Declared, GrabFailed, GuardRevealed
from chalicelib.games.baohuang.model import SEATS, BaohuangState, Phase, Solo, prev_seat
from chalicelib.games.baohuang.step import Step

GRAB_JOKERS = 3


def grab_eligible(hand: tuple[str, ...]) -> bool:
    """Three jokers (either kind) and four copies of one face."""
    return joker_count(hand) >= GRAB_JOKERS and any(n == 4 for n in face_counts(hand).values())


def check_sealed(state: BaohuangState, seat: int, action: Any) -> None:
    """Raise unless `seat` may submit this declaration now."""
    deal = state.deal
    if state.phase is not Phase.DECLARE or deal is None:
        raise IllegalAction("现在不是声明阶段", code="WRONG_PHASE")
    if seat == deal.emperor:
        raise IllegalAction("皇帝无需声明", code="EMPEROR_DOES_NOT_DECLARE")
    if isinstance(action, GrabSolo):
        if state.options.variant is not Variant.CLASSIC:
            raise IllegalAction("简明玩法不能抢独", code="NO_GRAB_IN_SIMPLE")
        if deal.solo is Solo.OPEN:
            raise IllegalAction("皇帝已明独保，不能抢独", code="EMPEROR_OPEN_SOLO")
        if not grab_eligible(deal.hands[seat]):
            raise IllegalAction("抢独需要三张王和四张同花色同点数的牌", code="GRAB_NOT_ELIGIBLE")


def grab_order(emperor: int) -> tuple[int, ...]:
    """抢独 priority: the emperor's 上家 first, then that seat's 上家, and so on."""
    order, seat = [], emperor
    for _ in range(SEATS - 1):
        seat = prev_seat(seat)
        order.append(seat)
    return tuple(order)


def settle(step: Step, moves: Mapping[int, Any]) -> None:
    """Resolve the sealed declarations; missing or invalid moves count as 不声明. Then play starts."""
    from chalicelib.games.baohuang.play import begin_play

    deal = step.deal
    # STEP 0: the rooms store any player action of this phase as her sealed move. A quit ends the
    # deal (the lowest quitting seat pays); 托管 / resume only toggle 托管 and count as 不声明.
    quitters = sorted(seat for seat, move in moves.items() if isinstance(move, Quit) and 0 <= seat < SEATS)
    if quitters:
        leave_table(step, quitters[0], kicked=False)
        return
    valid: dict[int, Any] = {}
    for seat, move in sorted(moves.items()):
        if not 0 <= seat < SEATS or seat == deal.emperor:
            continue
        on = isinstance(move, Auto)
        if step.state.auto[seat] != on:
            step.set(auto=tuple(on if s == seat else a for s, a in enumerate(step.state.auto)))
            step.emit(AutoChanged(seat=seat, on=on))
        if not isinstance(move, SEALED_ACTIONS):
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
            winner = next(seat for seat in grab_order(deal.emperor) if seat in claimants)  # type: ignore[arg-type]
        step.emit(*(GrabFailed(seat=seat) for seat in sorted(claimants) if seat != winner))
        if winner is not None:
            step.set_deal(emperor=winner, solo=Solo.OPEN, guard=None, called=None, revealed=True,
                          grabbed=True, rebels=(), open_guard=False)
            step.log(winner, "grab")
            step.emit(Declared(grab=winner))
            begin_play(step)
            return
    # STEP 2: 明保 and 造反.
    rebels: list[int] = []
    open_guard = False
    for seat in sorted(valid):
        if isinstance(valid[seat], Declare):
            if seat == deal.guard:
                open_guard = True
            else:
                rebels.append(seat)
    step.set_deal(rebels=tuple(rebels), open_guard=open_guard)
    for seat in rebels:
        step.log(seat, "rebel")
    step.emit(Declared(rebels=tuple(rebels), open_guard=deal.guard if open_guard else None))
    # STEP 3: reveal the guard (declared, or forced by two or more rebels; in a hidden solo the
    # forced reveal shows that the emperor holds the guard card herself).
    if open_guard:
        reveal(step, deal.guard, "declared")  # type: ignore[arg-type]
    elif len(rebels) >= 2 and not deal.revealed:
        reveal(step, deal.guard if deal.guard is not None else deal.emperor, "forced")  # type: ignore[arg-type]
    begin_play(step)


def reveal(step: Step, seat: int, how: str) -> None:
    """Make the partnership public: `seat` is the guard (the emperor herself in a hidden solo)."""
    deal = step.deal
    solo = deal.solo is not Solo.NONE
    step.set_deal(revealed=True)
    step.log(seat, "reveal", note=how)
    step.emit(GuardRevealed(seat=seat, how=how, solo=solo))
