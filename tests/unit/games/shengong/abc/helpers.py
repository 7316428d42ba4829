"""Fixtures for A/B/C rule scenarios: a compact board literal and a scripted generator."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from chalicelib.core.game import Entrant, Persona
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.actions import Action, action_adapter
from chalicelib.games.shengong.cards import CATALOGUE, Rarity
from chalicelib.games.shengong.deck import Deck
from chalicelib.games.shengong.events import Acted, Event, Landed, PassiveDone
from chalicelib.games.shengong.modes import MODES
from chalicelib.games.shengong.resolve import settle
from chalicelib.games.shengong.state import Player, State
from chalicelib.games.shengong.terms import Dim, ModeKey, Place, Side

NAMES = ("甄嬛", "沈眉庄", "安陵容", "华妃", "齐妃", "敬妃", "端妃", "曹贵人")
R_CARDS = tuple(c.id for c in CATALOGUE.values() if c.rarity is Rarity.R)


class Script(Rng):
    """A generator whose hit rolls (below(100)) and other picks are scripted.

    Unscripted hit rolls return 0 (every attack hits); unscripted picks return 0 (first candidate).
    """

    def __init__(self, rolls: Iterable[int] = (), picks: Iterable[int] = ()) -> None:
        super().__init__(b"\0" * 32, 0)
        self.rolls = list(rolls)
        self.picks = list(picks)

    def below(self, n: int) -> int:
        if n == 100:
            return self.rolls.pop(0) if self.rolls else 0
        return self.picks.pop(0) if self.picks else 0


def t(points: float) -> int:
    return round(points * 10)


def seat(i: int, place: str = "景仁宫", hp: float = 10, grace: float = 5, **kw: Any) -> Player:
    base: dict[str, Any] = dict(seat=i, name=NAMES[i], consort=f"{NAMES[i]}（妃）", looks=50, talent=50, favor=50,
                                power=50, hp=t(hp), hp_max=t(12), grace=t(grace), place=Place(place))
    base.update(kw)
    return Player(**base)


def board(*players: Player, mode: ModeKey = ModeKey.A, decree: Sequence[str] = ("looks", "favor"),
          round: int = 1) -> State:
    """The given players plus out-of-game fillers for the other seats (placed 8, 7, ...)."""
    given = {p.seat: p for p in players}
    fill_place = 8
    out = []
    for i in range(8):
        if i in given:
            out.append(given[i])
        else:
            out.append(seat(i, place="长春宫", hp=0, alive=False, out_round=0, placement=fill_place))
            fill_place -= 1
    if mode is ModeKey.C:
        out = [p if p.deck is not None else p.model_copy(update={"deck": Deck()}) for p in out]
    return State(mode=mode, round=round, decree=tuple(Dim(d) for d in decree), players=tuple(out))


def act(**kw: Any) -> Action:
    return action_adapter.validate_python(kw)


def run(state: State, moves: Mapping[int, Any], rng: Rng | None = None) -> tuple[State, list[Event]]:
    parsed = {s: (m if not isinstance(m, dict) else action_adapter.validate_python(m)) for s, m in moves.items()}
    tr = settle(MODES[state.mode], state, parsed, rng or Script())
    return tr.state, list(tr.events)


def action_of(events: Sequence[Event], s: int) -> Acted:
    return next(e for e in events if isinstance(e, Acted) and e.seat == s)


def passive_of(events: Sequence[Event], s: int) -> PassiveDone:
    return next(e for e in events if isinstance(e, PassiveDone) and e.seat == s)


def tally_of(events: Sequence[Event], s: int) -> Landed:
    return next(e for e in events if isinstance(e, Landed) and e.side is Side.PLAYER and e.index == s)


def landed_on(event: Acted | PassiveDone) -> dict[int, tuple[int, int]]:
    """Victim seat -> (气血, 好感) that landed from this move."""
    return {h.index: (h.hp_net, h.grace_net) for h in event.hits}


def entrants(maids: Mapping[int, Sequence[tuple[str, int]]] | None = None) -> list[Entrant]:
    maids = maids or {}
    return [
        Entrant(seat=i, name=NAMES[i], persona=Persona(
            consort_id=f"c{i}", name=NAMES[i], looks=10 * i, talent=70 - 5 * i, favor=30 + 7 * i % 50,
            power=90 - 9 * i, maids=dict(maids.get(i, ())),
        ))
        for i in range(8)
    ]
