"""Push's wiring: built from the platform's `Services` on first use, cached with it (nothing runs at
import). The sender is API Gateway's management API unless something plugs in another
(`use_sender`: the local socket server, tests)."""

from __future__ import annotations

import weakref
from typing import TYPE_CHECKING, Any

from chalice.app import WebsocketAPI

from chalicelib.domain.model import Room, Trigger
from chalicelib.push.sender import ChaliceSender, Sender
from chalicelib.push.service import PushDeps, Watching

if TYPE_CHECKING:
    from chalicelib.wiring import Services

WEBSOCKET_API = WebsocketAPI()
"""The WebSocket functions' management client (configured from their event; the stream function
configures it from WEBSOCKET_API_ID / WEBSOCKET_STAGE)."""

_CACHE: weakref.WeakKeyDictionary[Services, PushDeps] = weakref.WeakKeyDictionary()
_SENDER: Sender | None = None


def use_sender(sender: Sender | None) -> None:
    """Deliver through `sender` from now on (None: API Gateway again); forgets built services."""
    global _SENDER
    _SENDER = sender
    _CACHE.clear()


def push_services(svc: Services) -> PushDeps:
    found = _CACHE.get(svc)
    if found is not None:
        return found
    from chalicelib.store.push import DynamoPushStore

    def notices(old: Room, new: Room, trigger: Trigger | None, is_watching: Watching) -> Any:
        from chalicelib.chat.build import chat_services

        return chat_services(svc).send_notices(old, new, trigger, is_watching=is_watching)

    built = PushDeps(store=DynamoPushStore(svc.dynamodb, svc.settings.table_name), rooms=svc.room_deps(),
                     sender=_SENDER or ChaliceSender(WEBSOCKET_API), token_keys=lambda: svc.settings.token_secret,
                     notices=notices, pushed_views=pushed_views(svc.settings.push_views))
    _CACHE[svc] = built
    return built


def pushed_views(named: frozenset[str]) -> frozenset[str]:
    """The families of PUSH_VIEWS whose pages take a pushed view; any other name is logged and counted
    (`PushErrors`, alarmed) and ignored: views are a saving, and a typo must not stop the notices."""
    from chalicelib.observability import logger, metrics_count
    from chalicelib.push.service import PUSHED_VIEW_FAMILIES

    ignored = sorted(named - PUSHED_VIEW_FAMILIES)
    if ignored:
        metrics_count("PushErrors")
        logger.error("PUSH_VIEWS names ignored", extra={"ignored": ignored,
                                                        "allowed": sorted(PUSHED_VIEW_FAMILIES)})
    return named & PUSHED_VIEW_FAMILIES


def current() -> PushDeps:
    """The push services of this process (`chalicelib.wiring.services()`)."""
    from chalicelib.wiring import services

    return push_services(services())
