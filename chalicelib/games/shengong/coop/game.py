"""玩法D · 宫斗杀 as a `chalicelib.core.game.Game`: the object the registry loads (`GAME`).

Three seats, auto-start when full (seed D①), one SEALED round after another until the stage is
cleared, the team is down, or round 20 has settled.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, ClassVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Actor, Entrant, Pending, PendingKind, Transition, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.coop import actions, bosses, report, resolve, views
from chalicelib.games.shengong.coop.actions import Action, action_adapter
from chalicelib.games.shengong.coop.events import Event, event_adapter
from chalicelib.games.shengong.coop.state import START_FAVOR, CoopState, PlayerState, base_hits, start_hp
from chalicelib.games.shengong.deck import build_deck, deal, deck_levels
from chalicelib.games.shengong.numbers import ROUND_LIMIT
from chalicelib.games.shengong.profile import ConsortProfile

SEATS = 3


class CoopOptions(BaseModel):
    """Chosen by the room's creator: the stage (seed D①: 房主开房时选关卡) and the round timer."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    stage: int = Field(default=1, ge=1, le=len(bosses.STAGES))
    turn_seconds: int = Field(default=90, ge=15, le=600)
    """Seconds before an open round settles by itself (unsubmitted seats 待机)."""


def _options(options: BaseModel | Mapping[str, Any]) -> CoopOptions:
    if isinstance(options, CoopOptions):
        return options
    data = options.model_dump() if isinstance(options, BaseModel) else dict(options)
    return CoopOptions.model_validate(data)


def _profile(entrant: Entrant) -> ConsortProfile:
    try:
        return ConsortProfile.model_validate(dict(entrant.profile))
    except ValidationError as err:
        raise IllegalAction(f"{entrant.name} 的妃子资料不完整", code="BAD_PROFILE") from err


class CoopGame:
    """宫斗杀 (see the module docstring and docs/rules/shengong.md)."""

    key = "shengong_d"
    title = "宫斗杀"
    min_seats = SEATS
    max_seats = SEATS
    auto_start = True
    host_runs = False
    fixed_rules: ClassVar[dict[str, Any]] = {"round_limit": ROUND_LIMIT, "end": f"通关、全队倒下或打满 {ROUND_LIMIT} 回合"}
    """Shown read-only when opening a room (seed: 终局规则固定…开房时置灰不可改)."""

    options_model = CoopOptions
    profile_model = ConsortProfile
    state_model = CoopState
    action_adapter: TypeAdapter[Action] = action_adapter
    event_adapter: TypeAdapter[Event] = event_adapter
    view_model = views.CoopView

    def check_start(self, entrants: Sequence[Entrant], options: BaseModel | Mapping[str, Any]) -> None:
        """Seed D①: exactly three; D⑥: stage N needs every player to have cleared N−1.

        Raises:
            IllegalAction: NOT_ENOUGH_PLAYERS, TOO_MANY_PLAYERS, BAD_SEATS, BAD_PROFILE, STAGE_LOCKED (the
                message names each player who has not cleared the previous stage).
        """
        opts = _options(options)
        if len(entrants) < SEATS:
            raise IllegalAction(f"宫斗杀须满 {SEATS} 人才能开战（现有 {len(entrants)} 人）", code="NOT_ENOUGH_PLAYERS")
        if len(entrants) > SEATS:
            raise IllegalAction(f"宫斗杀只容 {SEATS} 人", code="TOO_MANY_PLAYERS")
        if sorted(e.seat for e in entrants) != list(range(SEATS)):
            raise IllegalAction("席位编号应为 0、1、2", code="BAD_SEATS")
        profiles = [_profile(e) for e in entrants]
        need = opts.stage - 1
        if need >= 1:
            missing = [e.name for e, p in zip(entrants, profiles, strict=True) if need not in p.cleared_stages]
            if missing:
                raise IllegalAction(
                    f"挑战关卡{opts.stage}须全队三人都通关关卡{need}：{'、'.join(missing)} 尚未通关关卡{need}",
                    code="STAGE_LOCKED",
                    players=missing,
                )

    def setup(self, entrants: Sequence[Entrant], options: BaseModel | Mapping[str, Any], rng: Rng) -> CoopState:
        """Bars from each 妃子 (D②), everyone at 御花园, five cards dealt to each (seat order)."""
        self.check_start(entrants, options)
        opts = _options(options)
        players = []
        for e in sorted(entrants, key=lambda e: e.seat):
            seat = e.seat
            prof = _profile(e)
            levels = deck_levels(prof.maids)
            hp = start_hp(prof)
            players.append(PlayerState(
                seat=seat, name=e.name, consort=prof.name, hp_max=hp, hp=hp, favor=START_FAVOR,
                hits=base_hits(prof), levels=levels, deck=deal(build_deck(levels), rng),
            ))
        return CoopState(
            stage=opts.stage, turn_seconds=opts.turn_seconds, players=tuple(players),
            opponents=bosses.opponents_for(opts.stage),
        )

    def pending(self, state: CoopState) -> Pending | None:
        if state.over:
            return None
        seats = frozenset(p.seat for p in state.players if p.alive)
        return Pending(PendingKind.SEALED, seats, timeout_s=state.turn_seconds, label=f"第{state.round}回合")

    def check(self, state: CoopState, actor: Actor, action: Action) -> None:
        actions.check(state, actor, action)

    def apply(self, state: CoopState, actor: Actor, action: Action, rng: Rng) -> Transition[CoopState, Event]:
        raise IllegalAction("宫斗杀每回合统一落子结算，没有单步操作", code="NOT_TURN_BASED")

    def settle(self, state: CoopState, moves: Mapping[int, Action], rng: Rng) -> Transition[CoopState, Event]:
        return resolve.settle(state, moves, rng)

    def on_timeout(self, state: CoopState, rng: Rng) -> Transition[CoopState, Event]:
        """Not used for SEALED rounds (the room calls `settle`); if called, settles with no moves."""
        return resolve.settle(state, {}, rng)

    def view(self, state: CoopState, viewer: Viewer) -> views.CoopView:
        return views.view(state, viewer)

    def report(self, state: CoopState, events: Sequence[Event], viewer: Viewer) -> list[BaseModel]:
        return list(report.report(state, events, viewer))


GAME = CoopGame()
