"""Login, the 妃子 catalogue (created by the 司礼, claimed by players) and 宫女 grants."""

from __future__ import annotations

import hashlib
import secrets
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from typing import Any

from chalicelib.auth import tokens
from chalicelib.auth.wechat import WeChatClient
from chalicelib.core.clock import Clock
from chalicelib.core.errors import (
    Conflict,
    Forbidden,
    IllegalAction,
    NotFound,
    Unauthenticated,
    ValidationFailed,
)
from chalicelib.core.identity import Caller, Role
from chalicelib.domain.ports import Consort, User
from chalicelib.games import game_keys


@dataclass
class AccountDeps:
    accounts: Any
    clock: Clock
    token_secret: bytes
    token_ttl_s: int
    admin_openids: frozenset[str]
    wechat: WeChatClient | None
    dev_login: bool
    check_name: Callable[[str, str | None], None] = field(default=lambda name, openid: None)
    """Content security for a name others will read (name, the writer's openid when known)."""


def user_id_for(openid: str) -> str:
    """Our user id: a hash, so the openid itself never appears in URLs, rooms or views."""
    return "u" + hashlib.sha256(openid.encode()).hexdigest()[:20]


def _role(deps: AccountDeps, openid: str) -> Role:
    """The 司礼 are the openids in the admins secret, as it reads now (add-admin / remove-admin)."""
    return Role.ADMIN if openid in deps.admin_openids else Role.PLAYER


def _login(deps: AccountDeps, openid: str, name: str | None) -> dict[str, Any]:
    """Log her in, creating her on first login. Without a name (the mini-program's login, where she did
    not choose one) she keeps the name she has, and a new player is 宫人 with four characters of her user
    id — a hash: the openid is private, not even a piece of it goes into a name others read."""
    role = _role(deps, openid)
    now = deps.clock.now_ms()
    uid = user_id_for(openid)
    user = deps.accounts.ensure_user(User(id=uid, name=name or f"宫人{uid[-4:]}", role=role.value, created_ms=now),
                                     openid, keep_name=not name)
    return _session(deps, user, Caller(user_id=user.id, name=user.name, role=role))


REFRESH_TTL_S = 7 * 24 * 3600
"""A phone stays logged in for a week without opening WeChat's login again (each refresh renews it)."""


def _session(deps: AccountDeps, user: User, caller: Caller) -> dict[str, Any]:
    now_s = deps.clock.now_ms() // 1000
    token, expires_s = tokens.issue(deps.token_secret, caller, now_s, deps.token_ttl_s)
    refresh, refresh_expires_s = tokens.issue(deps.token_secret, caller, now_s, REFRESH_TTL_S, kind=tokens.REFRESH)
    return {"token": token, "expires_at": expires_s, "refresh_token": refresh,
            "refresh_expires_at": refresh_expires_s, "user": user_json(user)}


def refresh(deps: AccountDeps, refresh_token: str) -> dict[str, Any]:
    """A new token pair for a valid refresh token (the user as stored now: a renamed user is renamed
    in the new pair, and her role is decided again from the admins secret, so a 司礼 removed from it
    is a player from her next refresh — a refresh never carries a role on by itself).

    Raises:
        Unauthenticated: BAD_REFRESH_TOKEN (invalid, expired, or an access token).
    """
    try:
        claims = tokens.verify(deps.token_secret, refresh_token, deps.clock.now_ms() // 1000, kind=tokens.REFRESH)
    except Unauthenticated as e:
        raise Unauthenticated("登录已失效，请重新登录", code="BAD_REFRESH_TOKEN") from e
    user = deps.accounts.get_user(claims.caller.user_id)
    if user is None:
        raise Unauthenticated("登录已失效，请重新登录", code="BAD_REFRESH_TOKEN")
    role = _role(deps, user.openid) if user.openid is not None else Role(user.role)
    if role.value != user.role and user.openid is not None:
        user = deps.accounts.ensure_user(replace(user, role=role.value), user.openid)
    return _session(deps, user, Caller(user_id=user.id, name=user.name, role=role))


def login_wechat(deps: AccountDeps, code: str, nickname: str | None) -> dict[str, Any]:
    if deps.wechat is None:
        raise NotFound("微信登录未开启", code="WECHAT_DISABLED")
    session = deps.wechat.code_to_session(code)
    if nickname:
        deps.check_name(nickname, session.openid)
    return _login(deps, session.openid, nickname or None)


def login_dev(deps: AccountDeps, name: str) -> dict[str, Any]:
    """Local stage only: log in as `dev:<name>` without WeChat."""
    if not deps.dev_login:
        raise NotFound("没有这个接口", code="NOT_FOUND")
    return _login(deps, f"dev:{name}", name)


def user_json(user: User) -> dict[str, Any]:
    return {"id": user.id, "name": user.name, "role": user.role, "consort": user.consort}


def consort_json(c: Consort, *, mine: bool = False, admin: bool = False) -> dict[str, Any]:
    """A 妃子 as anyone may see her; her 宫女 only to her owner and the 司礼: in 深宫杀 they are her deck
    and her passive bonuses, which the game shows to nobody else (docs/rules/shengong.md)."""
    return {
        "id": c.id, "name": c.name, "looks": c.looks, "talent": c.talent, "favor": c.favor, "power": c.power,
        "claimed": c.owner is not None, "owner_name": c.owner_name, "mine": mine,
        "maids": [{"card": card, "level": level} for card, level in sorted(c.maids.items())] if mine or admin
        else None,
        "cleared_stages": sorted(c.cleared_stages),
    }


def me(deps: AccountDeps, caller: Caller) -> dict[str, Any]:
    user = deps.accounts.get_user(caller.user_id)
    if user is None:
        raise NotFound("找不到用户，请重新登录", code="USER_NOT_FOUND")
    consort = deps.accounts.get_consort(user.consort) if user.consort else None
    return {"user": user_json(user), "consort": consort_json(consort, mine=True) if consort else None}


def require_admin(caller: Caller) -> None:
    if not caller.is_admin:
        raise Forbidden("只有司礼可以这样做", code="ADMIN_ONLY")


def create_consort(deps: AccountDeps, caller: Caller, name: str, looks: int, talent: int, favor: int,
                   power: int, request_key: str | None = None) -> dict[str, Any]:
    """With an Idempotency-Key a retried create returns the 妃子 the first attempt made."""
    require_admin(caller)
    deps.check_name(name, None)
    cid = ("c" + hashlib.sha256(f"{caller.user_id}\x00{request_key}".encode()).hexdigest()[:10] if request_key
           else "c" + secrets.token_hex(5))
    consort = Consort(id=cid, name=name, looks=looks, talent=talent, favor=favor, power=power,
                      created_ms=deps.clock.now_ms())
    try:
        deps.accounts.create_consort(consort)
    except Conflict:
        if request_key is None:
            raise
        existing = deps.accounts.get_consort(cid)
        asked = (name, looks, talent, favor, power)
        if (existing.name, existing.looks, existing.talent, existing.favor, existing.power) != asked:
            raise ValidationFailed("这个请求编号（Idempotency-Key）已用于另一个妃子", code="IDEMPOTENCY_KEY_REUSED") from None
        return consort_json(existing, admin=True)  # the same create, retried
    return consort_json(consort, admin=True)


def list_consorts(deps: AccountDeps, caller: Caller) -> list[dict[str, Any]]:
    return [consort_json(c, mine=c.owner == caller.user_id, admin=caller.is_admin)
            for c in sorted(deps.accounts.list_consorts(), key=lambda c: (c.created_ms, c.id))]


def get_consort(deps: AccountDeps, caller: Caller, cid: str) -> dict[str, Any]:
    c = deps.accounts.get_consort(cid)
    return consort_json(c, mine=c.owner == caller.user_id, admin=caller.is_admin)


def claim_consort(deps: AccountDeps, caller: Caller, cid: str) -> dict[str, Any]:
    """认领: one 妃子 per user; claiming the one she already owns again is a harmless retry."""
    user = deps.accounts.get_user(caller.user_id)
    if user is None:
        raise NotFound("找不到用户，请重新登录", code="USER_NOT_FOUND")
    deps.accounts.claim_consort(cid, user)
    return consort_json(deps.accounts.get_consort(cid), mine=True)


def grant_maid(deps: AccountDeps, caller: Caller, cid: str, card: str, level: int) -> dict[str, Any]:
    require_admin(caller)
    from chalicelib.games.shengong.cards import CATALOGUE  # 深宫杀 modules load only where they are used
    from chalicelib.games.shengong.profile import MAID_LEVEL_MAX

    if card not in CATALOGUE:
        raise NotFound(f"没有这张宫女卡：{card}", code="CARD_NOT_FOUND")
    if not 1 <= level <= MAID_LEVEL_MAX:
        raise IllegalAction(f"宫女等级须在 1 到 {MAID_LEVEL_MAX} 之间", code="BAD_LEVEL")
    return consort_json(deps.accounts.grant_maid(cid, card, level), admin=True)


def set_open_games(deps: AccountDeps, caller: Caller, changes: dict[str, bool]) -> dict[str, bool]:
    """Open or lock these games; returns the stored settings (games never set keep their default)."""
    require_admin(caller)
    unknown = sorted(set(changes) - set(game_keys()))
    if unknown:
        raise NotFound(f"没有这个玩法：{unknown[0]}", code="UNKNOWN_GAME")
    return deps.accounts.update_open_games(changes) if changes else deps.accounts.get_open_games() or {}
