"""Every setting the service reads from its environment, in one place, read once per process."""

from __future__ import annotations

import os
from dataclasses import dataclass
from functools import cache

LOCAL_STAGE = "local"


@dataclass(frozen=True)
class Settings:
    stage: str
    table_name: str
    token_secret: bytes
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


def _require(name: str, env: dict[str, str]) -> str:
    value = env.get(name, "")
    if not value:
        raise RuntimeError(f"environment variable {name} is required")
    return value


def load_settings(env: dict[str, str] | None = None) -> Settings:
    env = dict(os.environ if env is None else env)
    stage = env.get("STAGE", LOCAL_STAGE)
    secret = env.get("TOKEN_SECRET", "")
    if not secret:
        if stage != LOCAL_STAGE:
            raise RuntimeError("TOKEN_SECRET is required outside the local stage")
        secret = "local-development-secret-not-for-deployment"
    if len(secret) < 32 and stage != LOCAL_STAGE:
        raise RuntimeError("TOKEN_SECRET must be at least 32 characters")
    return Settings(
        stage=stage,
        table_name=_require("TABLE_NAME", env) if stage != LOCAL_STAGE else env.get("TABLE_NAME", "shengong-local"),
        token_secret=secret.encode(),
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
