"""Rules the code had settled but the rules document did not say (docs/rules/shengong.md §1, §6, §8,
§13, §15), each pinned here by a test quoting the seed line it relates to."""

from __future__ import annotations

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import BotLevel, Entrant, Game, Viewer
from chalicelib.core.rng import Rng
from chalicelib.domain.model import Competition, Room, RoomStatus, SeatEntry
from chalicelib.domain.ports import RecordIncrement
from chalicelib.games.shengong import bosses
from chalicelib.games.shengong.actions import Poison, Stay
from chalicelib.games.shengong.cards import CATALOGUE, Rarity
from chalicelib.games.shengong.formulas import player_chance
from chalicelib.games.shengong.game import GAME_A, GAME_B, GAME_C, GAME_D
from chalicelib.games.shengong.modes import MODES
from chalicelib.games.shengong.profile import ATTRIBUTE_MAX, MAID_LEVEL_MAX, profile_of
from chalicelib.games.shengong.scoring import outcome
from chalicelib.games.shengong.terms import Attack, ModeKey, Place, Result
from chalicelib.records.policy import side_writes
from chalicelib.records.service import derived
from infra import demo_data

from .abc.helpers import Script, act, action_of, board, passive_of, run, seat, t
from .d.helpers import ScriptRng, entrants, event, force_plan, new_game, profile, settle, shape

R_IDS = {c.id for c in CATALOGUE.values() if c.rarity is Rarity.R}


# ---- §6 摘星楼: the penalty on others comes with the act, not with the hit ----------------------------

def _tower_board():
    """Seat 0 frames from 摘星楼; seat 1 stands at 景仁宫; 2 待机s, 3 送膳s at 乾清宫, 4 养生s."""
    return board(seat(0, "摘星楼"), seat(1, "景仁宫"), seat(2, "承乾宫"), seat(3, "乾清宫"), seat(4, "长春宫"))


def _others(frame_at: str):
    return {0: dict(type="frame", place=frame_at), 1: dict(type="stay"), 2: dict(type="idle"),
            3: dict(type="meal"), 4: dict(type="heal")}


def _assert_tower_penalty(new, ev) -> None:
    assert new.players[0].hp == t(10 - 2), "the framer pays −2 in all (DECISIONS #13)"
    assert new.players[2].grace == t(5 - 1 + 0.5 + 0.2), "the 待机 seat −1 好感"
    assert new.players[3].grace == t(5 - 1 + 2 + 0.2), "the 送膳-er at 乾清宫 −1 好感"
    assert new.players[4].grace == t(5 + 0.2), "养生 is not touched by the tower"
    assert {h.index for h in passive_of(ev, 0).hits} == {2, 3}
    assert new.players[0].stats.grace_damage == t(2), "the passive's damage is credited to the framer"


def test_the_tower_penalty_on_others_fires_on_a_missed_frame():
    """身处摘星楼行诬告 → 自己 −2 气血，并让待机者与在乾清宫送膳者 −1 好感 — Decision: the act of 诬告 from
    摘星楼 is what triggers it, so a miss hurts the 待机 seats and the 送膳-ers at 乾清宫 all the same."""
    new, ev = run(_tower_board(), _others("景仁宫"), Script(rolls=[99]))
    assert action_of(ev, 0).result is Result.MISS
    assert new.players[1].grace == t(5 + 0.2), "the missed target takes nothing"
    _assert_tower_penalty(new, ev)


@pytest.mark.parametrize("aim", ["延禧宫", "摘星楼"])
def test_the_tower_penalty_on_others_fires_on_a_frame_at_an_empty_place(aim):
    """身处摘星楼行诬告 → 自己 −2 气血，并让待机者与在乾清宫送膳者 −1 好感 — Decision: also when nobody else
    stands where she aims (an empty place, or 摘星楼 itself with her alone): no roll, the penalty stands."""
    s = _tower_board()
    GAME_A.check(s, Viewer.player(0), act(type="frame", place=aim))  # legal: nobody checks who stands there
    new, ev = run(s, _others(aim), Script(rolls=[0]))
    assert action_of(ev, 0).result is Result.NO_TARGET and action_of(ev, 0).chance is None
    _assert_tower_penalty(new, ev)


# ---- §1 a 妃子's numbers: attributes 0–100, 宫女 levels 1–5 ------------------------------------------

def test_consort_attributes_are_0_to_100_and_maid_levels_1_to_5():
    """D② 气血 ＝ 容貌/10 + 10；下毒命中 ＝ 90 + 权势/20 + 牌 … （上限 95%）; ⑥ 效果一律 ×宫女等级 — Decision:
    容貌 / 才情 / 圣宠 / 权势 are 0–100 and a 宫女 is Lv.1–5; a seat outside them is refused (BAD_PROFILE)."""
    assert (ATTRIBUTE_MAX, MAID_LEVEL_MAX) == (100, 5)
    for bad in (dict(looks=101), dict(talent=-1), dict(favor=101), dict(power=101),
                dict(maids=[("xunyi", 0)]), dict(maids=[("xunyi", MAID_LEVEL_MAX + 1)])):
        d_seats = entrants(profile("甄嬛", **bad))
        palace_seats = [Entrant(seat=i, name=f"妃{i}", persona=d_seats[0].persona if i == 0 else profile(f"妃{i}"))
                        for i in range(8)]
        for game, seats in ((GAME_D, d_seats), (GAME_C, palace_seats)):
            with pytest.raises(IllegalAction) as e:
                game.check_start(seats, game.parse_options({}))
            assert e.value.code == "BAD_PROFILE", (game.key, bad)
    edge = [profile("甄嬛", looks=0, power=0, talent=0, favor=0, maids=[("xunyi", 1)]),
            profile("沈眉庄", looks=100, power=100, talent=100, favor=100, maids=[("xunyi", MAID_LEVEL_MAX)])]
    for e in entrants(*edge):
        profile_of(e)
    s = new_game(1, *edge)
    # what the limits imply: D 气血 10–20, an attribute hit bonus of +0 to +5, the strongest card Lv.5
    assert [(p.hp, p.hp_max) for p in s.players[:2]] == [(100, 100), (200, 200)]
    d = MODES[ModeKey.D]
    assert [player_chance(d, s.players[0], a) for a in Attack] == [90, 75, 85]
    assert [player_chance(d, s.players[1], a) for a in Attack] == [95, 80, 90]
    assert s.players[1].maids == {"xunyi": 5} and CATALOGUE["xunyi"].magnitude(MAID_LEVEL_MAX) == 50


# ---- §13 the 妃子 a bot sits as ------------------------------------------------------------------------

def test_a_bot_sits_as_an_average_consort_with_every_r_maid_at_level_two_or_three():
    """用自己的妃子「＋ 开房」→ 他人「加入」; D② 数值取自妃子本人 — a bot has no 妃子 of her own. Decision: she
    brings an average one, 容/才/宠/权 all 60, with every R 宫女 once, at Lv.2 for 简单 and Lv.3 for 进阶
    (no SR / SSR)."""
    for game in (GAME_A, GAME_B, GAME_C, GAME_D):
        for level, maid_level in ((BotLevel.SIMPLE, 2), (BotLevel.ADVANCED, 3)):
            p = game.bot_persona(4, level)
            assert (p.looks, p.talent, p.favor, p.power) == (60, 60, 60, 60)
            assert dict(p.maids) == {c: maid_level for c in R_IDS}
            assert p.consort_id == "bot-4" and not p.cleared_stages
            profile_of(Entrant(seat=4, name="机器人", persona=p))  # within the limits of §1
    assert len(R_IDS) >= 12 and not {"jinxi", "liuzhu", "jianqiu"} & R_IDS
    # only A/B/C rooms are filled with bots; in D a bot only plays a seat whose player is gone
    assert [g.bot_fill for g in (GAME_A, GAME_B, GAME_C, GAME_D)] == [True, True, True, False]
    bots = [Entrant(seat=i, name=f"机器人{i + 1}", persona=GAME_B.bot_persona(i, BotLevel.ADVANCED))
            for i in range(8)]
    state = GAME_B.setup(bots, GAME_B.parse_options({}), Rng.from_int(3))
    assert all(pl.maids == {c: 3 for c in R_IDS} and pl.hp == 100 for pl in state.players)


def test_a_bot_is_named_as_a_fellow_consort_never_as_a_maid():
    """A bot's name (decision, §13): the seed's 宫女 are cards in her hand (采月, 佩儿…), so a bot under a
    maid's name (春桃, 夏荷 — the platform's default) read as one of them; in 深宫杀 she sits as a fellow
    consort, a surname and a low rank: 「柳答应（机器人）」 (the room adds the mark)."""
    names = GAME_A.bot_names
    assert all(g.bot_names == names for g in (GAME_B, GAME_C, GAME_D)) and names != Game.bot_names
    assert len(set(names)) == len(names) >= 7  # an 8-seat room with one person has seven distinct bots
    assert all(n[-2:] in ("答应", "常在", "贵人") and len(n) == 3 for n in names)
    maids = {c.maid for c in CATALOGUE.values()}
    demo = {name for name, *_ in demo_data.CONSORTS}
    assert not {n[0] for n in names} & {m[0] for m in maids | demo}  # no surname a 宫女 or a demo 妃子 bears
    assert not set(names) & (maids | demo | set(Game.bot_names))


# ---- §8 the seed names a target and a frequency; the attack is this project's choice ----------------

def test_direct_strikes_are_assassinations_that_void_the_victims_next_move():
    """D⑥ 高明珠…六成直取气血最少者；石露的哑巴宫女…五成随机直取 — Decision: 直取 is an 暗杀 on that one player,
    so (DECISIONS #12) a hit also voids her next move."""
    s = shape(new_game(1), hp=(12, 7, 15))
    stay = {i: Stay() for i in range(3)}
    # 高明珠: tactic draw 0 (直取), the one least-气血 player, her roll 0 (a hit)
    t1 = settle(s, stay, ScriptRng(0, 0, 0))
    plan = event(t1, "opponent_acted", opponent=0)
    assert plan.result is Result.HIT
    assert [p.hp for p in t1.state.players] == [120, 70 - 30, 150]
    assert [p.voided for p in t1.state.players] == [False, True, False]
    # stage 3: 高明珠 draws 群诬 and misses, the spy 护主s, the mute maid 随机直取 seat 2 and hits
    s3 = shape(new_game(3), hp=(12, 7, 15))
    t3 = settle(s3, stay, ScriptRng(99, 99, 0, 2, 99, 0))
    assert event(t3, "opponent_acted", opponent=2).result is Result.HIT
    assert [p.hp for p in t3.state.players] == [120, 70, 150 - 30]
    assert [p.voided for p in t3.state.players] == [False, False, True]
    every = [bosses.mute_maid(s3, r) for r in [Rng.from_int(i) for i in range(200)]]
    strikes = [p for p in every if p.tactic is bosses.Tactic.STRIKE_RANDOM]
    assert strikes and all(p.attack is Attack.ASSASSINATE and p.target is not None for p in strikes)


# ---- §15 群芳战绩: 胜率, KD, 场均杀伤 -----------------------------------------------------------------------

def _room(game: str, seats: int) -> Room:
    return Room(id="r1", game=game, title="t", status=RoomStatus.ACTIVE, creator="u0", creator_name="n",
                competition=Competition.FREE, max_seats=seats, min_seats=seats, created_ms=0, updated_ms=0,
                active_ms=0, seats=tuple(SeatEntry(seat=i, user=f"u{i}", name=f"妃{i}", consort=f"c{i}")
                                         for i in range(seats)))


def test_a_d_win_is_the_teams_clear_for_all_three_even_one_who_fell(monkeypatch):
    """战绩跨局累计，派生胜率 · KD · 场均杀伤 · 总积分; D⑤ 须将对手尽数放倒方算通关 — Decision: in D a 胜 is the
    team's clear, counted for each of the three who played, even one who fell; 胜率 = wins / games,
    KD = 击败 / deaths, 场均杀伤 = (气血 + 好感伤害) / games."""
    force_plan(monkeypatch, "gao_mingzhu", Attack.POISON)
    s = shape(new_game(1), hp=(9, 1, 9), opp_hp=(2,), places=(Place.TAVERN, Place.KITCHEN, Place.GARDEN))
    t_ = settle(s, {0: Poison(target=0), 1: Poison(target=0), 2: Stay()}, ScriptRng(0, 0, 0, 0))
    assert t_.state.cleared and [p.alive for p in t_.state.players] == [True, False, True]
    out = outcome(GAME_D.mode, t_.state)
    assert [r.won for r in out.results] == [True, True, True]
    fallen = _counters(out)["c1"]
    assert (fallen["games"], fallen["wins"], fallen["deaths"]) == (1.0, 1.0, 1.0)
    assert fallen["kills"] == 1.0 and fallen["damage"] == 3.0  # 下毒 −2, +1 at 御膳房: the kill is hers
    assert _figures(derived(fallen)) == (1.0, 1.0, 3.0)
    # a wipe is a loss for all three; her record over both games
    wiped = shape(new_game(1), hp=(1, 1, 1))
    lost = settle(wiped, {i: Stay() for i in range(3)}, ScriptRng(0, 0, 0, 0))
    assert lost.state.reason == "wipe"
    again = _counters(outcome(GAME_D.mode, lost.state))["c1"]
    assert (again["games"], again["wins"], again["deaths"], again["kills"], again["damage"]) == (1, 0, 1, 0, 0)
    both = {k: fallen[k] + again[k] for k in fallen}
    assert _figures(derived(both)) == (0.5, 0.5, 1.5)  # 1 clear in 2 games; 1 击败 / 2 deaths; 3 / 2
    # no deaths: KD is the 击败 themselves
    assert _figures(derived({**both, "deaths": 0})) == (0.5, 1.0, 1.5)


def _counters(out) -> dict[str, dict[str, float]]:
    """What each 妃子's record on the D board gains from this outcome."""
    return {w.subject: w.counters for w in side_writes(GAME_D, _room("shengong_d", 3), out, 0)
            if isinstance(w, RecordIncrement)}


def _figures(d: dict) -> tuple[float, float, float]:
    return d["win_rate"], d["kd"], d["avg_damage"]
