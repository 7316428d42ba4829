"""Room 暗号: stored as a salted PBKDF2 hash, compared in constant time, wrong guesses rate-limited.

A 暗号 is short, so the hash alone would not stop a patient guesser; the per-user, per-room limit of
wrong guesses is what does (see `rooms.access.check_password`).
"""

from __future__ import annotations

import hashlib
import hmac
import secrets

ITERATIONS = 20_000


def hash_password(password: str, *, salt: bytes | None = None) -> str:
    salt = salt or secrets.token_bytes(16)
    digest = hashlib.pbkdf2_hmac("sha256", password.encode(), salt, ITERATIONS)
    return f"pbkdf2_sha256${ITERATIONS}${salt.hex()}${digest.hex()}"


def verify_password(password: str, stored: str) -> bool:
    try:
        _, iterations, salt_hex, digest_hex = stored.split("$")
        digest = hashlib.pbkdf2_hmac("sha256", password.encode(), bytes.fromhex(salt_hex), int(iterations))
    except ValueError:
        return False
    return hmac.compare_digest(digest.hex(), digest_hex)
