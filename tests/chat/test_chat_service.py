"""Room chat through the service layer: order and incremental reads, the limits (length, rate
under parallel posts, mutes), the content check on every text path, what spectators of a game
whose spectators chat apart can and cannot see or say, and reports seen by the 司礼 alone."""

from __future__ import annotations

import threading
from concurrent.futures import ThreadPoolExecutor

import pytest

from chalicelib.chat import service
from chalicelib.chat.moderation import LocalWordCheck
from chalicelib.chat.phrases import COURT, phrase_id
from chalicelib.chat.service import ChatDeps
from chalicelib.core.errors import DomainError, Unavailable, UpstreamError
from chalicelib.core.identity import Caller, Role
from chalicelib.domain.chat_model import Channel, ReportReason, Scene, Verdict
from chalicelib.domain.model import RoomStatus
from chalicelib.rooms import lobby
from chalicelib.rooms.deps import RoomDeps
from chalicelib.store.memory import MemoryStore
from chalicelib.store.memory_chat import MemoryChatStore

ZHEN = Caller("u-zhen", "甄嬛")
MEI = Caller("u-mei", "沈眉庄")
LING = Caller("u-ling", "安陵容")
FAN = Caller("u-fan", "看客")
SILI = Caller("u-sili", "司礼", Role.ADMIN)


class SpyCheck:
    """The local word list, recording what it was asked (and able to fail like WeChat can)."""

    def __init__(self) -> None:
        self.inner = LocalWordCheck()
        self.asked: list[tuple[str, Scene, str | None]] = []
        self.down = False
        self.lock = threading.Lock()

    def verdict(self, text: str, *, scene: Scene, openid: str | None) -> Verdict:
        with self.lock:
            self.asked.append((text, scene, openid))
        if self.down:
            raise UpstreamError("微信服务繁忙，请稍后再试", code="CONTENT_CHECK_FAILED")
        return self.inner.verdict(text, scene=scene, openid=openid)


@pytest.fixture
def rooms(clock):
    mem = MemoryStore()
    return RoomDeps(rooms=mem, accounts=mem, clock=clock)


@pytest.fixture
def spy():
    return SpyCheck()


def deps_with(rooms, store, spy) -> ChatDeps:
    return ChatDeps(rooms=rooms, store=store, checker=spy, openid_of=lambda user: f"o-{user}")


@pytest.fixture
def chat(rooms, spy, chat_games):
    return deps_with(rooms, MemoryChatStore(), spy)


def parlour(rooms, password=None) -> str:
    """甄嬛 opens (and moderates), 沈眉庄 joins; everyone chats at one table."""
    room = lobby.create_room(rooms, ZHEN, "parlour", {}, password, None)
    lobby.join_room(rooms, MEI, room.id, password)
    lobby.start_room(rooms, ZHEN, room.id)
    return room.id


def masque(rooms) -> str:
    """安陵容 tells the story (hosts, does not sit); 甄嬛 and 沈眉庄 play; spectators chat apart."""
    room = lobby.create_room(rooms, LING, "masque", {}, None, None)
    lobby.join_room(rooms, ZHEN, room.id, None)
    lobby.join_room(rooms, MEI, room.id, None)
    lobby.start_room(rooms, LING, room.id)
    return room.id


def say(chat, who, room_id, text=None, *, phrase=None, channel=None, key=None):
    return service.post(chat, who, room_id, text=text, phrase=phrase, channel=channel, request_key=key)["message"]


def read(chat, who, room_id, after=None, limit=50):
    return service.read(chat, who, room_id, after, limit).body


def texts(body):
    return [m["text"] for m in body["messages"]]


def refused(fn, *args, **kwargs) -> tuple[int, str]:
    with pytest.raises(DomainError) as e:
        fn(*args, **kwargs)
    return e.value.status, e.value.code


# -- order and incremental reads ------------------------------------------------------------------

def test_lines_come_back_in_order_and_a_cursor_returns_only_newer_ones(chat, rooms, clock):
    rid = parlour(rooms)
    for i, who in enumerate([ZHEN, MEI, ZHEN]):
        say(chat, who, rid, f"第{i + 1}句")
        clock.advance(1)
    first = read(chat, MEI, rid)
    assert texts(first) == ["第1句", "第2句", "第3句"] and first["cursor"] == "t3" and not first["more"]
    assert read(chat, MEI, rid, first["cursor"])["messages"] == []
    say(chat, MEI, rid, "第4句")
    newer = read(chat, ZHEN, rid, first["cursor"])
    assert texts(newer) == ["第4句"] and newer["cursor"] == "t4"


def test_a_first_read_gives_the_latest_page_and_limited_reads_page_forward(chat, rooms, clock):
    rid = parlour(rooms)
    for i in range(7):
        say(chat, ZHEN if i % 2 else MEI, rid, f"#{i}")
        clock.advance(2.1)  # stay under the rate limit
    latest = read(chat, ZHEN, rid, limit=3)
    assert texts(latest) == ["#4", "#5", "#6"] and latest["cursor"] == "t7"
    page = read(chat, ZHEN, rid, "t0", limit=3)
    assert texts(page) == ["#0", "#1", "#2"] and page["more"] and page["cursor"] == "t3"
    assert texts(read(chat, ZHEN, rid, page["cursor"], limit=3)) == ["#3", "#4", "#5"]


def test_messages_name_the_speaker_as_the_room_shows_her_and_hide_user_ids_from_players(chat, rooms):
    rid = parlour(rooms)
    mine = say(chat, MEI, rid, "姐姐安好")
    assert mine["speaker"] == {"role": "player", "seat": 1, "name": "沈眉庄", "is_me": True, "user": None}
    seen = read(chat, ZHEN, rid)["messages"][0]
    assert seen["speaker"] == {"role": "player", "seat": 1, "name": "沈眉庄", "is_me": False, "user": "u-mei"}
    assert (seen["can_mute"], seen["can_report"]) == (True, True)  # 甄嬛 opened the room
    assert read(chat, MEI, rid)["messages"][0]["can_report"] is False


def test_a_bad_cursor_is_a_400(chat, rooms):
    rid = parlour(rooms)
    for cursor in ("x", "t", "t1x", "q5", "t" + "9" * 12):
        assert refused(read, chat, ZHEN, rid, cursor) == (400, "BAD_CURSOR")


def test_the_read_is_the_same_etag_until_something_new_is_said(chat, rooms):
    rid = parlour(rooms)
    say(chat, ZHEN, rid, "一")
    a = service.read(chat, MEI, rid, "t0", 50)
    assert service.read(chat, MEI, rid, "t0", 50).etag == a.etag
    say(chat, ZHEN, rid, "二")
    assert service.read(chat, MEI, rid, "t0", 50).etag != a.etag


# -- the line itself ------------------------------------------------------------------------------

def test_text_is_at_most_100_characters_and_never_empty(chat, rooms):
    rid = parlour(rooms)
    assert say(chat, ZHEN, rid, "宫" * 100)["text"] == "宫" * 100
    assert refused(say, chat, ZHEN, rid, "宫" * 101) == (422, "CHAT_TOO_LONG")
    assert refused(say, chat, ZHEN, rid, "  \n ") == (422, "CHAT_EMPTY")
    assert refused(say, chat, ZHEN, rid, "a\x07b") == (422, "CHAT_BAD_MESSAGE")
    assert refused(say, chat, ZHEN, rid) == (422, "CHAT_BAD_MESSAGE")
    assert refused(say, chat, ZHEN, rid, "两样", phrase=phrase_id("姐姐请")) == (422, "CHAT_BAD_MESSAGE")
    assert say(chat, ZHEN, rid, " 姐姐\n请   用茶 ")["text"] == "姐姐 请 用茶"
    assert texts(read(chat, MEI, rid)) == ["宫" * 100, "姐姐 请 用茶"]


def test_a_line_reads_as_it_shows(chat, rooms):
    """Zero-width and direction-changing characters are refused (as in names): a line of them would
    show as nothing, and U+202E would make the others read the words backwards."""
    rid = parlour(rooms)
    for hidden in ("\u200b", "\u200b\u2060\ufeff", "\u202e!发胜家皇", "姐姐\u2066请\u2069",
                   "\u3164", "\u2800", "\uffa0\u115f", "宫" + "\u0301" * 18,  # blank letters, a pile of accents
                   "哈" + "\u0300\u0301\u0302\u0303\u200d" * 19,  # the pile, joined (still on one character)
                   "\u034f\u034f", "宫\U000e0100"):  # marks Unicode draws as nothing
        assert refused(say, chat, ZHEN, rid, hidden) == (422, "CHAT_BAD_MESSAGE"), repr(hidden)
    assert refused(say, chat, ZHEN, rid, "\u200d") == (422, "CHAT_EMPTY")
    assert refused(say, chat, ZHEN, rid, "\ufe0f\ufe0f") == (422, "CHAT_EMPTY")  # selectors with nothing to select
    family = "\U0001f469\u200d\U0001f467"  # 👩‍👧: a joiner inside an emoji sequence is fine
    assert say(chat, ZHEN, rid, f"本宫{family}")["text"] == f"本宫{family}"
    keycap = "1\ufe0f\u20e3"  # 1️⃣: two marks on one character are a keycap, not a pile
    assert say(chat, ZHEN, rid, f"第{keycap}")["text"] == f"第{keycap}"
    assert texts(read(chat, MEI, rid)) == [f"本宫{family}", f"第{keycap}"]


def test_quick_phrases_are_sent_by_id_from_the_games_list_and_need_no_check(chat, rooms, spy):
    rid = parlour(rooms)  # parlour declares none: the court phrases every game shares
    m = say(chat, ZHEN, rid, phrase=phrase_id(COURT[0]))
    assert (m["text"], m["phrase"]) == (COURT[0], phrase_id(COURT[0]))
    assert spy.asked == []
    assert refused(say, chat, ZHEN, rid, phrase="q000000") == (422, "CHAT_UNKNOWN_PHRASE")
    mid = masque(rooms)
    assert say(chat, ZHEN, mid, phrase=phrase_id("这宫里，谁都不可信"))["text"] == "这宫里，谁都不可信"
    assert refused(say, chat, ZHEN, mid, phrase=phrase_id(COURT[3])) == (422, "CHAT_UNKNOWN_PHRASE")


def test_a_retried_post_with_the_same_key_is_stored_once_and_a_reused_key_is_refused(chat, rooms):
    rid = parlour(rooms)
    first = say(chat, ZHEN, rid, "只说一次", key="k1")
    for _ in range(6):  # retries answer the first result and take no rate slot
        assert say(chat, ZHEN, rid, "只说一次", key="k1") == first
    assert refused(say, chat, ZHEN, rid, "另一句", key="k1") == (422, "IDEMPOTENCY_KEY_REUSED")
    assert texts(read(chat, MEI, rid)) == ["只说一次"]
    assert say(chat, MEI, rid, "只说一次", key="k1")["id"] == "t2"  # keys are per speaker


def test_an_expired_room_is_read_only(chat, rooms):
    rid = parlour(rooms)
    say(chat, ZHEN, rid, "散了吧")
    room = rooms.rooms.get_room(rid)
    rooms.rooms.save_room(room.model_copy(update={"status": RoomStatus.ABANDONED, "version": room.version + 1}),
                          room.version)
    assert refused(say, chat, ZHEN, rid, "还在吗") == (409, "CHAT_CLOSED")
    assert texts(read(chat, MEI, rid)) == ["散了吧"]


# -- rate limit -----------------------------------------------------------------------------------

def test_five_lines_per_ten_seconds_then_wait(chat, rooms, clock):
    rid = parlour(rooms)
    for i in range(5):
        say(chat, ZHEN, rid, f"{i}")
        clock.advance(1)
    with pytest.raises(DomainError) as e:
        say(chat, ZHEN, rid, phrase=phrase_id(COURT[1]))  # phrases count too
    assert (e.value.status, e.value.code, e.value.retry_after_s) == (429, "CHAT_TOO_FAST", 5)
    say(chat, MEI, rid, "她说得太快")  # per speaker
    clock.advance(5)
    say(chat, ZHEN, rid, "又可以说了")


@pytest.mark.parametrize("backend", ["memory", "dynamodb"])
def test_parallel_posts_cannot_exceed_the_rate(backend, rooms, spy, chat_games, request):
    store = MemoryChatStore() if backend == "memory" else request.getfixturevalue("chat_store_dynamodb")
    chat = deps_with(rooms, store, spy)
    rid = parlour(rooms)
    barrier = threading.Barrier(10)

    def attempt(i):
        barrier.wait()
        try:
            return say(chat, ZHEN, rid, f"抢{i}")["id"]
        except DomainError as e:
            return e.code

    with ThreadPoolExecutor(10) as pool:
        answers = list(pool.map(attempt, range(10)))
    assert sorted(a for a in answers if a != "CHAT_TOO_FAST") == ["t1", "t2", "t3", "t4", "t5"]
    assert len(read(chat, MEI, rid)["messages"]) == 5


@pytest.fixture
def chat_store_dynamodb(atomic_ddb):
    from chalicelib.store.chat import DynamoChatStore
    from tests.conftest import TABLE

    return DynamoChatStore(atomic_ddb, TABLE)


# -- mutes ----------------------------------------------------------------------------------------

def test_the_creator_mutes_a_seat_until_it_runs_out_or_she_lifts_it(chat, rooms, clock):
    rid = parlour(rooms)
    muted = service.mute(chat, ZHEN, rid, seat=1, user=None, minutes=2)
    assert muted == {"room_id": rid, "seat": 1, "user": None, "muted_until_ms": clock.now_ms() + 120_000}
    with pytest.raises(DomainError) as e:
        say(chat, MEI, rid, "凭什么")
    assert (e.value.status, e.value.code, e.value.details["until_ms"]) == (403, "CHAT_MUTED", clock.now_ms() + 120_000)
    clock.advance(121)
    say(chat, MEI, rid, "我又能说话了")
    service.mute(chat, ZHEN, rid, seat=1, user=None, minutes=60)
    assert refused(say, chat, MEI, rid, phrase=phrase_id(COURT[0])) == (403, "CHAT_MUTED")
    service.unmute(chat, ZHEN, rid, seat=1, user=None)
    say(chat, MEI, rid, "谢姐姐")


def test_only_the_rooms_moderator_or_a_sili_mutes_and_nobody_mutes_the_moderator(chat, rooms):
    rid = parlour(rooms)
    assert refused(service.mute, chat, MEI, rid, seat=0, user=None, minutes=5) == (403, "CHAT_NOT_MODERATOR")
    assert refused(service.mute, chat, ZHEN, rid, seat=0, user=None, minutes=5) == (403, "CHAT_CANNOT_MUTE")
    assert refused(service.mute, chat, SILI, rid, user="u-zhen", seat=None, minutes=5) == (403, "CHAT_CANNOT_MUTE")
    assert refused(service.mute, chat, ZHEN, rid, seat=7, user=None, minutes=5) == (404, "CHAT_SEAT_NOT_FOUND")
    assert refused(service.mute, chat, ZHEN, rid, seat=1, user="u-mei", minutes=5) == (422, "CHAT_BAD_TARGET")
    service.mute(chat, SILI, rid, seat=1, user=None, minutes=5)  # the 司礼, anywhere
    assert refused(say, chat, MEI, rid, "嗯") == (403, "CHAT_MUTED")
    say(chat, ZHEN, rid, "房主不受禁言")


def test_in_a_hosted_room_the_host_moderates_and_mutes_spectators_by_user(chat, rooms):
    mid = masque(rooms)
    say(chat, FAN, mid, "看戏看戏")
    host_view = read(chat, LING, mid)
    assert host_view["can_moderate"] and host_view["messages"][0]["speaker"]["user"] == "u-fan"
    assert refused(service.mute, chat, ZHEN, mid, seat=1, user=None, minutes=5) == (403, "CHAT_NOT_MODERATOR")
    service.mute(chat, LING, mid, user="u-fan", seat=None, minutes=5)
    assert refused(say, chat, FAN, mid, "嘘") == (403, "CHAT_MUTED")
    assert refused(service.mute, chat, SILI, mid, user="u-ling", seat=None, minutes=5) == (403, "CHAT_CANNOT_MUTE")


# -- the content check ----------------------------------------------------------------------------

def test_every_text_is_checked_before_anyone_sees_it_and_a_refused_one_is_not_stored(chat, rooms, spy):
    rid, mid = parlour(rooms), masque(rooms)
    for who, room, channel in [(ZHEN, rid, None), (FAN, rid, None), (FAN, mid, None), (LING, mid, Channel.WATCH)]:
        assert refused(say, chat, who, room, "你这个傻 逼", channel=channel) == (422, "CONTENT_REFUSED")
    assert spy.asked[0] == ("你这个傻 逼", Scene.COMMENT, "o-u-zhen")
    assert len(spy.asked) == 4
    for who, room in [(MEI, rid), (FAN, rid), (ZHEN, mid), (LING, mid), (FAN, mid)]:
        assert read(chat, who, room)["messages"] == []


def test_when_the_check_cannot_be_made_nothing_is_posted(chat, rooms, spy):
    rid = parlour(rooms)
    spy.down = True
    assert refused(say, chat, ZHEN, rid, "姐姐请") == (503, "CONTENT_CHECK_FAILED")
    assert read(chat, MEI, rid)["messages"] == []


def test_a_line_wechat_wants_reviewed_is_shown_and_filed_for_the_sili(chat, rooms):
    rid = parlour(rooms)
    m = say(chat, MEI, rid, "有事加我微信")
    assert texts(read(chat, ZHEN, rid)) == ["有事加我微信"]
    reports = service.list_reports(chat, SILI, 20, None)["reports"]
    assert [(r["message"]["id"], r["reason"], r["reporter"]["user"]) for r in reports] == [(m["id"], "review", "system")]


def test_a_flagged_line_whose_filing_failed_is_filed_by_its_keyed_retry(chat, rooms, monkeypatch):
    """The line is stored, then filing it for review fails (503): the phone's retry with the same key
    finds the stored line and files it then, once — it was shown without ever being filed."""
    rid = parlour(rooms)
    real = chat.store.add_report
    failed: list[int] = []

    def flaky(report):
        if not failed:
            failed.append(1)
            raise Unavailable("服务暂时不可用，请稍后再试", code="UNAVAILABLE")
        return real(report)

    monkeypatch.setattr(chat.store, "add_report", flaky)
    assert refused(say, chat, MEI, rid, "有事加我微信", key="k-1") == (503, "UNAVAILABLE")
    assert service.list_reports(chat, SILI, 20, None)["reports"] == []
    m = say(chat, MEI, rid, "有事加我微信", key="k-1")
    say(chat, MEI, rid, "有事加我微信", key="k-1")
    reports = service.list_reports(chat, SILI, 20, None)["reports"]
    assert [(r["message"]["id"], r["reason"]) for r in reports] == [(m["id"], "review")]
    assert texts(read(chat, ZHEN, rid)) == ["有事加我微信"]


# -- spectators of a game whose spectators chat apart ---------------------------------------------

def test_spectators_talk_apart_and_players_never_see_their_lines(chat, rooms, clock):
    mid = masque(rooms)
    say(chat, ZHEN, mid, "我是好人")
    clock.advance(1)
    gallery = say(chat, FAN, mid, "她在撒谎，她是刺客")
    assert gallery["channel"] == "watch"
    clock.advance(1)
    say(chat, LING, mid, "天黑请闭眼")
    clock.advance(1)
    say(chat, LING, mid, "看台的诸位莫要喧哗", channel=Channel.WATCH)
    assert refused(say, chat, FAN, mid, "她是刺客", channel=Channel.TABLE) == (403, "CHAT_WRONG_CHANNEL")
    assert refused(say, chat, ZHEN, mid, "我也去看台", channel=Channel.WATCH) == (403, "CHAT_WRONG_CHANNEL")
    for player in (ZHEN, MEI):
        body = read(chat, player, mid)
        assert texts(body) == ["我是好人", "天黑请闭眼"]
        assert body["channels"] == ["table"] and body["cursor"] == "t2"
        assert "刺客" not in str(body) and "看台的诸位" not in str(body)
        assert read(chat, player, mid, "t0w0")["messages"] == read(chat, player, mid, "t0")["messages"]
        assert refused(service.report, chat, player, mid, gallery["id"], ReportReason.SPOILER) == (
            404, "CHAT_MESSAGE_NOT_FOUND")
    both = ["我是好人", "她在撒谎，她是刺客", "天黑请闭眼", "看台的诸位莫要喧哗"]
    assert texts(read(chat, LING, mid)) == both  # the host reads both
    spectator = read(chat, FAN, mid)
    assert texts(spectator) == both and spectator["post_channels"] == ["watch"] and spectator["cursor"] == "t2w2"


def test_reading_two_channels_in_pages_never_skips_a_line(chat, rooms, clock):
    mid = masque(rooms)
    said = []
    for i in range(6):
        who, where = (FAN, Channel.WATCH) if i % 3 == 0 else (ZHEN if i % 2 else MEI, Channel.TABLE)
        said.append(say(chat, who, mid, f"#{i}", channel=where)["text"])
        clock.advance(2.1)
    seen, cursor = [], "t0w0"
    while True:
        body = read(chat, LING, mid, cursor, limit=2)
        seen += texts(body)
        cursor = body["cursor"]
        if not body["messages"]:
            break
    assert seen == said


def test_in_other_games_spectators_share_the_table(chat, rooms):
    rid = parlour(rooms)
    assert say(chat, FAN, rid, "好棋")["channel"] == "table"
    assert texts(read(chat, ZHEN, rid)) == ["好棋"]
    assert read(chat, FAN, rid)["post_channels"] == ["table"]


def test_a_room_with_a_password_is_closed_to_outsiders(chat, rooms):
    rid = parlour(rooms, password="暗号")
    assert refused(read, chat, FAN, rid) == (403, "PASSWORD_REQUIRED")
    assert refused(say, chat, FAN, rid, "让我看看") == (403, "PASSWORD_REQUIRED")
    lobby.spectate_room(rooms, FAN, rid, "暗号")
    assert say(chat, FAN, rid, "报号入席")["text"] == "报号入席"


# -- reports --------------------------------------------------------------------------------------

def test_reports_reach_the_sili_only(chat, rooms, clock):
    rid = parlour(rooms)
    line = say(chat, MEI, rid, "你这手真臭")
    assert service.report(chat, ZHEN, rid, line["id"], ReportReason.ABUSE) == {
        "room_id": rid, "message_id": line["id"], "reported": True}
    service.report(chat, ZHEN, rid, line["id"], ReportReason.ABUSE)  # again: nothing new
    clock.advance(1)
    service.report(chat, FAN, rid, line["id"], ReportReason.SPAM)
    assert refused(service.report, chat, MEI, rid, line["id"], ReportReason.ABUSE) == (422, "CHAT_OWN_MESSAGE")
    assert refused(service.report, chat, ZHEN, rid, "t99", ReportReason.ABUSE) == (404, "CHAT_MESSAGE_NOT_FOUND")
    assert refused(service.report, chat, ZHEN, rid, "nonsense", ReportReason.ABUSE) == (404, "CHAT_MESSAGE_NOT_FOUND")
    for who in (ZHEN, MEI, FAN):
        assert refused(service.list_reports, chat, who, 20, None) == (403, "ADMIN_ONLY")
    listed = service.list_reports(chat, SILI, 20, None)
    assert [(r["reporter"]["name"], r["reason"]) for r in listed["reports"]] == [("看客", "spam"), ("甄嬛", "abuse")]
    first = listed["reports"][1]
    assert first["message"]["text"] == "你这手真臭" and first["message"]["speaker"]["user"] == "u-mei"
    assert first["room_id"] == rid and listed["cursor"] is None


def test_a_channel_the_game_does_not_have_is_refused_in_those_words(chat, rooms):
    """Where spectators share the table (保皇, parlour) there is no 看台: asking for it is refused as a
    channel the room has not — not 「观战者只能在看台说话」, which sent her to the one place she cannot go."""
    rid = parlour(rooms)
    for who in (FAN, ZHEN):
        with pytest.raises(DomainError) as e:
            say(chat, who, rid, "看台上有人吗", channel=Channel.WATCH)
        assert (e.value.status, e.value.code, e.value.message) == (403, "CHAT_WRONG_CHANNEL", "这个房间没有这个频道")
    assert say(chat, FAN, rid, "看台上有人吗")["channel"] == "table"
