"""The 战报's typography: one kind of bracket for each use, never doubled, never two side by side, and no
developer's code in a player's line."""

from __future__ import annotations

import re

from chalicelib.core.errors import DomainError
from chalicelib.core.game import Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.deck import Deck
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, GAME_D
from chalicelib.games.shengong.terms import ModeKey
from chalicelib.games.shengong.wording import paren, refusal_text
from tests.unit.games.shengong.abc.helpers import board, run, seat
from tests.unit.games.shengong.test_soak import entrants, random_move

OTHER_BRACKETS = re.compile(r"[()\[\]{}『』“”\"'【】〔〕]")


def bracket_faults(text: str) -> list[str]:
    """What breaks the rule in one line: 「」 for names of cards and moves, （） for notes, each pair
    single (no 「「, no （（), balanced, and never two notes side by side (「）（」); no code in capitals."""
    faults = []
    if OTHER_BRACKETS.search(text):
        faults.append("another bracket")
    for pair in ("「」", "（）"):
        depth = 0
        for ch in text:
            depth += (ch == pair[0]) - (ch == pair[1])
            if depth < 0 or depth > 1:
                faults.append(f"{pair} doubled or unbalanced")
                break
        if depth:
            faults.append(f"{pair} unclosed")
    if "）（" in text or "」「" in text:
        faults.append("two side by side")
    if re.search(r"[A-Z_]{3,}", text):
        faults.append("a code")
    return faults


def test_bracket_faults_are_seen():
    assert bracket_faults("你打出：进攻位「袖里藏针」Lv.1（自身 好感 −0.5）") == []
    for bad in ("「「袖里藏针」」", "气血 −1（养生减半）（挡下 气血 1）", "弃牌「a」「b」", "(x)", "落子不合规（ALREADY_THERE）", "（a（b））"):
        assert bracket_faults(bad), bad


def test_battle_report_lines_use_single_brackets():
    """Decision: every 战报 line any viewer reads, in every mode, keeps 「」 and （） single — seeded
    games with random (also illegal) moves, read by each seat, a spectator and the 司礼."""
    faults: dict[str, list[str]] = {}
    for game, stage in ((GAME_A, None), (GAME_B, None), (GAME_C, None), (GAME_D, 1), (GAME_D, 2), (GAME_D, 3)):
        for g in range(3):
            pick = Rng.from_int(1_000_000 + g)
            seed = Rng.from_int(g).seed
            state = game.setup(entrants(game, pick), game.parse_options({"stage": stage} if stage else {}), Rng(seed, 0))
            step = 1
            while game.pending(state) is not None:
                moves = {}
                for s in sorted(p.seat for p in state.living()):
                    moves[s] = random_move(game, state, s, pick)
                    try:
                        game.check(state, Viewer.player(s), moves[s])
                    except DomainError:
                        pass  # sent anyway: the settlement turns it into 待机 and says why
                t = game.settle(state, moves, Rng(seed, step))
                viewers = [Viewer.host(), Viewer.spectator(), *(Viewer.player(p.seat) for p in state.players)]
                for v in viewers:
                    for line in game.report(t.state, t.events, v):
                        if f := bracket_faults(line.text):
                            faults[line.text] = f
                state, step = t.state, step + 1
    assert not faults, list(faults.items())[:10]


def test_notes_share_one_pair_of_brackets():
    """Decision: notes on one thing go in one （…）, 「；」 between them."""
    assert paren("养生减半", "挡下 气血 1") == "（养生减半；挡下 气血 1）"
    assert paren("", "自身 好感 −0.5") == "（自身 好感 −0.5）"
    assert paren("", "") == ""


def test_a_refused_move_is_told_in_words_not_its_code():
    """Decision: a sealed move no longer legal at settlement reads 「你的落子不合规（未达准入条件），按待机处理」 —
    the check's message, said of whoever it was (no 「你」 on the 司礼's line), never the code."""
    s = board(seat(0, "承乾宫", grace=5.5), seat(1, "景仁宫"))
    _, events = run(s, {0: dict(type="move", place="御膳房"), 1: dict(type="stay")})
    own = [ln.text for ln in GAME_A.report(s, events, Viewer.player(0)) if ln.scope == "own"]
    assert any(t.startswith("你的落子不合规（未达准入条件），按待机处理") for t in own), own
    assert refusal_text("ALREADY_THERE") == "已身在此处"
    assert refusal_text("MALFORMED_ACTION") == "落子无法识别"


def test_a_discard_is_not_told_as_a_card_played():
    """玩法C ③ 落子时最多用三张…也可弃牌（每轮最多 2 张）: a discard is no card played — her line reads
    「你弃掉「…」」 alone (not 「你打出：弃牌…」), and after the cards she played 「，弃掉「…」」."""
    hand = Deck(hand=("tieshen#1", "tieshen#2", "xunyi#1"))
    s = board(seat(0, "承乾宫", maids={"tieshen": 2, "xunyi": 3}, deck=hand), seat(1, "景仁宫"), mode=ModeKey.C)

    def own_cards(cards: dict[str, object]) -> list[str]:
        _, events = run(s, {0: dict(type="idle", cards=cards), 1: dict(type="stay")})
        return [ln.text for ln in GAME_C.report(s, events, Viewer.player(0)) if ln.scope == "own" and ln.kind == "cards"]

    assert own_cards({"discard": ["xunyi#1", "tieshen#2"]}) == ["你弃掉「寻医问药」、「贴身护卫」"]
    assert own_cards({"defence": "tieshen#1", "discard": ["xunyi#1"]}) == ["你打出：防守位「贴身护卫」Lv.2，弃掉「寻医问药」"]
    assert own_cards({"defence": "tieshen#1"}) == ["你打出：防守位「贴身护卫」Lv.2"]
