"""Drive a 血染甄嬛传 room through the HTTP API as the storyteller would from her phone.

A `Table` is one storyteller (the room's host, who does not sit) and 5–20 seated players, all dev
logins. Every game action is the storyteller's button press (`POST /v1/rooms/{id}/actions`); the
players only look. `Table.night` walks the current night step by step exactly as the storyteller's
own view (`grimoire.night.current`) offers it, filling a step's target slots from a plan; everything
not in the plan is passed. Observers run after every accepted action (the leak checks use this).

`LeakWatch` is the per-step privacy check: every player's `GET /v1/rooms/{id}` and her new reports
may hold only the public board and what was addressed to her; the spectator only the public board;
the storyteller everything. It compares against the stored state (`svc.rooms.get_room(id).state`).
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from chalicelib.games import get_game
from chalicelib.games.zhenhuan.events import PUBLIC_KINDS
from chalicelib.games.zhenhuan.night import FIRST_NIGHT, OTHER_NIGHTS
from chalicelib.games.zhenhuan.roles import ROLES, TRAVELLER
from chalicelib.games.zhenhuan.state import STATUS_NAMES, StatusKind
from tests.api.helpers import Player

NAMES = [f"宾客{i + 1:02d}" for i in range(21)]
"""Display names that contain no role name and no status word (so a text search means something)."""

ROLE_WORDS: dict[str, tuple[str, str]] = {k: (k, r.name) for k, r in ROLES.items() if k != TRAVELLER}
STATUS_WORDS = tuple(
    sorted({k.value for k in StatusKind} | set(STATUS_NAMES.values()), key=len, reverse=True)
)
SECRET_WORDS = tuple(
    sorted({w for pair in ROLE_WORDS.values() for w in pair} | set(STATUS_WORDS), key=len, reverse=True)
)
SECRET = re.compile("|".join(map(re.escape, SECRET_WORDS)))
ORDER = {1: FIRST_NIGHT, 2: OTHER_NIGHTS}


def secrets_in(text: str) -> list[str]:
    """Every role key / role name / status word in a text (longest match first: 纯元皇后 before 皇后)."""
    return SECRET.findall(text)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


Observer = Callable[["Table", dict[str, Any], dict[str, Any]], None]


@dataclass
class Table:
    api: Any
    svc: Any
    st: Player
    """The storyteller: opened the room, hosts it, never sits."""
    players: list[Player]
    room_id: str
    step: int = 0
    observers: list[Observer] = field(default_factory=list)
    actions: list[dict[str, Any]] = field(default_factory=list)
    _host: tuple[int, dict[str, Any]] | None = None
    """The storyteller's last view and the step it was read at (every change goes through `do`)."""

    # --- the room ------------------------------------------------------------------------------
    @classmethod
    def open(
        cls,
        api: Any,
        svc: Any,
        n: int,
        seed: bytes,
        *,
        start: bool = True,
        storyteller: str = "说书人",
        **options: Any,
    ) -> Table:
        svc.new_seed = lambda: seed
        st = Player(api, storyteller)
        body = st.ok("POST", "/v1/rooms", {"game": "zhenhuan", "options": options})
        assert body["room"]["hosted"] and body["room"]["seats"] == [] and body["viewer"]["role"] == "host"
        room_id = body["room"]["id"]
        players = [Player(api, NAMES[i]) for i in range(n)]
        for p in players:
            p.ok("POST", f"/v1/rooms/{room_id}/join")
        table = cls(api, svc, st, players, room_id)
        if start:
            table.start()
        return table

    @property
    def path(self) -> str:
        return f"/v1/rooms/{self.room_id}"

    def start(self) -> dict[str, Any]:
        body = self.st.ok("POST", f"{self.path}/start")
        assert body["room"]["status"] == "active" and body["game"]["phase"] == "setup"
        self.step = body["room"]["step"]
        return body

    def stored(self) -> Any:
        return self.svc.rooms.get_room(self.room_id)

    def state(self) -> Any:
        return get_game("zhenhuan").state_model.model_validate(self.stored().state)

    def host_view(self) -> dict[str, Any]:
        """The storyteller's view (read once per step: her phone does not re-poll an unchanged room)."""
        if self._host is None or self._host[0] != self.step:
            body = self.st.view(self.room_id)
            assert body["room"]["step"] == self.step
            self._host = (self.step, body)
        return self._host[1]

    def grim(self) -> dict[str, Any]:
        return self.host_view()["game"]["grimoire"]

    def view(self, seat: int) -> dict[str, Any]:
        return self.players[seat].view(self.room_id)

    def reports(self, who: Player, after: int = 0) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while True:
            body = who.ok("GET", f"{self.path}/reports?after={after}&limit=100")
            out += body["reports"]
            if len(body["reports"]) < 100:
                return out
            after = body["next_after"]

    # --- the storyteller's buttons -------------------------------------------------------------
    def send(self, action: dict[str, Any], who: Player | None = None, step: int | None = None) -> Any:
        """One raw POST (no assertion): the storyteller by default, at the current step."""
        who = who or self.st
        return who.post(
            f"{self.path}/actions", {"step": self.step if step is None else step, "action": action}
        )

    def do(self, action: dict[str, Any]) -> dict[str, Any]:
        r = self.send(action)
        assert r.status_code == 200, (action, r.status_code, r.body)
        ack = r.json_body
        assert ack["accepted"] is True and ack["settled"] is True and ack["step"] == self.step + 1, ack
        self.step = ack["step"]
        self.actions.append(action)
        for observe in self.observers:
            observe(self, action, ack)
        return ack

    def deal(self, roles: list[str], bluffs: list[str] | None = None) -> None:
        """Hand-pick every seat's role (assign swaps, so seat by seat ends exactly at `roles`)."""
        held = [s["role"] for s in self.grim()["seats"]]
        for seat, role in enumerate(roles):
            if held[seat] != role:  # a seat already holding its role is left alone
                self.do({"type": "assign", "seat": seat, "role": role})
                held = [held[seat] if (r == role and role != "traveller") else r for r in held]
                held[seat] = role
        if bluffs is not None:
            self.do({"type": "set_bluffs", "roles": bluffs})
        seats = self.grim()["seats"]
        assert [s["role"] for s in seats] == roles

    def begin(self) -> None:
        self.do({"type": "begin"})

    def night(self, plan: dict[str, Any] | None = None, *, dawn: bool = True) -> list[tuple[str, str | None]]:
        """Walk tonight's steps as the storyteller's view offers them. `plan[key]` is a list of targets,
        or {"targets": [...], "answer": x}, or "skip". Steps not planned: done with no targets when every
        slot is optional (info steps then tell the truth), otherwise passed. Returns (key, disabled)."""
        plan = dict(plan or {})
        walked: list[tuple[str, str | None]] = []
        while True:
            night = self.host_view()["game"]["grimoire"]["night"]
            cur = night["current"]
            if cur is None:
                break
            key, disabled = cur["key"], cur["disabled"]
            walked.append((key, disabled))
            want = plan.pop(key, None)
            if disabled is not None:
                assert want is None or want == "skip", (key, disabled, want)
                self.do({"type": "night_step", "step": key})
                continue
            if want == "skip" or (want is None and not all(s["optional"] for s in cur["slots"])):
                self.do({"type": "night_step", "step": key, "skip": True})
                continue
            action: dict[str, Any] = {"type": "night_step", "step": key, "targets": []}
            if isinstance(want, dict):
                action["targets"] = list(want.get("targets", []))
                if "answer" in want:
                    action["answer"] = want["answer"]
            elif want is not None:
                action["targets"] = list(want)
            for slot, target in zip(cur["slots"], action["targets"], strict=False):
                assert target is None or target in slot["allowed"], (key, slot, target)
            self.do(action)
        assert not plan, f"planned steps that never came: {sorted(plan)}"
        if dawn:
            self.do({"type": "dawn"})
        return walked

    def nominate(self, nominator: int, nominee: int, votes: list[int] | None = None) -> None:
        self.do({"type": "nominate", "nominator": nominator, "nominee": nominee})
        if votes is not None:
            self.do({"type": "vote", "votes": votes})

    def dusk(self, execute_block: bool = True) -> None:
        self.do({"type": "dusk", "execute_block": execute_block})


def expected_order(number: int, present: set[str]) -> list[str]:
    """The documented night order (docs/rules/zhenhuan.md §5) restricted to the steps present."""
    return [k for k in (FIRST_NIGHT if number == 1 else OTHER_NIGHTS) if k in present]


# --- privacy ------------------------------------------------------------------------------------
@dataclass
class LeakWatch:
    """After every action: each seat's view and new reports, the spectator's, and the storyteller's."""

    table: Table
    spectator: Player
    seats: list[int] | None = None
    reports_every_step: bool = True
    """False: views at every step, reports all at once with `check_reports` (a report's lines depend only
    on its own events and the viewer until the game ends, so this checks the same lines, cheaper)."""
    checks: int = 0
    private_lines: dict[int, int] = field(default_factory=dict)
    host_saw_all: int = 0

    rotate: int | None = None
    """None: every seat after every action. k: after each action k seats in turn, and every seat after
    the actions that change the phase or the end (begin, dusk, dawn, declare_winner)."""

    def __call__(self, table: Table, action: dict[str, Any], ack: dict[str, Any]) -> None:
        seats = None
        if self.rotate is not None and action["type"] not in ("begin", "dusk", "dawn", "declare_winner"):
            n = len(table.players)
            seats = [(self.checks * self.rotate + i) % n for i in range(self.rotate)]
        self.check(ack["step"] - 1, seats)

    def check(self, log_step: int | None = None, only: list[int] | None = None) -> None:
        t = self.table
        state = t.stored().state
        over = state["phase"] == "over"
        seats = (
            only if only is not None else self.seats if self.seats is not None else range(len(state["seats"]))
        )
        spec = self.spectator.view(t.room_id)
        self._check_spectator(spec, state, over)
        for seat in seats:
            body = t.players[seat].view(t.room_id)
            self._check_player(body, spec, seat, state, over)
            if log_step is not None and self.reports_every_step:
                new = t.players[seat].ok("GET", f"{t.path}/reports?after={log_step - 1}&limit=1")["reports"]
                assert [r["step"] for r in new] == [log_step]
                self._check_lines(new[0]["lines"], seat, state, over)
        if log_step is not None and self.reports_every_step:
            new = self.spectator.ok("GET", f"{t.path}/reports?after={log_step - 1}&limit=1")["reports"]
            self._check_lines(new[0]["lines"], None, state, over)
        host = t.host_view()["game"]
        assert host["viewer"] == "host"
        grim = host["grimoire"]
        assert [(s["role"], s["alignment"], s["alive"]) for s in grim["seats"]] == [
            (s["role"], s["alignment"], s["alive"]) for s in state["seats"]
        ]
        assert sorted(dumps(st) for s in grim["seats"] for st in s["statuses"]) == sorted(
            dumps(st) for st in state["statuses"]
        )
        assert [e["text"] for e in host["log"]] == [e["text"] for e in state["log"]]
        self.host_saw_all += 1
        self.checks += 1

    def check_reports(self) -> int:
        """Every report so far, for every seat and the spectator (the game must still be running)."""
        t = self.table
        state = t.stored().state
        assert state["phase"] != "over"
        seats = self.seats if self.seats is not None else range(len(state["seats"]))
        lines = 0
        for seat, who in [*((s, t.players[s]) for s in seats), (None, self.spectator)]:
            reports = t.reports(who)
            # players and spectators get only transitions with something for them, numbered 1, 2, …
            assert [r["step"] for r in reports] == list(range(1, len(reports) + 1))
            assert all(r["lines"] for r in reports)
            for rep in reports:
                self._check_lines(rep["lines"], seat, state, False)
                lines += len(rep["lines"])
        return lines

    @staticmethod
    def _public_alive(state: dict[str, Any]) -> list[bool]:
        hidden, revived = set(state["unannounced"]), set(state.get("unannounced_revivals", ()))
        return [(s["alive"] and s["seat"] not in revived) or s["seat"] in hidden for s in state["seats"]]

    def _check_spectator(self, body: dict[str, Any], state: dict[str, Any], over: bool) -> None:
        assert body["viewer"] == {"role": "spectator", "seat": None}
        g = body["game"]
        assert g["viewer"] == "spectator" and g["me"] is None
        if over:
            assert [s["role"] for s in g["grimoire"]["seats"]] == [s["role"] for s in state["seats"]]
            assert len(g["log"]) == len(state["log"])
            return
        assert g["grimoire"] is None
        assert {e["kind"] for e in g["log"]} <= PUBLIC_KINDS
        assert [s["alive"] for s in g["seats"]] == self._public_alive(state)
        leaked = secrets_in(dumps(g))
        assert not leaked, f"spectator sees {leaked}"
        summary = {k: v for k, v in body["room"].items() if k not in ("title", "game", "options")}
        assert not secrets_in(dumps(summary))

    def _check_player(
        self, body: dict[str, Any], spec: dict[str, Any], seat: int, state: dict[str, Any], over: bool
    ) -> None:
        assert body["viewer"] == {"role": "player", "seat": seat}
        g = dict(body["game"])
        me = g.pop("me")
        assert me["seat"] == seat
        if over:
            assert [s["role"] for s in g["grimoire"]["seats"]] == [s["role"] for s in state["seats"]]
            assert [e["text"] for e in g["log"]] == [e["text"] for e in state["log"]]
            return
        # the public board is exactly what the spectator sees: the player's view only adds `me`
        assert {**g, "viewer": "spectator"} == {k: v for k, v in spec["game"].items() if k != "me"}
        mine = state["seats"][seat]
        if state["phase"] == "setup":
            assert me["role"] is None and me["alignment"] is None and me["info"] == []
            return
        assert (me["role"], me["alignment"]) == (mine["role"], mine["alignment"])
        expected = [e for e in state["log"] if e["kind"] in ("info", "you_are") and e["seat"] == seat]
        assert me["info"] == expected
        assert not (set(secrets_in(dumps(me))) - self.allowed(seat, me, state)), (seat, me)
        self.private_lines[seat] = len(me["info"])

    @staticmethod
    def allowed(seat: int, me: dict[str, Any], state: dict[str, Any]) -> set[str]:
        """Words a player's own information may legitimately hold: her roles (now and before), a role
        the storyteller showed her (玉娆), the bluffs (the demon's first night), 皇上 in the 女皇
        notice, and the poisoned/drunk wording of 温太医's answer."""
        ok = set(ROLE_WORDS.get(me["role"], ()))
        for e in me["info"]:
            if e["kind"] == "you_are":
                ok |= set(ROLE_WORDS[e["role"]])
            if isinstance(e.get("value"), dict):
                ok |= set(ROLE_WORDS[e["value"]["role"]])
            if e.get("step") == "demon_info":
                ok |= {w for b in state["bluffs"] for w in ROLE_WORDS[b]}
            if e.get("step") == "huanghou":
                ok |= set(ROLE_WORDS["huangshang"])
            if e.get("step") == "wentaiyi":
                ok |= {"中毒", "醉酒"}
        return ok

    def _check_lines(
        self, lines: list[dict[str, Any]], seat: int | None, state: dict[str, Any], over: bool
    ) -> None:
        if over:
            return
        for line in lines:
            if line["kind"] in ("info", "you_are"):
                assert seat is not None and line["seat"] == seat, (seat, line)
            else:
                assert line["kind"] in PUBLIC_KINDS, (seat, line)
                assert not secrets_in(dumps(line)), (seat, line)
