"""Builds the real services on first use and caches them for warm invocations.

Nothing here runs at import, and each piece is built only when first needed: the authorizer Lambda
never imports boto3; the API creates its DynamoDB client on its first data request. Tests and the
local server call `override(...)` to inject clocks and clients.
"""

from __future__ import annotations

import secrets
from collections.abc import Callable
from functools import cached_property
from typing import Any

from chalicelib.accounts.service import AccountDeps
from chalicelib.config import Settings, settings
from chalicelib.core.clock import Clock, SystemClock
from chalicelib.domain.ports import AccountStore, RecordStore, RoomStore
from chalicelib.rooms.deps import RoomDeps, new_room_code


def dynamodb_client() -> Any:
    import boto3
    from botocore.config import Config

    # botocore's standard retry mode: exponential backoff with jitter on throttling, 5xx and broken
    # connections; 3 tries in all (botocore's `max_attempts` would count retries only), each at most
    # 1 s to connect and 2 s to answer: a call gives up after 12 s at worst (with the throttling
    # backoffs), so the fault reaches us as a 429 / 503 before the 15 s Lambda timeout cuts the
    # request short (tests/faults/test_retry_budget.py; docs/reliability.md)
    config = Config(retries={"mode": "standard", "total_max_attempts": 3}, connect_timeout=1, read_timeout=2,
                    tcp_keepalive=True)
    return boto3.session.Session().client("dynamodb", config=config)


class Services:
    def __init__(self, cfg: Settings, clock: Clock, client: Any = None, wechat_opener: Any = None) -> None:
        self.settings = cfg
        self.clock = clock
        self._client = client
        self._wechat_opener = wechat_opener
        self.new_seed: Callable[[], bytes] = lambda: secrets.token_bytes(32)
        """Where game seeds come from (a secure source; tests pin it to replay known games)."""
        self.new_code: Callable[[], str] = new_room_code
        """Where 房号 come from (random; tests pin them to make two rooms draw the same)."""

    @cached_property
    def dynamodb(self) -> Any:
        return self._client or dynamodb_client()

    @cached_property
    def rooms(self) -> RoomStore:
        from chalicelib.store.dynamodb import DynamoRoomStore

        # lobby cursors are signed with the current token key and verified with every key of the ring
        return DynamoRoomStore(self.dynamodb, self.settings.table_name, cursor_secret=self.cursor_keys)

    @cached_property
    def accounts(self) -> AccountStore:
        from chalicelib.store.accounts import DynamoAccountStore

        return DynamoAccountStore(self.dynamodb, self.settings.table_name)

    @cached_property
    def records(self) -> RecordStore:
        from chalicelib.store.records import DynamoRecordStore

        return DynamoRecordStore(self.dynamodb, self.settings.table_name)

    @cached_property
    def wechat(self) -> Any:
        from chalicelib.auth.wechat import WeChatClient, WeChatSession

        s = self.settings
        kwargs = {"opener": self._wechat_opener} if self._wechat_opener else {}
        if s.wechat_secret_id:
            # deployed: the app id and secret come from Secrets Manager (cached) at each exchange, so a
            # rotated app secret is used within minutes and a missing one fails only the login (503)
            class SecretWeChatClient(WeChatClient):
                def code_to_session(self, code: str) -> WeChatSession:
                    self.appid, self.secret = s.wechat_credentials()
                    return super().code_to_session(code)

            return SecretWeChatClient("", "", s.wechat_base_url, s.wechat_timeout_s, **kwargs)
        return WeChatClient(s.wechat_appid, s.wechat_secret, s.wechat_base_url, s.wechat_timeout_s, **kwargs)

    def cursor_keys(self) -> list[bytes]:
        """The keys that sign (first) and verify page cursors: the token key ring's."""
        ring = self.settings.token_secret
        keys = getattr(ring, "keys", None)
        return [bytes(ring), *(bytes(k) for k in keys.values() if bytes(k) != bytes(ring))] if keys else [bytes(ring)]

    def room_deps(self) -> RoomDeps:
        return RoomDeps(rooms=self.rooms, accounts=self.accounts, clock=self.clock, new_seed=self.new_seed,
                        new_code=self.new_code, check_text=self._check_comment)

    def account_deps(self) -> AccountDeps:
        s = self.settings
        return AccountDeps(
            accounts=self.accounts, clock=self.clock, token_secret=s.token_secret, token_ttl_s=s.token_ttl_s,
            admin_openids=s.current_admins(), wechat=self.wechat, dev_login=s.is_local,
            check_name=self._check_name,
        )

    def _check_comment(self, text: str, user: str) -> None:
        from chalicelib.chat.build import chat_services
        from chalicelib.domain.chat_model import Scene

        chat_services(self).check_user_text(text, scene=Scene.COMMENT, user=user)

    def _check_name(self, name: str, openid: str | None) -> None:
        from chalicelib.chat.build import chat_services
        from chalicelib.domain.chat_model import Scene

        chat_services(self).check_text(name, scene=Scene.PROFILE, openid=openid)


def build(cfg: Settings | None = None, clock: Clock | None = None, client: Any = None,
          wechat_opener: Any = None) -> Services:
    return Services(cfg or settings(), clock or SystemClock(), client, wechat_opener)


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
