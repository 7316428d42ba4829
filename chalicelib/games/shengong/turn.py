"""The working context of one settlement (`Round`) and its step 0: the orders.

The incoming state *is* the snapshot (seed: 回合初统一快照): every step reads it and writes only to
the round's ledger and records; nothing lands before step 8.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from pydantic import BaseModel, ValidationError

from chalicelib.core.errors import DomainError
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.actions import ACTION_CLASSES, IDLE, Action, action_adapter
from chalicelib.games.shengong.bosses import BossAction
from chalicelib.games.shengong.check import check_move
from chalicelib.games.shengong.deck import CardPlay
from chalicelib.games.shengong.effects import Mods, card_mods, passive_mods
from chalicelib.games.shengong.events import CardsPlayed, Event
from chalicelib.games.shengong.ledger import Ledger, Ref, Source
from chalicelib.games.shengong.modes import MaidUse, Mode
from chalicelib.games.shengong.state import Opponent, Player, State
from chalicelib.games.shengong.terms import ActionType, Attack, Bar, Dim, Place, Result, Side, attack_of


@dataclass(slots=True)
class Order:
    """One living seat's effective move this round."""

    seat: int
    action: Action
    """What she does: 待机 when no readable, legal move came in."""
    voided: bool
    """A 暗杀 hit her last round: the move does nothing and earns no bonus."""
    defaulted: bool
    refused: str | None
    play: CardPlay | None
    """The cards to spend after the round (C, D)."""
    mods: Mods
    """Her 宫女's effects this round (B passive, C/D played cards)."""

    def does(self, kind: ActionType) -> bool:
        return not self.voided and self.action.type is kind

    @property
    def attack(self) -> Attack | None:
        return None if self.voided else attack_of(self.action.type)


@dataclass(slots=True)
class Deed:
    """What a move did, filled in by the steps."""

    result: Result = Result.DONE
    chance: int | None = None
    target: int | None = None
    won: list[Dim] = field(default_factory=list)


@dataclass(slots=True)
class Round:
    mode: Mode
    snap: State
    rng: Rng
    orders: dict[int, Order]
    """Living seats, in seat order."""
    ledger: Ledger
    deeds: dict[int, Deed]
    plans: dict[int, BossAction] = field(default_factory=dict)
    boss_deeds: dict[int, Deed] = field(default_factory=dict)
    aimed: dict[int, tuple[int, ...]] = field(default_factory=dict)
    voids: set[int] = field(default_factory=set)
    """Seats a 暗杀 hit this round: their next move is void."""
    passives: list[int] = field(default_factory=list)
    """Seats whose place acted through them (A/B/C 御膳房, 摘星楼)."""
    winners: tuple[int | None, ...] = ()
    nets: dict[Ref, dict[Bar, dict[Source, int]]] = field(default_factory=dict)
    bars: dict[Ref, tuple[int, int | None]] = field(default_factory=dict)
    """Each living unit's 气血 and 好感 once the round has landed (step 8)."""
    own_landed: dict[int, dict[Bar, int]] = field(default_factory=dict)
    """Each seat's change from her own move that landed (step 8): a gain past her cap is lost."""
    players: list[Player] = field(default_factory=list)
    opponents: list[Opponent] = field(default_factory=list)
    events: list[Event] = field(default_factory=list)

    @property
    def round_no(self) -> int:
        return self.snap.round

    def at(self, place: Place) -> list[int]:
        """The living seats standing at `place` in the snapshot (同宫), in seat order."""
        return [s for s in self.orders if self.snap.players[s].place is place]


def _read(moves: Mapping[Any, Any]) -> dict[int, Action | None]:
    """Submitted moves by seat (keys may be JSON strings); an unreadable move maps to None. A seat
    mapped to None did not submit (the room's placeholder)."""
    out: dict[int, Action | None] = {}
    for key, raw in moves.items():
        if raw is None:
            continue
        if isinstance(raw, ACTION_CLASSES):
            out[int(key)] = raw
            continue
        try:
            out[int(key)] = action_adapter.validate_python(raw.model_dump() if isinstance(raw, BaseModel) else raw)
        except ValidationError:
            out[int(key)] = None
    return out


def _order(mode: Mode, snap: State, player: Player, submitted: bool, action: Action | None) -> Order:
    refused = "MALFORMED_ACTION" if submitted and action is None else None
    if action is not None:
        try:
            check_move(mode, snap, player.seat, action)
        except DomainError as err:
            refused, action = err.code, None
    move = action if action is not None else IDLE
    play = move.cards if mode.maids is MaidUse.HAND and not move.cards.empty else None
    if mode.maids is MaidUse.PASSIVE:
        mods = passive_mods(player.maids, None if player.voided else move.type)
    else:
        mods = card_mods(player.maids, play) if play is not None else {}
    return Order(seat=player.seat, action=move, voided=player.voided, defaulted=action is None,
                 refused=refused, play=play, mods=mods)


def open_round(mode: Mode, snap: State, moves: Mapping[Any, Any], rng: Rng) -> Round:
    """Step 0. Orders: each living seat's move; 待机 when missing (seed: 未落子按待机处理), unreadable
    or no longer legal in the snapshot (the room checks on submit; this is the safety net); a voided
    seat's move does nothing. Played cards are recorded."""
    given = _read(moves)
    orders = {p.seat: _order(mode, snap, p, p.seat in given, given.get(p.seat)) for p in snap.living()}
    units: list[Ref] = [(Side.PLAYER, s) for s in orders]
    units += [(Side.OPPONENT, o.index) for o in snap.living_opponents()]
    rnd = Round(mode=mode, snap=snap, rng=rng, orders=orders, ledger=Ledger(units),
                deeds={s: Deed() for s in orders}, players=list(snap.players), opponents=list(snap.opponents))
    for o in orders.values():
        if o.play is not None:
            rnd.events.append(CardsPlayed(round=snap.round, seat=o.seat, attack=o.play.attack,
                                          defence=o.play.defence, general=o.play.general, discard=o.play.discard))
    return rnd
