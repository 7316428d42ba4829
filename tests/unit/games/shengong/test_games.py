"""The four Game objects: what each declares to the platform (seed 000 and DECISIONS 深宫杀 #1, #2, #8)."""

from __future__ import annotations

import pytest

from chalicelib.core.game import Game, RecordSubject
from chalicelib.games import get_game
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, GAME_D
from chalicelib.games.shengong.report import ReportLine
from chalicelib.games.shengong.scoring import OutcomeExtra
from chalicelib.games.shengong.views import ShengongView

GAMES = {"shengong_d": GAME_D, "shengong_a": GAME_A, "shengong_b": GAME_B, "shengong_c": GAME_C}


@pytest.mark.parametrize("key", sorted(GAMES))
def test_every_mode_is_a_game_of_the_shengong_family(key):
    """One core: the same contract for A/B/C/D — one view, one report line, one outcome extra."""
    game = get_game(key)
    assert game is GAMES[key] and isinstance(game, Game)
    assert (game.family, game.seats_consorts, game.allows_hurry, game.bots) == ("shengong", True, True, True)
    assert game.view_model is ShengongView and game.report_line_model is ReportLine
    assert game.outcome_extra_model is OutcomeExtra


def test_only_d_is_open_by_default():
    """DECISIONS #1: the default is the seed's: only D open, A/B/C shown locked (置灰)."""
    assert {k: g.default_open for k, g in GAMES.items()} == {
        "shengong_d": True, "shengong_a": False, "shengong_b": False, "shengong_c": False}


def test_the_round_limit_is_a_fixed_rule_of_every_mode():
    """DECISIONS #2: 20, as one named constant, shown read-only at room creation (终局规则固定…开房时置灰不可改)."""
    for game in GAMES.values():
        assert game.fixed_rules["round_limit"] == 20 and game.fixed_rules["end"]


def test_boards_never_mix():
    """DECISIONS #8: Records keep 自由赛, 锦标赛 and 卡牌局 (mode C) apart — seed: 玩法C 卡牌局另设一榜. The
    platform appends -free / -tournament to each family."""
    boards = {k: g.records.board for k, g in GAMES.items() if g.records}
    assert boards == {"shengong_d": "coop", "shengong_a": "melee", "shengong_b": "melee", "shengong_c": "cards"}
    for game in GAMES.values():
        assert game.records is not None and game.records.subject is RecordSubject.CONSORT
        assert set(game.records.damage) == {"hp_damage", "grace_damage"}
        assert {"kills", "deaths", "hp_damage", "grace_damage", "taken"} <= set(game.records.counted)


def test_seats_and_auto_start():
    """D① 三人成队…满 3 人自动开战; A/B/C: 满 8 人发起者「开战」."""
    assert (GAME_D.min_seats, GAME_D.max_seats, GAME_D.auto_start) == (3, 3, True)
    for game in (GAME_A, GAME_B, GAME_C):
        assert (game.min_seats, game.max_seats, game.auto_start) == (8, 8, False)
