"""Every setting the service reads from its environment, in one place, read once per process.

Each Lambda gets only the variables it needs (the authorizer has no table, the sweeps no secrets),
so a setting is checked when it is used, not when the process starts.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache

LOCAL_STAGE = "local"
LOCAL_SECRET = "local-development-secret-not-for-deployment"


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

    @property
    def is_local(self) -> bool:
        """The development login and demo helpers exist only in the local stage."""
        return self.stage == LOCAL_STAGE

    @property
    def table_name(self) -> str:
        if not self.table:
            raise RuntimeError("environment variable TABLE_NAME is required")
        return self.table

    @property
    def token_secret(self) -> bytes:
        if self.secret:
            if len(self.secret) < 32 and not self.is_local:
                raise RuntimeError("TOKEN_SECRET must be at least 32 characters")
            return self.secret.encode()
        if self.is_local:
            return LOCAL_SECRET.encode()
        raise RuntimeError("environment variable TOKEN_SECRET is required outside the local stage")


def load_settings(env: dict[str, str] | None = None) -> Settings:
    env = dict(os.environ if env is None else env)
    stage = env.get("STAGE", LOCAL_STAGE)
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
    )


@cache
def settings() -> Settings:
    return load_settings()
