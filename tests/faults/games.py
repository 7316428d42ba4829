"""One whole game per family, played through phones that retry like the mini-program.

Each script decides only from fresh views (so after a 409 it simply looks again and goes on), sends
`Idempotency-Key` where the API takes one (a retried 开房 or 新建妃子 is the same request), and
returns what the API says the game came to: the result and the replay (seed and action log).

* 宫斗杀 D — the 司礼 makes three 妃子, three players claim them, open a stage-1 room, fill it (the
  third join starts it) and play sealed rounds to the end (暗杀 the first boss; 待机 when voided).
* 保皇 — two players open and join a table, fill it with three bots and start it, and play one deal
  (the throne, the sealed declaration round, every trick), each phone choosing from its own view
  with `tests/api/baohuang_driver.Policy`; the bots move inside the phones' requests.
* 血染甄嬛传 — a storyteller opens the room, five players join, she deals the roles by hand, begins,
  walks the first night as her view offers it, dawns, takes a nomination and its vote, at dusk the
  demon is executed, and she confirms the end the game proposes: good wins.
"""

from __future__ import annotations

from typing import Any

from tests.api.baohuang_driver import Policy
from tests.faults.harness import Phone, World

MAX_ACTIONS = 600


def _finish(phone: Phone, path: str, replay: bool = True) -> dict[str, Any]:
    """The result as the API tells it, and (once the room is over) the replay: seed and action log."""
    out = {"result": phone.get(f"{path}/result")}
    if replay:
        out["replay"] = phone.get(f"{path}/replay")
    return out


# ---- 宫斗杀 D ----------------------------------------------------------------------------------

D_TEAM = ("甄嬛", "眉庄", "陵容")
D_SEED = bytes([0]) * 32


def shengong_d(world: World) -> dict[str, Any]:
    world.seeds.append(D_SEED)
    admin = Phone(world, "司礼")
    team: list[Phone] = []
    for i, name in enumerate(D_TEAM):
        cid = admin.ok("POST", "/v1/admin/consorts", {"name": name, "looks": 80, "talent": 80, "favor": 80,
                                                      "power": 80}, **{"Idempotency-Key": f"consort-{i}"})["id"]
        p = Phone(world, f"u-{name}")
        p.ok("POST", f"/v1/consorts/{cid}/claim")
        team.append(p)
    room = team[0].ok("POST", "/v1/rooms", {"game": "shengong_d", "options": {"stage": 1}},
                      **{"Idempotency-Key": "room-1"})["room"]["id"]
    for p in team[1:]:
        p.ok("POST", f"/v1/rooms/{room}/join")
    path = f"/v1/games/shengong/rooms/{room}"
    for _ in range(MAX_ACTIONS):
        view = team[0].get(path)
        if view["room"]["status"] != "active":
            break
        step, pending = view["room"]["step"], view["pending"]
        for seat in pending["seats"]:
            if seat in pending["submitted"]:
                continue  # sealed before a fault or a refresh: her phone knows it was accepted
            mine = team[seat].get(path)
            if mine["room"]["step"] != step:
                break
            action = {"type": "idle"} if mine["game"]["you"]["voided"] else {"type": "assassinate", "target": 0}
            if team[seat].act(f"{path}/actions", {"step": step, "action": action}) is None:
                break  # 409: look again
    else:
        raise AssertionError("the 宫斗杀 game did not end")
    return _finish(team[0], path)


# ---- 保皇 --------------------------------------------------------------------------------------

BAOHUANG_SEATS = ("赵", "钱", "孙", "李", "周")
BAOHUANG_SEED = bytes([7]) * 32
BAOHUANG_QUIT_STEP = 16
"""The step (turns of play after the throne and the declaration) at which a seat quits."""
BAOHUANG_QUITTER = 3


def baohuang(world: World) -> dict[str, Any]:
    """Five phones: the throne, the sealed declaration round, turns of play up to step
    BAOHUANG_QUIT_STEP, then seat 3 quits (强退, an immediate action): the deal ends with the −30 penalty, the table ends, the
    deal's result and the players' 战绩 are written in that transition."""
    world.seeds.append(BAOHUANG_SEED)
    players = [Phone(world, name) for name in BAOHUANG_SEATS]
    room = players[0].ok("POST", "/v1/rooms", {"game": "baohuang", "options": {}},
                         **{"Idempotency-Key": "table-1"})["room"]["id"]
    for p in players[1:]:
        p.ok("POST", f"/v1/rooms/{room}/join")
    players[0].ok("POST", f"/v1/rooms/{room}/start")
    path = f"/v1/games/baohuang/rooms/{room}"
    policy = Policy()
    seat = 0
    for _ in range(MAX_ACTIONS):
        view = players[seat].get(path)
        if view["room"]["status"] != "active":
            break
        pending = view["pending"]
        if view["game"]["phase"] == "play" and view["room"]["step"] >= BAOHUANG_QUIT_STEP:
            if seat != BAOHUANG_QUITTER:
                seat = BAOHUANG_QUITTER
                continue
            players[seat].act(f"{path}/actions", {"step": view["room"]["step"], "action": {"type": "quit"}})
            continue
        waiting = [s for s in pending["seats"] if s not in (pending.get("submitted") or [])]
        if seat not in waiting:
            seat = waiting[0]
            continue
        action = policy.choose(view)
        players[seat].act(f"{path}/actions", {"step": view["room"]["step"], "action": action})
    else:
        raise AssertionError("the 保皇 deal did not end")
    return _finish(players[0], path)


# ---- 血染甄嬛传 -----------------------------------------------------------------------------------

ZHENHUAN_ROLES = ("jingfei", "huangshang", "sanage", "huafei", "taihou")
ZHENHUAN_DEMON = 1
ZHENHUAN_SEED = bytes([2]) + bytes(31)


def _storyteller_choice(g: dict[str, Any]) -> dict[str, Any] | None:
    """The storyteller's next button from her own view: deal the planned roles, begin, walk the night
    (a greyed step is pressed through, an all-optional one done with no targets, any other passed),
    dawn, nominate the demon, count the hands, dusk; once the game proposes an end (the demon
    executed: good wins), 「确认结束」. None when her plan is done."""
    grim = g["grimoire"]
    if grim.get("end") is not None:
        return {"type": "confirm_end"}
    if g["phase"] == "setup":
        held = [s["role"] for s in grim["seats"]]
        for seat, role in enumerate(ZHENHUAN_ROLES):
            if held[seat] != role:
                return {"type": "assign", "seat": seat, "role": role}
        return {"type": "begin"}
    if g["phase"] == "night":
        cur = grim["night"]["current"]
        if cur is None:
            return {"type": "dawn"}
        if cur["disabled"] is not None:
            return {"type": "night_step", "step": cur["key"]}
        if all(s["optional"] for s in cur["slots"]):
            return {"type": "night_step", "step": cur["key"], "targets": []}
        return {"type": "night_step", "step": cur["key"], "skip": True}
    if g["phase"] == "day":
        nominations = g["day"]["nominations"]
        if not nominations:
            return {"type": "nominate", "nominator": 0, "nominee": ZHENHUAN_DEMON}
        if nominations[-1].get("count") is None:
            return {"type": "vote", "votes": [0, 2, 3, 4]}
        return {"type": "dusk", "execute_block": True}
    return None


def zhenhuan(world: World) -> dict[str, Any]:
    world.seeds.append(ZHENHUAN_SEED)
    st = Phone(world, "说书人")
    room = st.ok("POST", "/v1/rooms", {"game": "zhenhuan", "options": {}},
                 **{"Idempotency-Key": "grimoire-1"})["room"]["id"]
    players = [Phone(world, f"宾客{i + 1:02d}") for i in range(len(ZHENHUAN_ROLES))]
    for p in players:
        p.ok("POST", f"/v1/rooms/{room}/join")
    st.ok("POST", f"/v1/rooms/{room}/start")
    path = f"/v1/games/zhenhuan/rooms/{room}"
    for _ in range(MAX_ACTIONS):
        view = st.get(path)
        if view["room"]["status"] != "active":
            break
        action = _storyteller_choice(view["game"])
        assert action is not None, view["game"]["phase"]
        st.act(f"{path}/actions", {"step": view["room"]["step"], "action": action})
    else:
        raise AssertionError("the 血染 game did not end")
    return _finish(players[0], path)


SCRIPTS = {"shengong_d": shengong_d, "baohuang": baohuang, "zhenhuan": zhenhuan}
