"""「轮到你了」: which changes of a room notify whom (a pure function of the room before and after),
and the sender against the fake WeChat server: once per event, never to someone watching, only on
a credit she granted, 43101 drops the credit, 40001 refreshes the token and retries once."""

from __future__ import annotations

import pytest

from chalicelib.auth.wechat_server import WeChatServerClient
from chalicelib.chat.notices import (
    MAX_CREDITS,
    Notice,
    NoticeSender,
    Outcome,
    notices_for,
    subscribe,
    subscriptions,
)
from chalicelib.chat.settings import ChatSettings, NoticeKind, NoticeTemplate
from chalicelib.core.errors import Unavailable, ValidationFailed
from chalicelib.core.game import BotLevel, PendingKind
from chalicelib.core.identity import Caller
from chalicelib.domain.model import PendingInfo, Room, RoomStatus, SeatEntry, Trigger
from chalicelib.domain.ports import User
from chalicelib.store.accounts import DynamoAccountStore
from chalicelib.store.chat import DynamoChatStore
from tests.chat.wechat_fake import APPID, SECRET
from tests.conftest import TABLE

TURN, SEALED, HOST = PendingKind.TURN, PendingKind.SEALED, PendingKind.HOST
ACTIVE, FINISHED, OPEN = RoomStatus.ACTIVE, RoomStatus.FINISHED, RoomStatus.OPEN


def room(version: int, kind: PendingKind | None = None, *seats: int, status=ACTIVE, deadline=None, bots=(),
         title="Parlour") -> Room:
    pending = PendingInfo(kind=kind, seats=seats, deadline_ms=deadline) if kind else None
    return Room(id="r1", game="parlour", title=title, status=status, version=version, creator="u0",
                creator_name="甲", max_seats=3, min_seats=2, pending=pending, created_ms=1, updated_ms=1, active_ms=1,
                seats=tuple(SeatEntry(seat=i, user=f"u{i}", name=f"N{i}", bot=BotLevel.SIMPLE if i in bots else None)
                            for i in range(3)))


def told(old: Room, new: Room, trigger=None) -> list[tuple[str, str]]:
    return [(n.kind.value, n.user) for n in notices_for(old, new, trigger)]


# -- who hears of what ----------------------------------------------------------------------------

def test_her_turn_is_a_turn_pending_that_newly_includes_her_seat():
    assert told(room(3, TURN, 0), room(4, TURN, 1)) == [("turn", "u1")]
    assert told(room(3, TURN, 1), room(4, TURN, 1)) == []  # still hers: she is at it
    assert told(room(3, TURN, 0), room(4, TURN, 0, 2)) == [("turn", "u2")]
    assert told(room(3, SEALED, 0, 1, 2), room(4, TURN, 2)) == [("turn", "u2")]
    assert told(room(0, status=OPEN), room(1, TURN, 0)) == [("turn", "u0")]  # the game starts with her


def test_hurry_tells_the_seats_the_new_round_waits_for():
    assert told(room(5, SEALED, 0, 1, 2), room(6, SEALED, 0, 1, 2), Trigger.HURRY) == [
        ("hurry", "u0"), ("hurry", "u1"), ("hurry", "u2")]
    assert told(room(5, SEALED, 0, 1, 2), room(6, SEALED, 0, 1, 2), Trigger.PLAYER) == []


def test_a_vote_opens_when_the_hosts_pending_becomes_a_turn_with_a_deadline():
    assert told(room(7, HOST), room(8, TURN, 0, 1, 2, deadline=99)) == [("vote", "u0"), ("vote", "u1"), ("vote", "u2")]
    assert told(room(7, HOST), room(8, TURN, 1)) == [("turn", "u1")]  # no deadline: a plain turn


def test_the_end_of_the_game_tells_every_seated_player():
    assert told(room(9, TURN, 1), room(10, status=FINISHED)) == [("game_end", "u0"), ("game_end", "u1"),
                                                                 ("game_end", "u2")]
    assert told(room(10, status=FINISHED), room(11, status=FINISHED)) == []


def test_bots_stale_images_and_other_rooms_get_nothing():
    assert told(room(3, TURN, 0), room(4, TURN, 1)) == [("turn", "u1")]
    assert told(room(3, TURN, 0, bots=(1,)), room(4, TURN, 1, bots=(1,))) == []
    assert told(room(4, TURN, 0), room(4, TURN, 1)) == []  # a redelivered or reordered image
    assert told(room(5, TURN, 0), room(4, TURN, 1)) == []
    other = room(4, TURN, 1).model_copy(update={"id": "r2"})
    assert told(room(3, TURN, 0), other) == []


def test_events_are_named_by_the_new_version_and_kind():
    (n,) = notices_for(room(3, TURN, 0), room(4, TURN, 1))
    assert n == Notice(kind=NoticeKind.TURN, room_id="r1", game="parlour", title="Parlour", user="u1", seat=1,
                       event="00000004#turn")


# -- the sender -----------------------------------------------------------------------------------

SETTINGS = ChatSettings(
    notices={NoticeKind.TURN: NoticeTemplate("TPL-TURN"),
             NoticeKind.GAME_END: NoticeTemplate("TPL-END", {"thing1": "game", "thing2": "tip", "time3": "time",
                                                             "character_string4": "room"})},
    notice_page="pages/room/room?id={room_id}&family={family}", miniprogram_state="trial")


@pytest.fixture
def table(atomic_ddb):
    accounts = DynamoAccountStore(atomic_ddb, TABLE)
    for i in range(3):
        accounts.ensure_user(User(id=f"u{i}", name=f"N{i}", role="player", created_ms=1), f"oPlayer{i + 1}")
    return DynamoChatStore(atomic_ddb, TABLE)


@pytest.fixture
def sender(wechat, table, clock, chat_games):
    client = WeChatServerClient(lambda: (APPID, SECRET), wechat.url, table, clock, poll_interval_s=0.01)
    return NoticeSender(settings=SETTINGS, store=table, client=lambda: client, clock=clock)


def grant(table, wechat, user: str, template: str, openid: str) -> None:
    """She tapped 允许 in wx.requestSubscribeMessage: WeChat counts it, and the client tells us."""
    wechat.accept(openid, template)
    subscribe(SETTINGS, table, Caller(user, "N"), [template])


def test_one_notice_per_event_even_when_the_stream_delivers_it_twice(sender, table, wechat):
    grant(table, wechat, "u1", "TPL-TURN", "oPlayer2")
    grant(table, wechat, "u1", "TPL-TURN", "oPlayer2")
    old, new = room(3, TURN, 0), room(4, TURN, 1)
    assert [o for _, o in sender.send(notices_for(old, new))] == [Outcome.SENT]
    assert [o for _, o in sender.send(notices_for(old, new))] == [Outcome.DUPLICATE]
    assert len(wechat.sent) == 1 and table.credits("u1") == {"TPL-TURN": 1}
    sent = wechat.sent[0]
    assert (sent["touser"], sent["template_id"], sent["page"], sent["miniprogram_state"]) == (
        "oPlayer2", "TPL-TURN", "pages/room/room?id=r1&family=parlour", "trial")
    assert sent["data"] == {"thing1": {"value": "Parlour"}, "thing2": {"value": "轮到你出手了"}}


def test_nobody_watching_live_is_notified_and_nobody_without_a_credit(sender, table, wechat):
    grant(table, wechat, "u1", "TPL-TURN", "oPlayer2")
    sender.is_watching = lambda room_id, user: user == "u1"
    assert [o for _, o in sender.send(notices_for(room(3, TURN, 0), room(4, TURN, 1)))] == [Outcome.WATCHING]
    sender.is_watching = lambda room_id, user: False
    assert [o for _, o in sender.send(notices_for(room(4, TURN, 1), room(5, TURN, 2)))] == [Outcome.NO_CREDIT]
    assert wechat.sent == [] and wechat.count("/cgi-bin/message/subscribe/send") == 0


def test_43101_drops_her_credits_and_is_not_retried(sender, table, wechat):
    subscribe(SETTINGS, table, Caller("u1", "N"), ["TPL-TURN", "TPL-TURN"])  # we count two, WeChat none
    assert [o for _, o in sender.send(notices_for(room(3, TURN, 0), room(4, TURN, 1)))] == [Outcome.REFUSED]
    assert table.credits("u1") == {"TPL-TURN": 0}
    assert wechat.count("/cgi-bin/message/subscribe/send") == 1


def test_an_invalid_token_is_refreshed_and_the_notice_sent_on_the_retry(sender, table, wechat):
    grant(table, wechat, "u2", "TPL-END", "oPlayer3")
    sender.client().access_token()
    wechat.revoke()
    long_title = "一场非常非常非常非常非常非常非常非常漫长的宫斗"
    out = sender.send(notices_for(room(9, TURN, 2), room(10, status=FINISHED, title=long_title)))
    assert [o for _, o in out] == [Outcome.NO_CREDIT, Outcome.NO_CREDIT, Outcome.SENT]
    assert wechat.count("/cgi-bin/message/subscribe/send") == 2 and wechat.count("/cgi-bin/stable_token") == 2
    data = wechat.sent[0]["data"]
    assert len(long_title) > 20 and data["thing1"]["value"] == long_title[:20]  # WeChat's limit for thing
    assert data["time3"]["value"] == "2027-01-15 16:00" and data["character_string4"]["value"] == "r1"


def test_a_failed_send_gives_the_credit_back_and_is_not_retried(sender, table, wechat):
    grant(table, wechat, "u1", "TPL-TURN", "oPlayer2")
    wechat.down_paths.add("/cgi-bin/message/subscribe/send")
    assert [o for _, o in sender.send(notices_for(room(3, TURN, 0), room(4, TURN, 1)))] == [Outcome.FAILED]
    assert table.credits("u1") == {"TPL-TURN": 1}
    wechat.down_paths.clear()
    assert [o for _, o in sender.send(notices_for(room(3, TURN, 0), room(4, TURN, 1)))] == [Outcome.DUPLICATE]


def test_kinds_without_a_template_and_stages_without_notices_send_nothing(sender, table, wechat):
    grant(table, wechat, "u0", "TPL-TURN", "oPlayer1")
    hurry = notices_for(room(5, SEALED, 0), room(6, SEALED, 0), Trigger.HURRY)
    assert [o for _, o in sender.send(hurry)] == [Outcome.NO_TEMPLATE]
    sender.settings = ChatSettings()
    assert [o for _, o in sender.send(notices_for(room(3, TURN, 1), room(4, TURN, 0)))] == [Outcome.DISABLED]
    assert wechat.calls == []


def test_a_consent_retried_after_a_crash_half_way_counts_each_template_once(table, monkeypatch):
    """The report's first attempt credited one template and failed on the next (503): its retry with
    the same key adds the missing credit and not the first again — none lost, none invented."""
    caller = Caller("u1", "N")
    real = table.add_credits
    calls: list[str] = []

    def flaky(user, template_id, count, cap, consent=None):
        calls.append(template_id)
        if len(calls) == 2:
            raise Unavailable("服务暂时不可用，请稍后再试", code="UNAVAILABLE")
        return real(user, template_id, count, cap, consent=consent)

    monkeypatch.setattr(table, "add_credits", flaky)
    with pytest.raises(Unavailable):
        subscribe(SETTINGS, table, caller, ["TPL-TURN", "TPL-END"], consent_key="c1", now_ms=1)
    assert subscriptions(SETTINGS, table, caller)["credits"] == {"TPL-END": 1, "TPL-TURN": 0}
    out = subscribe(SETTINGS, table, caller, ["TPL-TURN", "TPL-END"], consent_key="c1", now_ms=2)
    assert out["credits"] == {"TPL-END": 1, "TPL-TURN": 1}
    assert subscribe(SETTINGS, table, caller, ["TPL-TURN", "TPL-END"], consent_key="c2", now_ms=3)["credits"] == {
        "TPL-END": 2, "TPL-TURN": 2}  # the next consent is new


def test_subscribing_counts_one_credit_per_accepted_template(table):
    caller = Caller("u1", "N")
    assert subscribe(SETTINGS, table, caller, ["TPL-TURN", "TPL-END", "TPL-TURN"]) == {
        "enabled": True,
        "templates": [{"kind": "turn", "template_id": "TPL-TURN"}, {"kind": "game_end", "template_id": "TPL-END"}],
        "credits": {"TPL-END": 1, "TPL-TURN": 1}}  # a template named twice is one consent
    assert subscribe(SETTINGS, table, caller, ["TPL-TURN"], consent_key="k1", now_ms=1)["credits"]["TPL-TURN"] == 2
    assert subscribe(SETTINGS, table, caller, ["TPL-TURN"], consent_key="k1", now_ms=2)["credits"]["TPL-TURN"] == 2
    for _ in range(MAX_CREDITS + 3):
        subscribe(SETTINGS, table, caller, ["TPL-END"])
    assert subscriptions(SETTINGS, table, caller)["credits"]["TPL-END"] == MAX_CREDITS
    with pytest.raises(ValidationFailed) as e:
        subscribe(SETTINGS, table, caller, ["TPL-TURN", "TPL-OTHER"])
    assert e.value.code == "SUBSCRIBE_UNKNOWN_TEMPLATE" and e.value.details == {"templates": ["TPL-OTHER"]}
    assert subscribe(ChatSettings(), table, caller, ["TPL-TURN"]) == {"enabled": False, "templates": [], "credits": {}}
