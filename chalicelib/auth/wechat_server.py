"""WeChat's server API for the mini-program: the access token, content security (msgSecCheck v2)
and subscribe messages.

Real HTTP (JSON POSTs, stdlib only) to a configurable base URL: https://api.weixin.qq.com when
deployed; the tests point it at a local fake WeChat server that answers as the documentation shows.

The access token (getStableAccessToken, POST /cgi-bin/stable_token) is cached in the table with
its expiry (`TokenCache`) and used until 5 minutes before it expires, never fetched per request.
When it is due, concurrent Lambdas race for one conditional lease: the winner fetches and stores
the new token, the others keep using the old one while it is still valid (WeChat's tokens overlap)
or wait briefly for the winner's. A call answered 40001/42001/40014 (the token is invalid or
expired) refreshes once and is retried once. Nothing here logs a token, a secret or the text.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import urlencode

from chalicelib.core.clock import Clock
from chalicelib.core.errors import UpstreamError
from chalicelib.domain.chat_model import CachedToken, Scene, Verdict
from chalicelib.domain.chat_ports import TokenCache
from chalicelib.observability import logger, metrics_count

TOKEN_ERRCODES = frozenset({40001, 40014, 42001})
"""The access token is invalid (40001, 40014) or expired (42001): refresh once and retry once."""
RISKY_ERRCODE = 87014
"""msgSecCheck (version 1, and some version 2 answers): the content is risky."""
STALE_USER_ERRCODES = frozenset({61010, 40003})
"""msgSecCheck v2 needs an openid that visited within 2 hours (61010) and is valid for the app
(40003); otherwise the content is checked without the user (version 1)."""
REFRESH_AHEAD_MS = 5 * 60 * 1000
LEASE_MS = 10_000
MAX_CONTENT = 2500
"""msgSecCheck's limit per call; longer texts are checked in parts."""

Opener = Callable[..., Any]


@dataclass(frozen=True)
class WeChatReply:
    errcode: int
    errmsg: str
    body: Mapping[str, Any] = field(default_factory=dict)


def _unavailable(detail: str, code: str = "WECHAT_TOKEN_UNAVAILABLE") -> UpstreamError:
    metrics_count("WeChatErrors")
    logger.warning("wechat server api failed", extra={"detail": detail})
    return UpstreamError("微信服务繁忙，请稍后再试", code=code)


class WeChatServerClient:
    """One per Lambda instance; instances share the token through the table."""

    def __init__(self, credentials: Callable[[], tuple[str, str]], base_url: str, tokens: TokenCache, clock: Clock,
                 *, timeout_s: float = 5.0, opener: Opener | None = None, sleep: Callable[[float], None] = time.sleep,
                 poll_interval_s: float = 0.1, poll_attempts: int = 30, holder: str | None = None) -> None:
        self._credentials = credentials
        self.base_url = base_url.rstrip("/")
        self.tokens = tokens
        self.clock = clock
        self.timeout_s = timeout_s
        self._opener = opener
        self._sleep = sleep
        self.poll_interval_s = poll_interval_s
        self.poll_attempts = poll_attempts
        self.holder = holder or secrets.token_hex(8)
        self._memo: CachedToken | None = None

    # -- the access token --------------------------------------------------------------------------

    def _usable(self, cached: CachedToken | None, now_ms: int, stale: str | None, margin_ms: int) -> str | None:
        if cached is None or not cached.token or cached.token == stale or now_ms >= cached.expires_ms - margin_ms:
            return None
        return cached.token

    def access_token(self, *, stale: str | None = None) -> str:
        """A valid access token (`stale`: one WeChat just refused, never to be returned again).

        Raises:
            UpstreamError: WECHAT_TOKEN_UNAVAILABLE (WeChat refused the app's credentials, or no
                token came within the wait), WECHAT_UNREACHABLE, WECHAT_HTTP_ERROR, WECHAT_BAD_RESPONSE.
        """
        token = self._usable(self._memo, self.clock.now_ms(), stale, REFRESH_AHEAD_MS)
        if token is not None:
            return token
        app_id, _ = self._app()
        for _ in range(self.poll_attempts):
            now = self.clock.now_ms()
            cached = self.tokens.get_token(app_id)
            token = self._usable(cached, now, stale, REFRESH_AHEAD_MS)
            if token is not None:
                self._memo = cached
                return token
            seen = cached.generation if cached is not None else 0
            if self.tokens.claim_token_refresh(app_id, seen, now, LEASE_MS, self.holder):
                return self._refresh(app_id, seen, stale)
            # someone else is refreshing: the old token serves until it really expires
            token = self._usable(cached, now, stale, 0)
            if token is not None:
                return token
            self._sleep(self.poll_interval_s)
        raise _unavailable("no token after waiting for the refresher")

    def _refresh(self, app_id: str, seen_generation: int, stale: str | None) -> str:
        try:
            token, expires_in = self._fetch_token(force=False)
            if token == stale:  # WeChat still hands out the token it refused: force a new one
                token, expires_in = self._fetch_token(force=True)
        except BaseException:
            self.tokens.release_token_refresh(app_id, self.holder)
            raise
        now = self.clock.now_ms()
        expires_ms = now + expires_in * 1000
        self.tokens.put_token(app_id, token, expires_ms, seen_generation, self.holder)
        self._memo = CachedToken(token=token, expires_ms=expires_ms, generation=seen_generation + 1)
        metrics_count("WeChatTokenRefreshes")
        return token

    def _fetch_token(self, *, force: bool) -> tuple[str, int]:
        app_id, secret = self._app()
        body: dict[str, Any] = {"grant_type": "client_credential", "appid": app_id, "secret": secret}
        if force:
            body["force_refresh"] = True
        reply = self._post("/cgi-bin/stable_token", body)
        token, expires_in = reply.body.get("access_token"), reply.body.get("expires_in")
        if reply.errcode or not isinstance(token, str) or not token or not isinstance(expires_in, int):
            raise _unavailable(f"stable_token errcode {reply.errcode}")
        return token, expires_in

    def _app(self) -> tuple[str, str]:
        app_id, secret = self._credentials()
        if not app_id or not secret:
            raise _unavailable("no app id or secret", code="WECHAT_NOT_CONFIGURED")
        return app_id, secret

    def _call(self, path: str, body: Mapping[str, Any]) -> WeChatReply:
        """POST with the access token; on 40001 & co. refresh once and retry once."""
        token = self.access_token()
        reply = self._post(path, body, token)
        if reply.errcode in TOKEN_ERRCODES:
            metrics_count("WeChatTokenRejected")
            self._memo = None
            reply = self._post(path, body, self.access_token(stale=token))
        return reply

    # -- content security --------------------------------------------------------------------------

    def msg_sec_check(self, content: str, *, scene: Scene, openid: str | None) -> Verdict:
        """WeChat's verdict on a text (the worst over its 2500-character parts).

        Raises:
            UpstreamError: CONTENT_CHECK_FAILED (an answer we cannot use), or a token/transport failure.
        """
        verdicts = [self._check_part(content[i:i + MAX_CONTENT], scene, openid)
                    for i in range(0, max(len(content), 1), MAX_CONTENT)]
        for worst in (Verdict.RISKY, Verdict.REVIEW):
            if worst in verdicts:
                return worst
        return Verdict.PASS

    def _check_part(self, content: str, scene: Scene, openid: str | None) -> Verdict:
        if openid:
            reply = self._call("/wxa/msg_sec_check",
                               {"content": content, "version": 2, "scene": int(scene), "openid": openid})
            if reply.errcode not in STALE_USER_ERRCODES:
                return self._verdict(reply, v2=True)
        reply = self._call("/wxa/msg_sec_check", {"content": content})  # version 1: no user needed
        return self._verdict(reply, v2=False)

    def _verdict(self, reply: WeChatReply, *, v2: bool) -> Verdict:
        if reply.errcode == RISKY_ERRCODE:
            return Verdict.RISKY
        if reply.errcode:
            raise _unavailable(f"msg_sec_check errcode {reply.errcode}", code="CONTENT_CHECK_FAILED")
        result = reply.body.get("result")
        if not v2:
            return Verdict.PASS  # version 1 answers errcode 0 and nothing else for a clean text
        if not isinstance(result, dict):
            raise _unavailable("msg_sec_check without result", code="CONTENT_CHECK_FAILED")
        try:
            return Verdict(str(result.get("suggest")))
        except ValueError as e:
            raise _unavailable("msg_sec_check suggest unknown", code="CONTENT_CHECK_FAILED") from e

    # -- subscribe messages ------------------------------------------------------------------------

    def send_subscribe_message(self, *, touser: str, template_id: str, page: str, data: Mapping[str, str],
                               state: str) -> WeChatReply:
        """Send one subscribe message; WeChat's errcode is in the reply (0 sent, 43101 no credit…).

        Raises:
            UpstreamError: a token or transport failure (nothing was sent).
        """
        return self._call("/cgi-bin/message/subscribe/send", {
            "touser": touser, "template_id": template_id, "page": page,
            "data": {k: {"value": v} for k, v in data.items()}, "miniprogram_state": state, "lang": "zh_CN",
        })

    # -- HTTP --------------------------------------------------------------------------------------

    def _post(self, path: str, body: Mapping[str, Any], token: str | None = None) -> WeChatReply:
        import urllib.error
        import urllib.request  # only the calls to WeChat need it: not imported on every cold start

        url = self.base_url + path
        if token is not None:
            url += "?" + urlencode({"access_token": token})
        request = urllib.request.Request(url, data=json.dumps(body, ensure_ascii=False).encode(),
                                         headers={"Content-Type": "application/json"}, method="POST")
        opener = self._opener or urllib.request.urlopen
        try:
            with opener(request, timeout=self.timeout_s) as resp:
                raw = resp.read()
        except urllib.error.HTTPError as e:
            raise _unavailable(f"http {e.code} on {path}", code="WECHAT_HTTP_ERROR") from None
        except (TimeoutError, urllib.error.URLError, ConnectionError, OSError):
            metrics_count("WeChatUnreachable")
            raise _unavailable(f"unreachable on {path}", code="WECHAT_UNREACHABLE") from None
        try:
            data = json.loads(raw)
        except ValueError:
            raise _unavailable(f"not json on {path}", code="WECHAT_BAD_RESPONSE") from None
        if not isinstance(data, dict):
            raise _unavailable(f"not an object on {path}", code="WECHAT_BAD_RESPONSE")
        errcode = data.get("errcode", 0)
        return WeChatReply(errcode=int(errcode) if isinstance(errcode, int) else -1,
                           errmsg=str(data.get("errmsg", "")), body=data)
