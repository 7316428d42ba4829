"""血染甄嬛传 over HTTP: twelve players nominate and vote from their own phones on the vote clock.

Each player logs in with her own token and sends only her own nomination and her own hand, without a
step (the room hides its step count from her). The storyteller opens each vote with the clock; the
hands are public as they come; when the clock's deadline passes on the test clock, the scheduler's
sweep (`settle_overdue`, what the SettleOverdue Lambda runs every minute) closes and counts it, the
players who did not vote counting as no. The storyteller corrects a hand during a vote and a counted
vote afterwards; the chopping block and the execution follow. DECISIONS #4 throughout; rules §8.

Privacy (`LeakWatch`): after every transition one seat in turn (all twelve, the spectator and the
storyteller at every phase change and whenever the clock runs out); every sixth check a phone meets
refusals, which carry no step and no secret; every report of every viewer before the end.
"""

from __future__ import annotations

import json

from chalicelib.games.zhenhuan.ending import GOOD_WINS
from tests.api.helpers import Player, error
from tests.api.test_zhenhuan import confirm, watched
from tests.api.zhenhuan_driver import Table

SEED = bytes([12]) + bytes(31)
ROLES_12 = ["jinxi", "huangshang", "wentaiyi", "huafei", "jingfei", "guojunwang", "anlingrong", "yelanyi",
            "taihou", "qifei", "dunqinwang", "qiguiren"]  # fmt: skip


def clockwise(nominee: int, n: int = 12) -> list[int]:
    """The circle from the nominee's left neighbour round to the nominee, who votes last."""
    return [(nominee + k) % n for k in range(1, n + 1)]


def test_twelve_phones_nominate_and_vote_on_the_clock_the_scheduler_closes_it(api, svc):
    """DECISIONS #4: threshold ⌈living/2⌉; the first to reach it goes on the block; at most one execution
    a day; dead players keep one ghost vote; each living player nominates at most once a day and each
    player is nominated at most once a day. Rules §8: players nominate and vote from their phones;
    the vote clock (15 s + 3 s per voter by default) waits for who may still vote and, when it runs
    out, closes with the hands it has; the storyteller may correct any hand, and a counted vote while
    the day lasts; the tally lists the raised hands clockwise from the nominee's left, the nominee last."""
    t = Table.open(api, svc, 12, SEED)
    watch = watched(t, api, rotate=1, probe_every=6)
    t.deal(ROLES_12, bluffs=["zhenhuan", "sanage", "chunyuan"])
    assert t.grim()["composition"] == {"townsfolk": 7, "outsiders": 2, "minions": 2, "demons": 1, "travellers": 0}
    t.begin()
    t.night()
    p = t.players

    # day 1: 5号 nominates 10号 from her phone, for herself only
    assert error(t.send({"type": "nominate", "nominator": 0, "nominee": 9}, who=p[4])) == (403, "NOT_YOUR_SEAT")
    assert error(t.send({"type": "dusk"}, who=p[4])) == (403, "STORYTELLER_ONLY")
    assert error(t.send({"type": "vote", "yes": True}, who=p[4])) == (422, "NO_OPEN_NOMINATION")
    t.play(4, {"type": "nominate", "nominator": 4, "nominee": 9})
    assert error(t.send({"type": "nominate", "nominator": 7, "nominee": 0}, who=p[7])) == (422, "VOTE_PENDING")
    assert error(t.send({"type": "vote", "yes": True}, who=p[0])) == (422, "NO_OPEN_VOTE")  # not opened yet
    # the storyteller starts the clock: everyone may vote, in circle order from the nominee's left
    t.do({"type": "open_vote", "seconds": 30})
    seen = t.view(0)
    pending = seen["pending"]
    assert (pending["kind"], pending["label"], pending["seats"]) == ("turn", "投票计时#1", list(range(12)))
    assert pending["deadline_ms"] == seen["server_time"] + 30_000
    opened = seen["game"]["log"][-1]
    assert (opened["kind"], opened["nominee"], opened["seconds"], opened["voters"]) == (
        "vote_open", 9, 30, clockwise(9))
    assert seen["game"]["day"]["vote"] == {"nominee": 9, "seconds": 30, "hands": [], "waiting": clockwise(9)}
    # hands from the phones, public as they come; each player votes once and only for herself
    for seat, yes in ((10, True), (11, True), (0, True), (2, True), (5, True), (9, True), (6, True), (1, False)):
        t.play(seat, {"type": "vote", "yes": yes})
    assert error(t.send({"type": "vote", "yes": False}, who=p[0])) == (422, "ALREADY_VOTED")
    assert error(t.send({"type": "vote", "seat": 3, "yes": True}, who=p[0])) == (403, "NOT_YOUR_SEAT")
    assert error(t.send({"type": "vote", "votes": [0]}, who=p[0])) == (403, "NOT_YOUR_SEAT")
    day = t.view(3)["game"]["day"]
    assert [(h["seat"], h["yes"]) for h in day["vote"]["hands"]] == [
        (10, True), (11, True), (0, True), (2, True), (5, True), (9, True), (6, True), (1, False)]
    assert day["vote"]["waiting"] == [3, 4, 7, 8]
    assert t.view(3)["pending"]["seats"] == [3, 4, 7, 8]
    # the storyteller corrects 3号's hand (she saw it down); the clock keeps its deadline
    t.do({"type": "vote", "seat": 2, "yes": False})
    assert t.view(3)["pending"]["deadline_ms"] == pending["deadline_ms"]
    assert (2, False) in [(h["seat"], h["yes"]) for h in t.view(3)["game"]["day"]["vote"]["hands"]]
    # nobody else votes: the clock runs out and the scheduler (not a poll) closes the vote
    t.run_out_the_clock()
    seen = t.view(8)
    assert seen["pending"]["kind"] == "host" and seen["pending"]["deadline_ms"] is None
    counted = seen["game"]["log"][-1]
    assert (counted["kind"], counted["voters"], counted["count"], counted["threshold"], counted["block"]) == (
        "vote", [10, 11, 0, 5, 6, 9], 6, 6, 9)
    assert seen["game"]["day"]["vote"] is None and seen["game"]["day"]["block"] == 9
    assert t.stored().pending.deadline_ms is None
    replayed = t.st.ok("GET", f"{t.gpath}/reports?after={t.step - 2}&limit=1")["reports"]
    assert [(r["kind"], r["trigger"]) for r in replayed] == [("timeout", "deadline")]

    # a player nominates once a day; anyone not yet nominated may be; the storyteller closes early
    refused = t.send({"type": "nominate", "nominator": 4, "nominee": 0}, who=p[4])
    assert error(refused) == (422, "ALREADY_NOMINATED_TODAY")
    # from her own phone she is spoken to, not named by seat
    assert refused.json_body["message"] == "你今天已经提名过"
    assert error(t.send({"type": "nominate", "nominator": 7, "nominee": 9}, who=p[7])) == (
        422, "ALREADY_NOMINEE_TODAY")
    t.play(7, {"type": "nominate", "nominator": 7, "nominee": 0})
    t.do({"type": "open_vote"})
    assert t.view(0)["pending"]["deadline_ms"] == t.view(0)["server_time"] + (15 + 3 * 12) * 1000
    assert t.view(0)["pending"]["label"] == "投票计时#2"
    for seat in (1, 2, 3):
        t.play(seat, {"type": "vote", "yes": True})
    assert error(t.send({"type": "dusk"})) == (422, "VOTE_OPEN")
    t.do({"type": "close_vote"})
    day = t.view(0)["game"]["day"]
    assert day["nominations"][1]["voters"] == [1, 2, 3] and day["block"] == 9
    # the storyteller corrects the counted vote (two hands she missed): a tie clears the block
    t.do({"type": "edit_vote", "index": 1, "votes": [1, 2, 3, 4, 5, 8]})
    day = t.view(0)["game"]["day"]
    assert day["nominations"][1]["voters"] == [1, 2, 3, 4, 5, 8] and day["block"] is None
    t.do({"type": "edit_vote", "index": 1, "votes": [1, 2, 3, 4, 5]})
    assert t.view(0)["game"]["day"]["block"] == 9
    # 处决: the one on the block; no more nominations today
    t.do({"type": "execute", "seat": 9})
    refused = t.send({"type": "nominate", "nominator": 11, "nominee": 1}, who=p[11])
    assert error(refused) == (422, "ALREADY_EXECUTED")
    # 入夜 is the storyteller's press: the player is told only why she cannot nominate
    assert refused.json_body["message"] == "今日已处决，不能再提名"
    assert t.send({"type": "nominate", "nominator": 11, "nominee": 1}).json_body["message"] == "今日已处决，请入夜"
    t.dusk()

    # night 2: the demon kills 3号
    t.night({"huangshang": [2, None]})
    board = t.view(5)["game"]
    assert [i for i, s in enumerate(board["seats"]) if not s["alive"]] == [2, 9]
    assert [s["ghost_vote"] for s in board["seats"]] == [i in (2, 9) for i in range(12)]

    # day 2: the dead do not nominate; they vote once, with their ghost vote
    assert error(t.send({"type": "nominate", "nominator": 2, "nominee": 1}, who=p[2])) == (422, "DEAD_NOMINATOR")
    t.play(0, {"type": "nominate", "nominator": 0, "nominee": 1})
    t.do({"type": "open_vote", "seconds": 20})
    seen = t.view(0)
    assert seen["pending"]["seats"] == list(range(12))  # the dead with a ghost vote may vote too
    assert seen["game"]["day"]["vote"]["waiting"] == clockwise(1)
    for seat in (2, 9, 3, 4, 5, 6, 7):
        t.play(seat, {"type": "vote", "yes": True})
    t.run_out_the_clock()
    board = t.view(11)["game"]
    counted = board["log"][-1]
    assert (counted["voters"], counted["count"], counted["threshold"], counted["block"]) == (
        [2, 3, 4, 5, 6, 7, 9], 7, 5, 1)
    assert [s["ghost_vote"] for s in board["seats"]] == [False] * 12  # spent when the vote was counted
    t.play(5, {"type": "nominate", "nominator": 5, "nominee": 3})
    t.do({"type": "open_vote", "seconds": 20})
    assert 2 not in t.view(0)["pending"]["seats"] and 9 not in t.view(0)["pending"]["seats"]
    assert error(t.send({"type": "vote", "yes": True}, who=p[2])) == (422, "NO_GHOST_VOTE")
    t.play(3, {"type": "vote", "yes": True})
    t.do({"type": "close_vote"})
    assert t.view(0)["game"]["day"]["block"] == 1
    # 处决 the demon: good's win is proposed, the storyteller confirms it
    t.do({"type": "execute", "seat": 1})
    outcome = confirm(t, "good", GOOD_WINS)
    assert [r["won"] for r in outcome["results"]] == [s not in (1, 3, 6) for s in range(12)]
    # every hand came from its own phone, the clocks from the scheduler
    kinds = [(kind, (actor or {}).get("role"), (action or {}).get("type")) for kind, actor, action in t.history]
    assert kinds.count(("apply", "player", "vote")) == 19 and kinds.count(("apply", "player", "nominate")) == 4
    assert kinds.count(("timeout", None, None)) == 2
    assert error(Player(api, "路人").post(f"{t.gpath}/actions", {"action": {"type": "vote", "yes": True}})) == (
        403, "NOT_IN_ROOM")
    assert watch.probes > 8 and watch.full_checks >= 8


def _first_day(api, svc) -> Table:
    """The 12-seat table, dealt and through its first night: the first day, nobody nominated yet."""
    t = Table.open(api, svc, 12, SEED)
    t.deal(ROLES_12, bluffs=["zhenhuan", "sanage", "chunyuan"])
    t.begin()
    t.night()
    return t


def test_a_players_action_retried_with_its_key_counts_once(api, svc):
    """Platform rule P7 (a phone may retry): a player sends no step (she must not learn the count), so
    her Idempotency-Key tells the retry of her last action from a new one — even when it arrives after
    the storyteller has opened the next vote, where it would otherwise count a hand she never raised."""
    t = _first_day(api, svc)
    p = t.players
    path = f"{t.gpath}/actions"
    nominate = {"action": {"type": "nominate", "nominator": 4, "nominee": 9}}
    for _ in range(2):
        r = p[4].post(path, nominate, **{"Idempotency-Key": "n-1"})
        assert r.status_code == 200 and r.json_body["accepted"]
    assert [n["nominee"] for n in t.view(5)["game"]["day"]["nominations"]] == [9]
    t.sync()
    t.do({"type": "open_vote", "seconds": 30})
    vote = {"action": {"type": "vote", "yes": True}}
    for _ in range(2):
        assert p[0].post(path, vote, **{"Idempotency-Key": "v-1"}).status_code == 200
    t.sync()
    t.run_out_the_clock()
    t.play(7, {"type": "nominate", "nominator": 7, "nominee": 3})
    t.do({"type": "open_vote", "seconds": 30})
    assert p[0].post(path, vote, **{"Idempotency-Key": "v-1"}).status_code == 200  # the late retry
    assert t.view(5)["game"]["day"]["vote"]["hands"] == []
    assert p[0].post(path, vote, **{"Idempotency-Key": "v-2"}).status_code == 200  # a new hand counts
    assert t.view(5)["game"]["day"]["vote"]["hands"] == [{"seat": 0, "yes": True}]
    # a key names one request: her last key sent with another body is refused, not applied as new
    before = svc.rooms.get_room(t.room_id)
    reused = p[0].post(path, {"action": {"type": "vote", "yes": False}}, **{"Idempotency-Key": "v-2"})
    assert error(reused) == (422, "IDEMPOTENCY_KEY_REUSED")
    assert svc.rooms.get_room(t.room_id) == before
    # a room saved before key and body were kept apart holds one digest of both: still a retry
    from chalicelib.rooms.deps import request_hash

    older = before.model_copy(update={"acted": {**before.acted, p[0].user["id"]: request_hash("v-2", vote["action"])},
                                      "version": before.version + 1})
    svc.rooms.save_room(older, before.version)
    assert p[0].post(path, vote, **{"Idempotency-Key": "v-2"}).status_code == 200
    assert svc.rooms.get_room(t.room_id).version == older.version  # answered, not applied again


def test_her_last_action_retried_after_the_end_is_answered_not_refused(api, svc):
    """Platform P7: her last action sent again with its key is answered 200, also when the storyteller
    ended the game in between (a player who sends a step already was); a new action is GAME_OVER."""
    t = _first_day(api, svc)
    p = t.players
    path = f"{t.gpath}/actions"
    nominate = {"action": {"type": "nominate", "nominator": 4, "nominee": 9}}
    assert p[4].post(path, nominate, **{"Idempotency-Key": "n-1"}).status_code == 200  # its answer lost
    t.sync()
    t.do({"type": "declare_winner", "winner": "good"})
    t.do({"type": "confirm_end"})
    ended = svc.rooms.get_room(t.room_id)
    retry = p[4].post(path, nominate, **{"Idempotency-Key": "n-1"})
    assert retry.status_code == 200 and retry.json_body["accepted"] and retry.json_body["status"] == "finished"
    assert svc.rooms.get_room(t.room_id) == ended
    assert error(p[4].post(path, nominate, **{"Idempotency-Key": "n-2"})) == (409, "GAME_OVER")


def test_a_blank_idempotency_key_is_no_key(api, svc):
    """Platform rule P7: a blank Idempotency-Key (a client that sends the header empty) is no key — not
    one key shared by every action she sends, which took her vote for a retry of her nomination and
    then dropped her hand in the next vote. A key no phone could send is refused (400), nothing written."""
    t = _first_day(api, svc)
    p = t.players
    path = f"{t.gpath}/actions"
    r = p[4].post(path, {"action": {"type": "nominate", "nominator": 4, "nominee": 9}}, **{"Idempotency-Key": ""})
    assert r.status_code == 200 and r.json_body["accepted"]
    t.sync()
    t.do({"type": "open_vote", "seconds": 30})
    vote = {"action": {"type": "vote", "yes": True}}
    assert p[4].post(path, vote, **{"Idempotency-Key": ""}).status_code == 200
    assert p[0].post(path, vote, **{"Idempotency-Key": "  "}).status_code == 200
    assert t.view(5)["game"]["day"]["vote"]["hands"] == [{"seat": 4, "yes": True}, {"seat": 0, "yes": True}]
    before = svc.rooms.get_room(t.room_id)
    assert error(p[0].post(path, vote, **{"Idempotency-Key": "v\x00-1"})) == (400, "MALFORMED_REQUEST")
    assert error(p[0].post(path, vote, **{"Idempotency-Key": "v" * 201})) == (400, "MALFORMED_REQUEST")
    assert svc.rooms.get_room(t.room_id) == before


def test_a_player_who_may_not_tell_is_refused_before_any_content_check(api, svc, monkeypatch):
    """A 告知 is the storyteller's: a player's is refused for that alone, whatever its text — the
    content check never runs for her (it would spend the app's WeChat quota in her name and tell her
    which words WeChat refuses, outside chat's limits)."""
    t = Table.open(api, svc, 12, SEED)
    t.deal(ROLES_12, bluffs=["zhenhuan", "sanage", "chunyuan"])
    t.begin()
    checked: list[str] = []
    original = svc._check_comment

    def check(text: str, user: str) -> None:
        checked.append(text)
        original(text, user)

    monkeypatch.setattr(svc, "_check_comment", check)
    path = f"{t.gpath}/actions"
    for text in ("你好", "去死吧"):
        r = t.players[3].post(path, {"action": {"type": "tell", "seat": 4, "text": text}})
        assert error(r) == (403, "STORYTELLER_ONLY")
    assert checked == []
    t.do({"type": "tell", "seat": 4, "text": "你好"})
    assert checked == ["你好"]  # the storyteller's is checked


def test_no_hurry_in_a_game_without_sealed_rounds(api, svc):
    """血染 has no sealed rounds for 催战 to settle (the storyteller runs the clock): it is refused for
    everyone — and a 司礼 seated as a player, whose steps are hidden, learns no step count from it."""
    t = Table.open(api, svc, 7, SEED, start=False)
    admin = Player(api, "司礼")
    admin.ok("POST", f"{t.path}/join")
    t.start()
    assert admin.view(t.room_id)["room"]["step"] is None  # seated: the counter is hidden from her
    for who, step in ((admin, 0), (admin, 1_000_000), (t.st, t.step)):
        r = who.post(f"{t.path}/hurry", {"step": step})
        assert error(r) == (409, "HURRY_NOT_ALLOWED")
        assert "step" not in r.body.decode() and "7" not in json.dumps(r.json_body.get("details", {}))
