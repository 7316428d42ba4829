"""One contract, two stores: the chat port's semantics on the in-memory twin and on DynamoDB (moto).
Places in a channel are gapless and taken once however many post at once, the rate ring is
atomic, reports, credits, notice dedupe items and the token lease are conditional."""

from __future__ import annotations

from concurrent.futures import ThreadPoolExecutor

import pytest

from chalicelib.core.errors import MalformedRequest, ValidationFailed
from chalicelib.core.game import ViewerRole
from chalicelib.domain.chat_model import (
    Channel,
    ChatMessage,
    MessageDraft,
    Mute,
    Report,
    ReportReason,
    RequestKey,
    Speaker,
)

ANNA = Speaker(user="u1", role=ViewerRole.PLAYER, seat=0, name="甄嬛")
GALLERY = Speaker(user="u9", role=ViewerRole.SPECTATOR, seat=None, name="路人")


def draft(text: str, at: int = 1000, channel: Channel = Channel.TABLE, speaker: Speaker = ANNA) -> MessageDraft:
    return MessageDraft(channel=channel, at_ms=at, speaker=speaker, text=text)


# -- messages -------------------------------------------------------------------------------------

def test_messages_take_the_next_place_in_their_channel_and_read_back_in_order(chat_store):
    a = chat_store.append_message("r1", draft("姐姐请", 1000))
    b = chat_store.append_message("r1", draft("本宫乏了", 1001))
    w = chat_store.append_message("r1", draft("看戏", 1002, Channel.WATCH, GALLERY))
    chat_store.append_message("r2", draft("别的房间", 1003))
    assert (a.id, b.id, w.id) == ("t1", "t2", "w1")
    assert [m.text for m in chat_store.list_messages("r1", Channel.TABLE, 0, 10)] == ["姐姐请", "本宫乏了"]
    assert [m.text for m in chat_store.list_messages("r1", Channel.TABLE, 1, 10)] == ["本宫乏了"]
    assert chat_store.list_messages("r1", Channel.TABLE, 2, 10) == []
    assert chat_store.list_messages("r1", Channel.WATCH, 0, 10) == [w]
    assert chat_store.get_message("r1", Channel.TABLE, 2) == b
    assert chat_store.get_message("r1", Channel.TABLE, 3) is None


def test_reading_without_a_position_gives_the_latest_page_oldest_first(chat_store):
    for i in range(7):
        chat_store.append_message("r1", draft(f"第{i}句", 1000 + i))
    assert [m.seq for m in chat_store.list_messages("r1", Channel.TABLE, None, 3)] == [5, 6, 7]
    assert [m.seq for m in chat_store.list_messages("r1", Channel.TABLE, 2, 3)] == [3, 4, 5]


def test_a_message_keeps_its_speaker_phrase_and_flag(chat_store):
    d = MessageDraft(channel=Channel.WATCH, at_ms=5, speaker=GALLERY, text="姐姐请", phrase="qabc123", flagged=True)
    m = chat_store.append_message("r1", d)
    assert chat_store.get_message("r1", Channel.WATCH, 1) == m
    assert (m.speaker, m.phrase, m.flagged, m.room_id) == (GALLERY, "qabc123", True, "r1")


def test_parallel_posts_get_distinct_gapless_places(chat_store):
    with ThreadPoolExecutor(8) as pool:
        stored = list(pool.map(lambda i: chat_store.append_message("r1", draft(f"#{i}", 1000 + i)), range(16)))
    assert sorted(m.seq for m in stored) == list(range(1, 17))
    assert [m.seq for m in chat_store.list_messages("r1", Channel.TABLE, 0, 50)] == list(range(1, 17))


def test_an_idempotency_key_stores_one_message_and_answers_retries_with_it(chat_store):
    key = RequestKey(user="u1", key="k-1", request_hash="h1")
    first = chat_store.append_message("r1", draft("一次"), key)
    again = chat_store.append_message("r1", draft("一次", 2000), key)
    assert again == first
    assert chat_store.message_for_key("r1", "u1", "k-1") == (first, "h1")
    assert chat_store.message_for_key("r1", "u2", "k-1") is None
    assert len(chat_store.list_messages("r1", Channel.TABLE, 0, 10)) == 1


def test_racing_retries_of_one_post_store_it_once(chat_store):
    key = RequestKey(user="u1", key="same", request_hash="h")
    with ThreadPoolExecutor(6) as pool:
        stored = set(pool.map(lambda i: chat_store.append_message("r1", draft("重发"), key), range(6)))
    assert len(stored) == 1
    assert len(chat_store.list_messages("r1", Channel.TABLE, 0, 10)) == 1


def test_one_key_sent_at_once_with_two_lines_stores_one_and_refuses_the_other(chat_store):
    """The same Idempotency-Key with another line at the same instant: the loser was answered the
    winner's line as if it were hers (a sequential reuse was refused, a racing one was not)."""
    def post(i: int):
        try:
            return chat_store.append_message("r1", draft(f"话{i}"), RequestKey(user="u1", key="race", request_hash=f"h{i}"))
        except ValidationFailed as e:
            return e.code

    with ThreadPoolExecutor(4) as pool:
        answers = list(pool.map(post, range(4)))
    stored = [a for a in answers if isinstance(a, ChatMessage)]
    assert len(stored) == 1 and answers.count("IDEMPOTENCY_KEY_REUSED") == 3
    assert [m.text for m in chat_store.list_messages("r1", Channel.TABLE, 0, 10)] == [stored[0].text]


# -- rate limit, mutes ----------------------------------------------------------------------------

def test_rate_slots_slide_over_the_window(chat_store):
    take = chat_store.take_rate_slot
    t0, window = 10**12, 10_000
    assert [take("r1", "u1", t0 + i, window, 3) for i in range(4)] == [0, 0, 0, window - 3]
    assert take("r1", "u2", t0, window, 3) == 0  # per user
    assert take("r2", "u1", t0, window, 3) == 0  # per room
    assert take("r1", "u1", t0 + window - 1, window, 3) == 1
    assert take("r1", "u1", t0 + window, window, 3) == 0  # the first left the window
    assert take("r1", "u1", t0 + window, window, 3) > 0


def test_parallel_posts_never_take_more_slots_than_the_limit(chat_store):
    with ThreadPoolExecutor(8) as pool:
        waits = list(pool.map(lambda i: chat_store.take_rate_slot("r1", "u1", 10**12, 10_000, 5), range(12)))
    assert waits.count(0) == 5


def test_mutes_are_set_read_and_cleared(chat_store):
    assert chat_store.get_mute("r1", "u1") is None
    m = Mute(user="u1", until_ms=9000, by="u0", at_ms=1000)
    chat_store.set_mute("r1", m)
    assert chat_store.get_mute("r1", "u1") == m
    assert chat_store.get_mute("r2", "u1") is None
    chat_store.clear_mute("r1", "u1")
    chat_store.clear_mute("r1", "u1")
    assert chat_store.get_mute("r1", "u1") is None


# -- reports --------------------------------------------------------------------------------------

def test_reports_are_filed_once_per_reporter_and_listed_newest_first_in_pages(chat_store):
    m1 = chat_store.append_message("r1", draft("甲", 1))
    m2 = chat_store.append_message("r2", draft("乙", 2))
    assert chat_store.add_report(Report(m1, "u2", "眉庄", ReportReason.ABUSE, 100))
    assert not chat_store.add_report(Report(m1, "u2", "眉庄", ReportReason.SPAM, 150))
    assert chat_store.add_report(Report(m1, "u3", "陵容", ReportReason.SPAM, 200))
    assert chat_store.add_report(Report(m2, "u2", "眉庄", ReportReason.SPOILER, 300))
    first = chat_store.list_reports(2, None)
    assert [(r.message.text, r.reporter, r.reason) for r in first.items] == [
        ("乙", "u2", ReportReason.SPOILER), ("甲", "u3", ReportReason.SPAM)]
    assert first.items[0].message == m2 and first.items[0].reporter_name == "眉庄"
    rest = chat_store.list_reports(2, first.cursor)
    assert [(r.message.text, r.reporter) for r in rest.items] == [("甲", "u2")]
    assert rest.cursor is None
    with pytest.raises(MalformedRequest):
        chat_store.list_reports(2, "forged.cursor")


# -- notices --------------------------------------------------------------------------------------

def test_credits_are_added_capped_taken_refunded_and_cleared(chat_store):
    assert chat_store.credits("u1") == {}
    assert not chat_store.take_credit("u1", "T1")
    assert chat_store.add_credits("u1", "T1", 1, 3) == 1
    assert chat_store.add_credits("u1", "T1", 5, 3) == 3
    assert chat_store.take_credit("u1", "T1")
    assert chat_store.credits("u1") == {"T1": 2}
    chat_store.refund_credit("u1", "T1")
    assert chat_store.credits("u1") == {"T1": 3}
    chat_store.clear_credits("u1", "T1")
    assert not chat_store.take_credit("u1", "T1")
    assert chat_store.credits("u1") == {"T1": 0}


def test_a_consent_is_counted_once_per_template_even_at_the_cap(chat_store):
    assert chat_store.add_credits("u1", "T1", 1, 3, consent="k1") == 1
    assert chat_store.add_credits("u1", "T1", 1, 3, consent="k1") == 1  # the same report again
    assert chat_store.add_credits("u1", "T2", 1, 3, consent="k1") == 1  # another template: its own count
    assert chat_store.add_credits("u1", "T1", 5, 3, consent="k2") == 3
    assert chat_store.take_credit("u1", "T1")
    assert chat_store.add_credits("u1", "T1", 5, 3, consent="k2") == 2  # k2 was counted (capped)
    assert chat_store.add_credits("u1", "T1", 1, 3, consent="k3") == 3


def test_parallel_sends_use_each_credit_once(chat_store):
    chat_store.add_credits("u1", "T1", 3, 10)
    with ThreadPoolExecutor(8) as pool:
        taken = list(pool.map(lambda i: chat_store.take_credit("u1", "T1"), range(10)))
    assert taken.count(True) == 3


def test_a_notice_event_is_claimed_once_per_user(chat_store):
    assert chat_store.claim_notice("r1", "00000003#turn", "u1", 5)
    assert not chat_store.claim_notice("r1", "00000003#turn", "u1", 6)
    assert chat_store.claim_notice("r1", "00000003#turn", "u2", 6)
    assert chat_store.claim_notice("r1", "00000004#turn", "u1", 6)


# -- the WeChat token -----------------------------------------------------------------------------

def test_one_refresher_wins_the_lease_and_publishes_the_next_generation(chat_store):
    assert chat_store.get_token("wx1") is None
    assert chat_store.claim_token_refresh("wx1", 0, 1000, 10_000, "a")
    assert not chat_store.claim_token_refresh("wx1", 0, 1001, 10_000, "b")  # leased
    assert chat_store.put_token("wx1", "TOKEN-1", 7_201_000, 0, "a")
    token = chat_store.get_token("wx1")
    assert (token.token, token.expires_ms, token.generation, token.holder) == ("TOKEN-1", 7_201_000, 1, None)
    assert not chat_store.claim_token_refresh("wx1", 0, 2000, 10_000, "b")  # generation moved on
    assert chat_store.claim_token_refresh("wx1", 1, 2000, 10_000, "b")
    assert not chat_store.put_token("wx1", "TOKEN-X", 1, 1, "a")  # not the holder


def test_an_expired_or_released_lease_can_be_taken_over(chat_store):
    assert chat_store.claim_token_refresh("wx1", 0, 1000, 10_000, "a")
    assert not chat_store.claim_token_refresh("wx1", 0, 10_999, 10_000, "b")
    assert chat_store.claim_token_refresh("wx1", 0, 11_001, 10_000, "b")  # a's lease ran out
    chat_store.release_token_refresh("wx1", "a")  # not a's any more: nothing changes
    assert not chat_store.claim_token_refresh("wx1", 0, 11_002, 10_000, "c")
    chat_store.release_token_refresh("wx1", "b")
    assert chat_store.claim_token_refresh("wx1", 0, 11_003, 10_000, "c")


def test_parallel_claims_elect_one_refresher(chat_store):
    with ThreadPoolExecutor(8) as pool:
        won = list(pool.map(lambda i: chat_store.claim_token_refresh("wx1", 0, 1000, 10_000, f"h{i}"), range(8)))
    assert won.count(True) == 1
