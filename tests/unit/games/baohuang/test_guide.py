"""怎么玩 (GET /v1/guides/baohuang): the card's shape, its numbers read back out of its own words, and
the rules it states holding in the engine.

Each rule test reads the number or example from the guide's text (not from the guide's code), then
checks it against the game's constant and against what the engine does, so a wrong word, a changed
constant or a changed rule each fail here.
"""

from __future__ import annotations

import ast
import re
from itertools import pairwise
from pathlib import Path

import pytest
from pydantic import ValidationError

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import GuideSection
from chalicelib.games.baohuang import guide
from chalicelib.games.baohuang.actions import PassThrone, Quit
from chalicelib.games.baohuang.cards import (
    BIG,
    COPIES,
    LABEL_RANK,
    SMALL,
    VALUE,
    Variant,
    counts,
    lowest_rank,
    pack,
)
from chalicelib.games.baohuang.combos import Refusal, allowed, beats, classify, follows, unbeatable
from chalicelib.games.baohuang.deal import deal_hands
from chalicelib.games.baohuang.declare import GRAB_JOKERS, grab_eligible, grab_order
from chalicelib.games.baohuang.game import GAME
from chalicelib.games.baohuang.model import QUIT_PENALTY, SEATS, Options, Phase, Solo, prev_seat
from chalicelib.games.baohuang.scoring import HIDDEN_SOLO, OPEN_SOLO, PLACE_POINTS, score
from chalicelib.games.baohuang.throne import CLASSIC_PASSES_BEFORE_FORCED, SIMPLE_PASSES_BEFORE_REDEAL

from .helpers import act, kinds, new_table, rng, table

SECTIONS = guide.guide_sections()
LINES = [line for section in SECTIONS for line in section.lines]
RANK_VALUE = {"大王": BIG, "小王": SMALL, **LABEL_RANK}
SUITS = "SHCD"


def line_with(*words: str) -> str:
    """The one line of the guide that holds every word."""
    found = [line for line in LINES if all(word in line for word in words)]
    assert len(found) == 1, (words, found)
    return found[0]


def numbers(pattern: str, line: str) -> tuple[int, ...]:
    """The integers `pattern`'s groups capture in `line`."""
    match = re.search(pattern, line)
    assert match, (pattern, line)
    return tuple(int(group) for group in match.groups())


def play_cards(text: str) -> list[str]:
    """Cards for a play as the guide writes it: "8888", "小王+777", "大王+3张小王"."""
    codes: list[str] = []
    used: dict[str, int] = {}

    def take(value: int, n: int) -> None:
        for _ in range(n):
            i = used.get(str(value), 0)
            used[str(value)] = i + 1
            if value >= SMALL:
                codes.append(f"{'BJ' if value == BIG else 'LJ'}#{i + 1}")
            else:
                rank = next(label for label, v in LABEL_RANK.items() if v == value)
                codes.append(f"{SUITS[i % 4]}{rank}#{i // 4 + 1}")

    for part in text.split("+"):
        joker = re.fullmatch(r"(\d*)张?(大王|小王)", part)
        if joker:
            take(RANK_VALUE[joker.group(2)], int(joker.group(1) or 1))
        elif part in RANK_VALUE:  # one card, e.g. "10"
            take(RANK_VALUE[part], 1)
        else:
            assert len(set(part)) == 1, part  # a run of one rank, e.g. "777"
            take(RANK_VALUE[part[0]], len(part))
    return codes


# -- shape -----------------------------------------------------------------------------------------


def test_the_game_serves_this_guide():
    assert GAME.guide() == SECTIONS
    assert all(isinstance(section, GuideSection) for section in SECTIONS)


def test_sections_are_short_and_fit_a_phone():
    """Every section has a title and at least one line; each line is one rule, short enough for a
    phone screen, ending like a sentence."""
    assert 6 <= len(SECTIONS) <= 8
    assert 30 <= len(LINES) <= 55
    for section in SECTIONS:
        assert section.title.strip() and section.lines, section.title
    for line in LINES:
        assert 0 < len(line) <= 80, line
        assert line.endswith("。"), line


def test_no_english_word_leaks_into_the_card():
    """Only card ranks may be Latin letters: A K Q J, alone or as a set such as "AAAA"."""
    for section in SECTIONS:
        for text in (section.title, *section.lines):
            for word in re.findall(r"[A-Za-z]+", text):
                assert re.fullmatch(r"A+|K+|Q+|J+", word), (word, text)


def test_the_guide_module_is_pure():
    """No storage, clock or printing: it imports only the game's own modules."""
    tree = ast.parse(Path(guide.__file__).read_text(encoding="utf-8"))
    imported = {node.module or "" for node in ast.walk(tree) if isinstance(node, ast.ImportFrom)}
    imported |= {alias.name for node in ast.walk(tree) if isinstance(node, ast.Import) for alias in node.names}
    assert imported, "the scan finds the imports"
    for module in imported:
        assert module in {"__future__", "chalicelib.core.game"} or module.startswith(
            "chalicelib.games.baohuang."), module
    assert "print(" not in Path(guide.__file__).read_text(encoding="utf-8")


# -- the deal --------------------------------------------------------------------------------------


def test_deck_sizes_are_the_seeds_and_the_engines():
    """Seed: "简单玩法：四副牌不含3、4、5，共计168张牌" and "经典玩法：四副牌，共计216张牌"."""
    simple_line, classic_line = line_with("简明玩法：", "共"), line_with("经典玩法：", "共")
    (simple,) = numbers(r"共(\d+)张", simple_line)
    (classic,) = numbers(r"共(\d+)张", classic_line)
    assert (simple, classic) == (len(pack(Variant.SIMPLE)), len(pack(Variant.CLASSIC))) == (168, 216)
    assert numbers(r"(\d+)副", simple_line) == numbers(r"(\d+)副", classic_line) == (COPIES,) == (4,)
    removed = {RANK_VALUE[r] for r in re.search(r"去掉([\d、]+)", simple_line).group(1).split("、")}
    assert removed == {3, 4, 5}
    assert not any(VALUE[code] in removed for code in pack(Variant.SIMPLE))
    assert all(any(VALUE[code] == value for code in pack(Variant.CLASSIC)) for value in removed)


def test_hand_sizes_are_what_the_deal_hands_out():
    """Seed: "游戏先从游戏桌的最左边玩家开始发牌，以后从上局皇帝开始发牌，至牌发完为止"; one card at a time
    in play order from the dealer (rules §4)."""
    extra_seats, more, fewer = numbers(r"发牌人及其后(\d+)家各(\d+)张，其余各(\d+)张", line_with("简明玩法："))
    dealer_hand, others = numbers(r"发牌人(\d+)张，其余每人(\d+)张", line_with("经典玩法："))
    expected = {
        Variant.SIMPLE: [more] * (extra_seats + 1) + [fewer] * (SEATS - extra_seats - 1),
        Variant.CLASSIC: [dealer_hand] + [others] * (SEATS - 1),
    }
    for variant, sizes in expected.items():
        for dealer in range(SEATS):
            hands = deal_hands(pack(variant), dealer)
            assert [len(hands[(dealer + i) % SEATS]) for i in range(SEATS)] == sizes


# -- the throne ------------------------------------------------------------------------------------


def throne_table(*hands: str, variant: str):
    return table(*hands, variant=variant, phase=Phase.THRONE, emperor=None, guard=None, holder=0)


def test_simple_redeals_after_the_rounds_the_guide_names():
    """Seed: "两轮之内仍然没有决定谁是皇帝时，系统重新发牌"."""
    rounds, passes = numbers(r"传满(\d+)轮（(\d+)次让位）", line_with("简明：传满"))
    assert rounds == 2 and passes == rounds * SEATS == SIMPLE_PASSES_BEFORE_REDEAL
    state = throne_table("BJ#1 S7#1", "LJ#1 S8#1", "S9#1", "S10#1", "SJ#1", variant="simple")
    for i in range(passes):
        assert state.phase is Phase.THRONE and state.deal.redeals == 0
        tr = act(state, state.deal.candidate, PassThrone(), step=i + 1)
        assert ("redealt" in kinds(tr)) is (i == passes - 1)
        state = tr.state
    assert state.deal.redeals == 1 and state.deal.dealer == 0


CLASSIC_OTHERS = ("S8#1", "S7#4 S9#1", "S10#1", "SJ#1")


def test_classic_holder_must_take_after_the_round_the_guide_names():
    """Seed: "传完一轮后自己必须当皇帝（除非没有能力登基或者有4张同色同点的牌）"."""
    rounds, call = numbers(r"传满(\d+)轮回到皇牌主人，她有(\d+)张同牌可叫就必须登基", line_with("经典：传满"))
    assert rounds == 1 and rounds * SEATS == CLASSIC_PASSES_BEFORE_FORCED and call == COPIES - 1
    state = throne_table("BJ#1 S7#1 S7#2 S7#3", *CLASSIC_OTHERS, variant="classic")
    for i in range(rounds * SEATS):
        state = act(state, state.deal.candidate, PassThrone(), step=i + 1).state
    assert state.deal.candidate == state.deal.holder and state.deal.redeals == 0
    with pytest.raises(IllegalAction) as err:
        act(state, state.deal.holder, PassThrone())
    assert err.value.code == "MUST_TAKE_THRONE"


def test_classic_holder_with_only_four_of_a_face_is_spared_and_the_deal_redealt():
    """Seed: "除非没有能力登基或者有4张同色同点的牌" — the guide: "只有4张同牌的，不逼她独保"."""
    line = line_with("经典：那时她若没有")
    assert numbers(r"没有(\d+)张同牌可叫（只有(\d+)张同牌的", line) == (COPIES - 1, COPIES)
    state = throne_table("BJ#1 S7#1 S7#2 S7#3 S7#4", "S8#1", "S9#1", "S10#1", "SJ#1", variant="classic")
    for i in range(CLASSIC_PASSES_BEFORE_FORCED):
        tr = act(state, state.deal.candidate, PassThrone(), step=i + 1)
        state = tr.state
    assert "redealt" in kinds(tr) and state.deal.redeals == 1


def test_grab_conditions_are_the_guides():
    """Seed: "抢独条件：1、玩家手中有3个王（不分大小）和四张同花色同点数的牌。" """
    jokers, copies = numbers(r"有(\d+)张王（不分大小）和(\d+)张同牌", line_with("抢独（仅经典）"))
    assert (jokers, copies) == (GRAB_JOKERS, COPIES) == (3, 4)
    four = [f"S7#{i}" for i in range(1, copies + 1)]
    mixed_jokers = ["BJ#2", "LJ#2", "LJ#3", "BJ#3"][:jokers]
    assert grab_eligible(tuple(four + mixed_jokers))
    assert not grab_eligible(tuple(four + mixed_jokers[:-1]))
    assert not grab_eligible(tuple(four[:-1] + mixed_jokers))


def test_grab_priority_runs_shangjia_wards_from_the_emperor():
    """Seed: "在上家方向上离皇帝最近的人'抢独'优先成功"."""
    assert "皇帝上家方向离皇帝最近者得" in line_with("多人抢独")
    for emperor in range(SEATS):
        order = grab_order(emperor)
        assert order[0] == prev_seat(emperor)
        assert all(order[i + 1] == prev_seat(order[i]) for i in range(len(order) - 1))


# -- plays -----------------------------------------------------------------------------------------


def test_rank_order_is_the_engines():
    """Seed: "牌点由大到小排列为：大王、小王、2、A、K、Q、J、10、9、8、7、6"; classic adds 5 4 3 below."""
    line = line_with("由大到小")
    simple_part, lowest, classic_part = re.search(r"由大到小：(.+?)；经典在(.+?)之下还有(.+?)。", line).groups()
    simple = [RANK_VALUE[label] for label in simple_part.split("＞")]
    classic = simple + [RANK_VALUE[label] for label in classic_part.split("＞")]
    assert RANK_VALUE[lowest] == simple[-1] == lowest_rank(Variant.SIMPLE)
    assert set(simple) == {VALUE[code] for code in pack(Variant.SIMPLE)}
    assert set(classic) == {VALUE[code] for code in pack(Variant.CLASSIC)}
    for high, low in pairwise(classic):
        higher, lower = (play_cards(label) for label in (_label(high), _label(low)))
        assert beats(classify(higher), classify(lower)) and not beats(classify(lower), classify(higher))


def _label(value: int) -> str:
    return next(label for label, v in RANK_VALUE.items() if v == value)


def test_jokers_of_a_kind_are_equal_whatever_their_mark():
    """Seed: "四张大王一样大（皇牌无区别），4张小王一样大（侍卫牌无区别）"."""
    assert numbers(r"(\d+)张大王一样大，(\d+)张小王一样大", line_with("不论花色")) == (COPIES, COPIES)
    for kind in ("BJ", "LJ"):
        copies = [classify([f"{kind}#{i}"]) for i in range(1, COPIES + 1)]
        assert all(not beats(a, b) for a in copies for b in copies)


def test_the_guides_examples_hold():
    """Seed: "如：（1）8888>7777 （2）1个大王带3个小王>AAAA （3）小王带777>6666 （4）大王带6666>小王带5555"."""
    line = line_with("例：", "压")
    pairs = re.findall(r"([^：；里]+)压([^；。]+)", line)
    assert len(pairs) == 4
    for new, old in pairs:
        assert beats(classify(play_cards(new)), classify(play_cards(old))), (new, old)
        assert not beats(classify(play_cards(old)), classify(play_cards(new))), (new, old)


def test_a_set_cannot_beat_a_joker_play_and_a_big_joker_cannot_be_beaten():
    """Seed: "套牌不能压同张数的王挂牌，如：不能出9999压888+小王" and "挂大王的牌为最大"."""
    line = line_with("压不了")
    new, old = re.search(r"（(.+?)压不了(.+?)）", line).groups()
    assert not beats(classify(play_cards(new)), classify(play_cards(old)))
    assert "带大王的牌谁也压不住" in line
    with_big = classify(play_cards("4444+大王"))
    assert unbeatable(with_big)
    everything = counts(pack(Variant.CLASSIC))
    assert follows(everything, lowest_rank(Variant.CLASSIC), with_big) == []


def test_baoliu_keeps_the_sixes_to_the_last_play():
    """Seed: "保六玩法。，即六必须留到最后一手一次出完。" Rules §11: all at once, no jokers, off by default."""
    line = line_with("保六")
    assert "默认不开" in line and Options().baoliu is False
    lo = lowest_rank(Variant.SIMPLE)
    mixed = counts(["S6#1", "H6#1", "S7#1"])
    assert allowed(mixed, lo, (6, 2, 0, 0), None, True) is Refusal.BAOLIU_SIXES_LAST
    assert allowed(mixed, lo, (6, 2, 0, 0), None, False) is None
    only_sixes = counts(["S6#1", "H6#1"])
    assert allowed(only_sixes, lo, (6, 2, 0, 0), None, True) is None
    assert allowed(only_sixes, lo, (6, 1, 0, 0), None, True) is Refusal.BAOLIU_SIXES_LAST
    with_joker = counts(["S6#1", "H6#1", "LJ#2"])
    assert allowed(with_joker, lo, (6, 2, 1, 0), None, True) is Refusal.BAOLIU_SIXES_LAST


# -- timer and leaving -----------------------------------------------------------------------------


def test_turn_timer_is_the_room_options():
    """DECISIONS 保皇 #8: "a per-turn timer; on expiry the seat goes to 托管"."""
    default, lowest, highest = numbers(r"限时(\d+)秒（开房可设(\d+)–(\d+)秒）", line_with("限时"))
    assert Options().turn_seconds == default
    assert Options(turn_seconds=lowest).turn_seconds == lowest
    assert Options(turn_seconds=highest).turn_seconds == highest
    for wrong in (lowest - 1, highest + 1):
        with pytest.raises(ValidationError):
            Options(turn_seconds=wrong)


def test_the_guide_says_the_table_waits_for_a_timed_out_last_player():
    """DECISIONS 保皇 #8: "on expiry the seat goes to 托管 ... until the player acts again." Rules §15: the
    玩法 line says what the table does when the clock, not she, put the last person playing in 托管."""
    assert "本桌结束" in line_with("人都已托管")
    line = line_with("超时进的托管")
    assert "等她回来点继续" in line and "不替她开下一局" in line
    state = new_table(seed=3).model_copy(update={"bots": (False, True, True, True, True),
                                                "auto": (False, True, True, True, True)})
    waiting = GAME.on_timeout(state, rng(1)).state
    assert waiting.phase is Phase.BETWEEN and GAME.pending(waiting).seats == frozenset({0})


def test_quitting_costs_the_penalty_the_guide_names():
    """Seed: "逃跑：游戏开始后，如有玩家强行退出或被管理员踢出游戏将被扣去30分。游戏自动结束。" """
    (penalty,) = numbers(r"扣(\d+)分", line_with("逃跑"))
    assert penalty == QUIT_PENALTY == 30
    tr = act(new_table(), 2, Quit())
    (outcome,) = tr.results
    assert [r.score for r in outcome.results] == [0, 0, -penalty, 0, 0]
    assert tr.state.phase is Phase.OVER


# -- scoring ---------------------------------------------------------------------------------------


def places_with_emperor_at(place: int) -> tuple[int, ...]:
    """Seat 0 (the emperor) finishing at `place` (1-based), the others in seat order."""
    order = [1, 2, 3, 4]
    order.insert(place - 1, 0)
    return tuple(order)


def test_place_points_and_the_two_against_three_example():
    """DECISIONS 保皇 #5: "places score +2 +1 0 −1 −2; T = emperor's plus guard's points; emperor 2T,
    guard T, each commoner −T"."""
    listed = re.search(r"依次为(.+?)。", line_with("名次分：")).group(1).split("、")
    assert tuple(int(p) for p in listed) == PLACE_POINTS == (2, 1, 0, -1, -2)
    emperor, guard, rebel = numbers(r"皇帝([+-]\d+)，侍卫([+-]\d+)，平民各([+-]\d+)", line_with("例：皇帝头名"))
    t = PLACE_POINTS[0] + PLACE_POINTS[1]
    assert (emperor, guard, rebel) == (2 * t, t, -t)
    assert score((0, 1, 2, 3, 4), emperor=0, guard=1, solo=Solo.NONE)[0] == (emperor, guard, rebel, rebel, rebel)


@pytest.mark.parametrize(("solo", "stake"), [(Solo.HIDDEN, HIDDEN_SOLO), (Solo.OPEN, OPEN_SOLO)])
def test_solo_scores_are_the_guides(solo, stake):
    """DECISIONS 保皇 #5: "Hidden solo ±12/0 (others ∓3); open solo ±24 (others ∓6), winning only on
    first place"."""
    line = line_with("暗独保：皇帝头名") if solo is Solo.HIDDEN else line_with("明独保（含抢独）")
    win, win_others = numbers(r"皇帝头名([+-]\d+)、其余各([+-]\d+)", line)
    loss, loss_others = numbers(r"(?:再往后|不是头名就)([+-]\d+)、其余各([+-]\d+)", line)
    assert (win, loss) == (stake, -stake) and (stake, solo) in ((12, Solo.HIDDEN), (24, Solo.OPEN))
    assert score(places_with_emperor_at(1), 0, None, solo)[0] == (win,) + (win_others,) * 4
    assert score(places_with_emperor_at(3), 0, None, solo)[0] == (loss,) + (loss_others,) * 4
    second = score(places_with_emperor_at(2), 0, None, solo)[0]
    if solo is Solo.HIDDEN:
        assert "皇帝第二名不输不赢" in line and second == (0,) * 5
    else:
        assert second == (loss,) + (loss_others,) * 4


def test_doublings_multiply_and_every_deal_sums_to_zero():
    """Seed: "造反成功后输赢的分数加倍（包括暗独保）"; DECISIONS 保皇 #5: "明保 ×2 … a successful 造反 ×2
    (seed); they multiply"."""
    line = line_with("翻倍相乘")
    assert "明保×2" in line and "造反成功（平民一方得分）×2" in line and "相加为0" in line
    royals_lose = (1, 3, 4, 0, 2)
    plain, _ = score(royals_lose, 0, 2, Solo.NONE)
    assert score(royals_lose, 0, 2, Solo.NONE, open_guard=True)[0] == tuple(2 * p for p in plain)
    assert score(royals_lose, 0, 2, Solo.NONE, rebels=(1,))[0] == tuple(2 * p for p in plain)
    assert score(royals_lose, 0, 2, Solo.NONE, open_guard=True, rebels=(1,)) == (
        tuple(4 * p for p in plain), 4)
    royals_win = (0, 2, 1, 3, 4)
    assert score(royals_win, 0, 2, Solo.NONE, rebels=(1,))[1] == 1  # a failed 造反 doubles nothing
    hidden_beaten = places_with_emperor_at(3)
    assert score(hidden_beaten, 0, None, Solo.HIDDEN, rebels=(1, 2))[1] == 2  # 包括暗独保
    draw = (0, 1, 3, 4, 2)
    assert score(draw, 0, 2, Solo.NONE, open_guard=True)[0] == (0,) * 5
    for places in (royals_lose, royals_win, draw):
        assert sum(score(places, 0, 2, Solo.NONE, open_guard=True, rebels=(1,))[0]) == 0


def test_the_first_deal_is_dealt_from_seat_one_and_the_marked_kings_are_named_as_drawn():
    """Seed: "游戏先从游戏桌的最左边玩家开始发牌"; "牌中有一张大王标有权杖，当作“皇”牌" / "一张小王标有宝剑，当作
    “侍卫”牌": the card says where the first deal starts (一号座, seat 0) and names the kings by the marks the
    table draws on them (「皇」「卫」)."""
    assert "首局由一号座" in line_with("首局由") and new_table(seed=3).deal.dealer == 0
    assert "「皇」" in line_with("皇牌是") and "「卫」" in line_with("简明：侍卫牌")
    assert guide.PLACE_NAMES[0] == "头游" and len(guide.PLACE_NAMES) == SEATS
