"""The benchmarks behind docs/performance.md still run against the API as it is: a change to a route
once left `tests/bench/run.py` looping on 404s while the document kept its old figures. One small
game through each, in process, checked for what the tables are made of (not for the figures)."""

from __future__ import annotations

import re

from tests.bench import push, run


def test_the_per_action_benchmark_plays_a_game_and_meters_every_request():
    with run.environment() as (api, svc, meter, _clock):
        timed = run.Timed(meter)
        lines = run.bench_d(api, svc, meter, timed, games=1)
        rows = {row.split(" | ")[0].removeprefix("| "): row for row in timed.rows()[2:]}
    assert {"D: 开房 (create)", "D: 落子 (move, not last)", "D: 落子, round settles (last move)",
            "D: GET view, unchanged (304)", "D: 战报 (reports, whole log)"} <= rows.keys()
    # a move that leaves the round waiting: the room read, the move written, the round's moves read once
    assert "GetItem 1.00, PutItem 1.00, Query 1.00 |" in rows["D: 落子 (move, not last)"]
    assert "TransactWriteItems 1.00" in rows["D: 落子, round settles (last move)"]
    assert re.search(r"D room item at the end: \d+ bytes", lines[0])


def test_the_push_benchmark_plays_a_game_both_ways():
    with run.environment() as (api, svc, meter, clock):
        world = push.World(api, svc, meter, clock)
        try:
            tally = push.play_d(world, seed=1)
        finally:
            from chalicelib.push.build import use_sender

            use_sender(None)
    with_push, polling, counts = push.costs(tally)
    assert counts["notices"] > 0 and counts["fetches"] > 0 and counts["actions"] > 0
    assert counts["idle"] == 0  # every fetch a notice caused brought something new
    assert 0 < with_push.total() < polling.total()
    assert len(push.cost_rows([tally])) == 8 and len(push.waiting_rows([tally])) == 3  # headers, a row (two)
