"""Seed 看不见的手 and 玩法C ⑦: who sees what in boards and battle reports."""

import json

from chalicelib.core.game import Viewer
from chalicelib.games.shengong.actions import Assassinate, Frame, Idle, Poison
from chalicelib.games.shengong.cards import CATALOGUE
from chalicelib.games.shengong.deck import CardPlay
from chalicelib.games.shengong.terms import Attack

from .helpers import GAME, NAMES, ScriptRng, force_plan, new_game, profile, shape

MAIDS = {
    0: (("xunyi", 3), ("tieshen", 1), ("huayu", 1)),
    1: (("xiuzhen", 2), ("shentang", 1), ("tongxin", 2)),
    2: (("qiaoshe", 1), ("jinyan", 2), ("yinzhen", 1)),
}
OPPONENT_NAMES = ("高明珠", "西域间谍", "石露的哑巴宫女")


def _game():
    s = new_game(3, *(profile(NAMES[i], maids=MAIDS[i]) for i in range(3)))
    hands = tuple(tuple(sorted(f"{c}#1" for c, _ in MAIDS[i])) for i in range(3))
    return shape(s, hands=hands)


def _secrets(seat):
    """Everything that names one player's cards."""
    out = set()
    for cid, _ in MAIDS[seat]:
        out |= {f"{cid}#1", f"{cid}#2", CATALOGUE[cid].skill, CATALOGUE[cid].maid}
    return out


def _round(monkeypatch):
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    force_plan(monkeypatch, "xiyu_spy", Attack.POISON)
    force_plan(monkeypatch, "mute_maid", Attack.ASSASSINATE, target=1)
    s = _game()
    moves = {
        0: Poison(target=1, cards=CardPlay(attack="xunyi#1", defence="tieshen#1", general="huayu#1")),
        1: Assassinate(target=2, cards=CardPlay(attack="xiuzhen#1", defence="shentang#1")),
        2: Frame(target=0, cards=CardPlay(attack="qiaoshe#1", defence="jinyan#1", discard=("yinzhen#1",))),
    }
    for seat, move in moves.items():
        GAME.check(s, Viewer.player(seat), move)
    return s, GAME.settle(s, moves, ScriptRng(default=0))


def _dump(models):
    return json.dumps([m.model_dump(mode="json") for m in models], ensure_ascii=False)


def test_a_player_sees_her_own_hand_and_nobody_elses():
    """玩法C ⑦ 手牌只有自己（与司礼）可见."""
    s = _game()
    for seat in range(3):
        v = GAME.view(s, Viewer.player(seat))
        text = v.model_dump_json()
        assert {c.copy_id for c in v.you.hand.hand} == set(s.players[seat].deck.hand)
        assert v.private is None
        for other in set(range(3)) - {seat}:
            assert not any(secret in text for secret in _secrets(other)), (seat, other)


def test_a_spectator_sees_the_board_and_no_hand():
    """看不见的手：未认领妃子也可点「观战」入席，只见结果与匿名播报."""
    s = _game()
    v = GAME.view(s, Viewer.spectator())
    text = v.model_dump_json()
    assert v.you is None and v.private is None
    assert not any(secret in text for seat in range(3) for secret in _secrets(seat))
    assert [p.hp for p in v.players] == [15.0, 15.0, 15.0]
    assert [o.name for o in v.opponents] == list(OPPONENT_NAMES) and v.opponents[1].grace is None


def test_the_host_sees_every_hand():
    """玩法C ⑦ 手牌只有自己（与司礼）可见; 司礼（admin）可全局观战."""
    s = _game()
    v = GAME.view(s, Viewer.host())
    assert [{c.copy_id for c in h.hand.hand} for h in v.private] == [set(p.deck.hand) for p in s.players]


def test_views_hold_no_moves_or_targets():
    """别人的行动与目标根本不下发 — the state holds no sealed move, so no view can carry one."""
    text = GAME.view(_game(), Viewer.player(0)).model_dump_json()
    assert '"target"' not in text and '"action"' not in text


def test_a_player_reads_her_own_action_in_full_and_others_anonymously(monkeypatch):
    """看不见的手：战报里与你有关的给全文，无关的只作匿名播报（「有人下毒，2 人受伤」）."""
    _s, t = _round(monkeypatch)
    lines = GAME.report(t.state, t.events, Viewer.player(0))
    own = [ln.text for ln in lines if ln.scope == "own"]
    assert any(ln.startswith("你在御花园对西域间谍下毒") for ln in own)
    assert any("寻医问药" in ln for ln in own)
    anonymous = [ln.text for ln in lines if ln.scope == "anonymous"]
    assert "有人暗杀，命中一名对手" in anonymous and "有人诬告，命中一名对手" in anonymous
    for line in anonymous:
        assert not any(n in line for n in NAMES)
        if line.startswith("有人"):
            assert not any(o in line for o in OPPONENT_NAMES)  # a teammate's target stays hidden


def test_attacks_on_her_are_in_full_and_on_others_anonymous(monkeypatch):
    """看不见的手：与你有关的给全文."""
    _s, t = _round(monkeypatch)
    mine = [ln.text for ln in GAME.report(t.state, t.events, Viewer.player(0)) if ln.scope == "about_you"]
    # what landed: her defence card (贴身护卫 Lv.1, 0.2) shared between the two blows, as her bar shows
    assert any(ln.startswith("高明珠测试（暗杀") and "你气血 −2.9（挡下 气血 0.1）" in ln for ln in mine)
    # seed 暗杀: 并令其下回合行动作废 (DECISIONS 深宫杀 #12: a boss's 暗杀 does it too): she is told
    assert any(ln.startswith("高明珠测试（暗杀") and "你下回合的行动作废" in ln for ln in mine)
    assert t.state.players[0].voided
    assert any(ln.startswith("西域间谍") and "你们" in ln for ln in mine)
    assert not any(ln.startswith("石露的哑巴宫女") for ln in mine)  # she struck seat 1
    theirs = [ln.text for ln in GAME.report(t.state, t.events, Viewer.player(1)) if ln.scope == "about_you"]
    assert any(ln.startswith("石露的哑巴宫女") for ln in theirs)


def test_other_players_cards_show_only_their_slot(monkeypatch):
    """玩法C ⑦ 战报里他人出牌只显示「有人打出进攻牌」，不露牌名."""
    _s, t = _round(monkeypatch)
    for seat in range(3):
        lines = GAME.report(t.state, t.events, Viewer.player(seat))
        text = _dump(lines)
        assert text.count("2 人打出进攻牌") == 1 and ("有人打出通用牌" in text) == (seat != 0)
        for other in set(range(3)) - {seat}:
            assert not any(secret in text for secret in _secrets(other)), (seat, other)
        assert any(secret in text for secret in _secrets(seat))


def test_spectators_get_results_and_anonymous_lines_without_player_names(monkeypatch):
    """看不见的手：观战…只见结果与匿名播报."""
    _s, t = _round(monkeypatch)
    lines = GAME.report(t.state, t.events, Viewer.spectator())
    assert {ln.scope for ln in lines} == {"anonymous", "public"}
    text = _dump(lines)
    assert not any(secret in text for seat in range(3) for secret in _secrets(seat))
    for ln in lines:
        if ln.scope == "anonymous":
            assert not any(n in ln.text for n in NAMES)
    assert any(ln.text.startswith("甄嬛：气血") for ln in lines if ln.scope == "public")


def test_the_host_reads_every_line_in_full(monkeypatch):
    """司礼（admin）可全局观战."""
    _s, t = _round(monkeypatch)
    lines = GAME.report(t.state, t.events, Viewer.host())
    assert {ln.scope for ln in lines} == {"host", "public"}
    text = _dump(lines)
    for seat in range(3):
        assert NAMES[seat] in text
        assert any(CATALOGUE[cid].skill in text for cid, _ in MAIDS[seat])
    assert "沈眉庄在御花园对石露的哑巴宫女暗杀" in text


def test_defaulted_and_end_lines(monkeypatch):
    """Seed: 未落子按待机处理; D⑦ 积分 ＝ 输出伤害 ＋ 存活 30 ＋ 通关奖励（60 − 回合×3）."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.FRAME)
    s = shape(new_game(1), opp_hp=(2,))
    t = GAME.settle(s, {0: Poison(target=0)}, ScriptRng(0, 99))
    mine = [ln.text for ln in GAME.report(t.state, t.events, Viewer.player(1))]
    assert any(ln.startswith("你未落子，按待机处理") for ln in mine)
    assert "通关！第 1 回合放倒全部对手" in mine
    assert any(ln.startswith("甄嬛 积分 89") for ln in mine)  # 2 + 30 + 57
    assert GAME.view(t.state, Viewer.spectator()).scores[0].score == 89.0
    GAME.check(s, Viewer.player(1), Idle())


def test_a_gain_past_her_cap_is_not_reported_as_landed(monkeypatch):
    """Seed: 未落子按待机处理 (待机: 自身 +0.5 气血 +0.5 好感; 御花园 待机 +0.3); a bar never passes its cap
    (气血上限 = 容貌/10 + 10, 好感上限 10 in 宫斗杀), so her line says what of the gain landed: at full
    bars, nothing (a reviewer read 「自身 气血 +0.8，好感 +0.8」 beside 「无变化」)."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    s = shape(new_game(1), hp=(15, 15, 14.7), grace=(10, 10, 10))
    t = GAME.settle(s, {}, ScriptRng(default=0))
    full = [ln.text for ln in GAME.report(t.state, t.events, Viewer.player(1))]
    assert "你未落子，按待机处理" in full
    near = [ln.text for ln in GAME.report(t.state, t.events, Viewer.player(2))]
    assert "你未落子，按待机处理（自身 气血 +0.3）" in near
    assert [p.hp for p in t.state.players[1:]] == [150, 150]


def test_the_last_round_voids_no_next_move(monkeypatch):
    """Seed: 暗杀 … 并令其下回合行动作废 — there is no next round once the game has ended (the round limit,
    DECISIONS #2), so the last report does not promise one; a round before it still does."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.ASSASSINATE, target=0)
    s = new_game(1)
    early = GAME.settle(s, {}, ScriptRng(default=0))
    assert any("你下回合的行动作废" in ln.text for ln in GAME.report(early.state, early.events, Viewer.player(0)))
    last = GAME.settle(shape(s, round=GAME.mode.round_limit), {}, ScriptRng(default=0))
    assert last.state.over
    lines = [ln.text for ln in GAME.report(last.state, last.events, Viewer.player(0))]
    assert any(ln.startswith("高明珠") and "命中" in ln for ln in lines)
    assert not any("行动作废" in ln for ln in lines)
