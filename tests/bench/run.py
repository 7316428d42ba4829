"""Benchmarks (not part of the test suite): DynamoDB requests and capacity per action, item sizes,
in-process latency percentiles, engine timings and cold import time.

    .venv/bin/python -m tests.bench.run            # prints the markdown tables in docs/performance.md

Everything runs in one process on moto (so request counts and item sizes are exact, capacity is
computed from sizes, and latency includes moto's own time).
"""

from __future__ import annotations

import json
import os
import random
import statistics
import subprocess
import sys
import time
from collections import Counter
from contextlib import contextmanager
from pathlib import Path
from typing import Any

BENCH_ENV = {
    "AWS_ACCESS_KEY_ID": "bench", "AWS_SECRET_ACCESS_KEY": "bench", "AWS_DEFAULT_REGION": "ap-northeast-1",
    "POWERTOOLS_METRICS_DISABLED": "true", "POWERTOOLS_LOG_LEVEL": "ERROR",
}
ROOT = Path(__file__).resolve().parents[2]
TABLE = "shengong-bench"


def pct(values: list[float], q: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, round(q / 100 * (len(values) - 1)))]


def ms(seconds: float) -> str:
    return f"{seconds * 1000:.2f} ms"


@contextmanager
def environment():
    """The API in process on moto with a metered client; the environment it needs, only while it runs
    (so the suite's smoke test, tests/infra/test_benchmarks.py, leaves its worker as it found it).
    moto with the suite's speed-ups (infra/moto_speedups.py: the same answers, checked by
    tests/faults/test_moto_patches.py), so latency is less of moto's table scans."""
    from unittest import mock

    with mock.patch.dict(os.environ, BENCH_ENV):
        os.environ.pop("VALIDATE_RESPONSES", None)
        import boto3
        from chalice.test import Client
        from moto import mock_aws

        from chalicelib import wiring
        from chalicelib.config import load_settings
        from chalicelib.core.clock import FixedClock
        from chalicelib.store.table import create_table
        from infra.moto_speedups import install, plain_json_answers
        from tests.bench.meter import Meter

        install()
        with mock_aws(), plain_json_answers():
            client = boto3.client("dynamodb", region_name="ap-northeast-1")
            create_table(client, TABLE)
            meter = Meter()
            meter.attach(client)
            clock = FixedClock()
            svc = wiring.build(load_settings({"STAGE": "local", "TABLE_NAME": TABLE, "ADMIN_OPENIDS": "dev:司礼"}),
                               clock=clock, client=client)
            wiring.override(svc)
            import app

            try:
                with Client(app.app, stage_name="local") as api:
                    yield api, svc, meter, clock
            finally:
                wiring.override(None)


class Timed:
    """Collects latencies and DynamoDB use per labelled request."""

    def __init__(self, meter: Any) -> None:
        self.meter = meter
        self.lat: dict[str, list[float]] = {}
        self.ops: dict[str, list[Counter[str]]] = {}
        self.rcu: dict[str, list[float]] = {}
        self.wcu: dict[str, list[float]] = {}

    def __call__(self, label: str, fn: Any) -> Any:
        self.meter.reset()
        t = time.perf_counter()
        out = fn()
        self.lat.setdefault(label, []).append(time.perf_counter() - t)
        calls, rcu, wcu = self.meter.snapshot()
        self.ops.setdefault(label, []).append(calls)
        self.rcu.setdefault(label, []).append(rcu)
        self.wcu.setdefault(label, []).append(wcu)
        return out

    def rows(self) -> list[str]:
        out = ["| action | n | DynamoDB requests (mean) | RCU (mean) | WCU (mean) | p50 | p99 |", "|---|---|---|---|---|---|---|"]
        for label, lats in self.lat.items():
            n = len(lats)
            total: Counter[str] = Counter()
            for c in self.ops[label]:
                total.update(c)
            reqs = ", ".join(f"{op} {cnt / n:.2f}" for op, cnt in sorted(total.items()))
            out.append(f"| {label} | {n} | {reqs} | {sum(self.rcu[label]) / n:.2f} | {sum(self.wcu[label]) / n:.2f} "
                       f"| {ms(pct(lats, 50))} | {ms(pct(lats, 99))} |")
        return out


def answered(r: Any, *statuses: int) -> Any:
    """The answer, if its status is one expected (200 by default): a benchmark that meets a refusal
    stops, rather than measuring errors or looping on a game that never moves."""
    if r.status_code not in (statuses or (200,)):
        raise AssertionError(f"{r.status_code}: {r.body[:300]!r}")
    return r


def bench_d(api: Any, svc: Any, meter: Any, timed: Timed, games: int = 6) -> list[str]:
    """宫斗杀 as the app plays it: the per-game view (with and without a change), each move sent with
    `?reports_after=` so its answer carries the view and the settled round's 战报 (api/poll.ts)."""
    from tests.api.dgame import make_team
    from tests.api.helpers import Player

    admin = Player(api, "司礼")
    lines = []
    for g in range(games):
        team = make_team(api, admin, [f"d{g}a", f"d{g}b", f"d{g}c"], value=70,
                         maids={"xunyi": 2, "tieshen": 1, "tongxin": 1})
        room_id = timed("D: 开房 (create)", lambda: answered(team[0].post(
            "/v1/rooms", {"game": "shengong_d"})).json_body)["room"]["id"]
        game = f"/v1/games/shengong/rooms/{room_id}"
        timed("D: 加入 (join)", lambda: answered(team[1].post(f"/v1/rooms/{room_id}/join")))
        timed("D: 加入并开战 (third join starts)", lambda: answered(team[2].post(f"/v1/rooms/{room_id}/join")))
        timed("lobby: 我的对局 (GET /v1/me/rooms, one game under way)", lambda: answered(team[1].get("/v1/me/rooms")))
        after = -1  # the phones' reports cursor: each fetch and each move's answer moves it on
        while True:
            got = timed("D: GET view (a phone told of a change)",
                        lambda: answered(team[0].get(f"{game}?reports_after={after}")))
            view, etag = got.json_body, got.headers["ETag"]
            after = view["reports"]["next_after"]
            timed("D: GET view, unchanged (304)", lambda: answered(team[0].get(
                f"{game}?reports_after={after}", **{"If-None-Match": etag}), 304))
            if view["room"]["status"] != "active":
                break
            step, seats = view["room"]["step"], view["pending"]["seats"]
            for i, seat in enumerate(seats):
                label = "D: 落子, round settles (last move)" if i == len(seats) - 1 else "D: 落子 (move, not last)"
                # a seat whose move a boss's 暗杀 voided may only 待机 (her own view says so; not timed)
                voided = answered(team[seat].get(game)).json_body["game"]["you"]["voided"]
                action = {"type": "idle"} if voided else {"type": "assassinate", "target": 0}
                answer = timed(label, lambda seat=seat, action=action: answered(team[seat].post(
                    f"{game}/actions?reports_after={after}", {"step": step, "action": action}))).json_body
                after = answer["view"]["reports"]["next_after"]
            timed("D: 战报 (reports, whole log)", lambda: answered(team[1].get(f"{game}/reports?after=0&limit=100")))
    room = svc.rooms.get_room(room_id)
    lines.append(f"- D room item at the end: {room_to_size(room)} bytes (state {len(json.dumps(room.state))} B JSON, "
                 f"stored zlib-compressed)")
    return lines


def room_to_size(room: Any) -> int:
    from chalicelib.store.codec import room_to_item
    from tests.bench.meter import item_size

    return item_size(room_to_item(room))


def bench_melee(api: Any, svc: Any, timed: Timed, games: int = 2) -> list[str]:
    from tests.api.dgame import make_team
    from tests.api.helpers import Player

    admin = Player(api, "司礼")
    answered(admin.put("/v1/admin/games", {"open": {"shengong_c": True}}))
    rng = random.Random(7)
    places = ["景仁宫", "承乾宫", "钟粹宫", "延禧宫", "永寿宫", "长春宫"]
    for g in range(games):
        team = []
        for i in range(8):
            team += make_team(api, admin, [f"m{g}{i}"], value=50, maids={"xunyi": 1, "tieshen": 1})
        room_id = answered(team[0].post("/v1/rooms", {"game": "shengong_c"})).json_body["room"]["id"]
        game = f"/v1/games/shengong/rooms/{room_id}"
        for p in team[1:]:
            answered(p.post(f"/v1/rooms/{room_id}/join"))
        answered(team[0].post(f"/v1/rooms/{room_id}/start"))
        while True:
            view = answered(team[0].get(game)).json_body
            if view["room"]["status"] != "active":
                break
            step, seats = view["room"]["step"], view["pending"]["seats"]
            for i, seat in enumerate(seats):
                kind = rng.choice(["poison", "assassinate", "frame", "heal", "idle"])
                action = {"type": kind, **({"place": rng.choice(places)} if kind in ("poison", "assassinate", "frame")
                                          else {})}
                label = "C (8 seats): round settles (last move)" if i == len(seats) - 1 else "C (8 seats): 落子"
                r = timed(label, lambda seat=seat, action=action: answered(team[seat].post(
                    f"{game}/actions", {"step": step, "action": action}), 200, 422))
                if r.status_code != 200:  # the rules refused it (nothing was written): 待机 instead
                    answered(team[seat].post(f"{game}/actions", {"step": step, "action": {"type": "idle"}}))
    timed("board: top 20", lambda: answered(team[0].get("/v1/boards/cards-free?limit=20")))
    timed("board: my rank", lambda: answered(team[3].get("/v1/boards/cards-free/me")))
    room = svc.rooms.get_room(room_id)
    return [f"- C room item at the end: {room_to_size(room)} bytes (state {len(json.dumps(room.state))} B JSON)"]


def bench_engines() -> list[str]:
    from chalicelib.core.game import Entrant, Persona
    from chalicelib.core.rng import Rng
    from chalicelib.games import get_game

    out = ["| engine work | n | median | p99 |", "|---|---|---|---|"]
    # 8-player round settlement (mode C)
    game = get_game("shengong_c")

    def consort(i: int) -> Persona:
        return Persona(consort_id=f"c{i}", name=f"p{i}", looks=50, talent=50, favor=50, power=50,
                       maids={"xunyi": 2, "tieshen": 1})
    rng = random.Random(3)
    places = ["景仁宫", "承乾宫", "钟粹宫", "延禧宫", "永寿宫", "长春宫"]
    times = []
    for g in range(200):
        seed = g.to_bytes(32, "big")
        state = game.setup([Entrant(i, f"p{i}", consort(i)) for i in range(8)],
                           game.options_model(), Rng(seed, 0))
        step = 1
        while (pending := game.pending(state)) is not None:
            moves = {}
            for s in pending.seats:
                kind = rng.choice(["poison", "assassinate", "frame", "heal", "idle"])
                raw = {"type": kind, **({"place": rng.choice(places)} if kind in ("poison", "assassinate", "frame") else {})}
                moves[s] = game.action_adapter.validate_python(raw)
            t = time.perf_counter()
            state = game.settle(state, moves, Rng(seed, step)).state
            times.append(time.perf_counter() - t)
            step += 1
    out.append(f"| 深宫杀 C: settle one 8-player round | {len(times)} | {ms(pct(times, 50))} | {ms(pct(times, 99))} |")
    # 宫斗杀 round
    game = get_game("shengong_d")
    times = []
    for g in range(200):
        seed = g.to_bytes(32, "big")
        state = game.setup([Entrant(i, f"p{i}", consort(i)) for i in range(3)],
                           game.options_model(), Rng(seed, 0))
        step = 1
        while (pending := game.pending(state)) is not None:
            moves = {s: game.action_adapter.validate_python({"type": "poison", "target": 0}) for s in pending.seats}
            t = time.perf_counter()
            state = game.settle(state, moves, Rng(seed, step)).state
            times.append(time.perf_counter() - t)
            step += 1
    out.append(f"| 宫斗杀 D: settle one round | {len(times)} | {ms(pct(times, 50))} | {ms(pct(times, 99))} |")
    # 保皇 legal-move generation for a 44-card hand
    from chalicelib.games.baohuang import cards as bcards
    from chalicelib.games.baohuang import combos

    pack = bcards.pack(bcards.Variant.CLASSIC)
    per_hand = []
    for h in range(300):
        hand = random.Random(h).sample(list(pack), 44)
        lo = bcards.lowest_rank(bcards.Variant.CLASSIC)
        runs = []
        for _ in range(5):
            t = time.perf_counter()
            for _ in range(100):
                combos.leads(bcards.counts(hand), lo)
            runs.append((time.perf_counter() - t) / 100)
        per_hand.append(min(runs))
    out.append(f"| 保皇: every legal lead of a 44-card hand (count + generate) | {len(per_hand)} hands | "
               f"{per_hand and f'{statistics.median(per_hand) * 1e6:.1f} µs'} | {pct(per_hand, 99) * 1e6:.1f} µs |")
    return out


def bench_baohuang(api: Any, svc: Any, timed: Timed) -> list[str]:
    from tests.api.baohuang_driver import Policy, Table, deal_over

    svc.new_seed = lambda: bytes([9]) * 32
    table = Table.open(api, svc, ["赵", "钱", "孙", "李", "周"], variant="classic")
    original = table.act

    def metered(seat, action, step):
        label = "保皇: one play / pass" if action.get("type") in ("play", "pass") else "保皇: throne / declaration"
        return timed(label, lambda: original(seat, action, step))

    table.act = metered
    t = time.perf_counter()
    table.run(Policy(), deal_over)
    elapsed = time.perf_counter() - t
    table.act = original
    return [f"- a whole classic deal through the API (in process, on moto): {elapsed:.2f} s"]


def bench_import(runs: int = 7) -> list[str]:
    def once(stmt: str) -> float:
        code = f"import time; t=time.perf_counter(); {stmt}; print(time.perf_counter()-t)"
        res = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, check=True,
                             env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"})
        return float(res.stdout.strip())

    for stmt in ("import boto3", "import app"):  # warm the bytecode cache of both
        once(stmt)
    boto = statistics.median(once("import boto3") for _ in range(runs))
    app_ = statistics.median(once("import app") for _ in range(runs))
    loaded = subprocess.run([sys.executable, "-c", "import sys, app; print('boto3' in sys.modules)"], cwd=ROOT,
                            capture_output=True, text=True, check=True).stdout.strip()
    return [(f"- `import app`: {ms(app_)} median of {runs}; `import boto3`: {ms(boto)}; ratio "
             f"**{app_ / boto:.2f}** (boto3 loaded by `import app`: {loaded})")]


def main() -> int:
    report = ["# Benchmark run", ""]
    with environment() as (api, svc, meter, _clock):
        timed = Timed(meter)
        d_lines = bench_d(api, svc, meter, timed)
        m_lines = bench_melee(api, svc, timed)
        b_lines = bench_baohuang(api, svc, timed)
        report += ["## Requests, capacity and latency per action (in process, moto)", "", *timed.rows(), "",
                   *d_lines, *m_lines, *b_lines, ""]
        sizes = {k: (min(v), max(v)) for k, v in meter.sizes.items() if v}
        report += ["## Item sizes written (bytes, min–max)", "", "| item | min | max |", "|---|---|---|"]
        report += [f"| {k} | {lo} | {hi} |" for k, (lo, hi) in sorted(sizes.items())]
        report.append("")
    report += ["## Engines (pure rules, no I/O)", "", *bench_engines(), ""]
    report += ["## Cold import", "", *bench_import(), ""]
    print("\n".join(report))
    return 0


if __name__ == "__main__":
    sys.exit(main())
