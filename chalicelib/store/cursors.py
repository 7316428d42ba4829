"""Opaque, signed page cursors: a client may only hand back a cursor we gave it for the same list.

The cursor is the next page's start key as JSON plus an HMAC over the list's scope and that JSON; a
tampered cursor, one from another list, or garbage is a 400 (BAD_CURSOR), never a 500 and never a
query with a key the client made up."""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
from collections.abc import Callable, Sequence
from typing import Any

from chalicelib.core.errors import MalformedRequest

MAX_CURSOR_CHARS = 512
_SIG_BYTES = 16


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


Secret = bytes | Sequence[bytes]
"""One secret, or several: the first signs, any of them verifies (a key rotation keeps open cursors)."""


class CursorCodec:
    """Signs with a key derived from `secret` (or a function giving it: read on first use)."""

    def __init__(self, secret: Secret | Callable[[], Secret]) -> None:
        self._secret = secret

    def _secrets(self) -> list[bytes]:
        secret = self._secret() if callable(self._secret) else self._secret
        return [secret] if isinstance(secret, bytes) else list(secret)

    @staticmethod
    def _mac(secret: bytes, scope: str, payload: bytes) -> bytes:
        key = hashlib.sha256(b"shengong-cursor\x00" + secret).digest()
        return hmac.new(key, scope.encode() + b"\x00" + payload, hashlib.sha256).digest()[:_SIG_BYTES]

    def _sign(self, scope: str, payload: bytes) -> bytes:
        return self._mac(self._secrets()[0], scope, payload)

    def _valid(self, scope: str, payload: bytes, sig: bytes) -> bool:
        return any(hmac.compare_digest(sig, self._mac(s, scope, payload)) for s in self._secrets())

    def encode(self, key: dict[str, Any], *, scope: str) -> str:
        payload = json.dumps(key, separators=(",", ":"), sort_keys=True).encode()
        return f"{_b64(payload)}.{_b64(self._sign(scope, payload))}"

    def decode(self, cursor: str | None, *, scope: str) -> dict[str, Any] | None:
        """The start key inside a cursor we issued for `scope` (None for no cursor).

        Raises:
            MalformedRequest: BAD_CURSOR.
        """
        if not cursor:
            return None
        try:
            if len(cursor) > MAX_CURSOR_CHARS:
                raise ValueError("too long")
            body, sig = cursor.split(".")
            payload = _unb64(body)
            if not self._valid(scope, payload, _unb64(sig)):
                raise ValueError("bad signature")
            key = json.loads(payload)
            if not isinstance(key, dict):
                raise TypeError("not an object")
            return key
        except (ValueError, TypeError, binascii.Error, UnicodeDecodeError) as e:
            raise MalformedRequest("分页游标无效，请从第一页重新开始", code="BAD_CURSOR") from e
