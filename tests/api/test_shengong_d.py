"""宫斗杀 (玩法D) end to end through HTTP: login, claim, open, join, play to a stage-1 clear and to a
wipe-out, records and boards, stage unlock, 催战 and the scheduler, replay, and no leaks."""

from __future__ import annotations

import json

import pytest

from chalicelib.core.game import Viewer
from chalicelib.games import get_game
from chalicelib.rooms import sweeper
from chalicelib.rooms.replay import recompute
from tests.api.dgame import make_team, open_d_room, play_out
from tests.api.helpers import Player, error


@pytest.fixture
def admin(api):
    return Player(api, "司礼")


@pytest.fixture
def pinned_seeds(svc):
    """Games start from known seeds (found by simulating the engine; see each test)."""
    seeds: list[bytes] = []
    svc.new_seed = lambda: seeds.pop(0)
    return seeds


def _assert_recomputes(svc, player: Player, room_id: str) -> None:
    """Fair and replayable: seed + action log reproduce the stored final state bit for bit."""
    replay = player.replay(room_id)
    state = recompute(replay)
    assert state.model_dump(mode="json") == svc.rooms.get_room(room_id).state


def test_stage_one_clear_unlocks_stage_two_which_ends_in_a_wipe(api, svc, admin, pinned_seeds):
    """Seed D⑥: 挑战关卡 N 须全队三人都通关关卡 N−1；有人没打通，开战时会点名提示 — each player is
    named as she takes a seat (decision, docs/rules/shengong.md §10), so a stage room fills only with
    players who may start it.
    Seed D⑦: 积分 ＝ 输出伤害 + 存活 30 + 通关奖励（60 − 回合×3，不为负）."""
    team = make_team(api, admin, ["甄嬛", "眉庄", "陵容"], value=0)
    # 开房's stage picker says which stages are still locked for her, and why, before she presses 开房
    assert _stage_locks(team[0]) == {"2": "挑战关卡2须先通关关卡1：甄嬛 尚未通关关卡1",
                                     "3": "挑战关卡3须先通关关卡2：甄嬛 尚未通关关卡2"}
    # stage 2 before anyone cleared stage 1: her room is refused, naming her, and nothing is written —
    # the check at 开房 stays the word, in the words the picker showed
    r = team[0].post("/v1/rooms", {"game": "shengong_d", "options": {"stage": 2}})
    assert error(r) == (422, "STAGE_LOCKED") and r.json_body["details"]["players"] == ["甄嬛"]
    assert r.json_body["message"] == _stage_locks(team[0])["2"]
    assert team[0].ok("GET", "/v1/rooms?game=shengong_d")["rooms"] == []

    pinned_seeds.extend([bytes([0]) * 32, bytes([0]) * 32])
    room1 = open_d_room(team, stage=1)
    assert team[0].view(room1)["room"]["status"] == "active"  # 满 3 人自动开战
    end = play_out(team, room1, {"type": "assassinate", "target": 0})
    assert end["room"]["status"] == "finished"
    outcome = team[0].result(room1)["results"][0]
    assert outcome["reason"] == "clear" and outcome["extra"]["cleared"] is True
    rounds = outcome["extra"]["rounds"]
    for r in outcome["results"]:
        dealt = r["stats"]["hp_damage"] + r["stats"]["grace_damage"]
        expected = dealt + 30 * r["stats"]["survived"] + max(0, 60 - rounds * 3)
        assert r["score"] == pytest.approx(expected) and r["won"]
    _assert_recomputes(svc, team[0], room1)
    # its replay carries each 妃子's 宫女 (her private deck): the table and the 司礼 may have it, no one else
    stranger = Player(api, "路人")
    assert error(stranger.get(stranger.game_path(room1, "/replay"))) == (403, "REPLAY_TABLE_ONLY")
    assert admin.ok("GET", admin.game_path(room1, "/replay"))["seed"] == team[1].replay(room1)["seed"]

    me = team[0].ok("GET", "/v1/me")
    assert me["consort"]["cleared_stages"] == [1]
    assert list(_stage_locks(team[0])) == ["3"]  # stage 2 is open to her now
    fastest = team[0].ok("GET", "/v1/stages/1/fastest")["rows"]
    assert len(fastest) == 1 and fastest[0]["rounds"] == rounds and fastest[0]["room"] == room1
    assert sorted(m["name"] for m in fastest[0]["team"]) == ["甄嬛", "眉庄", "陵容"]
    assert {m["name"]: m["score"] for m in fastest[0]["team"]} == {
        r["name"]: r["score"] for r in outcome["results"]}

    # a newcomer who has not cleared stage 1 is turned away from the stage-2 room as she sits, named;
    # the room waits for (and starts with) the three who may play it
    newcomer = make_team(api, admin, ["端妃"], value=0)[0]
    room2 = team[0].open_room("shengong_d", {"stage": 2})
    assert team[0].ok("GET", "/v1/rooms?game=shengong_d")["rooms"][0]["title"] == "宫斗杀·关卡2"
    refused = newcomer.post(f"/v1/rooms/{room2}/join")
    assert error(refused) == (422, "STAGE_LOCKED") and refused.json_body["details"]["players"] == ["端妃"]
    assert len(svc.rooms.get_room(room2).seats) == 1  # nothing half-written
    for p in team[1:]:
        p.ok("POST", f"/v1/rooms/{room2}/join")
    end = play_out(team, room2, {"type": "heal"})
    outcome2 = team[1].result(room2)["results"][0]
    assert outcome2["reason"] == "wipe" and not outcome2["extra"]["cleared"]
    assert all(r["stats"]["survived"] == 0 and not r["won"] for r in outcome2["results"])
    assert team[1].ok("GET", "/v1/stages/2/fastest")["rows"] == []
    _assert_recomputes(svc, team[1], room2)

    board = team[0].ok("GET", "/v1/boards/coop-free")["rows"]
    assert sorted(row["name"] for row in board) == ["甄嬛", "眉庄", "陵容"]
    assert all(row["games"] == 2 and row["wins"] == 1 for row in board)
    mine = team[0].ok("GET", "/v1/boards/coop-free/me")
    assert mine["record"]["games"] == 2 and mine["rank"] == next(r["rank"] for r in board if r["name"] == "甄嬛")
    assert team[0].ok("GET", "/v1/boards/coop-tournament")["rows"] == []  # 自由赛 and 锦标赛 never mix
    tournament = team[0].ok("GET", "/v1/stages/1/fastest?competition=tournament")
    assert (tournament["competition"], tournament["rows"]) == ("tournament", [])  # nor do their fastest clears
    records = team[0].ok("GET", f"/v1/consorts/{team[0].consort}/records")["boards"]
    assert list(records) == ["coop-free"] and records["coop-free"]["win_rate"] == 0.5


def _stage_locks(player: Player) -> dict[str, str] | None:
    """The 宫斗杀 stages GET /v1/games says this caller may not open yet, with the reasons."""
    games = {g["key"]: g for g in player.ok("GET", "/v1/games")["games"]}
    return games["shengong_d"]["options_schema"]["properties"]["stage"].get("x-locked")


def test_the_stage_picker_locks_nothing_for_whoever_opens_no_seat_of_her_own(api, admin):
    """A 司礼 hosts her (锦标赛) room without a seat, and a player without a 妃子 may open none at all
    (NO_CONSORT, said by the lobby): no stage is greyed for either — each seat is checked as it is
    taken. The picker greys per caller; the schema the contract and 开房 validate against is unchanged."""
    assert _stage_locks(admin) is None and _stage_locks(Player(api, "路人")) is None
    assert "x-locked" not in get_game("shengong_d").options_model.model_json_schema()["properties"]["stage"]


def test_a_game_nobody_played_reaches_no_board(api, svc, admin):
    """Platform rule P11 (boards measure play): a creator who 催战s an untouched game to its end gets
    its result, and no board, record or rank from it; a teammate who played is counted."""
    team = make_team(api, admin, ["端妃", "敬妃", "欣常在"], value=0)
    room_id = open_d_room(team, stage=1)
    team[1].act(room_id, {"type": "idle"}, step=1)  # 敬妃 plays one round, then nobody does
    for _ in range(25):
        room = svc.rooms.get_room(room_id)
        if room.status.value != "active":
            break
        team[0].ok("POST", f"/v1/rooms/{room_id}/hurry", {"step": room.step})
    results = team[0].result(room_id)["results"][0]["results"]
    assert [(r["name"], r["played"]) for r in results] == [("端妃", False), ("敬妃", True), ("欣常在", False)]
    rows = team[0].ok("GET", "/v1/boards/coop-free")["rows"]
    assert [r["name"] for r in rows] == ["敬妃"]
    assert team[0].ok("GET", f"/v1/consorts/{team[0].consort}/records")["boards"] == {}


def test_hurry_and_scheduler_settle_rounds_nobody_finished(api, svc, admin, clock):
    """Seed: 有人迟迟不动，发起者可「催 战」（未落子按待机处理）; a scheduled job settles overdue rounds."""
    team = make_team(api, admin, ["端妃", "敬妃", "欣常在"])
    room_id = open_d_room(team, stage=1)
    team[1].act(room_id, {"type": "poison", "target": 0}, step=1)
    assert error(team[1].post(f"/v1/rooms/{room_id}/hurry", {"step": 1})) == (403, "NOT_CREATOR")
    assert team[0].post(f"/v1/rooms/{room_id}/hurry", {"step": 1}).json_body["settled"] is True
    retried = team[0].post(f"/v1/rooms/{room_id}/hurry", {"step": 1}).json_body  # its answer was lost
    assert (retried["settled"], retried["current_step"]) == (False, 2)  # it settled nothing this time
    reports = team[0].reports(room_id)["reports"]
    assert [r["trigger"] for r in reports] == ["hurry"]
    log = svc.rooms.get_log(room_id, 1)
    assert set(log.moves) == {"1"}  # seats 0 and 2 did not submit: 待机 by default
    assert {s: m.by for s, m in svc.rooms.list_moves(room_id, 1).items()} == {0: "default", 1: "player", 2: "default"}

    team[2].act(room_id, {"type": "heal"}, step=2)
    deadline = team[0].view(room_id)["pending"]["deadline_ms"]
    clock.advance((deadline - clock.now_ms()) / 1000 - 1)
    assert sweeper.settle_overdue(svc.room_deps()).changed == 0
    clock.advance(2)
    assert sweeper.settle_overdue(svc.room_deps()).changed == 1
    assert sweeper.settle_overdue(svc.room_deps()).changed == 0
    assert team[0].view(room_id)["room"]["step"] == 3
    assert [r["trigger"] for r in team[0].reports(room_id)["reports"]] == [
        "hurry", "deadline"]


ATTACKS = {0: ("poison", "xunyi"), 1: ("assassinate", "xiuzhen"), 2: ("frame", "qiaoshe")}
CARD_WORDS = {
    0: ["xunyi", "hedinghong", "寻医问药", "鹤顶红"],
    1: ["xiuzhen", "yexing", "袖里藏针", "夜行刺"],
    2: ["qiaoshe", "bufeng", "巧舌如簧", "捕风捉影"],
}


def test_no_response_leaks_another_players_move_target_or_card(api, svc, admin):
    """Seed: 别人的行动与目标根本不下发，你只看得到自己的；战报里与你有关的给全文，无关的只作匿名播报.
    玩法C ⑦: 手牌只有自己（与司礼）可见；战报里他人出牌只显示「有人打出进攻牌」，不露牌名."""
    maids = [{"xunyi": 2, "hedinghong": 1}, {"xiuzhen": 2, "yexing": 1}, {"qiaoshe": 2, "bufeng": 1}]
    team = []
    for i, name in enumerate(["华妃", "曹贵人", "丽嫔"]):
        team += make_team(api, admin, [name], value=60, maids=maids[i])
    watcher = Player(api, "观战者")
    room_id = open_d_room(team, stage=1)
    names = ["华妃", "曹贵人", "丽嫔"]
    saw: dict[int, list[str]] = {0: [], 1: [], 2: []}
    spectator_lines: list[str] = []
    host_hands_seen = False
    for _ in range(25):
        view = team[0].view(room_id)
        if view["room"]["status"] != "active":
            break
        step = view["room"]["step"]
        for seat in view["pending"]["seats"]:
            hand = [c["copy_id"] for c in team[seat].view(room_id)["game"]["you"]["hand"]["hand"]]
            kind, card = ATTACKS[seat]
            move = {"type": kind, "target": 0}
            mine = [c for c in hand if c.startswith(card)]
            if mine:  # play her attack card when she holds one
                move["cards"] = {"attack": mine[0]}
            if team[seat].view(room_id)["game"]["you"]["voided"]:
                move = {"type": "idle"}  # a boss's 暗杀 voided her move this round (DECISIONS #12)
            r = team[seat].act(room_id, move, step=step)
            assert r.status_code == 200, r.json_body
            # after each submission, everyone else's responses are checked
            for other in range(3):
                if other != seat:
                    saw[other].append(team[other].get(team[other].game_path(room_id)).body.decode())
        for seat in range(3):
            saw[seat].append(team[seat].get(team[seat].game_path(room_id, "/reports?after=0")).body.decode())
        lines = watcher.reports(room_id)["reports"]
        spectator_lines += [line for rep in lines for line in rep["lines"]]
        host = admin.view(room_id)
        host_hands_seen |= sum(1 for p in json.dumps(host, ensure_ascii=False).split("xunyi#")) > 1
    for seat in range(3):
        text = "\n".join(saw[seat])
        for other in range(3):
            if other != seat:
                for word in CARD_WORDS[other]:
                    assert word not in text, (seat, word)
    # spectators: results (the public board) and anonymous lines only, and no names in the anonymous ones
    assert {line["scope"] for line in spectator_lines} == {"anonymous", "public"}
    anonymous = [line["text"] for line in spectator_lines if line["scope"] == "anonymous"]
    assert anonymous and not any(n in text for text in anonymous for n in names)
    assert host_hands_seen


def test_view_projection_for_host_and_spectator(api, svc, admin):
    team = make_team(api, admin, ["安陵容", "祺贵人", "瓜尔佳"], maids={"xunyi": 1})
    room_id = open_d_room(team, stage=1)
    game = get_game("shengong_d")
    state = game.state_model.model_validate(svc.rooms.get_room(room_id).state)
    assert admin.view(room_id)["game"] == game.view(state, Viewer.host()).model_dump(mode="json")
    assert Player(api, "路人").view(room_id)["game"] == game.view(state, Viewer.spectator()).model_dump(mode="json")
    assert team[1].view(room_id)["game"] == game.view(state, Viewer.player(1)).model_dump(mode="json")


def test_one_consort_plays_in_several_rooms_at_once(api, svc, admin):
    """Seed: 一妃可同时参加多局，互不冲突."""
    team = make_team(api, admin, ["甄嬛", "眉庄", "陵容", "华妃", "曹贵人"])
    first = open_d_room(team[:3], stage=1)
    second = open_d_room([team[0], team[3], team[4]], stage=1)
    for room_id in (first, second):
        assert team[0].view(room_id)["room"]["status"] == "active"
        assert team[0].view(room_id)["viewer"] == {"role": "player", "seat": 0}
    assert team[0].act(first, {"type": "heal"}, step=1).status_code == 200
    assert team[0].act(second, {"type": "poison", "target": 0}, step=1).status_code == 200
    assert team[0].view(first)["pending"]["my_move"] == {"type": "heal", "cards": {
        "attack": None, "defence": None, "general": None, "discard": []}}
    assert team[0].view(second)["pending"]["my_move"]["type"] == "poison"


def test_a_view_fetch_brings_its_new_reports_in_the_same_answer(api, svc, admin):
    """Told of a change, a phone asks once: `?reports_after=<next_after>` folds the reports the
    /reports endpoint would give into the view's answer. The ETag still covers the view alone: with
    nothing new it is a 304; with new reports it is a 200 even under the same tag."""
    team = make_team(api, admin, ["报甲", "报乙", "报丙"], value=70)
    room = open_d_room(team, 1)
    me = team[0]
    path = me.game_path(room)
    first = me.get(f"{path}?reports_after=-1")
    assert first.status_code == 200
    body, tag = first.json_body, first.headers["ETag"]
    assert body["reports"] == me.ok("GET", me.game_path(room, "/reports?after=-1&limit=100"))
    after = body["reports"]["next_after"]
    assert me.get(f"{path}?reports_after={after}", **{"If-None-Match": tag}).status_code == 304
    assert "reports" not in me.view(room)  # not asked, not there
    step = body["room"]["step"]
    for seat in body["pending"]["seats"]:
        assert team[seat].act(room, {"type": "assassinate", "target": 0}, step=step).status_code == 200
    settled = me.get(f"{path}?reports_after={after}", **{"If-None-Match": tag})
    assert settled.status_code == 200 and settled.json_body["room"]["step"] > step
    folded = settled.json_body["reports"]
    assert [r["step"] for r in folded["reports"]] == [step] and folded["reports"][0]["lines"]
    assert folded == me.ok("GET", me.game_path(room, f"/reports?after={after}&limit=100"))
    # the same tag, new reports (a phone that had the view but not yet its reports): still a 200
    again = me.get(f"{path}?reports_after={after}", **{"If-None-Match": settled.headers["ETag"]})
    assert again.status_code == 200 and again.json_body["reports"] == folded
    nothing = me.get(f"{path}?reports_after={folded['next_after']}", **{"If-None-Match": settled.headers["ETag"]})
    assert nothing.status_code == 304
    bad = me.get(f"{path}?reports_cursor=nonsense")
    assert bad.status_code == 400 and bad.json_body["code"] == "BAD_CURSOR"


def test_an_actions_answer_carries_her_view_after_it_and_nobody_elses_move(api, svc, admin):
    """A sealed move is not announced on the socket, so its answer carries the mover's view after it —
    the very body and ETag a GET would give her — and her screen needs no second request. It shows
    her own sealed move and who has moved; never another player's move."""
    team = make_team(api, admin, ["答甲", "答乙", "答丙"], value=70)
    room = open_d_room(team, 1)
    step = team[0].view(room)["room"]["step"]
    mine, theirs = {"type": "assassinate", "target": 0}, {"type": "idle"}
    first = team[0].act(room, mine, step=step).json_body
    got = team[0].get(team[0].game_path(room))
    assert first["view_etag"] == got.headers["ETag"]
    assert {**first["view"], "server_time": 0} == {**got.json_body, "server_time": 0}
    sealed = first["view"]["pending"]["my_move"]
    assert (sealed["type"], sealed["target"]) == ("assassinate", 0) and first["view"]["pending"]["submitted"] == [0]
    second = team[1].act(room, theirs, step=step).json_body
    assert second["view"]["pending"]["my_move"]["type"] == "idle" and second["view"]["pending"]["submitted"] == [0, 1]
    assert "assassinate" not in json.dumps(second["view"]["pending"])  # 答甲's move stays hers
    assert "reports" not in second["view"]  # not asked, not there
    # the move that settles the round, asked with her reports cursor: the round's 战报 comes in the answer
    after = team[2].ok("GET", team[2].game_path(room, "/reports?after=-1&limit=100"))["next_after"]
    last = team[2].act(room, theirs, step=step, query=f"?reports_after={after}").json_body
    assert last["settled"] and last["view"]["room"]["step"] == step + 1 and last["view"]["pending"]["my_move"] is None
    assert [r["step"] for r in last["view"]["reports"]["reports"]] == [step]
    assert last["view"]["reports"] == team[2].ok("GET", team[2].game_path(room, f"/reports?after={after}&limit=100"))


@pytest.fixture
def requests_made(ddb):
    """The DynamoDB operations the next call makes (counted on the suite's client, then unhooked)."""
    from collections import Counter

    made: Counter[str] = Counter()

    def count(model, **_):
        made[model.name] += 1

    ddb.meta.events.register("after-call.dynamodb", count)

    def during(fn):
        made.clear()
        out = fn()
        return out, dict(made)

    yield during
    ddb.meta.events.unregister("after-call.dynamodb", count)


def test_a_moves_answer_reads_what_it_shows_once(api, svc, admin, requests_made):
    """A sealed move that leaves the round waiting reads the room, writes the move and reads the round's
    moves once — to know whether the round is complete, and then to show who has moved; asked with
    a reports cursor that is already up to date, it reads no log (none can be newer than the room's
    last transition). A view fetch with nothing new: the room and the round's moves."""
    team = make_team(api, admin, ["省甲", "省乙", "省丙"], value=70)
    room = open_d_room(team, 1)
    view = team[0].view(room)
    step, path = view["room"]["step"], team[0].game_path(room)
    after = team[0].ok("GET", team[0].game_path(room, "/reports?after=-1&limit=100"))["next_after"]
    assert after == step - 1
    answer, made = requests_made(lambda: team[0].act(room, {"type": "idle"}, step=step,
                                                     query=f"?reports_after={after}"))
    assert answer.json_body["view"]["pending"]["submitted"] == [0]
    assert answer.json_body["view"]["reports"] == {"reports": [], "next_after": after, "next_cursor": str(after)}
    assert made == {"GetItem": 1, "PutItem": 1, "Query": 1}
    got, made = requests_made(lambda: team[0].get(f"{path}?reports_after={after}"))
    assert got.json_body["pending"]["submitted"] == [0] and got.json_body["reports"]["reports"] == []
    assert made == {"GetItem": 1, "Query": 1}
    # behind by one round: the log is read (one bounded Query), and the round's report comes
    for seat in (1, 2):
        team[seat].act(room, {"type": "idle"}, step=step)
    got, made = requests_made(lambda: team[0].get(f"{path}?reports_after={after}"))
    assert [r["step"] for r in got.json_body["reports"]["reports"]] == [step]
    assert made == {"GetItem": 1, "Query": 2}


def test_a_move_after_the_deadline_is_answered_without_settling_the_round(api, svc, admin, clock):
    """Settle-on-read is for reads: a move sent after the round's deadline (no scheduler tick yet) is
    recorded and its answer shows the room as that move left it, so the other seats' moves sent at the
    same moment still count; the next read settles the round."""
    team = make_team(api, admin, ["迟甲", "迟乙", "迟丙"], value=70)
    room = open_d_room(team, 1)
    view = team[0].view(room)
    step = view["room"]["step"]
    clock.advance((view["pending"]["deadline_ms"] - clock.now_ms()) / 1000 + 1)
    answer = team[0].act(room, {"type": "idle"}, step=step)
    assert answer.status_code == 200, answer.json_body
    first = answer.json_body
    assert not first["settled"] and first["view"]["room"]["step"] == step
    assert first["view"]["pending"]["submitted"] == [0]
    second = team[1].act(room, {"type": "idle"}, step=step)
    assert second.status_code == 200 and second.json_body["view"]["pending"]["submitted"] == [0, 1]
    assert team[2].view(room)["room"]["step"] == step + 1  # a read settles it, 丙 defaulting to 待机


def _void(svc, room_id: str, seats: set[int]):
    """The stored room as if a boss's 暗杀 had hit `seats` last round (their move this round is void)."""
    from chalicelib.rooms.engine import dump_state, load_state, pending_info

    game = get_game("shengong_d")
    room = svc.rooms.get_room(room_id)
    state = load_state(game, room)
    state = state.model_copy(update={"players": tuple(
        p.model_copy(update={"voided": p.seat in seats}) for p in state.players)})
    changed = room.model_copy(update={"state": dump_state(state), "version": room.version + 1,
                                      "pending": pending_info(game.pending(state), svc.clock.now_ms())})
    svc.rooms.save_room(changed, room.version)
    return changed


def test_a_round_where_every_player_is_voided_settles_at_once(api, svc, admin):
    """DECISIONS 深宫杀 #12: "a boss or 随从 who 暗杀s a player voids that player's next action". Rules
    (Voided, D): the round does not wait for a voided player — she may not seal (`NOT_IN_ROUND`), her
    teammates' moves settle it — and a round that waits for no one settles at once, not at its clock."""
    from chalicelib.rooms.autoplay import run_bots

    team = make_team(api, admin, ["端妃", "敬妃", "欣常在"], value=80)
    room_id = open_d_room(team, stage=1)
    _void(svc, room_id, {0})
    view = team[0].view(room_id)
    assert view["pending"]["seats"] == [1, 2] and view["game"]["you"]["voided"]
    assert error(team[0].act(room_id, {"type": "idle"}, step=view["room"]["step"])) == (409, "NOT_IN_ROUND")
    step = view["room"]["step"]
    team[1].act(room_id, {"type": "idle"}, step=step)
    team[2].act(room_id, {"type": "idle"}, step=step)
    assert svc.rooms.get_room(room_id).step == step + 1  # settled without her
    room = _void(svc, room_id, {0, 1, 2})
    assert room.pending.seats == ()
    after = run_bots(svc.room_deps(), room)
    assert after.step == room.step + 1  # settled by itself: every void applied, a new round opened
