"""深宫杀 modes A/B/C through HTTP: 8-seat games to the end with 催战 and a scheduler settlement,
records and leaderboards (自由赛, 锦标赛 and 卡牌局 apart, 品级 titles), and the leak test."""

from __future__ import annotations

import json
import random

import pytest

from chalicelib.records.service import title_for
from chalicelib.rooms import sweeper
from chalicelib.rooms.replay import recompute
from tests.api.dgame import make_team
from tests.api.helpers import Player, error

ORDINARY = ["景仁宫", "承乾宫", "钟粹宫", "延禧宫", "永寿宫", "长春宫"]
# one distinct R maid per seat, so any other seat's card showing up in a response is a leak
SEAT_CARDS = ["xunyi", "xiuzhen", "qiaoshe", "tieshen", "jinyan", "shentang", "tongxin", "huayu"]
CARD_NAMES = {"xunyi": "寻医问药", "xiuzhen": "袖里藏针", "qiaoshe": "巧舌如簧", "tieshen": "贴身护卫",
              "jinyan": "谨言慎行", "shentang": "参汤续命", "tongxin": "姐妹同心", "huayu": "春风化雨"}
MATCHING_ATTACK = {"xunyi": "poison", "xiuzhen": "assassinate", "qiaoshe": "frame"}
SLOT = {"tieshen": "defence", "jinyan": "defence", "shentang": "defence", "tongxin": "general", "huayu": "general"}
NAMES = ["甄嬛", "眉庄", "陵容", "华妃", "皇后", "敬妃", "端妃", "欣常在"]


@pytest.fixture
def admin(api):
    a = Player(api, "司礼")
    a.ok("PUT", "/v1/admin/games", {"open": {"shengong_a": True, "shengong_b": True, "shengong_c": True}})
    return a


@pytest.fixture
def eight(api, admin):
    team = []
    for seat, name in enumerate(NAMES):
        team += make_team(api, admin, [name], value=40 + 7 * seat, maids={SEAT_CARDS[seat]: 2})
    return team


def _open(team, game, creator=None):
    creator = creator or team[0]
    room_id = creator.ok("POST", "/v1/rooms", {"game": game})["room"]["id"]
    for p in team:
        if p is not creator:
            p.ok("POST", f"/v1/rooms/{room_id}/join")
    return room_id


def player_name(view: dict, seat: int) -> str:
    return next(s["name"] for s in view["room"]["seats"] if s["seat"] == seat)


def _order(rng: random.Random, who: int, seat: int, view: dict) -> dict:
    """A random order for the player `who` (index into NAMES) sitting in `seat`."""
    kind = rng.choice(["poison", "assassinate", "frame", "heal", "idle", "move", "meal", "stay"])
    card = SEAT_CARDS[who]
    if card in MATCHING_ATTACK and rng.random() < 0.6:
        kind = MATCHING_ATTACK[card]
    order: dict = {"type": kind}
    if kind in ("poison", "assassinate", "frame", "move"):
        order["place"] = rng.choice(ORDINARY)
    you = view["game"]["you"] or {}
    hand = [c["copy_id"] for c in (you.get("hand") or {}).get("hand", [])] if you.get("seat") == seat else []
    mine = [c for c in hand if c.startswith(card)]
    if mine and (card in SLOT or kind == MATCHING_ATTACK.get(card)):
        order["cards"] = {SLOT.get(card, "attack"): mine[0]}
    return order


def _play(team, room_id, seed, *, hurry_round=2, deadline_round=3, svc=None, clock=None, observe=None, creator=None):
    """Everyone submits random orders (falling back to 待机 when one is refused) until the end.
    In `hurry_round` only half submit and the creator presses 催战; in `deadline_round` nobody does
    and the scheduler settles the round after its deadline."""
    rng = random.Random(seed)
    by_name = {NAMES[i]: p for i, p in enumerate(team)}
    for _ in range(30):
        view = team[0].view(room_id)
        seat_player = {s["seat"]: by_name[s["name"]] for s in view["room"]["seats"]}
        if view["room"]["status"] != "active":
            return view
        rnd, step = view["game"]["round"], view["room"]["step"]
        seats = view["pending"]["seats"]
        if rnd == deadline_round and svc is not None:
            clock.advance((view["pending"]["deadline_ms"] - clock.now_ms()) / 1000 + 1)
            assert sweeper.settle_overdue(svc.room_deps()).changed == 1
            continue
        for i, seat in enumerate(seats):
            if rnd == hurry_round and i % 2:
                continue
            player = seat_player[seat]
            # only 卡牌局 needs her own view (her hand); A and B decide without a request
            mine = player.view(room_id) if view["room"]["game"] == "shengong_c" else view
            r = player.act(room_id, _order(rng, NAMES.index(player_name(view, seat)), seat, mine), step=step)
            if r.status_code == 422:
                r = player.act(room_id, {"type": "idle"}, step=step)
            assert r.status_code == 200, r.body
            if observe:
                observe(seat, step)
        if rnd == hurry_round:
            r = (creator or team[0]).post(f"/v1/rooms/{room_id}/hurry", {"step": step})
            assert r.json_body.get("settled") is True, r.json_body
    raise AssertionError("game did not end")


def _check_records(team, board, room_id, games):
    outcome = team[0].result(room_id)["results"][0]
    rows = {row["name"]: row for row in team[0].ok("GET", f"/v1/boards/{board}?limit=20")["rows"]}
    assert set(rows) == set(NAMES)
    assert all(row["games"] == games for row in rows.values())
    for r in outcome["results"]:
        st = r["stats"]
        # seed: ＋ 击败×3 ＋ 气血伤害×0.5 ＋ 好感伤害×0.4 − 承伤×0.1 ＋ 名次分（10/7/5/3/1）
        expected = st["kills"] * 3 + st["hp_damage"] * 0.5 + st["grace_damage"] * 0.4 - st["taken"] * 0.1 + {
            1: 10, 2: 7, 3: 5, 4: 3, 5: 1}.get(r["place"], 0)
        assert r["score"] == pytest.approx(expected, abs=1e-6)
    for row in rows.values():
        assert row["title"] == title_for(row["score"])
    ranks = [row["rank"] for row in sorted(rows.values(), key=lambda r: r["rank"])]
    assert ranks[0] == 1 and ranks == sorted(ranks)
    return outcome, rows


def test_modes_a_and_b_free_play_share_the_free_board(api, svc, clock, admin, eight):
    """Seed: 妃子自行开房＝自由赛 … 战绩分表统计，互不相混; DECISIONS #3 placement, #8 score."""
    room_a = _open(eight, "shengong_a")
    assert error(eight[0].post(f"/v1/rooms/{_open(eight[:7], 'shengong_a')}/start")) == (409, "NOT_ENOUGH_PLAYERS")
    eight[0].ok("POST", f"/v1/rooms/{room_a}/start")
    view = eight[3].view(room_a)
    assert view["game"]["round_limit"] == 20 and view["room"]["competition"] == "free"
    end = _play(eight, room_a, seed=1, svc=svc, clock=clock)
    assert end["room"]["status"] == "finished"
    triggers = [r["trigger"] for r in eight[0].reports(room_a)["reports"]]
    assert triggers[1] == "hurry" and triggers[2] == "deadline"
    _check_records(eight, "melee-free", room_a, games=1)
    replay = eight[0].replay(room_a)
    assert recompute(replay).model_dump(mode="json") == svc.rooms.get_room(room_a).state

    room_b = _open(eight, "shengong_b", creator=eight[4])
    eight[4].ok("POST", f"/v1/rooms/{room_b}/start")
    _play(eight, room_b, seed=2, svc=svc, clock=clock, creator=eight[4])
    _, rows = _check_records(eight, "melee-free", room_b, games=2)
    me = eight[0].ok("GET", "/v1/boards/melee-free/me")
    assert me["rank"] == rows["甄嬛"]["rank"] and me["record"]["games"] == 2
    assert eight[0].ok("GET", "/v1/boards/cards-free")["rows"] == []
    assert eight[0].ok("GET", "/v1/boards/melee-tournament")["rows"] == []


def test_mode_c_tournament_hosted_by_the_admin_has_its_own_board(api, svc, clock, admin, eight):
    """Seed: 司礼开房＝锦标赛（司礼不入局，只作主持）；玩法C 卡牌局另设一榜."""
    room = admin.ok("POST", "/v1/rooms", {"game": "shengong_c"})["room"]
    assert room["competition"] == "tournament" and room["seats"] == [] and room["hosted"]
    for p in eight:
        p.ok("POST", f"/v1/rooms/{room['id']}/join")
    assert error(admin.post(f"/v1/rooms/{room['id']}/join")) == (409, "HOST_CANNOT_SIT")
    admin.ok("POST", f"/v1/rooms/{room['id']}/start")
    _play(eight, room["id"], seed=3, hurry_round=4, deadline_round=5, svc=svc, clock=clock, creator=admin)
    _check_records(eight, "cards-tournament", room["id"], games=1)
    assert admin.ok("GET", "/v1/boards/cards-free")["rows"] == []
    assert admin.ok("GET", "/v1/boards/melee-free")["rows"] == []
    history = eight[2].ok("GET", f"/v1/consorts/{eight[2].consort}/records")["boards"]
    assert list(history) == ["cards-tournament"] and history["cards-tournament"]["games"] == 1


def test_mode_c_never_leaks_hands_orders_or_targets(api, svc, clock, admin, eight):
    """玩法C ⑦: 手牌只有自己（与司礼）可见；战报里他人出牌只显示「有人打出进攻牌」，不露牌名.
    Seed: 别人的行动与目标根本不下发，你只看得到自己的."""
    room_id = _open(eight, "shengong_c")
    eight[0].ok("POST", f"/v1/rooms/{room_id}/start")
    watcher = Player(api, "看客")
    seen: dict[int, list[str]] = {s: [] for s in range(8)}

    def observe(seat, step):
        stored = svc.rooms.list_moves(room_id, step)
        for other in ((seat + 1) % 8,):  # the next seat looks after each submission: every seat, every round
            body = eight[other].get(eight[other].game_path(room_id)).body.decode()
            seen[other].append(body)
            pending = json.loads(body)["pending"]
            if pending is not None and json.loads(body)["room"]["step"] == step:
                # she sees that others submitted, and only her own move
                own = stored.get(other)
                assert pending["my_move"] == (own.action if own else None)
                assert seat in pending["submitted"]

    _play(eight, room_id, seed=4, svc=svc, clock=clock, observe=observe)
    for seat in range(8):
        seen[seat].append(eight[seat].get(eight[seat].game_path(room_id, "/reports?after=0&limit=100")).body.decode())
    for seat, bodies in seen.items():
        text = "\n".join(bodies)
        for other in range(8):
            if other == seat:
                continue
            for word in (SEAT_CARDS[other], CARD_NAMES[SEAT_CARDS[other]]):
                assert word not in text, (seat, other, word)
    lines = [line for rep in watcher.reports(room_id)["reports"]
             for line in rep["lines"]]
    anonymous = [line["text"] for line in lines if line["scope"] == "anonymous"]
    assert anonymous and not any(name in text for text in anonymous for name in NAMES)
    assert any("有人打出" in text for text in anonymous)
    host = json.dumps(admin.view(room_id)["game"], ensure_ascii=False)
    assert sum(card in host for card in SEAT_CARDS) >= 6  # the 司礼 sees every hand
