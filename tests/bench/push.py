"""Push against 3-second polling (not part of the test suite):

    .venv/bin/python -m tests.bench.push            # prints the tables in docs/performance.md ("Push")
    .venv/bin/python -m tests.bench.push --no-server  # without the local server's latency run
    .venv/bin/python -m tests.bench.push --no-server --views-only  # only the games with PUSH_VIEWS set
    .venv/bin/python -m tests.bench.push --no-server --only d,c  # only these runs (d, "d first", c,
                                                               # baohuang, zhenhuan, … views)

1. The same games played through the HTTP API in process on moto, with push wired exactly as deployed
   (the table's stream read by the local server's poller, the stream function, the WebSocket functions
   called with API Gateway's events, a recording stand-in for the management API). Every DynamoDB
   request is metered (tests/bench/meter.py). Each phone that is told of a change fetches its view
   (If-None-Match) and its new reports, as the client does; each actor also refreshes after her own
   action. Polling mode is the same games with each phone asking every 3 s while it is in the room
   (every poll's DynamoDB cost measured on a sample of real polls), and the same reports fetched.
   Game time comes from `PACE` (stated in docs/performance.md); prices from `PRICES`.
2. Requests per waiting player per minute, both ways.
3. Fan-out latency at the running local server: storyteller presses on several rooms, each watched
   by a real WebSocket; time from the press's answer (the commit is done) to the notice.
4. 血染's reports endpoint: items read per call against the game's length — the whole-log way (a
   count without a cursor), and the cursor: nothing new, and after one day's entries.
"""

from __future__ import annotations

import json
import math
import random
import statistics
import sys
import time
from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from tests.bench.run import environment, pct

POLL_S = 3.0
KEEPALIVE_S = 480
PRICES = {
    # us-east-1 on-demand list prices, as docs/operations.md
    "rest_request": 3.50e-6,  # API Gateway REST, per request
    "ws_message": 1.00e-6,  # API Gateway WebSocket, per message (32 KB units)
    "ws_minute": 0.25e-6,  # API Gateway WebSocket, per connection-minute
    "lambda_request": 0.20e-6,
    "lambda_gb_s": 16.6667e-6,
    "rru": 0.125e-6,  # DynamoDB on-demand read request unit (RCU here)
    "wru": 0.625e-6,  # write request unit (WCU here)
    "log_gb": 0.50,
}
LAMBDA_MB = 512
LAMBDA_MS = {"api": 30, "authorizer": 10, "socket": 20, "stream": 60}
"""Billed duration per invocation (assumed, as docs/operations.md's 30 ms per API request)."""
LOG_KB = {"invocation": 1.0, "access": 0.35}
"""Log bytes per function invocation, and per REST request's access-log line."""
PACE = {
    # seconds of game time: how long a phone is in the room, and what each action takes
    "lobby_s": 60.0,  # the creator waits this long for the room to fill; each later joiner less
    "result_s": 30.0,  # everyone looks at the result before leaving
    "d_round_s": 45.0,  # a 宫斗杀 round (90 s timer)
    "c_round_s": 60.0,  # an 8-seat 深宫杀 round (90 s timer)
    "baohuang_play_s": 10.0,  # one 保皇 play or pass (~85 a deal: ~15 minutes)
    "zhenhuan_press_s": 20.0,  # a storyteller's press at night
    "zhenhuan_day_s": 240.0,  # talk before the day's first nomination
    "zhenhuan_vote_s": 60.0,  # a nomination and its vote
}


# ---- the metered world -------------------------------------------------------------------------------


@dataclass
class Tally:
    """What one game cost, by mode."""

    game: str
    players: int
    minutes: float = 0.0
    """Phone-minutes in the room (sum over phones)."""
    http: Counter[str] = field(default_factory=Counter)
    rcu: Counter[str] = field(default_factory=Counter)
    wcu: Counter[str] = field(default_factory=Counter)
    ws_messages: int = 0
    socket_calls: int = 0
    stream_calls: int = 0
    poll_rcu: list[float] = field(default_factory=list)
    poll_wcu: list[float] = field(default_factory=list)
    notices: Counter[str] = field(default_factory=Counter)
    """Per user: the change notices (each may make her phone fetch)."""
    sealed: int = 0
    """Sealed-move notices (who has sealed, by step and seat): WebSocket messages, never a fetch."""
    requests_by_user: Counter[str] = field(default_factory=Counter)
    minutes_by_user: dict[str, float] = field(default_factory=dict)
    transitions: int = 0
    games: int = 1
    idle: int = 0
    """Push-mode requests after a notice that brought nothing new (a 304, an empty page of reports)."""
    view_ms: float = 0.0
    """Time the stream function spent working out views for notices that carry them (PUSH_VIEWS)."""
    views: int = 0
    """Notices that carried a view."""
    largest: int = 0
    """The largest notice, in bytes."""

    def merge(self, other: Tally) -> Tally:
        """Several games of the same kind, summed (the tables divide by `games`)."""
        for name in ("http", "rcu", "wcu", "notices", "requests_by_user"):
            getattr(self, name).update(getattr(other, name))
        for name in ("minutes", "ws_messages", "socket_calls", "stream_calls", "transitions", "games", "idle",
                     "view_ms", "views", "sealed"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.poll_rcu += other.poll_rcu
        self.largest = max(self.largest, other.largest)
        self.poll_wcu += other.poll_wcu
        self.minutes_by_user.update(other.minutes_by_user)  # distinct players in each game
        return self


class World:
    """One game at a time, through the API on moto, with push as deployed."""

    def __init__(self, api: Any, svc: Any, meter: Any, clock: Any, views: frozenset[str] = frozenset()) -> None:
        from chalicelib.push.build import push_services, use_sender
        from infra.local_push import StreamPoller, enable_stream, stream_function, streams_client
        from tests.bench.run import TABLE
        from tests.push.harness import Sockets

        self.api, self.svc, self.meter, self.clock = api, svc, meter, clock
        self.sockets = Sockets()
        use_sender(self.sockets)
        push_services(svc).pushed_views = views  # the stage's PUSH_VIEWS
        self._time_views()
        self.poller = StreamPoller(streams_client(svc.dynamodb), enable_stream(svc.dynamodb, TABLE),
                                   stream_function())
        self.t: Tally | None = None
        self.phones: dict[str, Phone] = {}
        self.room: str = ""
        self.family: str = ""
        self.now = 0.0
        self.count = 0
        self.reports = "change"
        """How the game's screen reads its reports. "fold": 深宫杀's page asks its view with
        `?reports_after=`, so a new round's 战报 comes in the same answer (the 3-second-polling client
        read `/reports` whenever the step moved: "poll reports", counted for polling only). "change":
        血染's reads `/reports` whenever its view changed (withdrawn lines). "end": 保皇's shows the
        trick in the view and reads the reports at the deal's end."""

    # -- bookkeeping -----------------------------------------------------------------------------

    def _time_views(self) -> None:
        """Bill the stream function for the views it works out (its 60 ms a batch assumes none)."""
        from chalicelib.rooms import views

        original = views.pushed_view

        def timed(*args: Any, **kwargs: Any) -> Any:
            started = time.perf_counter()
            try:
                return original(*args, **kwargs)
            finally:
                if self.t is not None:
                    self.t.view_ms += (time.perf_counter() - started) * 1000

        views.pushed_view = timed  # type: ignore[assignment]
        self._restore_views = lambda: setattr(views, "pushed_view", original)

    def _charge(self, kind: str, fn: Any, user: str | None = None) -> Any:
        assert self.t is not None
        self.meter.reset()
        out = fn()
        _, rcu, wcu = self.meter.snapshot()
        self.t.rcu[kind] += rcu
        self.t.wcu[kind] += wcu
        if kind in ("action", "refresh", "fetch", "reports", "poll reports", "live", "first view"):
            self.t.http[kind] += 1
            if user is not None:
                self.t.requests_by_user[user] += 1
        return out

    def begin(self, game: str, players: int, reports: str = "change") -> Tally:
        self.t = Tally(game=game, players=players)
        self.reports = reports
        self.phones = {}
        self.now = 0.0
        self.poller.poll()
        self.sockets.inbox.clear()
        return self.t

    def enter(self, player: Any, room: str, family: str) -> None:
        """A phone opens the room page: GET /v1/live, a socket, a subscription, its first view."""
        from chalicelib.api import ws_routes
        from infra.local_push import ws_event

        self.room, self.family = room, family
        self.count += 1
        cid = f"bench{self.count}="
        self._charge("live", lambda: self.api.http.get("/v1/live"), player.user["id"])
        self._charge("socket", lambda: ws_routes.ws_connect(
            ws_event("$connect", cid, query={"token": player.token}), None))
        self._charge("socket", lambda: ws_routes.ws_message(
            ws_event("$default", cid, body=json.dumps({"action": "subscribe", "room": room})), None))
        assert self.sockets.inbox[cid].pop() == {"type": "subscribed", "room": room}
        assert self.t is not None
        self.t.socket_calls += 2
        self.t.ws_messages += 2 + 1  # subscribe in, its answer out; the connect
        phone = Phone(player, cid, self.now, path=f"/v1/games/{family}/rooms/{room}")
        self.phones[player.user["id"]] = phone
        first = self._charge("first view", lambda: player.get(phone.path), player.user["id"])
        phone.etag = first.headers.get("ETag")
        phone.version = json.loads(first.body)["room"]["version"]

    def act(self, player: Any, fn: Any, seconds: float) -> Any:
        """An action taking `seconds` of game time; then the stream, the notices and the fetches."""
        assert self.t is not None
        self.now += seconds
        out = self._charge("action", fn, player.user["id"])
        phone = self.phones.get(player.user["id"])
        if phone is not None:
            self._refresh(phone, "refresh")  # the polling client's refresh after her own action
            answer = getattr(out, "json_body", None)
            if getattr(out, "status_code", 0) == 200 and isinstance(answer, dict) and "view_etag" in answer:
                # the push client shows the view the action's answer carries (api/poll.ts, accept)
                phone.etag = answer["view_etag"]
                phone.version = answer["view"]["room"]["version"]
                if answer["view"].get("reports"):
                    phone.after = answer["view"]["reports"]["next_after"]
        self.deliver()
        return out

    def folding(self, player: Any) -> str:
        """The query 深宫杀's page sends its moves with, so their answers carry the round's 战报."""
        phone = self.phones.get(player.user["id"])
        return f"?reports_after={phone.after}" if self.reports == "fold" and phone is not None else ""

    def sample_poll(self) -> None:
        """What one poll costs (the same GET a polling phone makes every 3 s), on a real phone."""
        assert self.t is not None
        for phone in list(self.phones.values())[: 2]:
            self.meter.reset()
            phone.player.get(phone.path, **({"If-None-Match": phone.etag} if phone.etag else {}))
            _, rcu, wcu = self.meter.snapshot()
            self.t.poll_rcu.append(rcu)
            self.t.poll_wcu.append(wcu)

    def deliver(self) -> None:
        """Lambda's event source mapping: the stream function, then every notified phone fetches."""
        assert self.t is not None
        self.meter.reset()
        before = self.poller.batches
        self.poller.poll()
        _, rcu, wcu = self.meter.snapshot()
        self.t.rcu["stream"] += rcu
        self.t.wcu["stream"] += wcu
        self.t.stream_calls += self.poller.batches - before
        self.t.transitions += self.poller.batches - before
        for user, phone in self.phones.items():
            messages = self.sockets.take(phone.cid)
            sealed = [m for m in messages if m["type"] == "sealed"]
            # who has sealed: one message each, marked in the view the page holds (hooks/usePoll.ts,
            # withSealed), nothing asked
            self.t.sealed += len(sealed)
            self.t.ws_messages += len(sealed)
            got = [m for m in messages if m["type"] == "changed"]
            for i, m in enumerate(got):
                self.t.notices[user] += 1
                size = len(json.dumps(m, ensure_ascii=False).encode())
                self.t.ws_messages += math.ceil(size / 32768)
                self.t.largest = max(self.t.largest, size)
                self.t.views += "view" in m
                if m.get("version") is not None and phone.version is not None and phone.version >= m["version"]:
                    continue  # a version it already shows (hooks/usePoll.ts, isNews): nothing asked
                if "view" in m:  # shown as it came (hooks/usePoll.ts, onNotice): nothing asked
                    phone.etag = m["etag"]
                    phone.started = m["view"]["room"]["status"] != "open"
                    phone.version = m["view"]["room"].get("version")
                elif m.get("version") is not None and any("view" in later for later in got[i + 1:]):
                    pass  # a burst whose last notice carries the view: it comes within the page's grace
                else:
                    self._refresh(phone, "fetch")
                if self.reports == "change" and phone.started:
                    self._reports(user, phone)
        self.sample_poll()

    def _reports(self, user: str, phone: Phone) -> None:
        r = self._charge("reports", lambda p=phone: p.player.get(
            f"{p.path}/reports?{'cursor=' + p.cursor if p.cursor else 'after=0'}&limit=50"), user)
        body = json.loads(r.body) if r.status_code == 200 else {}
        phone.cursor = body.get("next_cursor", phone.cursor)
        if not body.get("reports"):
            assert self.t is not None
            self.t.idle += 1

    def _refresh(self, phone: Phone, kind: str) -> None:
        if kind == "refresh":
            # the polling client's fetch after its own action, counted for polling only: the phone
            # keeps what it had, so with push her action's notice fetches her new view, as it does
            self._charge(kind, lambda: phone.player.get(phone.path), phone.player.user["id"])
            return
        fold = self.reports == "fold"
        path = f"{phone.path}?reports_after={phone.after}" if fold else phone.path
        r = self._charge(kind, lambda: phone.player.get(
            path, **({"If-None-Match": phone.etag} if phone.etag else {})), phone.player.user["id"])
        if r.status_code == 304 and kind == "fetch":
            assert self.t is not None
            self.t.idle += 1
        if r.status_code == 200:
            phone.etag = r.headers.get("ETag")
            body = json.loads(r.body)
            phone.started = body["room"]["status"] != "open"  # the game screen reads reports
            phone.version = body["room"]["version"]
            if fold and body.get("reports"):
                phone.after = body["reports"]["next_after"]
            if self.reports == "fold" and phone.started and body["room"]["step"] != phone.step:
                phone.step = body["room"]["step"]
                # what the 3-second-polling client did on a step it had not seen: ask /reports
                assert self.t is not None
                self._charge("poll reports", lambda: phone.player.get(
                    f"{phone.path}/reports?after={phone.polled_after}&limit=100"), phone.player.user["id"])
                self.t.requests_by_user[phone.player.user["id"]] -= 1  # the push phone did not ask it
                phone.polled_after = body["room"]["step"]

    def end(self) -> Tally:
        """Everyone reads the result, then leaves (disconnect)."""
        from chalicelib.api import ws_routes
        from infra.local_push import ws_event

        assert self.t is not None
        self.now += PACE["result_s"]
        if self.reports == "end":
            for user, phone in self.phones.items():
                self._reports(user, phone)
        for user, phone in self.phones.items():
            minutes = (self.now - phone.since) / 60
            self.t.minutes += minutes
            self.t.minutes_by_user[user] = minutes
            pings = int((self.now - phone.since) // KEEPALIVE_S)
            self.t.ws_messages += 2 * pings + 1  # keep-alive in, its answer out; the disconnect
            self.t.socket_calls += pings + 1
            renew = {"action": "subscribe", "room": self.room, **({"etag": phone.etag} if phone.etag else {})}
            for _ in range(pings):  # a watched room's keep-alive renews its subscription (client api/live.ts)
                self._charge("socket", lambda p=phone: ws_routes.ws_message(
                    ws_event("$default", p.cid, body=json.dumps(renew)), None))
            self._charge("socket", lambda p=phone: ws_routes.ws_disconnect(ws_event("$disconnect", p.cid), None))
        return self.t


@dataclass
class Phone:
    player: Any
    cid: str
    since: float
    path: str
    etag: str | None = None
    cursor: str | None = None
    started: bool = False
    after: int = -1
    """The reports folded into this phone's views so far (`?reports_after=`)."""
    version: int | None = None
    """The room version its view shows (None where the steps are hidden from it)."""
    step: int | None = None
    polled_after: int = -1


# ---- the games -------------------------------------------------------------------------------------------


def move_order(seats: list[int], seed: object, creator_first: bool = False) -> list[int]:
    """The order the seats move in a round: as it comes (seeded per game and round), or with the
    creator (seat 0) first every round — the most her 催战 notice can cost, since she is told when all
    but one have moved only if her own move was not the last of them."""
    if creator_first:
        return sorted(seats)
    order = list(seats)
    random.Random(str(seed)).shuffle(order)
    return order


def play_d(w: World, seed: int = 1, creator_first: bool = False) -> Tally:
    from tests.api.dgame import make_team
    from tests.api.helpers import Player

    w.svc.new_seed = lambda: bytes([seed]) * 32
    admin = Player(w.api, "司礼")
    team = make_team(w.api, admin, [f"押{seed}{i}" for i in range(3)], value=70, maids={"xunyi": 2, "tieshen": 1})
    w.begin("宫斗杀 D (3 players; mean of 3 seeded games)" if not creator_first else
            "宫斗杀 D, the creator moving first every round (same games)", 3, reports="fold")
    room = team[0].open_room("shengong_d", {"stage": 1})
    w.enter(team[0], room, "shengong")
    for i, p in enumerate(team[1:], 1):
        w.act(p, lambda p=p: p.post(f"/v1/rooms/{room}/join"), PACE["lobby_s"] / 2)
        if i < len(team) - 1:
            w.enter(p, room, "shengong")
    w.enter(team[2], room, "shengong")
    while True:
        view = team[0].view(room)
        if view["room"]["status"] != "active":
            break
        seats = view["pending"]["seats"]
        for seat in move_order(seats, (seed, view["room"]["step"]), creator_first):
            voided = team[seat].view(room)["game"]["you"]["voided"]
            action = {"type": "idle"} if voided else {"type": "assassinate", "target": 0}
            w.act(team[seat], lambda s=seat, a=action: team[s].act(room, a, step=view["room"]["step"],
                                                                   query=w.folding(team[s])),
                  PACE["d_round_s"] / len(seats))
    return w.end()


def play_c(w: World) -> Tally:
    from tests.api.dgame import make_team
    from tests.api.helpers import Player

    admin = Player(w.api, "司礼")
    w.api.http.put("/v1/admin/games", body=json.dumps({"open": {"shengong_c": True}}), headers=admin.headers())
    team = []
    for i in range(8):
        team += make_team(w.api, admin, [f"八{i}"], value=50, maids={"xunyi": 1, "tieshen": 1})
    w.begin("深宫杀 C (8 seats)", 8, reports="fold")
    room = team[0].open_room("shengong_c")
    w.enter(team[0], room, "shengong")
    for p in team[1:]:
        w.act(p, lambda p=p: p.post(f"/v1/rooms/{room}/join"), PACE["lobby_s"] / 8)
        w.enter(p, room, "shengong")
    w.svc.new_seed = lambda: bytes([7]) * 32  # before the start, which draws the game's seed
    w.act(team[0], lambda: team[0].post(f"/v1/rooms/{room}/start"), 5)
    rng = random.Random(7)
    places = ["景仁宫", "承乾宫", "钟粹宫", "延禧宫", "永寿宫", "长春宫"]
    while True:
        view = team[0].view(room)
        if view["room"]["status"] != "active":
            break
        seats = view["pending"]["seats"]
        for seat in move_order(seats, (7, view["room"]["step"])):
            kind = rng.choice(["poison", "assassinate", "frame", "heal", "idle"])
            action = {"type": kind, **({"place": rng.choice(places)} if kind in ("poison", "assassinate", "frame")
                                      else {})}
            step = view["room"]["step"]

            def move(s: int = seat, a: dict = action, st: int = step) -> Any:
                r = team[s].act(room, a, step=st, query=w.folding(team[s]))
                return r if r.status_code == 200 else team[s].act(room, {"type": "idle"}, step=st,
                                                                  query=w.folding(team[s]))

            w.act(team[seat], move, PACE["c_round_s"] / len(seats))
    return w.end()


def play_baohuang(w: World) -> Tally:
    from tests.api.baohuang_driver import Policy, Table, deal_over

    w.svc.new_seed = lambda: bytes([9]) * 32
    w.begin("保皇 classic (one deal, 5 players)", 5, reports="end")
    table = Table.open(w.api, w.svc, ["赵", "钱", "孙", "李", "周"], start=False, variant="classic")
    for p in table.players:
        w.enter(p, table.room_id, "baohuang")
    w.act(table.players[0], lambda: table.start(), PACE["lobby_s"])
    original = table.act

    def metered(seat: int, action: dict, step: int) -> Any:
        return w.act(table.players[seat], lambda: original(seat, action, step), PACE["baohuang_play_s"])

    table.act = metered  # type: ignore[method-assign]
    table.run(Policy(), deal_over)
    return w.end()


def a_day(table: Any, day: int) -> None:
    """A night walked as the storyteller's view offers it (nobody acts: the demon's kill is passed),
    then a day of two nominations, each voted on with too few hands, and dusk without an execution."""
    table.night()
    seats = len(table.players)
    table.nominate((2 * day) % seats, (2 * day + 2) % seats, votes=[1])
    table.nominate((2 * day + 1) % seats, (2 * day + 3) % seats, votes=[])
    table.dusk(execute_block=False)


def play_zhenhuan(w: World, days: int = 3) -> Tally:
    from tests.api.zhenhuan_driver import Table

    w.begin(f"血染甄嬛传 (7 players + storyteller, {days} days)", 8)
    w.svc.new_seed = lambda: bytes([1]) + bytes(31)
    table = Table.open(w.api, w.svc, 7, bytes([1]) + bytes(31), start=False)
    for p in (table.st, *table.players):
        w.enter(p, table.room_id, "zhenhuan")
    w.act(table.st, lambda: table.start(), PACE["lobby_s"])
    pace = {"night_step": PACE["zhenhuan_press_s"], "nominate": PACE["zhenhuan_vote_s"] / 2,
            "vote": PACE["zhenhuan_vote_s"] / 2, "dawn": PACE["zhenhuan_day_s"]}
    original = table.send

    def metered(action: dict, who: Any = None, step: int | None = None) -> Any:
        return w.act(who or table.st, lambda: original(action, who, step), pace.get(action["type"], 10.0))

    table.send = metered  # type: ignore[method-assign]
    table.deal(["huangshang", "anlingrong", "zhenhuan", "jinxi", "guojunwang", "wentaiyi", "yurao"],
               bluffs=["jingfei", "sanage", "taihou"])
    table.begin()
    for day in range(days):
        a_day(table, day)
    table.do({"type": "declare_winner", "winner": "good"})
    table.do({"type": "confirm_end"})
    return w.end()


# ---- costs -----------------------------------------------------------------------------------------------


@dataclass
class Cost:
    rest: float = 0
    ws_messages: float = 0
    ws_minutes: float = 0
    lambda_calls: float = 0
    lambda_gb_s: float = 0
    rcu: float = 0
    wcu: float = 0
    log_gb: float = 0

    def dollars(self) -> dict[str, float]:
        p = PRICES
        return {
            "API Gateway": self.rest * p["rest_request"] + self.ws_messages * p["ws_message"]
            + self.ws_minutes * p["ws_minute"],
            "Lambda": self.lambda_calls * p["lambda_request"] + self.lambda_gb_s * p["lambda_gb_s"],
            "DynamoDB": self.rcu * p["rru"] + self.wcu * p["wru"],
            "logs": self.log_gb * p["log_gb"],
        }

    def total(self) -> float:
        return sum(self.dollars().values())


def _lambda(cost: Cost, calls: float, kind: str) -> None:
    cost.lambda_calls += calls
    cost.lambda_gb_s += calls * LAMBDA_MS[kind] / 1000 * LAMBDA_MB / 1024
    cost.log_gb += calls * LOG_KB["invocation"] / 1024 / 1024


def _rest(cost: Cost, requests: float, authorizer_calls: float) -> None:
    cost.rest += requests
    cost.log_gb += requests * LOG_KB["access"] / 1024 / 1024
    _lambda(cost, requests, "api")
    _lambda(cost, authorizer_calls, "authorizer")


def costs(t: Tally) -> tuple[Cost, Cost, dict[str, float]]:
    """(push, polling, request counts) for one game. An actor's page refreshes after her own action
    when polling; with push it waits for that action's notice (one fetch instead of two). 深宫杀's
    polling client read /reports on each new step ("poll reports"); its push client has them folded
    into the fetch."""
    shared = t.http["action"] + t.http["reports"] + t.http["first view"]
    polls = sum(m * 60 / POLL_S for m in t.minutes_by_user.values())
    mean_poll_rcu = statistics.fmean(t.poll_rcu) if t.poll_rcu else 1.0
    shared_rcu = t.rcu["action"] + t.rcu["reports"] + t.rcu["first view"]
    shared_wcu = t.wcu["action"] + t.wcu["reports"] + t.wcu["first view"]

    push = Cost()
    push_http = shared + t.http["fetch"] + t.http["live"]
    authorizer = sum(min(t.requests_by_user[u], math.ceil(m)) for u, m in t.minutes_by_user.items())
    _rest(push, push_http, authorizer)
    push.ws_messages = t.ws_messages
    push.ws_minutes = t.minutes
    _lambda(push, t.socket_calls + len(t.minutes_by_user), "socket")  # + the connects
    _lambda(push, t.stream_calls, "stream")
    push.lambda_gb_s += t.view_ms / 1000 * LAMBDA_MB / 1024
    push.rcu = shared_rcu + t.rcu["fetch"] + t.rcu["live"] + t.rcu["socket"] + t.rcu["stream"]
    push.wcu = shared_wcu + t.wcu["fetch"] + t.wcu["socket"] + t.wcu["stream"]

    poll = Cost()
    poll_http = shared + t.http["refresh"] + t.http["poll reports"] + polls
    _rest(poll, poll_http, sum(math.ceil(m) for m in t.minutes_by_user.values()))
    poll.rcu = shared_rcu + t.rcu["refresh"] + t.rcu["poll reports"] + polls * mean_poll_rcu
    poll.wcu = shared_wcu
    counts = {"push": push_http, "poll": poll_http, "polls": polls, "fetches": t.http["fetch"],
              "told": t.http["fetch"] + t.http["reports"], "idle": t.idle,
              "notices": sum(t.notices.values()), "sealed": t.sealed, "actions": t.http["action"], "shared": shared}
    n = t.games
    for c in (push, poll):
        for name in ("rest", "ws_messages", "ws_minutes", "lambda_calls", "lambda_gb_s", "rcu", "wcu", "log_gb"):
            setattr(c, name, getattr(c, name) / n)
    return push, poll, {k: v / n for k, v in counts.items()}


def cost_rows(tallies: list[Tally]) -> list[str]:
    out = [("| game | phone-minutes | REST requests: push / 3-s polling | notices (+ sealed-move notices) | "
            "per 1,000 games: push | per 1,000 games: polling | ratio |"), "|---|---|---|---|---|---|---|"]
    detail = ["| game | mode | API Gateway | Lambda | DynamoDB | logs | total per 1,000 games |",
              "|---|---|---|---|---|---|---|"]
    for t in tallies:
        push, poll, n = costs(t)
        out.append(f"| {t.game} | {t.minutes / t.games:.0f} | {n['push']:.0f} / {n['poll']:.0f} | {n['notices']:.0f} (+ {n['sealed']:.0f}) | "
                   f"${push.total() * 1000:.2f} | ${poll.total() * 1000:.2f} | "
                   f"**{push.total() / poll.total():.3f}** |")
        for mode, c in (("push", push), ("3-s polling", poll)):
            d = c.dollars()
            detail.append(f"| {t.game} | {mode} | ${d['API Gateway'] * 1000:.3f} | ${d['Lambda'] * 1000:.3f} | "
                          f"${d['DynamoDB'] * 1000:.3f} | ${d['logs'] * 1000:.3f} | ${c.total() * 1000:.2f} |")
    return [*out, "", *detail]


def view_rows(tallies: list[Tally]) -> list[str]:
    """What carrying views costs the stream function, and how large a notice gets."""
    out = ["| game | notices with a view | stream function's time per view (billed) | largest notice |",
           "|---|---|---|---|"]
    for t in tallies:
        if t.views:
            out.append(f"| {t.game} | {t.views / t.games:.0f} | {t.view_ms / t.views:.2f} ms | "
                       f"{t.largest / 1024:.1f} KB |")
    return out


def waiting_rows(tallies: list[Tally]) -> list[str]:
    """Per phone-minute in the room. With push, what a phone asks while it waits is what notices make
    it ask (a fetch, and 血染's reports); of those, the ones that brought nothing are the waste."""
    out = [("| game | polling: requests per phone-minute | push: all requests per phone-minute (her own "
            "actions too) | push: requests after notices | of which brought nothing |"),
           "|---|---|---|---|---|"]
    for t in tallies:
        _, _, n = costs(t)
        minutes = t.minutes / t.games
        out.append(f"| {t.game} | {60 / POLL_S:.1f} | {n['push'] / minutes:.2f} | {n['told'] / minutes:.2f} | "
                   f"{n['idle'] / minutes:.2f} |")
    return out


# ---- reports against game length ---------------------------------------------------------------------


def reports_rows(api: Any, svc: Any, meter: Any) -> list[str]:
    from tests.api.zhenhuan_driver import Table

    items: Counter[str] = Counter()

    def hook(model: Any, parsed: dict[str, Any], **_: Any) -> None:
        if model.name == "Query":
            items["items"] += len(parsed.get("Items", []))
        elif model.name == "GetItem" and "Item" in parsed:
            items["items"] += 1

    svc.dynamodb.meta.events.register("after-call.dynamodb", hook)
    table = Table.open(api, svc, 7, bytes([1]) + bytes(31))
    table.deal(["huangshang", "anlingrong", "zhenhuan", "jinxi", "guojunwang", "wentaiyi", "yurao"],
               bluffs=["jingfei", "sanage", "taihou"])
    table.begin()
    me = table.players[3]
    path = f"{table.gpath}/reports"

    def measure(query: str) -> tuple[dict[str, Any], int, float]:
        meter.reset()
        items.clear()
        r = me.get(f"{path}?{query}&limit=100")
        _, rcu, _ = meter.snapshot()
        return json.loads(r.body), items["items"], rcu

    out = [("| log entries | her reports | whole log (after=count): items / RCU | cursor, nothing new: items / RCU "
            "| cursor, after one more day: new entries / items / RCU |"), "|---|---|---|---|---|"]
    day = 0
    cursor = measure("after=0")[0]["next_cursor"]
    prev_length = len(svc.rooms.list_log(table.room_id, -1, None))
    while True:
        a_day(table, day)
        day += 1
        length = len(svc.rooms.list_log(table.room_id, -1, None))
        body, day_items, day_rcu = measure(f"cursor={cursor}")
        new_entries = length - prev_length
        cursor = body["next_cursor"]
        count = body["next_after"]
        _, whole_items, whole_rcu = measure(f"after={max(count - 1, 1)}")
        _, idle_items, idle_rcu = measure(f"cursor={cursor}")
        out.append(f"| {length} | {count} | {whole_items} / {whole_rcu:.1f} | {idle_items} / {idle_rcu:.1f} | "
                   f"{new_entries} / {day_items} / {day_rcu:.1f} |")
        prev_length = length
        if length >= 190:
            break
    return out


# ---- latency at the local server ---------------------------------------------------------------------


def latency_rows(rooms: int = 5, presses: int = 12) -> list[str]:
    import os
    import socket
    import subprocess
    import threading
    from pathlib import Path

    import requests
    from websockets.sync.client import connect

    root = Path(__file__).resolve().parents[2]
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    env = {**os.environ, "PYTHONUNBUFFERED": "1", "POWERTOOLS_LOG_LEVEL": "WARNING"}
    env.pop("AWS_ENDPOINT_URL_DYNAMODB", None)
    proc = subprocess.Popen([sys.executable, "-m", "infra.local_server", "--port", str(port), "--workers", "2",
                             "--tick", "3600", "--no-demo", "--client-dir", ""], cwd=root, env=env,
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(600):
            try:
                live = requests.get(f"{url}/v1/live", timeout=1).json()["url"]
                break
            except (requests.RequestException, ValueError):
                time.sleep(0.1)
        session = requests.Session()
        token = session.post(f"{url}/v1/auth/dev", json={"name": "说书人"}, timeout=30).json()["token"]
        session.headers["Authorization"] = token
        after_answer: list[float] = []
        after_sent: list[float] = []
        for r in range(rooms):
            room = session.post(f"{url}/v1/rooms", json={"game": "zhenhuan", "options": {}}, timeout=30).json()
            room_id = room["room"]["id"]
            for i in range(5):
                p = requests.Session()
                p.headers["Authorization"] = p.post(f"{url}/v1/auth/dev", json={"name": f"宾{r}{i}"},
                                                    timeout=30).json()["token"]
                p.post(f"{url}/v1/rooms/{room_id}/join", json={}, timeout=30)
            session.post(f"{url}/v1/rooms/{room_id}/start", json={}, timeout=30)
            got: list[float] = []
            cond = threading.Condition()
            with connect(f"{live}/?token={token}") as ws:
                ws.send(json.dumps({"action": "subscribe", "room": room_id}))
                assert json.loads(ws.recv(30))["type"] == "subscribed"

                def read(ws: Any = ws) -> None:
                    try:
                        for _ in ws:
                            with cond:
                                got.append(time.monotonic())
                                cond.notify_all()
                    except Exception:  # noqa: BLE001 - closed at the end
                        return

                threading.Thread(target=read, daemon=True).start()
                path = f"/v1/games/zhenhuan/rooms/{room_id}"
                step = session.get(f"{url}{path}", timeout=30).json()["room"]["step"]
                roles = ["jingfei", "huangshang", "sanage", "huafei", "taihou"]
                for k in range(presses):
                    seat = k % 5
                    role = roles[(k // 5 + seat) % 5]
                    n = len(got)
                    sent = time.monotonic()
                    ans = session.post(f"{url}{path}/actions", json={
                        "step": step, "action": {"type": "assign", "seat": seat, "role": role}}, timeout=60)
                    answered = time.monotonic()
                    if ans.status_code != 200:
                        step = session.get(f"{url}{path}", timeout=30).json()["room"]["step"]
                        continue
                    step += 1
                    with cond:
                        cond.wait_for(lambda n=n: len(got) > n, 10)
                    if len(got) > n:
                        after_answer.append(got[n] - answered)
                        after_sent.append(got[n] - sent)
                    time.sleep(0.2)
        def ms(v: float) -> str:
            return f"{v * 1000:.0f} ms"
        return ["| measured from | n | p50 | p99 |", "|---|---|---|---|",
                (f"| the press's answer (committed) | {len(after_answer)} | {ms(pct(after_answer, 50))} | "
                 f"{ms(pct(after_answer, 99))} |"),
                f"| the press being sent | {len(after_sent)} | {ms(pct(after_sent, 50))} | {ms(pct(after_sent, 99))} |"]
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()


# ---- main -------------------------------------------------------------------------------------------------


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    report = ["# Push benchmark", ""]
    tallies = []
    from chalicelib.push.service import PUSHED_VIEW_FAMILIES

    views = PUSHED_VIEW_FAMILIES
    runs = [("d", lambda w, s=s: play_d(w, s), frozenset()) for s in (1, 2, 3)] + [
        ("d first", lambda w, s=s: play_d(w, s, creator_first=True), frozenset()) for s in (1, 2, 3)] + [
        ("c", play_c, frozenset()), ("baohuang", play_baohuang, frozenset()), ("zhenhuan", play_zhenhuan, frozenset()),
        ("baohuang views", play_baohuang, views), ("zhenhuan views", play_zhenhuan, views)]
    if "--views-only" in argv:
        runs = [r for r in runs if r[2]]
    if "--only" in argv:
        only = set(argv[argv.index("--only") + 1].split(","))
        runs = [r for r in runs if r[0] in only]
    kinds: dict[str, Tally] = {}
    for kind, play, pushed in runs:
        with environment() as (api, svc, meter, clock):
            world = World(api, svc, meter, clock, pushed)
            try:
                tally = play(world)
            finally:
                from chalicelib.push.build import use_sender

                use_sender(None)
                world._restore_views()
            if pushed:
                tally.game += f" — PUSH_VIEWS={','.join(sorted(pushed))}"
        if kind in kinds:
            kinds[kind].merge(tally)
        else:
            kinds[kind] = tally
            tallies.append(tally)
    report += ["## Cost per 1,000 games: push against 3-second polling", "", *cost_rows(tallies), ""]
    report += ["## Requests per phone-minute", "", *waiting_rows(tallies), ""]
    report += ["## Notices that carry views (PUSH_VIEWS)", "", *view_rows(tallies), ""]
    if "--views-only" in argv or "--only" in argv:
        print("\n".join(report))
        return 0
    with environment() as (api, svc, meter, _clock):
        report += ["## 血染 reports: items read per call against the game's length", "",
                   *reports_rows(api, svc, meter), ""]
    if "--no-server" not in argv:
        report += ["## Fan-out latency at the local server (commit to notice)", "", *latency_rows(), ""]
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
