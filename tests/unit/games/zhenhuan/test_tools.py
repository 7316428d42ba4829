"""The storyteller's tools (issue #11, items 2–5): 「告知」, reminder tokens and notes, reopening a
passed step, the suggested false answer for an impaired player, and the catalogue with the seed's
ability texts and the prompts. DECISIONS #6: the storyteller is the authority."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from pydantic import ValidationError

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Viewer
from chalicelib.games.zhenhuan.game import GAME
from chalicelib.games.zhenhuan.night import FIRST_NIGHT, OTHER_NIGHTS, STEPS
from chalicelib.games.zhenhuan.roles import (
    GUOJUNWANG,
    HUAFEI,
    HUANBI,
    HUANGSHANG,
    JINXI,
    QIFEI,
    ROLES,
    WENTAIYI,
    YURAO,
    ZHENHUAN,
)  # fmt: skip
from chalicelib.games.zhenhuan.state import DayState, Reminder, StatusKind

from .helpers import (
    HOST,
    act,
    current,
    current_view,
    dusk,
    has,
    infos,
    night,
    night2,
    pass_until,
    started,
    step,
    to_day,
    transition,
)

R = [ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
SEED_FILE = Path(__file__).resolve().parents[5] / "shared" / "seeds" / "002_885905f2b4922ad5.txt"


def _player_json(state, seat: int | None) -> str:  # type: ignore[no-untyped-def]
    viewer = Viewer.player(seat) if seat is not None else Viewer.spectator()
    return GAME.view(state, viewer).model_dump_json()


# --- 告知 -------------------------------------------------------------------------------------------
def test_tell_sends_a_card_or_free_text_to_one_player_only() -> None:
    """Issue #11: send a free text (≤ 200 characters) or a structured message (a role, a seat, an
    alignment, "these are your minions", "your bluffs are …") to one player."""
    t = transition(started(R), type="tell", seat=2, card="demon", seats=[5], text="记住他")
    (tell,) = [e for e in t.events if e.kind == "tell"]
    assert (tell.seat, tell.seats, tell.note) == (2, (5,), "记住他") and "这是恶魔：6号" in tell.text
    assert [e.kind for e in GAME.report(t.state, t.events, Viewer.player(2))] == ["tell"]
    assert GAME.report(t.state, t.events, Viewer.player(3)) == []
    assert GAME.report(t.state, t.events, Viewer.spectator()) == []
    assert GAME.view(t.state, Viewer.player(2)).me.info[-1] == tell
    bluffs = act(t.state, type="tell", seat=5, card="bluffs", roles=["yurao", "huanbi", "taihou"])
    assert "这些角色不在场：「玉娆」、「浣碧」、「太后」" in bluffs.log[-2].text
    for bad in ({"card": "text"}, {"card": "role"}, {"card": "seat_role", "seats": [1]}, {"card": "alignment"}):
        with pytest.raises(IllegalAction) as err:
            act(t.state, type="tell", seat=1, **bad)
        assert err.value.code == "BAD_TELL"
    with pytest.raises(ValidationError):
        GAME.action_adapter.validate_python({"type": "tell", "seat": 1, "text": "字" * 201})


def test_a_tell_says_the_night_or_day_it_was_given_in() -> None:
    """docs/rules/zhenhuan.md Z-tell-when: her 「我得知的」 says when each line came (第1夜, 第1天), so
    a 告知 given by day is not read as the night's answer."""
    first_night = transition(started(R), type="tell", seat=2, card="text", text="今夜安睡")
    day_one = transition(to_day(R), type="tell", seat=2, card="text", text="白天的话")
    second_night = transition(night2(R), type="tell", seat=2, card="text", text="又入夜了")
    when = [next((e.night, e.day) for e in t.events if e.kind == "tell") for t in (first_night, day_one, second_night)]
    assert when == [(1, None), (None, 1), (2, None)]
    shown = GAME.view(day_one.state, Viewer.player(2)).model_dump(mode="json")["me"]["info"][-1]
    assert (shown["kind"], shown["night"], shown["day"], shown["note"]) == ("tell", None, 1, "白天的话")


# --- reminders and notes ------------------------------------------------------------------------------
def test_reminder_tokens_are_placed_where_the_engine_knows_and_edited_by_the_storyteller() -> None:
    """Issue #11: reminder tokens per role (who was protected, who was chosen, who spoke with the
    storyteller last day…) placed automatically where the engine knows, editable by the storyteller."""
    state = step(started(R), "guojunwang", 0)
    grim = GAME.view(state, HOST).grimoire
    assert [(r.role, r.token, r.auto) for r in grim.seats[0].reminders] == [(GUOJUNWANG, "受保护", True)]
    state = step(state, "huangshang", None, 1)
    state = step(night2(R, {"guojunwang": (0,)}), "guojunwang", 3)
    seats = GAME.view(state, HOST).grimoire.seats
    assert not seats[0].reminders and seats[3].reminders[0].token == "受保护", "the token moves"
    state = act(state, type="add_reminder", seat=4, token="私聊", role="taishanghuang")
    token = GAME.view(state, HOST).grimoire.seats[4].reminders[-1]
    assert (token.token, token.auto) == ("私聊", False)
    for seat in (None, 0, 3, 4):
        assert "受保护" not in _player_json(state, seat) and "私聊" not in _player_json(state, seat)
    state = act(state, type="remove_reminder", id=token.id)
    assert not GAME.view(state, HOST).grimoire.seats[4].reminders
    with pytest.raises(IllegalAction):
        act(state, type="remove_reminder", id=token.id)


def test_a_day_and_tokens_stored_before_alerts_named_their_seat_still_load() -> None:
    """A game in play across a deploy: its stored day held alerts as plain lines and its tokens no expiry;
    they load as alerts about no one (shown until the day ends) and tokens that stay until moved."""
    day = DayState.model_validate({"number": 1, "alerts": ["一丈红：1号发起了提名，应死亡（请按「死亡」）"]})
    assert [(a.text, a.seat, a.press) for a in day.alerts] == [("一丈红：1号发起了提名，应死亡（请按「死亡」）", None, None)]
    token = Reminder.model_validate({"id": 1, "seat": 0, "role": "guojunwang", "token": "受保护", "auto": True})
    assert token.until is None


def test_a_timed_token_comes_off_with_its_time_and_a_dead_token_when_she_lives_again() -> None:
    """The grimoire shows what holds now (a player's review: a 受保护 left on a seat for days read as a
    protection). 果郡王's 受保护 is on until the dawn that ends it — also a drunk 果郡王's, whose choice is
    marked though it protects nobody — and the engine's 死亡 token comes off a seat that lives again."""
    guard = R.index(GUOJUNWANG)
    for drunk in (False, True):
        start = act(started(R), type="set_status", seat=guard, status="drunk") if drunk else started(R)
        chosen = step(start, "guojunwang", 0)
        assert [r.token for r in GAME.view(chosen, HOST).grimoire.seats[0].reminders] == ["受保护"]
        assert has(chosen, 0, StatusKind.PROTECTED) is not drunk
        assert GAME.view(night(chosen), HOST).grimoire.seats[0].reminders == ()
    killed = night(night2(R), {"huangshang": (1, None)})
    assert not killed.seats[1].alive and [r.token for r in killed.reminders if r.seat == 1] == ["死亡"]
    back = act(killed, type="set_alive", seat=1, alive=True)
    assert [r for r in back.reminders if r.seat == 1] == []
    mine = act(act(killed, type="add_reminder", seat=1, token="死亡", role="huangshang"), type="set_alive", seat=1,
               alive=True)
    assert [(r.token, r.auto) for r in mine.reminders if r.seat == 1] == [("死亡", False)], "hers stays"


def test_notes_per_seat_are_the_storytellers_only() -> None:
    """Issue #11: free notes per seat, visible only to the storyteller."""
    state = act(started(R), type="set_note", seat=3, text="说话吞吞吐吐")
    state = act(state, type="set_note", seat=3, text="像是好人")
    assert GAME.view(state, HOST).grimoire.seats[3].note == "像是好人"
    assert all("像是好人" not in _player_json(state, s) for s in (None, 0, 3))
    assert GAME.view(act(state, type="set_note", seat=3, text=""), HOST).grimoire.seats[3].note == ""


# --- reopening a passed step ----------------------------------------------------------------------------
def test_a_passed_night_step_can_be_reopened_and_done_out_of_order() -> None:
    """Issue #11: reopen a passed night step; it becomes current until done, then the night goes on."""
    state = act(pass_until(started(R), "jinxi"), type="night_step", step="jinxi", skip=True)
    assert current(state) == "wentaiyi"
    steps = GAME.view(state, HOST).grimoire.night.steps
    assert next(s for s in steps if s.key == "jinxi").passed
    t = transition(state, type="reopen_step", step="jinxi")
    assert current(t.state) == "jinxi" and t.events[-1].override
    state = act(t.state, type="night_step", step="jinxi", targets=[0, 5])
    assert current(state) == "wentaiyi" and infos(state, 1)[-1].value is True
    with pytest.raises(IllegalAction) as err:
        act(state, type="reopen_step", step="jinxi")
    assert err.value.code == "STEP_NOT_PASSED"


def test_a_passed_step_says_whether_it_is_greyed_now() -> None:
    """A step greyed by a pin (「玩家本回合技能无法发动」) and passed would only be greyed again if reopened:
    its row says so (its reason), and once the storyteller lifts the pin it may be reopened; a step she
    skipped herself carries no reason."""
    state = act(started(R), type="set_status", seat=1, status="pinned")
    state = act(pass_until(state, "jinxi"), type="night_step", step="jinxi")
    state = act(state, type="night_step", step="wentaiyi", skip=True)
    rows = {s.key: s for s in GAME.view(state, HOST).grimoire.night.steps}
    assert rows["jinxi"].passed and rows["jinxi"].disabled
    assert rows["wentaiyi"].passed and rows["wentaiyi"].disabled is None
    state = act(state, type="clear_status", seat=1, status="pinned")
    rows = {s.key: s for s in GAME.view(state, HOST).grimoire.night.steps}
    assert rows["jinxi"].disabled is None


# --- false-information help ---------------------------------------------------------------------------
def test_an_impaired_player_s_step_suggests_a_false_answer_the_storyteller_may_take() -> None:
    """Issue #11: when the acting player is impaired, the step shows the true answer and one suggested
    plausible false answer, which the storyteller may take or change (DECISIONS #5)."""
    state = act(started(R), type="set_status", seat=3, status="drunk")
    state = pass_until(state, "wentaiyi")
    view = current_view(state)
    assert view.hint.startswith("中毒或醉酒：") and view.suggestion == "告知与真实情况相反"
    for seat in (None, 3):
        assert "suggestion" not in _player_json(state, seat) and "告知与真实" not in _player_json(state, seat)
    taken = act(state, type="night_step", step="wentaiyi", targets=[0], use_suggestion=True)
    assert infos(taken, 3)[-1].value is True and taken.night.records[-1].suggested is True
    changed = act(state, type="night_step", step="wentaiyi", targets=[0], answer=False)
    assert infos(changed, 3)[-1].value is False
    with pytest.raises(IllegalAction) as err:
        act(state, type="night_step", step="wentaiyi", targets=[0], answer=False, use_suggestion=True)
    assert err.value.code == "ANSWER_AND_SUGGESTION"
    sober = pass_until(started(R), "wentaiyi")
    assert current_view(sober).suggestion is None
    with pytest.raises(IllegalAction) as err:
        act(sober, type="night_step", step="wentaiyi", targets=[0], use_suggestion=True)
    assert err.value.code == "NO_SUGGESTION"


def test_jinxi_s_false_answer_is_consistent_with_what_she_was_told_before() -> None:
    """Issue #11: the suggested false answer is legal for the role and consistent with what that
    player was told before: 瑾汐 told "no demon among 1号 and 6号" is never pointed at either."""
    state = act(pass_until(started(R), "jinxi"), type="night_step", step="jinxi", targets=[0, 5], answer=False)
    state = act(dusk(night(state)), type="set_status", seat=1, status="poisoned")
    state = pass_until(state, "jinxi")
    fake = int(current_view(state).suggestion.removeprefix("把").split("号")[0]) - 1
    assert fake not in (0, 5) and state.seats[fake].role != HUANGSHANG
    other = next(x for x in (2, 3, 4) if x != fake)
    told = act(state, type="night_step", step="jinxi", targets=[fake, other], use_suggestion=True)
    assert infos(told, 1)[-1].value is True
    told = act(state, type="night_step", step="jinxi", targets=[0, 5], use_suggestion=True)
    assert infos(told, 1)[-1].value is False, "the same pair gets the same answer"


@pytest.mark.parametrize(("role", "key"), [(HUANBI, "huanbi"), (YURAO, "yurao")])
def test_first_night_suggestions_differ_from_the_truth_and_replay_exactly(role: str, key: str) -> None:
    """The suggestion is seeded through the transition's Rng and stored in the state (a replay gives
    the same one); it differs from the truth."""
    roles = [role, JINXI, GUOJUNWANG, WENTAIYI, HUAFEI, HUANGSHANG, QIFEI]
    state = pass_until(act(started(roles), type="set_status", seat=0, status="poisoned"), key)
    again = GAME.state_model.model_validate_json(state.model_dump_json())
    targets = [1] if key == "yurao" else []
    one = act(state, type="night_step", step=key, targets=targets, use_suggestion=True)
    two = act(again, type="night_step", step=key, targets=targets, use_suggestion=True)
    record = one.night.records[-1]
    assert record.given == record.suggested != record.truth and one == two
    assert current_view(state).suggestion


# --- catalogue and prompts -----------------------------------------------------------------------------
def test_the_catalogue_serves_every_role_with_the_seed_ability_text() -> None:
    """Issue #11: every role's ability text (Chinese, from the seed) served with the role catalogue and
    in each player's own view."""
    cat = GAME.catalogue()
    assert [c.key for c in cat.roles] == list(ROLES)
    seed = SEED_FILE.read_text(encoding="utf-8") if SEED_FILE.exists() else None
    for card in cat.roles:
        assert card.ability == ROLES[card.key].ability and card.motto
        if seed is not None:
            for part in card.ability.replace("（", "。").split("。"):
                assert part.strip("）") in seed, (card.key, part)
    assert next(c for c in cat.roles if c.key == JINXI).first_night == FIRST_NIGHT.index("jinxi") + 1
    me = GAME.view(started(R), Viewer.player(1)).me
    assert me.ability == ROLES[JINXI].ability and me.role_name == "瑾汐姑姑"
    json.dumps(cat.model_dump(mode="json"), ensure_ascii=False)


def test_every_step_has_an_official_style_prompt_for_the_storyteller() -> None:
    """Issue #11: the storyteller's prompts use official-style reminder wording."""
    cat = GAME.catalogue()
    assert [s.key for s in cat.first_night] == list(FIRST_NIGHT)
    assert [s.key for s in cat.other_nights] == list(OTHER_NIGHTS)
    for key, step_ in STEPS.items():
        assert step_.prompt and any(w in step_.prompt for w in ("唤醒", "如果", "首夜", "选择")), key
    assert current_view(started(R)).prompt == STEPS[current(started(R))].prompt


def test_a_current_step_whose_holder_is_gone_is_greyed_and_can_be_passed() -> None:
    """DECISIONS #6: overrides change exactly what they say — if the storyteller changes the role of the
    player whose step is current, the step stays current, greyed 「无人可行动」, and is passed."""
    state = act(pass_until(started(R), "jinxi"), type="set_role", seat=1, role="taihou")
    assert current(state) == "jinxi" and current_view(state).disabled == "无人可行动"
    assert current(act(state, type="night_step", step="jinxi")) == "wentaiyi"


def _salted(state, salt: int):
    from chalicelib.games.zhenhuan.board import Board

    return Board(state.model_copy(update={"night": state.night.model_copy(update={"salt": salt})}))


def test_a_suggested_false_answer_is_never_self_evidently_false() -> None:
    """Issue #11: the suggestion is a *plausible* false answer. Roles are unique, so 玉娆 is never told
    another player is 玉娆; 瑾汐's pretend demon is a living player other than herself; 敬妃, a woman,
    is never told fewer than one woman is in play (she counts herself). Over many night salts."""
    from chalicelib.games.zhenhuan import falseinfo

    yurao = pass_until(step(started(["yurao", "jinxi", "guojunwang", "wentaiyi", "qifei", "anlingrong",
                                     "huangshang"]), "anlingrong", 0, None), "yurao")
    assert {falseinfo.wrong_good_role(_salted(yurao, k), 1).role for k in range(200)} & {"yurao"} == set()
    jinxi = to_day(["jingfei", "jinxi", "guojunwang", "wentaiyi", "qifei", "anlingrong", "huangshang"])
    jinxi = act(act(jinxi, type="kill", seat=0), type="kill", seat=2)
    jinxi = pass_until(step(dusk(jinxi), "anlingrong", 1, None), "jinxi")
    demons = {falseinfo.fake_demon(_salted(jinxi, k), 1) for k in range(200)}
    assert demons and not demons & {0, 1, 2, 6}  # not dead 1号/3号, not herself, not the real demon
    jingfei = pass_until(step(started(["jingfei", "jinxi", "guojunwang", "wentaiyi", "sanage", "anlingrong",
                                       "huangshang"]), "anlingrong", 0, None), "jingfei")
    assert min(STEPS["jingfei"].suggest(_salted(jingfei, k), 0, ()) for k in range(200)) >= 1
