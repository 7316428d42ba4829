"""血染甄嬛传 over HTTP: the storyteller's 「撤销」 (`POST /v1/rooms/{id}/undo {step}`).

The platform recomputes the state from the log without her last press (never reverses it by hand),
each transition drawing from the generator of its place in the effective history, so the same press
made again gives the same game: every viewer's view is byte-identical (and so is her ETag). Who had
been shown something by the undone press is told it was withdrawn, with exactly the lines she saw;
nobody else gets anything, not even a report she could count. Rules §11; platform P4, P5.

Privacy (`LeakWatch`): every seat's view, the spectator's and the storyteller's after every undo and
phase change, one seat in turn after every other transition, with tells, reminder tokens, notes, a
poisoned player's suggested false answer and undo notices in play; every fourth check one phone meets
refusals (no step, no secret); every report of every viewer, read as the test goes.
"""

from __future__ import annotations

from typing import Any

from tests.api.helpers import Player, error
from tests.api.test_zhenhuan import confirm, watched
from tests.api.zhenhuan_driver import LeakWatch, Table

SEED = bytes([14]) + bytes(31)
ROLES_5 = ["jingfei", "huangshang", "wentaiyi", "huafei", "jinxi"]


def infos_of(me: dict) -> list[tuple]:
    return [(i["step"], i["value"]) for i in me["info"] if i["kind"] == "info"]


def snapshot(t: Table, watch: LeakWatch) -> dict[Any, Any]:
    """Every viewer's whole answer (with its ETag) and the storyteller's game."""
    seen: dict[Any, Any] = {}
    for key, who in [*enumerate(t.players), (None, watch.spectator)]:
        r = who.get(t.gpath)
        assert r.status_code == 200
        seen[key] = (r.headers["ETag"], r.json_body)
    seen["host"] = t.st.ok("GET", t.gpath)["game"]
    return seen


def test_undo_withdraws_night_information_from_its_player_only_and_redo_is_byte_identical(api, svc):
    """Rules §11: undoing a press that showed a player something tells that player it was withdrawn
    (「说书人撤回了刚才告诉你的信息：…」 with the lines she saw); a storyteller-only press tells no player
    anything; a public press withdrawn is told to everyone; undo then redo is byte-identical. Platform
    P4: a player's own action is never undone by 撤销; only the host undoes; a retried undo changes
    nothing. DECISIONS #6: the storyteller is the authority."""
    t = Table.open(api, svc, 5, SEED)
    watch = watched(t, api, rotate=1)  # every seat at each undo and phase change, a seat in turn otherwise
    t.deal(ROLES_5)
    t.begin()
    for step in ("huafei", "huangshang"):
        assert t.grim()["night"]["current"]["key"] == step
        t.do({"type": "night_step", "step": step, "targets": [0] if step == "huafei" else []})
    assert t.grim()["night"]["current"]["key"] == "jingfei"

    # 敬妃's information: pressed, undone, pressed again
    press = {"type": "night_step", "step": "jingfei", "targets": []}
    watch.check_reports()
    before = snapshot(t, watch)
    t.do(press)
    after = snapshot(t, watch)
    told = [i for i in t.me(0)["info"] if i["kind"] == "info"]
    assert [i["text"] for i in told] == ["场上女性玩家数：4"]
    t.undo()
    assert snapshot(t, watch) == before  # every view as it was, the storyteller's game included
    assert t.grim()["night"]["current"]["key"] == "jingfei"
    got = watch.check_reports()  # each viewer's reports since the press
    # at night the notice does not repeat what was taken back (her app showed her nothing yet)
    assert got == {0: ["场上女性玩家数：4", "说书人撤回了今晚告诉你的1条信息"],
                   1: [], 2: [], 3: [], 4: [], None: []}
    notice = t.players[0].ok("GET", f"{t.gpath}/reports?after={watch.seen[0] - 1}&limit=1")["reports"][0]
    assert notice["kind"] == "undo" and notice["lines"] == [
        {"kind": "withdrawn", "seat": 0, "lines": [], "text": "说书人撤回了今晚告诉你的1条信息"}]
    host_lines = [line["text"] for rep in t.reports(t.st, after=t.step - 2) for line in rep["lines"]]
    assert host_lines[-1] == "说书人撤销了上一步操作"
    t.do(press)
    assert snapshot(t, watch) == after  # the same press again: byte-identical, ETags included

    # a storyteller-only press (a reminder token) undone: no player hears of it
    assert watch.check_reports() == {0: ["场上女性玩家数：4"], 1: [], 2: [], 3: [], 4: [], None: []}
    before = snapshot(t, watch)
    t.do({"type": "add_reminder", "seat": 1, "token": "私聊", "role": "taishanghuang"})
    assert any(r["token"] == "私聊" for r in t.grim()["seats"][1]["reminders"])
    t.undo()
    assert snapshot(t, watch) == before
    assert watch.check_reports() == {0: [], 1: [], 2: [], 3: [], 4: [], None: []}
    # kept: the leak check looks for the storyteller's tools (tokens, notes, statuses, suggestions) everywhere
    t.do({"type": "set_note", "seat": 1, "text": "像是坏人"})
    t.do({"type": "add_reminder", "seat": 3, "token": "私聊"})
    t.do({"type": "set_status", "seat": 4, "status": "poisoned", "until": "dusk"})
    t.do({"type": "tell", "seat": 1, "card": "seat_role", "seats": [0], "roles": ["jingfei"], "text": "看好你的左右"})
    assert t.grim()["night"]["current"]["key"] == "jinxi" and t.grim()["night"]["current"]["suggestion"]
    t.night({"jinxi": {"targets": [1, 3], "use_suggestion": True}, "wentaiyi": [4]}, dawn=False)
    jinxi = next(r for r in t.grim()["night"]["records"] if r["step"] == "jinxi")
    assert jinxi["impaired"] and jinxi["truth"] is True and jinxi["given"] == jinxi["suggested"]
    assert [i["kind"] for i in t.me(1)["info"]] == ["you_are", "tell"]
    assert infos_of(t.me(4)) == [("jinxi", jinxi["given"])] and infos_of(t.me(2)) == [("wentaiyi", True)]
    t.do({"type": "dawn"})

    # a public press (「死亡」 by day) undone: everyone is told it is withdrawn
    watch.check_reports()
    before = snapshot(t, watch)
    t.do({"type": "kill", "seat": 2})
    assert not t.view(4)["game"]["seats"][2]["alive"]
    t.undo()
    assert snapshot(t, watch) == before
    notice = "说书人撤回了刚才公布的内容：3号死亡"
    assert watch.check_reports() == {k: ["3号死亡", notice] for k in (0, 1, 2, 3, 4, None)}

    # a player's own nomination is not undone by 撤销; only the storyteller undoes; retries are harmless
    t.play(3, {"type": "nominate", "nominator": 3, "nominee": 1})
    assert error(t.st.post(f"{t.path}/undo", {"step": t.step})) == (409, "NOTHING_TO_UNDO")
    assert error(t.players[3].post(f"{t.path}/undo", {"step": 0})) == (403, "HOST_ONLY")
    assert error(t.st.post(f"{t.path}/undo", {"step": t.step + 1})) == (409, "STEP_AHEAD")
    t.do({"type": "vote", "votes": [0, 3]})
    t.undo()  # the storyteller's record of the vote; the nomination (the player's own) stays
    undone = t.stored()
    assert t.st.ok("POST", f"{t.path}/undo", {"step": t.step - 1})["room"]["step"] == t.step  # the phone retries
    assert t.stored() == undone
    assert t.view(0)["game"]["day"]["nominations"] == [
        {"nominator": 3, "nominee": 1, "exile": False, "voters": None, "count": None, "threshold": None}]
    t.do({"type": "vote", "votes": [3]})
    t.do({"type": "declare_winner", "winner": "good", "reason": "说书人宣布善良阵营获胜"})
    confirm(t, "good", "说书人宣布善良阵营获胜", declared=True)  # the replay folds the undone presses out
    assert error(Player(api, "散场").post(f"{t.path}/undo", {"step": t.step})) == (403, "HOST_ONLY")


def test_the_storyteller_reads_a_night_steps_answer_before_pressing(api, svc):
    """The click-through: at 瑾汐's step the storyteller had to work out 「点头」 or 「摇头」 for the pair
    in the dark. `/check` of her step with its targets answers what the press would tell (`preview`),
    the same words the player is then told; nothing is applied; a player's check never carries one."""
    t = Table.open(api, svc, 5, SEED)
    t.deal(ROLES_5)
    t.begin()
    while t.grim()["night"]["current"]["key"] != "jinxi":
        key = t.grim()["night"]["current"]["key"]
        t.do({"type": "night_step", "step": key, "skip": t.grim()["night"]["current"].get("disabled") is None})
    step = t.step
    demon = ROLES_5.index("huangshang")
    with_demon = {"type": "night_step", "step": "jinxi", "targets": [0, demon]}
    without = {"type": "night_step", "step": "jinxi", "targets": [0, 2]}
    seen = {}
    for name, action in (("with", with_demon), ("without", without)):
        check = t.st.ok("POST", f"{t.gpath}/check", {"action": action})
        assert check["legal"] is True
        seen[name] = check["preview"]
    assert seen["with"] == f"告诉5号：1号与{demon + 1}号之中有恶魔"
    assert seen["without"] == "告诉5号：1号与3号之中没有恶魔"
    assert t.step == step  # nothing applied
    player = t.players[4].ok("POST", f"{t.gpath}/check",
                             {"action": {"type": "nominate", "nominator": 4, "nominee": 0}})
    assert player["preview"] is None
    t.do(without)
    told = [i["text"] for i in t.me(4)["info"] if i["kind"] == "info"]
    assert told[-1] == seen["without"].removeprefix("告诉5号：")


def test_an_undo_that_loses_the_room_to_a_join_request_is_applied_on_the_room_as_it_is(api, svc, monkeypatch):
    """Platform P7 (a phone may retry; nothing half-written): a stranger's request to join lands between
    the storyteller's 撤销 reading the room and writing it — the undo is decided again on the room as it
    now is and applied (the request changed no step), not answered 409 STALE_VERSION."""
    t = Table.open(api, svc, 5, SEED)
    t.deal(ROLES_5)
    t.begin()
    t.do({"type": "night_step", "step": "huafei", "targets": [0]})
    guest = Player(api, "远客")
    real, raced = svc.rooms.commit, []

    def commit(room, expected, *a, **kw):
        if not raced:
            raced.append(guest.ok("POST", f"{t.path}/join"))  # another Lambda saves the room first
        return real(room, expected, *a, **kw)

    monkeypatch.setattr(svc.rooms, "commit", commit)
    undone = t.undo()
    assert raced and undone["room"]["requests"] is not None
    assert [r["name"] for r in undone["room"]["requests"]] == ["远客"]
    assert t.grim()["night"]["current"]["key"] == "huafei"  # the press is taken back


def test_a_vote_reopened_by_undo_gets_its_whole_clock_again(api, svc):
    """Decision (rules §11): 撤销 of 「结束投票」 reopens the vote with its whole time again, counted from
    the undo — she took back a close that came too early, so the players get the time to raise their
    hands; the stored deadline is not the first clock's (which may have run out meanwhile)."""
    t = Table.open(api, svc, 5, SEED)
    t.deal(ROLES_5)
    t.begin()
    t.night()
    t.nominate(0, 1)
    t.do({"type": "open_vote", "seconds": 30})
    svc.clock.advance(20)
    t.do({"type": "close_vote"})
    assert t.stored().pending is None or not t.stored().pending.label.startswith("投票计时#")
    svc.clock.advance(25)  # the first clock would have run out by now
    t.undo()
    pending = t.stored().pending
    assert pending is not None and pending.label.startswith("投票计时#")
    assert pending.deadline_ms == svc.clock.now_ms() + 30_000


def test_the_storytellers_view_says_whether_undo_can_take_anything_back(api, svc):
    """Platform P4 / rules §11: the storyteller's room says whether 撤销 may take back the last
    transition and, when not, why (the app greys the button with it): nothing yet right after
    「开始布置」, nor after a player's own nomination, nor once undo has taken back every press; her
    presses can be. The refusal says the same words. Players are told nothing of it."""
    t = Table.open(api, svc, 5, SEED)

    def undo() -> Any:
        return t.st.ok("GET", t.gpath)["room"]["undo"]

    assert undo() == {"disabled": "还没有可以撤销的操作"}
    refused = t.st.post(f"{t.path}/undo", {"step": t.step})
    assert error(refused) == (409, "NOTHING_TO_UNDO") and refused.json_body["message"] == "还没有可以撤销的操作"
    t.do({"type": "assign", "seat": 0, "role": ROLES_5[1]})
    assert undo() == {"disabled": None}
    assert all(t.view(s)["room"]["undo"] is None for s in range(5))
    t.undo()
    assert undo() == {"disabled": "还没有可以撤销的操作"}  # the press it took back was the only one
    t.deal(ROLES_5)
    t.begin()
    t.night()
    t.play(3, {"type": "nominate", "nominator": 3, "nominee": 1})
    player = "上一步是玩家自己的操作，撤销只收回说书人的操作"
    assert undo() == {"disabled": player}
    assert t.st.post(f"{t.path}/undo", {"step": t.step}).json_body["message"] == player
    t.do({"type": "vote", "votes": [0, 3]})
    assert undo() == {"disabled": None}
    t.undo()
    assert undo() == {"disabled": player}  # back to the nomination, which 撤销 does not take back
