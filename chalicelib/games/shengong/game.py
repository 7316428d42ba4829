"""深宫杀 as `chalicelib.core.game.Game`s: the four objects the registry loads.

`GAME_D` 宫斗杀 (three seats against a stage, auto-start when full) and `GAME_A` / `GAME_B` / `GAME_C`
(eight seats, the creator presses 开战). One core: the same state, actions, events, views and report
lines; the modes differ only by their `Mode` (modes.py). Every round is one SEALED round for the
living seats until the end.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from types import MappingProxyType
from typing import Any, ClassVar, TypeVar

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import (
    Actor,
    BotLevel,
    Entrant,
    Game,
    GuideSection,
    Pending,
    PendingKind,
    Persona,
    RecordsPolicy,
    RecordSubject,
    Transition,
    Viewer,
)
from chalicelib.core.rng import Rng
from chalicelib.games.shengong import bosses, resolve
from chalicelib.games.shengong import check as rules
from chalicelib.games.shengong.actions import Action, action_adapter
from chalicelib.games.shengong.bots import decide
from chalicelib.games.shengong.cards import CATALOGUE
from chalicelib.games.shengong.deck import build_deck, deal, deck_levels
from chalicelib.games.shengong.errors import ERRORS
from chalicelib.games.shengong.events import Event, event_adapter
from chalicelib.games.shengong.guide import guide_for
from chalicelib.games.shengong.modes import MODES, MaidUse, Mode
from chalicelib.games.shengong.places import ORDINARY
from chalicelib.games.shengong.profile import ConsortProfile, profile_of
from chalicelib.games.shengong.report import ReportLine, build_report
from chalicelib.games.shengong.scoring import OutcomeExtra
from chalicelib.games.shengong.state import Player, State
from chalicelib.games.shengong.terms import ModeKey, Place
from chalicelib.games.shengong.views import ShengongView, build_view

_FROZEN = ConfigDict(frozen=True, extra="forbid")


class PalaceOptions(BaseModel):
    """玩法A/B/C room options: the round timer. The round limit is fixed (DECISIONS #2)."""

    model_config = _FROZEN

    turn_seconds: int = Field(default=90, ge=15, le=600)
    """Seconds before an open round settles by itself (unsubmitted seats 待机)."""


class StageOptions(PalaceOptions):
    """玩法D room options: the stage too (seed D①: 房主开房时选关卡)."""

    stage: int = Field(default=1, ge=1, le=len(bosses.STAGES),
                       json_schema_extra={"x-labels": {str(k): v for k, v in bosses.STAGE_TITLES.items()}})
    """`x-labels`: each stage's name with its opponent, for the 开房 dialog's choices (「关卡2 · 石露」)."""


O = TypeVar("O", bound=PalaceOptions)

_COUNTED = ("kills", "deaths", "hp_damage", "grace_damage", "taken")
_DAMAGE = ("hp_damage", "grace_damage")


def starting_places(rng: Rng, seats: int) -> tuple[Place, ...]:
    """DECISIONS #4: seats spread over the 六处 — every place gets one, random places a second, then
    the slots are shuffled over the seats."""
    return rng.shuffled(ORDINARY + rng.sample(ORDINARY, seats - len(ORDINARY)))


class ShengongGame(Game[State, Action, Event, ShengongView, O]):
    """One 深宫杀 mode (see docs/rules/shengong.md). Stateless: every method is a pure function."""

    mode: ClassVar[Mode]
    family = "shengong"
    seats_consorts = True
    allows_hurry = True
    bots = True
    errors = MappingProxyType(ERRORS)
    bot_names = ("柳答应", "苏常在", "顾贵人", "林答应", "秦常在", "陆贵人", "白答应", "许常在", "云贵人", "谢答应")
    """Decision (docs/rules/shengong.md §13): a bot sits as a fellow consort — a surname and a low rank
    (答应, 常在, 贵人), 「柳答应（机器人）」 — not under a 宫女's name (春桃, 夏荷…), which read as the maid
    cards in her hand; none is a demo 妃子's or a card's 宫女's."""
    quick_phrases = ("本宫乏了", "姐姐请", "妹妹好手段", "这宫里，谁都不可信", "今日之仇，来日必报",
                     "臣妾冤枉", "且慢", "承让了", "快些落子吧", "本宫记下了")
    """心战 across the table while moves are sealed."""
    state_model = State
    action_adapter: ClassVar[TypeAdapter[Any]] = action_adapter
    event_adapter: ClassVar[TypeAdapter[Any]] = event_adapter
    view_model = ShengongView
    report_line_model = ReportLine
    outcome_extra_model = OutcomeExtra

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self.key})"

    def _stage(self, options: O) -> int | None:
        return None

    def guide(self) -> tuple[GuideSection, ...]:
        return guide_for(self.mode, PalaceOptions.model_fields["turn_seconds"].default)

    # ---- start ----------------------------------------------------------------------------------
    def check_start(self, entrants: Sequence[Entrant], options: O) -> None:
        """The seat count, seats 0..n-1, every seat's 妃子 readable.

        Raises:
            IllegalAction: NOT_ENOUGH_PLAYERS, TOO_MANY_PLAYERS (core), BAD_SEATS, BAD_PROFILE.
        """
        super().check_start(entrants, options)
        if sorted(e.seat for e in entrants) != list(range(len(entrants))):
            raise IllegalAction("座次有误", code="BAD_SEATS")
        for e in entrants:
            profile_of(e)

    def setup(self, entrants: Sequence[Entrant], options: O, rng: Rng) -> State:
        """Start values from each 妃子 and the mode; A/B/C: seats spread over the 六处 and the first
        圣意; C/D: five cards dealt to each seat (seat order)."""
        opts = self.parse_options(options)
        self.check_start(entrants, opts)
        mode = self.mode
        spots = (mode.start_place,) * len(entrants) if mode.start_place else starting_places(rng, len(entrants))
        players = tuple(_player(mode, e, profile_of(e), spots[e.seat], rng) for e in sorted(entrants, key=lambda e: e.seat))
        decree = resolve.draw_decree(rng) if mode.start_place is None else ()
        opponents = bosses.opponents_for(stage) if (stage := self._stage(opts)) is not None else ()
        return State(mode=mode.key, stage=stage, turn_seconds=opts.turn_seconds, decree=decree, players=players,
                     opponents=opponents)

    # ---- rounds ---------------------------------------------------------------------------------
    def pending(self, state: State) -> Pending | None:
        """Seed: 每人每回合选一个行动…「落子」，全员落定即自动结算 — one SEALED round for the living.

        宫斗杀: a voided seat (暗杀 last round: 并令其下回合行动作废) is not waited for (`check.waits_for`):
        she has no move to make, and the settlement gives her the void (待机, no bonus) as a seat that
        sent nothing. A round that waits for no one settles at once (the room, `autoplay`)."""
        if state.over:
            return None
        seats = frozenset(p.seat for p in state.living() if rules.waits_for(self.mode, p))
        return Pending(PendingKind.SEALED, seats, timeout_s=state.turn_seconds, label=f"第{state.round}回合")

    def check(self, state: State, actor: Actor, action: Action) -> None:
        rules.check(self.mode, state, actor, action)

    def settle(self, state: State, moves: Mapping[int, Action], rng: Rng) -> Transition[State, Event]:
        return resolve.settle(self.mode, state, moves, rng)

    # ---- projections ----------------------------------------------------------------------------
    def view(self, state: State, viewer: Viewer) -> ShengongView:
        return build_view(self.mode, state, viewer)

    def report(self, state: State, events: Sequence[Event], viewer: Viewer) -> list[BaseModel]:
        lines: list[BaseModel] = [*build_report(self.mode, state, events, viewer)]
        return lines

    def bot_action(self, view: ShengongView, seat: int, level: BotLevel, rng: Rng) -> Action | None:
        return decide(view, seat, level, rng)

    def bot_persona(self, seat: int, level: BotLevel) -> Persona:
        """A bot sits as an average 妃子 (all four attributes 60) with one of each deck 宫女 at level
        2 (简单) or 3 (进阶): strong enough to be a table, no stronger than a well-kept player."""
        level_of = 3 if level is BotLevel.ADVANCED else 2
        return Persona(consort_id=f"bot-{seat}", name=f"机器人{seat + 1}", looks=60, talent=60, favor=60,
                       power=60, maids={c.id: level_of for c in CATALOGUE.values() if c.in_deck})


def _player(mode: Mode, e: Entrant, prof: ConsortProfile, place: Place, rng: Rng) -> Player:
    maids = {} if mode.maids is MaidUse.NONE else deck_levels(prof.maids)
    deck = deal(build_deck(maids), rng) if mode.maids is MaidUse.HAND else None
    return Player(
        seat=e.seat, name=e.name, consort=prof.name, looks=prof.looks, talent=prof.talent, favor=prof.favor,
        power=prof.power, maids=maids, hp=mode.start_hp(prof.looks), hp_max=mode.hp_max(prof.looks),
        grace=mode.grace_start, place=place, deck=deck,
    )


class StageGame(ShengongGame[StageOptions]):
    """玩法D · 宫斗杀: three players against a stage's boss (and, from 关卡3, her 随从)."""

    mode = MODES[ModeKey.D]
    key = "shengong_d"
    title = mode.title
    min_seats = max_seats = mode.seats
    auto_start = True
    default_open = True
    fixed_rules = MappingProxyType({"round_limit": mode.round_limit, "end": mode.end_text})
    records = RecordsPolicy(board="coop", subject=RecordSubject.CONSORT, counted=(*_COUNTED, "survived"),
                            damage=_DAMAGE, stages=tuple(range(1, len(bosses.STAGES) + 1)))
    bot_fill = False
    """Seed D: three friends against the stage; a bot only takes over a seat whose player is gone."""
    options_model = StageOptions

    def _stage(self, options: StageOptions) -> int | None:
        return options.stage

    def room_title(self, options: StageOptions) -> str:
        return f"{self.title}·关卡{self.parse_options(options).stage}"

    def check_seat(self, entrant: Entrant, options: StageOptions) -> None:
        """Seed D⑥ for each player as she sits (decision, docs/rules/shengong.md): a stage room fills
        only with players who have cleared the stage before it, so it can always start.

        Raises:
            IllegalAction: STAGE_LOCKED (naming her), BAD_PROFILE.
        """
        need = self.parse_options(options).stage - 1
        if need >= 1 and need not in profile_of(entrant).cleared_stages:
            raise IllegalAction(f"挑战关卡{need + 1}须先通关关卡{need}：{entrant.name} 尚未通关关卡{need}",
                                code="STAGE_LOCKED", players=[entrant.name])

    def option_locks(self, entrant: Entrant) -> Mapping[str, Mapping[str, str]]:
        """Seed D⑥ before she presses 开房 (decision, docs/rules/shengong.md §1): the stages she may
        not open yet, each with the refusal `check_seat` would give her (the same words), so the
        dialog greys them; a stage not named is open to her."""
        locked: dict[str, str] = {}
        for stage in range(1, len(bosses.STAGES) + 1):
            try:
                self.check_seat(entrant, StageOptions(stage=stage))
            except IllegalAction as e:
                locked[str(stage)] = e.message
        return {"stage": locked} if locked else {}

    def check_start(self, entrants: Sequence[Entrant], options: StageOptions) -> None:
        """Seed D①: exactly three; D⑥: 挑战关卡 N 须全队三人都通关关卡 N−1；有人没打通，开战时会点名提示.

        Raises:
            IllegalAction: those of ShengongGame.check_start, STAGE_LOCKED (naming each player who has
                not cleared the previous stage).
        """
        opts = self.parse_options(options)
        super().check_start(entrants, opts)
        need = opts.stage - 1
        missing = [e.name for e in entrants if need >= 1 and need not in profile_of(e).cleared_stages]
        if missing:
            raise IllegalAction(
                f"挑战关卡{opts.stage}须全队三人都通关关卡{need}：{'、'.join(missing)} 尚未通关关卡{need}",
                code="STAGE_LOCKED", players=missing,
            )


class PalaceGame(ShengongGame[PalaceOptions]):
    """玩法A/B/C: eight seats, a free-for-all in the palace."""

    min_seats = max_seats = 8
    default_open = False
    options_model = PalaceOptions
    fixed_rules = MappingProxyType({"round_limit": MODES[ModeKey.A].round_limit, "end": MODES[ModeKey.A].end_text})


class ArenaGame(PalaceGame):
    """玩法A 竞技局: 宫女 blocked."""

    mode = MODES[ModeKey.A]
    key = "shengong_a"
    title = mode.title
    records = RecordsPolicy(board="melee", subject=RecordSubject.CONSORT, counted=_COUNTED, damage=_DAMAGE)


class MaidGame(PalaceGame):
    """玩法B 宫女局: 宫女 passive."""

    mode = MODES[ModeKey.B]
    key = "shengong_b"
    title = mode.title
    records = RecordsPolicy(board="melee", subject=RecordSubject.CONSORT, counted=_COUNTED, damage=_DAMAGE)


class CardGame(PalaceGame):
    """玩法C 卡牌局: 宫女 as cards; its own board (seed: 玩法C 卡牌局另设一榜)."""

    mode = MODES[ModeKey.C]
    key = "shengong_c"
    title = mode.title
    records = RecordsPolicy(board="cards", subject=RecordSubject.CONSORT, counted=_COUNTED, damage=_DAMAGE)


GAME_D = StageGame()
GAME_A = ArenaGame()
GAME_B = MaidGame()
GAME_C = CardGame()

__all__ = ["GAME_A", "GAME_B", "GAME_C", "GAME_D", "PalaceOptions", "ShengongGame", "StageOptions"]
