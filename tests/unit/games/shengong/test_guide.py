"""怎么玩 (`Game.guide`) for every 深宫杀 mode: what the page says is what the game does.

Each test quotes the seed line it checks, reads the number off the page, and plays it against the game
itself (setup, settle, the tables), so a rule changed in one place and not the other fails here.
"""

from __future__ import annotations

import re

import pytest

from chalicelib.core.game import ABSENT_ROUNDS
from chalicelib.core.rng import Rng
from chalicelib.games.shengong import bosses
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, GAME_D
from chalicelib.games.shengong.numbers import points
from chalicelib.games.shengong.terms import Place
from tests.unit.games.shengong.abc import helpers as abc
from tests.unit.games.shengong.d import helpers as d

GAMES = {"A": GAME_A, "B": GAME_B, "C": GAME_C, "D": GAME_D}


def page(game) -> dict[str, tuple[str, ...]]:
    return {section.title: section.lines for section in game.guide()}


def line(game, section: str, starts: str) -> str:
    [found] = [text for text in page(game)[section] if text.startswith(starts)]
    return found


def number(text: str, pattern: str) -> float:
    match = re.search(pattern, text)
    assert match, f"{pattern!r} not in {text!r}"
    return float(match.group(1))


@pytest.mark.parametrize("mode", sorted(GAMES))
def test_every_mode_has_a_readable_page(mode):
    """A phone page: titled sections, short lines, all in Chinese (a rank, a number or Lv./KD aside)."""
    sections = GAMES[mode].guide()
    titles = [s.title for s in sections]
    assert titles[:5] == ["一局怎么走", "气血与好感", "行动", "地点", "同时结算"] and titles[-1] == "计分与战绩"
    for section in sections:
        assert section.lines, section.title
        for text in section.lines:
            assert len(text) <= 80, text
            assert re.search(r"[\u4e00-\u9fff]", text), text
            words = set(re.findall(r"[A-Za-z]{2,}", text)) - {"SR", "SSR", "Lv", "KD"}
            assert not words, text  # no English, no enum value leaking


def test_the_round_timer_on_the_page_is_the_one_a_room_gets():
    """Seed: 有人迟迟不动，发起者可「催 战」（未落子按待机处理） — and the page names the default timer."""
    said = number(line(GAME_D, "一局怎么走", "每回合限时"), r"默认 (\d+) 秒")
    assert d.new_game().turn_seconds == said == 90
    assert "未落子者按待机" in line(GAME_A, "一局怎么走", "有人迟迟不动")


@pytest.mark.parametrize("mode", ["A", "B", "C"])
def test_the_end_is_the_fixed_rule(mode):
    """Seed: 终局规则固定（剩 1 人即止，或打满 20 回合） (DECISIONS #2: 20, not the 12 said once)."""
    game = GAMES[mode]
    said = number(line(game, "一局怎么走", "终局"), r"打满 (\d+) 回合")
    assert said == game.fixed_rules["round_limit"] == 20 and "只剩 1 人" in line(game, "一局怎么走", "终局")


def test_palace_start_values_are_the_states():
    """DECISIONS #5: A/B/C start at 气血 10 (cap 12), 好感 5 — the page says so and setup does it."""
    text = line(GAME_A, "气血与好感", "开局")
    state = GAME_A.setup(abc.entrants(), GAME_A.parse_options({}), Rng.from_int(3))
    assert {points(p.hp) for p in state.players} == {number(text, r"气血 ([\d.]+)")}
    assert {points(p.grace) for p in state.players} == {number(text, r"好感 ([\d.]+)")}
    assert number(text, r"上限 ([\d.]+)") == 12


def test_stage_hp_is_looks_over_ten_plus_ten():
    """Seed D②: 气血 ＝ 容貌/10 + 10 — with 容貌 85 she starts at 18.5, as the page's formula says."""
    assert "气血 ＝ 容貌/10 ＋ 10" in line(GAME_D, "气血与好感", "气血 ＝")
    state = d.new_game(1, d.profile("甄嬛", looks=85))
    assert points(state.players[0].hp) == 85 / 10 + 10


def test_the_poison_line_is_the_seeds_row():
    """Seed: | 下毒 | 六处 + 御膳房 | 90% | 好感 −0.5 | 目标地所有人受伤：气血最高者 −2，其余各 −1 |."""
    text = line(GAME_A, "行动", "下毒")
    for part in ("六处或御膳房", "命中 90%", "气血最高者 −2", "其余各 −1", "自身好感 −0.5"):
        assert part in text


def test_the_assassinate_and_frame_lines_are_the_seeds_rows():
    """Seed: | 暗杀 | 六处 + 御膳房 | 75% | 好感 −0.5 | 只杀目标地气血最高 1 人 −3，可穿透养生（仅 −1），并令其下回合
    行动作废 | and | 诬告 | 六处 + 摘星楼 | 85% | 气血 −1 | …最高者 −2，其余各 −1；被诬告致好感归零者，计入你的击败 |."""
    stab, frame = line(GAME_B, "行动", "暗杀"), line(GAME_B, "行动", "诬告")
    for part in ("六处或御膳房", "命中 75%", "−3", "下回合行动作废", "仅 −1", "自身好感 −0.5"):
        assert part in stab
    for part in ("六处或摘星楼", "命中 85%", "好感最高者 −2", "其余各 −1", "击败", "自身气血 −1"):
        assert part in frame


def test_palace_places_carry_their_entry_thresholds():
    """Seed: 特殊地准入：御膳房 好感≥6、摘星楼 气血≥6、乾清宫 好感≥5."""
    places = page(GAME_C)["地点"]
    assert any(t.startswith("御膳房：准入好感≥6") for t in places)
    assert any(t.startswith("摘星楼：准入气血≥6") for t in places)
    assert any(t.startswith("乾清宫：准入好感≥5") for t in places)


def test_stage_places_are_the_five_of_d():
    """Seed D④: 御花园（起手，待机 +0.3）、醉江南（对手所在，进攻命中 +10%）、御膳房（下毒伤害 +1）、
    太医院（养生 +1 气血）、摘星楼（诬告伤害 +1）."""
    places = page(GAME_D)["地点"]
    named = {t.split("：")[0] for t in places[1:-1]}
    assert named == {p.value for p in (Place.GARDEN, Place.TAVERN, Place.KITCHEN, Place.INFIRMARY, Place.TOWER)}
    assert "醉江南：对手所在，进攻命中 +10%。" in places and places[0] == "开局都在御花园；去别处用「移动」。"
    assert {p.place for p in d.new_game().players} == {Place.GARDEN}


def test_stage_lines_are_the_opponents_the_stages_bring():
    """Seed D⑥: 关卡1 · 高明珠（气血 24 / 好感 20，命中 +10%，六成直取气血最少者）、关卡2 · 石露（气血 35 / 好感 30，
    命中 +20%、诬告防守 20%、暗杀杀伤 +1，四成登摘星楼诬告）."""
    one, two = line(GAME_D, "关卡与对手", "关卡1"), line(GAME_D, "关卡与对手", "关卡2")
    assert "气血 24、好感 20，命中 ＋10%" in one and "60% 直取气血最少者" in one
    assert "气血 35、好感 30，命中 ＋20%、诬告防守 20%、暗杀杀伤 ＋1" in two and "40% 登摘星楼诬告" in two
    for stage, starts in ((1, "关卡1"), (2, "关卡2")):
        [boss] = d.new_game(stage).opponents
        text = line(GAME_D, "关卡与对手", starts)
        assert points(boss.hp) == number(text, r"气血 ([\d.]+)") and points(boss.grace) == number(text, r"好感 ([\d.]+)")


def test_stage_three_lists_both_followers():
    """Seed D⑤⑥: 关卡3 · 高明珠（携二随从）…西域间谍气血 23、下毒命中 +30%，五成群毒；石露的哑巴宫女气血 22、
    暗杀命中 +30%，五成随机直取."""
    followers = [t for t in page(GAME_D)["关卡与对手"] if t.startswith("关卡3 随从")]
    assert followers == ["关卡3 随从 · 西域间谍：气血 23，下毒命中 ＋30%；50% 群毒 · 50% 护主",
                         "关卡3 随从 · 石露的哑巴宫女：气血 22，暗杀命中 ＋30%；50% 随机直取 · 50% 护主"]
    assert [o.name for o in d.new_game(3).opponents] == ["高明珠", "西域间谍", "石露的哑巴宫女"]
    assert sum(w for _, w in bosses.TACTICS[bosses.BossKey.XIYU_SPY]) == 100


def test_the_hand_is_dealt_as_the_page_says():
    """Seed 玩法C ①②: 每位宫女计 2 张…开局发 5 张；每轮结算后补满 5 张."""
    text = line(GAME_C, "宫女", "开局发")
    state = GAME_C.setup(abc.entrants({0: [("xunyi", 1), ("tieshen", 2), ("tongxin", 1)]}), GAME_C.parse_options({}),
                         Rng.from_int(5))
    assert len(state.players[0].deck.hand) == number(text, r"开局发 (\d+) 张") == 5
    assert number(line(GAME_C, "宫女", "牌库"), r"每位计 (\d+) 张") == 2


def test_the_level_example_is_the_seeds():
    """Seed 玩法C ⑥: 效果一律 ×宫女等级（Lv.3 的「寻医问药」＝下毒命中 +30%）."""
    assert line(GAME_D, "宫女", "效果一律") == "效果一律 ×宫女等级：Lv.3 的「寻医问药」＝下毒命中 ＋30%。"


def test_maids_differ_by_mode():
    """Seed: A · 竞技局 屏蔽宫女；B · 宫女局 宫女技能全线被动生效；C · 卡牌局 宫女化作手牌."""
    assert page(GAME_A)["宫女"] == ("竞技局屏蔽宫女，纯拼策略。",)
    assert "被动生效" in page(GAME_B)["宫女"][0]
    assert page(GAME_C)["宫女"][0].startswith("牌库")
    assert page(GAME_D)["宫女"][-1] == "送膳牌在宫斗杀里用不上，只能弃。"  # D has no 送膳 (DECISIONS, D④)


def test_palace_score_is_the_formula_of_decisions_8():
    """Seed: ＋ 击败×3 ＋ 气血伤害×0.5 ＋ 好感伤害×0.4 − 承伤×0.1 ＋ 名次分（10/7/5/3/1）."""
    assert line(GAME_A, "计分与战绩", "积分") == (
        "积分 ＝ 击败×3 ＋ 气血伤害×0.5 ＋ 好感伤害×0.4 − 承伤×0.1 ＋ 名次分（第 1–5 名 10/7/5/3/1，其后 0）。")
    assert "卡牌局另设一榜" in line(GAME_C, "计分与战绩", "妃子开房")


def test_stage_score_is_the_seeds():
    """Seed D⑦: 积分 ＝ 输出伤害 + 存活 30 + 通关奖励（60 − 回合×3，不为负）."""
    assert line(GAME_D, "计分与战绩", "积分") == "积分 ＝ 输出伤害 ＋ 存活 30 ＋ 通关奖励（60 − 回合×3，不为负）。"


def test_the_hidden_hand_is_told_only_where_moves_are_hidden_from_rivals():
    """Seed: 看不见的手：别人的行动与目标根本不下发，你只看得到自己的 (A/B/C: the three are not a team)."""
    assert any(t.startswith("看不见的手") for t in page(GAME_A)["同时结算"])
    assert not any(t.startswith("看不见的手") for t in page(GAME_D)["同时结算"])


def test_the_hall_is_named_as_out_of_every_attacks_reach():
    """Seed: | 下毒 | 六处 + 御膳房 |, | 暗杀 | 六处 + 御膳房 |, | 诬告 | 六处 + 摘星楼 | — 乾清宫 is no attack's
    target, so a seat there cannot be struck (a reviewer sat there 送膳-ing for 16 rounds unhurt): the page
    says so, and D, whose attacks name an opponent, says nothing of it."""
    from chalicelib.games.shengong.places import PALACE_TARGETS

    assert Place.HALL not in set().union(*PALACE_TARGETS.values())
    assert "乾清宫不是任何攻击的目标地：身在那里，别人打不到你。" in page(GAME_B)["地点"]
    assert not any("不是任何攻击的目标地" in t for t in page(GAME_D)["地点"])


def test_the_stage_page_says_what_a_tactic_is_before_naming_them():
    """Seed D⑥: 「六成直取气血最少者」「五成群毒」: the words 直取, 群毒, 护主 are explained before the stages list
    them, and the weights are told as each round's chances."""
    lines = page(GAME_D)["关卡与对手"]
    first_stage = next(i for i, t in enumerate(lines) if t.startswith("关卡1"))
    assert any(t.startswith("直取＝") for t in lines[:first_stage])
    assert lines[first_stage - 1] == "对手每回合各出手一次，按下列概率择一打法："


@pytest.mark.parametrize("mode", sorted(GAMES))
def test_bots_are_promised_where_the_room_seats_them(mode):
    """Seed 玩法D: 三人组队 against the stage — a 宫斗杀 room takes no bot in an empty seat (the room
    refuses BOTS_NOT_ALLOWED); every mode hands a gone player's seat to a bot by a vote, after the
    platform's count of rounds she sent nothing."""
    game = GAMES[mode]
    course = page(game)["一局怎么走"]
    assert any("补满空位" in text for text in course) is game.bot_fill
    handover = line(game, "一局怎么走", "有人连续")
    assert number(handover, r"连续 (\d+) 回合未落子") == ABSENT_ROUNDS
