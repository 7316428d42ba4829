"""Dealing, finishing and abandoning deals, and ending the table.

Seed: "游戏先从游戏桌的最左边玩家开始发牌，以后从上局皇帝开始发牌，至牌发完为止。" Deal 1 is dealt
from seat 0, later deals from the last deal's emperor; a redeal keeps the dealer. Cards go out one
at a time in play order starting with the dealer, so the dealer and the next seats get the odd
cards: simple 34/34/34/33/33 (dealer, 下家, the seat after), classic 44/43/43/43/43 (dealer).
"""

from __future__ import annotations

from chalicelib.core.game import Outcome, SeatResult
from chalicelib.core.rng import Rng
from chalicelib.games.baohuang.cards import HUANG, pack, sort_cards
from chalicelib.games.baohuang.events import DealEnded, DealStarted, HandDealt, SeatQuit, TableEnded
from chalicelib.games.baohuang.model import (
    QUIT_PENALTY,
    SEATS,
    Act,
    BaohuangDealResult,
    BaohuangState,
    Deal,
    DealEnd,
    DealRecord,
    DealWinner,
    LogEntry,
    Phase,
    TableEnd,
)
from chalicelib.games.baohuang.scoring import basis, deal_score, doublings
from chalicelib.games.baohuang.step import Step


def deal_hands(cards: tuple[str, ...], dealer: int) -> tuple[tuple[str, ...], ...]:
    """Hand out shuffled `cards` one at a time from `dealer` in play order."""
    hands: list[list[str]] = [[] for _ in range(SEATS)]
    for i, code in enumerate(cards):
        hands[(dealer + i) % SEATS].append(code)
    return tuple(sort_cards(hand) for hand in hands)


def start_deal(step: Step, rng: Rng, *, redeal: bool = False) -> None:
    """Shuffle and deal the next deal (or the same deal again), then offer the throne."""
    state = step.state
    if redeal:
        previous = step.deal
        no, dealer, redeals = previous.no, previous.dealer, previous.redeals + 1
    else:
        no = state.deal_no + 1
        dealer = 0 if state.last_emperor is None else state.last_emperor
        redeals = 0
    hands = deal_hands(rng.shuffled(pack(state.options.variant)), dealer)
    holder = next(seat for seat in range(SEATS) if HUANG in hands[seat])
    deal = Deal(no=no, dealer=dealer, holder=holder, dealt=hands, hands=hands, redeals=redeals,
                candidate=holder)
    step.set(phase=Phase.THRONE, deal=deal, deal_no=no, ready=(False,) * SEATS)
    step.emit(DealStarted(deal_no=no, dealer=dealer, holder=holder,
                          counts=tuple(len(hand) for hand in hands), redeal=redeal))
    step.emit(*(HandDealt(seat=seat, cards=hands[seat]) for seat in range(SEATS)))


def _record(step: Step, places: tuple[int, ...], scores: tuple[int, ...], multiplier: int,
            reason: DealEnd) -> DealRecord:
    state, deal = step.state, step.deal
    return DealRecord(
        no=deal.no, variant=state.options.variant, baoliu=state.options.baoliu, dealer=deal.dealer,
        holder=deal.holder, dealt=deal.dealt, log=deal.log, emperor=deal.emperor, guard=deal.guard,
        solo=deal.solo, called=deal.called, open_guard=deal.open_guard, rebels=deal.rebels,
        grabbed=deal.grabbed, places=places, scores=scores, multiplier=multiplier, reason=reason,
        left=deal.hands,
    )


def deal_winner(record: DealRecord, left_seat: int | None) -> DealWinner | None:
    """The side the deal went to, by the sign of the emperor's score (None: no result to tell)."""
    if left_seat is not None or record.emperor is None or record.reason is not DealEnd.FINISHED:
        return None
    score = record.scores[record.emperor]
    return DealWinner.EMPEROR if score > 0 else DealWinner.REBELS if score < 0 else DealWinner.DRAW


def _close(step: Step, record: DealRecord, results: tuple[SeatResult, ...], left_seat: int | None = None) -> None:
    """Book the deal's scores, emit `deal_ended` and its one `Outcome` (which carries the full record:
    anyone at the table can replay it, 牌局回放)."""
    state = step.state
    totals = tuple(t + s for t, s in zip(state.totals, record.scores, strict=True))
    wins = tuple(w + (1 if s > 0 else 0) for w, s in zip(state.wins, record.scores, strict=True))
    step.set(totals=totals, wins=wins, deals_played=state.deals_played + 1, last=record,
             last_emperor=record.emperor, deal=None)
    step.emit(DealEnded(record=record, totals=totals))
    winner = deal_winner(record, left_seat)
    extra = BaohuangDealResult(
        variant=record.variant, baoliu=record.baoliu, emperor=record.emperor, guard=record.guard,
        solo=record.solo, called=record.called, open_guard=record.open_guard, rebels=record.rebels,
        grabbed=record.grabbed, multiplier=record.multiplier, places=record.places, totals=totals,
        doubled=doublings(record.solo, record.open_guard, record.rebels,
                          commoners_won=winner is DealWinner.REBELS) if record.multiplier > 1 else (),
        basis=basis(record.places, record.emperor, record.guard, record.solo)
        if winner is not None and record.emperor is not None else "",
        winner=winner, left_seat=left_seat, penalty=QUIT_PENALTY if left_seat is not None else 0, replay=record,
    )
    step.results.append(Outcome(unit=f"deal-{record.no}", reason=record.reason.value, results=results,
                                extra=extra.model_dump(mode="json")))


CHOICES = frozenset({Act.TAKE, Act.YIELD, Act.REBEL, Act.GRAB, Act.PLAY, Act.PASS, Act.QUIT})
"""What a seat chooses in a deal (not what merely happens to her: a reveal, a kick)."""


def choices(log: tuple[LogEntry, ...], seat: int) -> list[LogEntry]:
    """Her choices in a deal's log, hers or 托管's (`auto`)."""
    return [e for e in log if e.seat == seat and e.act in CHOICES]


def finish_deal(step: Step, places: tuple[int, ...]) -> None:
    """Score a deal whose result is certain, record it, and go between deals (or end the table).
    A seat whose every choice was 托管's shows her result but reaches no board (platform P11)."""
    deal = step.deal
    scores, multiplier = deal_score(deal, places)
    record = _record(step, places, scores, multiplier, DealEnd.FINISHED)
    results = tuple(
        SeatResult(
            seat=seat, place=places.index(seat) + 1, score=scores[seat], won=scores[seat] > 0,
            played=any(not e.auto for e in choices(record.log, seat)),
            stats={
                "deals": 1, "wins": 1 if scores[seat] > 0 else 0, "points": scores[seat],
                "emperor": 1 if seat == deal.emperor else 0, "guard": 1 if seat == deal.guard else 0,
                "rebel": 1 if seat in deal.rebels else 0,
            },
        )
        for seat in range(SEATS)
    )
    _close(step, record, results)
    state = step.state
    if all(auto or bot for auto, bot in zip(state.auto, state.bots, strict=True)):
        held = held_seat(state)
        if held is None:
            end_table(step, TableEnd.ALL_AUTO)  # no person is playing: deals of bots alone would never end
            return
        # the last person playing missed a turn: the table waits for her 继续 (no deadline, §15)
        step.set(phase=Phase.BETWEEN, ready=tuple(a and s != held for s, a in enumerate(state.auto)))
    else:
        step.set(phase=Phase.BETWEEN, ready=state.auto)


def held_seat(state: BaohuangState) -> int | None:
    """The seat the table waits for once every seat is in 托管 or a bot's: the one person the turn
    clock put in 托管 (`timed_out`), when every other seat is a bot's or in a 托管 its player asked for.
    None when no person is left to wait for: every person chose 托管 (the last one was warned,
    `last_player`), or two or more let the clock run out (§15)."""
    clocked = [s for s in range(SEATS) if state.auto[s] and state.timed_out[s] and not state.bots[s]]
    if len(clocked) != 1 or not all(a or b for a, b in zip(state.auto, state.bots, strict=True)):
        return None
    return clocked[0]


def abandon_deal(step: Step, seat: int, kicked: bool) -> None:
    """Seed: "如有玩家强行退出或被管理员踢出游戏将被扣去30分。游戏自动结束。"

    The running deal ends with only the penalty scored (the leaver −30, everyone else 0) and then
    the table ends: a 保皇 table cannot go on with four.
    """
    scores = tuple(-QUIT_PENALTY if s == seat else 0 for s in range(SEATS))
    record = _record(step, (), scores, 1, DealEnd.KICKED if kicked else DealEnd.QUIT)
    # decision: an unfinished deal reaches the leaver's board only (her −30); the others' records do
    # not count a deal they neither won nor lost
    results = tuple(
        SeatResult(seat=s, place=None, score=scores[s], won=False, played=s == seat,
                   stats={"deals": 1, "wins": 0, "points": scores[s], "quits": 1 if s == seat else 0})
        for s in range(SEATS)
    )
    _close(step, record, results, left_seat=seat)
    end_table(step, TableEnd.KICKED if kicked else TableEnd.QUIT)


def standings(totals: tuple[int, ...]) -> tuple[int, ...]:
    """Competition ranking by total (1 = best; equal totals share a place)."""
    return tuple(1 + sum(1 for other in totals if other > mine) for mine in totals)


def end_table(step: Step, reason: TableEnd) -> None:
    """The table is over: `pending()` becomes None.

    Only `table_ended` is emitted (with the totals): the deals already produced their results, and
    the rooms turn every result into leaderboard increments, so a table-level result would count
    the points twice.
    """
    step.set(phase=Phase.OVER, over_reason=reason, deal=None, ready=(False,) * SEATS)
    step.emit(TableEnded(reason=reason, totals=step.state.totals))


def leave_table(step: Step, seat: int, kicked: bool) -> None:
    """Quit / leave / kick. Mid-deal: the seat loses 30 and the deal ends; in every case the table ends."""
    mid_deal = step.state.phase in (Phase.THRONE, Phase.DECLARE, Phase.PLAY)
    step.emit(SeatQuit(seat=seat, kicked=kicked, penalty=QUIT_PENALTY if mid_deal else 0))
    if mid_deal:
        step.log(seat, Act.KICK if kicked else Act.QUIT)
        abandon_deal(step, seat, kicked)
    else:
        end_table(step, TableEnd.KICKED if kicked else TableEnd.LEFT)
