"""保皇 end to end through the HTTP API: whole deals in both variants with results, totals and the
leaderboard; a turn timer expiring (scheduler and settle-on-read) into 托管 and back; hidden
information at every step of a deal; quitting and kicking; bad input; replay.

Every action is chosen from the acting player's own view (`tests/api/baohuang_driver.py`). Seeds are
pinned (`svc.new_seed`) so each table is dealt the same cards every run; each seed's deal was found by
playing the same policy against the engine directly, and what it produces is asserted below.
"""

from __future__ import annotations

import json

import pytest

from chalicelib.games.baohuang.cards import FACE
from chalicelib.rooms import sweeper
from chalicelib.rooms.replay import recompute
from tests.api.baohuang_driver import SEATS, Policy, Table, card_codes, deal_over, in_phase
from tests.api.helpers import Player, error

NAMES = ["甄嬛", "华妃", "沈眉庄", "安陵容", "端妃"]
PLACE_POINTS = (2, 1, 0, -1, -2)

SEED_SIMPLE = bytes([107]) + bytes(31)
"""Simple: seat 4 is dealt the 皇 card and yields to seat 3, who takes it; seat 0 holds the 侍卫 card.
With the three commoners declaring (造反) the guard is forced out, and the royals finish 3rd and 5th:
the rebels win, ×2."""
SEED_CLASSIC = bytes([35]) + bytes(31)
"""Classic: seat 4 holds the 皇 card and calls ♥10 (she holds three); seat 3 holds the fourth copy."""
SEED_QUIET = bytes([143]) + bytes(31)
"""Simple: seat 3 holds the 皇 card and takes it; seat 1 is the hidden guard until she plays the 侍卫
card about half way through the deal. 84 actions."""


@pytest.fixture
def admin(api):
    return Player(api, "司礼")


def pin(svc, seed: bytes) -> None:
    svc.new_seed = lambda: seed


def open_table(api, svc, seed: bytes, names=NAMES, **options) -> Table:
    pin(svc, seed)
    return Table.open(api, svc, list(names), **options)


def expected_scores(extra: dict) -> list[int]:
    """DECISIONS 保皇 #5, written out again from the deal's roles and places."""
    points = {seat: PLACE_POINTS[i] for i, seat in enumerate(extra["places"])}
    emperor, guard, solo = extra["emperor"], extra["guard"], extra["solo"]
    if solo == "none":
        t = points[emperor] + points[guard]
        base = [-t] * SEATS
        base[emperor], base[guard] = 2 * t, t
    else:
        stake = 12 if solo == "hidden" else 24
        place = extra["places"].index(emperor)
        mine = stake if place == 0 else 0 if (place == 1 and solo == "hidden") else -stake
        base = [-mine // 4] * SEATS
        base[emperor] = mine
    multiplier = 2 if extra["open_guard"] and solo == "none" else 1
    commoner = next(s for s in range(SEATS) if s not in (emperor, guard))
    if extra["rebels"] and base[commoner] > 0:
        multiplier *= 2
    assert multiplier == extra["multiplier"]
    return [b * multiplier for b in base]


def lines(reports: list[dict], kind: str) -> list[dict]:
    return [line for rep in reports for line in rep["lines"] if line["kind"] == kind]


def assert_replays(table: Table) -> dict:
    """Seed + action log from the replay endpoint reproduce the stored final state exactly."""
    replay = table.players[0].ok("GET", f"{table.game_path}/replay")
    assert replay["room_id"] == table.room_id and replay["game"] == "baohuang"
    state = recompute(replay)
    assert state.model_dump(mode="json") == table.stored().state
    return replay


def assert_unchanged(table: Table, before, response, expected: tuple[int, str]) -> None:
    assert error(response) == expected, response.body
    assert table.stored() == before


# ---- opening and starting ------------------------------------------------------------------------

def test_five_players_open_join_and_the_creator_starts(api, svc):
    """Seed: 四副牌不含3、4、5，共计168张牌 (simple); 保皇 is five seats: a start with fewer is refused.
    Rules §4: cards go out one at a time from the dealer (seat 0 in deal 1): 34/34/34/33/33."""
    pin(svc, SEED_QUIET)
    table = Table.open(api, svc, NAMES[:4], start=False, variant="simple")
    r = table.players[0].post(f"{table.path}/start")
    assert error(r) == (409, "NOT_ENOUGH_PLAYERS") and "5" in r.json_body["message"]
    assert table.view(0)["room"]["status"] == "open"
    fifth = Player(api, NAMES[4])
    joined = fifth.ok("POST", f"{table.path}/join")
    assert [s["name"] for s in joined["room"]["seats"]] == NAMES and joined["room"]["seats"][4]["is_me"]
    table.players.append(fifth)
    assert error(fifth.post(f"{table.path}/start")) == (403, "NOT_CREATOR")
    table.start()
    started = table.view(0)
    assert started["room"]["status"] == "active" and started["room"]["step"] == 1
    assert started["room"]["seed"] is None and len(started["room"]["seed_hash"]) == 64
    g = started["game"]
    assert g["phase"] == "throne" and g["variant"] == "simple" and g["deal_no"] == 1 and g["dealer"] == 0
    assert [s["cards"] for s in g["seats"]] == [34, 34, 34, 33, 33]
    assert len(g["hand"]) == 34 and all(c.split("#")[0][1:] not in ("3", "4", "5") for c in g["hand"])
    assert started["pending"]["kind"] == "turn" and started["pending"]["label"] == "throne"
    assert started["pending"]["seats"] == [g["candidate"]] == [3]
    assert error(Player(api, "迟到者").post(f"{table.path}/join")) == (409, "ROOM_NOT_OPEN")
    assert table.start()["room"]["step"] == 1  # a retried 开战 changes nothing


# ---- whole deals ---------------------------------------------------------------------------------

def play_deal(table: Table, policy: Policy) -> tuple[dict, dict, list[dict]]:
    """Play deal 1 to its end; returns the last view, the deal's outcome and seat 0's reports."""
    end = table.run(policy, deal_over)
    assert end["room"]["status"] == "active" and end["game"]["phase"] == "between"
    result = table.players[0].ok("GET", f"{table.game_path}/result")
    assert result["room_id"] == table.room_id and len(result["results"]) == 1
    outcome = result["results"][0]
    assert outcome["unit"] == "deal-1" and outcome["reason"] == "finished"
    rows = outcome["results"]
    assert [r["seat"] for r in rows] == list(range(SEATS))
    assert [r["name"] for r in rows] == [p.name for p in table.players]
    assert sorted(r["place"] for r in rows) == [1, 2, 3, 4, 5]
    assert [r["seat"] for r in sorted(rows, key=lambda r: r["place"])] == outcome["extra"]["places"]
    scores = [r["score"] for r in rows]
    assert sum(scores) == 0  # no quits
    assert scores == expected_scores(outcome["extra"])
    assert [r["won"] for r in rows] == [s > 0 for s in scores]
    assert outcome["extra"]["totals"] == scores
    for seat in range(SEATS):  # every player's view shows the same running totals
        g = table.view(seat)["game"]
        assert [s["total"] for s in g["seats"]] == scores
        assert [s["wins"] for s in g["seats"]] == [int(s > 0) for s in scores]
        assert g["last_deal"]["scores"] == scores and g["last_deal"]["places"] == outcome["extra"]["places"]
    assert end["pending"]["label"] == "between" and end["pending"]["seats"] == list(range(SEATS))
    return end, outcome, table.reports(0)


def test_whole_simple_and_classic_deals_results_totals_and_board(api, svc):
    """Seed: 抓到皇牌的玩家可以当皇帝，如果没有实力当皇帝，可以让位给上家。…抓卫牌，该牌持有者为皇帝的侍卫
    (simple); 皇帝可以选择叫自己手中三张同花色同点数的牌，由持第四张该花色点数牌的人作为自己的侍卫 (classic);
    当有两个或两个以上起义军造反时，强制亮明侍卫的身份，造反成功后输赢的分数加倍.
    DECISIONS 保皇 #5: places score +2 +1 0 −1 −2; T = emperor's plus guard's points; emperor 2T,
    guard T, each commoner −T … a successful 造反 ×2. Records and boards derive from final results only."""
    # simple: the holder yields the throne to 上家; the three commoners rebel
    simple = open_table(api, svc, SEED_SIMPLE, variant="simple")
    holder = simple.view(0)["game"]["candidate"]
    end, outcome, reports = play_deal(simple, Policy(pass_throne={holder}, declare={"commoner": "declare"}))
    (passed,) = lines(reports, "throne_passed")
    assert (passed["seat"], passed["to"]) == (holder, (holder + 4) % SEATS) == (4, 3)
    (taken,) = lines(reports, "throne_taken")
    extra = outcome["extra"]
    assert taken["seat"] == extra["emperor"] == 3 and extra["guard"] == 0 and extra["solo"] == "none"
    assert lines(reports, "declared")[0]["rebels"] == extra["rebels"] == [1, 2, 4]
    (revealed,) = lines(reports, "guard_revealed")
    assert (revealed["seat"], revealed["how"]) == (0, "forced")
    assert extra["multiplier"] == 2 and extra["doubled"] == ["造反成功"]
    assert [r["score"] for r in outcome["results"]] == [-4, 4, 4, -8, 4]
    simple_scores = [r["score"] for r in outcome["results"]]
    (ended,) = lines(reports, "deal_ended")
    assert "LJ#1" in ended["record"]["dealt"][0]  # the guard is the 侍卫 card's holder
    # 继续: when all five press next_deal, deal 2 is dealt from the last emperor
    step = end["room"]["step"]
    for seat in range(SEATS):
        ack = simple.do(seat, {"type": "next_deal"}, step)
        step = ack["current_step"]
    g = simple.view(0)["game"]
    assert g["phase"] == "throne" and g["deal_no"] == 2 and g["dealer"] == 3
    assert [s["total"] for s in g["seats"]] == simple_scores
    assert len(simple.players[0].ok("GET", f"{simple.game_path}/result")["results"]) == 1  # written once

    # classic, the same five: the emperor calls a face she holds three of; the fourth copy's holder guards
    classic = open_table(api, svc, SEED_CLASSIC, variant="classic")
    g = classic.view(4)["game"]
    assert g["candidate"] == 4 and "H10" in g["callable"] and g["can_open_solo"]
    assert len(g["hand"]) == 43 and [s["cards"] for s in g["seats"]] == [44, 43, 43, 43, 43]  # 216 cards
    end, outcome, reports = play_deal(classic, Policy())
    extra = outcome["extra"]
    (taken,) = lines(reports, "throne_taken")
    assert taken["called"] == extra["called"] == g["callable"][0] == "H10" and extra["emperor"] == 4
    (ended,) = lines(reports, "deal_ended")
    dealt = ended["record"]["dealt"]
    assert sum(FACE[c] == "H10" for c in dealt[4]) == 3 and sum(FACE[c] == "H10" for c in dealt[3]) == 1
    assert extra["guard"] == 3 and lines(reports, "guard_revealed")[0]["how"] == "card"
    classic_scores = [r["score"] for r in outcome["results"]]
    assert classic_scores == [-2, -2, -2, 2, 4]
    # leaving between deals ends the table without penalty; the replay reproduces it
    left = classic.do(2, {"type": "leave"}, end["room"]["step"])
    assert left["status"] == "finished"
    over = classic.view(0)
    assert over["game"]["over_reason"] == "left" and over["pending"] is None
    assert [s["total"] for s in over["game"]["seats"]] == classic_scores
    assert over["room"]["seed"] is not None
    assert len(classic.players[0].ok("GET", f"{classic.game_path}/result")["results"]) == 1
    assert_replays(classic)

    # the 保皇 board: each of the five played two deals (games = deals), wins and points summed
    board = simple.players[0].ok("GET", "/v1/boards/baohuang-free")
    rows = {row["name"]: row for row in board["rows"]}
    assert set(rows) == set(NAMES)
    for seat, name in enumerate(NAMES):
        both = (simple_scores[seat], classic_scores[seat])
        assert rows[name]["games"] == 2 and rows[name]["wins"] == sum(s > 0 for s in both)
        assert rows[name]["score"] == sum(both)
    assert [row["score"] for row in board["rows"]] == sorted((r["score"] for r in board["rows"]), reverse=True)
    for seat, player in enumerate(simple.players):
        mine = player.ok("GET", "/v1/boards/baohuang-free/me")
        assert mine["rank"] == rows[player.name]["rank"] and mine["record"]["games"] == 2
        assert mine["record"]["score"] == simple_scores[seat] + classic_scores[seat]
    assert Player(api, "路人").ok("GET", "/v1/boards/baohuang-free/me") == {
        "board": "baohuang-free", "rank": None, "record": None}
    assert simple.players[0].ok("GET", "/v1/boards/baohuang-tournament")["rows"] == []  # never mixed


def test_simple_throne_goes_round_twice_then_redeals(api, svc):
    """Seed: 如果认为牌的实力不够，可以出让皇位给上家；两轮之内仍然没有决定谁是皇帝时，系统重新发牌.
    DECISIONS 保皇 #3: simple mode: if nobody takes it within two full rounds, redeal. Rules §4: a
    redeal keeps the deal number and the dealer."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    first = [table.view(seat)["game"]["hand"] for seat in range(SEATS)]
    offered = []
    for _ in range(2 * SEATS):
        view = table.view(0)
        seat = view["game"]["candidate"]
        offered.append(seat)
        assert view["pending"]["seats"] == [seat]
        table.do(seat, {"type": "pass_throne"}, view["room"]["step"])
    assert offered == [3, 2, 1, 0, 4] * 2  # each pass goes to 上家
    g = table.view(0)["game"]
    assert g["phase"] == "throne" and g["deal_no"] == 1 and g["dealer"] == 0 and g["throne_offers"] == 0
    assert g["hand"] != first[0] and "BJ#1" in table.view(g["candidate"])["game"]["hand"]
    reports = table.reports(0)
    assert [ln["reason"] for ln in lines(reports, "redealt")] == ["no_emperor"]
    (started,) = lines(reports, "deal_started")
    assert started["redeal"] and started["holder"] == g["candidate"] and started["counts"] == [34, 34, 34, 33, 33]
    assert [ln["seat"] for ln in lines(reports, "hand_dealt")] == [0]  # her own new hand, nobody else's
    assert lines(reports, "hand_dealt")[0]["cards"] == g["hand"]


def test_classic_throne_must_be_taken_after_one_round_and_a_grab_wins_it(api, svc, admin):
    """Seed: 传完一轮后自己必须当皇帝; 抢独条件：1、玩家手中有3个王（不分大小）和四张同花色同点数的牌。
    2、拿有皇牌的玩家没有选择明独保; 其他玩家抢独成功则直接明独保. 保六…六必须留到最后一手一次出完.
    DECISIONS 保皇 #4: every non-emperor is offered the same choices at the same time."""
    table = open_table(api, svc, bytes([161]) + bytes(31), variant="classic", baoliu=True)
    for _ in range(SEATS):
        view = table.view(0)
        table.do(view["game"]["candidate"], {"type": "pass_throne"}, view["room"]["step"])
    view = table.view(4)  # back with the holder, who must take it now
    g, step = view["game"], view["room"]["step"]
    assert g["candidate"] == 4 and g["must_take"] and g["throne_offers"] == 5 and g["callable"] == ["C8"]
    before = table.stored()
    for action, code in [({"type": "pass_throne"}, (422, "MUST_TAKE_THRONE")),
                         ({"type": "take_throne"}, (422, "CALL_REQUIRED")),
                         ({"type": "take_throne", "call": "BJ"}, (400, "BAD_CALL")),
                         ({"type": "take_throne", "call": "H6"}, (422, "CALL_NEEDS_THREE")),
                         ({"type": "take_throne", "call": "C8", "open_solo": True}, (422, "CALL_OR_OPEN_SOLO"))]:
        assert_unchanged(table, before, table.act(4, action, step), code)
    table.do(4, {"type": "take_throne", "call": "C8"}, step)
    host = admin.view(table.room_id)["game"]
    assert host["emperor"] == 4 and host["called"] == "C8" and host["guard"] == 3 and host["solo"] == "none"
    views = [table.view(seat) for seat in range(SEATS)]
    step = views[0]["room"]["step"]
    assert views[0]["pending"]["seats"] == [0, 1, 2, 3]
    assert [v["game"]["can_grab"] for v in views] == [True, False, False, False, False]
    assert [v["game"]["called"] for v in views] == ["C8"] * SEATS  # the call is public, the guard is not
    assert [v["game"]["guard"] for v in views] == [None, None, None, 3, None]
    before = table.stored()
    assert_unchanged(table, before, table.act(3, {"type": "grab_solo"}, step), (422, "GRAB_NOT_ELIGIBLE"))
    assert_unchanged(table, before, table.act(4, {"type": "stay_hidden"}, step), (409, "NOT_IN_ROUND"))
    for seat, choice in [(0, "grab_solo"), (1, "declare"), (2, "stay_hidden"), (3, "declare")]:
        ack = table.do(seat, {"type": choice}, step)
    assert ack["settled"]
    view = table.view(0)
    g = view["game"]
    assert g["phase"] == "play" and g["emperor"] == 0 and g["solo"] == "open" and g["turn"] == 0
    assert g["rebels"] == [] and not g["open_guard"] and g["my_role"] == "emperor"
    assert table.view(4)["game"]["my_role"] == "commoner" and table.view(3)["game"]["my_role"] == "commoner"
    (declared,) = lines(table.reports(1), "declared")
    assert declared["grab"] == 0 and declared["rebels"] == []
    # 保六: the new emperor holds sixes and other cards, so no hint and no play may hold a 6
    assert g["baoliu"] and all(not c[1:].startswith("6") for hint in g["hints"] for c in hint)
    sixes = [c for c in g["hand"] if c[1:].startswith("6")]
    before = table.stored()
    assert_unchanged(table, before, table.act(0, {"type": "play", "cards": sixes}, view["room"]["step"]),
                     (422, "BAOLIU_SIXES_LAST"))


# ---- timer, 托管 and the scheduler --------------------------------------------------------------

def test_turn_timer_tuoguan_scheduler_settle_on_read_and_return(api, svc, clock):
    """DECISIONS 保皇 #8: a per-turn timer; on expiry the seat goes to 托管 (auto-play: the cheapest legal
    play, or pass when the partner holds the trick) until the player acts again. 托管 is not quitting
    and costs no penalty. Rules §15: 托管 throne default: take it. The scheduler and a read that finds
    the deadline passed both settle it, once."""
    deps = svc.room_deps()
    table = open_table(api, svc, SEED_QUIET, variant="simple", turn_seconds=20)
    start = table.view(0)
    assert start["pending"]["deadline_ms"] == clock.now_ms() + 20_000 and start["game"]["turn_seconds"] == 20
    holder = start["game"]["candidate"]
    # the throne offer times out: the scheduler puts the holder in 托管, who takes the throne
    clock.advance(19)
    assert sweeper.settle_overdue(deps).changed == 0
    clock.advance(2)
    assert sweeper.settle_overdue(deps).changed == 1
    version = table.stored().version
    assert sweeper.settle_overdue(deps).changed == 0 and table.stored().version == version
    g = table.view(0)["game"]
    assert g["phase"] == "declare" and g["emperor"] == holder and g["seats"][holder]["auto"]
    assert g["log"][-1] == {"seat": holder, "act": "take", "cards": [], "note": "", "auto": True}
    last = table.reports(0)[-1]
    assert (last["kind"], last["trigger"], last["label"]) == ("timeout", "deadline", "throne")
    assert [ln["kind"] for ln in last["lines"]] == ["auto_changed", "throne_taken"]

    # the sealed declaration: one seat answers, the deadline settles the rest as 不声明
    declare = table.view(0)["pending"]
    assert declare["kind"] == "sealed" and declare["seats"] == [s for s in range(SEATS) if s != holder]
    table.do(0, {"type": "stay_hidden"}, declare_step := table.view(0)["room"]["step"])
    clock.advance(21)
    assert sweeper.settle_overdue(deps).changed == 1
    assert svc.rooms.get_log(table.room_id, declare_step).moves == {"0": {"type": "stay_hidden"}}
    assert table.reports(0, after=declare_step - 1)[0]["trigger"] == "deadline"
    # play begins; the emperor is still in 托管, so her lead was played for her at once
    g = table.view(0)["game"]
    assert g["phase"] == "play" and next(e for e in g["log"] if e["act"] == "play")["seat"] == holder
    assert g["log"][-1]["auto"] and g["turn"] != holder
    # she acts again and is out of 托管
    ack = table.do(holder, {"type": "resume"}, table.view(0)["room"]["step"])
    assert ack["settled"] and not table.view(0)["game"]["seats"][holder]["auto"]

    # settle-on-read: the seat to play lets her deadline pass; the next GET applies the timeout
    view = table.view(0)
    late, step = view["game"]["turn"], view["room"]["step"]
    cards_before = view["game"]["seats"][late]["cards"]
    clock.advance((view["pending"]["deadline_ms"] - clock.now_ms()) / 1000 + 1)
    seen = Player(api, "路人").view(table.room_id)  # any reader, even a spectator
    assert seen["room"]["step"] > step and seen["game"]["seats"][late]["auto"]
    moved = [e for e in seen["game"]["log"] if e["seat"] == late and e["auto"]]
    assert moved and moved[0]["act"] in ("play", "pass")
    if moved[0]["act"] == "play":
        assert seen["game"]["seats"][late]["cards"] == cards_before - len(moved[0]["cards"])
    timeout = next(r for r in table.reports(0, after=step - 1) if r["step"] == step)
    assert (timeout["kind"], timeout["trigger"], timeout["label"]) == ("timeout", "deadline", "play")
    assert sweeper.settle_overdue(deps).changed == 0  # nothing left for the scheduler
    # her own late request for that step is refused as stale (the timeout took the step)
    assert error(table.act(late, {"type": "pass"}, step)) == (409, "STALE_STEP")
    ack = table.do(late, {"type": "resume"}, table.view(late)["room"]["step"])
    g = table.view(late)["game"]
    assert not g["seats"][late]["auto"] and not any(s["auto"] for s in g["seats"])
    assert [s["total"] for s in g["seats"]] == [0] * SEATS  # 托管 costs nothing

    # end the table (a quit) and recompute it: timeouts, sealed settlements and actions replay exactly
    assert error(table.players[0].get(f"{table.game_path}/replay")) == (409, "NOT_FINISHED")  # not while live
    table.do(late, {"type": "quit"}, ack["current_step"])
    replay = assert_replays(table)
    assert {e["kind"] for e in replay["log"]} == {"setup", "timeout", "settle", "apply"}


def test_scheduler_plays_a_whole_deal_once_every_seat_is_in_tuoguan(api, svc, clock):
    """Rules §15 (Decision): if all five seats are in 托管 the current deal is played out and the table
    ends (reason all_auto) — here three asked for it and the clock ran out on two (no one is left to
    wait for); DECISIONS 保皇 #8: the timer keeps a serverless table from freezing."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    step = table.view(0)["room"]["step"]
    for seat in range(SEATS):
        if seat not in (3, 4):  # seat 3 holds the throne offer; the others but 4 ask for 托管 themselves
            step = table.do(seat, {"type": "auto"}, step)["current_step"]
    for _ in range(10):  # the clock runs out on seat 3, then on seat 4 (a sealed round only settles)
        clock.advance(31)
        assert sweeper.settle_overdue(svc.room_deps()).changed == 1
        view = table.view(0)
        if view["room"]["status"] == "finished":
            break
    assert view["room"]["status"] == "finished" and view["game"]["over_reason"] == "all_auto"
    (outcome,) = table.players[0].ok("GET", f"{table.game_path}/result")["results"]
    assert outcome["reason"] == "finished" and sum(r["score"] for r in outcome["results"]) == 0
    assert [s["total"] for s in view["game"]["seats"]] == [r["score"] for r in outcome["results"]]
    assert_replays(table)


# ---- hidden information --------------------------------------------------------------------------

def test_no_player_sees_another_hand_or_the_hidden_guard_at_any_step(api, svc, admin):
    """Seed: 侍卫…一般情况下不公开，暗中保护皇帝，称作暗保. Rules §4/§8/§17: each player sees her own hand and
    every seat's card count; until revealed nobody but the guard (and the host) learns who she is;
    spectators see the public part; the 司礼 sees everything. Checked at every step of a whole deal,
    on every player's room view and on her reports."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    watcher = Player(api, "路人")
    policy = Policy()
    hands_at: dict[int, list[list[str]]] = {}
    hidden_at: dict[int, int | None] = {}  # room step -> the guard's seat while still hidden
    steps = 0
    while True:
        views = [table.view(seat) for seat in range(SEATS)]
        step = views[0]["room"]["step"]
        state = table.state()
        deal = state.deal
        host = admin.view(table.room_id)
        spectator = watcher.view(table.room_id)
        if deal is None:
            break
        steps += 1
        hands = [list(h) for h in deal.hands]
        hands_at[step] = hands
        holder = deal.guard if deal.guard is not None else deal.emperor
        hidden_at[step] = holder if holder is not None and not deal.revealed else None
        # the 司礼 sees every hand and the guard; the spectator only counts
        assert host["viewer"]["role"] == "host" and host["game"]["hands"] == hands
        assert host["game"]["guard"] == holder
        sg = spectator["game"]
        assert spectator["viewer"]["role"] == "spectator" and sg["hand"] == [] and sg["hands"] is None
        assert [s["cards"] for s in sg["seats"]] == [len(h) for h in hands]
        assert not card_codes(json.dumps(spectator)) & {c for h in hands for c in h}
        for seat, view in enumerate(views):
            g = view["game"]
            assert view["room"]["seed"] is None and view["room"]["step"] == step
            assert g["hand"] == hands[seat] and g["hands"] is None
            assert [s["cards"] for s in g["seats"]] == [len(h) for h in hands]
            others = {c for s, h in enumerate(hands) if s != seat for c in h}
            assert not card_codes(json.dumps(view, ensure_ascii=False)) & others, (step, seat)
            if hidden_at[step] is not None and seat != holder:
                assert g["guard"] is None and not any(s["guard"] for s in g["seats"])
                assert g["my_role"] in (None, "emperor", "commoner")
                assert f'"guard": {holder}' not in json.dumps({k: v for k, v in g.items() if k != "last_deal"})
            if seat == holder and deal.emperor is not None:
                assert g["my_role"] == ("guard" if deal.guard == seat else "emperor") and g["guard"] == seat
        pending = views[0]["pending"]
        waiting = [s for s in pending["seats"] if s not in (pending.get("submitted") or [])]
        seat = waiting[0]
        table.do(seat, policy.choose(views[seat]), step)
    assert steps == 84 and views[0]["game"]["phase"] == "between"  # 84 actions, each checked
    assert set(hidden_at.values()) == {None, 1}  # seat 1 guarded in secret for part of the deal
    # reports: each report is judged against the hands right after its own step
    for viewer, who in [(p, seat) for seat, p in enumerate(table.players)] + [(watcher, None)]:
        body = viewer.ok("GET", f"{table.game_path}/reports?after=0&limit=100")
        reports = body["reports"]
        while body["reports"]:
            body = viewer.ok("GET", f"{table.game_path}/reports?after={body['next_after']}&limit=100")
            reports += body["reports"]
        assert [r["step"] for r in reports] == sorted(hands_at)
        for rep in reports:
            after = rep["step"] + 1
            if after not in hands_at:  # the deal's last step: its record is published (by design)
                assert [ln["kind"] for ln in rep["lines"]][-2:] == ["went_out", "deal_ended"]
                continue
            others = {c for s, h in enumerate(hands_at[after]) if s != who for c in h}
            assert not card_codes(json.dumps(rep)) & others, (who, rep["step"])
            assert not any(ln["kind"] == "hand_dealt" and ln["seat"] != who for ln in rep["lines"])
            if hidden_at[after] is not None and who != hidden_at[after]:
                assert not [ln for ln in rep["lines"] if ln["kind"] in ("guard_revealed", "deal_ended")]
                assert all(ln.get("open_guard") is None for ln in rep["lines"])


# ---- quitting and kicking ------------------------------------------------------------------------

def play_into_the_deal(table: Table, tricks: int = 3) -> dict:
    """Play until `tricks` plays are on the deal's log; returns the acting view."""
    return table.run(Policy(), lambda v: sum(e["act"] == "play" for e in v["game"]["log"]) >= tricks)


def test_quit_mid_deal_costs_thirty_and_ends_the_table(api, svc):
    """Seed: 逃跑：游戏开始后，如有玩家强行退出或被管理员踢出游戏将被扣去30分。游戏自动结束。
    DECISIONS 保皇 #7: quitting or being kicked mid-deal costs 30 points and ends the deal."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    view = play_into_the_deal(table)
    quitter = (view["game"]["turn"] + 2) % SEATS  # not her turn: quitting needs none
    ack = table.do(quitter, {"type": "quit"}, view["room"]["step"])
    assert ack["settled"] and ack["status"] == "finished"
    (outcome,) = table.players[0].ok("GET", f"{table.game_path}/result")["results"]
    assert outcome["reason"] == "quit" and outcome["unit"] == "deal-1"
    assert [r["score"] for r in outcome["results"]] == [-30 if s == quitter else 0 for s in range(SEATS)]
    assert all(r["place"] is None and not r["won"] for r in outcome["results"])
    assert outcome["results"][quitter]["stats"]["quits"] == 1 and outcome["extra"]["penalty"] == 30
    g = table.view(0)["game"]
    assert g["phase"] == "over" and g["over_reason"] == "quit"
    assert [s["total"] for s in g["seats"]] == [-30 if s == quitter else 0 for s in range(SEATS)]
    quit_line = lines(table.reports(0), "seat_quit")
    assert quit_line == [{"kind": "seat_quit", "seat": quitter, "kicked": False, "penalty": 30,
                          "text": f"{NAMES[quitter]}强退，扣30分"}]
    assert error(table.act(0, {"type": "pass"}, ack["current_step"])) == (409, "GAME_OVER")
    rows = {r["name"]: r for r in table.players[0].ok("GET", "/v1/boards/baohuang-free")["rows"]}
    assert rows[NAMES[quitter]]["score"] == -30 and rows[NAMES[quitter]]["games"] == 1
    # decision (rules §16): the unfinished deal reaches the leaver's board only — the others neither
    # won nor lost it, so their records (胜率) do not count it
    assert set(rows) == {NAMES[quitter]}
    assert table.players[0 if quitter else 1].ok("GET", "/v1/boards/baohuang-free/me")["record"] is None
    assert_replays(table)


def test_the_sili_kicks_a_seat_mid_deal(api, svc, admin):
    """Seed: 被管理员踢出游戏将被扣去30分。游戏自动结束。 Rules §16: only the host kicks."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    view = play_into_the_deal(table, tricks=2)
    step = view["room"]["step"]
    before = table.stored()
    assert_unchanged(table, before, table.act(0, {"type": "kick", "seat": 3}, step), (403, "HOST_ONLY"))
    r = admin.post(f"{table.game_path}/actions", {"step": step, "action": {"type": "kick", "seat": 3}})
    assert r.status_code == 200 and r.json_body["status"] == "finished"
    (outcome,) = admin.ok("GET", f"{table.game_path}/result")["results"]
    assert outcome["reason"] == "kicked" and [r["score"] for r in outcome["results"]] == [0, 0, 0, -30, 0]
    assert table.view(3)["game"]["over_reason"] == "kicked"
    assert lines(table.reports(0), "seat_quit")[0] == {"kind": "seat_quit", "seat": 3, "kicked": True,
                                                        "penalty": 30, "text": f"{NAMES[3]}被司礼踢出，扣30分"}
    assert {r["name"]: r["score"] for r in admin.ok("GET", "/v1/boards/baohuang-free")["rows"]}[NAMES[3]] == -30
    assert_replays(table)


def test_quit_during_the_sealed_declaration_ends_the_deal_at_once(api, svc):
    """Seed: 强行退出…扣去30分。游戏自动结束。 A quit is not a sealed answer: it applies at once, even
    while the declaration is sealed (the game marks it immediate), and the deal ends with −30."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    view = table.run(Policy(), in_phase("declare"))
    step = view["room"]["step"]
    table.do(1, {"type": "stay_hidden"}, step)
    ack = table.do(0, {"type": "quit"}, step)
    assert ack["settled"] and ack["status"] == "finished"
    (outcome,) = table.players[0].ok("GET", f"{table.game_path}/result")["results"]
    assert outcome["reason"] == "quit" and [r["score"] for r in outcome["results"]] == [-30, 0, 0, 0, 0]
    assert_replays(table)


# ---- bad input -----------------------------------------------------------------------------------

def test_bad_actions_are_refused_and_change_nothing(api, svc, admin):
    """Seed: 四副牌不含3、4、5 (simple); 不可以出顺牌; 必须跟出张数相同的牌，要求每张牌必须能压过上一手牌;
    由皇帝先出牌. DECISIONS 保皇 #1: the reply must have the same number of cards and every card must be
    strictly higher. Rules §3: unknown code or a 3/4/5 in simple → BAD_CARD; the same card twice →
    DUPLICATE_CARD; a card not in hand → CARD_NOT_IN_HAND. A retried request for the same step is safe
    (同一 step 的同一行动重试是安全的); an old step with another action is stale. Nothing refused changes
    the stored room."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    p = table.players
    v = table.view(3)
    step = v["room"]["step"]
    before = table.stored()

    def bad(seat: int, action: dict, code: tuple[int, str], at: int | None = None) -> None:
        """Refused with `code`, and the stored room is exactly as before (`before`, `step` as of now)."""
        assert_unchanged(table, before, table.act(seat, action, step if at is None else at), code)

    # throne phase
    bad(0, {"type": "pass_throne"}, (409, "NOT_YOUR_TURN"))
    bad(3, {"type": "take_throne", "call": "HA"}, (422, "NO_CALL_IN_SIMPLE"))
    bad(3, {"type": "take_throne", "open_solo": True}, (422, "OPEN_SOLO_NEEDS_GUARD_CARD"))
    bad(3, {"type": "stay_hidden"}, (422, "WRONG_PHASE"))
    bad(3, {"type": "play", "cards": [v["game"]["hand"][0]]}, (422, "WRONG_PHASE"))
    bad(3, {"type": "next_deal"}, (422, "MID_DEAL"))
    bad(3, {"type": "crown"}, (422, "BAD_ACTION"))
    bad(3, {"type": "take_throne", "open_solo": "maybe"}, (422, "BAD_ACTION"))
    assert_unchanged(table, before, Player(api, "路人").act(table.room_id, {"type": "pass"}, step),
                     (403, "NOT_IN_ROOM"))
    assert_unchanged(table, before, admin.act(table.room_id, {"type": "pass"}, step), (422, "HOST_ONLY_KICKS"))
    assert_unchanged(table, before, p[3].post(f"{table.game_path}/actions", {"action": {"type": "pass_throne"}}),
                     (422, "VALIDATION_FAILED"))
    # take the throne; a retry of the same request is accepted and changes nothing
    first = table.do(3, {"type": "take_throne"}, step)
    assert first["settled"] and first["current_step"] == step + 1
    after_take = table.stored()
    again = table.act(3, {"type": "take_throne"}, step)
    assert again.status_code == 200 and again.json_body == {**first, "settled": False}
    assert table.stored() == after_take
    before = after_take
    bad(3, {"type": "pass_throne"}, (409, "STALE_STEP"))
    assert table.act(3, {"type": "pass_throne"}, step).json_body["details"] == {"current_step": step + 1}
    bad(3, {"type": "take_throne"}, (409, "STEP_AHEAD"), step + 5)  # a step from the future
    bad(1, {"type": "take_throne"}, (409, "STALE_STEP"))  # someone else's retry is not hers
    # sealed declaration: the emperor does not declare; a second, different answer is refused
    step += 1
    bad(0, {"type": "grab_solo"}, (422, "NO_GRAB_IN_SIMPLE"))
    bad(0, {"type": "pass"}, (422, "WRONG_PHASE"))
    declared = table.do(0, {"type": "declare"}, step)
    assert not declared["settled"]
    assert table.act(0, {"type": "declare"}, step).json_body == declared  # the same move, retried
    r = table.act(0, {"type": "stay_hidden"}, step)
    assert error(r) == (409, "ALREADY_SUBMITTED")
    for seat in (1, 2, 4):
        ack = table.do(seat, {"type": "stay_hidden"}, step)
    assert ack["settled"]
    assert table.act(0, {"type": "declare"}, step).status_code == 200  # retried after the round closed
    # play phase: the emperor (seat 3) leads
    step = ack["current_step"]
    v = table.view(3)
    hand = v["game"]["hand"]
    before = table.stored()
    stranger = next(c for c in table.state().deal.hands[0] if c not in hand)
    low = hand[0]
    other_rank = next(c for c in hand if FACE[c][1:] != FACE[low][1:] and not c.startswith(("BJ", "LJ")))
    bad(3, {"type": "play", "cards": ["ZZ#9"]}, (400, "BAD_CARD"))
    bad(3, {"type": "play", "cards": ["S3#1"]}, (400, "BAD_CARD"))  # no 3s in the simple pack
    bad(3, {"type": "play", "cards": [low, low]}, (400, "DUPLICATE_CARD"))
    bad(3, {"type": "play", "cards": [stranger]}, (422, "CARD_NOT_IN_HAND"))
    bad(3, {"type": "play", "cards": [low, other_rank]}, (422, "NOT_A_SET"))
    bad(3, {"type": "play", "cards": []}, (422, "BAD_ACTION"))
    bad(3, {"type": "play", "cards": "S6#1"}, (422, "BAD_ACTION"))
    bad(3, {"type": "play", "cards": ["S10#1#1"]}, (422, "BAD_ACTION"))  # longer than a card code
    bad(3, {"type": "pass"}, (422, "MUST_LEAD"))
    bad(3, {"type": "leave"}, (422, "MID_DEAL"))
    bad(3, {"type": "resume"}, (422, "NOT_AUTO"))
    bad(4, {"type": "play", "cards": [table.state().deal.hands[4][0]]}, (409, "NOT_YOUR_TURN"))
    bad(4, {"type": "pass"}, (409, "NOT_YOUR_TURN"))
    lead = v["game"]["hints"][0]
    played = table.do(3, {"type": "play", "cards": lead}, step)
    after_play = table.stored()
    assert table.act(3, {"type": "play", "cards": lead}, step).json_body == {**played, "settled": False}
    assert table.stored() == after_play
    before = after_play
    bad(3, {"type": "pass"}, (409, "STALE_STEP"))
    # following: same number of cards, each higher
    g = table.view(4)["game"]
    step = played["current_step"]
    four = g["hand"]
    smaller = [c for c in four if not c.startswith(("BJ", "LJ"))][: len(lead) + 1]
    bad(4, {"type": "play", "cards": smaller}, (422, "WRONG_SIZE" if len({FACE[c][1:] for c in smaller}) == 1
                                                 else "NOT_A_SET"))
    assert g["can_pass"] and table.do(4, {"type": "pass"}, step)["settled"]


# ---- actions during the sealed declaration ------------------------------------------------------

def test_the_emperor_may_quit_during_the_declaration(api, svc):
    """Seed: 游戏开始后，如有玩家强行退出…将被扣去30分。游戏自动结束。 Rules §16: quit during a deal
    (throne, declaration or play) ends it with −30. The emperor takes no part in the sealed round."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    view = table.run(Policy(), in_phase("declare"))
    emperor = view["game"]["emperor"]
    r = table.act(emperor, {"type": "quit"}, view["room"]["step"])
    assert r.status_code == 200, r.body
    (outcome,) = table.players[0].ok("GET", f"{table.game_path}/result")["results"]
    assert outcome["results"][emperor]["score"] == -30
    assert sum(r["score"] for r in outcome["results"]) == -30


def test_a_seat_in_tuoguan_may_resume_during_the_declaration(api, svc):
    """DECISIONS 保皇 #8: the seat stays in 托管 until the player acts again. Rules §15: any action by the
    seat (`resume`, or any other action) takes her out of 托管. Declarations already sealed by others
    stay sealed across her resume (they are carried into the round that now includes her)."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    step = table.view(0)["room"]["step"]
    step = table.do(0, {"type": "auto"}, step)["current_step"]  # seat 0 asks for 托管 while seat 3 holds the offer
    view = table.run(Policy(), in_phase("declare"))
    assert view["game"]["seats"][0]["auto"] and 0 not in view["pending"]["seats"]
    emperor = view["game"]["emperor"]
    other = next(s for s in view["pending"]["seats"] if s != emperor)
    table.do(other, {"type": "stay_hidden"}, view["room"]["step"])
    r = table.act(0, {"type": "resume"}, view["room"]["step"])
    assert r.status_code == 200, r.body
    after = table.view(0)
    assert not after["game"]["seats"][0]["auto"] and 0 in after["pending"]["seats"]
    assert after["pending"]["submitted"] == [other]  # her sealed answer was carried, not lost
    assert table.view(other)["pending"]["my_move"] == {"type": "stay_hidden"}


def test_a_seat_that_declared_and_then_asks_for_tuoguan_declares_nothing(api, svc):
    """Rules §15 (decision): 托管 declaration is 不声明 — also for a seat that sealed 造反 and then pressed
    托管: 托管 answers for her from that press on, so her sealed choice goes with her turn, and the table
    sees no hoe on her."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    view = table.run(Policy(), in_phase("declare"))
    emperor = view["game"]["emperor"]
    seat = next(s for s in view["pending"]["seats"] if table.view(s)["game"]["my_role"] == "commoner")
    step = table.do(seat, {"type": "declare"}, view["room"]["step"])["step"]
    assert table.view(seat)["pending"]["my_move"] == {"type": "declare"}
    table.do(seat, {"type": "auto"}, step)
    after = table.view(seat)
    assert after["game"]["seats"][seat]["auto"] and seat not in after["pending"]["seats"]
    for other in after["pending"]["seats"]:
        table.do(other, {"type": "stay_hidden"}, after["room"]["step"])
    played = table.view(emperor)
    assert played["game"]["phase"] == "play" and not played["game"]["seats"][seat]["rebel"]


def test_a_player_who_already_declared_may_still_quit(api, svc):
    """Seed: 游戏开始后，如有玩家强行退出…将被扣去30分。游戏自动结束。 DECISIONS 保皇 #7: quitting mid-deal
    costs 30 points and ends the deal."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    view = table.run(Policy(), in_phase("declare"))
    step = view["room"]["step"]
    table.do(0, {"type": "stay_hidden"}, step)
    r = table.act(0, {"type": "quit"}, step)
    assert r.status_code == 200, r.body
    (outcome,) = table.players[0].ok("GET", f"{table.game_path}/result")["results"]
    assert outcome["reason"] == "quit" and outcome["results"][0]["score"] == -30


def test_the_creator_cannot_hurry_away_the_others_declaration(api, svc):
    """DECISIONS 保皇 #4: every non-emperor is offered the same choices at the same time (stay hidden /
    declare). DECISIONS 保皇 #8: the per-turn timer is what keeps a table from freezing, so 催战 is
    refused in 保皇."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    policy = Policy(pass_throne={3, 2, 1})  # the throne goes 3 → 2 → 1 → 0; seat 0, the creator, takes it
    view = table.run(policy, in_phase("declare"))
    assert view["game"]["emperor"] == 0
    table.do(1, {"type": "declare"}, view["room"]["step"])  # one rebel answered; three have not yet
    r = table.players[0].post(f"{table.path}/hurry", {"step": view["room"]["step"]})
    assert error(r) == (409, "HURRY_NOT_ALLOWED")
    assert table.view(2)["game"]["phase"] == "declare"


def test_after_a_deal_anyone_at_the_table_fetches_its_replay(api, svc):
    """Issue: after a deal anyone at the table can fetch its replay (every play in order, hands
    revealed): the deal's result carries its full record."""
    table = open_table(api, svc, SEED_QUIET, variant="simple")
    table.run(Policy(), deal_over)
    (outcome,) = table.players[2].ok("GET", f"{table.game_path}/result")["results"]
    replay = outcome["extra"]["replay"]
    dealt = [card for hand in replay["dealt"] for card in hand]
    assert len(dealt) == 168 and len(set(dealt)) == 168  # every hand as dealt, nothing hidden
    plays = [entry for entry in replay["log"] if entry["act"] == "play"]
    assert plays and all(entry["cards"] for entry in plays)
    played = [card for entry in plays for card in entry["cards"]]
    left = [card for hand in replay["left"] for card in hand]
    assert sorted(played + left) == sorted(dealt)  # the plays, in order, account for every card
    assert replay["places"] == [r["seat"] for r in sorted(outcome["results"], key=lambda r: r["place"] or 9)][
        : len(replay["places"])]
    spectator = Player(api, "旁观")
    assert spectator.ok("GET", f"{table.game_path}/result")["results"][0]["extra"]["replay"] == replay
