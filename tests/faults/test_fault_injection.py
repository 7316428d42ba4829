"""Fault injection below the adapters, one whole game per family (宫斗杀 D, 保皇, 血染甄嬛传).

Each game is played through the API (the Chalice test client on moto) by phones that retry as the
mini-program does. The boto3 client the services receive (`wiring.build(..., client=...)`) fails its
N-th call with one error class (`tests/faults/injector.py`: throttled, server, timeout, closed, lost
— the call went through, the answer was lost — and replayed — botocore resent a call that had gone
through). After each run:

* every error answer is in the one error shape, documented for its operation, in Chinese, and 429 /
  503 carry `Retry-After`; the injected fault reached the phone as the status its class maps to
  (throttled → 429 `BUSY`; server, timeout, closed, lost → 503 `UNAVAILABLE`; replayed → at most a
  409 the phone refreshes on), never a 500;
* nothing is half-written (`harness.audit`: each room's log matches its step, every move belongs to a
  step and its settlement, one result per unit, one fastest-clear entry per clear);
* the game finished with the same result, and left exactly the same table, as the fault-free run from
  the same seeds (`harness.compare`).

The default run tries FAULTS_SAMPLE (1) seeded call numbers per family and class — 18 faulted games.
`FAULTS_FULL=1` (or a run selecting the `slow` marker, `-m slow`) tries every call number of every
game with every class; FAULTS_SEED picks another sample; FAULTS_REPORT=file appends one JSON line of
figures per family and class (docs/reliability.md quotes a full run).
"""

from __future__ import annotations

import json
import os
import random
import time
from collections import Counter

import pytest

from tests.faults.games import SCRIPTS
from tests.faults.harness import Run, Runner, audit, compare, moto_app
from tests.faults.injector import CLASSES

SAMPLE = int(os.environ.get("FAULTS_SAMPLE", "1"))
SEED = os.environ.get("FAULTS_SEED", "issue-10")
EXPECTED = {
    "throttled": {(429, "BUSY")},
    "server": {(503, "UNAVAILABLE")},
    "timeout": {(503, "UNAVAILABLE")},
    "closed": {(503, "UNAVAILABLE")},
    "lost": {(503, "UNAVAILABLE")},
    "replayed": {(409, "STALE_VERSION")},
}
"""What an injected fault may reach the phone as (it may also be absorbed: no error at all)."""


def full_run(config: pytest.Config) -> bool:
    markexpr = config.getoption("markexpr", "") or ""
    return os.environ.get("FAULTS_FULL") == "1" or ("slow" in markexpr and "not slow" not in markexpr)


class Moto:
    """The module's moto, its raw client, the app's test client, and each family's Runner (its
    baseline is played once per module setup: a runner never outlives the moto it played on)."""

    def __init__(self, raw, http) -> None:
        self.raw, self.http = raw, http
        self.runners: dict[str, Runner] = {}

    def runner(self, family: str) -> Runner:
        if family not in self.runners:
            self.runners[family] = Runner(self.http, self.raw, family, SCRIPTS[family])
        return self.runners[family]


@pytest.fixture(scope="module")
def moto():
    with moto_app() as (raw, http):
        yield Moto(raw, http)


@pytest.fixture
def runner(moto, request):
    r = moto.runner(request.param)
    base = r.baseline
    assert base.journal.errors == [] and base.waited == 0, base.journal.errors  # the fault-free game is clean
    audit(base)
    return r


def points(family: str, kind: str, total: int, count: int) -> list[int]:
    rng = random.Random(f"{SEED}/{family}/{kind}")
    return sorted(rng.sample(range(1, total + 1), min(count, total)))


def check_run(run: Run, baseline: Run) -> None:
    """One faulted game: the fault was met once, answered as its class says, and left nothing behind."""
    where = f"{run.family} {run.kind}@{run.fail_at} ({baseline.operations[run.fail_at - 1]})"
    assert len(run.injected) == 1, (where, run.injected)
    seen = {(e.status, e.code) for e in run.journal.errors}
    assert seen <= EXPECTED[run.kind], (where, run.journal.errors)
    audit(run)
    compare(run, baseline)


def figures(runner: Runner, kind: str, runs: list[Run], seconds: float) -> dict:
    """One line of docs/reliability.md: what the phones met for one family and class."""
    answers: Counter[str] = Counter()
    for run in runs:
        answers.update(f"{e.status} {e.code}" for e in run.journal.errors)
        if not run.journal.errors:
            answers["absorbed"] += 1
    out = {
        "family": runner.family, "kind": kind, "calls": runner.baseline.calls, "points": len(runs),
        "answers": dict(answers), "retries": sum(r.journal.retries for r in runs),
        "refreshes": sum(r.journal.refreshes for r in runs), "waits": sum(r.waited for r in runs),
        "seconds": round(seconds, 1),
    }
    report = os.environ.get("FAULTS_REPORT")
    if report:
        with open(report, "a", encoding="utf-8") as f:
            f.write(json.dumps(out, ensure_ascii=False) + "\n")
    return out


CASES = [pytest.param(family, kind, id=f"{family}-{kind}") for family in SCRIPTS for kind in CLASSES]


@pytest.mark.parametrize(("runner", "kind"), CASES, indirect=["runner"])
def test_a_sample_of_fault_points(runner, kind, request):
    """FAULTS_SAMPLE seeded call numbers of the game (all of them in the full run, below)."""
    if full_run(request.config):
        pytest.skip("the full run tries every point (test_every_fault_point)")
    started = time.perf_counter()
    runs = []
    for n in points(runner.family, kind, runner.baseline.calls, SAMPLE):
        run = runner.run(kind, n)
        check_run(run, runner.baseline)
        runs.append(run)
    figures(runner, kind, runs, time.perf_counter() - started)


@pytest.mark.slow
@pytest.mark.parametrize("runner", list(SCRIPTS), indirect=True)
def test_every_fault_point(runner, request):
    """Every call number of the game fails once with every class (FAULTS_FULL=1 or -m slow). The
    game is played once, forking a faulted copy of itself at each call (`Runner.sweep_forked`)."""
    if not full_run(request.config):
        pytest.skip("every fault point: FAULTS_FULL=1 (or -m slow); the default run samples them")
    started = time.perf_counter()
    calls = runner.baseline.calls
    results = runner.sweep_forked(CLASSES, set(range(1, calls + 1)))
    assert len(results) == calls * len(CLASSES)
    failures = [r for r in results if isinstance(r, str)]
    runs = [r for r in results if not isinstance(r, str)]
    for run in runs:
        try:
            check_run(run, runner.baseline)
        except AssertionError as e:
            failures.append(f"{run.family} {run.kind}@{run.fail_at}: {e}")
    seconds = time.perf_counter() - started
    for kind in CLASSES:
        figures(runner, kind, [r for r in runs if r.kind == kind], seconds / len(CLASSES))
    assert not failures, f"{len(failures)} of {len(results)} fault points failed:\n" + "\n".join(failures[:10])


@pytest.mark.full  # the forked harness against the plain one; the default run samples fault points
def test_a_forked_sweep_plays_the_same_faulted_games(moto):
    """`sweep_forked` (the full run's way) and `run` (the sample's) give the same faulted games."""
    r = Runner(moto.http, moto.raw, "zhenhuan", SCRIPTS["zhenhuan"])
    at = {1, r.baseline.calls // 2}
    forked = r.sweep_forked(("lost", "throttled"), at)
    assert all(not isinstance(f, str) for f in forked), forked
    for f in forked:
        assert isinstance(f, Run)
        plain = r.run(f.kind, f.fail_at)
        assert (f.calls, f.items, f.outcome, f.journal) == (plain.calls, plain.items, plain.outcome, plain.journal)
        check_run(f, r.baseline)


def test_the_injector_counts_every_call_and_fails_the_one_asked_for(moto):
    """The census: a fault-free game's calls are all counted, and a run fails exactly call N."""
    r = Runner(moto.http, moto.raw, "shengong_d", SCRIPTS["shengong_d"])
    ops = Counter(r.baseline.operations)
    assert r.baseline.calls == sum(ops.values()) and ops["transact_write_items"] > 0 and ops["query"] > 0
    n = r.baseline.operations.index("transact_write_items") + 1
    run = r.run("lost", n)
    assert [(i.n, i.operation) for i in run.injected] == [(n, "transact_write_items")]
    assert any(e.status == 503 for e in run.journal.errors)
    check_run(run, r.baseline)
