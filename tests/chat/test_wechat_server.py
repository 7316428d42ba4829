"""The WeChat server client over real HTTP against the fake WeChat server: the access token fetched
once (for many concurrent callers and client instances, cached in the table), refreshed 5 minutes
ahead, refreshed once and retried once on 40001; msgSecCheck v2 (and v1 when the user cannot be
named); subscribe messages with 43101 answered and not retried."""

from __future__ import annotations

import threading

import pytest

from chalicelib.auth.wechat_server import WeChatServerClient
from chalicelib.core.errors import UpstreamError
from chalicelib.domain.chat_model import Scene, Verdict
from chalicelib.store.chat import DynamoChatStore
from tests.chat.wechat_fake import APPID, SECRET
from tests.conftest import TABLE

STABLE = "/cgi-bin/stable_token"
CHECK = "/wxa/msg_sec_check"
SEND = "/cgi-bin/message/subscribe/send"


@pytest.fixture
def table(atomic_ddb):
    return DynamoChatStore(atomic_ddb, TABLE)


def client(wechat, table, clock, secret=SECRET, **kw) -> WeChatServerClient:
    kw.setdefault("poll_interval_s", 0.02)
    kw.setdefault("poll_attempts", 250)
    return WeChatServerClient(lambda: (APPID, secret), wechat.url, table, clock, timeout_s=2, **kw)


# -- the access token -----------------------------------------------------------------------------

def test_the_token_is_fetched_once_and_other_instances_read_it_from_the_table(wechat, table, clock):
    token = client(wechat, table, clock).access_token()
    assert client(wechat, table, clock).access_token() == token  # another Lambda
    assert wechat.count(STABLE) == 1
    call = wechat.calls[0]
    assert call["body"] == {"grant_type": "client_credential", "appid": APPID, "secret": SECRET}
    assert table.get_token(APPID).token == token


def test_many_concurrent_callers_fetch_the_token_once(wechat, table, clock):
    wechat.token_delay_s = 0.3  # every caller arrives while the first fetch is under way
    barrier = threading.Barrier(12)
    got: list[str] = []

    def lambda_instance():
        c = client(wechat, table, clock)
        barrier.wait()
        got.append(c.access_token())

    threads = [threading.Thread(target=lambda_instance) for _ in range(12)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert len(got) == 12 and len(set(got)) == 1
    assert wechat.count(STABLE) == 1


def test_the_token_is_refreshed_five_minutes_before_it_expires(wechat, table, clock):
    c = client(wechat, table, clock)
    first = c.access_token()
    clock.advance(7200 - 301)
    assert client(wechat, table, clock).access_token() == first and wechat.count(STABLE) == 1
    clock.advance(2)  # now within 5 minutes of the expiry: one refresh, shared through the table
    second = c.access_token()
    assert second != first and wechat.count(STABLE) == 2
    assert client(wechat, table, clock).access_token() == second and wechat.count(STABLE) == 2


def test_an_invalid_token_is_refreshed_once_and_the_call_retried_once(wechat, table, clock):
    c, other = client(wechat, table, clock), client(wechat, table, clock)
    old = c.access_token()
    assert other.access_token() == old  # another Lambda holds it in memory too
    wechat.revoke(old)
    assert c.msg_sec_check("姐姐请", scene=Scene.COMMENT, openid="oPlayer1") is Verdict.PASS
    checks = [x for x in wechat.calls if x["path"] == CHECK]
    assert [x["query"]["access_token"] == old for x in checks] == [True, False]
    assert wechat.count(STABLE) == 2
    # the other Lambda is refused once too, then finds the new token in the table: no third fetch
    assert other.msg_sec_check("姐姐请", scene=Scene.COMMENT, openid="oPlayer1") is Verdict.PASS
    assert wechat.count(STABLE) == 2 and wechat.count(CHECK) == 4
    assert other.access_token() == table.get_token(APPID).token != old


def test_an_expired_token_42001_is_handled_like_40001(wechat, table, clock):
    c = client(wechat, table, clock)
    c.access_token()
    wechat.valid_tokens[wechat.current] = clock.now_ms()  # WeChat expired it early
    assert c.msg_sec_check("姐姐请", scene=Scene.COMMENT, openid="oPlayer1") is Verdict.PASS
    assert wechat.count(CHECK) == 2 and wechat.count(STABLE) == 2


def test_a_token_wechat_keeps_handing_out_after_refusing_it_is_force_refreshed(wechat, table, clock):
    c = client(wechat, table, clock)
    old = c.access_token()
    wechat.sticky = True
    wechat.revoke(old)
    assert c.msg_sec_check("姐姐请", scene=Scene.COMMENT, openid="oPlayer1") is Verdict.PASS
    bodies = [x["body"] for x in wechat.calls if x["path"] == STABLE]
    assert [b.get("force_refresh", False) for b in bodies] == [False, False, True]


def test_a_retry_that_is_refused_again_is_not_retried_again(wechat, table, clock):
    c = client(wechat, table, clock)
    c.access_token()
    wechat.reject_all = True
    with pytest.raises(UpstreamError) as e:
        c.msg_sec_check("姐姐请", scene=Scene.COMMENT, openid="oPlayer1")
    assert e.value.code == "CONTENT_CHECK_FAILED" and e.value.status == 503
    assert wechat.count(CHECK) == 2


def test_refused_credentials_are_a_503_and_release_the_lease_at_once(wechat, table, clock):
    with pytest.raises(UpstreamError) as e:
        client(wechat, table, clock, secret="wrong").access_token()
    assert e.value.code == "WECHAT_TOKEN_UNAVAILABLE"
    assert SECRET not in str(e.value) and "wrong" not in str(e.value)
    assert table.get_token(APPID).holder is None  # nobody waits for a refresher that gave up
    assert client(wechat, table, clock, poll_attempts=1).access_token()


def test_waiting_callers_give_up_with_a_503_when_no_token_comes(wechat, table, clock):
    assert table.claim_token_refresh(APPID, 0, clock.now_ms(), 10_000, "a-stuck-lambda")
    with pytest.raises(UpstreamError) as e:
        client(wechat, table, clock, poll_attempts=3).access_token()
    assert e.value.code == "WECHAT_TOKEN_UNAVAILABLE" and wechat.count(STABLE) == 0
    clock.advance(11)  # the stuck refresher's lease ran out: the next caller takes over
    assert client(wechat, table, clock).access_token() and wechat.count(STABLE) == 1


def test_unreachable_or_failing_wechat_is_a_503_without_the_token_in_it(wechat, table, clock):
    c = client(wechat, table, clock)
    token = c.access_token()
    wechat.down_paths.add(CHECK)
    with pytest.raises(UpstreamError) as e:
        c.msg_sec_check("姐姐请", scene=Scene.COMMENT, openid="oPlayer1")
    assert e.value.code == "WECHAT_HTTP_ERROR" and token not in repr(e.value) and e.value.__cause__ is None
    c.base_url = "http://127.0.0.1:9"  # nothing listens on the discard port
    with pytest.raises(UpstreamError) as e:
        c.msg_sec_check("姐姐请", scene=Scene.COMMENT, openid="oPlayer1")
    assert e.value.code == "WECHAT_UNREACHABLE"


# -- content security -----------------------------------------------------------------------------

def test_msg_sec_check_v2_asks_with_the_user_and_scene_and_reads_the_suggestion(wechat, table, clock):
    c = client(wechat, table, clock)
    assert c.msg_sec_check("姐姐请喝茶", scene=Scene.COMMENT, openid="oPlayer1") is Verdict.PASS
    assert c.msg_sec_check("这碗里有毒药", scene=Scene.COMMENT, openid="oPlayer1") is Verdict.RISKY
    assert c.msg_sec_check("加我微信聊", scene=Scene.PROFILE, openid="oPlayer1") is Verdict.REVIEW
    first = next(x for x in wechat.calls if x["path"] == CHECK)
    assert first["body"] == {"content": "姐姐请喝茶", "version": 2, "scene": 2, "openid": "oPlayer1"}
    assert [x["body"]["scene"] for x in wechat.calls if x["path"] == CHECK] == [2, 2, 1]


def test_without_a_recent_user_the_text_is_checked_by_version_1_and_87014_is_risky(wechat, table, clock):
    wechat.stale_openids.add("oStale")
    c = client(wechat, table, clock)
    assert c.msg_sec_check("这碗里有毒药", scene=Scene.COMMENT, openid="oStale") is Verdict.RISKY
    assert c.msg_sec_check("姐姐请", scene=Scene.COMMENT, openid=None) is Verdict.PASS
    assert c.msg_sec_check("毒药", scene=Scene.COMMENT, openid="oWebOnly") is Verdict.RISKY  # 40003 -> v1
    bodies = [x["body"] for x in wechat.calls if x["path"] == CHECK]
    assert bodies[1] == {"content": "这碗里有毒药"} and bodies[2] == {"content": "姐姐请"}


def test_long_texts_are_checked_in_parts_and_the_worst_part_decides(wechat, table, clock):
    c = client(wechat, table, clock)
    text = "平安" * 1300 + "毒药"
    assert c.msg_sec_check(text, scene=Scene.COMMENT, openid="oPlayer1") is Verdict.RISKY
    assert [len(x["body"]["content"]) for x in wechat.calls if x["path"] == CHECK] == [2500, 102]


# -- subscribe messages ---------------------------------------------------------------------------

def test_a_subscribe_message_is_sent_once_per_acceptance_and_43101_is_not_retried(wechat, table, clock):
    c = client(wechat, table, clock)
    wechat.accept("oPlayer1", "TPL-TURN")
    args = dict(touser="oPlayer1", template_id="TPL-TURN", page="pages/room/room?id=r1",
                data={"thing1": "保皇", "thing2": "轮到你出手了"}, state="formal")
    assert c.send_subscribe_message(**args).errcode == 0
    refused = c.send_subscribe_message(**args)
    assert (refused.errcode, wechat.count(SEND)) == (43101, 2)
    assert wechat.sent == [{"touser": "oPlayer1", "template_id": "TPL-TURN", "page": "pages/room/room?id=r1",
                            "data": {"thing1": {"value": "保皇"}, "thing2": {"value": "轮到你出手了"}},
                            "miniprogram_state": "formal", "lang": "zh_CN"}]


def test_a_subscribe_message_with_an_expired_token_is_retried_once(wechat, table, clock):
    c = client(wechat, table, clock)
    wechat.revoke(c.access_token())
    wechat.accept("oPlayer1", "TPL-END")
    reply = c.send_subscribe_message(touser="oPlayer1", template_id="TPL-END", page="p", data={}, state="formal")
    assert reply.errcode == 0 and wechat.count(SEND) == 2 and len(wechat.sent) == 1
