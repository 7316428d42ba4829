"""The deployed path end to end on moto: the three WebSocket functions called with API Gateway's
event shape, the table's real stream (moto's DynamoDB Streams, read by the local server's poller
exactly as Lambda's event source mapping reads it, with its filter) handed to the stream function,
the DynamoDB push store, and the HTTP API for the moves and the reports' cursor."""

from __future__ import annotations

import json

import pytest

from chalicelib.observability import COUNTS
from tests.api.helpers import Player
from tests.conftest import TABLE
from tests.push.harness import Sockets


class Gateway:
    """API Gateway's side: connection ids, events to the functions, and what the sockets were sent."""

    def __init__(self, sockets: Sockets, poller) -> None:
        self.sockets, self.poller, self.count = sockets, poller, 0

    def connect(self, token: str | None) -> tuple[int, str]:
        from chalicelib.api import ws_routes
        from infra.local_push import ws_event

        self.count += 1
        cid = f"L{self.count}xYz="
        answer = ws_routes.ws_connect(ws_event("$connect", cid, query={"token": token} if token else None), None)
        return answer["statusCode"], cid

    def say(self, cid: str, message: dict) -> dict:
        from chalicelib.api import ws_routes
        from infra.local_push import ws_event

        assert ws_routes.ws_message(ws_event("$default", cid, body=json.dumps(message)), None) == {"statusCode": 200}
        return self.sockets.inbox[cid].pop()

    def disconnect(self, cid: str) -> None:
        from chalicelib.api import ws_routes
        from infra.local_push import ws_event

        ws_routes.ws_disconnect(ws_event("$disconnect", cid), None)


@pytest.fixture
def gateway(svc, ddb):
    from chalicelib.push.build import use_sender
    from infra.local_push import StreamPoller, enable_stream, stream_function, streams_client

    sockets = Sockets()
    use_sender(sockets)
    poller = StreamPoller(streams_client(ddb), enable_stream(ddb, TABLE), stream_function())
    yield Gateway(sockets, poller)
    use_sender(None)


def test_sockets_hear_committed_changes_through_the_tables_stream(api, svc, gateway):
    from chalicelib.push.build import push_services

    errors = COUNTS["PushErrors"]
    st, players = Player(api, "说书人"), [Player(api, f"宾客{i}") for i in range(5)]
    room = st.ok("POST", "/v1/rooms", {"game": "zhenhuan", "options": {}})["room"]["id"]
    path = f"/v1/games/zhenhuan/rooms/{room}"

    assert gateway.connect(None)[0] == 401 and gateway.connect("v1.forged.token")[0] == 401
    _, host = gateway.connect(st.token)
    _, seat0 = gateway.connect(players[0].token)
    _, stale = gateway.connect(st.token)  # her second phone
    for cid in (host, seat0, stale):
        assert gateway.say(cid, {"action": "subscribe", "room": room}) == {"type": "subscribed", "room": room}
    for p in players:
        p.ok("POST", f"/v1/rooms/{room}/join")
    st.ok("POST", f"/v1/rooms/{room}/start")
    gateway.poller.poll()
    # five joins and the start (by default the newest of a batch carries a 血染 viewer's own view)
    assert gateway.sockets.changes(host, views=True) == [room] * 6
    # the room was open: she sees the seats fill — from whom the steps are hidden, she is sent her view
    # of the room as it stands, once for the batch (six notices where the stage sends bare ones)
    assert gateway.sockets.changes(seat0, views=True) == [room]
    assert gateway.sockets.seen[seat0][0]["view"]["room"]["status"] == "active"

    gateway.sockets.gone.add(stale)  # that phone went away: the management API answers 410
    step = st.ok("GET", path)["room"]["step"]
    for seat in range(3):  # the storyteller sets up three seats: nothing 1号 may see changes
        r = st.post(f"{path}/actions", {"step": step, "action": {"type": "assign", "seat": seat,
                                                                   "role": ["jingfei", "huangshang", "sanage"][seat]}})
        step += 1
        assert r.status_code == 200, r.body
    gateway.poller.poll()
    assert gateway.sockets.changes(host, views=True) == [room] * 3
    assert gateway.sockets.changes(seat0, views=True) == []
    store = push_services(svc).store
    assert store.get_connection(stale) is None
    assert {s.connection_id for s in store.subscriptions(room)} == {host, seat0}
    assert gateway.poller.errors == 0 and COUNTS["PushErrors"] == errors

    gateway.disconnect(seat0)
    assert [s.connection_id for s in store.subscriptions(room)] == [host]


def test_a_sealed_move_in_gongdousha_is_told_to_the_others_by_step_and_seat(api, svc, gateway):
    """宫斗杀 D over the deployed path (moto's stream, its filter, the stream function): each sealed move
    reaches the two other players as `{"type": "sealed", "room", "step", "seat"}` — no version, so no
    fetch; nothing of the move — and the creator hears no 催战 notice besides. The round's last move
    settles it: a new version, which the two others hear of (her own answer carried it), and no sealed
    notice."""
    from tests.api.dgame import make_team, open_d_room

    errors = COUNTS["PushErrors"]
    team = make_team(api, Player(api, "司礼"), ["端妃", "敬妃", "欣常在"])
    room = open_d_room(team, stage=1)
    cids = []
    for p in team:
        _, cid = gateway.connect(p.token)
        assert gateway.say(cid, {"action": "subscribe", "room": room}) == {"type": "subscribed", "room": room}
        cids.append(cid)
    gateway.poller.poll()
    for cid in cids:
        gateway.sockets.take(cid)
    step = team[0].view(room)["room"]["step"]
    for seat, action in ((1, {"type": "heal"}), (0, {"type": "idle"})):  # 催战 would be for 2
        assert team[seat].act(room, action, step=step).status_code == 200
        gateway.poller.poll()
        for s, cid in enumerate(cids):
            got = gateway.sockets.take(cid)
            assert got == ([] if s == seat else [{"type": "sealed", "room": room, "step": step, "seat": seat}]), got
            assert all(word not in json.dumps(got) for word in ("heal", "idle", "action"))
    for p in team:  # what each one's own GET shows: the same two seats sealed
        assert p.view(room)["pending"]["submitted"] == [0, 1]
    assert team[2].act(room, {"type": "heal"}, step=step).status_code == 200
    gateway.poller.poll()
    for s, cid in enumerate(cids):  # the settler's own answer carried the new version: not sent to her
        assert gateway.sockets.changes(cid) == ([] if s == 2 else [room]) and gateway.sockets.sealed(cid) == []
    assert gateway.poller.errors == 0 and COUNTS["PushErrors"] == errors


def test_reports_cursor_over_http(api, svc):
    st, players = Player(api, "说书人"), [Player(api, f"宾客{i}") for i in range(5)]
    room = st.ok("POST", "/v1/rooms", {"game": "zhenhuan", "options": {}})["room"]["id"]
    for p in players:
        p.ok("POST", f"/v1/rooms/{room}/join")
    st.ok("POST", f"/v1/rooms/{room}/start")
    path = f"/v1/games/zhenhuan/rooms/{room}/reports"
    first = players[0].ok("GET", f"{path}?after=0")
    assert first["next_cursor"].startswith("r1.")
    again = players[0].ok("GET", f"{path}?cursor={first['next_cursor']}")
    assert again["reports"] == [] and again["next_after"] == first["next_after"]
    r = players[1].get(f"{path}?cursor={first['next_cursor']}")
    assert (r.status_code, r.json_body["code"]) == (400, "BAD_CURSOR")
    host = st.ok("GET", f"{path}?after=0")
    assert host["next_cursor"] == str(host["next_after"])


def test_every_socket_event_flushes_what_it_counted(gateway, monkeypatch):
    """The WebSocket functions have no request middleware: each event emits its metrics itself
    (SocketConnects …), or a recycled instance would lose them."""
    from chalicelib.api import ws_routes

    flushed: list[int] = []
    monkeypatch.setattr(ws_routes, "flush_metrics", lambda: flushed.append(1))
    status, cid = gateway.connect(None)  # refused: no token
    assert status == 401 and len(flushed) == 1
    gateway.disconnect(cid)
    assert len(flushed) == 2
