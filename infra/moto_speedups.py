"""Two patches that make moto, our embedded DynamoDB for local runs and tests, fast enough to play
whole games on. Neither changes what moto answers or stores (`tests/faults/test_fast_moto.py` and
`tests/push/test_stream_integration.py` play games with them); a deployed stage never imports this.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


@contextmanager
def plain_json_answers() -> Iterator[None]:
    """moto's DynamoDB answers written with `json.dumps` while the block runs (see `_plain_serialized`)."""
    from moto.dynamodb.responses import DynamoHandler

    original = DynamoHandler.serialized
    DynamoHandler.serialized = _plain_serialized(original)
    try:
        yield
    finally:
        DynamoHandler.serialized = original


def install_plain_json_answers() -> None:
    """`plain_json_answers` for the rest of the process (the local server's embedded moto)."""
    from moto.dynamodb.responses import DynamoHandler

    if not getattr(DynamoHandler.serialized, "plain_json", False):
        DynamoHandler.serialized = _plain_serialized(DynamoHandler.serialized)


def _plain_serialized(original: Any) -> Any:
    """moto's DynamoDB answers, written with `json.dumps` instead of moto's model-driven serializer.

    DynamoDB speaks plain JSON: an answer is the result dict with binary values in base64, which is
    what moto's serializer produces too, walking the service model member by member (half of a
    game's time on moto). Answers holding anything else (table descriptions' timestamps) and errors
    still go through moto's own serializer. `tests/faults/test_fast_moto.py` plays a game both ways
    and compares the tables and the answers.
    """
    import base64

    def plain(value: Any) -> Any:
        if isinstance(value, (bytes, bytearray)):
            return base64.b64encode(value).decode()
        raise TypeError(type(value).__name__)

    def serialized(self: Any, action_result: Any) -> Any:
        result = action_result.result
        if isinstance(result, dict):
            try:
                body = json.dumps(result, default=plain, separators=(",", ":"))
            except TypeError:
                return original(self, action_result)
            return 200, {"Content-Type": "application/x-amz-json-1.0", **self.response_headers}, body
        return original(self, action_result)

    serialized.plain_json = True  # type: ignore[attr-defined]
    return serialized


def share_streams() -> None:
    """Keep moto's transactions linear in time once a stream is on.

    moto's `transact_write_items` deep-copies every table it touches so it can roll back, and a table
    copy includes its stream shard: every record ever written, each with old and new images. With the
    stream on, each transaction then costs O(all writes so far): a test run's server grew to 8 GB and
    starved the API of CPU. The rollback does not need a copy of the stream, only to forget what the
    cancelled transaction appended, so copies share the shard and a failed transaction truncates it.
    Idempotent; a no-op where moto is not installed (a deployed stage never calls it).
    """
    try:
        from moto.dynamodb.models import DynamoDBBackend
        from moto.dynamodb.models.table import Table
    except ImportError:  # pragma: no cover - moto is a dev dependency
        return
    if getattr(Table, "_streams_shared", False):
        return

    def table_copy(self: Any, memo: dict[int, Any]) -> Any:
        import copy

        twin = Table.__new__(Table)
        memo[id(self)] = twin
        for name, value in self.__dict__.items():
            setattr(twin, name, value if name == "stream_shard" else copy.deepcopy(value, memo))
        return twin

    original = DynamoDBBackend.transact_write_items

    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
        shards = [t.stream_shard for t in self.tables.values() if t.stream_shard is not None]
        marks = [(shard, len(shard.items)) for shard in shards]
        try:
            original(self, transact_items)
        except Exception:
            for shard, length in marks:
                del shard.items[length:]
            raise

    Table.__deepcopy__ = table_copy  # type: ignore[attr-defined]
    DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]
    Table._streams_shared = True  # type: ignore[attr-defined]
