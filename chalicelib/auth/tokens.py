"""Our own short-lived session token: HMAC-SHA256 signed, verified without a database read.

Format: ``v1.<base64url(json claims)>.<base64url(signature)>``, claims ``sub`` (user id), ``name``,
``role``, ``iat``, ``exp`` (epoch seconds). The WeChat session_key never enters it.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from dataclasses import dataclass

from chalicelib.core.errors import Unauthenticated
from chalicelib.core.identity import Caller, Role

PREFIX = "v1"


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Claims:
    caller: Caller
    issued_s: int
    expires_s: int


def issue(secret: bytes, caller: Caller, now_s: int, ttl_s: int) -> tuple[str, int]:
    claims = {"sub": caller.user_id, "name": caller.name, "role": caller.role.value,
              "iat": now_s, "exp": now_s + ttl_s}
    body = f"{PREFIX}.{_b64(json.dumps(claims, ensure_ascii=False, separators=(',', ':')).encode())}"
    sig = hmac.new(secret, body.encode(), hashlib.sha256).digest()
    return f"{body}.{_b64(sig)}", claims["exp"]


def verify(secret: bytes, token: str, now_s: int) -> Claims:
    """The claims of a valid, unexpired token.

    Raises:
        Unauthenticated: code BAD_TOKEN (malformed or forged) or TOKEN_EXPIRED.
    """
    token = token.removeprefix("Bearer ").strip()
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != PREFIX:
        raise Unauthenticated("登录凭证无效，请重新登录", code="BAD_TOKEN")
    body = f"{parts[0]}.{parts[1]}"
    try:
        sig = _unb64(parts[2])
        claims = json.loads(_unb64(parts[1]))
        expected = hmac.new(secret, body.encode(), hashlib.sha256).digest()
        valid = hmac.compare_digest(sig, expected)
        caller = Caller(user_id=str(claims["sub"]), name=str(claims["name"]), role=Role(claims["role"]))
        issued, expires = int(claims["iat"]), int(claims["exp"])
    except (ValueError, KeyError, TypeError) as e:
        raise Unauthenticated("登录凭证无效，请重新登录", code="BAD_TOKEN") from e
    if not valid:
        raise Unauthenticated("登录凭证无效，请重新登录", code="BAD_TOKEN")
    if expires <= now_s:
        raise Unauthenticated("登录已过期，请重新登录", code="TOKEN_EXPIRED")
    return Claims(caller=caller, issued_s=issued, expires_s=expires)
