"""Login (WeChat and, in the local stage only, development) and the caller's own profile."""

from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.accounts import service as accounts
from chalicelib.api.routing import route
from chalicelib.api.schemas import DevLogin, LoginOut, MeOut, RefreshBody, WeChatLogin
from chalicelib.core.identity import Caller
from chalicelib.wiring import services

bp = Blueprint(__name__)


@route(bp, "/v1/auth/wechat", "POST", auth=False, body=WeChatLogin, response=LoginOut, tag="auth",
       summary="微信登录：用 wx.login 的 code 换取我们的登录凭证", errors=(400, 401, 403, 422, 429, 503))
def login_wechat(body: WeChatLogin) -> dict[str, Any]:
    """Exchanges the code with WeChat's jscode2session; the session_key never leaves the server."""
    return accounts.login_wechat(services().account_deps(), body.code, body.nickname)


@route(bp, "/v1/auth/dev", "POST", auth=False, body=DevLogin, response=LoginOut, tag="auth",
       summary="开发登录（仅本地环境）", errors=(404, 422))
def login_dev(body: DevLogin) -> dict[str, Any]:
    """Exists only in the local stage: logs in as `dev:<name>`; 404 in every deployed stage."""
    return accounts.login_dev(services().account_deps(), body.name)


@route(bp, "/v1/auth/refresh", "POST", auth=False, body=RefreshBody, response=LoginOut, tag="auth",
       summary="续期：用 refresh_token 换一对新的登录凭证（不必再走微信登录）", errors=(401, 422))
def refresh(body: RefreshBody) -> dict[str, Any]:
    return accounts.refresh(services().account_deps(), body.refresh_token)


@route(bp, "/v1/me", response=MeOut, tag="auth", summary="我的账号与妃子", errors=(401, 404))
def get_me(caller: Caller) -> dict[str, Any]:
    return accounts.me(services().account_deps(), caller)
