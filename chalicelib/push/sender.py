"""The one thing the push service needs from API Gateway: deliver a message to a connection.

Deployed, `ChaliceSender` uses Chalice's `WebsocketAPI` (the management API's `post_to_connection`);
the WebSocket functions configure it from their event, the stream function from its environment
(`WEBSOCKET_API_ID`, `WEBSOCKET_STAGE`). Locally, `infra/local_server.py` plugs in its own socket
server; tests use a recording fake.
"""

from __future__ import annotations

import json
import os
from collections.abc import Mapping
from typing import Any, Protocol

from chalicelib.observability import logger, metrics_count


class Sender(Protocol):
    def send(self, connection_id: str, message: Mapping[str, Any]) -> bool:
        """Deliver one message. False: the connection is gone (the gateway's 410); any other failure
        is logged and answers True (the connection may still be there)."""
        ...

    def close(self, connection_id: str) -> None:
        """Close the connection (its token expired); a gone connection is fine."""
        ...


def encode(message: Mapping[str, Any]) -> str:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":"), sort_keys=True)


class ChaliceSender:
    """API Gateway's WebSocket management API through Chalice's `WebsocketAPI`."""

    def __init__(self, api: Any = None) -> None:
        self._api = api

    @property
    def api(self) -> Any:
        if self._api is None:
            from chalicelib.push.build import WEBSOCKET_API

            self._api = WEBSOCKET_API
        api = self._api
        if api.session is None:
            import boto3

            api.session = boto3.session.Session()
        if getattr(api, "_endpoint", None) is None and os.environ.get("WEBSOCKET_API_ID"):
            api.configure_from_api_id(os.environ["WEBSOCKET_API_ID"], os.environ.get("WEBSOCKET_STAGE", "v"))
        return api

    def send(self, connection_id: str, message: Mapping[str, Any]) -> bool:
        from botocore.exceptions import BotoCoreError, ClientError
        from chalice.app import WebsocketDisconnectedError

        try:
            self.api.send(connection_id, encode(message))
            return True
        except WebsocketDisconnectedError:
            metrics_count("SocketsGone")
            return False
        except (ClientError, BotoCoreError) as e:
            metrics_count("PushSendErrors")
            logger.warning("push send failed", extra={"error": type(e).__name__})
            return True

    def close(self, connection_id: str) -> None:
        from botocore.exceptions import BotoCoreError, ClientError
        from chalice.app import WebsocketDisconnectedError

        try:
            self.api.close(connection_id)
        except (WebsocketDisconnectedError, ClientError, BotoCoreError):
            pass
