"""Rules found by the 2026-12-01 rules audit of 血染甄嬛传 (docs/rules/zhenhuan.md §3, §6)."""

from __future__ import annotations

from chalicelib.games.zhenhuan.roles import ROLES
from chalicelib.games.zhenhuan.state import StatusKind

from .helpers import (
    act,
    current,
    current_view,
    dusk,
    has,
    new_state,
    night,
    pass_until,
    seat,
    started,
    step,
    to_day,
)


def test_a_new_nvhuang_kills_the_night_huangshang_died_before_his_step():
    """Seed: 女皇 「每晚可以杀一个玩家。」; 皇后 「皇上死亡时……皇后会变为女皇。」 — 祺贵人's right
    accusation kills 皇上 at the start of the night: his step is greyed 「已死亡」 (he killed nobody), so
    the new 女皇 kills that very night. It was greyed as if a demon had already killed."""
    roles = ["huangshang", "huanghou", "qiguiren", "jinxi", "wentaiyi", "jingfei", "taihou"]
    s = to_day(roles)
    s = act(s, type="accuse", by=2, target=0, role="huangshang")
    s = dusk(s)
    assert current(s) == "qiguiren"
    s = act(s, type="night_step", step="qiguiren", targets=[0])  # the storyteller picks 皇上 to die
    assert seat(s, 1).role == "nvhuang"
    s = pass_until(s, "nvhuang")
    assert current_view(s).disabled is None
    s = step(s, "nvhuang", 4)
    s = night(s)
    assert not seat(s, 4).alive


def test_no_good_win_is_offered_while_huanghou_will_take_the_throne_at_dawn():
    """Seed: 「当恶魔死亡且无法立刻产生新的恶魔时，游戏结束，好人胜利」 — 甄嬛 kills 皇上 back and is
    taken by 年羹尧 the same night: 皇后 becomes 女皇 at dawn, so a demon is coming and no good win
    may be proposed in the night (the storyteller could have confirmed a wrong end)."""
    roles = ["huangshang", "huanghou", "zhenhuan", "niangengyao", "qiguiren", "jinxi", "wentaiyi"]
    s = to_day(roles)
    s = act(s, type="accuse", by=4, target=0, role="huangshang")
    s = dusk(s)
    s = act(s, type="night_step", step="qiguiren", targets=[3])  # 年羹尧 dies at the start of night 2
    s = step(s, "huangshang", 2)  # 皇上 kills 甄嬛 ...
    s = step(s, "zhenhuan")  # ... who kills him back
    s = step(s, "niangengyao", 2)  # 年羹尧 takes 甄嬛 with him
    assert not seat(s, 0).alive and not seat(s, 2).alive
    assert s.end is None
    s = night(s)
    assert seat(s, 1).role == "nvhuang" and s.end is None


def test_huanbi_made_chongfei_is_no_longer_drunk_from_sitting_beside_guojunwang():
    """Seed: 浣碧 「（当你坐在果郡王身边时，你会醉酒）」「此醉酒为永久效果。」 — Decision: the drunk is
    her own ability's, so it lasts as long as she is 浣碧: made 宠妃 by 雨露均沾 she is sober (her
    pins work); back to 浣碧 beside 果郡王 she is drunk again."""
    roles = ["huangshang", "huanbi", "guojunwang", "jinxi", "wentaiyi", "huafei", "jingfei"]
    s = started(roles)
    assert has(s, 1, StatusKind.DRUNK)
    s = step(s, "huangshang", None, 1)  # 雨露均沾 on 浣碧: she is 宠妃 now
    assert seat(s, 1).role == "chongfei" and not has(s, 1, StatusKind.DRUNK)
    assert not [r for r in s.reminders if r.token == "醉酒" and r.seat == 1]
    s = step(s, "chongfei", 3)
    assert has(s, 3, StatusKind.PINNED)
    s = act(s, type="set_role", seat=1, role="huanbi")  # the storyteller puts her back as 浣碧
    assert has(s, 1, StatusKind.DRUNK)


def test_a_bluff_dealt_by_hand_leaves_the_bluffs():
    """Seed (setup): the demon's three bluffs are good roles not in play (「三个不在场的善良角色」).
    Decision: a role the storyteller deals by hand that was a bluff is replaced in the bluffs by the
    first good role neither in play nor a bluff, so the list never goes stale (the click-through
    found 甄嬛 and 温太医 dealt and still offered as bluffs)."""
    s = new_state(["huangshang", "huafei", "jinxi", "wentaiyi", "jingfei", "guojunwang", "huanbi"])
    bluff = s.bluffs[0]
    s = act(s, type="assign", seat=2, role=bluff)
    in_play = {x.role for x in s.seats}
    assert bluff in in_play and bluff not in s.bluffs
    assert len(set(s.bluffs)) == 3 and not set(s.bluffs) & in_play
    assert all(ROLES[r].good for r in s.bluffs)
    act(s, type="begin")  # valid bluffs: the game starts


def test_huanbi_beside_guojunwang_is_judged_by_where_they_sit_not_who_is_alive():
    """Seed: 浣碧 「如果位置与果郡王相邻，则浣碧醉酒」 — 位置: the seats, dead or alive. 浣碧 (2号) made 宠妃,
    then restored by 三阿哥 after 瑾汐 (3号, between her and 果郡王 4号) died, is not beside him."""
    s = step(started(["sanage", "huanbi", "jinxi", "guojunwang", "wentaiyi", "anlingrong", "huangshang"]),
             "huangshang", None, 1)
    s = act(night(s), type="kill", seat=2)
    s = step(dusk(s), "sanage", 1)  # 三阿哥 touches the 宠妃: she is 浣碧 again
    assert seat(s, 1).role == "huanbi" and not has(s, 1, StatusKind.DRUNK)
