"""WeChat mini-program login: exchange a `wx.login` code for the user's openid (jscode2session).

Real HTTP to a configurable base URL (https://api.weixin.qq.com in production; tests point it at a
local server replaying recorded responses). The session_key WeChat returns is dropped here: it is
never stored, logged or sent to the client.
"""

from __future__ import annotations

import json
import urllib.parse
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chalicelib.core.errors import (
    DomainError,
    Forbidden,
    MalformedRequest,
    RateLimited,
    Unauthenticated,
    UpstreamError,
)
from chalicelib.observability import logger, metrics_count

MAX_CODE_LENGTH = 128

# errcode -> (error class, stable code, message for the player)
ERRORS: dict[int, tuple[type[DomainError], str, str]] = {
    40029: (Unauthenticated, "WECHAT_CODE_INVALID", "微信登录凭证无效，请重新登录"),
    40163: (Unauthenticated, "WECHAT_CODE_USED", "微信登录凭证已使用，请重新登录"),
    45011: (RateLimited, "WECHAT_RATE_LIMITED", "登录太频繁，请稍后再试"),
    40226: (Forbidden, "WECHAT_USER_BLOCKED", "该微信账号存在风险，暂时无法登录"),
    -1: (UpstreamError, "WECHAT_BUSY", "微信服务繁忙，请稍后再试"),
}


@dataclass(frozen=True)
class WeChatSession:
    openid: str
    unionid: str | None = None


Opener = Callable[..., Any]


class WeChatClient:
    def __init__(self, appid: str, secret: str, base_url: str, timeout_s: float = 5.0,
                 opener: Opener | None = None) -> None:
        self.appid = appid
        self.secret = secret
        self.base_url = base_url.rstrip("/")
        self.timeout_s = timeout_s
        self._opener = opener

    def code_to_session(self, code: str) -> WeChatSession:
        """Exchange a login code.

        Raises:
            MalformedRequest: the code is empty or absurd (never sent upstream).
            Unauthenticated: invalid or already used code.
            RateLimited, Forbidden: WeChat's limits and risk control.
            UpstreamError: WeChat unreachable, busy, or answering something we cannot read.
        """
        if not code or len(code) > MAX_CODE_LENGTH or not code.isprintable():
            raise MalformedRequest("缺少有效的微信登录凭证", code="WECHAT_CODE_MISSING")
        if not self.appid or not self.secret:
            raise UpstreamError("微信登录未配置", code="WECHAT_NOT_CONFIGURED")
        query = urllib.parse.urlencode({
            "appid": self.appid, "secret": self.secret, "js_code": code, "grant_type": "authorization_code",
        })
        body = self._get(f"{self.base_url}/sns/jscode2session?{query}")
        errcode = body.get("errcode")
        errcode = 0 if errcode is None else errcode
        if isinstance(errcode, bool) or not isinstance(errcode, int):
            # WeChat's errcode is an integer: anything else is an answer we cannot read (never a 500,
            # and never a success: a fraction used to be truncated to 0)
            raise UpstreamError("微信登录返回异常", code="WECHAT_BAD_RESPONSE")
        if errcode:
            metrics_count("WeChatErrors")
            logger.warning("jscode2session refused", extra={"errcode": errcode})
            cls, err_code, message = ERRORS.get(
                errcode, (UpstreamError, "WECHAT_ERROR", "微信登录失败，请稍后再试"))
            raise cls(message, code=err_code, errcode=errcode)
        openid = body.get("openid")
        if not isinstance(openid, str) or not openid:
            raise UpstreamError("微信登录返回异常", code="WECHAT_BAD_RESPONSE")
        unionid = body.get("unionid")
        return WeChatSession(openid=openid, unionid=unionid if isinstance(unionid, str) else None)

    def _get(self, url: str) -> dict[str, Any]:
        import urllib.error
        import urllib.request  # only logins need it: not imported on every cold start

        opener = self._opener or urllib.request.urlopen
        try:
            with opener(url, timeout=self.timeout_s) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as e:
            raise UpstreamError("微信服务异常，请稍后再试", code="WECHAT_HTTP_ERROR", http_status=e.code) from e
        except (TimeoutError, urllib.error.URLError, ConnectionError, OSError) as e:
            metrics_count("WeChatUnreachable")
            raise UpstreamError("无法连接微信服务，请稍后再试", code="WECHAT_UNREACHABLE") from e
        try:
            body = json.loads(raw)
        except ValueError as e:
            raise UpstreamError("微信登录返回异常", code="WECHAT_BAD_RESPONSE") from e
        if not isinstance(body, dict):
            raise UpstreamError("微信登录返回异常", code="WECHAT_BAD_RESPONSE")
        return body
