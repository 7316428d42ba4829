"""Concurrency against the running local server (real HTTP, real threads, several worker processes,
one shared DynamoDB): 50 rooms x 3 players submitting at the same instant; settlement racing with
催战 and with the scheduler. No move is lost and every round settles exactly once."""

from __future__ import annotations

import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from tests.local_server import DevUser, local_server

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[2]
ROOMS = 50


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with local_server(tmp_path_factory.mktemp("server"), "--no-demo") as running:
        yield running.url, running.db_url


class Client(DevUser):
    def post(self, path: str, body: dict | None = None) -> requests.Response:
        return self.http.post(f"{self.url}{path}", json=body or {}, timeout=60)

    def get(self, path: str) -> requests.Response:
        return self.http.get(f"{self.url}{path}", timeout=60)


@pytest.fixture(scope="module")
def rooms(server):
    url, _ = server
    admin = Client(url, "司礼")
    with ThreadPoolExecutor(16) as pool:
        consorts = list(pool.map(
            lambda i: admin.post("/v1/admin/consorts", {"name": f"妃{i}", "looks": 60, "talent": 60, "favor": 60,
                                                        "power": 60}).json()["id"], range(ROOMS * 3)))
        players = list(pool.map(lambda i: Client(url, f"p{i}"), range(ROOMS * 3)))
        list(pool.map(lambda pc: pc[0].post(f"/v1/consorts/{pc[1]}/claim").raise_for_status(),
                      zip(players, consorts, strict=True)))
    teams = [players[i * 3:(i + 1) * 3] for i in range(ROOMS)]

    def open_room(team):
        room_id = team[0].post("/v1/rooms", {"game": "shengong_d", "options": {"stage": 1, "turn_seconds": 15}}
                               ).json()["room"]["id"]
        for p in team[1:]:
            p.post(f"/v1/rooms/{room_id}/join").raise_for_status()
        return room_id

    with ThreadPoolExecutor(16) as pool:
        ids = list(pool.map(open_room, teams))
    return list(zip(ids, teams, strict=True))


def _store(db_url: str):
    import boto3

    from chalicelib.store.dynamodb import DynamoRoomStore

    client = boto3.client("dynamodb", endpoint_url=db_url, region_name="ap-northeast-1",
                          aws_access_key_id="local", aws_secret_access_key="local")
    return client, DynamoRoomStore(client, "shengong-local")


def _all_at_once(calls):
    """Run every call in its own thread, released together by a barrier; returns their results."""
    barrier = threading.Barrier(len(calls))
    results = [None] * len(calls)

    def run(i, fn):
        barrier.wait()
        results[i] = fn()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(120)
    return results


def _check_round(store, room_id: str, step: int, responses: dict[int, requests.Response]) -> None:
    """Exactly one settlement of `step`, containing every move the server accepted."""
    room = store.get_room(room_id)
    # (past it too, where a later round was settled as well: a round whose only waited-for seats moved
    # settles at once — 宫斗杀 waits for no voided seat — and the racing sweeps' clock finds the next due)
    assert room.step >= step + 1, (room_id, room.step)
    log = store.get_log(room_id, step)
    assert log is not None and log.kind == "settle"
    assert store.get_log(room_id, step + 1) is None or room.step > step + 1
    moves = store.list_moves(room_id, step)
    by_player = {seat for seat, m in moves.items() if m.by == "player"}
    assert {int(s) for s in log.moves} == by_player
    for seat, r in responses.items():
        if r.status_code == 200:
            assert seat in by_player, (room_id, seat)  # accepted means counted
        else:  # (NOT_IN_ROUND: a 宫斗杀 seat whose move a boss's 暗杀 voided, which the round does not wait for)
            assert r.status_code == 409 and r.json()["code"] in ("ROUND_CLOSED", "STALE_STEP", "NOT_IN_ROUND"), r.text
            assert seat not in by_player


def _150_players_submit_at_the_same_instant(server, rooms):
    _, db_url = server
    _, store = _store(db_url)
    calls, index = [], []
    for room_id, team in rooms:
        for seat, p in enumerate(team):
            calls.append(lambda p=p, room_id=room_id: p.post(
                f"/v1/games/shengong/rooms/{room_id}/actions", {"step": 1, "action": {"type": "poison", "target": 0}}))
            index.append((room_id, seat))
    results = _all_at_once(calls)
    assert all(r.status_code == 200 for r in results), [r.text for r in results if r.status_code != 200][:3]
    settled_by = {}
    for (room_id, seat), r in zip(index, results, strict=True):
        if r.json()["settled"]:
            settled_by.setdefault(room_id, []).append(seat)
    for room_id, _team in rooms:
        _check_round(store, room_id, 1, {s: r for (rid, s), r in zip(index, results, strict=True) if rid == room_id})
        assert len(settled_by.get(room_id, [])) <= 1  # at most one request reports having settled it


def _settlement_racing_with_hurry_settles_once(server, rooms):
    _, db_url = server
    _, store = _store(db_url)
    calls, index = [], []
    for room_id, team in rooms:
        for seat in (1, 2):
            calls.append(lambda p=team[seat], room_id=room_id: p.post(
                f"/v1/games/shengong/rooms/{room_id}/actions", {"step": 2, "action": {"type": "idle"}}))
            index.append((room_id, seat))
        calls.append(lambda p=team[0], room_id=room_id: p.post(f"/v1/rooms/{room_id}/hurry", {"step": 2}))
        index.append((room_id, "hurry"))
    results = _all_at_once(calls)
    for room_id, _team in rooms:
        mine = {s: r for (rid, s), r in zip(index, results, strict=True) if rid == room_id}
        hurry = mine.pop("hurry")
        assert hurry.status_code == 200 and hurry.json()["current_step"] >= 3, hurry.text
        _check_round(store, room_id, 2, mine)


def _settlement_racing_with_the_scheduler_settles_once(server, rooms):
    _, db_url = server
    _, store = _store(db_url)
    from chalicelib.core.clock import FixedClock
    from chalicelib.rooms import sweeper
    from chalicelib.rooms.deps import RoomDeps

    late = FixedClock(int(time.time() * 1000) + 3600_000)  # every deadline has passed for this clock
    deps = RoomDeps(rooms=store, accounts=None, clock=late)
    calls, index = [], []
    for room_id, team in rooms:
        for seat in (0, 2):
            calls.append(lambda p=team[seat], room_id=room_id: p.post(
                f"/v1/games/shengong/rooms/{room_id}/actions", {"step": 3, "action": {"type": "idle"}}))
            index.append((room_id, seat))
    reports = []
    calls += [lambda: reports.append(sweeper.settle_overdue(deps)) for _ in range(3)]  # racing sweeps
    results = _all_at_once(calls)
    players = results[: len(index)]
    while store.due_rooms(late.now_ms(), 100):  # whatever the racing sweeps left (batch limits)
        if sweeper.settle_overdue(deps).changed == 0:
            break
    for room_id, _team in rooms:
        mine = {s: r for (rid, s), r in zip(index, players, strict=True) if rid == room_id}
        _check_round(store, room_id, 3, mine)
    assert sum(r.changed for r in reports) <= ROOMS


@pytest.mark.full  # 150 players on a 4-process server; tests/integration/test_races.py races in the default run
def test_150_players_then_settlement_racing_hurry_then_the_scheduler(server, rooms):
    """One test, three rounds of the same 50 rooms in order (round 1 all at once, round 2 racing 催战,
    round 3 racing the scheduler): each round starts where the last one left the rooms, so they must
    run in one worker, one after the other."""
    _150_players_submit_at_the_same_instant(server, rooms)
    _settlement_racing_with_hurry_settles_once(server, rooms)
    _settlement_racing_with_the_scheduler_settles_once(server, rooms)
