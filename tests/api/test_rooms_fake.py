"""The room service through HTTP with the fake games: lifecycle, sealed rounds, turns, retries."""

from __future__ import annotations

from tests.api.helpers import Player, error


def _tally_room(api, n=2, **options):
    players = [Player(api, f"p{i}") for i in range(n)]
    r = players[0].post("/v1/rooms", {"game": "tally", "options": {"rounds": 2, **options}})
    assert r.status_code == 200, r.body
    room_id = r.json_body["room"]["id"]
    for p in players[1:]:
        assert p.post(f"/v1/rooms/{room_id}/join").status_code == 200
    return room_id, players


def test_sealed_round_settles_when_all_submitted(api, fake_games):
    room_id, (a, b) = _tally_room(api)
    assert a.view(room_id)["room"]["status"] == "open"
    a.post(f"/v1/rooms/{room_id}/join")  # already seated: harmless
    b_view = b.view(room_id)
    assert b_view["room"]["status"] == "open"
    c = Player(api, "p2")
    assert c.post(f"/v1/rooms/{room_id}/join").status_code == 200  # third seat fills: auto start
    view = a.view(room_id)
    assert view["room"]["status"] == "active" and view["room"]["step"] == 1
    assert view["pending"]["kind"] == "sealed" and view["pending"]["submitted"] == []
    r = a.act(room_id, {"type": "pick", "n": 3, "secret": "a-secret"})
    assert r.status_code == 200 and r.json_body["settled"] is False
    # b sees that a submitted, never what
    bv = b.view(room_id)
    assert bv["pending"]["submitted"] == [0] and bv["pending"]["my_move"] is None
    assert "a-secret" not in str(bv)
    assert a.view(room_id)["pending"]["my_move"] == {"type": "pick", "n": 3, "secret": "a-secret"}
    b.act(room_id, {"type": "pick", "n": 1})
    r = c.act(room_id, {"type": "pick", "n": 2})
    assert r.json_body["settled"] is True and r.json_body["step"] == 2


def test_double_submit_and_retry(api, fake_games):
    room_id, (a, b, c) = _tally_room(api, 3)
    assert a.act(room_id, {"type": "pick", "n": 2}, step=1).status_code == 200
    again = a.act(room_id, {"type": "pick", "n": 2}, step=1)
    assert again.status_code == 200 and again.json_body["settled"] is False  # same move retried
    assert error(a.act(room_id, {"type": "pick", "n": 1}, step=1)) == (409, "ALREADY_SUBMITTED")
    b.act(room_id, {"type": "pick", "n": 1}, step=1)
    c.act(room_id, {"type": "pick", "n": 1}, step=1)
    # the round settled; a phone retrying the old request is told it went through
    assert a.act(room_id, {"type": "pick", "n": 2}, step=1).status_code == 200
    assert error(a.act(room_id, {"type": "pick", "n": 3}, step=1)) == (409, "STALE_STEP")


def test_hurry_settles_with_defaults_and_is_creator_only(api, fake_games):
    room_id, (a, b, _c) = _tally_room(api, 3)
    a.act(room_id, {"type": "pick", "n": 3}, step=1)
    assert error(b.post(f"/v1/rooms/{room_id}/hurry", {"step": 1})) == (403, "NOT_CREATOR")
    r = a.post(f"/v1/rooms/{room_id}/hurry", {"step": 1})
    assert r.status_code == 200 and r.json_body["settled"] is True and r.json_body["step"] == 2
    # b's late move for the closed round is refused, not lost silently
    assert error(b.act(room_id, {"type": "pick", "n": 1}, step=1)) == (409, "STALE_STEP")
    # a retried 催战 is harmless
    r = a.post(f"/v1/rooms/{room_id}/hurry", {"step": 1})
    assert r.status_code == 200 and r.json_body["step"] == 2
    reports = a.ok("GET", f"/v1/rooms/{room_id}/reports?after=0")["reports"]
    assert [rep["trigger"] for rep in reports] == ["hurry"]


def test_game_over_results_and_replay(api, fake_games):
    room_id, players = _tally_room(api, 3, rounds=1)
    for p in players:
        p.act(room_id, {"type": "pick", "n": 1}, step=1)
    view = players[0].view(room_id)
    assert view["room"]["status"] == "finished" and view["pending"] is None
    assert view["room"]["seed"] is not None
    import hashlib
    assert hashlib.sha256(bytes.fromhex(view["room"]["seed"])).hexdigest() == view["room"]["seed_hash"]
    result = players[0].ok("GET", f"/v1/rooms/{room_id}/result")
    assert [r["name"] for r in result["results"][0]["results"]] == ["p0", "p1", "p2"]
    assert error(players[1].act(room_id, {"type": "pick", "n": 1}, step=2)) == (409, "GAME_OVER")
    replay = players[0].ok("GET", f"/v1/rooms/{room_id}/replay")
    assert [entry["kind"] for entry in replay["log"]] == ["setup", "settle"]


def test_turn_game_timeout_by_scheduler(api, fake_games, svc, clock):
    a, b = Player(api, "a"), Player(api, "b")
    room_id = a.ok("POST", "/v1/rooms", {"game": "relay", "options": {"target": 3}})["room"]["id"]
    b.ok("POST", f"/v1/rooms/{room_id}/join")
    assert error(b.post(f"/v1/rooms/{room_id}/start")) == (403, "NOT_CREATOR")
    a.ok("POST", f"/v1/rooms/{room_id}/start")
    assert error(b.act(room_id, {"type": "add", "n": 1})) == (409, "NOT_YOUR_TURN")
    assert a.act(room_id, {"type": "add", "n": 1}).status_code == 200
    from chalicelib.rooms import sweeper

    assert sweeper.settle_overdue(svc.room_deps()).changed == 0  # not due yet
    clock.advance(31)
    assert sweeper.settle_overdue(svc.room_deps()).changed == 1
    assert sweeper.settle_overdue(svc.room_deps()).changed == 0  # running twice changes nothing
    view = a.view(room_id)
    assert view["game"]["total"] == 2 and view["game"]["auto"] == [False, True]
    a.act(room_id, {"type": "add", "n": 2})
    assert a.view(room_id)["room"]["status"] == "finished"
