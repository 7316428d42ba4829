"""Playing the deal: tricks, soft passes, 接风, guard reveals by card, going out, the early end.

Seed: "按逆时针方向，由皇帝先出牌" and "跟牌时可以选择不出，过牌准上" (DECISIONS 保皇 #6: soft pass;
when the trick winner has gone out, the lead passes to the next player still holding cards).

A trick ends when every other seat still holding cards has passed in a row on the top play. It also
ends at once when nobody could beat the top play, which is public knowledge: it holds a 大王, or
every other hand is smaller than the play (those seats would have to pass anyway).

The guard becomes known when she plays the guard card: simple mode the 侍卫 card (played by a
hidden-solo emperor it shows she is alone); classic the called face (only the guard holds a copy
outside the emperor's hand; in a classic hidden solo the emperor playing her fourth copy shows it).
"""

from __future__ import annotations

from collections.abc import Sequence

from chalicelib.core.errors import IllegalAction, MalformedRequest, NotYourTurn
from chalicelib.games.baohuang.actions import Play
from chalicelib.games.baohuang.cards import (
    FACE,
    HUANG,
    SHIWEI,
    Variant,
    counts,
    is_card,
    lowest_rank,
    sort_cards,
)
from chalicelib.games.baohuang.combos import (
    Combo,
    Refusal,
    allowed,
    classify,
    describe,
    legal,
    pick,
    size,
    unbeatable,
)
from chalicelib.games.baohuang.deal import finish_deal
from chalicelib.games.baohuang.events import Passed, Played, TrickWon, WentOut
from chalicelib.games.baohuang.model import (
    SEATS,
    Act,
    BaohuangState,
    Deal,
    LogEntry,
    Phase,
    RevealHow,
    Solo,
    Trick,
    next_seat,
)
from chalicelib.games.baohuang.reveal import reveal
from chalicelib.games.baohuang.scoring import certain_places
from chalicelib.games.baohuang.step import Step


def begin_play(step: Step) -> None:
    """The emperor leads the first trick."""
    step.set(phase=Phase.PLAY)
    step.set_deal(turn=step.deal.emperor, trick=None)


def active(deal: Deal) -> list[int]:
    """Seats still holding cards."""
    return [seat for seat in range(SEATS) if deal.hands[seat]]


def next_active(deal: Deal, seat: int) -> int:
    """The next seat after `seat` (in play order) that still holds cards."""
    for _ in range(SEATS):
        seat = next_seat(seat)
        if deal.hands[seat]:
            return seat
    raise RuntimeError("no seat holds cards")


def top(deal: Deal) -> Combo | None:
    """The play to beat, or None when the seat to act leads."""
    return None if deal.trick is None else classify(deal.trick.cards)


def marked(deal: Deal) -> frozenset[str]:
    """Cards a hint keeps back when it can: the marked jokers and copies of the called face."""
    keep = {HUANG, SHIWEI}
    if deal.called is not None:
        keep.update(code for hand in deal.hands for code in hand if FACE[code] == deal.called)
    return frozenset(keep)


def legal_plays(state: BaohuangState, seat: int) -> list[Combo]:
    """Every distinct legal play for `seat` now, cheapest first; empty when she is not to play."""
    deal = state.deal
    if state.phase is not Phase.PLAY or deal is None or deal.turn != seat:
        return []
    return legal(counts(deal.hands[seat]), lowest_rank(state.options.variant), top(deal), state.options.baoliu)


def hint_cards(deal: Deal, seat: int, plays: Sequence[Combo]) -> list[tuple[str, ...]]:
    """`plays` (from `legal_plays`) as concrete cards of `seat`'s hand (可出牌型提示), keeping the
    marked cards back when another card will do."""
    keep, hand = marked(deal), deal.hands[seat]
    return [pick(hand, combo, keep) for combo in plays]


def check_turn(state: BaohuangState, seat: int) -> Deal:
    """Raises:
        IllegalAction: WRONG_PHASE (not the play phase).
        NotYourTurn: NOT_YOUR_TURN.
    """
    deal = state.deal
    if state.phase is not Phase.PLAY or deal is None:
        raise IllegalAction("现在不是出牌阶段", code="WRONG_PHASE")
    if deal.turn != seat:
        raise NotYourTurn("还没轮到你出牌", code="NOT_YOUR_TURN")
    return deal


def check_play(state: BaohuangState, seat: int, action: Play) -> Combo:
    """Validate a play and return its combo.

    Raises:
        NotYourTurn: NOT_YOUR_TURN.
        MalformedRequest: BAD_CARD (not a card of this pack), DUPLICATE_CARD.
        IllegalAction: WRONG_PHASE, CARD_NOT_IN_HAND, NOT_A_SET, WRONG_SIZE, DOES_NOT_BEAT,
            BAOLIU_SIXES_LAST.
    """
    deal = check_turn(state, seat)
    variant = state.options.variant
    for code in action.cards:
        if not is_card(code, variant):
            raise MalformedRequest(f"无法识别的牌：{code}", code="BAD_CARD")
    if len(set(action.cards)) != len(action.cards):
        raise MalformedRequest("同一张牌不能出两次", code="DUPLICATE_CARD")
    hand = deal.hands[seat]
    missing = [code for code in action.cards if code not in hand]
    if missing:
        raise IllegalAction(f"你手中没有这张牌：{missing[0]}", code="CARD_NOT_IN_HAND")
    combo = classify(action.cards)
    if combo is None:
        raise IllegalAction("只能出同点数的牌（可带大小王），不能出顺子或杂牌", code="NOT_A_SET")
    on_table = top(deal)
    refusal = allowed(counts(hand), lowest_rank(variant), combo, on_table, state.options.baoliu)
    shown = describe(combo)
    # both plays named, the table's first: her own alone (「9×3」) read as the play the rule asked for
    if refusal is Refusal.WRONG_SIZE or refusal is Refusal.DOES_NOT_BEAT:
        assert on_table is not None  # only a follow is refused for its size or height
        table = describe(on_table)
        if refusal is Refusal.WRONG_SIZE:
            raise IllegalAction(f"跟牌须出相同张数：桌上是 {table}（{size(on_table)} 张），你选了 {shown}（{size(combo)} 张）",
                                code="WRONG_SIZE")
        raise IllegalAction(f"每张牌都须大过桌上那手的对应牌：桌上是 {table}，你选了 {shown}", code="DOES_NOT_BEAT")
    if refusal is Refusal.BAOLIU_SIXES_LAST:
        raise IllegalAction(f"保六：6 须留到最后一手一次出完，且不能带王（{shown}）", code="BAOLIU_SIXES_LAST")
    return combo


def check_pass(state: BaohuangState, seat: int) -> None:
    """Raises:
        IllegalAction: WRONG_PHASE, MUST_LEAD (the leader must play).
        NotYourTurn: NOT_YOUR_TURN.
    """
    deal = check_turn(state, seat)
    if deal.trick is None:
        raise IllegalAction("首家出牌不能不出", code="MUST_LEAD")


def _reveal_by_card(step: Step, seat: int, cards: tuple[str, ...]) -> None:
    deal = step.deal
    if deal.revealed:
        return
    if step.state.options.variant is Variant.SIMPLE:
        if SHIWEI in cards:
            reveal(step, seat, RevealHow.CARD)
        return
    copies = sum(1 for code in cards if FACE[code] == deal.called)
    if not copies:
        return
    if deal.solo is Solo.NONE and seat == deal.guard:
        reveal(step, seat, RevealHow.CARD)
    elif deal.solo is Solo.HIDDEN and seat == deal.emperor:
        step.set_deal(called_out=deal.called_out + copies)
        if deal.called_out + copies >= 4:
            reveal(step, seat, RevealHow.CARD)


def play(step: Step, seat: int, cards: tuple[str, ...], combo: Combo, auto: bool = False) -> None:
    """Put checked `cards` (forming `combo`) on the table."""
    deal = step.deal
    cards = sort_cards(cards)
    gone = set(cards)
    hand = tuple(code for code in deal.hands[seat] if code not in gone)
    hands = tuple(hand if s == seat else h for s, h in enumerate(deal.hands))
    out = deal.out + (seat,) if not hand else deal.out
    holders = [s for s in range(SEATS) if hands[s]]
    k = size(combo)
    if unbeatable(combo) or all(len(hands[s]) < k for s in holders if s != seat):
        trick, turn = None, seat if hand else _next_holder(hands, seat)
    else:
        trick, turn = Trick(seat=seat, cards=cards), _next_holder(hands, seat)
    log = deal.log + (LogEntry.model_construct(seat=seat, act=Act.PLAY, cards=cards, note="", auto=auto),)
    won = {} if trick is not None else {"trick_from": len(log)}
    step.set_deal(hands=hands, out=out, trick=trick, turn=turn, log=log, **won)
    step.emit(Played(seat=seat, cards=cards, auto=auto))
    _reveal_by_card(step, seat, cards)
    if not hand:
        step.emit(WentOut(seat=seat, place=len(out)))
    if trick is None:
        step.emit(TrickWon(seat=seat, leader=turn))
    if not hand:
        places = certain_places(step.deal)
        if places is not None:
            finish_deal(step, places)


def _next_holder(hands: tuple[tuple[str, ...], ...], seat: int) -> int:
    for _ in range(SEATS):
        seat = next_seat(seat)
        if hands[seat]:
            return seat
    raise RuntimeError("no seat holds cards")


def pass_turn(step: Step, seat: int, auto: bool = False) -> None:
    """Soft pass: she may play again later in the same trick."""
    deal = step.deal
    trick = deal.trick
    assert trick is not None
    entry = LogEntry.model_construct(seat=seat, act=Act.PASS, cards=(), note="", auto=auto)
    step.emit(Passed(seat=seat, auto=auto))
    passes = trick.passes + 1
    holders = active(deal)
    needed = len(holders) - (1 if trick.seat in holders else 0)
    if passes >= needed:
        leader = trick.seat if trick.seat in holders else next_active(deal, trick.seat)
        step.set_deal(trick=None, turn=leader, log=deal.log + (entry,), trick_from=len(deal.log) + 1)
        step.emit(TrickWon(seat=trick.seat, leader=leader))
    else:
        step.set_deal(trick=trick.model_copy(update={"passes": passes}), turn=next_active(deal, seat),
                      log=deal.log + (entry,))
