"""Every setting the service reads from its environment, in one place, read once per process.

Each Lambda gets only the variables it needs (the authorizer has no table, the sweeps no secrets),
so a setting is checked when it is used, not when the process starts.

Fail closed. In Lambda (``AWS_LAMBDA_FUNCTION_NAME`` is set) the stage must be named and must not be
``local``; the token keys, the WeChat credentials and the admin openids come from Secrets Manager
(`chalicelib.secrets`; the environment holds only the secrets' names), and a signing secret in the
environment is refused. A missing or unreadable setting is a `ConfigurationError`: the first request
answers 503 ``SERVICE_UNAVAILABLE`` (the authorizer's failure reaches the client as the gateway's
503), never a silent default. Only the local stage outside Lambda (``infra/dev.sh serve``, the tests)
runs on the built-in development secret and the development login, with no AWS secrets at all.
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass
from functools import cache

from chalicelib.auth.tokens import KeyRing
from chalicelib.core.errors import DomainError

LOCAL_STAGE = "local"
LOCAL_SECRET = "local-development-secret-not-for-deployment"
LOCAL_KID = "local"
ENV_KID = "env"
STAGE_NAME = re.compile(r"^[a-z][a-z0-9-]{0,15}$")
DEFAULT_PUSH_VIEWS = frozenset({"baohuang", "zhenhuan"})
"""保皇's and 血染's notices carry the subscriber's own view unless a stage says otherwise: only so do they
cost a fifth of polling (issue #13, docs/performance.md); it is her own projection, the body her GET gives."""
NO_PUSH_VIEWS = "none"


def push_views_setting(raw: str) -> frozenset[str]:
    """PUSH_VIEWS as written: empty (a stack from before the default, or none given) is the default,
    "none" is no views, else the comma-separated families."""
    if not raw.strip():
        return DEFAULT_PUSH_VIEWS
    if raw.strip() == NO_PUSH_VIEWS:
        return frozenset()
    return frozenset(x.strip() for x in raw.split(",") if x.strip())


class ConfigurationError(DomainError):
    """The deployment is incomplete (a setting or secret is missing or unreadable): nothing the client did.

    The message the client sees is generic; the detail (which setting) goes to the log and the exception.
    """

    status = 503
    default_code = "SERVICE_UNAVAILABLE"
    default_message = "服务暂不可用，请稍后再试"

    def __init__(self, detail: str) -> None:
        super().__init__()
        self.detail = detail
        self.args = (f"{self.code}: {detail}",)
        from chalicelib.observability import logger

        logger.error("configuration error", extra={"detail": detail})


@dataclass(frozen=True)
class Settings:
    stage: str
    table: str
    secret: str
    token_ttl_s: int
    admin_openids: frozenset[str]
    wechat_appid: str
    wechat_secret: str
    wechat_base_url: str
    wechat_timeout_s: float
    in_lambda: bool = False
    token_keys_secret_id: str = ""
    wechat_secret_id: str = ""
    admins_secret_id: str = ""
    secret_max_age_s: int = 300
    push_views: frozenset[str] = DEFAULT_PUSH_VIEWS
    """Game families whose room notices carry each subscriber's own view (PUSH_VIEWS), so her phone need
    not fetch it: unset or empty, the default (保皇 and 血染); "none": a notice says only "room R changed,
    version V" (docs/architecture.md, "Push"). As written: the push wiring keeps only the families whose
    page takes a pushed view (`push.service.PUSHED_VIEW_FAMILIES`) and reports any other name — a typo
    must not stop notices (the deploy refuses one before it gets here)."""

    @property
    def is_local(self) -> bool:
        """The development login, the local secret and demo helpers exist only here (never in Lambda)."""
        return self.stage == LOCAL_STAGE and not self.in_lambda

    @property
    def table_name(self) -> str:
        if not self.table:
            raise ConfigurationError("environment variable TABLE_NAME is required")
        return self.table

    @property
    def token_secret(self) -> bytes:
        """The signing keys, a `KeyRing` (its current key signs, each key verifies the tokens it signed)."""
        if self.token_keys_secret_id:
            from chalicelib import secrets

            return secrets.token_keys(self.token_keys_secret_id, self.secret_max_age_s)
        if self.in_lambda:
            raise ConfigurationError("TOKEN_KEYS_SECRET_ID is required in Lambda")
        if self.secret:
            if not self.is_local and (len(self.secret) < 32 or self.secret == LOCAL_SECRET):
                raise ConfigurationError("TOKEN_SECRET must be at least 32 characters and not the local secret")
            return KeyRing(ENV_KID, {ENV_KID: self.secret.encode()})
        if self.is_local:
            return KeyRing(LOCAL_KID, {LOCAL_KID: LOCAL_SECRET.encode()})
        raise ConfigurationError("TOKEN_SECRET or TOKEN_KEYS_SECRET_ID is required outside the local stage")

    def current_admins(self) -> frozenset[str]:
        """The 司礼 openids: from Secrets Manager when deployed (cached), from ADMIN_OPENIDS locally."""
        if self.admins_secret_id:
            from chalicelib import secrets

            return secrets.admin_openids(self.admins_secret_id, self.secret_max_age_s)
        if self.in_lambda:
            raise ConfigurationError("ADMINS_SECRET_ID is required in Lambda")
        return self.admin_openids

    def wechat_credentials(self) -> tuple[str, str]:
        """(appid, app secret): from Secrets Manager when deployed (cached), from the environment locally."""
        if self.wechat_secret_id:
            from chalicelib import secrets

            return secrets.wechat_credentials(self.wechat_secret_id, self.secret_max_age_s)
        if self.in_lambda:
            raise ConfigurationError("WECHAT_SECRET_ID is required in Lambda")
        return self.wechat_appid, self.wechat_secret


def load_settings(env: dict[str, str] | None = None) -> Settings:
    """Settings from `env` (default: the process environment).

    Raises:
        ConfigurationError: in Lambda, STAGE is missing, malformed or ``local``, or a signing secret or WeChat
            secret sits in the environment.
    """
    env = dict(os.environ if env is None else env)
    in_lambda = bool(env.get("AWS_LAMBDA_FUNCTION_NAME"))
    stage = env.get("STAGE", "" if in_lambda else LOCAL_STAGE)
    if in_lambda:
        if not STAGE_NAME.match(stage):
            raise ConfigurationError(f"environment variable STAGE is missing or malformed: {stage!r}")
        if stage == LOCAL_STAGE:
            raise ConfigurationError("the local stage does not run in Lambda")
        baked = sorted(k for k in ("TOKEN_SECRET", "WECHAT_SECRET") if env.get(k))
        if baked:
            raise ConfigurationError(f"secrets in the environment are refused in Lambda: {', '.join(baked)}")
    return Settings(
        stage=stage,
        table=env.get("TABLE_NAME", "shengong-local" if stage == LOCAL_STAGE else ""),
        secret=env.get("TOKEN_SECRET", ""),
        token_ttl_s=int(env.get("TOKEN_TTL_S", "7200")),
        admin_openids=frozenset(x.strip() for x in env.get("ADMIN_OPENIDS", "").split(",") if x.strip()),
        wechat_appid=env.get("WECHAT_APPID", ""),
        wechat_secret=env.get("WECHAT_SECRET", ""),
        wechat_base_url=env.get("WECHAT_BASE_URL", "https://api.weixin.qq.com").rstrip("/"),
        wechat_timeout_s=float(env.get("WECHAT_TIMEOUT_S", "5")),
        in_lambda=in_lambda,
        token_keys_secret_id=env.get("TOKEN_KEYS_SECRET_ID", ""),
        wechat_secret_id=env.get("WECHAT_SECRET_ID", ""),
        admins_secret_id=env.get("ADMINS_SECRET_ID", ""),
        secret_max_age_s=int(env.get("SECRET_MAX_AGE_S", "300")),
        push_views=push_views_setting(env.get("PUSH_VIEWS", "")),
    )


@cache
def settings() -> Settings:
    return load_settings()
