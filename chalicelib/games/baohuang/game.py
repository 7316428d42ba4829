"""保皇 as a `chalicelib.core.game.Game`: checks in a fixed order, then one transition.

Check order: table over → host (only `kick`) → seated player → table actions (托管, quit, leave,
继续) → phase and turn → the rule of the move. Any action by a seat in 托管 (other than `auto`)
takes her out of it. After every transition the engine keeps acting for 托管 seats until a human
must act (`auto.run`), so a pending TURN never waits on a seat in 托管.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import ClassVar, assert_never

from pydantic import BaseModel

from chalicelib.core.errors import ErrorSpec, Forbidden, GameOver, IllegalAction, NotYourTurn
from chalicelib.core.game import (
    BotLevel,
    Entrant,
    Game,
    GuideSection,
    Pending,
    PendingKind,
    RecordsPolicy,
    RecordSubject,
    Transition,
    Viewer,
    ViewerRole,
)
from chalicelib.core.rng import Rng
from chalicelib.games.baohuang import auto, declare, play, throne
from chalicelib.games.baohuang.actions import (
    Action,
    Auto,
    Declare,
    GrabSolo,
    Kick,
    Leave,
    NextDeal,
    Pass,
    PassThrone,
    Play,
    Quit,
    Resume,
    StayHidden,
    TakeThrone,
    action_adapter,
)
from chalicelib.games.baohuang.bots import decide
from chalicelib.games.baohuang.cards import Variant
from chalicelib.games.baohuang.deal import choices, held_seat, leave_table, start_deal
from chalicelib.games.baohuang.errors import ERRORS
from chalicelib.games.baohuang.events import Event, event_adapter
from chalicelib.games.baohuang.guide import guide_sections
from chalicelib.games.baohuang.lines import BaohuangReportLine, report
from chalicelib.games.baohuang.model import (
    QUIT_PENALTY,
    SEATS,
    BaohuangDealResult,
    BaohuangState,
    DealRecord,
    Options,
    Phase,
)
from chalicelib.games.baohuang.step import Step
from chalicelib.games.baohuang.views import BaohuangView, deal_replay, view


class BaohuangGame(Game[BaohuangState, Action, Event, BaohuangView, Options]):
    key = "baohuang"
    family = "baohuang"
    title = "保皇"
    min_seats = SEATS
    max_seats = SEATS
    allows_hurry = False
    """催战 would let one player close everyone's declaration early (DECISIONS #4); timers do it instead."""
    records = RecordsPolicy(board="baohuang", subject=RecordSubject.USER)
    bots = True
    errors: ClassVar[Mapping[str, ErrorSpec]] = ERRORS
    quick_phrases = ("皇上吉祥", "臣护驾来迟", "侍卫何在", "这一手，朕准了", "姐姐请", "好牌",
                     "快些出牌吧", "承让了", "臣等叩见吾皇万岁万岁万万岁", "本宫乏了")
    """心战 around the table: the emperor, his guard and the rebels (seed 001's court talk)."""

    options_model = Options
    state_model = BaohuangState
    action_adapter = action_adapter
    event_adapter = event_adapter
    view_model = BaohuangView
    report_line_model = BaohuangReportLine
    outcome_extra_model = BaohuangDealResult

    # -- start -----------------------------------------------------------------------------------

    def room_title(self, options: Options) -> str:
        variant = self.parse_options(options).variant
        return f"{self.title}·{'经典' if variant is Variant.CLASSIC else '简明'}"

    def guide(self) -> tuple[GuideSection, ...]:
        """怎么玩: the rules card (`guide`), its numbers read from the game's own constants."""
        return guide_sections()

    def setup(self, entrants: Sequence[Entrant], options: Options, rng: Rng) -> BaohuangState:
        seated = sorted(entrants, key=lambda e: e.seat)
        step = Step(BaohuangState(options=options, names=tuple(e.name for e in seated), phase=Phase.THRONE,
                                  deal_no=0, bots=tuple(e.bot for e in seated)))
        start_deal(step, rng)
        return step.state

    # -- whom we wait for ------------------------------------------------------------------------

    def pending(self, state: BaohuangState) -> Pending | None:
        deal, timeout = state.deal, state.options.turn_seconds
        if state.phase is Phase.BETWEEN:
            waiting = frozenset(s for s in range(SEATS) if not state.ready[s])
            if waiting == {held_seat(state)}:
                return Pending(PendingKind.TURN, waiting, None, "between")  # only she is waited for: no clock
            return Pending(PendingKind.TURN, waiting, timeout, "between")
        if state.phase is Phase.OVER or deal is None:
            return None
        if state.phase is Phase.THRONE and deal.candidate is not None:
            return Pending(PendingKind.TURN, frozenset({deal.candidate}), timeout, "throne")
        if state.phase is Phase.DECLARE:
            seats = frozenset(s for s in range(SEATS) if s != deal.emperor and not state.auto[s])
            return Pending(PendingKind.SEALED, seats, timeout, "declare")
        if state.phase is Phase.PLAY and deal.turn is not None:
            return Pending(PendingKind.TURN, frozenset({deal.turn}), timeout, "play")
        return None

    def immediate(self, state: BaohuangState, actor: Viewer, action: Action) -> bool:
        """强退 and 托管 on/off apply at once, even while the declaration is sealed (DECISIONS #8)."""
        return actor.role is ViewerRole.PLAYER and isinstance(action, Quit | Auto | Resume)

    # -- checks ----------------------------------------------------------------------------------

    def check(self, state: BaohuangState, actor: Viewer, action: Action) -> None:
        """Raise the first reason `actor` may not do `action` now (codes: `errors.ERRORS`).

        Raises:
            GameOver, Forbidden, NotYourTurn, IllegalAction, MalformedRequest.
        """
        if state.phase is Phase.OVER:
            raise GameOver("本桌已结束", code="GAME_OVER")
        if actor.is_host:
            if not isinstance(action, Kick):
                raise IllegalAction("司礼只能踢出玩家", code="HOST_ONLY_KICKS")
            return
        if actor.role is not ViewerRole.PLAYER or actor.seat is None or not 0 <= actor.seat < SEATS:
            raise Forbidden("观战者不能操作", code="NOT_SEATED")
        seat = actor.seat
        match action:
            case Kick():
                raise Forbidden("只有司礼可以踢人", code="HOST_ONLY")
            case Auto():
                if state.auto[seat]:
                    raise IllegalAction("已在托管中", code="ALREADY_AUTO")
            case Resume():
                if not state.auto[seat]:
                    raise IllegalAction("你没有被托管", code="NOT_AUTO")
            case Quit():
                pass
            case Leave() | NextDeal():
                if state.phase is not Phase.BETWEEN:
                    raise IllegalAction(f"牌局进行中，只能强退（扣{QUIT_PENALTY}分）", code="MID_DEAL")
                if isinstance(action, NextDeal) and state.ready[seat]:
                    raise IllegalAction("已经准备好了", code="ALREADY_READY")
            case TakeThrone() | PassThrone():
                if state.phase is not Phase.THRONE or state.deal is None:
                    raise IllegalAction("现在不是选皇帝阶段", code="WRONG_PHASE")
                if state.deal.candidate != seat:
                    raise NotYourTurn("还没轮到你选择登基或让位", code="NOT_YOUR_TURN")
                if isinstance(action, TakeThrone):
                    throne.check_take(state, seat, action)
                else:
                    throne.check_pass(state)
            case StayHidden() | Declare() | GrabSolo():
                declare.check_sealed(state, seat, action)
            case Play():
                play.check_play(state, seat, action)
            case Pass():
                play.check_pass(state, seat)
            case _:
                assert_never(action)

    # -- transitions -----------------------------------------------------------------------------

    def apply(self, state: BaohuangState, actor: Viewer, action: Action, rng: Rng) -> Transition[BaohuangState, Event]:
        self.check(state, actor, action)
        step = Step(state)
        if isinstance(action, Kick):  # the host's only action (`check`)
            leave_table(step, action.seat, kicked=True)
            return self._done(step, rng)
        seat = actor.seat
        assert seat is not None
        match action:
            case StayHidden() | Declare() | GrabSolo():
                raise IllegalAction("声明是密封操作，由房间统一结算", code="SEALED_MOVE")
            case Auto():
                step.set_auto(seat, True)
                if state.phase is Phase.BETWEEN:
                    step.set_ready(seat)
                return self._done(step, rng)
            case _:
                step.set_auto(seat, False)
        match action:
            case Quit() | Leave():
                leave_table(step, seat, kicked=False)
            case NextDeal():
                step.set_ready(seat)
            case TakeThrone():
                throne.take(step, seat, action)
            case PassThrone():
                throne.pass_throne(step, seat, rng)
            case Play():
                play.play(step, seat, action.cards, play.check_play(state, seat, action))
            case Pass():
                play.pass_turn(step, seat)
            case Resume():
                pass
        return self._done(step, rng)

    def settle(self, state: BaohuangState, moves: Mapping[int, Action], rng: Rng) -> Transition[BaohuangState, Event]:
        """Resolve the sealed declaration with the moves submitted (missing seats: 不声明)."""
        if state.phase is not Phase.DECLARE:
            raise IllegalAction("现在不是声明阶段", code="WRONG_PHASE")
        step = Step(state)
        declare.settle(step, moves)
        return self._done(step, rng)

    def on_timeout(self, state: BaohuangState, rng: Rng) -> Transition[BaohuangState, Event]:
        """The pending deadline passed.

        THRONE / PLAY: the seat to act goes into 托管 and the engine acts for her (and for every
        following 托管 seat). DECLARE: settles with no moves (the room should call `settle` with
        the stored moves instead). BETWEEN: seats that did not press 继续 are made ready (not 托管),
        except the last person playing whom the clock put in 托管 (`held_seat`): the table waits for her.
        """
        if state.phase is Phase.OVER:
            raise GameOver("本桌已结束", code="GAME_OVER")
        if state.phase is Phase.DECLARE:
            return self.settle(state, {}, rng)
        step = Step(state)
        deal = state.deal
        if state.phase is Phase.BETWEEN:
            held = held_seat(state)
            for seat in range(SEATS):
                if seat != held:
                    step.set_ready(seat)
        elif deal is not None:
            seat_to_act = deal.candidate if state.phase is Phase.THRONE else deal.turn
            if seat_to_act is not None:
                step.set_auto(seat_to_act, True, clock=True)
        return self._done(step, rng)

    def _done(self, step: Step, rng: Rng) -> Transition[BaohuangState, Event]:
        auto.run(step, rng)
        return Transition(step.state, tuple(step.events), tuple(step.results))

    def seat_absent(self, state: BaohuangState, seat: int) -> bool:
        """Rules §8b: a seat in 托管 for a whole deal — she is in 托管 now and every move she made in the
        last finished deal was the engine's — may be handed to a bot after a vote of the others."""
        last = state.last
        if not state.auto[seat] or last is None:
            return False
        hers = choices(last.log, seat)
        return bool(hers) and all(e.auto for e in hers)  # her choices, not what merely happened to her

    # -- projections -----------------------------------------------------------------------------

    def view(self, state: BaohuangState, viewer: Viewer) -> BaohuangView:
        return view(state, viewer)

    def report(self, state: BaohuangState, events: Sequence[Event], viewer: Viewer) -> list[BaseModel]:
        return report(state, events, viewer)

    def deal_replay(self, state: BaohuangState, deal_no: int) -> DealRecord:
        """The full record of the last finished deal (see `views.deal_replay`)."""
        return deal_replay(state, deal_no)

    # -- bots ------------------------------------------------------------------------------------

    def bot_action(self, view: BaohuangView, seat: int, level: BotLevel, rng: Rng) -> Action | None:
        """See `bots`: SIMPLE is 托管, ADVANCED a heuristic player; both read only `view`."""
        return decide(view, seat, level, rng)


GAME = BaohuangGame()
