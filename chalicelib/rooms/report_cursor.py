"""Opaque report cursors for viewers who must not count a game's steps (血染甄嬛传's players).

Such a viewer's reports are numbered by her own count and transitions with nothing for her are left
out. To read only what is new, the server must remember where in the log she stopped; that place is
a step number, which she must not learn. So the cursor is the pair (last step read, her count),
encrypted and authenticated with a key only the server can derive: from the room's secret seed
(published only when the game is over, when the log is public anyway) and her user id, so a cursor
works for nobody else. Every answer seals afresh under a random nonce: a cursor that moved over
silent steps looks exactly like one that did not move, so she cannot even tell that steps passed.

The cipher is HMAC-SHA256 as a pseudo-random function: the keystream for a nonce is
HMAC(k_enc, nonce), XORed over the 8-byte plaintext; the tag is HMAC(k_mac, nonce ‖ ciphertext)
(encrypt-then-MAC). Standard library only.
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import secrets
import struct

from chalicelib.core.errors import MalformedRequest

PREFIX = "r1."
_NONCE = 12
_TAG = 16


def _keys(seed: bytes, user: str) -> tuple[bytes, bytes]:
    base = hmac.new(seed, b"shengong-report-cursor\x00" + user.encode(), hashlib.sha256).digest()
    return (hmac.new(base, b"enc", hashlib.sha256).digest(), hmac.new(base, b"mac", hashlib.sha256).digest())


def _xor(data: bytes, key: bytes, nonce: bytes) -> bytes:
    stream = hmac.new(key, nonce, hashlib.sha256).digest()
    return bytes(a ^ b for a, b in zip(data, stream, strict=False))


def seal(seed: bytes, user: str, step: int, count: int) -> str:
    """A cursor meaning "she has read the log up to `step` and been told `count` reports"."""
    enc, mac = _keys(seed, user)
    nonce = secrets.token_bytes(_NONCE)
    body = _xor(struct.pack(">II", step + 1, count), enc, nonce)
    tag = hmac.new(mac, nonce + body, hashlib.sha256).digest()[:_TAG]
    return PREFIX + base64.urlsafe_b64encode(nonce + body + tag).rstrip(b"=").decode()


def is_sealed(cursor: str) -> bool:
    return cursor.startswith(PREFIX)


def open_cursor(seed: bytes, user: str, cursor: str) -> tuple[int, int]:
    """(last step read, her count) from a cursor sealed for her in this room.

    Raises:
        MalformedRequest: BAD_CURSOR (not ours, another room's or another viewer's, or tampered).
    """
    try:
        if not is_sealed(cursor) or len(cursor) > 100:
            raise ValueError("not a report cursor")
        raw = cursor[len(PREFIX):]
        blob = base64.urlsafe_b64decode(raw + "=" * (-len(raw) % 4))
        if len(blob) != _NONCE + 8 + _TAG:
            raise ValueError("bad length")
        nonce, body, tag = blob[:_NONCE], blob[_NONCE:_NONCE + 8], blob[_NONCE + 8:]
        enc, mac = _keys(seed, user)
        if not hmac.compare_digest(tag, hmac.new(mac, nonce + body, hashlib.sha256).digest()[:_TAG]):
            raise ValueError("bad tag")
        step, count = struct.unpack(">II", _xor(body, enc, nonce))
        return step - 1, count
    except (ValueError, binascii.Error, struct.error) as e:
        raise MalformedRequest("战报游标无效，请从头读取", code="BAD_CURSOR") from e
