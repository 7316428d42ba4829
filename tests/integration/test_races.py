"""Races against the running local server (real HTTP, real threads, four worker processes sharing one
DynamoDB, like concurrent Lambda instances), and its answers to what never reaches the app:

* 28 wrong 暗号 guesses by one user, released together: at most PASSWORD_MAX_CHECKS (5) of them are
  checked (403 WRONG_PASSWORD), every other one is refused unchecked (429 PASSWORD_LOCKED with
  Retry-After); the table's check ring holds at most five timestamps; another user still has her own
  five; even the right 暗号 is refused for the rest of the window.
* A 宫斗杀 round whose three phones each send their move eight times at once (a phone retrying on a
  flaky network): every copy is answered 200 for the same step, exactly one request settles the
  round, the log holds that step once with each player's move, one move item per seat, and the room
  moved on by exactly one step.
* The gateway's own refusals (no token, an unknown path, a wrong method) in the API's one error shape.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import requests

from chalicelib.rooms.access import PASSWORD_MAX_CHECKS
from tests.local_server import DevUser, local_server

pytestmark = pytest.mark.server

ROOT = Path(__file__).resolve().parents[2]
GUESSES = 28
COPIES = 8


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with local_server(tmp_path_factory.mktemp("races"), "--no-demo") as running:
        yield running.url, running.db_url


class Phone(DevUser):
    def post(self, path: str, body: dict | None = None) -> requests.Response:
        # a fresh connection per request (the server closes each one): no session state shared by threads
        return requests.post(f"{self.url}{path}", json=body or {}, timeout=120,
                             headers={"Authorization": self.token})

    def ok(self, path: str, body: dict | None = None) -> dict:
        r = self.post(path, body)
        assert r.status_code == 200, (path, r.status_code, r.text)
        return r.json()

    def get(self, path: str) -> dict:
        r = self.http.get(f"{self.url}{path}", timeout=60)
        assert r.status_code == 200, (path, r.status_code, r.text)
        return r.json()


def _store(db_url: str):
    import boto3

    from chalicelib.store.dynamodb import DynamoRoomStore

    client = boto3.client("dynamodb", endpoint_url=db_url, region_name="ap-northeast-1",
                          aws_access_key_id="local", aws_secret_access_key="local")
    return client, DynamoRoomStore(client, "shengong-local")


def _all_at_once(calls):
    """Run every call in its own thread, released together by a barrier; returns their results."""
    barrier = threading.Barrier(len(calls))
    results: list = [None] * len(calls)

    def run(i, fn):
        barrier.wait()
        results[i] = fn()

    threads = [threading.Thread(target=run, args=(i, fn)) for i, fn in enumerate(calls)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(180)
    assert all(r is not None for r in results), "a request did not come back"
    return results


def test_parallel_wrong_passwords_get_at_most_five_checks(server):
    url, db_url = server
    owner, guesser, other = Phone(url, "房主"), Phone(url, "猜暗号"), Phone(url, "旁人")
    room = owner.ok("/v1/rooms", {"game": "baohuang", "options": {}, "password": "0527"})["room"]["id"]
    answers = _all_at_once([
        lambda i=i: guesser.post(f"/v1/rooms/{room}/join", {"password": f"{1000 + i}"}) for i in range(GUESSES)
    ])
    codes = [(r.status_code, r.json()["code"]) for r in answers]
    checked = codes.count((403, "WRONG_PASSWORD"))
    locked = codes.count((429, "PASSWORD_LOCKED"))
    assert checked + locked == GUESSES, codes  # nothing else: no 5xx, no 409 from the race
    assert 1 <= checked <= PASSWORD_MAX_CHECKS, codes
    print(f"{GUESSES} parallel wrong guesses: {checked} checked, {locked} refused unchecked")
    assert all(r.headers.get("Retry-After") for r in answers if r.status_code == 429)
    client, _ = _store(db_url)
    ring = client.get_item(TableName="shengong-local", ConsistentRead=True,
                           Key={"pk": {"S": f"ROOM#{room}"}, "sk": {"S": f"PWCHECK#{guesser.user_id}"}})["Item"]
    assert sum(1 for k in ring if k[0] == "s" and k[1:].isdigit()) <= PASSWORD_MAX_CHECKS
    # the window is spent for this user and room: even the right 暗号 is not checked ...
    r = guesser.post(f"/v1/rooms/{room}/join", {"password": "0527"})
    assert (r.status_code, r.json()["code"]) == (429, "PASSWORD_LOCKED")
    # ... while another user has her own checks
    assert other.post(f"/v1/rooms/{room}/join", {"password": "1111"}).json()["code"] == "WRONG_PASSWORD"
    assert other.ok(f"/v1/rooms/{room}/join", {"password": "0527"})["room"]["seats"][1]["name"] == "旁人"


def test_parallel_retries_of_the_same_moves_settle_a_round_once(server):
    url, db_url = server
    admin = Phone(url, "司礼")
    team = []
    for name in ("甄嬛", "眉庄", "陵容"):
        cid = admin.ok("/v1/admin/consorts", {"name": name, "looks": 60, "talent": 60, "favor": 60,
                                              "power": 60})["id"]
        p = Phone(url, f"race-{name}")
        p.ok(f"/v1/consorts/{cid}/claim")
        team.append(p)
    room = team[0].ok("/v1/rooms", {"game": "shengong_d", "options": {"stage": 1}})["room"]["id"]
    for p in team[1:]:
        p.ok(f"/v1/rooms/{room}/join")
    path = f"/v1/games/shengong/rooms/{room}"
    view = team[0].get(path)
    assert view["room"]["status"] == "active"
    step = view["room"]["step"]
    move = {"step": step, "action": {"type": "assassinate", "target": 0}}
    answers = _all_at_once([lambda p=p: p.post(f"{path}/actions", move) for p in team for _ in range(COPIES)])
    assert [r.status_code for r in answers] == [200] * len(answers), [r.text for r in answers if r.status_code != 200]
    acks = [r.json() for r in answers]
    assert all(a["accepted"] and a["step"] == step for a in acks)
    assert sum(a["settled"] for a in acks) == 1  # exactly one request settled the round
    print(f"{len(acks)} parallel copies of 3 moves: all 200, 1 settled the round")
    _, store = _store(db_url)
    stored = store.get_room(room)
    assert stored.step == step + 1
    log = store.get_log(room, step)
    assert log is not None and log.kind == "settle"
    assert {int(s): (a["type"], a["target"]) for s, a in log.moves.items()} == {
        seat: ("assassinate", 0) for seat in range(3)}
    assert store.get_log(room, step + 1) is None
    moves = store.list_moves(room, step)
    assert sorted(moves) == [0, 1, 2] and all(m.by == "player" for m in moves.values())
    # and the phones see one round settled: one report for the step
    reports = team[0].get(f"{path}/reports?after={step - 1}&limit=100")["reports"]
    assert [r["step"] for r in reports] == [step]


def test_the_gateways_own_refusals_answer_in_the_apis_shape_as_deployed(server):
    """Local and deployed are one contract: no token, an unknown path (with or without a token) and
    a wrong method answer {code, message} as the Gateway Responses in infra/template.py make them."""
    url, _ = server
    bare = requests.get(f"{url}/v1/me", timeout=30)
    assert bare.status_code == 401 and bare.json()["code"] == "UNAUTHENTICATED" and bare.json()["message"]
    unknown = requests.get(f"{url}/v1/nothing/here", timeout=30)
    assert unknown.status_code == 404 and unknown.json()["code"] == "NOT_FOUND"
    tokened = requests.get(f"{url}/v1/nothing/here", headers={"Authorization": "v1.x.y"}, timeout=30)
    assert tokened.status_code == 404 and tokened.json()["code"] == "NOT_FOUND"
    wrong = requests.delete(f"{url}/v1/health", timeout=30)
    assert wrong.status_code in (403, 404, 405) and "code" in wrong.json()
