"""Drive a 保皇 table through the HTTP API, choosing every action from the acting player's own view.

A `Table` is five logged-in players (dev logins) around one room. `Policy` turns a player's view into
her next action using only what that view offers: the throne choices (`candidate`, `callable`,
`can_open_solo`, `must_take`), the declaration choices (`can_grab`), and on her turn the hints
(可出牌型提示, cheapest first) and `can_pass`. `Table.run` keeps asking whoever the room waits for
until a stop condition holds, calling an observer after every accepted action.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chalicelib.games import get_game
from tests.api.helpers import Player

SEATS = 5
CODE = re.compile(r'"((?:[SHCD](?:10|[2-9JQKA])|BJ|LJ)#[1-4])"')
"""A card code as it appears in JSON (quoted), e.g. "S10#2", "HA#1", "BJ#1"."""


def card_codes(text: str) -> set[str]:
    """Every card code quoted in a JSON text."""
    return set(CODE.findall(text))


@dataclass
class Policy:
    """What each seat chooses, from her own view only.

    * throne: a seat in `pass_throne` yields the throne (让位) the first time it is offered to her,
      unless her view says she must take it; a taker calls the first face her view lists as callable
      (classic) or, with none, declares 明独保; in simple mode she takes without 明独保.
    * declaration: `declare` maps a seat, or else the role her view shows (`my_role`), to her sealed
      choice ("declare", "grab_solo"); everyone else sends "stay_hidden". A "grab_solo" is sent only
      when her view says `can_grab`.
    * play: pass when the trick is held by a partner her view names; else, following, the cheapest
      hint (or pass when there is none), and leading, the biggest group the hints offer without jokers.
    """

    pass_throne: set[int] = field(default_factory=set)
    declare: dict[int | str, str] = field(default_factory=dict)
    yielded: set[int] = field(default_factory=set)

    def throne(self, g: dict[str, Any]) -> dict[str, Any]:
        seat = g["seat"]
        if seat in self.pass_throne and seat not in self.yielded and not g["must_take"]:
            self.yielded.add(seat)
            return {"type": "pass_throne"}
        if g["variant"] == "classic":
            if g["callable"]:
                return {"type": "take_throne", "call": g["callable"][0]}
            return {"type": "take_throne", "open_solo": True}
        return {"type": "take_throne"}

    def declaration(self, g: dict[str, Any]) -> dict[str, Any]:
        choice = self.declare.get(g["seat"], self.declare.get(g["my_role"], "stay_hidden"))
        if choice == "grab_solo" and not g["can_grab"]:
            choice = "stay_hidden"
        return {"type": choice}

    @staticmethod
    def partners(g: dict[str, Any]) -> set[int]:
        """Seats this viewer knows to be on her side (from her view alone)."""
        role, emperor, guard = g["my_role"], g["emperor"], g["guard"]
        if role == "guard":
            return {emperor}
        if role == "emperor":
            return {guard} if guard is not None and guard != emperor else set()
        if g["guard_revealed"] and g["solo"] not in (None, "none"):
            return {s for s in range(SEATS) if s not in (emperor, g["seat"])}
        if g["guard_revealed"] and guard is not None:
            return {s for s in range(SEATS) if s not in (emperor, guard, g["seat"])}
        return set()

    @staticmethod
    def pick(g: dict[str, Any]) -> list[str]:
        """Following: the cheapest hint. Leading: the biggest offered group without jokers (the hints
        list a rank's whole group first), so a deal does not drag on one card at a time."""
        hints = g["hints"]
        if g["trick"] is not None:
            return hints[0]
        plain = [h for h in hints if not any(c.startswith(("BJ", "LJ")) for c in h)]
        return max(plain, key=len) if plain else hints[0]

    def play(self, g: dict[str, Any]) -> dict[str, Any]:
        trick = g["trick"]
        if g["can_pass"] and trick is not None and trick["seat"] in self.partners(g):
            return {"type": "pass"}
        if g["hints"]:
            return {"type": "play", "cards": list(self.pick(g))}
        assert g["can_pass"], g
        return {"type": "pass"}

    def choose(self, view: dict[str, Any]) -> dict[str, Any]:
        g = view["game"]
        phase = g["phase"]
        if phase == "throne":
            return self.throne(g)
        if phase == "declare":
            return self.declaration(g)
        if phase == "play":
            return self.play(g)
        if phase == "between":
            return {"type": "next_deal"}
        raise AssertionError(f"nothing to choose in phase {phase}")


Observer = Callable[["Table", int, dict[str, Any], dict[str, Any]], None]
"""Called as observer(table, seat, action, ack) after every accepted action."""


@dataclass
class Table:
    """Five players around one 保皇 room."""

    api: Any
    svc: Any
    players: list[Player]
    room_id: str

    @classmethod
    def open(cls, api: Any, svc: Any, names: list[str], start: bool = True, **options: Any) -> Table:
        players = [Player(api, name) for name in names]
        room_id = players[0].open_room("baohuang", options)
        for p in players[1:]:
            p.ok("POST", f"/v1/rooms/{room_id}/join")
        table = cls(api, svc, players, room_id)
        if start:
            table.start()
        return table

    @property
    def path(self) -> str:
        """The room's generic path (join, start, leave, hurry …)."""
        return f"/v1/rooms/{self.room_id}"

    @property
    def game_path(self) -> str:
        """The room under 保皇's own API (view, actions, reports, result, replay)."""
        return f"/v1/games/baohuang/rooms/{self.room_id}"

    def start(self) -> dict[str, Any]:
        return self.players[0].ok("POST", f"{self.path}/start")

    def view(self, seat: int) -> dict[str, Any]:
        return self.players[seat].view(self.room_id)

    def act(self, seat: int, action: dict[str, Any], step: int) -> Any:
        return self.players[seat].act(self.room_id, action, step=step)

    def do(self, seat: int, action: dict[str, Any], step: int) -> dict[str, Any]:
        r = self.act(seat, action, step)
        assert r.status_code == 200, (seat, action, r.status_code, r.body)
        ack = r.json_body
        assert ack["accepted"] is True
        return ack

    def stored(self) -> Any:
        return self.svc.rooms.get_room(self.room_id)

    def state(self) -> Any:
        """The engine state as stored (the truth the tests compare views against)."""
        game = get_game("baohuang")
        return game.state_model.model_validate(self.stored().state)

    def reports(self, seat: int, after: int = 0) -> list[dict[str, Any]]:
        """Every report after `after`, paging through the endpoint."""
        out: list[dict[str, Any]] = []
        while True:
            body = self.players[seat].ok("GET", f"{self.game_path}/reports?after={after}&limit=100")
            out += body["reports"]
            if not body["reports"]:
                return out
            after = body["next_after"]

    def run(
        self,
        policy: Policy,
        until: Callable[[dict[str, Any]], bool],
        observe: Observer | None = None,
        max_actions: int = 3000,
    ) -> dict[str, Any]:
        """Let the seats the room waits for act by `policy` until `until(view)`; returns that view.

        Each action is chosen from the acting seat's own fresh view. After an action the driver reads
        the view of the seat it expects to act next (one request), and re-reads when it guessed wrong.
        """
        view = self.view(0)
        for _ in range(max_actions):
            if until(view) or view["pending"] is None:
                return view
            seat = waiting_seat(view)
            if view["viewer"]["seat"] != seat:
                view = self.view(seat)
                continue
            action = policy.choose(view)
            ack = self.do(seat, action, view["room"]["step"])
            if observe is not None:
                observe(self, seat, action, ack)
            view = self.view(guess_next(view, seat, action))
        raise AssertionError("the table did not reach the stop condition")


def waiting_seat(view: dict[str, Any]) -> int:
    """A seat the room waits for (the viewer herself when she is one of them)."""
    pending = view["pending"]
    waiting = [s for s in pending["seats"] if s not in (pending.get("submitted") or [])]
    return view["viewer"]["seat"] if view["viewer"]["seat"] in waiting else waiting[0]


def guess_next(before: dict[str, Any], seat: int, action: dict[str, Any]) -> int:
    """Who probably acts after `seat` did `action` (only saves a request; a wrong guess costs one)."""
    g = before["game"]
    if g["phase"] == "throne":
        return (seat + 4) % SEATS if action["type"] == "pass_throne" else (seat + 1) % SEATS
    if g["phase"] == "declare":
        pending = before["pending"]
        rest = [s for s in pending["seats"] if s not in pending["submitted"] and s != seat]
        return rest[0] if rest else g["emperor"]
    if g["phase"] == "play":
        counts = [s["cards"] for s in g["seats"]]
        counts[seat] -= len(action.get("cards", ()))
        return next((s for k in range(1, SEATS) if counts[s := (seat + k) % SEATS] > 0), seat)
    return (seat + 1) % SEATS


def deal_over(view: dict[str, Any]) -> bool:
    """Between deals (or the table is over)."""
    return view["game"]["phase"] in ("between", "over")


def in_phase(phase: str) -> Callable[[dict[str, Any]], bool]:
    return lambda view: view["game"]["phase"] == phase
