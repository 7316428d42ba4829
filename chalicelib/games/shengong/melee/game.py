"""The Game objects for 深宫杀 玩法A 竞技局, B 宫女局 and C 卡牌局 (one engine, three modes).

The room drives it (see chalicelib.core.game): `check_start` → `setup` → every round `pending` (one
SEALED round for all living seats, deadline `turn_seconds`) → `check` each sealed order → `settle`
with the orders that came in (missing = 待机) → ... until `pending` is None; the last Transition
carries the final Outcome.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ValidationError

from chalicelib.core.errors import GameOver, IllegalAction
from chalicelib.core.game import Actor, Entrant, Pending, PendingKind, Transition, Viewer, ViewerRole
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.deck import build_deck, deal, deck_levels
from chalicelib.games.shengong.melee import places as P
from chalicelib.games.shengong.melee.actions import Action, action_adapter
from chalicelib.games.shengong.melee.events import Event, event_adapter
from chalicelib.games.shengong.melee.report import ReportLine, build_report
from chalicelib.games.shengong.melee.resolve import draw_decree, settle_round
from chalicelib.games.shengong.melee.rules import check_order
from chalicelib.games.shengong.melee.scoring import outcome
from chalicelib.games.shengong.melee.state import MeleeOptions, MeleeState, Mode, Player
from chalicelib.games.shengong.melee.views import MeleeView, build_view
from chalicelib.games.shengong.numbers import ROUND_LIMIT
from chalicelib.games.shengong.profile import ConsortProfile

TITLES = {Mode.A: "深宫杀 · 竞技局", Mode.B: "深宫杀 · 宫女局", Mode.C: "深宫杀 · 卡牌局"}


def _options(options: BaseModel | Mapping[str, object] | None) -> MeleeOptions:
    if isinstance(options, MeleeOptions):
        return options
    if options is None:
        return MeleeOptions()
    data = options.model_dump() if isinstance(options, BaseModel) else dict(options)
    return MeleeOptions.model_validate(data)


def starting_places(rng: Rng) -> tuple[str, ...]:
    """DECISIONS #4: 8 seats spread over the 六处 — every place gets one, two random places a second,
    then the eight slots are shuffled over the seats."""
    return rng.shuffled(P.ORDINARY + rng.sample(P.ORDINARY, P.SEATS - len(P.ORDINARY)))


class MeleeGame:
    """One of 玩法A/B/C. Stateless: every method is a pure function of its arguments."""

    min_seats = P.SEATS
    max_seats = P.SEATS
    auto_start = False
    host_runs = False
    fixed_rules: ClassVar[dict[str, Any]] = {"round_limit": ROUND_LIMIT, "end": f"只剩 1 人即止，或打满 {ROUND_LIMIT} 回合"}
    """Shown read-only when opening a room (seed: 终局规则固定（剩 1 人即止，或打满 20 回合），开房时置灰不可改)."""
    options_model = MeleeOptions
    profile_model = ConsortProfile
    state_model = MeleeState
    action_adapter = action_adapter
    event_adapter = event_adapter
    view_model = MeleeView

    def __init__(self, mode: Mode) -> None:
        self.mode = mode
        self.key = f"shengong_{mode.value.lower()}"
        self.title = TITLES[mode]

    def __repr__(self) -> str:
        return f"MeleeGame({self.key})"

    # ---- start ----------------------------------------------------------------------------------
    def check_start(self, entrants: Sequence[Entrant], options: BaseModel) -> None:
        """Raises IllegalAction NEED_EIGHT unless exactly 8 seats, PROFILE_INVALID on a bad profile."""
        if len(entrants) != P.SEATS:
            raise IllegalAction(f"须满 {P.SEATS} 人方可开战", code="NEED_EIGHT")
        if sorted(e.seat for e in entrants) != list(range(P.SEATS)):
            raise IllegalAction("座次有误", code="BAD_SEATS")
        for e in entrants:
            try:
                ConsortProfile.model_validate(e.profile)
            except ValidationError as exc:
                raise IllegalAction(f"{e.name} 的妃子资料有误", code="PROFILE_INVALID") from exc
        _options(options)

    def setup(self, entrants: Sequence[Entrant], options: BaseModel, rng: Rng) -> MeleeState:
        self.check_start(entrants, options)
        opts = _options(options)
        spots = starting_places(rng)
        players = []
        for e in sorted(entrants, key=lambda e: e.seat):
            prof = ConsortProfile.model_validate(e.profile)
            maids = {} if self.mode is Mode.A else deck_levels(prof.maids)
            deck = deal(build_deck(maids), rng) if self.mode is Mode.C else None
            players.append(Player(
                seat=e.seat, name=e.name, looks=prof.looks, talent=prof.talent, favor=prof.favor,
                power=prof.power, maids=maids, hp=P.HP_START, grace=P.GRACE_START, place=spots[e.seat], deck=deck,
            ))
        return MeleeState(mode=self.mode, round_limit=ROUND_LIMIT, turn_seconds=opts.turn_seconds,
                          decree=draw_decree(rng), players=tuple(players))

    # ---- rounds ---------------------------------------------------------------------------------
    def pending(self, state: MeleeState) -> Pending | None:
        if state.over:
            return None
        return Pending(PendingKind.SEALED, frozenset(state.living()), timeout_s=state.turn_seconds,
                       label=f"第{state.round}回合")

    def check(self, state: MeleeState, actor: Actor, action: Action) -> None:
        """Validate one sealed order at submission (see rules.check_order).

        Raises:
            GameOver: the game has ended.
            IllegalAction: HOST_CANNOT_ACT, or any rule failure of rules.check_order.
            NotYourTurn: NOT_SEATED, ELIMINATED (from rules.check_order).
        """
        if state.over:
            raise GameOver()
        if actor.role is not ViewerRole.PLAYER or actor.seat is None:
            raise IllegalAction("司礼不入局，不能落子", code="HOST_CANNOT_ACT")
        check_order(state, actor.seat, action)

    def apply(self, state: MeleeState, actor: Actor, action: Action, rng: Rng) -> Transition[MeleeState, Event]:
        raise IllegalAction("本玩法全员同时落子，请提交密令", code="USE_SEALED_MOVE")

    def settle(self, state: MeleeState, moves: Mapping[int, Action], rng: Rng) -> Transition[MeleeState, Event]:
        """Resolve the round with the orders that came in (missing living seats = 待机)."""
        if state.over:
            raise GameOver()
        new, events = settle_round(state, moves, rng)
        results = (outcome(new),) if new.over else ()
        return Transition(state=new, events=tuple(events), results=results)

    def on_timeout(self, state: MeleeState, rng: Rng) -> Transition[MeleeState, Event]:
        """Not used by a SEALED game; settles with nobody's orders (everyone 待机) if ever called."""
        return self.settle(state, {}, rng)

    # ---- projections ----------------------------------------------------------------------------
    def view(self, state: MeleeState, viewer: Viewer) -> MeleeView:
        return build_view(state, viewer)

    def report(self, state: MeleeState, events: Sequence[Event], viewer: Viewer) -> list[ReportLine]:
        return build_report(state, events, viewer)


GAME_A = MeleeGame(Mode.A)
GAME_B = MeleeGame(Mode.B)
GAME_C = MeleeGame(Mode.C)

__all__ = ["GAME_A", "GAME_B", "GAME_C", "MeleeGame"]
