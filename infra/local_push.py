"""The local stand-ins for push's two AWS pieces, used by `infra/local_server.py` and the tests:

- `StreamPoller`: reads the table's stream from moto (DynamoDB Streams) the way Lambda's event source
  mapping does — every shard, oldest first, up to 100 records per call, filtered with the mapping's
  filter (`chalicelib.push.fanout.wanted`), each record given its `eventSourceARN` — and calls the
  stream function (`chalicelib.api.stream_handler.room_stream`) with `{"Records": [...]}`.
- `SocketServer`: a real WebSocket endpoint (the `websockets` package) that turns connect, each
  text frame and disconnect into API Gateway's WebSocket events for the three Chalice handlers
  (`chalicelib.api.ws_routes`), refuses the handshake with the status `$connect` answers, and is
  push's `Sender` (what `post_to_connection` does when deployed).
"""

from __future__ import annotations

import asyncio
import base64
import json
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from http import HTTPStatus
from typing import Any
from urllib.parse import parse_qs, urlsplit

STREAM_BATCH = 100


def enable_stream(client: Any, table: str) -> str:
    """Turn on the table's stream (NEW_AND_OLD_IMAGES, as infra/template.py does); returns its ARN."""
    from infra.moto_speedups import light_transactions

    light_transactions()
    desc = client.describe_table(TableName=table)["Table"]
    if desc.get("StreamSpecification", {}).get("StreamEnabled"):
        return str(desc["LatestStreamArn"])
    resp = client.update_table(TableName=table, StreamSpecification={
        "StreamEnabled": True, "StreamViewType": "NEW_AND_OLD_IMAGES"})
    return str(resp["TableDescription"]["LatestStreamArn"])


def streams_client(dynamodb: Any) -> Any:
    """A DynamoDB Streams client next to `dynamodb` (moto in process, or the local moto server)."""
    import boto3

    endpoint = dynamodb.meta.endpoint_url
    if "amazonaws.com" in endpoint:
        endpoint = f"https://streams.dynamodb.{dynamodb.meta.region_name}.amazonaws.com/"
    return boto3.client("dynamodbstreams", endpoint_url=endpoint, region_name=dynamodb.meta.region_name)


class StreamPoller:
    """Lambda's event source mapping, for one stream: `poll()` delivers what is new."""

    def __init__(self, streams: Any, stream_arn: str, handler: Callable[[dict[str, Any]], Any],
                 region: str = "ap-northeast-1") -> None:
        from chalicelib.push.fanout import wanted

        self.streams = streams
        self.arn = stream_arn
        self.handler = handler
        self.region = region
        self.wanted = wanted
        self.iterators: dict[str, str | None] = {}
        self.delivered = 0
        self.batches = 0
        self.errors = 0
        self._shards(initial=True)

    def _shards(self, initial: bool = False) -> None:
        for shard in self.streams.describe_stream(StreamArn=self.arn)["StreamDescription"]["Shards"]:
            sid = shard["ShardId"]
            if sid not in self.iterators:
                kind = "LATEST" if initial else "TRIM_HORIZON"  # like starting_position LATEST
                self.iterators[sid] = self.streams.get_shard_iterator(
                    StreamArn=self.arn, ShardId=sid, ShardIteratorType=kind)["ShardIterator"]

    def poll(self) -> int:
        """Deliver every record written so far; returns how many reached the handler."""
        delivered = 0
        for sid, iterator in list(self.iterators.items()):
            while iterator is not None:
                resp = self.streams.get_records(ShardIterator=iterator, Limit=STREAM_BATCH)
                iterator = resp.get("NextShardIterator")
                records = [dict(r, eventSourceARN=self.arn) for r in resp.get("Records", []) if self.wanted(r)]
                if records:
                    self.batches += 1
                    try:
                        self.handler({"Records": records})
                    except Exception:  # noqa: BLE001 - Lambda would retry; locally the error is logged
                        self.errors += 1
                        from chalicelib.observability import logger

                        logger.exception("stream handler failed")
                    delivered += len(records)
                if len(resp.get("Records", [])) < STREAM_BATCH:
                    break
            self.iterators[sid] = iterator
        self.delivered += delivered
        return delivered

    def run(self, stop: threading.Event, interval_s: float) -> None:
        while not stop.is_set():
            try:
                if not self.poll():
                    stop.wait(interval_s)
            except Exception:  # noqa: BLE001 - keep polling, as the mapping does
                from chalicelib.observability import logger

                logger.exception("stream poll failed")
                stop.wait(1.0)


def ws_event(route: str, connection_id: str, *, api_id: str = "local", stage: str = "v", domain: str = "127.0.0.1",
             body: str | None = None, query: Mapping[str, str] | None = None) -> dict[str, Any]:
    """An API Gateway WebSocket event, as the three route integrations receive it."""
    kind = {"$connect": "CONNECT", "$disconnect": "DISCONNECT"}.get(route, "MESSAGE")
    return {
        "requestContext": {"routeKey": route, "eventType": kind, "connectionId": connection_id, "apiId": api_id,
                           "stage": stage, "domainName": domain, "requestTimeEpoch": int(time.time() * 1000),
                           "messageDirection": "IN"},
        "queryStringParameters": dict(query) if query else None,
        "body": body,
        "isBase64Encoded": False,
    }


def new_connection_id() -> str:
    return base64.b64encode(secrets.token_bytes(10)).decode()


class SocketServer:
    """A WebSocket endpoint in a background thread, speaking to the Chalice WebSocket handlers."""

    def __init__(self, host: str, port: int, handlers: Mapping[str, Callable[[dict[str, Any], Any], Any]]) -> None:
        self.host = host
        self.port = port
        self.handlers = handlers
        self.loop = asyncio.new_event_loop()
        self.connections: dict[str, Any] = {}
        self._ids: dict[int, str] = {}
        self._ready = threading.Event()
        self._server: Any = None
        self.sent = 0

    # -- lifecycle ---------------------------------------------------------------------------------

    def start(self) -> SocketServer:
        threading.Thread(target=self._run, daemon=True, name="websocket").start()
        if not self._ready.wait(10):
            raise RuntimeError("websocket server did not start")
        return self

    def _run(self) -> None:
        asyncio.set_event_loop(self.loop)
        self.loop.run_until_complete(self._serve())
        self.loop.run_forever()

    async def _serve(self) -> None:
        from websockets.asyncio.server import serve

        self._server = await serve(self._handler, self.host, self.port, process_request=self._connect,
                                   ping_interval=None, max_size=64 * 1024)
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()

    @property
    def url(self) -> str:
        return f"ws://{self.host}:{self.port}"

    def _call(self, route: str, connection_id: str, **kw: Any) -> Any:
        return self.handlers[route](ws_event(route, connection_id, domain=f"{self.host}:{self.port}", **kw), None)

    # -- the three routes --------------------------------------------------------------------------

    async def _connect(self, connection: Any, request: Any) -> Any:
        cid = new_connection_id()
        query = {k: v[0] for k, v in parse_qs(urlsplit(request.path).query).items()}
        answer = await asyncio.to_thread(self._call, "$connect", cid, query=query)
        status = int((answer or {}).get("statusCode", 200))
        if status != 200:
            return connection.respond(HTTPStatus(status), f"{HTTPStatus(status).phrase}\n")
        self._ids[id(connection)] = cid
        return None

    async def _handler(self, connection: Any) -> None:
        from websockets.exceptions import ConnectionClosed

        cid = self._ids.pop(id(connection))
        self.connections[cid] = connection
        try:
            async for message in connection:
                text = message if isinstance(message, str) else message.decode(errors="replace")
                await asyncio.to_thread(self._call, "$default", cid, body=text)
        except ConnectionClosed:
            pass
        finally:
            self.connections.pop(cid, None)
            await asyncio.to_thread(self._call, "$disconnect", cid)

    # -- push's Sender -----------------------------------------------------------------------------

    def send(self, connection_id: str, message: Mapping[str, Any]) -> bool:
        from chalicelib.push.sender import encode

        connection = self.connections.get(connection_id)
        if connection is None:
            return False  # what the gateway answers for a gone connection (410)
        try:
            asyncio.run_coroutine_threadsafe(connection.send(encode(message)), self.loop).result(10)
        except Exception:  # noqa: BLE001 - closed while sending: gone
            return False
        self.sent += 1
        return True

    def close(self, connection_id: str) -> None:
        connection = self.connections.get(connection_id)
        if connection is not None:
            asyncio.run_coroutine_threadsafe(connection.close(1000, "expired"), self.loop)

    def stop(self) -> None:
        if self._server is not None:
            self.loop.call_soon_threadsafe(self._server.close)


def chalice_handlers() -> dict[str, Callable[[dict[str, Any], Any], Any]]:
    """The deployed functions' entry points (what each Lambda's handler string names)."""
    from chalicelib.api import ws_routes

    return {"$connect": ws_routes.ws_connect, "$default": ws_routes.ws_message,
            "$disconnect": ws_routes.ws_disconnect}


def stream_function() -> Callable[[dict[str, Any]], Any]:
    from chalicelib.api import stream_handler

    return lambda event: stream_handler.room_stream(event, None)


def decode(text: str) -> dict[str, Any]:
    out: dict[str, Any] = json.loads(text)
    return out
