"""The buttons a seat's view offers (`you.options`): every action of the mode, open with its targets or
places, or greyed with the reason the server would give on sending — the app holds no rules."""

from __future__ import annotations

from chalicelib.core.game import Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.deck import Deck
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, GAME_D
from chalicelib.games.shengong.guide import guide_for
from chalicelib.games.shengong.terms import ActionType, ModeKey, Place
from tests.unit.games.shengong.abc.helpers import board, entrants, seat
from tests.unit.games.shengong.d.helpers import new_game


def options(game, state, s: int) -> dict[ActionType, object]:
    you = game.view(state, Viewer.player(s)).you
    assert you is not None
    return {o.type: o for o in you.options}


def test_d_attacks_name_the_living_opponents_and_meal_is_not_offered():
    """Seed D④: 攻击指定对手，不选则打存活中的第一个; D has no 送膳 (the D action table)."""
    state = new_game(3)
    opts = options(GAME_D, state, 0)
    assert ActionType.MEAL not in opts
    assert opts[ActionType.POISON].allowed and opts[ActionType.POISON].targets == tuple(o.index for o in state.opponents)
    down = state.opponents[0].model_copy(update={"hp": 0, "alive": False})
    fallen = state.model_copy(update={"opponents": (down, *state.opponents[1:])})
    assert options(GAME_D, fallen, 0)[ActionType.ASSASSINATE].targets == tuple(o.index for o in state.opponents[1:])


def test_a_voided_move_greys_everything_but_idle_with_the_reason():
    """Seed: 暗杀…令其下回合行动作废 — her buttons say so before she sends anything."""
    state = new_game(1)
    voided = state.model_copy(update={"players": (state.players[0].model_copy(update={"voided": True}),
                                                  *state.players[1:])})
    opts = options(GAME_D, voided, 0)
    assert opts[ActionType.IDLE].allowed
    for kind in (ActionType.POISON, ActionType.HEAL, ActionType.MOVE):
        assert not opts[kind].allowed and opts[kind].code == "ACTION_VOIDED" and "作废" in (opts[kind].reason or "")


def test_a_voided_turn_offers_discards_only_where_she_holds_cards():
    """Decision: the voided text (her banner, her greyed buttons, a refused send) says 「可弃牌」 only in C,
    where she seals her 待机 and holds cards; A and B have no cards to throw away; in D she seals
    nothing (the round does not wait for her), so it says so."""
    want = "你本回合的行动已被暗杀作废，只能待机（无加成）"
    d = new_game(1)
    d = d.model_copy(update={"players": (d.players[0].model_copy(update={"voided": True}), *d.players[1:])})
    cases = [(GAME_A, board(seat(0, voided=True), seat(1), mode=ModeKey.A), want),
             (GAME_B, board(seat(0, voided=True), seat(1), mode=ModeKey.B), want),
             (GAME_C, board(seat(0, voided=True, deck=Deck()), seat(1), mode=ModeKey.C), want + "，可弃牌"),
             (GAME_D, d, want + "：本回合不必落子，自动待机")]
    for game, state, text in cases:
        you = game.view(state, Viewer.player(0)).you
        assert you is not None and you.voided_reason == text, game
        assert {o.reason for o in you.options if not o.allowed} == {text}, game


def test_palace_entry_thresholds_grey_the_special_places():
    """DECISIONS #4: 御膳房 needs 好感 ≥ 6, 摘星楼 气血 ≥ 6, 乾清宫 好感 ≥ 5 to enter."""
    low = board(seat(0, "景仁宫", hp=5, grace=4), *(seat(i, "承乾宫") for i in range(1, 8)))
    move = options(GAME_A, low, 0)[ActionType.MOVE]
    assert move.allowed and Place.CHENGQIAN in move.places
    assert {Place.KITCHEN, Place.TOWER, Place.HALL}.isdisjoint(move.places)
    high = board(seat(0, "景仁宫", hp=10, grace=7), *(seat(i, "承乾宫") for i in range(1, 8)))
    assert {Place.KITCHEN, Place.TOWER, Place.HALL} <= set(options(GAME_A, high, 0)[ActionType.MOVE].places)
    assert options(GAME_A, low, 0)[ActionType.MEAL].allowed  # 送膳 away from 乾清宫 is 失仪, not refused
    # each shut place says why, with her own value beside the bar (a greyed tile told her only the rule)
    shut = {s.place: s.reason for s in move.shut}
    assert shut[Place.KITCHEN] == "御膳房 须好感≥6方可进入（你的好感 4）"
    assert shut[Place.TOWER] == "摘星楼 须气血≥6方可进入（你的气血 5）"
    assert Place.JINGREN in shut and Place.CHENGQIAN not in shut  # where she stands: 你已身在…


def test_meal_away_from_the_hall_is_open_but_says_its_cost_first():
    """Seed: 送膳须身处乾清宫，不在而送＝失仪（−1 好感）. Allowed, and the button says so before she seals it."""
    away = board(seat(0, "永寿宫", hp=10, grace=7), *(seat(i, "承乾宫") for i in range(1, 8)))
    meal = options(GAME_A, away, 0)[ActionType.MEAL]
    assert meal.allowed and meal.warning == "不在乾清宫，送膳即失仪：好感 −1"
    there = board(seat(0, "乾清宫", hp=10, grace=7), *(seat(i, "承乾宫") for i in range(1, 8)))
    assert options(GAME_A, there, 0)[ActionType.MEAL].warning is None
    assert all(o.warning is None for o in options(GAME_A, away, 0).values() if o.type is not ActionType.MEAL)


def test_only_the_seat_itself_gets_its_buttons():
    state = new_game(1)
    assert GAME_D.view(state, Viewer.spectator()).you is None
    host = GAME_D.view(state, Viewer.host())
    assert host.private is not None and all(p.options for p in host.private)


def test_a_card_game_attack_names_its_chance_with_each_hit_card_at_her_place():
    """玩法C ⑤⑥ 进攻牌…提升命中, 效果一律 ×宫女等级: in A/B/C the chance is at her place, one figure per card;
    A and B have no hand, so none."""
    state = GAME_C.setup(entrants({0: [("xiuzhen", 1)]}), GAME_C.parse_options({}), Rng.from_int(1))
    stab = options(GAME_C, state, 0)[ActionType.ASSASSINATE]
    assert {c.copy_id for c in stab.card_chances} == {"xiuzhen#1", "xiuzhen#2"}
    assert {c.chances for c in stab.card_chances} == {(75 + 8,)}
    assert options(GAME_A, board(seat(0), *(seat(i) for i in range(1, 8))), 0)[ActionType.ASSASSINATE].card_chances == ()


def test_every_button_says_what_its_action_does_as_the_page_does():
    """Seed 「行动」 table (效果 column): a newcomer who picks 待机 or 继续驻留 reads what it does — the line the
    玩法 page has for it (one source for both), A/B/C and D alike."""
    for game, state in ((GAME_A, board(seat(0), *(seat(i) for i in range(1, 8)))), (GAME_D, new_game())):
        opts = options(game, state, 0)
        page = [line for s in guide_for(game.mode, 90) if s.title == "行动" for line in s.lines]
        for kind, option in opts.items():
            assert option.effect, kind
            core = option.effect.rstrip("。").split("。")[0]
            assert any(core in line for line in page), (kind, option.effect)
        assert opts[ActionType.IDLE].effect == "自身气血、好感各 ＋0.5，同宫者各 ＋0.1，本回合所受气血伤害 −1。"
        assert opts[ActionType.STAY].effect == "原地不动，无加成。"


def test_a_shut_place_says_why_in_a_tiles_few_words():
    """Decision: the map's shut tile says why in the player's words (`shut[].short`): the bar she lacks with
    her value and the minimum (「好感 4＜6」), or 「你在此处」; the full refusal stays in `reason`."""
    low = board(seat(0, "景仁宫", hp=5, grace=4), *(seat(i, "承乾宫") for i in range(1, 8)))
    short = {s.place: s.short for s in options(GAME_A, low, 0)[ActionType.MOVE].shut}
    assert short[Place.KITCHEN] == "好感 4＜6"
    assert short[Place.TOWER] == "气血 5＜6"
    assert short[Place.HALL] == "好感 4＜5"
    assert short[Place.JINGREN] == "你在此处"
