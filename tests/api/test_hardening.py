"""Hardening: random bodies never cause a 500 or a half-written change, and log lines carry the
request context but never hidden information."""

from __future__ import annotations

import io
import json
import logging

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tests.api.dgame import make_team, open_d_room
from tests.api.helpers import Player

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-10**6, 10**6) | st.floats(allow_nan=False) | st.text(max_size=20),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=10), inner, max_size=4),
    max_leaves=12,
)
ACTIONS = st.fixed_dictionaries({"type": st.sampled_from(["poison", "assassinate", "frame", "heal", "idle", "move",
                                                          "pick", "x"])},
                                optional={"target": json_values, "place": json_values, "cards": json_values})
BODIES = st.one_of(
    json_values,
    st.fixed_dictionaries({"step": st.integers(-3, 5) | json_values, "action": ACTIONS | json_values}),
    st.fixed_dictionaries({}, optional={"game": st.sampled_from(["shengong_d", "baohuang", "zhenhuan"]) | json_values,
                                        "options": json_values, "password": json_values}),
)


def _assert_clean(r) -> None:
    assert r.status_code < 500, r.body
    if r.status_code >= 400:
        body = r.json_body
        assert set(body) <= {"code", "message", "details"} and body["code"] and body["message"]


def test_random_bodies_on_every_write_route_never_fail_or_half_write(api, svc):
    admin = Player(api, "司礼")
    team = make_team(api, admin, ["甲", "乙", "丙"])
    room_id = open_d_room(team, stage=1)
    actions = team[0].game_path(room_id, "/actions")
    paths = ["/v1/rooms", actions, f"/v1/rooms/{room_id}/hurry", f"/v1/rooms/{room_id}/join",
             f"/v1/rooms/{room_id}/spectate", "/v1/admin/consorts", f"/v1/admin/consorts/{team[0].consort}/maids",
             "/v1/auth/dev", f"/v1/consorts/{team[0].consort}/claim"]
    before = svc.rooms.get_room(room_id)
    # the moves route is reached (an unknown path would be refused before any handler runs)
    assert team[0].post(actions, {"step": before.step, "action": {"type": "x"}}).json_body["code"] == "BAD_ACTION"

    @settings(max_examples=60, deadline=None, suppress_health_check=list(HealthCheck))
    @given(path=st.sampled_from(paths), body=BODIES, who=st.sampled_from([0, 1, 2]))
    def run(path, body, who):
        raw = json.dumps(body) if not isinstance(body, str) else body
        # compared with the room just before this request: a drawn body may be a legal move, which is
        # rightly sealed, and the refusals after it must leave that move (and the room) as they were
        room = svc.rooms.get_room(room_id)
        sealed = svc.rooms.list_moves(room_id, room.step)
        r = team[who].post(path, raw)
        _assert_clean(r)
        if path == actions and r.status_code >= 400:
            assert svc.rooms.get_room(room_id).version == room.version  # a refused move wrote nothing
            assert svc.rooms.list_moves(room_id, room.step) == sealed  # nor sealed or replaced one

    run()
    for junk in (b"\xff\xfe", b"{", b"null", b"[]", b'"text"', b"1e999", b'{"step": 1e999}'):
        _assert_clean(api.http.post(actions, body=junk, headers=team[0].headers()))


def test_log_lines_carry_context_and_no_hidden_information(api, svc):
    """Hidden information stays hidden in logs too: no action, target, card or hand in any line."""
    from chalicelib.observability import logger

    # what the Lambda would print: the service's own JSON formatter, at INFO
    sink = io.StringIO()
    handler = logging.StreamHandler(sink)
    handler.setFormatter(logger.registered_formatter)
    logger.addHandler(handler)
    logger.setLevel("INFO")
    admin = Player(api, "司礼")
    team = make_team(api, admin, ["丁", "戊", "己"], maids={"xunyi": 2, "hedinghong": 1})
    room_id = open_d_room(team, stage=1)
    sink.seek(0)
    sink.truncate(0)
    hand = [c["copy_id"] for c in team[0].view(room_id)["game"]["you"]["hand"]["hand"]]
    card = next((c for c in hand if c.startswith("xunyi")), None)
    move = {"type": "poison", "target": 0, **({"cards": {"attack": card}} if card else {})}
    assert team[0].act(room_id, move, step=1).status_code == 200
    team[1].act(room_id, {"type": "assassinate", "target": 0}, step=1)
    team[2].act(room_id, {"type": "frame", "target": 0}, step=1)
    out = sink.getvalue()
    lines = [json.loads(line) for line in out.splitlines() if line.startswith("{") and '"level"' in line]
    requests = [line for line in lines if line.get("message") == "request"]
    assert len(requests) >= 4
    assert all(line.get("request_id") and line.get("route") and line.get("status") for line in requests), requests
    assert any(line.get("room") == room_id and line.get("user") for line in requests)
    text = out
    for secret in ("xunyi", "hedinghong", "寻医问药", "poison", "assassinate", "frame", '"target"'):
        assert secret not in text, secret
    logger.setLevel("WARNING")
    logger.removeHandler(handler)
