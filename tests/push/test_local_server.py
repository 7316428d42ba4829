"""Room notices at the running local server (real sockets on loopback, the worker processes, moto's
stream read by the server's poller): a refused handshake without a token, a storyteller's press
reaching a subscribed phone in one round trip, and 100 sockets on 20 rooms under a burst of
joins and presses, each receiving exactly one notice per version of its room."""

from __future__ import annotations

import json
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest
import requests

from tests.local_server import DevUser, local_server

pytestmark = [pytest.mark.server, pytest.mark.slow]

ROOT = Path(__file__).resolve().parents[2]
ROOMS, PER_ROOM, PRESSES = 20, 5, 2


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with local_server(tmp_path_factory.mktemp("push-server"), "--no-demo", "--client-dir", "", workers=2) as running:
        live = requests.get(f"{running.url}/v1/live", timeout=5)
        live.raise_for_status()
        yield running.url, live.json()["url"]


class User(DevUser):
    def post(self, path: str, body: dict | None = None) -> requests.Response:
        r = self.http.post(f"{self.url}{path}", json=body or {}, timeout=60)
        assert r.status_code == 200, (path, r.status_code, r.text)
        return r

    def press(self, path: str, room: str, step: int, action: dict) -> None:
        """A storyteller's press. Under a loaded machine the single-threaded moto can answer a
        transaction after botocore's read timeout; botocore then retries it and the retry finds it
        done (STALE_VERSION), where DynamoDB would have matched its ClientRequestToken. Either way
        the press counts once: the room's step says which."""
        r = self.http.post(f"{self.url}{path}/actions", json={"step": step, "action": action}, timeout=60)
        if r.status_code == 409 and r.json()["code"] == "STALE_VERSION":
            assert self.get(f"{path}")["room"]["step"] == step + 1, r.text
            return
        assert r.status_code == 200, (path, r.status_code, r.text)

    def get(self, path: str) -> dict:
        r = self.http.get(f"{self.url}{path}", timeout=60)
        assert r.status_code == 200, r.text
        out: dict = r.json()
        return out


class Phone:
    """A real WebSocket client: every message it gets, with the time it came."""

    def __init__(self, ws_url: str, token: str) -> None:
        from contextlib import ExitStack

        from websockets.sync.client import connect

        self.stack = ExitStack()
        self.ws = self.stack.enter_context(connect(f"{ws_url}/?token={token}", open_timeout=30))
        self.got: list[tuple[float, dict]] = []
        self.cond = threading.Condition()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        from websockets.exceptions import ConnectionClosed

        try:
            for text in self.ws:
                with self.cond:
                    self.got.append((time.monotonic(), json.loads(text)))
                    self.cond.notify_all()
        except ConnectionClosed:
            pass

    def send(self, message: dict) -> None:
        self.ws.send(json.dumps(message))

    def wait(self, pred, timeout: float = 20.0) -> bool:
        with self.cond:
            return self.cond.wait_for(lambda: pred([m for _, m in self.got]), timeout)

    def changes(self) -> list[str]:
        return [m["room"] for _, m in self.got if m.get("type") == "changed"]

    def subscribe(self, room: str) -> None:
        self.send({"action": "subscribe", "room": room})
        assert self.wait(lambda ms: {"type": "subscribed", "room": room} in ms)


def test_a_socket_without_a_valid_token_is_refused_at_the_handshake(server):
    from websockets.exceptions import InvalidStatus
    from websockets.sync.client import connect

    _, ws_url = server
    for query in ("", "?token=v1.forged.token"):
        with pytest.raises(InvalidStatus) as e:
            connect(f"{ws_url}/{query}", open_timeout=30)
        assert e.value.response.status_code == 401


def test_a_storytellers_press_reaches_a_subscribed_phone_in_one_round_trip(server):
    url, ws_url = server
    st = User(url, "说书人甲")
    room = st.post("/v1/rooms", {"game": "zhenhuan", "options": {}}).json()["room"]["id"]
    phone = Phone(ws_url, st.token)
    phone.subscribe(room)
    path = f"/v1/games/zhenhuan/rooms/{room}"
    players = [User(url, f"宾客甲{i}") for i in range(5)]
    for p in players:
        p.post(f"/v1/rooms/{room}/join")
    st.post(f"/v1/rooms/{room}/start")
    assert phone.wait(lambda ms: len([m for m in ms if m.get("type") == "changed"]) >= 6)
    latencies = []
    for seat in range(4):
        step = st.get(path)["room"]["step"]
        before = len(phone.changes())
        role = ["jingfei", "huangshang", "sanage", "huafei"][seat]
        st.post(f"{path}/actions", {"step": step, "action": {"type": "assign", "seat": seat, "role": role}})
        committed = time.monotonic()
        assert phone.wait(lambda ms, n=before: len([m for m in ms if m.get("type") == "changed"]) > n, 10)
        latencies.append(phone.got[-1][0] - committed)
    assert max(latencies) < 1.0, latencies
    # the storyteller sees the room's version, so her notices name it (rising); by default a 血染 notice
    # also carries her own view (PUSH_VIEWS), so her screen needs no request: the body her GET gives
    notices = [m for _, m in phone.got if m != {"type": "subscribed", "room": room}]
    assert all(set(m) in ({"type", "room", "version"}, {"type", "room", "version", "view", "etag"})
               and m["room"] == room for m in notices), notices
    assert [m["version"] for m in notices] == sorted({m["version"] for m in notices})
    last = notices[-1]
    assert last["view"]["room"]["version"] == last["version"]
    assert {**last["view"], "server_time": 0} == {**st.get(path), "server_time": 0}


@pytest.mark.full  # the burst; one socket's round trip is in the default run
def test_100_sockets_on_20_rooms_receive_every_notice_under_a_burst(server):
    url, ws_url = server
    admin = User(url, "司礼")
    hosts = [User(url, f"说书人{i}") for i in range(ROOMS)]
    rooms = [h.post("/v1/rooms", {"game": "zhenhuan", "options": {}}).json()["room"]["id"] for h in hosts]
    # each room is watched by its storyteller's phone and four 司礼 phones (both see every version)
    phones: list[tuple[str, Phone]] = []
    with ThreadPoolExecutor(20) as pool:
        opened = list(pool.map(lambda i: (rooms[i // PER_ROOM],
                                          Phone(ws_url, (hosts[i // PER_ROOM] if i % PER_ROOM == 0 else admin).token)),
                               range(ROOMS * PER_ROOM)))
        list(pool.map(lambda rp: rp[1].subscribe(rp[0]), opened))
    phones = opened
    start = {room: hosts[i].get(f"/v1/rooms/{room}")["room"]["version"] for i, room in enumerate(rooms)}
    players = [[User(url, f"宾客{r}-{i}") for i in range(5)] for r in range(ROOMS)]

    def play(r: int) -> None:  # five joins, the start, then presses: each a version of its room
        room, host = rooms[r], hosts[r]
        for p in players[r]:
            p.post(f"/v1/rooms/{room}/join")
        r = host.http.post(f"{url}/v1/rooms/{room}/start", json={}, timeout=60)
        assert r.status_code == 200 or host.get(f"/v1/rooms/{room}")["room"]["status"] == "active", r.text
        path = f"/v1/games/zhenhuan/rooms/{room}"
        step = host.get(path)["room"]["step"]
        for seat in range(PRESSES):
            role = ["jingfei", "huangshang", "sanage"][seat]
            host.press(path, room, step, {"type": "assign", "seat": seat, "role": role})
            step += 1

    with ThreadPoolExecutor(ROOMS) as pool:
        list(pool.map(play, range(ROOMS)))
    versions = {room: hosts[i].get(f"/v1/rooms/{room}")["room"]["version"] - start[room]
                for i, room in enumerate(rooms)}
    assert all(v >= 5 + 1 + PRESSES for v in versions.values()), versions
    for room, phone in phones:
        assert phone.wait(lambda ms, n=versions[room]: len([m for m in ms if m.get("type") == "changed"]) >= n, 30)
    time.sleep(0.5)  # nothing more may come
    for room, phone in phones:
        assert phone.changes() == [room] * versions[room]
