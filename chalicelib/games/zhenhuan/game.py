"""血染甄嬛传 as a `Game`: the storyteller (host) drives the game; the engine proposes, applies the rules
and keeps the books. Players nominate and vote from their phones; everyone else only looks.

Hooks beyond the base (`chalicelib.core.game.Game`), used by the platform:

* `undoable` / `withdrawn`: the storyteller's 「撤销」 replays the log without her last press; the
  withdrawal notices go to whoever had seen what it showed.
* `admit` / `admit_model`: a traveller joining the running game (a new seat).
* `catalogue`: every role with the seed's ability text, and the night orders with their prompts.
* The vote clock: while a vote is open `pending` is a TURN for the players who may still vote, with
  the clock's length as `timeout_s` (counted from the transition that opened it); `on_timeout`
  closes and counts it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, ClassVar

from pydantic import BaseModel

from chalicelib.core.errors import Conflict, GameOver
from chalicelib.core.game import (
    Entrant,
    Game,
    GuideSection,
    Outcome,
    Pending,
    PendingKind,
    SeatResult,
    Transition,
    Viewer,
)
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan import actions as A
from chalicelib.games.zhenhuan import ending, setup, tools, votes
from chalicelib.games.zhenhuan.board import Board
from chalicelib.games.zhenhuan.catalogue import ZhenhuanCatalogue, catalogue
from chalicelib.games.zhenhuan.dispatch import run
from chalicelib.games.zhenhuan.enums import Phase
from chalicelib.games.zhenhuan.errors import ERRORS
from chalicelib.games.zhenhuan.events import (
    Event,
    HostEvent,
    InfoEvent,
    WithdrawnEvent,
    audience,
    event_adapter,
)
from chalicelib.games.zhenhuan.guide import guide_sections
from chalicelib.games.zhenhuan.roles import ROLES, Alignment, RoleKey, Team
from chalicelib.games.zhenhuan.state import Frozen, GameState, ZhenhuanOptions
from chalicelib.games.zhenhuan.views import ZhenhuanView, report, view

ReportLine = Event
"""Each report line is an event: its structured fields plus a readable Chinese `text`."""

_CATALOGUE_TOKENS = frozenset(token for role in ROLES.values() for token in role.reminders)
"""The roles' own reminder tokens (the catalogue's words, ours): placing one needs no content check."""


class ZhenhuanOutcomeExtra(Frozen):
    """`Outcome.extra` of a 血染甄嬛传 game."""

    winner: Alignment
    nights: int
    roles: tuple[RoleKey, ...]
    """Each seat's final role."""


def outcome(state: GameState) -> Outcome:
    assert state.winner is not None
    results = tuple(
        SeatResult(
            seat=s.seat,
            won=s.alignment is state.winner,
            stats={
                "alive": float(s.alive),
                "evil": float(s.alignment is Alignment.EVIL),
                "demon": float(ROLES[s.role].team is Team.DEMON),
            },
        )
        for s in state.seats
    )
    extra = ZhenhuanOutcomeExtra(winner=state.winner, nights=state.night_no, roles=tuple(s.role for s in state.seats))
    return Outcome(unit="game", reason=state.end_reason or "", results=results, extra=extra.model_dump(mode="json"))


def _transition(before: GameState, after: GameState) -> Transition[GameState, Event]:
    events = after.log[len(before.log) :]
    return Transition(state=after, events=events, results=(outcome(after),) if after.phase is Phase.OVER else ())


class ZhenhuanGame(Game[GameState, A.Action, Event, ZhenhuanView, ZhenhuanOptions]):
    key = "zhenhuan"
    family = "zhenhuan"
    title = "血染甄嬛传"
    min_seats = setup.MIN_PLAYERS
    max_seats = setup.MAX_PLAYERS
    host_runs = True
    hidden_steps = True
    """How many steps the storyteller takes at night depends on the roles in play: players see no counter."""
    allows_hurry = False
    """No sealed rounds to settle early: the storyteller runs the clock (and a 催战 answer would carry
    the step count to a seated 司礼)."""
    records = None
    errors = ERRORS
    options_model = ZhenhuanOptions
    state_model = GameState
    action_adapter = A.action_adapter
    event_adapter = event_adapter
    view_model = ZhenhuanView
    report_line_model: ClassVar[Any] = ReportLine
    outcome_extra_model = ZhenhuanOutcomeExtra
    late_join = True
    """Travellers join the running game (DECISIONS #13): the host seats them with `admit`."""
    admit_model = A.TravellerDetails
    """The details of a traveller joining the running game (`admit`)."""
    catalogue_model = ZhenhuanCatalogue
    spectators_chat_apart = True
    """Roles are hidden: a watcher who guesses (or a dead friend outside the game) must not coach the table."""
    quick_phrases = ("臣妾冤枉", "请皇上明察", "此人可疑", "我以性命担保", "且听我一言", "本宫信你",
                     "姐姐请", "天色已晚", "本宫乏了", "承让了")
    """心战 by day, before the vote."""

    def setup(self, entrants: Sequence[Entrant], options: ZhenhuanOptions, rng: Rng) -> GameState:
        self.check_start(entrants, options)
        return setup.new_game(entrants, self.parse_options(options), rng)

    def pending(self, state: GameState) -> Pending | None:
        if state.phase is Phase.OVER:
            return None
        day = state.day
        if state.phase is Phase.DAY and day is not None and day.clock is not None:
            waiting = frozenset(votes.may_still_vote(Board(state)))
            label = f"投票计时#{day.clock.serial}"
            return Pending(PendingKind.TURN, seats=waiting, timeout_s=day.clock.seconds, label=label, clock=label)
        # the label is public: a proposed end (e.g. the demon died tonight) must not show in it
        return Pending(PendingKind.HOST, label="说书人")

    def check(self, state: GameState, actor: Viewer, action: A.Action) -> None:
        run(state, actor, action, Rng.from_int(0))

    def apply(self, state: GameState, actor: Viewer, action: A.Action, rng: Rng) -> Transition[GameState, Event]:
        return _transition(state, run(state, actor, action, rng))

    def on_timeout(self, state: GameState, rng: Rng) -> Transition[GameState, Event]:
        """The vote clock ran out: the vote closes and is counted (seats that did not vote: no).

        Raises:
            Conflict: no vote is open any more (closed meanwhile).
        """
        if state.phase is not Phase.DAY or state.day is None or state.day.clock is None:
            raise Conflict("投票已经结束", code="VOTE_ALREADY_CLOSED")
        b = Board(state)
        votes.close(b)
        ending.check_win(b)
        return _transition(state, b.freeze())

    def view(self, state: GameState, viewer: Viewer) -> ZhenhuanView:
        return view(state, viewer)

    def report(self, state: GameState, events: Sequence[Event], viewer: Viewer) -> list[BaseModel]:
        return report(state, events, viewer)

    # -- storyteller tools ------------------------------------------------------------------------

    def undoable(self, state: GameState, actor: Viewer, action: A.Action) -> bool:
        """Whether `action` (applied by `actor` to `state`) may be taken back by 「撤销」: every press of
        the storyteller but 「确认结束」 (results are final). Players' own nominations and votes are
        not undone: the storyteller edits or deletes them."""
        return actor.is_host and not isinstance(action, A.ConfirmEnd)

    def preview(self, state: GameState, actor: Viewer, action: A.Action, rng: Rng) -> str | None:
        """A night step's answer for the targets chosen (瑾汐's pair: 「1号与2号之中没有恶魔」), before the
        storyteller presses 确定 and gestures it in the dark: the same pure transition, not kept."""
        if not actor.is_host or not isinstance(action, A.NightStep) or action.skip:
            return None
        told = [e for e in self.apply(state, actor, action, rng).events if isinstance(e, InfoEvent)]
        return "；".join(f"告诉{e.seat + 1}号：{e.text}" for e in told) or None

    def withdrawn(self, before: GameState, undone: Sequence[Event]) -> tuple[Event, ...]:
        """The undo transition's events: each player who was shown something by the undone press is
        told it is withdrawn (public lines: everyone); the storyteller gets a line. They change no
        state (the state after undo is the replay's), so undo then redo is byte-identical."""
        over = before.phase is Phase.OVER
        # The app shows a player nothing at night (what she was told appears at dawn): a private line
        # taken back before dawn is withdrawn without repeating it — repeated, it would tell her the
        # storyteller's mis-tap (true information about seats she never pointed at). The notice still
        # says that one was taken back, for a reader of the reports.
        asleep = before.phase is Phase.NIGHT
        public: list[str] = []
        private: dict[int, list[str]] = {}
        for e in undone:
            who = "all" if over else audience(e)
            if who == "all" and not isinstance(e, WithdrawnEvent):
                public.append(e.text)
            elif isinstance(who, int):
                private.setdefault(who, []).append(e.text)
        out: list[Event] = []
        if public:
            text = "说书人撤回了刚才公布的内容：" + "；".join(public)
            out.append(WithdrawnEvent(seat=None, lines=tuple(public), text=text))
        for seat, lines in sorted(private.items()):
            if asleep:
                out.append(WithdrawnEvent(seat=seat, lines=(), text=f"说书人撤回了今晚告诉你的{len(lines)}条信息"))
                continue
            text = "说书人撤回了刚才告诉你的信息：" + "；".join(lines)
            out.append(WithdrawnEvent(seat=seat, lines=tuple(lines), text=text))
        out.append(HostEvent(text="说书人撤销了上一步操作"))
        return tuple(out)

    def admit(self, state: GameState, entrant: Entrant, details: BaseModel, rng: Rng) -> Transition[GameState, Event]:
        """A traveller joins the running game at dawn or by day, in the next seat (`entrant.seat`).

        Raises:
            GameOver: the game has ended.
            IllegalAction: at night or during setup (TRAVELLER_JOINS_BY_DAY), SEAT_MISMATCH, TABLE_FULL.
        """
        if state.phase is Phase.OVER:
            raise GameOver()
        if not isinstance(details, A.TravellerDetails):
            details = A.TravellerDetails.model_validate(details.model_dump())
        b = Board(state)
        tools.admit(b, entrant, details)
        ending.check_win(b)
        return _transition(state, b.freeze())

    def on_abandon(self, state: GameState) -> A.Action | None:
        """DECISIONS #12: nothing is final until the storyteller confirms, or the room's idle timer ends
        it — with the end she was shown (a storyteller who walked away from a met win condition)."""
        return A.ConfirmEnd() if state.end is not None and state.phase is not Phase.OVER else None

    def free_texts(self, action: A.Action | BaseModel) -> tuple[str, ...]:
        """Typed text the players read passes content security first: a 告知's text, a traveller's
        identity and ability (admitted or set), a declared result's reason — and her notes and her
        own reminder tokens, which are hers only until the end, when everyone gets the grimoire, the
        full log (「备注3号：…」) and the replay. A role's own token is ours: not checked."""
        match action:
            case A.Tell(text=text) if text:
                return (text,)
            case A.TravellerDetails(identity=identity, ability=ability):
                return tuple(t for t in (identity, ability) if t)
            case A.DeclareWinner(reason=reason) if reason != A.DEFAULT_REASON:
                return (reason,)
            case A.SetNote(text=text) if text.strip():
                return (text,)
            case A.AddReminder(token=token) if token not in _CATALOGUE_TOKENS:
                return (token,)
        return ()

    def catalogue(self) -> ZhenhuanCatalogue:
        return catalogue()

    def guide(self) -> tuple[GuideSection, ...]:
        return guide_sections()


GAME = ZhenhuanGame()
