"""Travellers (issue #11, item 7): joining the running game, leaving it, and exile.

Seed: 「旅行者：人数超过 15 人；有玩家需要临时加入游戏或早退需要提前退出游戏。…具体身份由玩家自行选择，具体阵营
所属由说书人根据场上局势进行分配。其他玩家知晓旅行者身份和技能，但不知晓其阵营所属。」"""

from __future__ import annotations

import json

import pytest

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Entrant, Transition, Viewer
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.actions import TravellerDetails
from chalicelib.games.zhenhuan.board import Board
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.roles import (
    GUOJUNWANG,
    HUAFEI,
    HUANGSHANG,
    JINXI,
    QIFEI,
    TAISHANGHUANG,
    WENTAIYI,
    YELANYI,
    ZHENHUAN,
)
from chalicelib.games.zhenhuan.state import GameState

from .helpers import (
    HOST,
    act,
    current_view,
    dusk,
    host_lines,
    night,
    pass_until,
    player_act,
    public,
    started,
    step,
)

R = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
GOOD = TravellerDetails(identity="江湖郎中", ability="每天白天可以问说书人一个问题", alignment="good", female=False)
EVIL = TravellerDetails(identity="西域舞姬", ability="只跳舞不说话", alignment="evil", female=True)


def admit(state: GameState, details: TravellerDetails = GOOD, name: str = "新来的") -> Transition:
    return GAME.admit(state, Entrant(len(state.seats), name), details, Rng.from_int(5))


def test_a_traveller_joins_by_day_in_the_next_seat_with_a_public_identity_and_a_secret_alignment() -> None:
    """DECISIONS #13: Travellers may join a running game at dawn or during the day, by the
    storyteller's press; their identity (role and ability text) is public, their alignment is the
    storyteller's choice and secret."""
    day = night(started(R))
    t = admit(day, EVIL)
    state = t.state
    seat = state.seats[7]
    assert (seat.role, seat.traveller_identity, seat.alignment, seat.admitted) == ("traveller", "西域舞姬", "evil", True)
    arrival = next(e for e in t.events if e.kind == "arrival")
    assert (arrival.seat, arrival.identity, arrival.ability) == (7, "西域舞姬", "只跳舞不说话")
    spectator = public(state)
    assert spectator["seats"][7]["traveller"] == "西域舞姬" and spectator["seats"][7]["traveller_ability"]
    for viewer in (Viewer.spectator(), Viewer.player(0)):
        seen = json.dumps([e.model_dump(mode="json") for e in GAME.report(state, t.events, viewer)], ensure_ascii=False)
        view = GAME.view(state, viewer).model_dump(mode="json")
        view.pop("me")
        assert "evil" not in seen + json.dumps(view) and "邪恶" not in seen + json.dumps(view, ensure_ascii=False)
    me = GAME.view(state, Viewer.player(7)).me
    assert (me.role, me.role_name, me.alignment) == ("traveller", "西域舞姬", "evil")
    issues = GAME.view(day, HOST).grimoire.composition_issues
    assert GAME.view(state, HOST).grimoire.composition_issues == issues, "a late traveller is extra to the table"


def test_an_evil_traveller_learns_the_demon() -> None:
    """Official rule (research/botc.md §3.2): an evil Traveller learns who the Demon is."""
    state = admit(night(started(R)), EVIL).state
    tell = [e for e in state.log if e.kind == "tell" and e.seat == 7]
    assert tell and tell[0].seats == (5,)
    good = admit(night(started(R)), GOOD).state
    assert not [e for e in good.log if e.kind == "tell"]


def test_no_traveller_joins_at_night_or_before_the_game_begins() -> None:
    """DECISIONS #13: at dawn or during the day — never at night (nor during setup)."""
    for state in (started(R), act(night(started(R)), type="dusk")):
        with pytest.raises(IllegalAction) as err:
            admit(state)
        assert err.value.code == "TRAVELLER_JOINS_BY_DAY"
    with pytest.raises(IllegalAction) as err:
        GAME.admit(night(started(R)), Entrant(9, "x"), GOOD, Rng.from_int(5))
    assert err.value.code == "SEAT_MISMATCH"
    state = night(started(R))
    for _ in range(13):
        state = admit(state).state
    with pytest.raises(IllegalAction) as err:
        admit(state)
    assert err.value.code == "TABLE_FULL"


def test_a_traveller_leaves_at_any_time_and_counts_nowhere_after() -> None:
    """DECISIONS #13: travellers leave at any time, by the storyteller's press (even at night)."""
    state = admit(night(started(R))).state
    assert GAME.view(state, HOST).day.threshold == 4
    gone = act(act(state, type="dusk"), type="depart", seat=7)
    assert gone.seats[7].departed and public(gone)["seats"][7]["departed"]
    assert gone.log[-1].kind == "departure", "public at once"
    day = night(gone)
    assert GAME.view(day, HOST).day.threshold == 4 and 7 not in public(day)["day"]["nominations"]
    with pytest.raises(IllegalAction):
        act(day, type="depart", seat=7)
    with pytest.raises(IllegalAction):
        act(day, type="depart", seat=0)
    with pytest.raises(IllegalAction):
        act(day, type="nominate", nominator=7, nominee=0)


def test_a_departed_traveller_blessed_by_yelanyi_stays_gone_at_dawn() -> None:
    """DECISIONS #13 and §9: a traveller who left 「counts nowhere any more (not alive, …)」. Blessed by
    叶澜依 and gone before dawn, she does not come back: dawn revives nobody, says nothing of her, and
    she is neither alive nor living for the thresholds; 叶澜依's blessing is spent."""
    roles = [ZHENHUAN, JINXI, GUOJUNWANG, YELANYI, HUAFEI, HUANGSHANG, QIFEI]
    state = act(admit(night(started(roles))).state, type="kill", seat=7)  # she dies by day
    state = step(dusk(state), "yelanyi", 7)
    assert state.night.revive == 7
    state = act(state, type="depart", seat=7)
    assert state.night.revive is None and "叶澜依的祝福落空" in host_lines(state)[-1]
    day = night(state)
    assert day.seats[7].departed and not day.seats[7].alive and "revive" in day.seats[3].spent
    announce = [e for e in day.log if e.kind == "announce"][-1]
    assert announce.revived == () and announce.text == "昨夜平安"
    seat = public(day)["seats"][7]
    assert (seat["alive"], seat["ghost_vote"], seat["departed"]) == (False, False, True)
    assert 7 not in Board(day).living() and GAME.view(day, HOST).day.threshold == 4


def test_travellers_are_exiled_by_anyone_and_everyone_votes_without_a_ghost_vote() -> None:
    """Travellers are exiled, not executed (research/botc.md §3.2): anyone (the dead too) may call it,
    it is no nomination of hers, everyone votes without spending a ghost vote, the bar is half of all
    players, and it is not the day's execution."""
    state = admit(night(started(R))).state
    state = act(act(state, type="kill", seat=2), type="set_ghost_vote", seat=2, has=False)
    state = act(state, type="execute", seat=3)
    state = player_act(state, 2, type="nominate", nominator=2, nominee=7)
    assert state.day.nominations[-1].exile
    state = act(state, type="open_vote")
    assert GAME.pending(state).seats == frozenset(range(8))
    for seat in (2, 3, 0, 1):
        state = player_act(state, seat, type="vote", yes=True)
    state = act(state, type="close_vote")
    exile = state.day.nominations[-1]
    assert exile.voters == (0, 1, 2, 3) and exile.threshold == 4 and exile.ghost == ()
    assert not state.seats[7].alive and not state.seats[2].ghost_vote and state.day.executed == 3
    assert any(e.kind == "execution" and e.exile for e in state.log)
    assert public(state)["day"]["exile_threshold"] == 4


def test_an_exile_vote_that_falls_short_reads_not_exiled() -> None:
    """§9: 「reaching it exiles her (she dies; public 「流放」)」 — so a vote below the bar says 「未流放」. The
    storyteller's correction changes the record, not what the vote did: it says whether the count
    reaches the bar (「够/不够流放票数」), never 「流放」 or 「未流放」 of a seat that stays as the vote left her."""
    state = act(admit(night(started(R))).state, type="nominate", nominator=0, nominee=7)
    short = act(state, type="vote", votes=[0])
    vote = [e for e in short.log if e.kind == "vote"][-1]
    assert vote.text == "8号得1票（需4票）；举手：1号；未流放" and short.seats[7].alive
    exiled = act(state, type="vote", votes=[0, 1, 2, 3])
    assert [e for e in exiled.log if e.kind == "vote"][-1].text.endswith("；流放") and not exiled.seats[7].alive
    fixed = act(exiled, type="edit_vote", index=0, votes=[0])
    assert [e for e in fixed.log if e.kind == "vote"][-1].text == "说书人更正投票：8号得1票（需4票）；举手：1号；不够流放票数"
    assert not fixed.seats[7].alive  # exiled she stays
    raised = act(short, type="edit_vote", index=0, votes=[0, 1, 2, 3])
    assert [e for e in raised.log if e.kind == "vote"][-1].text.endswith("；举手：1号、2号、3号、4号；够流放票数")
    assert raised.seats[7].alive  # the correction exiles nobody


FEMALE = TravellerDetails(identity="江湖女医", ability="每天白天可以问说书人一个问题", alignment="good", female=True)


def _offered(slot) -> set[int]:
    return set(slot.allowed) | {g.seat for g in slot.greyed}


def test_no_ability_makes_a_traveller_another_role_in_secret() -> None:
    """其他玩家知晓旅行者身份和技能 — so she stays what the table sees. Decision: 雨露均沾 cannot make a
    traveller a 宠妃, 太上皇's heir cannot be a traveller, and 「角色」 cannot change a traveller's role:
    otherwise the table would see a traveller the engine no longer treats as one (nominated without
    「流放」, unable to leave, counted in the table's size)."""
    state = dusk(admit(night(started(R)), FEMALE).state)
    state = pass_until(state, "huangshang")
    kill, convert = current_view(state).slots
    assert 7 in kill.allowed and 7 not in _offered(convert)
    with pytest.raises(IllegalAction):
        act(state, type="night_step", step="huangshang", targets=[None, 7], force=True)
    heir_game = dusk(admit(night(started([TAISHANGHUANG if r == HUANGSHANG else r for r in R])), FEMALE).state)
    _kill, heir = current_view(pass_until(heir_game, "taishanghuang")).slots
    assert 7 not in _offered(heir) and 0 in heir.allowed
    with pytest.raises(IllegalAction) as err:
        act(state, type="set_role", seat=7, role=QIFEI, alignment="evil")
    assert err.value.code == "TRAVELLER_ROLE"
