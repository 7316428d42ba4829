"""Our own short-lived session token: HMAC-SHA256 signed, verified without a database read.

Format: ``v1.<base64url(json claims)>.<base64url(signature)>``, claims ``sub`` (user id), ``name``,
``role``, ``iat``, ``exp`` (epoch seconds) and ``kid``, the id of the key that signed it. The WeChat
session_key never enters it.

Keys rotate (``infra/ops.sh rotate-token-key``): a `KeyRing` holds the current key, which signs, and
the previous one, which still verifies, so nobody is logged out by a rotation. A token names its key;
the ring looks that key up (asking its `fallback`, if it has one, for a kid it does not know yet:
another instance may already sign with a key this one has not fetched).
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from types import MappingProxyType
from typing import Self

from chalicelib.core.errors import Unauthenticated
from chalicelib.core.identity import Caller, Role

PREFIX = "v1"


class KeyRing(bytes):
    """Signing keys by id. The ring *is* its current key (bytes), so code typed for one secret keeps working.

    ``repr`` never shows a key.
    """

    kid: str
    keys: Mapping[str, bytes]
    fallback: Callable[[str], bytes | None] | None

    def __new__(cls, current: str, keys: Mapping[str, bytes],
                fallback: Callable[[str], bytes | None] | None = None) -> Self:
        if current not in keys:
            raise ValueError(f"the current key {current!r} is not in the ring")
        ring = super().__new__(cls, keys[current])
        ring.kid = current
        ring.keys = MappingProxyType(dict(keys))
        ring.fallback = fallback
        return ring

    def key(self, kid: str) -> bytes | None:
        found = self.keys.get(kid)
        if found is None and self.fallback is not None:
            found = self.fallback(kid)
        return found

    def __repr__(self) -> str:
        return f"KeyRing(current={self.kid!r}, kids={sorted(self.keys)!r})"

    __str__ = __repr__


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


@dataclass(frozen=True)
class Claims:
    caller: Caller
    issued_s: int
    expires_s: int
    kid: str | None = None


ACCESS = "access"
REFRESH = "refresh"
"""Token kinds: an access token authorises requests; a refresh token only buys a new pair
(POST /v1/auth/refresh), and neither passes for the other."""


def issue(secret: bytes, caller: Caller, now_s: int, ttl_s: int, kind: str = ACCESS) -> tuple[str, int]:
    """A signed token and its expiry. With a `KeyRing` the current key signs and its id is in the claims."""
    claims: dict[str, str | int] = {"sub": caller.user_id, "name": caller.name, "role": caller.role.value,
                                    "iat": now_s, "exp": now_s + ttl_s}
    if kind != ACCESS:
        claims["typ"] = kind
    if isinstance(secret, KeyRing):
        claims["kid"] = secret.kid
    body = f"{PREFIX}.{_b64(json.dumps(claims, ensure_ascii=False, separators=(',', ':')).encode())}"
    sig = hmac.new(secret, body.encode(), hashlib.sha256).digest()
    return f"{body}.{_b64(sig)}", now_s + ttl_s


def _bad() -> Unauthenticated:
    return Unauthenticated("登录凭证无效，请重新登录", code="BAD_TOKEN")


def verify(secret: bytes, token: str, now_s: int, kind: str = ACCESS) -> Claims:
    """The claims of a valid, unexpired token of `kind`.

    `secret` is one key, or a `KeyRing` (the token's ``kid`` picks the key; no kid: the current one).

    Raises:
        Unauthenticated: code BAD_TOKEN (malformed, forged or signed by an unknown key) or TOKEN_EXPIRED.
    """
    token = token.removeprefix("Bearer ").strip()
    parts = token.split(".")
    if len(parts) != 3 or parts[0] != PREFIX:
        raise _bad()
    body = f"{parts[0]}.{parts[1]}"
    try:
        sig = _unb64(parts[2])
        claims = json.loads(_unb64(parts[1]))
        caller = Caller(user_id=str(claims["sub"]), name=str(claims["name"]), role=Role(claims["role"]))
        issued, expires = int(claims["iat"]), int(claims["exp"])
        kid = claims.get("kid")
        if kid is not None and not isinstance(kid, str):
            raise TypeError("kid")
        if claims.get("typ", ACCESS) != kind:
            raise ValueError("another kind of token")
    except (ValueError, KeyError, TypeError, AttributeError, OverflowError, RecursionError) as e:
        # read before the signature is checked (its kid picks the key): anything may be in a forgery
        raise _bad() from e
    key: bytes | None = secret
    if isinstance(secret, KeyRing) and kid is not None:
        key = secret.key(kid)
    if key is None or not hmac.compare_digest(sig, hmac.new(key, body.encode(), hashlib.sha256).digest()):
        raise _bad()
    if expires <= now_s:
        raise Unauthenticated("登录已过期，请重新登录", code="TOKEN_EXPIRED")
    return Claims(caller=caller, issued_s=issued, expires_s=expires, kid=kid)
