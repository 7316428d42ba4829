"""简单 SIMPLE bot for 深宫杀, and the view helpers every bot shares (see `bots.py`)."""

from __future__ import annotations

from chalicelib.core.rng import Rng
from chalicelib.games.shengong.actions import Action, Frame, Heal, Idle, Poison
from chalicelib.games.shengong.terms import ActionType, Attack, Place
from chalicelib.games.shengong.views import PlaceView, PlayerView, ShengongView

LOW_HP = 0.4
"""SIMPLE: 养生 below this share of her 气血 cap."""
LOW_GRACE = 2.0
"""SIMPLE: 待机 below this 好感."""


def place_of(view: ShengongView, place: Place) -> PlaceView:
    return next(p for p in view.places if p.place is place)


def rivals(view: ShengongView, seat: int) -> list[PlayerView]:
    """The other living seats (A/B/C opponents; D teammates)."""
    return [p for p in view.players if p.alive and p.seat != seat]


def simple(view: ShengongView, seat: int, rng: Rng) -> Action:
    """简单: 养生 below 40% of her cap, 待机 below 2 好感, else attack the weakest visible opponent (the
    boss with the least 气血 in D; in A/B/C the place of the living seat with the least 气血)."""
    me = view.players[seat]
    assert view.you is not None
    if me.hp < LOW_HP * me.hp_max and view.you.heal_now > 0 and ActionType.HEAL in view.actions:
        return Heal()
    if me.grace < LOW_GRACE:
        return Idle()
    if view.opponents:
        living = [o for o in view.opponents if o.alive]
        low = min(o.hp for o in living)
        return Poison(target=rng.choice([o.index for o in living if o.hp == low]))
    others = rivals(view, seat)
    low = min(p.hp for p in others)
    weakest = rng.choice([p for p in others if p.hp == low])
    for p in (weakest, *sorted(others, key=lambda q: (q.hp, q.seat))):
        targets = place_of(view, p.place).targets
        if Attack.POISON in targets:
            return Poison(place=p.place)
        if Attack.FRAME in targets:
            return Frame(place=p.place)
    return Idle()
