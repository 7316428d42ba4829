"""血染甄嬛传 over HTTP: a traveller joins the running game on day 2 and leaves on day 3.

A player who was not at the table asks with `POST /v1/rooms/{id}/join` on the running room; the request
is the storyteller's to see (her room summary) and to decide: she admits the traveller with the
identity the player chose, its ability text, and the alignment she gives her
(`POST /v1/games/zhenhuan/rooms/{id}/admit`), or declines (`POST /v1/rooms/{id}/decline`). The
traveller's identity and ability are public; her alignment is hers and the storyteller's only. She
leaves by the storyteller's 「离开」 (`depart`). DECISIONS #13; rules §9; platform P6.

Privacy (`LeakWatch`, the full check): after every transition every seat's view (the new seat's from
the moment she sits), the spectator's and the storyteller's; every fourth check one phone meets
refusals, which carry no step and no secret; every report of every viewer before the end.
"""

from __future__ import annotations

from tests.api.helpers import Player, error
from tests.api.test_zhenhuan import confirm, watched
from tests.api.zhenhuan_driver import Table

SEED = bytes([13]) + bytes(31)
ROLES_5 = ["jingfei", "huangshang", "sanage", "huafei", "taihou"]
DETAILS = {"identity": "江湖郎中", "ability": "每个白天可以当众为一名玩家把脉", "alignment": "evil", "female": True}


def summary(who: Player, t: Table) -> dict:
    body: dict = who.ok("GET", t.path)
    return body


def test_a_traveller_asks_is_admitted_by_day_and_leaves_her_alignment_stays_secret(api, svc):
    """DECISIONS #13: Travellers may join a running game at dawn or during the day, and leave at any
    time, by the storyteller's press; their identity (role and ability text) is public as the seed
    says, their alignment is the storyteller's choice and secret. Seed 旅行者: 其他玩家知晓旅行者身份和
    技能，但不知晓其阵营所属. Platform P6: late entrants ask; the host decides; asking twice is one request."""
    t = Table.open(api, svc, 5, SEED)
    watch = watched(t, api)
    t.deal(ROLES_5)
    t.begin()
    t.night({"huafei": [2]})
    t.dusk()

    # night 2: two people ask to join; only the storyteller sees who asks
    guest, other = Player(api, "远客甲"), Player(api, "远客乙")
    asked = guest.ok("POST", f"{t.path}/join")
    assert asked["viewer"] == {"role": "spectator", "seat": None} and asked["room"]["requests"] is None
    assert guest.ok("POST", f"{t.path}/join")["room"]["status"] == "active"  # asking twice is one request
    other.ok("POST", f"{t.path}/join")
    requests = summary(t.st, t)["room"]["requests"]
    assert [(r["user"], r["name"]) for r in requests] == [(guest.user["id"], "远客甲"), (other.user["id"], "远客乙")]
    for who in (*t.players, watch.spectator, guest, other):
        assert summary(who, t)["room"]["requests"] is None
        assert who.ok("GET", t.gpath)["room"]["requests"] is None
    # not at night: the room is unchanged
    before = t.stored()
    r = t.st.post(f"{t.gpath}/admit", {"user": guest.user["id"], "details": DETAILS})
    assert error(r) == (422, "TRAVELLER_JOINS_BY_DAY") and t.stored() == before
    # nobody but the storyteller seats or declines anyone
    for who in (t.players[0], guest):
        assert error(who.post(f"{t.gpath}/admit", {"user": guest.user["id"], "details": DETAILS})) == (
            403, "HOST_ONLY")
        assert error(who.post(f"{t.path}/decline", {"user": other.user["id"]})) == (403, "HOST_ONLY")
    assert error(t.st.post(f"{t.gpath}/admit", {"user": guest.user["id"], "details": {"identity": ""}})) == (
        422, "VALIDATION_FAILED")
    assert t.stored() == before
    t.night({"huangshang": "skip"})

    # day 2: the storyteller seats her as an evil traveller in the next seat, and declines the other
    t.admit(guest, DETAILS)
    assert t.st.ok("POST", f"{t.gpath}/admit", {"user": guest.user["id"], "details": DETAILS})["room"]["step"] == (
        t.step)  # a retried admission changes nothing
    t.st.ok("POST", f"{t.path}/decline", {"user": other.user["id"]})
    assert summary(t.st, t)["room"]["requests"] == []
    assert summary(other, t)["viewer"] == {"role": "spectator", "seat": None}
    assert [s["name"] for s in summary(other, t)["room"]["seats"]] == [p.name for p in t.players]
    # everyone sees her arrival, identity and ability; she alone (and the storyteller) her alignment
    board = t.view(0)["game"]
    arrival = board["log"][-1]
    assert (arrival["kind"], arrival["seat"], arrival["name"], arrival["identity"], arrival["ability"]) == (
        "arrival", 5, "远客甲", "江湖郎中", DETAILS["ability"])
    assert {k: board["seats"][5][k] for k in ("traveller", "traveller_ability", "alive", "departed")} == {
        "traveller": "江湖郎中", "traveller_ability": DETAILS["ability"], "alive": True, "departed": False}
    mine = t.view(5)
    assert mine["viewer"] == {"role": "player", "seat": 5}
    me = mine["game"]["me"]
    assert (me["role"], me["role_name"], me["ability"], me["alignment"]) == (
        "traveller", "江湖郎中", DETAILS["ability"], "evil")
    # an evil traveller is told the demon (official), privately
    assert [(i["kind"], i.get("card"), i.get("seats")) for i in me["info"]] == [
        ("you_are", None, None), ("tell", "demon", [1])]
    grim = t.grim()
    assert (grim["seats"][5]["alignment"], grim["seats"][5]["traveller_female"]) == ("evil", True)
    assert grim["composition"]["travellers"] == 0  # the table counts the seats dealt at setup only
    # she plays from her phone like anyone: she nominates and votes on the clock; she counts in the threshold
    assert t.view(0)["game"]["day"]["threshold"] == 3
    t.play(5, {"type": "nominate", "nominator": 5, "nominee": 2})
    t.do({"type": "open_vote", "seconds": 10})
    assert t.view(0)["pending"]["seats"] == [0, 1, 2, 3, 4, 5]
    for seat, yes in ((5, True), (0, True), (3, False)):
        t.play(seat, {"type": "vote", "yes": yes})
    t.run_out_the_clock()
    assert t.view(3)["game"]["day"]["nominations"][0]["voters"] == [5, 0]  # clockwise from the nominee
    t.dusk()
    t.night({"huangshang": "skip"})

    # day 3: she leaves; her seat keeps its number and she counts nowhere any more
    t.do({"type": "depart", "seat": 5})
    board = t.view(1)["game"]
    assert board["log"][-1] == {"text": "旅行者6号离开了游戏", "kind": "departure", "seat": 5}
    assert {k: board["seats"][5][k] for k in ("traveller", "alive", "ghost_vote", "departed")} == {
        "traveller": "江湖郎中", "alive": False, "ghost_vote": False, "departed": True}
    assert board["day"]["threshold"] == 3 and board["day"]["exile_threshold"] == 3
    assert error(t.send({"type": "nominate", "nominator": 5, "nominee": 0}, who=guest)) == (403, "DEPARTED")
    assert error(t.send({"type": "depart", "seat": 5})) == (422, "NOT_TRAVELLER")
    assert t.me(5)["alignment"] == "evil"  # what she was told stays hers
    t.do({"type": "declare_winner", "winner": "good", "reason": "说书人宣布善良阵营获胜"})
    outcome = confirm(t, "good", "说书人宣布善良阵营获胜", declared=True)
    assert [r["won"] for r in outcome["results"]] == [True, False, True, False, True, False]
    assert watch.checks == len(t.history) + 1


def test_the_replay_of_a_game_with_a_late_traveller_meets_the_contract(api, svc):
    """Platform (README, API): every response is documented by the contract, and `GET …/replay` lets
    anyone recompute a finished game — including one a traveller joined (an ADMIT entry)."""
    t = Table.open(api, svc, 5, SEED)
    t.deal(ROLES_5)
    t.begin()
    t.night()
    guest = Player(api, "远客甲")
    guest.ok("POST", f"{t.path}/join")
    t.admit(guest, DETAILS)
    t.do({"type": "declare_winner", "winner": "good", "reason": "说书人宣布善良阵营获胜"})
    t.do({"type": "confirm_end"})
    replay = t.players[0].ok("GET", f"{t.gpath}/replay")  # checked against the contract on the way
    admitted = [e for e in replay["log"] if e["kind"] == "admit"]
    assert len(admitted) == 1 and admitted[0]["action"]["entrant"]["name"] == "远客甲"


def day_one_with_a_guest(api, svc, name: str) -> tuple[Table, Player]:
    """Five seated, the first night over; a newcomer has asked to join (the storyteller to decide)."""
    t = Table.open(api, svc, 5, SEED)
    t.deal(ROLES_5)
    t.begin()
    t.night({"huafei": [2]})
    guest = Player(api, name)
    guest.ok("POST", f"{t.path}/join")
    return t, guest


def test_what_the_storyteller_types_for_the_table_passes_content_security(api, svc):
    """Issue #12: free text someone types and others read passes WeChat's content check first — a
    traveller's identity and ability (admitted or set) and a declared result's reason, as a 告知's
    text does. A refused text is 422 CONTENT_REFUSED and nothing is written."""
    t, guest = day_one_with_a_guest(api, svc, "远客甲")
    before = t.stored()
    for details in ({**DETAILS, "identity": "去死吧"}, {**DETAILS, "ability": "去死吧"}):
        r = t.st.post(f"{t.gpath}/admit", {"user": guest.user["id"], "details": details})
        assert error(r) == (422, "CONTENT_REFUSED")
    assert t.stored() == before
    t.admit(guest, DETAILS)
    before = t.stored()
    refused = t.st.post(f"{t.gpath}/actions", {"action": {"type": "set_traveller", "seat": 5, **DETAILS,
                                                          "ability": "去死吧"}, "step": t.step})
    assert error(refused) == (422, "CONTENT_REFUSED")
    declared = t.st.post(f"{t.gpath}/actions", {"action": {"type": "declare_winner", "winner": "good",
                                                           "reason": "去死吧"}, "step": t.step})
    assert error(declared) == (422, "CONTENT_REFUSED")
    assert t.stored() == before
    t.do({"type": "declare_winner", "winner": "good"})  # the default reason is ours: not checked


def test_what_is_typed_for_the_table_holds_nothing_hidden_or_reordered(api, svc):
    """Platform: what people type for others to read reads as it shows — as names and chat lines, a
    traveller's identity and ability, a 告知's text and a declared reason refuse control, zero-width,
    direction-changing, blank-drawing and piled-up characters (422, nothing written)."""
    t, guest = day_one_with_a_guest(api, svc, "远客乙")
    before = t.stored()
    for details in ({**DETAILS, "identity": "\u202e医郎湖江"}, {**DETAILS, "identity": "江湖\u200b郎中"},
                    {**DETAILS, "ability": "把脉\x07"}, {**DETAILS, "identity": "\u3164"},
                    {**DETAILS, "ability": "脉" + "\u0301" * 18}):
        r = t.st.post(f"{t.gpath}/admit", {"user": guest.user["id"], "details": details})
        assert r.status_code == 422 and "看不见、改变文字方向或层层叠加" in r.body.decode(), details
    assert t.stored() == before
    t.admit(guest, {**DETAILS, "ability": "把脉时́轻声"})  # one accent is a letter's, not a pile
    before = t.stored()
    for action in ({"type": "set_traveller", "seat": 5, **DETAILS, "identity": "\u202e旅人"},
                   {"type": "tell", "seat": 1, "text": "今晚\u2800"},
                   {"type": "declare_winner", "winner": "good", "reason": "\ufeff善良胜"}):
        r = t.st.post(f"{t.gpath}/actions", {"action": action, "step": t.step})
        assert error(r)[0] == 422 and "看不见、改变文字方向或层层叠加" in r.body.decode(), action
    assert t.stored() == before


def test_a_full_table_is_full_not_a_queue(api, svc):
    """Twenty seats taken: asking to join is 409 ROOM_FULL (REQUESTS_FULL told her to wait and try
    again for a seat that cannot come), nothing written."""
    t = Table.open(api, svc, 20, SEED)
    before = t.stored()
    r = Player(api, "远客满").post(f"{t.path}/join")
    assert error(r) == (409, "ROOM_FULL") and r.json_body["message"] == "房间已满"
    assert t.stored() == before


def test_requests_to_join_are_bounded(api, svc):
    """Platform P6: late entrants ask and the host decides — at most 10 requests wait at once (never
    more than the free seats), so the room does not grow with everyone who asks: the next is 409
    REQUESTS_FULL, and may ask again once the storyteller has answered one."""
    t = Table.open(api, svc, 5, SEED)
    askers = [Player(api, f"远客{i:02d}") for i in range(11)]
    for p in askers[:10]:
        p.ok("POST", f"{t.path}/join")
    before = t.stored()
    assert error(askers[10].post(f"{t.path}/join")) == (409, "REQUESTS_FULL")
    assert t.stored() == before
    t.st.ok("POST", f"{t.path}/decline", {"user": askers[0].user["id"]})
    askers[10].ok("POST", f"{t.path}/join")
    assert len(summary(t.st, t)["room"]["requests"]) == 10
