"""Two tiny games that exercise the room service without any real rules:
`tally` (sealed rounds, like 深宫杀) and `relay` (one seat at a time with a timer, like 保皇).

They are the worked example of adding a game (docs/architecture.md): subclass `Game`, declare the
models and policies, implement the rules, and register the instance (`tests/conftest.py` registers
these exactly as `chalicelib/games/__init__.py` lists the real ones)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from chalicelib.core.errors import IllegalAction, NotYourTurn
from chalicelib.core.game import (
    BotLevel,
    Entrant,
    Game,
    Outcome,
    Pending,
    PendingKind,
    SeatResult,
    Transition,
    Viewer,
    ViewerRole,
)
from chalicelib.core.rng import Rng


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class TallyOptions(Frozen):
    rounds: int = Field(default=2, ge=1, le=10)
    turn_seconds: int = Field(default=60, ge=5, le=600)


class Pick(Frozen):
    type: Literal["pick"] = "pick"
    n: int = Field(ge=1, le=3)
    secret: str = ""


class TallyState(Frozen):
    names: tuple[str, ...]
    round: int = 1
    rounds: int
    turn_seconds: int
    scores: tuple[int, ...]
    bonus: tuple[int, ...]


class Scored(Frozen):
    kind: Literal["scored"] = "scored"
    seat: int
    n: int
    bonus: int
    secret: str


TallyEvent = Annotated[Scored, Field(discriminator="kind")]


class Line(Frozen):
    text: str


class TallyView(Frozen):
    round: int
    scores: tuple[int, ...]
    me: int | None


class Tally(Game[TallyState, Pick, Scored, TallyView, TallyOptions]):
    key = "tally"
    family = "tally"
    title = "Tally"
    min_seats = 2
    max_seats = 3
    auto_start = True
    options_model = TallyOptions
    state_model = TallyState
    action_adapter = TypeAdapter(Annotated[Pick, Field(discriminator="type")])
    event_adapter = TypeAdapter(TallyEvent)
    view_model = TallyView
    report_line_model = Line
    bots = True

    def bot_action(self, view: TallyView, seat: int, level: BotLevel, rng: Rng) -> Pick:
        """A bot sees only its view: it picks 3 when it trails, else 1 or 2 at random."""
        assert view.me == seat
        behind = view.scores[seat] < max(view.scores)
        return Pick(n=3 if behind and level is BotLevel.ADVANCED else 1 + rng.below(2))

    def setup(self, entrants: Sequence[Entrant], options: TallyOptions, rng: Rng) -> TallyState:
        n = len(entrants)
        return TallyState(names=tuple(e.name for e in entrants), rounds=options.rounds,
                          turn_seconds=options.turn_seconds, scores=(0,) * n, bonus=(0,) * n)

    def pending(self, state: TallyState) -> Pending | None:
        if state.round > state.rounds:
            return None
        return Pending(PendingKind.SEALED, frozenset(range(len(state.names))), state.turn_seconds, f"R{state.round}")

    def check(self, state: TallyState, actor: Viewer, action: Pick) -> None:
        if actor.role is not ViewerRole.PLAYER:
            raise IllegalAction("只能玩家出手", code="PLAYERS_ONLY")

    def settle(self, state: TallyState, moves: Mapping[int, Pick], rng: Rng) -> Transition[TallyState, Scored]:
        scores, bonus, events = list(state.scores), list(state.bonus), []
        for seat in range(len(state.names)):
            move = moves.get(seat)
            n = move.n if move else 0
            b = rng.below(2)  # a random bonus so replays must reproduce draws
            scores[seat] += n + b
            bonus[seat] += b
            events.append(Scored(seat=seat, n=n, bonus=b, secret=move.secret if move else ""))
        new = state.model_copy(update={"round": state.round + 1, "scores": tuple(scores), "bonus": tuple(bonus)})
        results: tuple[Outcome, ...] = ()
        if new.round > new.rounds:
            best = max(scores)
            ranked = sorted(range(len(scores)), key=lambda s: -scores[s])
            results = (Outcome(unit="game", reason="done", results=tuple(
                SeatResult(seat=s, place=ranked.index(s) + 1, score=float(scores[s]), won=scores[s] == best)
                for s in range(len(scores)))),)
        return Transition(new, tuple(events), results)

    def view(self, state: TallyState, viewer: Viewer) -> TallyView:
        return TallyView(round=state.round, scores=state.scores, me=viewer.seat)

    def report(self, state: TallyState, events: Sequence[Scored], viewer: Viewer) -> list[BaseModel]:
        lines: list[BaseModel] = []
        for e in events:
            if viewer.role is ViewerRole.HOST or viewer.seat == e.seat:
                lines.append(Line(text=f"{state.names[e.seat]} 出 {e.n} {e.secret}"))
            else:
                lines.append(Line(text="有人出手"))
        return lines


class RelayOptions(Frozen):
    target: int = Field(default=5, ge=1, le=50)
    turn_seconds: int = Field(default=30, ge=5, le=600)


class Add(Frozen):
    type: Literal["add"] = "add"
    n: int = Field(ge=1, le=2)


class RelayState(Frozen):
    names: tuple[str, ...]
    turn: int = 0
    total: int = 0
    target: int
    turn_seconds: int
    auto: tuple[bool, ...]


class Added(Frozen):
    kind: Literal["added"] = "added"
    seat: int
    n: int
    auto: bool


class RelayView(Frozen):
    turn: int
    total: int
    auto: tuple[bool, ...]


class Relay(Game[RelayState, Add, Added, RelayView, RelayOptions]):
    key = "relay"
    family = "relay"
    title = "Relay"
    min_seats = 2
    max_seats = 2
    options_model = RelayOptions
    state_model = RelayState
    action_adapter = TypeAdapter(Annotated[Add, Field(discriminator="type")])
    event_adapter = TypeAdapter(Annotated[Added, Field(discriminator="kind")])
    view_model = RelayView
    report_line_model = Line
    bots = True

    def bot_action(self, view: RelayView, seat: int, level: BotLevel, rng: Rng) -> Add:
        return Add(n=2 if level is BotLevel.ADVANCED else 1)

    def setup(self, entrants: Sequence[Entrant], options: RelayOptions, rng: Rng) -> RelayState:
        return RelayState(names=tuple(e.name for e in entrants), target=options.target,
                          turn_seconds=options.turn_seconds, auto=(False,) * len(entrants))

    def pending(self, state: RelayState) -> Pending | None:
        if state.total >= state.target:
            return None
        return Pending(PendingKind.TURN, frozenset({state.turn}), state.turn_seconds, f"T{state.turn}")

    def check(self, state: RelayState, actor: Viewer, action: Add) -> None:
        if actor.seat != state.turn:
            raise NotYourTurn()

    def _add(self, state: RelayState, n: int, auto: bool) -> Transition[RelayState, Added]:
        total = state.total + n
        autos = list(state.auto)
        autos[state.turn] = auto
        new = state.model_copy(update={"total": total, "turn": (state.turn + 1) % len(state.names),
                                       "auto": tuple(autos)})
        results: tuple[Outcome, ...] = ()
        if total >= state.target:
            results = (Outcome(unit="game", reason="reached", results=tuple(
                SeatResult(seat=s, won=s == state.turn) for s in range(len(state.names)))),)
        return Transition(new, (Added(seat=state.turn, n=n, auto=auto),), results)

    def apply(self, state: RelayState, actor: Viewer, action: Add, rng: Rng) -> Transition[RelayState, Added]:
        return self._add(state, action.n, False)

    def on_timeout(self, state: RelayState, rng: Rng) -> Transition[RelayState, Added]:
        return self._add(state, 1, True)

    def view(self, state: RelayState, viewer: Viewer) -> RelayView:
        return RelayView(turn=state.turn, total=state.total, auto=state.auto)

    def report(self, state: RelayState, events: Sequence[Added], viewer: Viewer) -> list[BaseModel]:
        return [Line(text=f"{state.names[e.seat]} +{e.n}") for e in events]


TALLY = Tally()
RELAY = Relay()


# -- ledger: a hosted game for the host's tools (undo, telling, late entrants) ------------------

class LedgerOptions(Frozen):
    pass


class Note(Frozen):
    type: Literal["note"] = "note"
    text: str = Field(max_length=20)


class Tell(Frozen):
    type: Literal["tell"] = "tell"
    seat: int
    secret: str


class Cheer(Frozen):
    type: Literal["cheer"] = "cheer"


LedgerAction = Annotated[Note | Tell | Cheer, Field(discriminator="type")]


class Noted(Frozen):
    kind: Literal["noted"] = "noted"
    text: str
    luck: int


class Told(Frozen):
    kind: Literal["told"] = "told"
    seat: int
    secret: str


class Withdrawn(Frozen):
    kind: Literal["withdrawn"] = "withdrawn"
    seat: int


class Cheered(Frozen):
    kind: Literal["cheered"] = "cheered"
    seat: int


LedgerEvent = Annotated[Noted | Told | Withdrawn | Cheered, Field(discriminator="kind")]


class Newcomer(Frozen):
    colour: str = Field(min_length=1, max_length=8)


class LedgerState(Frozen):
    names: tuple[str, ...]
    colours: tuple[str, ...]
    notes: tuple[tuple[str, int], ...] = ()
    secrets: tuple[tuple[int, str], ...] = ()
    cheers: int = 0


class LedgerView(Frozen):
    notes: tuple[tuple[str, int], ...]
    colours: tuple[str, ...]
    my_secrets: tuple[str, ...]
    cheers: int


class Ledger(Game[LedgerState, Note | Tell | Cheer, Noted | Told | Withdrawn | Cheered, LedgerView, LedgerOptions]):
    key = "ledger"
    family = "ledger"
    title = "Ledger"
    min_seats = 1
    max_seats = 6
    host_runs = True
    hidden_steps = True
    late_join = True
    admit_model = Newcomer
    options_model = LedgerOptions
    state_model = LedgerState
    action_adapter = TypeAdapter(LedgerAction)
    event_adapter = TypeAdapter(LedgerEvent)
    view_model = LedgerView
    report_line_model = Line

    def setup(self, entrants: Sequence[Entrant], options: LedgerOptions, rng: Rng) -> LedgerState:
        return LedgerState(names=tuple(e.name for e in entrants), colours=("white",) * len(entrants))

    def pending(self, state: LedgerState) -> Pending | None:
        return Pending(PendingKind.HOST, label="host")

    def check(self, state: LedgerState, actor: Viewer, action: Note | Tell | Cheer) -> None:
        if isinstance(action, Cheer) != (actor.role is ViewerRole.PLAYER):
            raise IllegalAction("players cheer, the host writes", code="ILLEGAL_ACTION")

    def apply(self, state: LedgerState, actor: Viewer, action: Note | Tell | Cheer,
              rng: Rng) -> Transition[LedgerState, Noted | Told | Withdrawn | Cheered]:
        self.check(state, actor, action)
        if isinstance(action, Note):
            luck = rng.below(1000)  # a draw, so an undone note made again must draw the same
            return Transition(state.model_copy(update={"notes": (*state.notes, (action.text, luck))}),
                              (Noted(text=action.text, luck=luck),))
        if isinstance(action, Tell):
            return Transition(state.model_copy(update={"secrets": (*state.secrets, (action.seat, action.secret))}),
                              (Told(seat=action.seat, secret=action.secret),))
        assert actor.seat is not None
        return Transition(state.model_copy(update={"cheers": state.cheers + 1}), (Cheered(seat=actor.seat),))

    def free_texts(self, action: Note | Tell | Cheer) -> tuple[str, ...]:
        return (action.text,) if isinstance(action, Note) else ()

    def undoable(self, state: LedgerState, actor: Viewer, action: Note | Tell | Cheer) -> bool:
        return actor.is_host

    def withdrawn(self, before: LedgerState, undone: Sequence[Noted | Told | Withdrawn | Cheered]
                  ) -> tuple[Noted | Told | Withdrawn | Cheered, ...]:
        return tuple(Withdrawn(seat=e.seat) for e in undone if isinstance(e, Told))

    def admit(self, state: LedgerState, entrant: Entrant, details: BaseModel,
              rng: Rng) -> Transition[LedgerState, Noted | Told | Withdrawn | Cheered]:
        assert isinstance(details, Newcomer) and entrant.seat == len(state.names)
        return Transition(state.model_copy(update={"names": (*state.names, entrant.name),
                                                   "colours": (*state.colours, details.colour)}))

    def view(self, state: LedgerState, viewer: Viewer) -> LedgerView:
        mine = tuple(s for seat, s in state.secrets if viewer.is_host or seat == viewer.seat)
        return LedgerView(notes=state.notes, colours=state.colours, my_secrets=mine, cheers=state.cheers)

    def report(self, state: LedgerState, events: Sequence[Noted | Told | Withdrawn | Cheered],
               viewer: Viewer) -> list[BaseModel]:
        lines: list[BaseModel] = []
        for e in events:
            if isinstance(e, Told) and (viewer.is_host or viewer.seat == e.seat):
                lines.append(Line(text=f"你得知：{e.secret}"))
            elif isinstance(e, Withdrawn) and (viewer.is_host or viewer.seat == e.seat):
                lines.append(Line(text="说书人撤回了刚才告诉你的信息"))
            elif isinstance(e, Noted):
                lines.append(Line(text=f"记：{e.text}"))
        return lines


LEDGER = Ledger()
