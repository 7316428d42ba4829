"""Drive a 血染甄嬛传 room through the HTTP API as the storyteller and the players would from their phones.

A `Table` is one storyteller (the room's host, who never sits) and 5–20 seated players, all dev logins.
The storyteller presses her buttons on the game's own path (`POST /v1/games/zhenhuan/rooms/{id}/actions`
with the room's `step`, which only she sees); players send their own nominations and hands from their
phones without a step (the room hides its step count from them); the vote clock runs out on the test
clock and the scheduler (`settle_overdue`) closes it; the room's host tools (`/v1/rooms/{id}/undo`, the
late-join requests, `…/admit`) are there too. `Table.night` walks the current night step by step exactly
as the storyteller's own view (`grimoire.night.current`) offers it. Observers run after every transition
(every press, every hand, every clock that runs out, every admission and undo): the leak checks use this.

`LeakWatch` is the per-step privacy check. Every player's view, her new reports and the error bodies
she gets may hold only the public board and what was addressed to her (compared with the stored state,
`svc.rooms.get_room(id).state`), and no step or version counter; the spectator gets the public board
only; the storyteller gets everything. Role keys and names, status words, alignment words and the
storyteller's own tools (reminder tokens, notes, suggestions, alerts) are searched for in all of it.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any

from chalicelib.games import get_game
from chalicelib.games.zhenhuan.enums import STATUS_NAMES, StatusKind
from chalicelib.games.zhenhuan.events import PUBLIC_KINDS, event_adapter, storyteller_log
from chalicelib.games.zhenhuan.night import FIRST_NIGHT, OTHER_NIGHTS
from chalicelib.games.zhenhuan.roles import ROLES, TRAVELLER
from chalicelib.rooms.sweeper import settle_overdue
from tests.api.helpers import Player, error

NAMES = [f"宾客{i + 1:02d}" for i in range(24)]
"""Display names that contain no role name and no status word (so a text search means something)."""

HOST_ACTOR = {"role": "host", "seat": None}
PRIVATE_KINDS = frozenset({"info", "you_are", "tell"})
ROLE_WORDS: dict[str, tuple[str, str]] = {k: (k, r.name) for k, r in ROLES.items() if k != TRAVELLER}
STATUS_WORDS = {k.value for k in StatusKind} | set(STATUS_NAMES.values())
ALIGNMENT_WORDS = {"善良", "邪恶", '"good"', '"evil"'}
GRIMOIRE_TOOLS = {"私聊", "像是坏人", "盯紧她"}
"""A reminder token and notes the tests' storytellers write: they must never reach a player."""
GRIMOIRE_KEYS = {'"grimoire": {', '"reminders"', '"alerts"', '"suggestion"', '"hint"', '"prompt"', '"statuses"',
                 '"died_tonight"', '"bluffs"', '"proposals"', '"composition"', '"requests": ['}
"""Keys only the storyteller's grimoire (or her room summary) has."""
SECRET_WORDS = tuple(sorted(
    {w for pair in ROLE_WORDS.values() for w in pair} | STATUS_WORDS | ALIGNMENT_WORDS | GRIMOIRE_TOOLS
    | GRIMOIRE_KEYS, key=len, reverse=True))
SECRET = re.compile("|".join(map(re.escape, SECRET_WORDS)))
COUNTER_KEYS = ("step", "version", "current_step", "ply")
PHASE_CHANGES = ("begin", "dusk", "dawn", "declare_winner", "confirm_end")


def secrets_in(text: str) -> list[str]:
    """Every secret word in a text (longest match first: 纯元皇后 before 皇后)."""
    return SECRET.findall(text)


def dumps(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def counters_in(value: Any, path: str = "") -> list[str]:
    """Where a body carries a step or version counter with a value (null is fine)."""
    found: list[str] = []
    if isinstance(value, dict):
        for k, v in value.items():
            if k in COUNTER_KEYS and v is not None:
                found.append(f"{path}.{k}")
            found += counters_in(v, f"{path}.{k}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += counters_in(v, f"{path}[{i}]")
    return found


Observer = Callable[["Table", dict[str, Any], dict[str, Any] | None], None]
"""Called after every transition with its actor ({"role", "seat"}, or None for the clock) and action."""


@dataclass
class Table:
    api: Any
    svc: Any
    st: Player
    """The storyteller: opened the room, hosts it, never sits."""
    players: list[Player]
    room_id: str
    step: int = 0
    """The room's step as the storyteller's phone knows it."""
    observers: list[Observer] = field(default_factory=list)
    history: list[tuple[str, dict[str, Any] | None, dict[str, Any] | None]] = field(default_factory=list)
    """Every transition as the replay logs it: (kind, actor, action)."""
    _host: tuple[int, dict[str, Any]] | None = None
    """The storyteller's last view and the step it was read at."""

    # --- the room ------------------------------------------------------------------------------
    @classmethod
    def open(cls, api: Any, svc: Any, n: int, seed: bytes, *, start: bool = True,
             storyteller: str = "说书人") -> Table:
        svc.new_seed = lambda: seed
        st = Player(api, storyteller)
        body = st.ok("POST", "/v1/rooms", {"game": "zhenhuan", "options": {}})
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
        """The room's platform path (join, leave, start, undo, decline)."""
        return f"/v1/rooms/{self.room_id}"

    @property
    def gpath(self) -> str:
        """The room's per-game path (view, actions, check, reports, result, replay, admit)."""
        return f"/v1/games/zhenhuan/rooms/{self.room_id}"

    def start(self) -> dict[str, Any]:
        body = self.st.ok("POST", f"{self.path}/start")
        assert body["room"]["status"] == "active"
        self.step = body["room"]["step"]
        assert self.host_view()["game"]["phase"] == "setup"
        return body

    def stored(self) -> Any:
        return self.svc.rooms.get_room(self.room_id)

    def state(self) -> Any:
        return get_game("zhenhuan").state_model.model_validate(self.stored().state)

    def host_view(self) -> dict[str, Any]:
        """The storyteller's view (read once per step: her phone does not re-poll an unchanged room)."""
        if self._host is None or self._host[0] != self.step:
            body = self.st.ok("GET", self.gpath)
            assert body["room"]["step"] == self.step
            self._host = (self.step, body)
        return self._host[1]

    def grim(self) -> dict[str, Any]:
        return self.host_view()["game"]["grimoire"]

    def view(self, seat: int) -> dict[str, Any]:
        body: dict[str, Any] = self.players[seat].ok("GET", self.gpath)
        return body

    def me(self, seat: int) -> dict[str, Any]:
        me: dict[str, Any] = self.view(seat)["game"]["me"]
        return me

    def reports(self, who: Player, after: int = 0) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        while True:
            body = who.ok("GET", f"{self.gpath}/reports?after={after}&limit=100")
            out += body["reports"]
            if len(body["reports"]) < 100:
                return out
            after = body["next_after"]

    # --- transitions ---------------------------------------------------------------------------
    def _after(self, kind: str, actor: dict[str, Any] | None, action: dict[str, Any] | None) -> None:
        self.history.append((kind, actor, action))
        for observe in self.observers:
            observe(self, actor, action)

    def sync(self) -> None:
        """After a transition the storyteller did not make, her phone learns the room's new step (from
        her next poll; read from the store here to spare a request)."""
        self.step = self.stored().step

    def send(self, action: dict[str, Any], who: Player | None = None, step: int | None = None) -> Any:
        """One raw POST (no assertion): the storyteller at her current step by default; a player sends
        no step unless one is given."""
        if who is None or who is self.st:
            return self.st.post(f"{self.gpath}/actions",
                                {"step": self.step if step is None else step, "action": action})
        body: dict[str, Any] = {"action": action} if step is None else {"step": step, "action": action}
        return who.post(f"{self.gpath}/actions", body)

    def do(self, action: dict[str, Any]) -> dict[str, Any]:
        """A press of the storyteller's, accepted."""
        r = self.send(action)
        assert r.status_code == 200, (action, r.status_code, r.body)
        ack = r.json_body
        assert ack["accepted"] is True and ack["settled"] is True, ack
        assert (ack["step"], ack["current_step"]) == (self.step, self.step + 1), ack
        self.step = ack["current_step"]
        self._after("apply", HOST_ACTOR, action)
        return ack

    def play(self, seat: int, action: dict[str, Any]) -> dict[str, Any]:
        """A player's own action from her phone (no step), accepted: her answer carries no counter."""
        r = self.send(action, who=self.players[seat])
        assert r.status_code == 200, (seat, action, r.status_code, r.body)
        ack = r.json_body
        assert {k: v for k, v in ack.items() if k not in ("view", "view_etag")} == {
            "accepted": True, "settled": True, "step": None, "current_step": None, "version": None,
            "status": ack["status"]}, ack
        # her view after it counts no steps either
        assert (ack["view"]["room"]["step"], ack["view"]["room"]["version"]) == (None, None), ack["view"]["room"]
        self.sync()
        self._after("apply", {"role": "player", "seat": seat}, action)
        return ack

    def run_out_the_clock(self) -> Any:
        """Let the open vote clock run out: the test clock passes its deadline and the scheduler's sweep
        (not a poll) closes and counts the vote."""
        pending = self.stored().pending
        assert pending is not None and pending.deadline_ms is not None and pending.label.startswith("投票计时#")
        self.svc.clock.advance((pending.deadline_ms - self.svc.clock.now_ms()) / 1000 + 1)
        report = settle_overdue(self.svc.room_deps())
        assert report.changed == 1 and report.failed == (), report
        self.sync()
        self._after("timeout", None, None)
        return report

    def undo(self) -> dict[str, Any]:
        """「撤销」 the storyteller's last press."""
        body: dict[str, Any] = self.st.ok("POST", f"{self.path}/undo", {"step": self.step})
        assert body["room"]["step"] == self.step + 1
        self.step = body["room"]["step"]
        self._after("undo", HOST_ACTOR, None)
        return body

    def admit(self, who: Player, details: dict[str, Any]) -> dict[str, Any]:
        """The storyteller seats a player who asked to join the running game (a traveller)."""
        body: dict[str, Any] = self.st.ok("POST", f"{self.gpath}/admit", {"user": who.user["id"], "details": details})
        assert body["room"]["step"] == self.step + 1
        self.step = body["room"]["step"]
        self.players.append(who)
        self._after("admit", HOST_ACTOR, details)
        return body

    # --- the storyteller's buttons -------------------------------------------------------------
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
        assert [s["role"] for s in self.grim()["seats"]] == roles

    def begin(self) -> None:
        self.do({"type": "begin"})

    def night(self, plan: dict[str, Any] | None = None, *, dawn: bool = True) -> list[tuple[str, str | None]]:
        """Walk tonight's steps as the storyteller's view offers them. `plan[key]` is a list of targets,
        or {"targets": [...], "answer": x}, or "skip". Steps not planned: done with no targets when every
        slot is optional (info steps then tell the truth), otherwise passed. Returns (key, disabled)."""
        plan = dict(plan or {})
        walked: list[tuple[str, str | None]] = []
        while True:
            cur = self.grim()["night"]["current"]
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
                for extra in ("answer", "use_suggestion"):
                    if extra in want:
                        action[extra] = want[extra]
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
        """The storyteller enters a nomination (and, with `votes`, records its raised hands)."""
        self.do({"type": "nominate", "nominator": nominator, "nominee": nominee})
        if votes is not None:
            self.do({"type": "vote", "votes": votes})

    def dusk(self, execute_block: bool = True) -> None:
        self.do({"type": "dusk", "execute_block": execute_block})


def expected_order(number: int, present: set[str]) -> list[str]:
    """The documented night order (docs/rules/zhenhuan.md §5) restricted to the steps present."""
    return [k for k in (FIRST_NIGHT if number == 1 else OTHER_NIGHTS) if k in present]


def book(state: dict[str, Any]) -> list[str]:
    """The storyteller's record of a stored state's log, as her view gives it (each thing said once)."""
    return [e.text for e in storyteller_log([event_adapter.validate_python(e) for e in state["log"]])]


def public_alive(state: dict[str, Any]) -> list[bool]:
    hidden, revived = set(state["unannounced"]), set(state["unannounced_revivals"])
    return [(s["alive"] and s["seat"] not in revived) or s["seat"] in hidden for s in state["seats"]]


# --- privacy ------------------------------------------------------------------------------------
@dataclass
class LeakWatch:
    """After every transition: players' views and the error bodies one of them meets; at every full
    check also the spectator's view and the storyteller's; every viewer's reports with `check_reports`.

    Reports are read incrementally per viewer (`after` = her own count, then the opaque `next_cursor`).
    Until the game ends a report's lines depend only on its own transition's events and the viewer, so
    reading each viewer's new reports once before the end (`confirm` does) checks exactly the lines she
    got step by step, at a fraction of the requests."""

    table: Table
    spectator: Player
    rotate: int | None = None
    """None: every seat after every transition (a full check). k: k seats in turn, and a full check
    after the presses that change the phase or the end (begin, dusk, dawn, declare_winner, confirm_end)
    and after every undo, admission and clock that runs out."""
    full_on: tuple[str, ...] = PHASE_CHANGES
    """With `rotate`: the presses after which every seat is checked (undo, admissions and clocks always)."""
    probe_every: int = 4
    """Every k-th check, one of the seats checked (in turn) also meets refusals (STALE_STEP, STEP_AHEAD,
    STORYTELLER_ONLY, a refused check) whose bodies are searched; 0: never."""
    checks: int = 0
    full_checks: int = 0
    probes: int = 0
    lines_read: int = 0
    seen: dict[int | None, int] = field(default_factory=dict)
    """Reports read so far per seat (None: the spectator)."""
    cursors: dict[int | None, str] = field(default_factory=dict)
    """Where each viewer's reports go on (`next_cursor`, opaque: it carries no step she could read)."""

    def __call__(self, table: Table, actor: dict[str, Any] | None, action: dict[str, Any] | None) -> None:
        if self.rotate is None or action is None or action.get("type") in self.full_on:
            self.check()
            return
        n = len(table.players)
        self.check(sorted({(self.checks * self.rotate + i) % n for i in range(self.rotate)}))

    def check(self, only: Iterable[int] | None = None) -> None:
        """Views (all seats, the spectator's and the storyteller's; or only these seats) and a probe."""
        t = self.table
        stored = t.stored()
        state = stored.state
        over = state["phase"] == "over"
        full = only is None
        seats = list(range(len(state["seats"]))) if only is None else list(only)
        public: dict[str, Any] = {}
        if full:
            spec = self.spectator.ok("GET", t.gpath)
            self._check_spectator(spec, state, over)
            public = {"game": {k: v for k, v in spec["game"].items() if k != "me"}, "pending": spec["pending"]}
        for seat in seats:
            body = t.players[seat].ok("GET", t.gpath)
            self._check_player(body, public, seat, state, over)
        if self.probe_every and self.checks % self.probe_every == 0 and stored.status.value == "active":
            self.probe(seats[self.probes % len(seats)], state)
        if full:
            self._check_host(stored.step, state)
            self.full_checks += 1
        self.checks += 1

    def check_reports(self, seats: Iterable[int] | None = None) -> dict[int | None, list[str]]:
        """Every viewer's reports (or these seats' and the spectator's) she has not been checked on yet:
        returns their lines' texts."""
        t = self.table
        state = t.stored().state
        over = state["phase"] == "over"
        chosen = range(len(t.players)) if seats is None else seats
        viewers = [*((s, t.players[s]) for s in chosen), (None, self.spectator)]
        return {seat: self._check_reports(who, seat, state, over) for seat, who in viewers}

    def _check_host(self, step: int, state: dict[str, Any]) -> None:
        host = self.table.host_view()
        assert host["viewer"] == HOST_ACTOR and host["room"]["step"] == step
        g = host["game"]
        assert g["viewer"] == "host"
        grim = g["grimoire"]
        assert [(s["role"], s["alignment"], s["alive"]) for s in grim["seats"]] == [
            (s["role"], s["alignment"], s["alive"]) for s in state["seats"]]
        assert sorted(dumps(st) for s in grim["seats"] for st in s["statuses"]) == sorted(
            dumps(st) for st in state["statuses"])
        assert sorted(dumps(r) for s in grim["seats"] for r in s["reminders"]) == sorted(
            dumps(r) for r in state["reminders"])
        assert {s["seat"]: s["note"] for s in grim["seats"] if s["note"]} == {
            n["seat"]: n["text"] for n in state["notes"]}
        assert [e["text"] for e in g["log"]] == book(state)

    # --- a player ---------------------------------------------------------------------------------
    def _check_player(self, body: dict[str, Any], public: dict[str, Any], seat: int, state: dict[str, Any],
                      over: bool) -> None:
        """Her view: the public board (the same for every player and the spectator: the first one read
        is searched, the others must equal it) plus `me`, exactly what was addressed to her."""
        assert body["viewer"] == {"role": "player", "seat": seat}
        room = body["room"]
        assert (room["step"], room["version"], room["requests"]) == (None, None, None), room
        assert not counters_in({k: v for k, v in body.items() if k != "game"})
        g = dict(body["game"])
        me = g.pop("me")
        assert me["seat"] == seat
        if over:
            assert [s["role"] for s in g["grimoire"]["seats"]] == [s["role"] for s in state["seats"]]
            assert [e["text"] for e in g["log"]] == book(state)
            return
        mine_public = {"game": {**g, "viewer": "spectator"}, "pending": body["pending"]}
        if public:
            assert mine_public == public, f"seat {seat}'s public board differs from the others'"
        else:
            self._check_public(mine_public["game"], state)
            public.update(mine_public)
        # `me`: exactly the messages addressed to her, her role and alignment as last told
        mine = [e for e in state["log"] if e["kind"] in PRIVATE_KINDS and e["seat"] == seat]
        assert me["info"] == mine, (seat, me["info"], mine)
        told = [e for e in mine if e["kind"] == "you_are"]
        if not told:
            assert (me["role"], me["role_name"], me["ability"], me["alignment"]) == (None, None, None, None)
            return
        assert (me["role"], me["alignment"]) == (told[-1]["role"], told[-1]["alignment"])
        if me["role"] == TRAVELLER:
            s, role = state["seats"][seat], ROLES[TRAVELLER]
            assert (me["role_name"], me["ability"]) == (
                s["traveller_identity"] or role.name, s["traveller_ability"] or role.ability)
        else:
            assert (me["role_name"], me["ability"]) == (ROLES[me["role"]].name, ROLES[me["role"]].ability)

    @staticmethod
    def _check_public(g: dict[str, Any], state: dict[str, Any]) -> None:
        """The public board: no grimoire, public events only, life as announced, no secret anywhere."""
        assert g["grimoire"] is None
        assert {e["kind"] for e in g["log"]} <= PUBLIC_KINDS
        assert [s["alive"] for s in g["seats"]] == public_alive(state)
        leaked = secrets_in(dumps(g))
        assert not leaked, f"the public board shows {leaked}"

    def _check_spectator(self, body: dict[str, Any], state: dict[str, Any], over: bool) -> None:
        assert body["viewer"] == {"role": "spectator", "seat": None}
        assert (body["room"]["step"], body["room"]["version"], body["room"]["requests"]) == (None, None, None)
        g = body["game"]
        assert g["viewer"] == "spectator" and g["me"] is None
        if over:
            assert [s["role"] for s in g["grimoire"]["seats"]] == [s["role"] for s in state["seats"]]
            assert [e["text"] for e in g["log"]] == book(state)
            return
        self._check_public(g, state)
        summary = {k: v for k, v in body.items() if k not in ("game", "room")}
        room = {k: v for k, v in body["room"].items() if k not in ("title", "game", "options")}
        assert not secrets_in(dumps([summary, room])) and not counters_in(summary)

    def _check_reports(self, who: Player, seat: int | None, state: dict[str, Any], over: bool) -> list[str]:
        t = self.table
        after = self.seen.get(seat, 0)
        cursor = self.cursors.get(seat)
        query = f"cursor={cursor}" if cursor is not None and not over else f"after={after}"
        body = who.ok("GET", f"{t.gpath}/reports?{query}&limit=100")
        new = body["reports"]
        assert len(new) < 100
        assert [r["step"] for r in new] == list(range(after + 1, after + 1 + len(new)))
        assert all(r["lines"] for r in new), "a transition with nothing for her is not reported"
        if not over:
            self.seen[seat] = after + len(new)
            if body.get("next_cursor") is not None:
                self.cursors[seat] = body["next_cursor"]
        for rep in new:
            meta = {k: v for k, v in rep.items() if k not in ("lines", "step")}
            assert not secrets_in(dumps(meta)), (seat, meta)
            for line in rep["lines"]:
                self.lines_read += 1
                if over:
                    continue
                kind = line["kind"]
                if kind in PRIVATE_KINDS:
                    assert seat is not None and line["seat"] == seat, (seat, line)
                elif kind == "withdrawn":
                    assert line["seat"] in (None, seat), (seat, line)
                    if line["seat"] is None:
                        assert not secrets_in(dumps(line)), (seat, line)
                else:
                    assert kind in PUBLIC_KINDS, (seat, line)
                    assert not secrets_in(dumps(line)), (seat, line)
        return [line["text"] for rep in new for line in rep["lines"]]

    def probe(self, seat: int, state: dict[str, Any]) -> None:
        """Refusals a player's phone may meet: none carries a step, a version or anyone's secret."""
        t = self.table
        who = t.players[seat]
        expected = [(422, "STEP_HIDDEN"), (422, "STEP_HIDDEN"), (403, "STORYTELLER_ONLY")]
        answers = [t.send({"type": "dusk"}, who=who, step=0), t.send({"type": "dusk"}, who=who, step=10**6),
                   t.send({"type": "dusk"}, who=who)]
        for r, want in zip(answers, expected, strict=True):
            assert error(r) == want, (seat, r.body)
            assert not counters_in(r.json_body) and not secrets_in(dumps(r.json_body)), r.json_body
        nominee = (seat + 1) % len(state["seats"])
        check = who.ok("POST", f"{t.gpath}/check",
                       {"action": {"type": "nominate", "nominator": seat, "nominee": nominee}})
        assert not counters_in(check) and not secrets_in(dumps(check)), check
        self.probes += 1
