"""怎么玩 (`GAME.guide()`) for 血染甄嬛传: what the page says is what the game does.

Each test quotes the seed (or DECISIONS) line it checks, reads the number off the page and plays it
against the engine itself (setup's table, the vote count, the night plan, the win check), so a rule
changed in one place and not the other fails here.
"""

from __future__ import annotations

import re
from collections import Counter
from math import ceil

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Entrant, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.board import EMPRESS_MIN_ALIVE, EVIL_KNOW_EACH_OTHER_FROM, Board
from chalicelib.games.zhenhuan.day import buttons
from chalicelib.games.zhenhuan.ending import EVIL_WINS, GOOD_WINS
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.guide import SCRIPT_TITLE, guide_sections
from chalicelib.games.zhenhuan.roles import (
    CHUNYUAN,
    GUOJUNWANG,
    HUAFEI,
    HUANBI,
    HUANGHOU,
    HUANGSHANG,
    JINGFEI,
    JINXI,
    NVHUANG,
    OUTSIDER_MODIFIERS,
    QIFEI,
    QIGUIREN,
    ROLES,
    TRAVELLER,
    WENTAIYI,
    YURAO,
    ZHENHUAN,
    Team,
)
from chalicelib.games.zhenhuan.setup import (
    BLUFFS,
    MAX_NON_TRAVELLERS,
    MAX_PLAYERS,
    MIN_PLAYERS,
    composition,
    modifiers_in,
)
from chalicelib.games.zhenhuan.state import GameState, StatusKind, ZhenhuanOptions
from chalicelib.games.zhenhuan.tools import MAX_SEATS
from chalicelib.games.zhenhuan.votes import CLOCK_BASE_S, CLOCK_PER_VOTER_S

from .helpers import act, dusk, has, night, started, step, visited

SAFE_GOOD = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, QIGUIREN, YURAO, HUANBI, JINGFEI]
"""Good roles with no day trigger on a nomination (unlike 纯元皇后), to fill a table of any size."""


def page() -> dict[str, tuple[str, ...]]:
    return {section.title: section.lines for section in GAME.guide()}


def line(section: str, starts: str) -> str:
    [found] = [text for text in page()[section] if text.startswith(starts)]
    return found


def number(text: str, pattern: str) -> int:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not in {text!r}"
    return int(match.group(1))


def table(players: int) -> GameState:
    """Day 1 of a game with `players` seats: 皇上 in seat 0, 华妃 in seat 1, good roles after."""
    return night(started([HUANGSHANG, HUAFEI, *SAFE_GOOD[: players - 2]]))


def entrants(players: int) -> list[Entrant]:
    return [Entrant(i, f"玩家{i + 1}") for i in range(players)]


# --- the page itself ----------------------------------------------------------------------------------
def test_the_page_is_the_games_own_and_fits_a_phone() -> None:
    """A phone page: 6–9 titled sections, 30–50 short lines, all Chinese (no English, no enum value);
    then the script (角色一览), which has a line per role."""
    sections = GAME.guide()
    assert sections == guide_sections()
    rules = [s for s in sections if not s.title.startswith(SCRIPT_TITLE)]
    assert 6 <= len(rules) <= 9
    assert 30 <= sum(len(s.lines) for s in rules) <= 50
    for section in sections:
        assert section.title and section.lines, section.title
        for text in section.lines:
            assert len(text) <= 80, text
            assert re.search(r"[\u4e00-\u9fff]", text), text
            # the script quotes the seed as it is (敦亲王's 「xx，给本王炫一个」); our own lines have no Latin
            assert section not in rules or not re.search(r"[A-Za-z]", text), text


def test_the_roles_abilities_are_left_to_the_catalogue() -> None:
    """The role list is served by GET /v1/games/zhenhuan/catalogue: the page points to 「角色一览」."""
    assert "「角色一览」" in line("一局怎么走", "开局")


# --- 阵营与人数 ---------------------------------------------------------------------------------------
def test_the_table_size_is_the_seats_a_room_takes() -> None:
    """Seed: 游戏开始需要1名说书人 - 5~20 位玩家."""
    text = line("一局怎么走", "说书人主持")
    assert f"{MIN_PLAYERS}–{MAX_PLAYERS} 名玩家" in text
    assert (GAME.min_seats, GAME.max_seats) == (MIN_PLAYERS, MAX_PLAYERS) == (5, 20)
    assert "不入座" in text and GAME.host_runs


def _said_composition(players: int) -> tuple[int, int, int, int]:
    """(村民, 外来者, 爪牙, 恶魔) as the page's row covering `players` says it."""
    for text in page()["阵营与人数"]:
        span = re.match(r"(\d+)(?:–(\d+))? 人：村民 (\d+) · 外来者 ([\d/]+) · 爪牙 (\d+) · 恶魔 (\d+)$", text)
        if span is None:
            continue
        first = int(span.group(1))
        last = int(span.group(2) or first)
        if first <= players <= last:
            outsiders = [int(o) for o in span.group(4).split("/")]
            assert len(outsiders) == last - first + 1, text
            return int(span.group(3)), outsiders[players - first], int(span.group(5)), int(span.group(6))
    raise AssertionError(f"no row for {players} players")


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_NON_TRAVELLERS + 1))
def test_every_count_s_row_is_the_setup_table_and_a_dealt_game_follows_it(players: int) -> None:
    """Seed: 不同人数下的各阵营配置 (DECISIONS #2: the official table) — the page's row is what
    `composition` computes, and a game dealt for that many players has those teams (苏培盛/太上皇 aside)."""
    said = _said_composition(players)
    c = composition(players)
    assert said == (c.townsfolk, c.outsiders, c.minions, c.demons)
    roles = [s.role for s in GAME.setup(entrants(players), ZhenhuanOptions(), Rng.from_int(players)).seats]
    teams, mods = Counter(ROLES[r].team for r in roles), modifiers_in(roles)
    dealt = (teams[Team.TOWNSFOLK] + mods, teams[Team.OUTSIDER] - mods, teams[Team.MINION], teams[Team.DEMON])
    assert dealt == said


@pytest.mark.parametrize("players", range(MAX_NON_TRAVELLERS + 1, MAX_PLAYERS + 1))
def test_above_fifteen_the_extra_seats_are_travellers(players: int) -> None:
    """Seed: 旅行者：人数超过 15 人 (DECISIONS #2: above 15 players the extra seats are travellers)."""
    text = line("阵营与人数", f"{MAX_NON_TRAVELLERS + 1}–{MAX_PLAYERS} 人")
    assert f"按 {MAX_NON_TRAVELLERS} 人配置" in text and "旅行者" in text
    first, last = re.search(r"多出的 (\d+)–(\d+) 人", text).groups()  # type: ignore[union-attr]
    assert (int(first), int(last)) == (1, MAX_PLAYERS - MAX_NON_TRAVELLERS)
    c, base = composition(players), composition(MAX_NON_TRAVELLERS)
    assert c.travellers == players - MAX_NON_TRAVELLERS
    assert (c.townsfolk, c.outsiders, c.minions, c.demons) == (base.townsfolk, base.outsiders, base.minions, base.demons)
    roles = [s.role for s in GAME.setup(entrants(players), ZhenhuanOptions(), Rng.from_int(players)).seats]
    assert roles.count(TRAVELLER) == players - MAX_NON_TRAVELLERS == c.travellers


@pytest.mark.parametrize("players", range(MIN_PLAYERS, MAX_PLAYERS + 1))
def test_supeisheng_and_taishanghuang_each_turn_one_townsfolk_into_an_outsider(players: int) -> None:
    """Seed: 当有【苏培盛】加入时，村民数量-1，外来者数量+1。当有【太上皇】加入时，村民数量-1，外来者数量+1。"""
    text = line("阵营与人数", "苏培盛")
    named = set(text.split("在场时")[0].split("、"))
    assert named == {ROLES[r].name for r in OUTSIDER_MODIFIERS} == {"苏培盛", "太上皇"}
    assert "各把一名村民换成外来者" in text
    base = composition(players)
    for mods in range(len(OUTSIDER_MODIFIERS) + 1):
        c = composition(players, modifiers=mods)
        assert (c.townsfolk, c.outsiders) == (base.townsfolk - mods, base.outsiders + mods)


# --- 夜晚 ---------------------------------------------------------------------------------------------
def test_the_demon_does_not_kill_on_the_first_night() -> None:
    """Seed: 恶魔，属于坏人阵营，除第一天夜晚外，每晚均可以杀人."""
    assert "首夜恶魔不杀人" in line("夜晚", "首夜")
    with pytest.raises(IllegalAction):
        step(started([ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]), "huangshang", 0)


def test_evil_learn_each_other_from_the_count_on_the_page() -> None:
    """Seed: 5-6人游戏时，爪牙和恶魔不知道对方是谁。7人及以上，爪牙和恶魔互知，恶魔知道三个不在场的角色。"""
    text = line("夜晚", f"{EVIL_KNOW_EACH_OTHER_FROM} 人及以上")
    assert number(text, r"^(\d+) 人及以上") == EVIL_KNOW_EACH_OTHER_FROM == 7
    assert number(text, r"恶魔另知 (\d+) 个不在场的角色") == BLUFFS == 3
    assert "人少则互不相识" in text and "不计旅行者" in text
    roles = [HUANGSHANG, HUAFEI, *SAFE_GOOD[: EVIL_KNOW_EACH_OTHER_FROM - 2]]
    assert {"minion_info", "demon_info"} <= set(visited(started(roles)))
    assert not {"minion_info", "demon_info"} & set(visited(started(roles[:-1])))
    dealt = GAME.setup(entrants(EVIL_KNOW_EACH_OTHER_FROM), ZhenhuanOptions(), Rng.from_int(1))
    assert len(dealt.bluffs) == BLUFFS


def test_players_never_see_statuses() -> None:
    """Docs §14: Players never see statuses (not even their own) — as the page tells them."""
    assert line("夜晚", "玩家看不到任何状态") == "玩家看不到任何状态，连自己是否中毒、醉酒也不知道。"
    state = act(table(7), type="drunk", seat=2)
    assert has(state, 2, StatusKind.DRUNK)
    seen = GAME.view(state, Viewer.player(2)).model_dump_json()
    assert "drunk" not in seen and "醉酒" not in seen


def test_the_impaired_lines_are_the_rules_of_decisions_5() -> None:
    """DECISIONS #5: Poisoned or drunk abilities silently fail… A once-per-game ability used while impaired
    is spent. Seed (宠妃): 每回合可以按住一个玩家，玩家本回合技能无法发动."""
    assert "能力悄悄失效" in line("夜晚", "中毒、醉酒的人")
    assert "当夜和次日白天" in line("夜晚", "被宠妃按住的人")
    assert line("夜晚", "一次性能力") == "一次性能力在中毒或醉酒时用出也算用掉；被按住而发动不了的，不算（纯元皇后除外）。"


# --- 白天 ---------------------------------------------------------------------------------------------
DAY = "白天：提名、投票与处决"


def _bars() -> list[tuple[int, int]]:
    text = line(DAY, "票数达到存活人数")
    assert "一半、向上取整" in text and "含旅行者" in text
    return [(int(a), int(b)) for a, b in re.findall(r"(\d+) 人存活需 (\d+) 票", text)]


def test_the_bar_examples_are_half_the_living_rounded_up() -> None:
    """DECISIONS #4: Executions use the official chopping block: threshold ⌈living/2⌉."""
    bars = _bars()
    assert len(bars) >= 2 and {living % 2 for living, _ in bars} == {0, 1}, "an odd and an even example"
    for living, bar in bars:
        assert bar == ceil(living / 2)
        assert GAME.view(table(living), Viewer.spectator()).day.threshold == bar  # type: ignore[union-attr]


@pytest.mark.parametrize("living", [living for living, _ in _bars()])
def test_the_bar_on_the_page_puts_a_nominee_on_the_block_and_dusk_executes_her(living: int) -> None:
    """DECISIONS #4: threshold ⌈living/2⌉; a later nominee needs strictly more votes to replace the one on
    the block; a tie clears the block; at most one execution a day."""
    bar = dict(_bars())[living]
    state = act(act(table(living), type="nominate", nominator=2, nominee=0), type="vote", votes=list(range(1, bar)))
    assert state.day.block is None, f"{bar - 1} votes are below the bar"
    state = act(act(state, type="nominate", nominator=3, nominee=1), type="vote", votes=list(range(bar)))
    assert state.day.block == 1
    tie = act(act(state, type="nominate", nominator=4, nominee=2), type="vote", votes=list(range(bar)))
    assert tie.day.block is None and "票数相同则台上清空" in line(DAY, "之后的人")
    assert not dusk(state).seats[1].alive and dusk(tie).seats[1].alive
    assert "每天最多处决一人" in line(DAY, "入夜时台上若有人")


def test_the_vote_clock_default_is_the_one_a_vote_gets() -> None:
    """Docs §8: the vote clock: open_vote{seconds?} (default 15 s + 3 s per voter; 5–600 s)."""
    text = line(DAY, "投票计时默认")
    base, per = number(text, r"默认 (\d+) 秒"), number(text, r"另加 (\d+) 秒")
    assert (base, per) == (CLOCK_BASE_S, CLOCK_PER_VOTER_S) == (15, 3)
    state = act(act(table(7), type="nominate", nominator=2, nominee=0), type="open_vote")
    assert state.day.clock.seconds == base + per * 7


def test_each_player_nominates_once_and_is_nominated_once_a_day() -> None:
    """DECISIONS #4: Each living player nominates at most once a day and each player is nominated at most
    once a day (dead nominees allowed, official rules)."""
    text = line(DAY, "每名存活玩家每天最多提名一次")
    assert "每人每天最多被提名一次" in text and "死者也可被提名" in text
    state = act(act(table(7), type="kill", seat=3), type="nominate", nominator=2, nominee=3)
    assert state.day.nominations[-1].nominee == 3


def test_chunyuan_nominated_by_a_townsfolk_executes_the_nominator() -> None:
    """Seed: 纯元皇后 首次被提名时，如果提名者是村民，则直接被处决。(DECISIONS #3: the nominator)"""
    assert line(DAY, "纯元皇后") == "纯元皇后首次被提名时，若提名者是村民，被处决的是提名者。"
    state = night(started([CHUNYUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]))
    state = act(state, type="nominate", nominator=1, nominee=0)
    assert [p.seat for p in state.day.proposals] == [1]


# --- 死亡之后 -----------------------------------------------------------------------------------------
AFTER = "死亡之后（幽灵票）"


def test_the_dead_keep_one_ghost_vote() -> None:
    """DECISIONS #4: Dead players keep one ghost vote."""
    assert line(AFTER, "每名死者有一张幽灵票") == "每名死者有一张幽灵票：处决投票时举手即用掉，只能用一次。"
    state = act(table(7), type="kill", seat=3)
    state = act(act(state, type="nominate", nominator=2, nominee=0), type="vote", votes=[3])
    assert not state.seats[3].ghost_vote
    with pytest.raises(IllegalAction):
        act(act(state, type="nominate", nominator=4, nominee=1), type="vote", votes=[3])


def test_the_abilities_that_work_after_death_are_the_seed_s() -> None:
    """Seed: 甄嬛 当你在夜晚被皇上皇后杀死, 你可以反杀成女皇 / 年羹尧 当你晚上死亡时，当晚可以带走一名玩家 /
    敬妃 你当晚被杀死，可知道当前场上存活的邪恶阵营玩家 (DECISIONS #9: their steps still wake them)."""
    text = line(AFTER, "死者不能提名")
    named = set(text.split("；")[1].split("这类")[0].split("、"))
    assert named == {"甄嬛", "年羹尧", "敬妃"}


# --- 胜负 ---------------------------------------------------------------------------------------------
def test_good_wins_as_the_page_says() -> None:
    """Seed: 非特殊情况下，当恶魔死亡且无法立刻产生新的恶魔时，游戏结束，好人胜利."""
    state = act(table(7), type="execute", seat=0)
    assert state.end is not None and state.end.reason == GOOD_WINS
    assert line("胜负", "善良获胜").startswith(f"善良获胜：{state.end.reason}")


def test_evil_wins_as_the_page_says() -> None:
    """Seed: 非特殊情况下，当场上仅有两名玩家存活时，若恶魔依然存活，则坏人胜利."""
    state = table(5)
    for seat in (2, 3, 4):
        state = act(state, type="kill", seat=seat)
    assert state.end is not None and state.end.reason == EVIL_WINS
    assert line("胜负", "邪恶获胜").startswith(f"邪恶获胜：{state.end.reason}")


def test_nothing_ends_before_the_storyteller_confirms() -> None:
    """DECISIONS #12: when a win condition is met the storyteller sees 「确认结束」…nothing is final until she
    confirms."""
    assert "「确认结束」才终局" in line("胜负", "达成条件只是提示")
    state = act(table(7), type="execute", seat=0)
    assert GAME.pending(state) is not None and GAME.pending(act(state, type="confirm_end")) is None


@pytest.mark.parametrize("killed_first", [False, True], ids=["five_alive", "four_alive"])
def test_huanghou_succeeds_from_the_count_on_the_page(killed_first: bool) -> None:
    """Seed: 皇上死亡时，场上玩家大于等于5人存活，且之前无女皇。皇后会变为女皇。(DECISIONS #8: 皇上 included)"""
    said = number(line("胜负", "皇上死时"), r"不少于 (\d+) 人")
    assert said == EMPRESS_MIN_ALIVE == 5
    state = night(started([JINXI, GUOJUNWANG, WENTAIYI, HUANGHOU, HUANGSHANG]))
    if killed_first:
        state = act(state, type="kill", seat=0)
    state = act(state, type="execute", seat=4)
    assert (state.seats[3].role == NVHUANG) is (not killed_first)
    assert f"皇后继位的 {said} 人" in line("旅行者", "旅行者计入处决")


# --- 旅行者 -------------------------------------------------------------------------------------------
def test_the_traveller_numbers_are_the_engine_s() -> None:
    """Seed: 旅行者：人数超过 15 人；有玩家需要临时加入游戏或早退需要提前退出游戏…具体身份由玩家自行选择，
    具体阵营所属由说书人根据场上局势进行分配。其他玩家知晓旅行者身份和技能，但不知晓其阵营所属。"""
    assert number(line("旅行者", "超过"), r"超过 (\d+) 人") == MAX_NON_TRAVELLERS == 15
    assert number(line("旅行者", "旅行者只能在天亮后"), r"最多 (\d+) 人") == MAX_SEATS == GAME.max_seats
    assert "公开" in line("旅行者", "旅行者的身份和能力") and "秘密" in line("旅行者", "旅行者的身份和能力")


# --- 说书人 -------------------------------------------------------------------------------------------
HOST_SECTION = "说书人怎么用这个应用"


def test_the_storyteller_s_day_buttons_are_named_as_the_app_names_them() -> None:
    """Seed: 白天「处决」「入夜」/「死亡」按钮/「醉酒」按钮 — the page names the buttons the app shows."""
    named = set(re.findall(r"「(.+?)」", "".join(page()[HOST_SECTION])))
    labels = {label for _, _, label, _, _ in buttons(Board(table(7)))}
    assert {"入夜", "死亡", "处决", "醉酒"} <= named & labels
    assert {"天亮", "撤销", "确认结束"} <= named


def test_the_drunk_button_is_unlimited_and_lasts_until_the_next_day() -> None:
    """Seed: 「醉酒」按钮可以无限次使用，且当局没有敦亲王也会展示「醉酒」按钮
    - 持续一天，到下个白天刚开始的时候清除上一个白天的醉酒。"""
    text = line(HOST_SECTION, "「醉酒」")
    assert "不限次数" in text and "没有敦亲王也能用" in text and "醉到下一个白天开始" in text
    state = table(7)
    for seat in (2, 3, 4):
        state = act(state, type="drunk", seat=seat)
    assert all(has(state, s, StatusKind.DRUNK) for s in (2, 3, 4))
    state = dusk(state, execute_block=False)
    assert all(has(state, s, StatusKind.DRUNK) for s in (2, 3, 4)), "still drunk through the night"
    assert not any(has(night(state), s, StatusKind.DRUNK) for s in (2, 3, 4))


def test_the_bluffs_the_storyteller_sets_are_the_count_on_the_page() -> None:
    """Seed: 7人及以上…恶魔知道三个不在场的角色 — the storyteller sets that many before the game begins."""
    assert number(line(HOST_SECTION, "开局前"), r"并定 (\d+) 个不在场角色") == BLUFFS


def test_the_page_ends_with_the_script_every_dealt_and_made_role_once() -> None:
    """Seed: each role's ability as the seed words it — a player looks a role up (宠妃, 胧月…) on the page
    itself, as on the script sheet at a table; travellers are not listed (they choose their own)."""
    script = [s for s in guide_sections() if s.title.startswith(SCRIPT_TITLE)]
    assert [s.title for s in script] == [f"{SCRIPT_TITLE} · {t}" for t in ("村民", "外来者", "爪牙", "恶魔")]
    lines = [line for s in script for line in s.lines]
    listed = [r for r in ROLES.values() if r.key != TRAVELLER]
    assert len(lines) == len(listed)
    for role in listed:
        assert sum(line.startswith(role.name) and line.endswith(role.ability) for line in lines) == 1, role.name
    assert any(line.startswith("宠妃（局中产生）：") for line in lines)
