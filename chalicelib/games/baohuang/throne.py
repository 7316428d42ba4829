"""Choosing the emperor (选皇帝) and, in classic mode, calling the guard card (叫牌).

Seed: "抓到皇牌的人当皇帝；如果认为牌的实力不够，可以出让皇位给上家". The 皇 card's holder is offered
the throne first; each pass offers it to the passer's 上家 (`prev_seat`). No card changes hands.

* Simple: "两轮之内仍然没有决定谁是皇帝时，系统重新发牌" — after ten passes (every seat declined
  twice) the deal is redealt by the same dealer. The emperor holding the 侍卫 card is 独保: hidden
  unless she takes the throne with ``open_solo`` (明独保). Otherwise the 侍卫 card's holder is guard.
* Classic: "传完一轮后自己必须当皇帝（除非没有能力登基或者有4张同色同点的牌）" — after five passes
  the holder must take it. Taking needs a call (a face she holds three or four copies of) or
  明独保; "没有能力登基" means no face with three or more copies, and a forced holder without one
  causes a redeal. Calling a face she holds four of is 暗独保; three: the fourth copy's holder is the
  secret guard. Jokers cannot be called (they have no suit); every natural face can.
"""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction, MalformedRequest
from chalicelib.core.rng import Rng
from chalicelib.games.baohuang.actions import TakeThrone
from chalicelib.games.baohuang.cards import FACE, FACES, LABEL_RANK, SHIWEI, SUITS, Variant, face_counts
from chalicelib.games.baohuang.deal import start_deal
from chalicelib.games.baohuang.events import Redealt, ThronePassed, ThroneTaken
from chalicelib.games.baohuang.model import (
    SEATS,
    Act,
    BaohuangState,
    Deal,
    Phase,
    RedealReason,
    Solo,
    prev_seat,
)
from chalicelib.games.baohuang.step import Step

SIMPLE_PASSES_BEFORE_REDEAL = 2 * SEATS
CLASSIC_PASSES_BEFORE_FORCED = SEATS


def _face_key(face: str) -> tuple[int, int]:
    return LABEL_RANK[face[1:]], SUITS.index(face[0])


def callable_faces(hand: tuple[str, ...]) -> tuple[list[str], list[str]]:
    """Faces of which `hand` holds exactly three copies, and exactly four, lowest rank first."""
    tally = face_counts(hand)
    triples = sorted((face for face, n in tally.items() if n == 3), key=_face_key)
    quads = sorted((face for face, n in tally.items() if n == 4), key=_face_key)
    return triples, quads


def callable_list(hand: tuple[str, ...]) -> tuple[str, ...]:
    """Classic: the faces she may call, triples (lowest first) before four-of-a-face (暗独保)."""
    triples, quads = callable_faces(hand)
    return tuple(triples + quads)


def bound_to_take(hand: tuple[str, ...]) -> bool:
    """Classic, the throne back with its holder after one round: she must take it only if she can call
    three copies of a face. Seed: "除非没有能力登基或者有4张同色同点的牌" — with no face to call she cannot,
    and a four-of-a-face alone would make her take it as a solo (暗独保), which nobody is forced into."""
    triples, _ = callable_faces(hand)
    return bool(triples)


def _deal(state: BaohuangState) -> Deal:
    if state.deal is None:
        raise RuntimeError("no running deal")
    return state.deal


def forced(state: BaohuangState) -> bool:
    """Classic: the throne came back round to its holder, who must now take it."""
    deal = state.deal
    return (state.options.variant is Variant.CLASSIC and deal is not None
            and deal.offers >= CLASSIC_PASSES_BEFORE_FORCED)


def check_take(state: BaohuangState, seat: int, action: TakeThrone) -> None:
    """Raise unless `seat`, offered the throne, may take it this way.

    Raises:
        IllegalAction: NO_CALL_IN_SIMPLE, OPEN_SOLO_NEEDS_GUARD_CARD, CALL_OR_OPEN_SOLO, CALL_REQUIRED,
            CALL_NEEDS_THREE.
        MalformedRequest: BAD_CALL (not a face of the pack).
    """
    hand = _deal(state).hands[seat]
    if state.options.variant is Variant.SIMPLE:
        if action.call is not None:
            raise IllegalAction("简明玩法不叫牌，侍卫牌持有者即为侍卫", code="NO_CALL_IN_SIMPLE")
        if action.open_solo and SHIWEI not in hand:
            raise IllegalAction("没有侍卫牌，不能明独保", code="OPEN_SOLO_NEEDS_GUARD_CARD")
        return
    if action.call is not None and action.open_solo:
        raise IllegalAction("叫牌与明独保只能选一项", code="CALL_OR_OPEN_SOLO")
    if action.call is None:
        if not action.open_solo:
            raise IllegalAction("经典玩法登基须叫一张牌或声明明独保", code="CALL_REQUIRED")
        return
    if action.call not in FACES:
        raise MalformedRequest(f"无法识别的叫牌：{action.call}", code="BAD_CALL")
    if face_counts(hand).get(action.call, 0) < 3:
        raise IllegalAction("只能叫自己手中有三张（或四张）同花色同点数的牌", code="CALL_NEEDS_THREE")


def check_pass(state: BaohuangState) -> None:
    """Raises:
        IllegalAction: MUST_TAKE_THRONE (classic, the throne came back round to its holder).
    """
    if forced(state):
        raise IllegalAction("皇位已传完一轮，必须登基", code="MUST_TAKE_THRONE")


def take(step: Step, seat: int, action: TakeThrone, auto: bool = False) -> None:
    """`seat` becomes emperor; settle solo / guard / call, then open the sealed declaration."""
    deal = step.deal
    hand = deal.hands[seat]
    guard: int | None = None
    solo = Solo.NONE
    called: str | None = None
    if step.state.options.variant is Variant.SIMPLE:
        if SHIWEI in hand:
            solo = Solo.OPEN if action.open_solo else Solo.HIDDEN
        else:
            guard = next(s for s in range(SEATS) if SHIWEI in deal.hands[s])
    elif action.open_solo:
        solo = Solo.OPEN
    elif action.call is None:
        raise ValueError("a classic take needs a call or 明独保 (check_take first)")
    else:
        called = action.call
        if face_counts(hand)[called] >= 4:
            solo = Solo.HIDDEN
        else:
            guard = next(s for s in range(SEATS) if s != seat
                         and any(FACE[code] == called for code in deal.hands[s]))
    step.set_deal(emperor=seat, solo=solo, guard=guard, called=called, revealed=solo is Solo.OPEN,
                  candidate=None)
    note = called or ("open_solo" if solo is Solo.OPEN else "")
    step.log(seat, Act.TAKE, note=note, auto=auto)
    step.emit(ThroneTaken(seat=seat, open_solo=solo is Solo.OPEN, called=called, auto=auto))
    step.set(phase=Phase.DECLARE)


def pass_throne(step: Step, seat: int, rng: Rng, auto: bool = False) -> None:
    """Offer the throne to 上家; redeal when the rounds run out (simple) or the holder it comes back to
    is not bound to take it (classic)."""
    deal = step.deal
    to = prev_seat(seat)
    offers = deal.offers + 1
    step.set_deal(offers=offers, candidate=to)
    step.log(seat, Act.YIELD, auto=auto)
    step.emit(ThronePassed(seat=seat, to=to, auto=auto))
    variant = step.state.options.variant
    if variant is Variant.SIMPLE and offers >= SIMPLE_PASSES_BEFORE_REDEAL:
        step.emit(Redealt(reason=RedealReason.NO_EMPEROR))
        start_deal(step, rng, redeal=True)
    elif (variant is Variant.CLASSIC and offers >= CLASSIC_PASSES_BEFORE_FORCED
          and not bound_to_take(deal.hands[deal.holder])):
        step.emit(Redealt(reason=RedealReason.UNABLE))
        start_deal(step, rng, redeal=True)
