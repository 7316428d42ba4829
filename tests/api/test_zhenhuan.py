"""血染甄嬛传 end to end through the HTTP API, driven by the storyteller's buttons.

The storyteller opens the room and never sits (`host_runs`); 5–20 players join; she presses every
button on the game's own path (`POST /v1/games/zhenhuan/rooms/{id}/actions`, with the step only she
sees). Whole games are played to each end: good (the demon dead with no successor), evil (two alive,
the demon among them), 胧月 executed, and the storyteller naming the winner. A met end is only
proposed (DECISIONS #12): the storyteller sees it in her grimoire and presses 「确认结束」. After each
end the result, everyone's full grimoire and log, and the replay (seed + action log recompute the
stored final state exactly) are checked. The players' phones (nominations and the vote clock),
travellers and undo have their own files (`test_zhenhuan_*.py`).

Privacy (`LeakWatch`, tests/api/zhenhuan_driver.py): after every single transition of the 7- and
5-player games, every player's and a spectator's view and new reports are read (in the 8-player game
three seats in turn after each action and all eight at every phase change; the 20-player game once, at
its end) and searched for role keys, role names, status words, alignments and the storyteller's tools;
a player's view must equal the spectator's plus her own `me`, whose information must be exactly what
was addressed to her; players and spectators see no step or version; one seat in turn also meets
refusals (STEP_HIDDEN for any step she sends, STORYTELLER_ONLY) whose bodies carry no counter and no secret; the
storyteller's view must hold every role, alignment, status, reminder and note as stored.

Roles are hand-picked with `assign` (the storyteller's setup button), so each game is the same every
run; seeds are pinned anyway (`svc.new_seed`) because setup proposals, rerolls and 祺贵人's draw use them.
"""

from __future__ import annotations

import json
import os
import time

import pytest

from chalicelib.games import get_game
from chalicelib.games.zhenhuan.ending import EVIL_WINS, GOOD_WINS
from chalicelib.rooms.replay import recompute
from chalicelib.store.codec import pack_json
from tests.api.helpers import Player, error
from tests.api.zhenhuan_driver import NAMES, LeakWatch, Table, book, expected_order

SEED_A = bytes([1]) + bytes(31)
SEED_B = bytes([2]) + bytes(31)
SEED_C = bytes([3]) + bytes(31)
SEED_D = bytes([4]) + bytes(31)
SEED_LONG = bytes([5]) + bytes(31)
SEED_BAD = bytes([6]) + bytes(31)
DYNAMODB_ITEM_LIMIT = 400 * 1024
LONG_NIGHTS = 8 if os.environ.get("SOAK_FULL") == "1" else 2


# ---- shared checks -------------------------------------------------------------------------------


def watched(table: Table, api, **options) -> LeakWatch:
    """Attach the per-step privacy check (and run it once on the board as it stands)."""
    watch = LeakWatch(table, Player(api, "路人观战"), **options)
    table.observers.append(watch)
    watch.check()
    return watch


def infos(me: dict) -> list[tuple]:
    """A player's night information as (step, value), without her 「你是」 cards and tells."""
    return [(i["step"], i["value"]) for i in me["info"] if i["kind"] == "info"]


def confirm(table: Table, winner: str, reason: str, *, declared: bool = False) -> dict:
    """A met win condition is only proposed (DECISIONS #12): the storyteller sees it in her grimoire,
    the players do not; she presses 「确认结束」 and the game ends. Returns the outcome."""
    assert table.grim()["end"] == {"winner": winner, "reason": reason, "declared": declared}
    assert table.stored().status.value == "active"
    seen = table.view(0)["game"]
    assert seen["grimoire"] is None and seen["winner"] is None and seen["end_reason"] is None
    assert table.view(0)["pending"]["label"] == "说书人"
    for watch in table.observers:
        if isinstance(watch, LeakWatch):
            watch.check_reports()  # every report each viewer got, before the end opens them all
    table.do({"type": "confirm_end"})
    return finish_checks(table, winner, reason)


def finish_checks(table: Table, winner: str, reason: str) -> dict:
    """After the end: the result, everyone's full grimoire and log, the replay. Returns the outcome."""
    stored = table.stored()
    assert stored.status.value == "finished" and stored.pending is None
    state = stored.state
    assert state["phase"] == "over" and state["winner"] == winner and state["end_reason"] == reason
    # /result: one final outcome naming the winner; a seat won when her final alignment is the winner's
    body = table.players[0].ok("GET", f"{table.gpath}/result")
    assert body["status"] == "finished" and len(body["results"]) == 1
    outcome = body["results"][0]
    assert outcome["unit"] == "game" and outcome["reason"] == reason
    assert outcome["extra"]["winner"] == winner
    assert outcome["extra"]["roles"] == [s["role"] for s in state["seats"]]
    assert outcome["extra"]["nights"] == state["night_no"]
    rows = outcome["results"]
    assert [r["seat"] for r in rows] == list(range(len(table.players)))
    assert [r["name"] for r in rows] == [p.name for p in table.players]
    assert [r["won"] for r in rows] == [s["alignment"] == winner for s in state["seats"]]
    assert [r["stats"]["alive"] for r in rows] == [float(s["alive"]) for s in state["seats"]]
    assert table.st.ok("GET", f"{table.gpath}/result") == body
    # everyone, players and spectators alike, now sees the whole grimoire and the storyteller's log (and,
    # in reports, every line; read by every seat at most 8 players, by three seats in bigger games)
    full_log = [e["text"] for e in state["log"]]
    n = len(table.players)
    readers = set(range(n)) if n <= 8 else {0, n // 2, n - 1}  # views too
    undone = any(kind == "undo" for kind, _, _ in table.history)
    for k, who in enumerate([*table.players, Player(table.api, "散场观众")]):
        if k not in readers and k != n:
            continue
        view = who.ok("GET", table.gpath)
        g = view["game"]
        assert view["pending"] is None and view["room"]["status"] == "finished"
        assert view["room"]["seed"] == stored.seed.hex()
        assert g["phase"] == "over" and g["winner"] == winner and g["end_reason"] == reason
        assert [(s["role"], s["alignment"], s["alive"]) for s in g["grimoire"]["seats"]] == [
            (s["role"], s["alignment"], s["alive"]) for s in state["seats"]
        ]
        assert [e["text"] for e in g["log"]] == book(state)
        if not undone:  # an undone press stays in the reports, not the log
            lines = [line["text"] for rep in table.reports(who) for line in rep["lines"]]
            assert lines == full_log
    game_over = [e for e in state["log"] if e["kind"] == "game_over"]
    assert [(e["winner"], e["reason"]) for e in game_over] == [(winner, reason)]
    check_replay(table)
    return outcome


def check_replay(table: Table) -> None:
    """The replay: every transition as it happened (presses, hands, clocks, admissions, undos) and the
    seed recompute the stored final state exactly."""
    stored = table.stored()
    replay = table.players[-1].ok("GET", f"{table.gpath}/replay")  # admissions included: in the contract
    assert replay["game"] == "zhenhuan" and replay["seed"] == stored.seed.hex()
    game = get_game("zhenhuan")
    adapter = game.action_adapter

    def logged(kind: str, actor: dict | None, action: dict | None) -> tuple:
        if kind == "apply":
            action = adapter.dump_python(adapter.validate_python(action), mode="json")
        elif kind == "admit":
            action = game.admit_model.model_validate(action).model_dump(mode="json")
        return kind, actor, action

    sent = [logged(*entry) for entry in table.history]
    got = [(e["kind"], e["actor"], e["action"]["details"] if e["kind"] == "admit" else e["action"])
           for e in replay["log"][1:]]
    assert got == sent
    assert recompute(replay).model_dump(mode="json") == stored.state


# ---- whole games ---------------------------------------------------------------------------------

ROLES_A = ["huangshang", "anlingrong", "zhenhuan", "jinxi", "guojunwang", "wentaiyi", "yurao"]


def test_seven_players_good_wins_when_the_demon_is_executed(api, svc):
    """Seed: 7人及以上，爪牙和恶魔互知，恶魔知道三个不在场的角色.
    Seed 胜利目标: 当恶魔死亡且无法立刻产生新的恶魔时，游戏结束，好人胜利.
    DECISIONS #4: Dead players keep one ghost vote. DECISIONS #5: Poisoned or drunk abilities silently
    fail; the app still shows the storyteller the true answer, flags that the player is impaired, and
    lets the storyteller give any answer. DECISIONS #7: night order (docs/rules/zhenhuan.md §5).
    DECISIONS #9: a player killed during the night is dead at once; the board changes only at dawn."""
    t = Table.open(api, svc, 7, SEED_A)
    watch = watched(t, api, rotate=1)  # a seat in turn after each action, all seven at every phase change
    t.deal(ROLES_A, bluffs=["jingfei", "sanage", "taihou"])
    grim = t.grim()
    assert grim["composition_issues"] == [] and grim["bluffs"] == ["jingfei", "sanage", "taihou"]
    assert grim["composition"] == {"townsfolk": 5, "outsiders": 0, "minions": 1, "demons": 1, "travellers": 0}
    t.begin()
    # everyone is shown 「你是」 at begin: her role and alignment, nobody else's
    assert [(t.me(s)["role"], t.me(s)["alignment"]) for s in (0, 3)] == [("huangshang", "evil"), ("jinxi", "good")]

    # night 1: the documented order, restricted to the roles in play
    night = t.grim()["night"]
    assert [s["key"] for s in night["steps"]] == expected_order(
        1,
        {"minion_info", "demon_info", "anlingrong", "guojunwang", "huangshang", "yurao", "jinxi", "wentaiyi"},
    )
    cur = night["current"]
    assert cur["key"] == "minion_info" and cur["hint"] == "恶魔：1号；爪牙：2号"
    walked = t.night(
        {
            "anlingrong": [3, None],  # 香粉: 瑾汐 (4号) poisoned until the next dusk
            "guojunwang": [2],
            "yurao": [4],  # 玉娆 is shown 果郡王 and linked to him
            "jinxi": {"targets": [0, 3], "answer": False},  # poisoned: the storyteller tells her "no"
            "wentaiyi": [3],
        }
    )
    assert [k for k, _ in walked] == [s["key"] for s in night["steps"]]
    # minion and demon learn each other from their own views; the demon learns the three bluffs
    assert infos(t.me(1)) == [("minion_info", [0])]
    demon = t.me(0)
    assert infos(demon) == [("demon_info", [1])]
    assert all(name in demon["info"][-1]["text"] for name in ("敬妃", "三阿哥", "太后"))
    assert infos(t.me(6)) == [("yurao", {"seat": 4, "role": "guojunwang"})]
    assert infos(t.me(3)) == [("jinxi", False)]
    assert infos(t.me(5)) == [("wentaiyi", True)]
    host_lines = [e["text"] for e in t.host_view()["game"]["log"] if e["kind"] == "host"]
    assert (
        "第1夜「瑾汐姑姑：选择两名玩家，得知其中是否有恶魔」4号；告知：1号与4号之中没有恶魔（真实：1号与4号之中有恶魔）（中毒或醉酒）"
        in host_lines
    )
    day = t.view(2)["game"]
    assert day["phase"] == "day" and day["number"] == 1 and day["log"][-1]["text"] == "昨夜平安"

    # day 1: 「醉酒」 on 温太医; a nomination short of the threshold
    t.do({"type": "drunk", "seat": 5})
    t.nominate(3, 1, votes=[2, 3, 4])
    board = t.view(0)["game"]["day"]
    assert board["nominations"] == [
        {"nominator": 3, "nominee": 1, "exile": False, "voters": [2, 3, 4], "count": 3, "threshold": 4}
    ]
    assert board["threshold"] == 4 and board["block"] is None
    t.dusk()

    # night 2: curse, protection, the demon kills 玉娆's link, 玉娆 follows; 温太医 drunk is flagged
    night = t.grim()["night"]
    assert [s["key"] for s in night["steps"]] == expected_order(
        2, {"anlingrong", "guojunwang", "huangshang", "zhenhuan", "yurao", "jinxi", "wentaiyi"}
    )
    walked = t.night(
        {
            "anlingrong": [None, 5],
            "guojunwang": [3],
            "huangshang": [4, None],
            "yurao": [],
            "jinxi": [0, 1],
            "wentaiyi": {"targets": [3], "answer": True},
        },
        dawn=False,
    )
    assert dict(walked)["zhenhuan"] == "今晚未被皇上或皇后所化女皇杀死"
    grim = t.grim()
    assert {s["seat"]: s["died_tonight"] for s in grim["seats"] if s["died_tonight"]} == {
        4: ["demon"],
        6: ["yurao"],
    }
    assert [(d["seat"], d["cause"]) for d in grim["night"]["deaths"]] == [(4, "demon"), (6, "yurao")]
    assert [s["alive"] for s in grim["seats"]] == [True, True, True, True, False, True, False]  # dead at once
    records = {r["step"]: r for r in grim["night"]["records"]}
    assert records["wentaiyi"]["impaired"] and records["wentaiyi"]["truth"] is False
    assert records["wentaiyi"]["given"] is True
    assert records["jinxi"]["truth"] is True and records["jinxi"]["impaired"] is False
    # the night's deaths are not public before dawn
    assert [s["alive"] for s in t.view(0)["game"]["seats"]] == [True] * 7
    t.do({"type": "dawn"})
    seen = t.view(3)["game"]
    assert seen["log"][-1]["deaths"] == [4, 6] and seen["log"][-1]["text"] == "昨夜死亡：5号、7号"
    assert [s["alive"] for s in seen["seats"]] == [True, True, True, True, False, True, False]
    assert [s["ghost_vote"] for s in seen["seats"]] == [False, False, False, False, True, False, True]

    # day 2: the dead spend their ghost votes putting the demon on the block; 处决, then 确认结束
    t.nominate(3, 0, votes=[2, 3, 5, 4, 6])
    t.nominate(2, 1, votes=[2])
    board = t.view(1)["game"]
    assert board["day"]["block"] == 0 and board["day"]["block_votes"] == 5 and board["day"]["threshold"] == 3
    assert board["day"]["nominations"][0]["voters"] == [2, 3, 4, 5, 6]  # circle order from the nominee's left
    assert [s["ghost_vote"] for s in board["seats"]] == [False] * 7
    r = t.send({"type": "vote", "votes": [4]})
    assert error(r) == (422, "NO_OPEN_NOMINATION")
    t.do({"type": "execute", "seat": 0})
    outcome = confirm(t, "good", GOOD_WINS)
    assert [r["won"] for r in outcome["results"]] == [False, False, True, True, True, True, True]
    assert watch.checks == len(t.history) + 1 and watch.full_checks >= 6 and watch.probes >= watch.checks // 4
    assert watch.lines_read > 7 * 10
    told = [e["seat"] for e in t.stored().state["log"] if e["kind"] == "info"]
    assert {s: told.count(s) for s in range(7)} == {0: 1, 1: 1, 2: 0, 3: 2, 4: 0, 5: 2, 6: 1}


def test_five_players_evil_wins_with_two_alive_and_the_demon_among_them(api, svc):
    """Seed: 5-6人游戏时，爪牙和恶魔不知道对方是谁.
    Seed 胜利目标: 当场上仅有两名玩家存活时，若恶魔依然存活，则坏人胜利.
    Seed 华妃: 发起提名后，玩家不会自动死亡，需要说书人手动使用白天「死亡」按钮操作.
    DECISIONS #4: threshold ⌈living/2⌉ … at most one execution a day."""
    t = Table.open(api, svc, 5, SEED_B)
    watch = watched(t, api, rotate=1)
    t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
    t.begin()
    walked = t.night({"huafei": [0]})
    assert [k for k, _ in walked] == ["huafei", "huangshang", "jingfei"]  # no minion_info / demon_info
    # from their own views: the demon and the minion learn nothing of each other
    assert infos(t.me(1)) == [] and infos(t.me(3)) == []
    assert [i["kind"] for i in t.me(1)["info"]] == ["you_are"]
    assert (t.me(1)["role"], t.me(3)["role"]) == ("huangshang", "huafei")
    assert infos(t.me(0)) == [("jingfei", 3)]  # 敬妃, 华妃, 太后

    # day 1: the marked 敬妃 nominates → reminder; the storyteller presses 「死亡」; the block; 入夜 executes
    t.nominate(0, 3, votes=[0, 2])
    grim = t.grim()
    assert grim["alerts"] == [{"text": "一丈红：1号发起了提名，应死亡（请按「死亡」）", "seat": 0, "press": "kill"}]
    assert [(r["token"], r["role"], r["auto"]) for r in grim["seats"][0]["reminders"]] == [("一丈红", "huafei", True)]
    t.do({"type": "kill", "seat": 0})
    spectator = watch.spectator.ok("GET", t.gpath)["game"]
    assert spectator["log"][-1] == {"text": "1号死亡", "kind": "death", "seat": 0, "alive": False}
    # the spectator's board: seats alive/dead with ghost votes, today's nominations, votes and block
    assert (spectator["viewer"], spectator["me"], spectator["grimoire"]) == ("spectator", None, None)
    assert set(spectator["seats"][0]) == {"seat", "name", "alive", "ghost_vote", "traveller", "traveller_ability",
                                          "departed"}
    assert set(spectator["day"]) == {"number", "nominations", "vote", "block", "block_votes", "threshold",
                                     "exile_threshold", "executed"}
    assert spectator["day"]["nominations"] == [
        {"nominator": 0, "nominee": 3, "exile": False, "voters": [0, 2], "count": 2, "threshold": 3}
    ]
    assert [(s["alive"], s["ghost_vote"]) for s in spectator["seats"]][:2] == [(False, True), (True, False)]
    assert {e["kind"] for e in spectator["log"]} == {"phase", "announce", "nomination", "vote", "death"}
    t.nominate(4, 2, votes=[1, 3, 4])
    day = t.view(4)["game"]["day"]
    assert (day["threshold"], day["block"], day["block_votes"]) == (2, 2, 3)
    t.dusk()
    log = t.view(1)["game"]["log"]
    executed = next(e for e in log if e["kind"] == "execution")
    assert executed == {"text": "3号被处决", "kind": "execution", "seat": 2, "died": True, "exile": False}
    assert [s["alive"] for s in t.view(1)["game"]["seats"]] == [False, True, False, True, True]

    # night 2: the demon kills 太后; at dawn two are left, the demon among them: evil's win is proposed
    walked = t.night({"huangshang": [4, None]})
    assert [k for k, _ in walked] == ["huafei", "huangshang"]
    confirm(t, "evil", EVIL_WINS)
    assert [s["alive"] for s in t.view(0)["game"]["seats"]] == [False, True, False, True, False]


def test_longyue_executed_her_team_loses(api, svc):
    """Seed 胧月: 若你因处决而死，则你所在阵营失败. Seed 太后: 在一名玩家提名投票后不论票数，发起强制处决.
    Seed 祺贵人: 猜对则夜晚随机死一个人. DECISIONS #3: 纯元皇后: when she is first nominated and the
    nominator is a 村民, the nominator is executed."""
    t = Table.open(api, svc, 6, SEED_C)
    t.deal(["longyue", "huangshang", "qiguiren", "anlingrong", "chunyuan", "taihou"])
    assert t.grim()["composition_issues"] == []
    t.begin()
    assert [k for k, _ in t.night({"anlingrong": [0, None]})] == ["anlingrong", "huangshang"]

    # day 1: 祺贵人 accuses rightly, then nominates 纯元皇后 and is executed for it
    t.do({"type": "accuse", "by": 2, "target": 1, "role": "huangshang"})
    t.nominate(2, 4, votes=[])
    grim = t.grim()
    assert grim["accusations"] == [
        {"by": 2, "target": 1, "role": "huangshang", "correct": True, "effective": True}
    ]
    assert grim["proposals"] == [{"seat": 2, "reason": "纯元皇后首次被提名，提名者是村民"}]
    buttons = {(b["type"], b["by"]): b for b in grim["buttons"]}
    assert buttons[("force_execution", 5)]["disabled"] is None  # after a vote, whatever the count
    assert buttons[("accuse", 2)]["disabled"] == "今天已用过"
    t.do({"type": "execute", "seat": 2})
    assert error(t.send({"type": "nominate", "nominator": 5, "nominee": 0})) == (422, "ALREADY_EXECUTED")
    t.dusk()

    # night 2 opens with 祺贵人's step: a random player is suggested, the storyteller picks who dies
    cur = t.grim()["night"]["current"]
    assert cur["key"] == "qiguiren" and cur["hint"].startswith("随机抽中：")
    drawn = int(cur["hint"].removeprefix("随机抽中：").removesuffix("号")) - 1
    assert drawn in (0, 1, 3, 4, 5)  # a living player, not 祺贵人 (seeded: the same every run)
    walked = t.night({"qiguiren": [4]})
    assert [k for k, _ in walked] == ["qiguiren", "anlingrong", "huangshang"]
    announce = t.view(0)["game"]["log"][-1]
    assert announce["kind"] == "announce" and announce["deaths"] == [4]

    # day 2: 太后 nominates 胧月, one hand; she forces the execution; 胧月 executed: good loses
    t.nominate(5, 0, votes=[5])
    assert t.view(5)["game"]["day"]["block"] is None
    t.do({"type": "force_execution", "by": 5, "nominee": 0})
    assert t.grim()["proposals"] == [{"seat": 0, "reason": "太后强制处决"}]
    t.do({"type": "execute", "seat": 0})
    assert t.grim()["proposals"] == []  # carried out: the banner no longer offers 处决
    outcome = confirm(t, "evil", "胧月被处决，善良阵营失败")
    assert [r["won"] for r in outcome["results"]] == [False, True, False, True, False, False]


ROLES_D = ["huangshang", "huanghou", "zhenhuan", "guojunwang", "sanage", "yelanyi", "niangengyao", "kuangtu"]


def test_storyteller_names_the_winner_after_a_counter_kill_revival_and_a_take(api, svc):
    """DECISIONS #6: The storyteller is the authority: every automatic step (death, status, win) can be
    overridden. DECISIONS #12: a met win is only proposed; her own word (declare_winner) replaces it and
    is proposed the same way; 「确认结束」 ends the game.
    Seed 甄嬛: 当你在夜晚被皇上皇后杀死, 你可以反杀成女皇. Seed 叶澜依: 夜晚祝福一名死亡玩家，白天该玩家复活.
    Seed 年羹尧: 当你晚上死亡时，当晚可以带走一名玩家. Seed 狂徒: 随时可能死亡。由说书人决定.
    Seed 三阿哥: 染指成功/失败 told after his choice."""
    t = Table.open(api, svc, 8, SEED_D)
    # a seat in turn after each action, all eight at every dawn; no probes (the phone tests probe)
    watched(t, api, rotate=1, full_on=("begin", "dawn", "confirm_end"), probe_every=0)
    t.deal(ROLES_D, bluffs=["jinxi", "wentaiyi", "jingfei"])
    t.begin()
    walked = t.night({"guojunwang": [5]})
    assert [k for k, _ in walked] == ["minion_info", "demon_info", "guojunwang", "huangshang", "niangengyao"]
    assert infos(t.me(1)) == [("minion_info", [0])]
    assert infos(t.me(0)) == [("demon_info", [1])]

    t.do({"type": "kill", "seat": 7})  # 狂徒 dies at the storyteller's word
    t.nominate(4, 6, votes=[4])
    t.dusk()

    # night 2: 皇上 kills 甄嬛, she counter-kills; 三阿哥 touches 叶澜依; 叶澜依 blesses the dead 狂徒
    night = t.grim()["night"]
    assert [s["key"] for s in night["steps"]] == expected_order(
        2, {"guojunwang", "huanghou", "huangshang", "zhenhuan", "sanage", "yelanyi", "niangengyao"}
    )
    walked = dict(
        t.night({"guojunwang": [6], "huangshang": [2, None], "zhenhuan": [], "sanage": [5], "yelanyi": [7]})
    )
    assert walked["huanghou"] == "不能变为女皇：皇上仍在世" and walked["niangengyao"] == "今晚未死亡"
    assert infos(t.me(4)) == [("sanage", True)]
    announce = t.view(3)["game"]["log"][-1]
    assert (announce["deaths"], announce["revived"]) == ([0], [7])
    assert announce["text"] == "昨夜死亡：1号；8号复活"
    mine = t.me(2)
    assert (mine["role"], mine["alignment"]) == ("nvhuang", "evil")
    assert mine["info"][-1]["kind"] == "you_are" and mine["info"][-1]["role"] == "nvhuang"
    assert t.stored().state["empress_ever"] is True
    assert t.grim()["seats"][1]["role"] == "huanghou"  # 甄嬛 takes the throne, not 皇后
    t.dusk()

    # night 3: the new 女皇 kills 年羹尧, who takes 皇后 with him
    walked = dict(t.night({"guojunwang": [5], "nvhuang": [6], "sanage": [3], "niangengyao": [1]}))
    assert walked["yelanyi"] == "技能已用过" and "zhenhuan" not in walked
    assert infos(t.me(4)) == [("sanage", True), ("sanage", False)]
    assert t.view(5)["game"]["log"][-1]["deaths"] == [1, 6]

    # day 3: the 女皇 is executed; the good win is only proposed; the storyteller gives her own word
    t.nominate(3, 2, votes=[3, 4, 5, 7])
    t.do({"type": "execute", "seat": 2})
    assert t.stored().status.value == "active"
    assert t.grim()["end"] == {"winner": "good", "reason": GOOD_WINS, "declared": False}
    assert t.view(3)["game"]["grimoire"] is None and t.view(3)["game"]["winner"] is None
    t.do({"type": "declare_winner", "winner": "good", "reason": "说书人宣布善良阵营获胜"})
    outcome = confirm(t, "good", "说书人宣布善良阵营获胜", declared=True)
    assert [r["won"] for r in outcome["results"]] == [False, False, False, True, True, True, True, True]
    host = [e for e in t.stored().state["log"] if e["kind"] == "host" and e["override"]]
    assert host[-1]["text"] == "说书人宣布：善良阵营获胜（说书人宣布善良阵营获胜）"


# ---- a long 20-player game: state size -----------------------------------------------------------

DEMON_STEPS = ("huangshang", "taishanghuang", "nvhuang")
BUSY_20 = [
    "jinxi", "huangshang", "wentaiyi", "anlingrong", "zhenhuan", "sanage", "huafei", "guojunwang", "qiguiren",
    "huanghou", "yurao", "qifei", "niangengyao", "dunqinwang", "jingfei", *["traveller"] * 5,
]  # fmt: skip
TRAVELLERS = [
    ("江湖郎中", "good", False),
    ("西域商人", "evil", False),
    ("戏班名角", "good", True),
    ("游方道士", "good", False),
    ("宫外绣娘", "evil", True),
]


def auto_night_step(cur: dict, number: int, demons: set[int], dead: list[int]) -> object:
    """A storyteller who uses every ability without ending the game early: the demon kills on even
    nights only and never himself; nobody is cursed, taken or counter-killed; 叶澜依 blesses a dead
    non-demon; every other slot gets a player in rotation (demons avoided where possible)."""
    key, slots = cur["key"], cur["slots"]
    if key in ("zhenhuan", "yurao", "niangengyao", "sundaying"):
        return "skip"
    picks: list[int | None] = []
    for i, slot in enumerate(slots):
        allowed = [s for s in slot["allowed"] if s not in demons] or slot["allowed"]
        pick = allowed[(number * 3 + i * 5) % len(allowed)] if allowed else None
        while pick in picks and len(allowed) > 1:
            pick = allowed[(allowed.index(pick) + 1) % len(allowed)]
        picks.append(pick)
    if key in DEMON_STEPS:
        picks = [picks[0] if number % 2 == 0 else None] + [None] * (len(slots) - 1)
    if key == "anlingrong":
        picks = [picks[0], None]
    if key == "yelanyi":
        blessable = [s for s in dead if s in slots[0]["allowed"] and s not in demons]
        if not blessable:
            return "skip"
        picks = [blessable[0]]
    if any(p is None for p, s in zip(picks, slots, strict=True) if not s["optional"]):
        return "skip"
    return picks


def replayed_states(replay: dict) -> list[dict]:
    """The state after every transition of a replay (the same fold as `recompute`, keeping each)."""
    from chalicelib.domain.model import LogKind, LogRecord
    from chalicelib.rooms.history import effective, fold, replay_one

    game = get_game("zhenhuan")
    seed = bytes.fromhex(replay["seed"])
    logs = [LogRecord(step=e["step"], kind=LogKind(e["kind"]), label=e["label"], actor=e["actor"],
                      action=e["setup"] if e["kind"] == "setup" else e["action"], moves=e["moves"],
                      at_ms=e["at_ms"], ply=e["ply"], undoes=e["undoes"]) for e in replay["log"]]
    history = effective(logs)
    state = fold(game, seed, history[:1])
    out = [state.model_dump(mode="json")]
    for log in history[1:]:
        state = replay_one(game, state, log, seed)
        out.append(state.model_dump(mode="json"))
    return out


@pytest.mark.slow
def test_twenty_players_many_days_and_nights_state_stays_small(api, svc):
    """Seed: 5~20 位玩家; 旅行者：人数超过 15 人 … 具体身份由玩家自行选择，具体阵营所属由说书人根据场上局势进行分配.
    DECISIONS #2: above 15 players the extra seats are travellers, whose identity the player picks and
    whose alignment the storyteller sets. DynamoDB's 400 KB item limit holds over a long game.
    Lobby: a full room (20 seats) refuses a 21st player and the storyteller cannot take a seat.
    Two nights by default; SOAK_FULL=1 plays eight (the long game whose state size is measured)."""
    t = Table.open(api, svc, 20, SEED_LONG, start=False)
    before = t.stored()
    late = Player(api, "迟到宾客")
    r = late.post(f"{t.path}/join")
    assert error(r) == (409, "ROOM_FULL") and t.stored() == before
    assert error(t.st.post(f"{t.path}/join")) == (409, "HOST_CANNOT_SIT") and t.stored() == before
    t.start()
    grim = t.grim()
    assert grim["composition"]["travellers"] == 5 and grim["composition_issues"] == []
    assert [s["role"] for s in grim["seats"][15:]] == ["traveller"] * 5
    # 重抽 redraws from the seeded generator, still by the table; the travellers stay on the last seats
    proposed = [s["role"] for s in grim["seats"]]
    t.do({"type": "reroll"})
    grim = t.grim()
    assert [s["role"] for s in grim["seats"]] != proposed and grim["composition_issues"] == []
    assert [s["role"] for s in grim["seats"][15:]] == ["traveller"] * 5 and len(grim["bluffs"]) == 3
    # then hand-picks a busy game: the information roles, the night-acting minions, 齐妃 and 敦亲王
    t.deal(BUSY_20, bluffs=["chunyuan", "taihou", "yelanyi"])
    assert t.grim()["composition_issues"] == []
    for k, (identity, alignment, female) in enumerate(TRAVELLERS):
        t.do(
            {
                "type": "set_traveller",
                "seat": 15 + k,
                "identity": identity,
                "alignment": alignment,
                "female": female,
            }
        )
    t.begin()
    # the travellers' identities are public, their alignments secret
    board = t.view(0)["game"]["seats"]
    assert [s["traveller"] for s in board[15:]] == [x[0] for x in TRAVELLERS]
    assert [t.me(15 + k)["alignment"] for k in range(5)] == [x[1] for x in TRAVELLERS]

    nights = LONG_NIGHTS
    started = time.perf_counter()
    for day_no in range(1, nights + 1):
        while (cur := (grim := t.grim())["night"]["current"]) is not None:
            demons = {s["seat"] for s in grim["seats"] if s["team"] == "demon"}
            dead = [s["seat"] for s in grim["seats"] if not s["alive"]]
            picks = "skip" if cur["disabled"] else auto_night_step(cur, day_no, demons, dead)
            if cur["disabled"] is not None:
                t.do({"type": "night_step", "step": cur["key"]})
            elif picks == "skip":
                t.do({"type": "night_step", "step": cur["key"], "skip": True})
            else:
                t.do({"type": "night_step", "step": cur["key"], "targets": picks})
        t.do({"type": "dawn"})
        grim = t.grim()
        demons = {s["seat"] for s in grim["seats"] if s["team"] == "demon"}
        living = [s["seat"] for s in grim["seats"] if s["alive"]]
        voters = [s["seat"] for s in grim["seats"] if s["alive"] or s["ghost_vote"]]
        # 齐妃 and 敦亲王 use their day abilities, never the same target twice running
        for b in grim["buttons"]:
            if b["type"] in ("silence", "toast") and b["disabled"] is None:
                others = [s for s in living if s != b["by"]]
                t.do({"type": b["type"], "by": b["by"], "target": others[day_no % len(others)]})
        t.do({"type": "drunk", "seat": living[day_no % len(living)]})
        candidates = [s for s in living if s not in demons]
        for k in range(3):  # on odd days the first nominee goes to the block with every hand raised
            hands = voters if (k == 0 and day_no % 2 == 1) else voters[: k + 1]
            t.nominate(candidates[k], candidates[-1 - k], votes=hands)
            voters = [v for v in voters if v in living or v not in hands]  # ghost votes are spent
        t.dusk()
    elapsed = time.perf_counter() - started
    days = t.stored().state["night_no"]
    actions = [a for _, _, a in t.history]
    assert {"silence", "toast", "drunk", "nominate", "vote", "dusk", "dawn"} <= {a["type"] for a in actions}
    # the privacy check once more with twenty seats and five travellers of secret alignment, every
    # report each of them got so far included
    watch = LeakWatch(t, Player(api, "路人观战"))
    watch.check()
    watch.check_reports(seats=(0, 9, 15, 19))
    assert watch.lines_read > 4 * days
    if t.grim()["end"] is None:
        t.do({"type": "declare_winner", "winner": "evil", "reason": "说书人宣布邪恶阵营获胜"})
    end = t.grim()["end"]
    outcome = confirm(t, end["winner"], end["reason"], declared=end["declared"])
    # every state the room stored along the way: the replay recomputes each of them (and the last one
    # equals the stored final state exactly, see finish_checks), so measure them all
    replay = t.st.ok("GET", f"{t.gpath}/replay")
    sizes = [(len(json.dumps(s)), len(pack_json(s))) for s in replayed_states(replay)]
    assert sizes[-1] == (len(json.dumps(t.stored().state)), len(pack_json(t.stored().state)))
    largest, packed = max(s[0] for s in sizes), max(s[1] for s in sizes)
    item = len(pack_json(t.stored().model_dump(mode="json", exclude={"state"}))) + sizes[-1][1]
    print(
        f"\n20 players, {days} nights, {len(actions)} actions, {len(t.stored().state['log'])} events "
        f"in {elapsed:.1f}s: largest state {largest} B as json.dumps, {packed} B packed (pack_json); "
        f"room item about {item} B"
    )
    assert days >= nights and len(actions) > 20 * nights
    assert largest < DYNAMODB_ITEM_LIMIT // 4 and packed < DYNAMODB_ITEM_LIMIT // 40
    assert len(outcome["results"]) == 20


# ---- lobby and bad input -------------------------------------------------------------------------


def test_start_needs_five_and_the_storyteller_never_sits(api, svc):
    """Seed 角色分发: 游戏开始需要1名说书人; 5~20 位玩家. The storyteller hosts and does not sit (host_runs)."""
    t = Table.open(api, svc, 4, SEED_BAD, start=False)
    before = t.stored()
    r = t.st.post(f"{t.path}/start")
    assert error(r) == (409, "NOT_ENOUGH_PLAYERS") and "5" in r.json_body["message"]
    assert t.stored() == before and t.st.ok("GET", t.path)["room"]["status"] == "open"
    r = t.st.post(f"{t.path}/join")
    assert error(r) == (409, "HOST_CANNOT_SIT") and t.stored() == before
    assert error(t.players[1].post(f"{t.path}/start")) == (403, "NOT_CREATOR") and t.stored() == before
    assert error(t.send({"type": "begin"})) == (409, "NOT_STARTED") and t.stored() == before
    fifth = Player(api, NAMES[4])
    fifth.ok("POST", f"{t.path}/join")
    t.players.append(fifth)
    body = t.start()
    assert [s["name"] for s in body["room"]["seats"]] == NAMES[:5] and body["viewer"]["role"] == "host"
    grim = t.grim()
    teams = [s["team"] for s in grim["seats"]]
    modifiers = sum(s["role"] in ("supeisheng", "taishanghuang") for s in grim["seats"])
    assert grim["composition"] == {
        "townsfolk": 3 - modifiers,
        "outsiders": modifiers,
        "minions": 1,
        "demons": 1,
        "travellers": 0,
    }
    assert (
        sorted(teams)
        == sorted(["townsfolk"] * (3 - modifiers) + ["outsider"] * modifiers + ["minion", "demon"])
        and grim["composition_issues"] == []
    )
    assert error(t.st.post(f"{t.path}/join")) == (409, "HOST_CANNOT_SIT")
    # before 开始 (begin) nobody is told anything; the 司礼 (admin) sees as the storyteller does
    assert t.me(0) == {"seat": 0, "role": None, "role_name": None, "ability": None, "alignment": None, "info": []}
    admin = Player(api, "司礼")
    assert admin.ok("GET", t.gpath)["game"] == t.host_view()["game"]
    assert admin.ok("GET", t.gpath)["viewer"] == {"role": "host", "seat": None}


def test_bad_input_leaves_the_room_unchanged(api, svc):
    """DECISIONS #6: The storyteller is the authority — only she acts; players only look.
    Platform: a stale step is refused (STALE_STEP) unless it is the very action already applied (a
    phone retry); nothing is played after the end (GAME_OVER); nobody joins a started room."""
    t = Table.open(api, svc, 5, SEED_BAD)
    t.deal(["huangshang", "huafei", "zhenhuan", "jinxi", "wentaiyi"])
    watcher = Player(api, "路人")

    def refused(response, expected: tuple[int, str]) -> None:
        before = t.stored()
        assert error(response) == expected, response.body
        assert t.stored() == before

    # players and spectators cannot press the storyteller's buttons
    before = t.stored()
    for action in ({"type": "begin"}, {"type": "reroll"}, {"type": "assign", "seat": 0, "role": "jinxi"}):
        assert error(t.send(action, who=t.players[0])) == (403, "STORYTELLER_ONLY")
        assert error(t.send(action, who=watcher)) == (403, "NOT_IN_ROOM")
    assert t.stored() == before
    # malformed actions, bodies and engine-illegal ones
    for action in (
        {"type": "no_such_button"},
        {"type": "assign", "seat": "一", "role": "jinxi"},
        {"type": "assign", "seat": 0},
        {"type": "begin", "extra": 1},
        {"seat": 0},
        {"type": "night_step", "step": "jinxi", "answer": "是"},
    ):
        r = t.send(action)
        assert error(r) == (422, "BAD_ACTION") and r.json_body["details"]["errors"], action
    r = t.st.post(f"{t.gpath}/actions", {"action": {"type": "begin"}})  # the storyteller sends her step
    assert error(r) == (422, "VALIDATION_FAILED")
    r = t.st.post(f"{t.gpath}/actions", "{not json")
    assert error(r) == (400, "MALFORMED_JSON")
    refused(t.send({"type": "dawn"}), (422, "NOT_BEGUN"))
    refused(t.send({"type": "nominate", "nominator": 0, "nominee": 1}, who=t.players[0]), (422, "NOT_BEGUN"))
    refused(t.send({"type": "assign", "seat": 5, "role": "jinxi"}), (422, "NO_SUCH_SEAT"))
    refused(t.send({"type": "assign", "seat": 1, "role": "nvhuang"}), (422, "ROLE_NOT_DEALT"))
    assert t.stored() == before

    # a stale step: refused, unless it repeats the very action applied at that step (a retry)
    step = t.step
    t.begin()
    refused(t.send({"type": "reroll"}, step=step), (409, "STALE_STEP"))
    assert t.send({"type": "reroll"}, step=step).json_body["details"]["current_step"] == t.step
    refused(t.send({"type": "reroll"}, step=t.step + 1), (409, "STEP_AHEAD"))
    retry = t.send({"type": "begin"}, step=step)
    ack = {k: v for k, v in retry.json_body.items() if k not in ("view", "view_etag")}
    assert retry.status_code == 200 and ack == {
        "accepted": True,
        "settled": False,
        "step": step,
        "current_step": t.step,
        "version": t.stored().version,
        "status": "active",
    }
    assert retry.json_body["view"]["room"]["step"] == t.step  # the retry answers with the room as it is now
    refused(t.send({"type": "begin"}), (422, "SETUP_LOCKED"))
    refused(t.send({"type": "night_step", "step": "wentaiyi", "targets": [0]}), (422, "STEP_MISMATCH"))
    refused(t.send({"type": "nominate", "nominator": 0, "nominee": 1}), (422, "NOT_DAY"))
    assert t.grim()["night"]["current"]["key"] == "huafei"
    refused(t.send({"type": "night_step", "step": "huafei", "targets": [7]}), (422, "TARGET_NOT_ALLOWED"))
    refused(
        t.send({"type": "night_step", "step": "huafei", "targets": [0], "answer": True}),
        (422, "NO_ANSWER_HERE"),
    )
    refused(
        t.send({"type": "night_step", "step": "huafei", "targets": [1]}, who=t.players[1]),
        (403, "STORYTELLER_ONLY"),
    )
    # joining the running room only asks the storyteller (a traveller, by day): nothing changes in the game
    late, game = Player(api, "迟来者"), t.stored().state
    assert late.ok("POST", f"{t.path}/join")["viewer"] == {"role": "spectator", "seat": None}
    assert t.stored().state == game and [r.name for r in t.stored().requests] == ["迟来者"]
    assert error(t.send({"type": "nominate", "nominator": 0, "nominee": 1}, who=late)) == (403, "NOT_IN_ROOM")
    refused(t.send({"type": "confirm_end"}), (422, "NO_PROPOSED_END"))

    # the storyteller ends it; afterwards every action is refused with GAME_OVER
    t.do({"type": "declare_winner", "winner": "evil", "reason": "说书人宣布邪恶阵营获胜"})
    confirm(t, "evil", "说书人宣布邪恶阵营获胜", declared=True)
    for action in ({"type": "dawn"}, {"type": "declare_winner", "winner": "good"}, {"type": "no_such"}):
        refused(t.send(action), (409, "GAME_OVER"))
        refused(t.send(action, who=t.players[0]), (409, "GAME_OVER"))
    refused(t.send({"type": "dawn"}, step=2), (409, "GAME_OVER"))
    refused(Player(api, "散场后").post(f"{t.path}/join"), (409, "ROOM_NOT_OPEN"))


# ---- what players may not learn -------------------------------------------------------------------


def test_storyteller_night_revival_is_shown_and_announced_at_dawn(api, svc):
    """Seed 叶澜依: 天亮会告知几号玩家复活. Rules §5 天亮: the public board shows night changes of life at
    dawn, and the announcement lists who died and who came back. DECISIONS #6: every override is logged —
    and a storyteller's night revival should reach the players the same way, at dawn."""
    t = Table.open(api, svc, 5, SEED_BAD)
    t.deal(["huangshang", "huafei", "zhenhuan", "jinxi", "wentaiyi"])
    t.begin()
    t.night()
    t.do({"type": "kill", "seat": 3})
    t.dusk()
    spectator = Player(api, "夜里观战")
    assert [s["alive"] for s in spectator.ok("GET", t.gpath)["game"]["seats"]] == [True, True, True, False, True]
    t.do({"type": "set_alive", "seat": 3, "alive": True})
    night_board = spectator.ok("GET", t.gpath)["game"]
    t.do({"type": "dawn"})
    announce = spectator.ok("GET", t.gpath)["game"]["log"][-1]
    assert announce["kind"] == "announce"
    # wanted: still dead on the public board until dawn, then announced as revived
    assert ([s["alive"] for s in night_board["seats"]], announce["revived"]) == (
        [True, True, True, False, True],
        [3],
    )


def test_players_cannot_count_the_nights_steps(api, svc):
    """Rules §14 (Views and privacy, decision): how many steps the storyteller takes at night depends on
    the roles in play, so the count itself is hidden. Two 5-player games with the same public history
    (the storyteller walks the first night, nobody acts, nobody dies) differ only in the minion: 华妃
    (who wakes on the first night) or 皇后 (who does not). 1号 (敬妃 in both) cannot tell which game she
    is in: no step or version in her view or her answers, no empty reports, and her view (and so its
    ETag: 304 while nothing she may see changed) changes only when something she may see changes."""
    seen = []
    for minion in ("huafei", "huanghou"):
        t = Table.open(api, svc, 5, SEED_BAD)
        t.deal(["jingfei", "huangshang", "sanage", minion, "taihou"])
        t.begin()
        first = t.players[0].get(t.gpath)
        assert (first.json_body["room"]["step"], first.json_body["room"]["version"]) == (None, None)
        etag = first.headers["ETag"]
        changed = []  # after each of the storyteller's presses tonight: did 1号's view change?
        while t.grim()["night"]["current"] is not None:
            cur = t.grim()["night"]["current"]
            t.do({"type": "night_step", "step": cur["key"]} if cur["disabled"] else
                 {"type": "night_step", "step": cur["key"], "skip": not all(x["optional"] for x in cur["slots"])})
            r = t.players[0].get(t.gpath, **{"If-None-Match": etag})
            changed.append(r.status_code == 200)
            if r.status_code == 200:
                etag = r.headers["ETag"]
            else:
                assert r.status_code == 304
        t.do({"type": "dawn"})
        reports = t.reports(t.players[0])
        lines = [(r["step"], [(line["kind"], line["text"]) for line in r["lines"]]) for r in reports]
        game = t.view(0)["game"]
        seen.append((lines, [c for c in changed if c], game))
        assert changed.count(True) == 1  # her own 敬妃 step, whatever else the storyteller did
    assert seen[0] == seen[1]
    night = [line for _, lines in seen[0][0] for line in lines]
    assert night[-3:] == [("info", "场上女性玩家数：3"), ("phase", "天亮：第1天"), ("announce", "昨夜平安")]


def test_a_player_cannot_find_the_step_count_by_sending_steps(api, svc):
    """Rules §14 (decision): the number of the storyteller's steps at night is hidden from players. A
    player's phone sends no step; if she sends one anyway, the answer must not depend on where the
    room's hidden counter stands. The two games of the test above differ only in the minion (华妃 wakes
    on the first night, 皇后 does not): 1号's answers to the same requests must be the same in both."""
    answers = []
    for minion in ("huafei", "huanghou"):
        t = Table.open(api, svc, 5, SEED_BAD)
        t.deal(["jingfei", "huangshang", "sanage", minion, "taihou"])
        t.begin()
        t.night()
        answers.append([error(t.send({"type": "dusk"}, who=t.players[0], step=k)) for k in range(1, 30)])
        assert all(r.json_body.get("details") is None for r in [t.send({"type": "dusk"}, who=t.players[0], step=1)])
    assert answers[0] == answers[1]
    assert set(answers[0]) == {(422, "STEP_HIDDEN")}  # one answer whatever the step


def test_a_met_end_nobody_confirms_is_ended_by_the_rooms_idle_timer_with_its_result(api, svc, clock):
    """DECISIONS #12: nothing is final until she confirms (or the room's idle timer ends it) — a
    storyteller who walked away from a shown end leaves a game that ends with it, result and all,
    rather than one abandoned with none; a game with no end shown is abandoned as any other."""
    from chalicelib.rooms import sweeper

    t = Table.open(api, svc, 7, SEED_A)
    t.deal(ROLES_A, bluffs=["jingfei", "sanage", "taihou"])
    t.begin()
    t.do({"type": "declare_winner", "winner": "good", "reason": "说书人宣布结果"})
    idle = Table.open(api, svc, 7, SEED_B)
    idle.deal(ROLES_A, bluffs=["jingfei", "sanage", "taihou"])
    idle.begin()
    clock.advance(6 * 3600 + 600)
    assert sweeper.expire_stalled(svc.room_deps()).changed == 2
    ended = t.stored()  # (everyone's token has expired meanwhile: read the store)
    assert ended.status.value == "finished" and ended.pending is None
    assert (ended.state["phase"], ended.state["winner"]) == ("over", "good")
    results = svc.rooms.list_results(ended.id)
    assert len(results) == 1 and results[0]["reason"] == "说书人宣布结果"
    assert svc.rooms.get_log(ended.id, ended.step - 1).trigger.value == "deadline"
    abandoned = idle.stored()
    assert abandoned.status.value == "abandoned" and abandoned.results == ()
