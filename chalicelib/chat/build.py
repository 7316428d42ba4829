"""Chat's wiring: builds the chat services from the platform's `Services` on first use and caches
them with it (no module-level state besides that cache; nothing runs at import).

The platform reaches chat through `chat_services(services())` (`chalicelib.wiring` composes; chat
never imports it back, so the packages stay a DAG); the WeChat
server client is built only when a deployed stage first needs it (a content check or a notice).
"""

from __future__ import annotations

import weakref
from collections.abc import Callable
from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Any, Protocol

from chalicelib.chat.moderation import LocalWordCheck, TextChecker, WeChatTextCheck, check_with
from chalicelib.chat.notices import Notice, NoticeSender, Outcome, notices_for
from chalicelib.chat.service import ChatDeps
from chalicelib.chat.settings import ChatSettings, load_chat_settings
from chalicelib.core.clock import Clock
from chalicelib.domain.chat_model import Scene
from chalicelib.domain.chat_ports import ChatBackend
from chalicelib.domain.model import Room, Trigger
from chalicelib.rooms.deps import RoomDeps

if TYPE_CHECKING:
    from chalicelib.auth.wechat_server import WeChatServerClient
    from chalicelib.config import Settings


class Services(Protocol):
    """What chat needs of the platform's `chalicelib.wiring.Services` (typed here, not imported:
    wiring builds chat, so chat importing wiring would close a cycle)."""

    settings: Settings
    clock: Clock

    @property
    def dynamodb(self) -> Any: ...

    @property
    def cursor_keys(self) -> Any: ...

    def room_deps(self) -> RoomDeps: ...

Watching = Callable[[str, str], bool]


@dataclass
class ChatServices:
    settings: ChatSettings
    store: ChatBackend
    room_deps: RoomDeps
    clock: Clock
    wechat_factory: Callable[[], WeChatServerClient]

    @cached_property
    def wechat(self) -> WeChatServerClient:
        return self.wechat_factory()

    @cached_property
    def checker(self) -> TextChecker:
        if self.settings.content_check == "local":
            return LocalWordCheck()
        return WeChatTextCheck(self.wechat)

    def deps(self) -> ChatDeps:
        return ChatDeps(rooms=self.room_deps, store=self.store, checker=self.checker, openid_of=self.store.openid_of)

    def check_text(self, text: str, *, scene: Scene, openid: str | None) -> None:
        """Refuse a text that may not be shown (`check_with` over the configured checker)."""
        check_with(self.checker, text, scene=scene, openid=openid)

    def check_user_text(self, text: str, *, scene: Scene, user: str) -> None:
        """`check_text` for a text written by one of our users (her openid looked up: one small read)."""
        self.check_text(text, scene=scene, openid=self.store.openid_of(user))

    def notice_sender(self, is_watching: Watching | None = None) -> NoticeSender:
        sender = NoticeSender(settings=self.settings, store=self.store, client=lambda: self.wechat, clock=self.clock)
        if is_watching is not None:
            sender.is_watching = is_watching
        return sender

    def send_notices(self, old: Room, new: Room, trigger: Trigger | None = None,
                     is_watching: Watching | None = None) -> list[tuple[Notice, Outcome]]:
        """The fan-out's one call per changed room: decide (`notices_for`) and send."""
        return self.notice_sender(is_watching).send(notices_for(old, new, trigger))


_CACHE: weakref.WeakKeyDictionary[Services, ChatServices] = weakref.WeakKeyDictionary()


def chat_services(svc: Services) -> ChatServices:
    found = _CACHE.get(svc)
    if found is not None:
        return found
    from chalicelib.auth.wechat_server import WeChatServerClient
    from chalicelib.store.chat import DynamoChatStore

    cfg = svc.settings
    store = DynamoChatStore(svc.dynamodb, cfg.table_name, cursor_secret=svc.cursor_keys)

    def wechat() -> WeChatServerClient:
        return WeChatServerClient(cfg.wechat_credentials, cfg.wechat_base_url, store, svc.clock,
                                  timeout_s=cfg.wechat_timeout_s)

    built = ChatServices(settings=load_chat_settings(local=cfg.is_local, in_lambda=cfg.in_lambda), store=store,
                         room_deps=svc.room_deps(), clock=svc.clock, wechat_factory=wechat)
    _CACHE[svc] = built
    return built
