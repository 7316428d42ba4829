"""Serialisation and projections: state round-trips, views hide hands and the guard, replays."""

from __future__ import annotations

import json
import re
from collections import Counter
from typing import get_args

import pytest

from chalicelib.core.errors import NotFound
from chalicelib.core.game import Viewer
from chalicelib.games.baohuang.actions import Declare, Pass, Play, action_adapter
from chalicelib.games.baohuang.cards import Variant, pack
from chalicelib.games.baohuang.events import (
    AutoChanged,
    DealEnded,
    DealStarted,
    Declared,
    Event,
    GrabFailed,
    GuardRevealed,
    HandDealt,
    Passed,
    Played,
    Ready,
    Redealt,
    SeatQuit,
    TableEnded,
    ThronePassed,
    ThroneTaken,
    TrickWon,
    WentOut,
    event_adapter,
)
from chalicelib.games.baohuang.game import GAME
from chalicelib.games.baohuang.lines import line_adapter
from chalicelib.games.baohuang.model import BaohuangState, Phase, RedealReason, RevealHow, Solo, TableEnd
from chalicelib.games.baohuang.views import view

from .helpers import act, new_table, rng, table


def roundtrip(state: BaohuangState) -> BaohuangState:
    return GAME.state_model.model_validate(json.loads(json.dumps(state.model_dump(mode="json"))))


@pytest.mark.parametrize("variant", ["simple", "classic"])
def test_state_roundtrips_through_json_in_every_phase(variant):
    """Brief: "State round-trips exactly through state_model.model_validate(state.model_dump(mode="json"))"."""
    state = new_table(variant, baoliu=True)
    seen = set()
    step = 0
    while state.phase is not Phase.OVER and len(seen) < 4:
        seen.add(state.phase)
        assert roundtrip(state) == state
        step += 1
        if state.phase is Phase.DECLARE:
            state = GAME.settle(state, {}, rng(step)).state
        else:
            state = GAME.on_timeout(state, rng(step)).state
    assert roundtrip(state) == state
    assert seen == {Phase.THRONE, Phase.DECLARE, Phase.PLAY} or Phase.BETWEEN in seen


def test_action_and_event_shapes_parse():
    assert action_adapter.validate_python({"type": "play", "cards": ["S7#1", "BJ#2"]}) == Play(cards=("S7#1", "BJ#2"))
    assert action_adapter.validate_json('{"type":"take_throne","call":"HA"}').call == "HA"
    assert action_adapter.validate_python({"type": "kick", "seat": 2}).seat == 2
    tr = GAME.on_timeout(new_table(), rng(1))
    for event in tr.events:
        assert event_adapter.validate_python(event.model_dump(mode="json")) == event


def mid_play_state():
    """A real deal after the declaration: seat hands full size, guard hidden."""
    state = new_table("classic", seed=21)
    state = GAME.on_timeout(state, rng(1)).state  # the holder takes the throne in 托管
    state = GAME.settle(state, {}, rng(2)).state
    return state.model_copy(update={"auto": (False,) * 5})


def test_a_player_view_never_shows_another_hand_nor_the_hidden_guard():
    """Brief: "never another hand nor the unrevealed guard identity (unless she is the guard)"."""
    state = mid_play_state()
    deal = state.deal
    assert deal.guard is not None and not deal.revealed
    for seat in range(5):
        v = GAME.view(state, Viewer.player(seat))
        text = v.model_dump_json()
        assert v.hand == deal.hands[seat]
        others = {code for s in range(5) if s != seat for code in deal.hands[s]}
        assert not [code for code in others if f'"{code}"' in text]
        if seat == deal.guard:
            assert v.guard == seat and v.my_role == "guard"
        else:
            assert v.guard is None and f'"guard":{deal.guard}' not in text
            assert '"my_role":"guard"' not in text
    spectator = GAME.view(state, Viewer.spectator())
    assert spectator.hand == () and spectator.hands is None and spectator.guard is None
    host = GAME.view(state, Viewer.host())
    assert host.hands == deal.hands and host.guard == deal.guard


def test_hidden_solo_is_known_only_to_that_emperor():
    state = table("LJ#1 S7#1", "S8#1", "S10#1", "SQ#1", "SK#1", guard=None, solo=Solo.HIDDEN)
    assert GAME.view(state, Viewer.player(0)).solo is Solo.HIDDEN
    assert GAME.view(state, Viewer.player(0)).guard == 0
    for seat in range(1, 5):
        v = GAME.view(state, Viewer.player(seat))
        assert v.solo is None and v.guard is None and v.my_role == "commoner"


def test_spectator_cannot_tell_a_hidden_solo_from_a_partnered_deal():
    """「若不声明有"侍卫牌"，为暗独保」: a hidden solo is a secret from the watchers too. A spectator's
    view of a 暗独保 deal and of a 2-v-3 deal must not differ in what it says about the solo or guard."""
    solo = table("LJ#1 S7#1", "S8#1", "S10#1", "SQ#1", "SK#1", guard=None, solo=Solo.HIDDEN)
    pair = table("S7#1", "LJ#1 S8#1", "S10#1", "SQ#1", "SK#1", guard=1, solo=Solo.NONE)
    for state in (solo, pair):
        v = GAME.view(state, Viewer.spectator())
        assert (v.solo, v.guard, v.guard_revealed) == (None, None, False)
    assert GAME.view(pair, Viewer.player(1)).solo is Solo.NONE  # her partner knows there is none


def test_hints_only_for_the_seat_to_play():
    """可出牌型提示: the seat to act sees her legal plays, cheapest first; nobody else sees any."""
    state = mid_play_state()
    turn = state.deal.turn
    mine = GAME.view(state, Viewer.player(turn))
    assert mine.hints and mine.hints_total >= len(mine.hints)
    assert mine.can_pass == (state.deal.trick is not None)
    assert all(set(h) <= set(mine.hand) for h in mine.hints)
    assert all(not GAME.view(state, Viewer.player(s)).hints for s in range(5) if s != turn)


def test_report_shows_each_seat_only_her_own_dealt_hand():
    tr = GAME.on_timeout(new_table(), rng(1))
    state = tr.state
    for seat in range(5):
        dealt = [e for e in GAME.report(state, tr.events, Viewer.player(seat)) if e.kind == "hand_dealt"]
        assert [e.seat for e in dealt] == ([] if not dealt else [seat])
    assert not [e for e in GAME.report(state, tr.events, Viewer.spectator()) if e.kind == "hand_dealt"]


def test_finished_deal_replay_rebuilds_every_hand():
    """Brief: "after a deal, its full record (every play in order, hands revealed) must be derivable"."""
    state = new_table("simple", seed=4).model_copy(update={"auto": (True,) * 5})
    tr = GAME.on_timeout(state, rng(1))  # five 托管 seats play the whole deal
    record = GAME.deal_replay(tr.state, 1)
    assert [e.record for e in tr.events if e.kind == "deal_ended"] == [record]
    hands = [Counter(h) for h in record.dealt]
    assert sum(sum(h.values()) for h in hands) == 168
    for entry in record.log:
        if entry.act == "play":
            hands[entry.seat].subtract(entry.cards)
            assert all(n >= 0 for n in hands[entry.seat].values())
    assert [sorted(+h) for h in hands] == [sorted(h) for h in record.left]
    assert Counter(c for h in record.dealt for c in h) == Counter(pack(Variant.SIMPLE))
    with pytest.raises(NotFound):
        GAME.deal_replay(tr.state, 2)


def test_declaration_choices_stay_secret_until_settled():
    """DECISIONS 保皇 #4: "every non-emperor is offered the same choices at the same time ... so the
    choice reveals nothing". The engine stores no sealed move, so views cannot leak one."""
    state = table("BJ#1 S7#1", "LJ#1 S8#1", "S9#1", "S10#1", "SJ#1", phase=Phase.DECLARE)
    GAME.check(state, Viewer.player(1), Declare())  # accepted for the sealed store
    assert GAME.view(state, Viewer.player(2)) == GAME.view(state, Viewer.player(2))
    assert all(GAME.view(state, Viewer.player(s)).can_grab is False for s in range(5))


def one_of_each_event():
    """One event of every kind, with the deal record of a finished deal."""
    record = GAME.on_timeout(new_table("simple", seed=4).model_copy(update={"auto": (True,) * 5}), rng(1)).state.last
    return [
        DealStarted(deal_no=1, dealer=0, holder=2, counts=(34, 34, 34, 33, 33)),
        HandDealt(seat=1, cards=("S7#1", "BJ#2")),
        ThronePassed(seat=2, to=1),
        ThroneTaken(seat=1, called="HA", auto=True),
        Redealt(reason=RedealReason.NO_EMPEROR),
        Declared(rebels=(3, 4)),
        GrabFailed(seat=3),
        GuardRevealed(seat=2, how=RevealHow.FORCED),
        Played(seat=1, cards=("S7#1", "H7#2", "BJ#2")),
        Passed(seat=2),
        TrickWon(seat=1, leader=2),
        WentOut(seat=1, place=1),
        DealEnded(record=record, totals=record.scores),
        AutoChanged(seat=4, on=True),
        Ready(seat=0),
        SeatQuit(seat=3, penalty=30),
        TableEnded(reason=TableEnd.QUIT, totals=(0, 0, 0, -30, 0)),
    ]


def test_every_report_line_has_chinese_text():
    """Issue #8: every report line a viewer gets has a readable Chinese `text` next to its fields."""
    state = new_table()
    events = one_of_each_event()
    assert {type(e).__name__ for e in events} == {t.__name__ for t in get_args(get_args(Event)[0])}
    lines = GAME.report(state, events, Viewer.host())
    assert [line.kind for line in lines] == [e.kind for e in events]
    for event, line in zip(events, lines, strict=True):
        assert re.search(r"[\u4e00-\u9fff]", line.text), line
        assert line.model_dump(exclude={"text"}) == event.model_dump()
        assert line_adapter.validate_python(line.model_dump()) == line
    texts = {line.kind: line.text for line in lines}
    assert texts["played"] == "玩家1出 ♠7 ♥7 大王"
    assert texts["throne_taken"] == "玩家1登基，叫♥A（托管）"
    assert texts["guard_revealed"] == "两人以上造反，侍卫玩家2被迫亮明身份"
    assert texts["declared"] == "玩家3、玩家4造反"
    assert texts["trick_won"] == "玩家1最大且已出完，玩家2接风先出"
    assert texts["went_out"] == "玩家1出完牌，头游"  # as the table and the rules card say it
    assert texts["seat_quit"] == "玩家3强退，扣30分"
    # private lines reach their seat and the host only
    assert [line.kind for line in GAME.report(state, events, Viewer.player(1))].count("hand_dealt") == 1
    assert {"hand_dealt", "grab_failed"}.isdisjoint(line.kind for line in GAME.report(state, events, Viewer.player(0)))
    assert {"hand_dealt", "grab_failed"}.isdisjoint(line.kind for line in GAME.report(state, events, Viewer.spectator()))


def test_the_report_names_the_card_that_revealed_the_guard_in_each_variant():
    """Seed: simple 「牌中有一张小王标有宝剑，当作'侍卫'牌」; classic 「皇帝可以选择叫自己手中三张同花色同点数的牌，
    由持第四张该花色点数牌的人作为自己的侍卫」 — in classic she is revealed by the called face, not a 侍卫 card."""
    classic = table("HA#1 HA#2 HA#3 S7#1", "HA#4 S8#1 S8#2", "S9#1 S9#2", "S10#1 S10#2", "SJ#1 SJ#2",
                    variant="classic", emperor=0, guard=1, called="HA", turn=1)
    lines = GAME.report(classic, act(classic, 1, Play(cards=("HA#4",))).events, Viewer.player(2))
    assert [line.text for line in lines if line.kind == "guard_revealed"] == ["玩家1打出所叫的♥A，亮明侍卫身份"]
    simple = table("S7#1 S9#1", "LJ#1 S8#1", "S9#2 S10#2", "S10#1 SQ#2", "SJ#1 SJ#2", emperor=0, guard=1, turn=1)
    lines = GAME.report(simple, act(simple, 1, Play(cards=("LJ#1",))).events, Viewer.player(2))
    assert [line.text for line in lines if line.kind == "guard_revealed"] == ["玩家1打出侍卫牌，亮明侍卫身份"]


def test_each_seat_shows_its_word_in_the_trick_and_the_trick_last_won_stays_in_view():
    """Bots play in a moment: a player who looks again after her 不出 must still see who played what in
    this trick (each seat's latest play, or 不出) and who took the last one, with what (decision,
    docs/rules/baohuang.md §17)."""
    state = table("S7#1 S7#2 SA#1", "S8#1 S9#1 S2#1", "S10#1 SQ#1 H10#1", "SJ#1 DJ#1 CJ#1", "S6#1 D6#1 C6#1")
    tr = act(state, 0, Play(cards=("S7#1",)))
    tr = act(tr.state, 1, Play(cards=("S8#1",)))
    tr = act(tr.state, 2, Pass())
    for viewer in (Viewer.player(3), Viewer.spectator()):
        seats = GAME.view(tr.state, viewer).seats
        assert [(s.played, s.passed) for s in seats] == [(("S7#1",), False), (("S8#1",), False), ((), True),
                                                          ((), False), ((), False)]
    assert GAME.view(tr.state, Viewer.player(3)).last_trick is None
    for seat in (3, 4, 0):
        tr = act(tr.state, seat, Pass())
    view = GAME.view(tr.state, Viewer.player(2))
    assert (view.last_trick.seat, view.last_trick.cards) == (1, ("S8#1",)) and view.trick is None
    assert all(s.played == () and not s.passed for s in view.seats)  # a new trick: 乙 leads it
    tr = act(tr.state, 1, Play(cards=("S9#1",)))
    view = GAME.view(tr.state, Viewer.player(2))
    assert view.seats[1].played == ("S9#1",) and view.last_trick.cards == ("S8#1",)


def test_the_last_person_playing_is_told_her_tuoguan_would_end_the_table():
    """Rules §15: a table where every seat is in 托管 or a bot's ends after the deal. Her view says when
    she is the one person left playing, so a tap on 托管 is asked first, not a surprise end."""
    state = new_table()
    among_bots = state.model_copy(update={"bots": (False, True, True, True, True)})
    assert view(among_bots, Viewer.player(0)).last_player is True
    assert view(among_bots, Viewer.player(1)).last_player is False  # a bot's seat is not asked
    others_away = state.model_copy(update={"auto": (False, True, True, False, True), "bots": (False, False, False, True, False)})
    assert view(others_away, Viewer.player(0)).last_player is True
    one_more = state.model_copy(update={"bots": (False, True, True, True, False)})
    assert view(one_more, Viewer.player(0)).last_player is False
    assert view(among_bots, Viewer.spectator()).last_player is False
