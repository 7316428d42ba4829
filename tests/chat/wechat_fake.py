"""A fake WeChat server: a small `http.server` on a local port that keeps WeChat's state (issued
access tokens, users' subscribe-message acceptances) and answers as the documentation shows, with
its error codes. Bodies come from tests/fixtures/wechat_server/."""

from __future__ import annotations

import copy
import json
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlparse

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "wechat_server"
APPID = "wx0123456789abcdef"
SECRET = "app-secret-value"


def _fixture(name: str):
    return json.loads((FIXTURES / name).read_text(encoding="utf-8"))


class FakeWeChat:
    """`clock` is WeChat's clock (tests share theirs with it): tokens expire on it."""

    def __init__(self, clock) -> None:
        self.clock = clock
        self.errors = _fixture("errors.json")
        self.lock = threading.Lock()
        self.calls: list[dict] = []
        self.valid_tokens: dict[str, int] = {}
        """Token -> when it expires (ms); revoked tokens are removed."""
        self.reject_all = False
        self.current: str | None = None
        self.issued = 0
        self.sticky = False
        """Normal-mode stable_token keeps answering the current token even after it was revoked."""
        self.token_delay_s = 0.0
        self.expires_in = 7200
        self.words: dict[str, tuple[str, int]] = {"毒药": ("risky", 20006), "加我微信": ("review", 10001)}
        self.stale_openids: set[str] = set()
        self.accepted: dict[tuple[str, str], int] = {}
        """(openid, template id) -> acceptances left (what wx.requestSubscribeMessage granted)."""
        self.templates = {"TPL-TURN", "TPL-END"}
        self.known_openids = {"oPlayer1", "oPlayer2", "oPlayer3", "oStale"}
        self.sent: list[dict] = []
        self.down_paths: set[str] = set()
        self._server: ThreadingHTTPServer | None = None

    # -- what tests do to WeChat ---------------------------------------------------------------------

    @property
    def url(self) -> str:
        assert self._server is not None
        return f"http://127.0.0.1:{self._server.server_address[1]}"

    def revoke(self, token: str | None = None) -> None:
        """The token stops working (expired early, or replaced by a force refresh elsewhere)."""
        with self.lock:
            self.valid_tokens.pop(token or self.current or "", None)

    def count(self, path: str) -> int:
        return sum(1 for c in self.calls if c["path"] == path)

    def accept(self, openid: str, template: str, times: int = 1) -> None:
        with self.lock:
            self.accepted[(openid, template)] = self.accepted.get((openid, template), 0) + times

    # -- the server ----------------------------------------------------------------------------------

    def start(self) -> None:
        fake = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                url = urlparse(self.path)
                query = {k: v[0] for k, v in parse_qs(url.query).items()}
                length = int(self.headers.get("Content-Length", 0))
                body = json.loads(self.rfile.read(length) or b"{}")
                with fake.lock:
                    fake.calls.append({"path": url.path, "query": query, "body": body})
                if url.path in fake.down_paths:
                    self._answer({"message": "bad gateway"}, 502)
                    return
                handler = {"/cgi-bin/stable_token": fake.stable_token, "/wxa/msg_sec_check": fake.msg_sec_check,
                           "/cgi-bin/message/subscribe/send": fake.subscribe_send}.get(url.path)
                self._answer(handler(query, body) if handler else {"errcode": 404, "errmsg": "not found"})

            def _answer(self, payload, status=200):
                raw = json.dumps(payload, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json; encoding=utf-8")
                self.send_header("Content-Length", str(len(raw)))
                self.end_headers()
                self.wfile.write(raw)

            def log_message(self, *args):
                pass

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        threading.Thread(target=self._server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True).start()

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()

    # -- WeChat's answers ------------------------------------------------------------------------------

    def error(self, errcode: int) -> dict:
        return {"errcode": errcode, "errmsg": self.errors[str(errcode)]}

    def stable_token(self, query: dict, body: dict) -> dict:
        if body.get("grant_type") != "client_credential" or body.get("appid") != APPID:
            return self.error(40013)
        if body.get("secret") != SECRET:
            return self.error(40125)
        time.sleep(self.token_delay_s)
        now = self.clock.now_ms()
        with self.lock:
            # normal mode: the same token while it has more than 5 minutes left (then a new one, the
            # old one still valid until it expires); force_refresh: a new one at once
            left = self.valid_tokens.get(self.current or "", 0) - now
            usable = left > 300_000 or (self.sticky and self.current is not None)
            if body.get("force_refresh") or not usable:
                self.issued += 1
                template = _fixture("stable_token.json")["access_token"]
                self.current = f"{template[:8]}{self.issued:04d}{template[12:]}"
                self.valid_tokens[self.current] = now + self.expires_in * 1000
                left = self.expires_in * 1000
            return {"access_token": self.current, "expires_in": max(left // 1000, 1)}

    def _token_error(self, query: dict) -> dict | None:
        with self.lock:
            expires = self.valid_tokens.get(query.get("access_token", ""))
        if expires is None or self.reject_all:
            return self.error(40001)
        if expires <= self.clock.now_ms():
            return self.error(42001)
        return None

    def _suggest(self, content: str) -> tuple[str, int]:
        for word, verdict in self.words.items():
            if word in content:
                return verdict
        return "pass", 100

    def msg_sec_check(self, query: dict, body: dict) -> dict:
        if (refused := self._token_error(query)) is not None:
            return refused
        suggest, label = self._suggest(body.get("content", ""))
        if body.get("version") != 2:  # version 1: an errcode only
            return self.error(87014) if suggest == "risky" else {"errcode": 0, "errmsg": "ok"}
        if body.get("openid") not in self.known_openids:
            return self.error(40003)
        if body.get("openid") in self.stale_openids:
            return self.error(61010)
        answer = copy.deepcopy(_fixture("msg_sec_check_v2.json"))
        answer["result"] = {"suggest": suggest, "label": label}
        for detail in answer["detail"]:
            detail.update(suggest=suggest, label=label)
        return answer

    def subscribe_send(self, query: dict, body: dict) -> dict:
        if (refused := self._token_error(query)) is not None:
            return refused
        touser, template = body.get("touser"), body.get("template_id")
        if touser not in self.known_openids:
            return self.error(40003)
        if template not in self.templates:
            return self.error(40037)
        if any(len(v.get("value", "")) > 20 for k, v in body.get("data", {}).items() if k.startswith("thing")):
            return self.error(47003)
        with self.lock:
            left = self.accepted.get((touser, template), 0)
            if left <= 0:
                return self.error(43101)
            self.accepted[(touser, template)] = left - 1
            self.sent.append(body)
        return _fixture("subscribe_send.json")
