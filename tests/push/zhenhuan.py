"""A 血染甄嬛传 table driven at the service level on the push harness (the storyteller's presses as
`play.act`, views as the API renders them), for the socket privacy and report tests."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from chalicelib.core.identity import Caller
from chalicelib.rooms import lobby, play, views
from tests.push.harness import Harness

ST = Caller(user_id="st", name="说书人")


@dataclass
class Table:
    h: Harness
    room: str
    players: list[Caller]
    presses: int = field(default=0)

    @classmethod
    def open(cls, h: Harness, n: int = 5) -> Table:
        room = lobby.create_room(h.rooms, ST, "zhenhuan", {}, None, None).id
        players = [Caller(user_id=f"p{i}", name=f"宾客{i + 1:02d}") for i in range(n)]
        for p in players:
            lobby.join_room(h.rooms, p, room, None)
        lobby.start_room(h.rooms, ST, room)
        return cls(h, room, players)

    def view(self, who: Caller) -> views.RoomView:
        return views.room_view(self.h.rooms, who, self.room, "zhenhuan")

    def grim(self) -> dict[str, Any]:
        grim: dict[str, Any] = self.view(ST).body["game"]["grimoire"]
        return grim

    def do(self, action: dict[str, Any]) -> None:
        play.act(self.h.rooms, ST, self.room, self.h.store.get_room(self.room).step, action)
        self.presses += 1

    def deal(self, roles: list[str]) -> None:
        held = [s["role"] for s in self.grim()["seats"]]
        for seat, role in enumerate(roles):
            if held[seat] != role:
                self.do({"type": "assign", "seat": seat, "role": role})
                held = [held[seat] if r == role else r for r in held]
                held[seat] = role
        assert [s["role"] for s in self.grim()["seats"]] == roles

    def step_night(self) -> bool:
        """One press of tonight's current step as offered (nobody acts); False when the night is walked."""
        cur = self.grim()["night"]["current"]
        if cur is None:
            return False
        self.do({"type": "night_step", "step": cur["key"]} if cur["disabled"] else
                {"type": "night_step", "step": cur["key"], "skip": not all(x["optional"] for x in cur["slots"])})
        return True
