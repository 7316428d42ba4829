"""保皇 as a `chalicelib.core.game.Game`: checks in a fixed order, then one transition.

Check order: table over → host (only `kick`) → seated player → table actions (托管, quit, leave,
继续) → phase and turn → the rule of the move. Any action by a seat in 托管 (other than `auto`)
takes her out of it. After every transition the engine keeps acting for 托管 seats until a human
must act (`auto.run`), so a pending TURN never waits on a seat in 托管.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from pydantic import BaseModel

from chalicelib.core.errors import Forbidden, GameOver, IllegalAction, NotYourTurn
from chalicelib.core.game import Entrant, Pending, PendingKind, Transition, Viewer, ViewerRole
from chalicelib.core.rng import Rng
from chalicelib.games.baohuang import auto, declare, play, throne
from chalicelib.games.baohuang.actions import (
    SEALED_ACTIONS,
    Auto,
    Kick,
    Leave,
    NextDeal,
    Pass,
    PassThrone,
    Play,
    Quit,
    Resume,
    TakeThrone,
    action_adapter,
)
from chalicelib.games.baohuang.deal import leave_table, start_deal
from chalicelib.games.baohuang.events import Ready, event_adapter
from chalicelib.games.baohuang.model import SEATS, BaohuangState, Options, Phase
from chalicelib.games.baohuang.step import Step
from chalicelib.games.baohuang.views import BaohuangView, deal_replay, report, view


class BaohuangGame:
    key = "baohuang"
    title = "保皇"
    min_seats = SEATS
    max_seats = SEATS
    auto_start = False
    host_runs = False
    options_model = Options
    profile_model = None
    state_model = BaohuangState
    action_adapter = action_adapter
    event_adapter = event_adapter
    view_model = BaohuangView

    # -- start ---------------------------------------------------------------------------------

    def check_start(self, entrants: Sequence[Entrant], options: BaseModel) -> None:
        if sorted(e.seat for e in entrants) != list(range(SEATS)):
            raise IllegalAction("保皇需要正好5位玩家", code="NEED_FIVE_PLAYERS")
        self._options(options)

    def setup(self, entrants: Sequence[Entrant], options: BaseModel, rng: Rng) -> BaohuangState:
        self.check_start(entrants, options)
        names = tuple(e.name for e in sorted(entrants, key=lambda e: e.seat))
        step = Step(BaohuangState(options=self._options(options), names=names, phase=Phase.THRONE, deal_no=0))
        start_deal(step, rng)
        return step.state

    @staticmethod
    def _options(options: BaseModel | Mapping[str, Any]) -> Options:
        if isinstance(options, Options):
            return options
        data = options.model_dump() if isinstance(options, BaseModel) else dict(options)
        return Options.model_validate(data)

    # -- whom we wait for ------------------------------------------------------------------------

    def pending(self, state: BaohuangState) -> Pending | None:
        deal, timeout = state.deal, state.options.turn_seconds
        if state.phase is Phase.OVER or (deal is None and state.phase is not Phase.BETWEEN):
            return None
        if state.phase is Phase.THRONE:
            return Pending(PendingKind.TURN, frozenset({deal.candidate}), timeout, "throne")  # type: ignore[union-attr,arg-type]
        if state.phase is Phase.DECLARE:
            seats = frozenset(s for s in range(SEATS) if s != deal.emperor and not state.auto[s])  # type: ignore[union-attr]
            return Pending(PendingKind.SEALED, seats, timeout, "declare")
        if state.phase is Phase.PLAY:
            return Pending(PendingKind.TURN, frozenset({deal.turn}), timeout, "play")  # type: ignore[union-attr,arg-type]
        waiting = frozenset(s for s in range(SEATS) if not state.ready[s])
        return Pending(PendingKind.TURN, waiting, timeout, "between")

    allows_hurry = False
    """催战 would let one player close everyone's declaration early (DECISIONS #4); timers do it instead."""

    def immediate(self, state: BaohuangState, actor: Viewer, action: Any) -> bool:
        """强退 and 托管 on/off apply at once, even while the declaration is sealed (DECISIONS #8)."""
        return actor.role is ViewerRole.PLAYER and isinstance(action, (Quit, Auto, Resume))

    # -- checks ----------------------------------------------------------------------------------

    def check(self, state: BaohuangState, actor: Viewer, action: Any) -> None:
        """Raise the first reason `actor` may not do `action` now.

        Raises:
            GameOver, Forbidden, NotYourTurn, IllegalAction, MalformedRequest.
        """
        if state.phase is Phase.OVER:
            raise GameOver("本桌已结束")
        if actor.is_host:
            if not isinstance(action, Kick):
                raise IllegalAction("司礼只能踢出玩家", code="HOST_ONLY_KICKS")
            return
        if actor.role is not ViewerRole.PLAYER or actor.seat is None or not 0 <= actor.seat < SEATS:
            raise Forbidden("观战者不能操作", code="NOT_SEATED")
        seat = actor.seat
        if isinstance(action, Kick):
            raise Forbidden("只有司礼可以踢人", code="HOST_ONLY")
        if isinstance(action, Auto):
            if state.auto[seat]:
                raise IllegalAction("已在托管中", code="ALREADY_AUTO")
            return
        if isinstance(action, Resume):
            if not state.auto[seat]:
                raise IllegalAction("你没有被托管", code="NOT_AUTO")
            return
        if isinstance(action, Quit):
            return
        if isinstance(action, (Leave, NextDeal)):
            if state.phase is not Phase.BETWEEN:
                raise IllegalAction("牌局进行中，只能强退（扣30分）", code="MID_DEAL")
            if isinstance(action, NextDeal) and state.ready[seat]:
                raise IllegalAction("已经准备好了", code="ALREADY_READY")
            return
        if isinstance(action, (TakeThrone, PassThrone)):
            if state.phase is not Phase.THRONE or state.deal is None:
                raise IllegalAction("现在不是选皇帝阶段", code="WRONG_PHASE")
            if state.deal.candidate != seat:
                raise NotYourTurn()
            if isinstance(action, TakeThrone):
                throne.check_take(state, seat, action)
            else:
                throne.check_pass(state, seat)
            return
        if isinstance(action, SEALED_ACTIONS):
            declare.check_sealed(state, seat, action)
            return
        if isinstance(action, Play):
            play.check_play(state, seat, action)
            return
        if isinstance(action, Pass):
            play.check_pass(state, seat)
            return
        raise IllegalAction("未知操作", code="UNKNOWN_ACTION")

    # -- transitions -----------------------------------------------------------------------------

    def apply(self, state: BaohuangState, actor: Viewer, action: Any, rng: Rng) -> Transition[BaohuangState, Any]:
        self.check(state, actor, action)
        if isinstance(action, SEALED_ACTIONS):
            raise IllegalAction("声明是密封操作，由房间统一结算", code="SEALED_MOVE")
        step = Step(state)
        if actor.is_host:
            leave_table(step, action.seat, kicked=True)
            return self._done(step, rng)
        seat = actor.seat
        assert seat is not None
        if not isinstance(action, Auto):
            auto.set_auto(step, seat, False)
        if isinstance(action, Auto):
            auto.set_auto(step, seat, True)
            if state.phase is Phase.BETWEEN:
                self._ready(step, seat)
        elif isinstance(action, (Quit, Leave)):
            leave_table(step, seat, kicked=False)
        elif isinstance(action, NextDeal):
            self._ready(step, seat)
        elif isinstance(action, TakeThrone):
            throne.take(step, seat, action)
        elif isinstance(action, PassThrone):
            throne.pass_throne(step, seat, rng)
        elif isinstance(action, Play):
            play.play(step, seat, action.cards, play.check_play(state, seat, action))
        elif isinstance(action, Pass):
            play.pass_turn(step, seat)
        return self._done(step, rng)

    def settle(self, state: BaohuangState, moves: Mapping[int, Any], rng: Rng) -> Transition[BaohuangState, Any]:
        """Resolve the sealed declaration with the moves submitted (missing seats: 不声明)."""
        if state.phase is not Phase.DECLARE:
            raise IllegalAction("现在不是声明阶段", code="WRONG_PHASE")
        step = Step(state)
        declare.settle(step, moves)
        return self._done(step, rng)

    def on_timeout(self, state: BaohuangState, rng: Rng) -> Transition[BaohuangState, Any]:
        """The pending deadline passed.

        THRONE / PLAY: the seat to act goes into 托管 and the engine acts for her (and for every
        following 托管 seat). DECLARE: settles with no moves (the room should call `settle` with
        the stored moves instead). BETWEEN: seats that did not press 继续 are made ready (not 托管).
        """
        if state.phase is Phase.OVER:
            raise GameOver("本桌已结束")
        if state.phase is Phase.DECLARE:
            return self.settle(state, {}, rng)
        step = Step(state)
        deal = state.deal
        if state.phase is Phase.BETWEEN:
            for seat in range(SEATS):
                if not state.ready[seat]:
                    self._ready(step, seat)
        elif deal is not None:
            seat = deal.candidate if state.phase is Phase.THRONE else deal.turn
            if seat is not None:
                auto.set_auto(step, seat, True)
        return self._done(step, rng)

    def _ready(self, step: Step, seat: int) -> None:
        if not step.state.ready[seat]:
            step.set(ready=tuple(True if s == seat else r for s, r in enumerate(step.state.ready)))
            step.emit(Ready(seat=seat))

    def _done(self, step: Step, rng: Rng) -> Transition[BaohuangState, Any]:
        auto.run(step, rng)
        return Transition(step.state, tuple(step.events), tuple(step.results))

    # -- projections -----------------------------------------------------------------------------

    def view(self, state: BaohuangState, viewer: Viewer) -> BaohuangView:
        return view(state, viewer)

    def report(self, state: BaohuangState, events: Sequence[Any], viewer: Viewer) -> list[BaseModel]:
        return report(state, events, viewer)

    def deal_replay(self, state: BaohuangState, deal_no: int) -> Any:
        """The full record of the last finished deal (see `views.deal_replay`)."""
        return deal_replay(state, deal_no)


GAME = BaohuangGame()
