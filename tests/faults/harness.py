"""One game run over the API with one injected DynamoDB fault, and what it left in the table.

A `World` is a fresh table (in the module's moto), the real services wired on a `FaultyClient`, and a
fixed clock; `Phone`s talk to the app through the Chalice test client (every error answer checked
against the committed contract, `tests/contract_check.py`; the app itself validates every 200 against
its documented model, VALIDATE_RESPONSES=1), and behave like the mini-program: the same
request again on 429 / 503 / 500 (after `Retry-After`), and on 409 they hand the answer back to the
game script, which refreshes its view and decides again.

`Run` holds what a game left behind: the table's items, every error answer the phones met, and the
injections. `audit(...)` checks the table's own invariants (nothing half-written) and `compare(...)`
checks it against a fault-free run from the same seeds.
"""

from __future__ import annotations

import json
import os
import pickle
import select
import signal
import traceback
from collections import Counter
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from typing import Any

from chalicelib.store import codec
from infra.moto_speedups import plain_json_answers as fast_moto
from tests.contract_check import check
from tests.faults.injector import FaultyClient, Injection

RETRYABLE = (429, 500, 503)
MAX_RETRIES = 6
"""A phone gives up after this many retries of one request (one fault per run: one retry suffices)."""


@dataclass(frozen=True)
class ErrorAnswer:
    method: str
    path: str
    status: int
    code: str
    retry_after: str | None


class GaveUp(AssertionError):
    pass


@dataclass
class Journal:
    errors: list[ErrorAnswer] = field(default_factory=list)
    requests: int = 0
    retries: int = 0
    refreshes: int = 0
    """409 answers handed back to a script (it refreshed its view and decided again)."""


class Phone:
    """A logged-in user whose requests are retried as the mini-program retries them."""

    def __init__(self, world: World, name: str) -> None:
        self.world = world
        self.name = name
        body = self.call("POST", "/v1/auth/dev", {"name": name}, auth=False)
        assert body.status_code == 200, body.body
        self.token = body.json_body["token"]
        self.user = body.json_body["user"]

    def call(self, method: str, path: str, body: Any = None, auth: bool = True, **headers: str) -> Any:
        """One request, repeated on 429 / 500 / 503 until it gets another answer."""
        journal = self.world.journal
        hdrs = {"Content-Type": "application/json", **headers}
        if auth:
            hdrs["Authorization"] = self.token
        data = json.dumps(body) if body is not None else (b"" if method == "GET" else "{}")
        for _ in range(MAX_RETRIES + 1):
            journal.requests += 1
            r = self.world.http.request(method, path, headers=hdrs, body=data)
            if r.status_code < 400:
                return r
            check(method, path, r.status_code, r.body)  # an error answer the contract documents
            answer = self.world.error_answer(method, path, r)
            journal.errors.append(answer)
            if r.status_code not in RETRYABLE:
                return r
            journal.retries += 1
            # a real phone waits Retry-After seconds; the clock is the world's own, so waiting is free
        raise GaveUp(f"{method} {path}: still failing after {MAX_RETRIES} retries: {journal.errors[-3:]}")

    def ok(self, method: str, path: str, body: Any = None, **headers: str) -> Any:
        r = self.call(method, path, body, **headers)
        assert r.status_code == 200, (method, path, r.status_code, r.body)
        return r.json_body

    def get(self, path: str) -> Any:
        return self.ok("GET", path)

    def act(self, path: str, body: dict[str, Any]) -> Any | None:
        """Send an action: its ack, or None for a 409 (the caller refreshes and decides again)."""
        r = self.call("POST", path, body)
        if r.status_code == 409:
            self.world.journal.refreshes += 1
            return None
        assert r.status_code == 200, (path, body, r.status_code, r.body)
        return r.json_body


@dataclass
class Run:
    family: str
    kind: str | None
    fail_at: int | None
    calls: int
    items: dict[tuple[str, str], dict[str, Any]]
    journal: Journal
    injected: list[Injection]
    outcome: Any
    operations: list[str]
    waited: int = 0
    """How often a phone waited out a deadline (the clock moved: times differ from the baseline's)."""


class World:
    """Everything one game run needs: its own table, services on a faulty client, phones."""

    def __init__(self, http: Any, raw_client: Any, table: str, kind: str | None, fail_at: int | None,
                 record: bool = False) -> None:
        from chalicelib import wiring
        from chalicelib.config import load_settings
        from chalicelib.core.clock import FixedClock
        from chalicelib.store.table import create_table

        self.http = http
        self.raw = raw_client
        self.table = table
        create_table(raw_client, table)
        self.client = FaultyClient(raw_client, record=record)
        self.clock = FixedClock()
        env = {"STAGE": "local", "TABLE_NAME": table, "ADMIN_OPENIDS": "dev:司礼"}
        self.svc = wiring.build(load_settings(env), clock=self.clock, client=self.client)
        self.seeds: list[bytes] = []
        self.svc.new_seed = self._seed
        # one room per script: a create resent after a fault takes the same 房号 as the fault-free run
        self.svc.new_code = lambda: "100001"
        wiring.override(self.svc)
        self.journal = Journal()
        self.kind, self.fail_at = kind, fail_at
        self.waited = 0

    def _seed(self) -> bytes:
        # the script's latest seed, as often as asked: a start that failed under a fault and is sent
        # again must deal from the same seed as the fault-free run (else the games differ by design)
        return self.seeds[-1] if self.seeds else bytes(32)

    def wait(self, seconds: float) -> None:
        """A phone waits (for a deadline): the world's clock moves on."""
        self.waited += 1
        self.clock.advance(seconds)

    def arm(self) -> None:
        """From now on call number `fail_at` fails (counting from the first call of the game)."""
        self.client.kind, self.client.fail_at = self.kind, self.fail_at

    def error_answer(self, method: str, path: str, r: Any) -> ErrorAnswer:
        """Check one error answer's shape: {code, message in Chinese, details?}; 429/503 say when to retry."""
        body = r.json_body
        assert isinstance(body, dict) and {"code", "message"} <= set(body) <= {"code", "message", "details"}, body
        assert any("\u4e00" <= ch <= "\u9fff" for ch in body["message"]), body
        retry_after = r.headers.get("Retry-After")
        if r.status_code in (429, 503):
            assert retry_after and int(retry_after) > 0, (r.status_code, body, r.headers)
        return ErrorAnswer(method, path, r.status_code, body["code"], retry_after)

    def items(self) -> dict[tuple[str, str], dict[str, Any]]:
        """Every item of the table (as stored), by key: what the run left behind."""
        out: dict[tuple[str, str], dict[str, Any]] = {}
        kwargs: dict[str, Any] = {"TableName": self.table, "ConsistentRead": True}
        while True:
            resp = self.raw.scan(**kwargs)
            for item in resp["Items"]:
                out[(item["pk"]["S"], item["sk"]["S"])] = item
            if "LastEvaluatedKey" not in resp:
                return out
            kwargs["ExclusiveStartKey"] = resp["LastEvaluatedKey"]

    def close(self) -> None:
        from chalicelib import wiring

        wiring.override(None)
        self.raw.delete_table(TableName=self.table)


Script = Callable[[World], Any]
"""A game script: plays one whole game through phones, returns the game's outcome as the API tells it."""


@contextmanager
def moto_app(fast: bool = True) -> Iterator[tuple[Any, Any]]:
    """moto, a raw DynamoDB client and the app's Chalice test client with contract checks."""
    import contextlib

    from chalice.test import Client
    from moto import mock_aws

    import app
    from tests.conftest import dynamodb_client

    with mock_aws(), fast_moto() if fast else contextlib.nullcontext():
        raw = dynamodb_client()
        with Client(app.app, stage_name="local") as client:
            yield raw, client.http


class Runner:
    """Plays one family's script fault-free once (the baseline and the census of its calls), then
    again with each (class, call number) asked for."""

    def __init__(self, http: Any, raw: Any, family: str, script: Script) -> None:
        self.http, self.raw, self.family, self.script = http, raw, family, script
        self._n = 0
        self.baseline = self.run(None, None, record=True)

    def run(self, kind: str | None, fail_at: int | None, record: bool = False) -> Run:
        self._n += 1
        world = World(self.http, self.raw, f"faults-{self.family}-{self._n}", kind, fail_at, record)
        try:
            world.arm()
            outcome = self.script(world)
            return self._result(world, kind, fail_at, outcome)
        finally:
            world.close()

    def _result(self, world: World, kind: str | None, fail_at: int | None, outcome: Any) -> Run:
        return Run(self.family, kind, fail_at, world.client.calls, world.items(), world.journal,
                   list(world.client.injected), outcome, list(world.client.operations), world.waited)

    def sweep_forked(self, kinds: tuple[str, ...], points: set[int], timeout_s: float = 600) -> list[Run | str]:
        """Every (class, call number) of `kinds` x `points`, each game played once up to its fault.

        The game is played fault-free once more; just before each call number in `points` the process
        forks one child per class. A child continues the same game from that very point with its call
        failing, plays it to the end, and sends its `Run` back through a pipe (or the traceback of what
        went wrong, as a string); the parent waits for it and goes on. Each faulted game so costs only
        what follows its fault: the same games as `run(kind, n)`, in about half the time.
        """
        results: list[Run | str] = []
        child: list[Any] = []  # in a child: [write end, kind, call number]
        self._n += 1
        world = World(self.http, self.raw, f"faults-{self.family}-fork-{self._n}", None, None)

        def checkpoint(n: int) -> None:
            if n not in points:
                return
            for kind in kinds:
                read, write = os.pipe()
                pid = os.fork()
                if pid == 0:  # the child: this game, from here on, with call n failing
                    os.close(read)
                    world.client.before_call = None
                    world.client.kind, world.client.fail_at = kind, n
                    world.kind, world.fail_at = kind, n
                    child[:] = [write, kind, n]
                    return
                os.close(write)
                results.append(_collect(pid, read, timeout_s, f"{self.family} {kind}@{n}"))

        world.client.before_call = checkpoint
        try:
            try:
                outcome = self.script(world)
                payload: Any = None
                if child:
                    payload = self._result(world, child[1], child[2], outcome)
            except BaseException:  # a child reports anything to its parent
                if not child:
                    raise
                payload = f"{self.family} {child[1]}@{child[2]}: " + traceback.format_exc()
            if child:
                with os.fdopen(child[0], "wb") as out:
                    pickle.dump(payload, out)
                os._exit(0)
        finally:
            if not child:
                world.close()
        return results


def _collect(pid: int, read: int, timeout_s: float, what: str) -> Run | str:
    """A child's Run (or its failure as text), read from its pipe; the child is reaped."""
    chunks: list[bytes] = []
    try:
        while True:
            ready, _, _ = select.select([read], [], [], timeout_s)
            if not ready:
                os.kill(pid, signal.SIGKILL)
                return f"{what}: no answer within {timeout_s} s"
            chunk = os.read(read, 1 << 20)
            if not chunk:
                break
            chunks.append(chunk)
    finally:
        os.close(read)
        os.waitpid(pid, 0)
    if not chunks:
        return f"{what}: the child died without a word"
    result: Run | str = pickle.loads(b"".join(chunks))
    return result


# ---- what a run must have left behind ------------------------------------------------------------


def audit(run: Run) -> None:
    """The table's own invariants after a game, faults or not: nothing half-written.

    * every room's log is exactly LOG#0 … LOG#(step-1) when it started (none before): no transition
      without its log entry, no log entry without its transition;
    * every sealed move belongs to a step the room reached; a closed round's player moves are exactly
      the moves its log entry settled, and every other seat it waited for holds a placeholder;
    * results: one RESULT# item per unit the room lists, no other; each 宫斗杀 clear listed once.
    """
    decoded = {key: codec.from_item(item) for key, item in run.items.items()}
    rooms = {pk: v for (pk, sk), v in decoded.items() if sk == "ROOM"}
    by_room: dict[str, dict[str, dict[str, Any]]] = {pk: {} for pk in rooms}
    for (pk, sk), v in decoded.items():
        if pk.startswith("ROOM#") and sk != "ROOM":
            assert pk in by_room, f"{sk} of a room that does not exist: {pk}"
            by_room[pk][sk] = v
    for pk, room in rooms.items():
        rid, step = room["id"], int(room["step"])
        children = by_room[pk]
        logs = sorted(int(sk[4:]) for sk in children if sk.startswith("LOG#"))
        expected = list(range(step)) if room["status"] != "open" else []
        if room["status"] in ("expired", "abandoned") and not logs:
            expected = []
        assert logs == expected, f"{rid}: log entries {logs}, room at step {step} ({room['status']})"
        moves: dict[int, dict[int, dict[str, Any]]] = {}
        for sk, v in children.items():
            if sk.startswith("MOVE#"):
                s = int(v["step"])
                assert s <= step, f"{rid}: a move for step {s}, the room is at {step}"
                moves.setdefault(s, {})[int(v["seat"])] = v
        for s, seats in moves.items():
            if s == step:
                continue  # the open round: moves sealed so far
            log = codec.log_from_item(run.items[(pk, f"LOG#{s:06d}")])
            played = {seat for seat, v in seats.items() if v["by"] != "default"}
            if log.kind.value == "settle":
                assert {int(k) for k in (log.moves or {})} == played, (rid, s, log.moves, played)
                for seat in played:
                    assert json.loads(seats[seat]["action"]) == log.moves[str(seat)], (rid, s, seat)
        results = sorted(sk.removeprefix("RESULT#") for sk in children if sk.startswith("RESULT#"))
        assert results == sorted(room.get("results", [])), (rid, results, room.get("results"))
    clears = Counter(v["room"] for (pk, _sk), v in decoded.items() if pk.startswith("CLEAR#"))
    assert all(n == 1 for n in clears.values()), clears


VOLATILE = frozenset()
"""Attributes allowed to differ from the fault-free run (none so far: the clock and seeds are fixed)."""


def compare(run: Run, baseline: Run) -> None:
    """Same game, same seeds, same phones: the table must end exactly as in the fault-free run, and
    the API must report the same outcome."""
    assert run.outcome == baseline.outcome, (run.kind, run.fail_at)
    missing = sorted(baseline.items.keys() - run.items.keys())
    extra = sorted(run.items.keys() - baseline.items.keys())
    assert not missing and not extra, f"{run.kind}@{run.fail_at}: missing {missing[:5]}, extra {extra[:5]}"
    for key, want in baseline.items.items():
        got = run.items[key]
        if got != want:
            diff = sorted(k for k in want.keys() | got.keys() if want.get(k) != got.get(k) and k not in VOLATILE)
            assert not diff, f"{run.kind}@{run.fail_at}: {key} differs in {diff}"
