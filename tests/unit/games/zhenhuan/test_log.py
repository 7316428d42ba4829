"""The storyteller's log (her 「记录」, and everyone's once the game is over): each thing said once — a
death with its cause, a vote as its count, a night step with what its player was told — while the
players' log keeps exactly the public lines it had."""

from __future__ import annotations

from typing import Any

from chalicelib.core.game import Entrant, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.actions import TravellerDetails
from chalicelib.games.zhenhuan.events import PUBLIC_KINDS, storyteller_log
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import ROLES as ROLE_TABLE
from chalicelib.games.zhenhuan.roles import Alignment, Team
from chalicelib.games.zhenhuan.state import GameState, ZhenhuanOptions

from .helpers import HOST, act, dusk, night, player_act, started, to_day

# 9号 狂徒 dies by day (孙答应 follows her at night); 2号 is cursed on night 1
ROLES = ["zhenhuan", "jinxi", "guojunwang", "jingfei", "huangshang", "anlingrong", "niangengyao", "sundaying", "kuangtu"]


def book(state: GameState) -> list[str]:
    """The storyteller's log as her view gives it."""
    return [e.text for e in GAME.view(state, HOST).log]


def kinds(state: GameState, viewer: Viewer) -> list[tuple[str, str]]:
    return [(e.kind, e.text) for e in GAME.view(state, viewer).log]


def since(lines: list[str], first: str) -> list[str]:
    return lines[lines.index(first):]


def vote(state: GameState, yes: set[int]) -> GameState:
    """The clock opened and every seat's hand from her phone (the last one counts the vote)."""
    state = act(state, type="open_vote")
    for seat in range(len(state.seats)):
        state = player_act(state, seat, type="vote", yes=seat in yes)
    return state


def test_the_storytellers_log_says_each_death_once_with_its_cause() -> None:
    """By day a death is one line with its cause (the public 「9号死亡」 stays the players'); an execution
    says why; at night the step that killed says it, and dawn does not say it again (the announcement
    is the table's line)."""
    state = to_day(ROLES, {"anlingrong": (None, 1), "guojunwang": (0,)})
    state = act(state, type="kill", seat=8)
    state = player_act(state, 0, type="nominate", nominator=0, nominee=3)
    state = act(act(vote(state, {0, 1, 5, 6, 7, 8}), type="execute", seat=3), type="dusk")
    state = night(state, {"huangshang": (6, None), "guojunwang": (4,), "niangengyao": (2,), "sundaying": ()})
    assert since(book(state), "昨夜平安") == [
        "昨夜平安",
        "9号死亡（说书人「死亡」）",
        "1号提名4号",
        "4号得6票（需4票）；举手：6号、7号、8号、9号、1号、2号；处决台：4号",
        "4号被处决（处决台）",
        "入夜：第2夜",
        "2号死亡（受安陵容诅咒）",
        "第2夜「安陵容：香粉下毒（女性）与诅咒」：说书人跳过",
        "第2夜「果郡王：保护一名玩家（免刀免睡）」3号：保护5号",
        "第2夜「皇上：雨露均沾（全局一次）与杀人」5号：恶魔杀死7号",
        "第2夜「甄嬛：被皇上或皇后（女皇）杀死时反杀，成为女皇」不可用：今晚未被皇上或皇后所化女皇杀死",
        "第2夜「年羹尧：夜晚死亡时带走一名玩家（全局一次）」7号：带走3号：3号死亡",
        "第2夜「孙答应：狂徒已死则随之死亡」8号：孙答应随狂徒死亡（全场醉酒）",
        "孙答应8号之死，全场醉酒：1号、5号、6号，至第3夜入夜",
        "第2夜「瑾汐姑姑：选择两名玩家，得知其中是否有恶魔」不可用：已死亡",
        "天亮：第2天",
        "昨夜死亡：2号、3号、7号、8号",
    ]
    # the players' log is the public lines it always was: the death by day, the clock, every hand
    player = kinds(state, Viewer.player(0))
    assert player == [(e.kind, e.text) for e in state.log if e.kind in PUBLIC_KINDS]
    assert ("death", "9号死亡") in player and ("execution", "4号被处决") in player
    assert sum(kind == "hand" for kind, _ in player) == 9 and any(kind == "vote_open" for kind, _ in player)
    assert all(kind in PUBLIC_KINDS for kind, _ in player)


def test_a_night_death_is_said_when_it_happens_with_its_cause() -> None:
    """Tonight's deaths are in her record as they happen — a demon's kill in its step's line, her own
    「死亡」 in one line — and nothing restates them at dawn."""
    state = dusk(to_day(ROLES, {"guojunwang": (0,)}))
    state = act(state, type="kill", seat=3)
    state = night(state, {"huangshang": (1, None), "guojunwang": (4,)})
    lines = since(book(state), "入夜：第2夜")
    assert "4号死亡（说书人「死亡」）" in lines
    assert [line for line in lines if "2号" in line and ("死" in line or "杀" in line)] == [
        "第2夜「皇上：雨露均沾（全局一次）与杀人」5号：恶魔杀死2号", "昨夜死亡：2号、4号",
    ]
    assert not any("今晚死亡" in line or "2号死亡（" in line for line in lines)


def test_the_storytellers_log_gives_a_vote_as_one_line() -> None:
    """While the clock runs her log says it started (her day panel shows the hands as they come); once
    counted, the vote is one line naming the raised hands and the count: no line per hand."""
    state = to_day(ROLES)
    state = player_act(state, 1, type="nominate", nominator=1, nominee=4)
    state = act(state, type="open_vote")
    state = player_act(player_act(state, 0, type="vote", yes=True), 2, type="vote", yes=False)
    running = since(book(state), "2号提名5号")
    assert running == ["2号提名5号", "开始对5号投票（42秒）"]
    assert [(h.seat, h.yes) for h in GAME.view(state, HOST).day.vote.hands] == [(0, True), (2, False)]  # type: ignore[union-attr]
    state = act(state, type="vote", seat=3, yes=True)
    state = act(state, type="close_vote")
    assert since(book(state), "2号提名5号") == ["2号提名5号", "5号得2票（需5票）；举手：1号、4号；处决台：无人"]
    # the players saw every hand go up, as before
    assert [text for kind, text in kinds(state, Viewer.player(5)) if kind == "hand"] == ["1号举手", "3号不举手", "4号举手"]


def test_corrections_and_changes_by_day_read_once_in_her_log() -> None:
    """Her corrections are marked as hers (改判) and said once: an edited vote, a deleted nomination, a
    change of life in the open; a traveller's exile and departure are the table's own lines."""
    state = to_day(ROLES)
    state = act(state, type="nominate", nominator=1, nominee=4)
    state = act(state, type="vote", votes=[0, 1])
    state = act(state, type="edit_vote", index=0, votes=[0, 1, 2, 3, 5])
    state = act(state, type="nominate", nominator=2, nominee=6)
    state = act(state, type="delete_nomination", index=1)
    state = act(state, type="set_alive", seat=7, alive=False)
    log = GAME.view(state, HOST).log
    tail = [(e.text, getattr(e, "override", False)) for e in log[[e.text for e in log].index("2号提名5号"):]]
    assert tail == [
        ("2号提名5号", False),
        ("5号得2票（需5票）；举手：1号、2号；处决台：无人", False),
        ("说书人更正投票：5号得5票（需5票）；举手：6号、1号、2号、3号、4号；处决台：5号", True),
        ("3号提名7号", False),
        ("说书人删除了提名：3号提名7号", True),
        ("说书人设置：8号死亡", True),
    ]
    public = kinds(state, Viewer.player(0))
    assert ("nomination", "说书人删除了提名：3号提名7号") in public and ("death", "8号死亡") in public


def test_a_night_step_line_stands_for_what_its_player_was_told() -> None:
    """A step's line names what its player was told (and the truth beside it when they differ), so her
    log shows it once; the player still has it on her phone. So does a 告知."""
    state = started(ROLES)
    state = night(state, {"jinxi": (0, 4)})
    lines = book(state)
    assert "第1夜「瑾汐姑姑：选择两名玩家，得知其中是否有恶魔」2号；告知：1号与5号之中有恶魔" in lines
    assert "1号与5号之中有恶魔" not in lines
    assert [e.text for e in GAME.view(state, Viewer.player(1)).me.info if e.kind == "info"] == ["1号与5号之中有恶魔"]  # type: ignore[union-attr]
    told = act(state, type="tell", seat=1, card="text", text="今晚留意身边的人")
    assert book(told)[-1] == "告知2号：今晚留意身边的人"
    assert not any(e.kind == "tell" for e in GAME.view(told, HOST).log)
    assert GAME.view(told, Viewer.player(1)).me.info[-1].text == "说书人告知：今晚留意身边的人"  # type: ignore[union-attr]


def test_the_steps_of_evil_info_read_once_in_her_log() -> None:
    """From 7 players the evil team's first-night information is one line per step, in the words told."""
    seven = ["huangshang", "huafei", "anlingrong", "jinxi", "wentaiyi", "jingfei", "guojunwang", "huanbi", "zhenhuan",
             "yurao"]  # fmt: skip
    state = started(seven)
    state = act(state, type="night_step", step="minion_info", targets=[])
    state = act(state, type="night_step", step="demon_info", targets=[])
    lines = book(state)
    assert lines[-2:] == [
        "第1夜「爪牙信息：爪牙得知恶魔与彼此」：爪牙2号、3号得知恶魔1号",
        "第1夜「恶魔信息：恶魔得知爪牙与三个不在场角色」1号：恶魔得知爪牙2号、3号与伪装角色"
        + lines[-1].split("伪装角色")[1],
    ]
    assert len([e for e in state.log if e.kind == "info"]) == 3, "each of them told on her phone"


def test_a_travellers_admission_reads_once_in_her_log() -> None:
    """Her line (identity and the alignment she gave) stands for the 「你是」 the traveller was shown; the
    arrival is the table's line, the demon shown to an evil traveller is hers alone."""
    state = to_day(ROLES)
    details = TravellerDetails(identity="游方郎中", ability="每天可以为一人把脉", alignment=Alignment.EVIL, female=True)
    state = GAME.admit(state, Entrant(9, "小路子"), details, Rng.from_int(1)).state
    assert since(book(state), "旅行者10号小路子加入游戏，身份「游方郎中」") == [
        "旅行者10号小路子加入游戏，身份「游方郎中」", "旅行者10号：游方郎中（邪恶）", "说书人告知：这是恶魔：5号",
    ]
    assert [e.text for e in GAME.view(state, Viewer.player(9)).me.info] == [  # type: ignore[union-attr]
        "你是「旅行者『游方郎中』」（邪恶阵营）", "说书人告知：这是恶魔：5号",  # quotes within quotes: 『』
    ]


def test_the_you_are_lines_at_the_start_read_as_one_line_in_her_log() -> None:
    """Her 「开局」 line (every seat's role; a traveller's identity and the alignment she gave) stands for
    the 「你是」 each player was shown at `begin`, one per seat; each player still has hers, and the demon
    shown to an evil traveller stays a line of its own."""
    state = GAME.setup([Entrant(i, f"玩家{i + 1}") for i in range(16)], ZhenhuanOptions(), Rng.from_int(2))
    state = act(state, type="set_traveller", seat=15, identity="游方郎中", ability="把脉", alignment="evil", female=True)
    state = act(state, type="begin")
    start = [line for line in book(state) if line.startswith("开局：")]
    dealt = "；".join(f"{s.seat + 1}号{ROLE_TABLE[s.role].name}" for s in state.seats[:15])
    assert start == [f"开局：{dealt}；16号旅行者『游方郎中』（邪恶）"]
    assert not [e for e in GAME.view(state, HOST).log if e.kind == "you_are"]
    demon = next(s.seat for s in state.seats if ROLE_TABLE[s.role].team is Team.DEMON)
    assert since(book(state), start[0]) == [start[0], f"说书人告知：这是恶魔：{demon + 1}号", "入夜：第1夜"]
    for seat in (0, 15):
        mine = [e for e in state.log if e.kind == "you_are" and e.seat == seat]
        assert [e.text for e in GAME.view(state, Viewer.player(seat)).me.info][:1] == [mine[0].text]  # type: ignore[union-attr]
    assert [e.kind for e in GAME.view(state, Viewer.player(0)).log] == ["phase"]


def test_the_first_night_huangshang_who_converts_nobody_is_not_said_to_have_spared_anyone() -> None:
    """Night 1 has no kill: his line says he did not use 雨露均沾, not 「未杀人」."""
    state = started(ROLES)
    state = night(state, {"huangshang": (None, None)})
    assert "第1夜「皇上：雨露均沾（全局一次）与杀人」5号：未用雨露均沾" in book(state)


def test_storyteller_log_keeps_a_running_clock_and_drops_restated_lines() -> None:
    """The projection itself: hands never, a clock only while it runs, a restating line in place of
    the lines before it."""
    from chalicelib.games.zhenhuan.events import (
        DeathEvent,
        HandEvent,
        HostEvent,
        NominationEvent,
        VoteEvent,
        VoteOpenEvent,
    )

    nom = NominationEvent(nominator=0, nominee=1, text="1号提名2号")
    clock = VoteOpenEvent(nominee=1, seconds=30, voters=(0, 1), text="开始对2号投票（30秒）")
    hand = HandEvent(seat=0, yes=True, text="1号举手")
    count = VoteEvent(nominee=1, voters=(0,), count=1, threshold=1, block=1, text="2号得1票")
    death = DeathEvent(seat=2, text="3号死亡")
    said: Any = HostEvent(text="3号死亡（说书人「死亡」）", restates=1)
    assert [e.text for e in storyteller_log([nom, clock, hand])] == ["1号提名2号", "开始对2号投票（30秒）"]
    assert [e.text for e in storyteller_log([nom, clock, hand, count, death, said])] == [
        "1号提名2号", "2号得1票", "3号死亡（说书人「死亡」）",
    ]
