"""Security and robustness review (branch h-sec): each test proves one finding, and pins its fix."""

from __future__ import annotations

import io
import json
from contextlib import contextmanager

import pytest

from chalicelib.auth.wechat import WeChatClient
from tests.api.helpers import error


def _wechat_answering(body: object):
    @contextmanager
    def opener(url, timeout):
        yield io.BytesIO(json.dumps(body).encode())

    return opener


@pytest.mark.parametrize("answer", [
    {"errcode": "busy"}, {"errcode": [40029]}, {"errcode": {"code": 1}}, {"errcode": 1e999},
    {"errcode": 0.5, "openid": "oAnyone"}, {"errcode": True, "openid": "oAnyone"},
])
def test_a_wechat_answer_with_an_unreadable_errcode_is_a_503_never_a_500_nor_a_login(api, svc, answer):
    """jscode2session's errcode is an integer. Any other value used to crash the login (int("busy"):
    500 INTERNAL_ERROR), or — a fraction or true — to be truncated and read as success, logging the
    caller in. It is an answer we cannot read: 503 WECHAT_BAD_RESPONSE, nobody logged in."""
    svc.__dict__["wechat"] = WeChatClient("wx-test-app", "test-secret", "http://wechat.invalid",
                                          opener=_wechat_answering(answer))
    r = api.http.post("/v1/auth/wechat", body=json.dumps({"code": "081abc"}),
                      headers={"Content-Type": "application/json"})
    assert error(r) == (503, "WECHAT_BAD_RESPONSE")
