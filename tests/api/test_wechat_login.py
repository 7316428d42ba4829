"""WeChat login: the real client over real HTTP against a local server replaying recorded answers."""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import ClassVar
from urllib.parse import parse_qs, urlparse

import pytest

from tests.api.helpers import error

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "wechat"


class Replay(BaseHTTPRequestHandler):
    requests: ClassVar[list[dict]] = []

    def do_GET(self):
        url = urlparse(self.path)
        query = {k: v[0] for k, v in parse_qs(url.query).items()}
        Replay.requests.append({"path": url.path, "query": query})
        recorded = json.loads((FIXTURES / f"{query.get('js_code', 'missing')}.json").read_text())
        body = recorded["body"].encode()
        self.send_response(recorded["status"])
        for k, v in recorded["headers"].items():
            self.send_header(k, v)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args):
        pass


@pytest.fixture
def wechat_server():
    server = ThreadingHTTPServer(("127.0.0.1", 0), Replay)
    Replay.requests = []
    thread = threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.02}, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()


@pytest.fixture
def settings_env(wechat_server):
    return {"STAGE": "local", "TABLE_NAME": "shengong-test", "ADMIN_OPENIDS": "oTxkR5Kd9Lw0nq2b7hXyPz1mQ4cA",
            "WECHAT_APPID": "wx0123456789abcdef", "WECHAT_SECRET": "app-secret-value",
            "WECHAT_BASE_URL": wechat_server}


def _login(api, code, nickname=None):
    body = {"code": code} if nickname is None else {"code": code, "nickname": nickname}
    return api.http.post("/v1/auth/wechat", body=json.dumps(body), headers={"Content-Type": "application/json"})


def test_login_exchanges_the_code_and_returns_our_token(api):
    r = _login(api, "success", "甄嬛")
    assert r.status_code == 200
    assert Replay.requests == [{"path": "/sns/jscode2session", "query": {
        "appid": "wx0123456789abcdef", "secret": "app-secret-value", "js_code": "success",
        "grant_type": "authorization_code"}}]
    body = r.json_body
    assert body["user"]["name"] == "甄嬛" and body["user"]["role"] == "player"
    assert body["token"].startswith("v1.")
    # neither the session_key nor the openid ever reaches the client
    assert "tiihtNczf5v6AKRyjwEUhQ" not in r.body.decode()
    assert "oGZUI0egBJY1zhBYw2KhdUfwVJJE" not in r.body.decode()
    me = api.http.get("/v1/me", headers={"Authorization": body["token"]})
    assert me.status_code == 200 and me.json_body["user"]["id"] == body["user"]["id"]


def test_same_openid_is_the_same_user_and_admins_come_from_configuration(api):
    a = _login(api, "success_unionid").json_body
    b = _login(api, "success_unionid").json_body
    assert a["user"]["id"] == b["user"]["id"]
    assert a["user"]["role"] == "admin"


def test_a_login_without_a_name_keeps_hers_and_a_default_name_holds_no_piece_of_the_openid(api):
    """The mini-program logs in without a name unless she writes one: a new player is 宫人 and four
    characters of her user id (a hash), never of her openid (private; other players read names on
    boards and seats); a later login without a name keeps the one she has, a named one renames her."""
    first = _login(api, "success").json_body["user"]
    assert first["name"] == f"宫人{first['id'][-4:]}" and "VJJE" not in first["name"]  # …fVJJE: the openid's end
    assert _login(api, "success", "甄嬛").json_body["user"]["name"] == "甄嬛"
    again = _login(api, "success").json_body
    assert again["user"]["name"] == "甄嬛"
    assert api.http.get("/v1/me", headers={"Authorization": again["token"]}).json_body["user"]["name"] == "甄嬛"


@pytest.mark.parametrize("code,status,err", [
    ("invalid_code", 401, "WECHAT_CODE_INVALID"),
    ("code_used", 401, "WECHAT_CODE_USED"),
    ("rate_limited", 429, "WECHAT_RATE_LIMITED"),
    ("high_risk", 403, "WECHAT_USER_BLOCKED"),
    ("system_busy", 503, "WECHAT_BUSY"),
    ("invalid_appid", 503, "WECHAT_ERROR"),
    ("gateway_error", 503, "WECHAT_HTTP_ERROR"),
])
def test_wechat_errors_map_to_clear_client_errors(api, code, status, err):
    r = _login(api, code)
    assert error(r) == (status, err)
    assert "errmsg" not in r.body.decode() and "rid" not in r.body.decode()


def test_unreachable_wechat_is_a_503(api, svc):
    svc.wechat.base_url = "http://127.0.0.1:9"  # nothing listens on the discard port
    r = _login(api, "success")
    assert error(r) == (503, "WECHAT_UNREACHABLE") and r.headers["Retry-After"] == "5"  # docs/errors.md: 503 says when


def test_bad_login_bodies_never_reach_wechat(api):
    assert error(api.http.post("/v1/auth/wechat", body="{not json", headers={"Content-Type": "application/json"})) == (
        400, "MALFORMED_JSON")
    assert error(_login(api, "")) == (422, "VALIDATION_FAILED")
    assert error(_login(api, "x" * 200)) == (422, "VALIDATION_FAILED")
    assert Replay.requests == []


def test_tokens_are_checked(api, clock):
    token = _login(api, "success").json_body["token"]
    forged = token[:-2] + ("AA" if token[-2:] != "AA" else "BB")
    assert error(api.http.get("/v1/me", headers={"Authorization": forged})) == (401, "BAD_TOKEN")
    assert error(api.http.get("/v1/me", headers={"Authorization": "nonsense"})) == (401, "BAD_TOKEN")
    clock.advance(7201)
    assert error(api.http.get("/v1/me", headers={"Authorization": token})) == (401, "TOKEN_EXPIRED")
    assert error(api.http.get("/v1/me")) == (401, "UNAUTHENTICATED")  # no header: the gateway refuses, in our shape
    assert error(api.http.get("/v1/no/such/path", headers={"Authorization": token})) == (404, "NOT_FOUND")


def test_a_refresh_token_buys_a_new_pair_and_is_no_access_token(api, clock):
    login = _login(api, "success", "甄嬛").json_body
    refresh = login["refresh_token"]
    assert login["refresh_expires_at"] - login["expires_at"] > 24 * 3600
    assert error(api.http.get("/v1/me", headers={"Authorization": refresh})) == (401, "BAD_TOKEN")

    def renew(token):
        return api.http.post("/v1/auth/refresh", body=json.dumps({"refresh_token": token}),
                             headers={"Content-Type": "application/json"})

    assert error(renew(login["token"])) == (401, "BAD_REFRESH_TOKEN")  # an access token buys nothing
    clock.advance(7201)  # the access token has expired; the refresh token has not
    assert error(api.http.get("/v1/me", headers={"Authorization": login["token"]})) == (401, "TOKEN_EXPIRED")
    again = renew(refresh).json_body
    assert again["user"] == login["user"] and again["token"] != login["token"]
    assert api.http.get("/v1/me", headers={"Authorization": again["token"]}).status_code == 200
    clock.advance(8 * 24 * 3600)
    assert error(renew(again["refresh_token"])) == (401, "BAD_REFRESH_TOKEN")


def test_dev_login_exists_only_in_the_local_stage(api, svc):
    from dataclasses import replace

    ok = api.http.post("/v1/auth/dev", body=json.dumps({"name": "眉庄"}), headers={"Content-Type": "application/json"})
    assert ok.status_code == 200
    svc.settings = replace(svc.settings, stage="prod", secret="s" * 40)
    r = api.http.post("/v1/auth/dev", body=json.dumps({"name": "眉庄"}), headers={"Content-Type": "application/json"})
    assert error(r) == (404, "NOT_FOUND")


def test_a_removed_admin_is_a_player_from_her_next_refresh(svc):
    """`ops.sh remove-admin` takes the 司礼's rights away at her next refresh, not at a full login she
    may never need again (a refresh renews itself for a week at a time); `add-admin` works the same way."""
    from dataclasses import replace

    from chalicelib.accounts import service as accounts

    deps = replace(svc.account_deps(), admin_openids=frozenset({"dev:司礼"}))
    login = accounts.login_dev(deps, "司礼")
    assert login["user"]["role"] == "admin"
    kept = accounts.refresh(deps, login["refresh_token"])
    assert kept["user"]["role"] == "admin"
    demoted = accounts.refresh(replace(deps, admin_openids=frozenset()), kept["refresh_token"])
    assert demoted["user"]["role"] == "player"
    assert svc.accounts.get_user(login["user"]["id"]).role == "player"
    restored = accounts.refresh(deps, demoted["refresh_token"])
    assert restored["user"]["role"] == "admin"
    assert "openid" not in restored["user"]  # who WeChat says she is never leaves the server
