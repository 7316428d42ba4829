"""Builds the real services on first use and caches them for warm invocations.

Nothing here runs at import: boto3 is imported and the DynamoDB client created the first time a
request needs them. Tests and the local server call `override(...)` to inject clocks and clients.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from chalicelib.accounts.service import AccountDeps
from chalicelib.config import Settings, settings
from chalicelib.core.clock import Clock, SystemClock
from chalicelib.rooms.deps import RoomDeps


@dataclass
class Services:
    settings: Settings
    clock: Clock
    dynamodb: Any
    rooms: Any
    accounts: Any
    records: Any
    wechat: Any

    def room_deps(self) -> RoomDeps:
        return RoomDeps(rooms=self.rooms, accounts=self.accounts, clock=self.clock)

    def account_deps(self) -> AccountDeps:
        s = self.settings
        return AccountDeps(
            accounts=self.accounts, clock=self.clock, token_secret=s.token_secret, token_ttl_s=s.token_ttl_s,
            admin_openids=s.admin_openids, wechat=self.wechat, dev_login=s.is_local,
        )


def dynamodb_client() -> Any:
    import boto3
    from botocore.config import Config

    # botocore's standard retry mode: exponential backoff with jitter on throttling and 5xx
    config = Config(retries={"mode": "standard", "max_attempts": 4}, connect_timeout=2, read_timeout=5,
                    tcp_keepalive=True)
    return boto3.session.Session().client("dynamodb", config=config)


def build(cfg: Settings | None = None, clock: Clock | None = None, client: Any = None,
          wechat_opener: Any = None) -> Services:
    from chalicelib.auth.wechat import WeChatClient
    from chalicelib.store.accounts import DynamoAccountStore
    from chalicelib.store.dynamodb import DynamoRoomStore
    from chalicelib.store.records import DynamoRecordStore

    cfg = cfg or settings()
    client = client or dynamodb_client()
    wechat_kwargs = {"opener": wechat_opener} if wechat_opener else {}
    wechat = WeChatClient(cfg.wechat_appid, cfg.wechat_secret, cfg.wechat_base_url, cfg.wechat_timeout_s,
                          **wechat_kwargs)
    return Services(
        settings=cfg, clock=clock or SystemClock(), dynamodb=client,
        rooms=DynamoRoomStore(client, cfg.table_name), accounts=DynamoAccountStore(client, cfg.table_name),
        records=DynamoRecordStore(client, cfg.table_name), wechat=wechat,
    )


_services: Services | None = None


def services() -> Services:
    global _services
    if _services is None:
        _services = build()
    return _services


def override(new: Services | None) -> None:
    """Replace (or with None, forget) the cached services: tests and the local server."""
    global _services
    _services = new
