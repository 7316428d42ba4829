"""Secrets read at run time from AWS Secrets Manager and cached per process (powertools `parameters`).

Three JSON secrets per deployed stage, never in the repository, the template or a function's
environment (the environment holds only their names):

    shengong/<stage>/token-keys  {"current": "<kid>", "keys": {"<kid>": "<key>", ...}, "rotated_at": <epoch s>}
    shengong/<stage>/wechat      {"appid": "wx…", "secret": "…"}
    shengong/<stage>/admins      {"openids": ["…", …]}

A value is fetched on first use and kept for `max_age_s` (300 s by default), so a rotated key or a new
司礼 reaches every warm instance within five minutes, with no deploy. A token signed by a key this
instance has not seen yet (another instance fetched the rotated secret first) makes it fetch again, at
most once every `REFRESH_INTERVAL_S`. The local stage reads none of this (see `chalicelib.config`).

The same module writes the token-keys document for `infra/ops.sh rotate-token-key` and the deploy, so
reader and writer cannot disagree on its shape.
"""

from __future__ import annotations

import secrets as stdlib_secrets
import threading
import time
from datetime import UTC, datetime
from typing import Any

from chalicelib.auth.tokens import KeyRing
from chalicelib.config import LOCAL_SECRET, ConfigurationError
from chalicelib.observability import logger

DEFAULT_MAX_AGE_S = 300
REFRESH_INTERVAL_S = 30.0
MIN_KEY_LENGTH = 32
KEEP_KEYS = 2
"""A rotation keeps the current key and the one before it: two keys verify, one signs."""

_last_forced: dict[str, float] = {}
_lock = threading.Lock()


def fetch_json(secret_id: str, max_age_s: int = DEFAULT_MAX_AGE_S, *, force: bool = False) -> dict[str, Any]:
    """The secret's JSON document, from this process's cache when younger than `max_age_s`.

    Raises:
        ConfigurationError: unreadable (missing, no permission, Secrets Manager down) or not a JSON object;
            the log names the secret and the failure, never a value.
    """
    from aws_lambda_powertools.utilities import parameters

    value: Any
    try:
        value = parameters.get_secret(secret_id, transform="json", max_age=max_age_s, force_fetch=force)
    except (parameters.exceptions.GetParameterError, parameters.exceptions.TransformParameterError) as e:
        logger.error("secret unavailable", extra={"secret": secret_id, "error": type(e).__name__,
                                                  "cause": type(e.__cause__).__name__ if e.__cause__ else None})
        raise ConfigurationError(f"secret {secret_id} unavailable") from e
    if not isinstance(value, dict):
        logger.error("secret is not a JSON object", extra={"secret": secret_id})
        raise ConfigurationError(f"secret {secret_id} is not a JSON object")
    return value


def clear_cache() -> None:
    """Forget every cached secret (tests; a new process starts empty anyway)."""
    from aws_lambda_powertools.utilities import parameters

    parameters.clear_caches()  # type: ignore[no-untyped-call]
    _last_forced.clear()


# ---- token keys ---------------------------------------------------------------------------------


def parse_token_keys(doc: dict[str, Any]) -> KeyRing:
    """The ring a token-keys document describes.

    Raises:
        ValueError: the current key is missing, a key is too short, or a key is the local stage's secret.
    """
    keys = doc.get("keys")
    current = doc.get("current")
    if not isinstance(keys, dict) or not isinstance(current, str) or current not in keys:
        raise ValueError("token keys need 'current' naming one of 'keys'")
    ring: dict[str, bytes] = {}
    for kid, key in keys.items():
        if not isinstance(key, str) or len(key) < MIN_KEY_LENGTH:
            raise ValueError(f"token key {kid} must be a string of at least {MIN_KEY_LENGTH} characters")
        if key == LOCAL_SECRET:
            raise ValueError(f"token key {kid} is the local development secret")
        ring[str(kid)] = key.encode()
    return KeyRing(current, ring)


def new_key_id(now_s: float) -> str:
    return "k" + datetime.fromtimestamp(now_s, UTC).strftime("%Y%m%dT%H%M%S")


def new_token_keys(now_s: float) -> dict[str, Any]:
    """A first token-keys document: one fresh random key."""
    kid = new_key_id(now_s)
    return {"current": kid, "keys": {kid: stdlib_secrets.token_urlsafe(48)}, "rotated_at": int(now_s)}


def rotated_token_keys(doc: dict[str, Any], now_s: float) -> dict[str, Any]:
    """`doc` with a fresh current key; the old current key stays (it verifies tokens it signed), older go."""
    parse_token_keys(doc)  # refuse to build on a broken document
    kid = new_key_id(now_s)
    if kid in doc["keys"]:
        raise ValueError(f"a key {kid} already exists; wait a second and rotate again")
    previous = doc["current"]
    return {"current": kid, "keys": {previous: doc["keys"][previous], kid: stdlib_secrets.token_urlsafe(48)},
            "rotated_at": int(now_s)}


def token_keys(secret_id: str, max_age_s: int = DEFAULT_MAX_AGE_S) -> KeyRing:
    """The stage's key ring (cached); a token naming an unknown key triggers one rate-limited re-fetch."""
    ring = _ring(fetch_json(secret_id, max_age_s), secret_id)

    def refetch(kid: str) -> bytes | None:
        with _lock:
            now = time.monotonic()
            if now - _last_forced.get(secret_id, -REFRESH_INTERVAL_S) < REFRESH_INTERVAL_S:
                return None
            _last_forced[secret_id] = now
        fresh = _ring(fetch_json(secret_id, max_age_s, force=True), secret_id)
        return fresh.keys.get(kid)

    return KeyRing(ring.kid, ring.keys, fallback=refetch)


def _ring(doc: dict[str, Any], secret_id: str) -> KeyRing:
    try:
        return parse_token_keys(doc)
    except ValueError as e:
        logger.error("token keys unusable", extra={"secret": secret_id, "reason": str(e)})
        raise ConfigurationError(f"secret {secret_id}: {e}") from e


# ---- WeChat and admins ------------------------------------------------------------------------------


def wechat_credentials(secret_id: str, max_age_s: int = DEFAULT_MAX_AGE_S) -> tuple[str, str]:
    doc = fetch_json(secret_id, max_age_s)
    appid, secret = doc.get("appid"), doc.get("secret")
    if not isinstance(appid, str) or not isinstance(secret, str) or not appid or not secret:
        logger.error("wechat secret needs appid and secret", extra={"secret": secret_id})
        raise ConfigurationError(f"secret {secret_id} needs 'appid' and 'secret'")
    return appid, secret


def admin_openids(secret_id: str, max_age_s: int = DEFAULT_MAX_AGE_S) -> frozenset[str]:
    doc = fetch_json(secret_id, max_age_s)
    openids = doc.get("openids", [])
    if not isinstance(openids, list) or not all(isinstance(o, str) for o in openids):
        logger.error("admins secret needs a list of openids", extra={"secret": secret_id})
        raise ConfigurationError(f"secret {secret_id} needs 'openids': a list of strings")
    return frozenset(o.strip() for o in openids if o.strip())
