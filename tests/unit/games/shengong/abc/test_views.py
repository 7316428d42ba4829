"""看不见的手: views and battle reports never hand anyone another player's order, target or hand."""

from chalicelib.core.game import Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.cards import CATALOGUE
from chalicelib.games.shengong.deck import Deck
from chalicelib.games.shengong.game import GAME_A, GAME_C, PalaceOptions
from chalicelib.games.shengong.places import ORDINARY
from chalicelib.games.shengong.terms import Attack, Place
from chalicelib.games.shengong.terms import ModeKey as Mode

HALL = Place.HALL

from .helpers import NAMES, act, action_of, board, entrants, run, seat

# every seat owns one distinct R 宫女, so any card name in a JSON says whose hand it came from
CARD_OF = ("xunyi", "xiuzhen", "qiaoshe", "hedinghong", "yexing", "tongxin", "tieshen", "jinyan")
OWN = {i: [(CARD_OF[i], 1)] for i in range(8)}


def _round_one():
    s = GAME_C.setup(entrants(OWN), PalaceOptions(), Rng.from_int(8))
    target = s.players[1].place
    moves = {0: act(type="poison", place=target, cards={"attack": "xunyi#1"}),
             2: act(type="frame", place=target, cards={"attack": "qiaoshe#1"}),
             3: act(type="heal"), 5: act(type="idle", cards={"general": f"{CARD_OF[5]}#1"})}
    tr = GAME_C.settle(s, moves, Rng.from_int(8, 1))
    return s, tr, target


def _texts(lines, *scopes):
    return [line.text for line in lines if line.scope in scopes]


def _card_words(seat_no):
    c = CATALOGUE[CARD_OF[seat_no]]
    return (c.id, c.skill, c.maid)


def test_player_view_shows_only_her_own_hand():
    """玩法C ⑦ 手牌只有自己（与司礼）可见."""
    s, tr, _ = _round_one()
    for state in (s, tr.state):
        for me in range(8):
            view = GAME_C.view(state, Viewer.player(me))
            assert view.you.seat == me and view.private is None
            blob = view.model_dump_json()
            for other in range(8):
                if other != me:
                    assert not any(w in blob for w in _card_words(other)), (me, other)
            assert CATALOGUE[CARD_OF[me]].skill in blob


def test_host_sees_every_hand_and_spectator_none():
    """司礼（admin）可全局观战; 未认领妃子也可点「观战」入席，只见结果与匿名播报."""
    _, tr, _ = _round_one()
    host = GAME_C.view(tr.state, Viewer.host())
    assert [p.seat for p in host.private] == list(range(8)) and all(p.hand.hand for p in host.private)
    spec = GAME_C.view(tr.state, Viewer.spectator())
    assert spec.private is None and spec.you is None
    assert len(spec.players) == 8 and spec.round == 2 and spec.round_limit == 20


def test_reports_give_full_text_to_the_actor_and_anonymous_lines_to_others():
    """战报里与你有关的给全文，无关的只作匿名播报（「有人下毒，2 人受伤」）."""
    _, tr, target = _round_one()
    mine = GAME_C.report(tr.state, tr.events, Viewer.player(0))
    assert any(f"对{target}下毒" in x and x.startswith("你在") for x in _texts(mine, "own"))
    victim = GAME_C.report(tr.state, tr.events, Viewer.player(1))
    about = _texts(victim, "about_you")
    assert any(x.startswith("有人下毒，你气血") for x in about)
    assert not any(NAMES[0] in x or NAMES[2] in x for x in about)
    other = GAME_C.report(tr.state, tr.events, Viewer.player(4))
    assert any(x.startswith("有人下毒，") and x.endswith("人受伤") for x in _texts(other, "anonymous"))


def test_reports_tell_what_landed_after_the_idle_guard():
    """待机 | … 本回合受到的气血伤害 −1; 战报里与你有关的给全文，无关的只作匿名播报（「有人下毒，2 人受伤」）.
    The report tells what landed (as the bars and the score, which counts damage dealt net, do): the
    安陵容 who 待机s under a −1 splash is unhurt, says so with what her guard took, and is not counted hurt."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=10), seat(2, "景仁宫", hp=9), seat(3, "景仁宫", hp=8))
    new, ev = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="heal"), 2: dict(type="idle"),
                      3: dict(type="stay")})
    assert (new.players[2].hp, new.players[0].stats.hp_damage) == (95, 20)
    about = [x for x in GAME_A.report(new, ev, Viewer.player(2)) if x.scope == "about_you"]
    assert [(x.text, x.hp) for x in about] == [("有人下毒，你无损（挡下 气血 1）", 0.0)]
    own = _texts(GAME_A.report(new, ev, Viewer.player(0)), "own")
    assert any(f"{NAMES[2]} 无损；{NAMES[3]} 气血 −1" in x for x in own)
    assert "有人下毒，2 人受伤" in _texts(GAME_A.report(new, ev, Viewer.spectator()), "anonymous")


def test_others_cards_show_only_their_slot():
    """玩法C ⑦ 战报里他人出牌只显示「有人打出进攻牌」，不露牌名 — one line per slot with how many (two
    attack cards read 「2 人打出进攻牌」, not two lines)."""
    _, tr, _ = _round_one()
    lines = GAME_C.report(tr.state, tr.events, Viewer.player(4))
    anon = _texts(lines, "anonymous")
    assert anon.count("2 人打出进攻牌") == 1 and anon.count("有人打出通用牌") == 1
    assert not any(t == "有人打出进攻牌" for t in anon)
    assert [ln.count for ln in lines if ln.text == "2 人打出进攻牌"] == [2]
    blob = " ".join(x.text for x in lines)
    for other in (0, 2, 5):
        assert not any(w in blob for w in _card_words(other))
    own = GAME_C.report(tr.state, tr.events, Viewer.player(0))
    assert any("寻医问药" in x for x in _texts(own, "own"))


def test_no_player_ever_receives_another_players_order_or_target():
    """看不见的手：别人的行动与目标根本不下发，你只看得到自己的."""
    _, tr, _ = _round_one()
    for me in range(8):
        lines = GAME_C.report(tr.state, tr.events, Viewer.player(me))
        for line in lines:
            if line.scope in ("anonymous", "about_you"):
                assert not any(n in line.text for n in NAMES), line.text
                assert line.seat is None and line.place is None and not line.cards
            if line.scope in ("anonymous", "about_you", "public"):
                assert not any(place in line.text for place in (*ORDINARY, HALL)), line.text
        view = GAME_C.view(tr.state, Viewer.player(me))
        assert not {"type", "target", "aim", "my_move"} & set(view.model_dump()), "the state holds no move"


def test_spectator_gets_results_and_anonymous_lines_without_names():
    """观战…只见结果与匿名播报 (anonymous lines name nobody)."""
    _, tr, _ = _round_one()
    lines = GAME_C.report(tr.state, tr.events, Viewer.spectator())
    assert {x.scope for x in lines} <= {"anonymous", "public"}
    for text in _texts(lines, "anonymous"):
        assert not any(n in text for n in NAMES), text
    assert any(x.startswith("本回合圣意") for x in _texts(lines, "public"))


def test_host_report_names_everyone():
    """司礼（admin）可全局观战: the host's report is the full text with names."""
    _, tr, target = _round_one()
    host = _texts(GAME_C.report(tr.state, tr.events, Viewer.host()), "host")
    assert any(x.startswith(f"{NAMES[0]}在") and f"对{target}下毒" in x for x in host)
    assert any(x.startswith(f"{NAMES[0]}打出：进攻位「寻医问药」") for x in host)


def test_killer_is_named_only_to_the_killer_and_the_host():
    """Eliminations are public; who is credited with the kill is told to the killer (and host) only."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=1.5), seat(2, "延禧宫"))
    tr = GAME_A.settle(s, {0: act(type="poison", place="景仁宫"), 1: act(type="stay"), 2: act(type="stay")},
                       Rng.from_int(1))
    assert f"你击败了{NAMES[1]}" in _texts(GAME_A.report(tr.state, tr.events, Viewer.player(0)), "own")
    for viewer in (Viewer.player(1), Viewer.player(2), Viewer.spectator()):
        lines = GAME_A.report(tr.state, tr.events, viewer)
        assert not any(NAMES[0] in x.text for x in lines if x.kind == "kill" or x.scope != "public")
    assert any("出局" in x for x in _texts(GAME_A.report(tr.state, tr.events, Viewer.spectator()), "public"))


def test_view_shows_the_decree_of_the_open_round_and_the_limit():
    """每轮圣意随机 2 维 (revealed when the round opens); 终局规则固定（…打满 20 回合）shown read-only."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫"), decree=("favor", "power"))
    v = GAME_A.view(s, Viewer.spectator())
    assert v.decree == ("favor", "power") and v.decree_zh == "宠、权"
    # what it means, in a sentence (the chip says only 「宠、权」; seed: 各维居首者 +1 好感, decision: 落空 −1 气血)
    assert v.decree_text == "圣意：本回合皇上看重圣宠、权势。在乾清宫送膳的人中，每一项最高者好感 +1；哪一项都不居首为落空，气血 −1"
    assert v.round_limit == 20 and v.turn_seconds == 90
    assert [(p.hp, p.grace, p.place, p.alive) for p in v.players[:2]] == [(10.0, 5.0, "承乾宫", True),
                                                                          (10.0, 5.0, "景仁宫", True)]
    entry = {p.place: (p.entry_bar, p.entry_min) for p in v.places if p.entry_bar}
    assert entry == {"御膳房": ("grace", 6.0), "摘星楼": ("hp", 6.0), "乾清宫": ("grace", 5.0)}


def test_voided_flag_is_private():
    """并令其下回合行动作废: only she (and the host) is told her order will be void."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", voided=True, deck=Deck()), mode=Mode.C)
    assert GAME_C.view(s, Viewer.player(1)).you.voided
    assert GAME_C.view(s, Viewer.player(1)).you.voided_reason == "你本回合的行动已被暗杀作废，只能待机（无加成），可弃牌"
    assert not GAME_C.view(s, Viewer.player(0)).you.voided
    assert GAME_C.view(s, Viewer.player(0)).you.voided_reason is None
    assert "voided" not in GAME_C.view(s, Viewer.spectator()).model_dump_json()


def test_mode_b_chances_include_her_passive_maids_as_the_round_settles_them():
    """Seed: 「B · 宫女局 宫女技能全线被动生效」 — the chance her phone shows is the one the round uses."""
    from chalicelib.games.shengong.game import GAME_B

    state = board(seat(0, "承乾宫", maids={"xunyi": 3}), seat(1, "景仁宫"), mode=Mode.B)
    shown = GAME_B.view(state, Viewer.player(0)).you.chances
    plain = GAME_A.view(board(seat(0, "承乾宫"), seat(1, "景仁宫")), Viewer.player(0)).you.chances
    assert shown[Attack.POISON] > plain[Attack.POISON]
    assert shown[Attack.ASSASSINATE] == plain[Attack.ASSASSINATE]  # 寻医问药 helps 下毒 only
    _, events = run(state, {0: act(type="poison", place="景仁宫"), 1: act(type="stay")})
    assert action_of(events, 0).chance == shown[Attack.POISON]


def test_a_score_below_nothing_is_written_with_the_minus_sign():
    """The end's 战报 lines say each score as the result table does: 「得分 −0.42」, not 「-0.42」
    (the table used U+2212, the report a hyphen) — and, decision, written as the table writes them,
    as players write numbers: no trailing zeros (「14.00 / 83.00」 read as a ledger; a UX play-through)."""
    from chalicelib.games.shengong.numbers import score_text

    assert [score_text(x) for x in (-0.42, 0.0, 8.6, 12.0, -3.0, -0.001, 30.16)] == ["−0.42", "0", "8.6", "12", "−3",
                                                                                    "0", "30.16"]


def test_the_end_report_shows_how_each_score_is_made_up():
    """DECISIONS #8: 击败×3 ＋ 气血伤害×0.5 ＋ 好感伤害×0.4 − 承伤×0.1 ＋ 名次分 — the end's 战报 writes each
    seat's sum out (the result table shows only the sum; a 6th place may score below the 7th: 名次 is
    who lasted longest, the score is counted apart)."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", hp=1.5))
    new, events = run(s, {0: dict(type="poison", place="景仁宫"), 1: dict(type="stay")})
    lines = [x.text for x in GAME_A.report(new, events, Viewer.player(1)) if x.kind == "score"]
    assert lines[:2] == [
        "第 1 名 甄嬛 积分 14（击败 1×3 ＋ 气血伤害 2×0.5 ＋ 好感伤害 0×0.4 − 承伤 0×0.1 ＋ 名次分 10）",
        "第 2 名 沈眉庄 积分 6.8（击败 0×3 ＋ 气血伤害 0×0.5 ＋ 好感伤害 0×0.4 − 承伤 2×0.1 ＋ 名次分 7）"]


def test_quiet_moves_are_counted_by_the_names_on_her_buttons():
    """Seed 看不见的手: others' quiet moves are only counted (「另有 2 人移动」); the count names each move
    as her own button does (a reviewer read 「移驾」 beside a button that says 移动)."""
    from chalicelib.games.shengong.terms import ACTION_ZH, ActionType
    from chalicelib.games.shengong.wording import QUIET_ZH

    for kind in (ActionType.HEAL, ActionType.IDLE, ActionType.MOVE):
        assert QUIET_ZH[kind] == ACTION_ZH[kind]
    assert ACTION_ZH[ActionType.STAY].endswith(QUIET_ZH[ActionType.STAY])  # 「继续驻留」 counted as 驻留


def test_a_voided_turn_reads_as_standing_by():
    """Decision: a voided turn is told as the 待机 it is sealed as — on her own line (「你的行动被暗杀作废，
    按待机处理（无加成）」, as a missing move reads 「按待机处理」) and in others' count of quiet moves."""
    s = board(seat(0, "承乾宫"), seat(1, "景仁宫", voided=True), seat(2, "景仁宫"))
    _, events = run(s, {0: act(type="stay"), 1: act(type="idle"), 2: act(type="stay")})
    mine = GAME_A.report(s, events, Viewer.player(1))
    assert "你的行动被暗杀作废，按待机处理（无加成）" in _texts(mine, "own")
    others = _texts(GAME_A.report(s, events, Viewer.player(0)), "anonymous")
    assert any("1 人待机（行动作废）" in t for t in others), others


def test_mode_b_maids_say_their_effect_at_her_level():
    """Seed 「B · 宫女局 宫女技能全线被动生效」 — decision: her passive 宫女 are shown as effect lines, each
    as it acts at her level (`maids[].text_now`: 寻医问药 Lv.3 「下毒命中 +30%」, 贴身护卫 Lv.2 「所受气血伤害 −0.4」)."""
    from chalicelib.games.shengong.game import GAME_B

    state = board(seat(0, "承乾宫", maids={"xunyi": 3, "tieshen": 2}), seat(1, "景仁宫"), mode=Mode.B)
    you = GAME_B.view(state, Viewer.player(0)).you
    assert you is not None
    assert {m.skill: m.text_now for m in you.maids} == {"寻医问药": "下毒命中 +30%", "贴身护卫": "所受气血伤害 −0.4"}


def test_a_place_passive_that_hurt_nobody_is_not_announced():
    """战报里与你有关的给全文，无关的只作匿名播报. A 摘星楼 framer's passive that reached nobody (no 待机, no
    送膳 at 乾清宫) is told to her, not to the others: 「摘星楼有人作祟，0 名…受损」 would tell them only
    that the lone 摘星楼 occupant framed. One that hurt someone is announced with the count."""
    s = board(seat(0, "摘星楼"), seat(1, "景仁宫"), seat(2, "承乾宫"))
    new, ev = run(s, {0: dict(type="frame", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="heal")})
    assert any("身处摘星楼" in x and "0 人受损" in x for x in _texts(GAME_A.report(new, ev, Viewer.player(0)), "own"))
    for viewer in (Viewer.player(1), Viewer.player(2), Viewer.spectator()):
        assert not any("作祟" in line.text for line in GAME_A.report(new, ev, viewer))
    s = board(seat(0, "摘星楼"), seat(1, "景仁宫"), seat(2, "承乾宫"))
    new, ev = run(s, {0: dict(type="frame", place="景仁宫"), 1: dict(type="stay"), 2: dict(type="idle")})
    assert "摘星楼有人作祟，1 名待机者与乾清宫送膳者受损" in _texts(GAME_A.report(new, ev, Viewer.player(1)), "anonymous")
