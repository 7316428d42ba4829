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


def light_transactions() -> None:
    """Keep moto's transactions linear in the work they do, not in the size of the table.

    moto's `transact_write_items` deep-copies every table it touches so it can roll back if one of
    the writes is refused. That copy is the whole table, items and stream shard (every record ever
    written, old and new images): each transaction costs O(everything so far). A test run's local
    server grew to 8 GB with the stream on, and a whole 保皇 deal spent a third of its time copying.

    The rollback only needs the items the transaction touches (DynamoDB allows one operation per
    item in a transaction) and the stream's length. So a table's copy here shares its items and its
    stream; the transaction keeps a deep copy of just its own items and the stream lengths, and if
    moto rolls back, those items are put back as they were and the stream forgets what was added.
    Idempotent; a no-op where moto is not installed (a deployed stage never calls it).
    """
    try:
        from moto.dynamodb.models import DynamoDBBackend
        from moto.dynamodb.models.dynamo_type import DynamoType
        from moto.dynamodb.models.table import Table
    except ImportError:  # pragma: no cover - moto is a dev dependency
        return
    if getattr(Table, "_light_transactions", False):
        return
    import copy

    def table_copy(self: Any, memo: dict[int, Any]) -> Any:
        twin = Table.__new__(Table)
        memo[id(self)] = twin
        for name, value in self.__dict__.items():
            if name == "items":  # new containers, the same Item objects (restored below if touched)
                twin.items = copy.copy(value)
                for k, v in value.items():
                    if isinstance(v, dict):
                        twin.items[k] = dict(v)
            elif name == "stream_shard":
                twin.stream_shard = value
            else:
                setattr(twin, name, copy.deepcopy(value, memo))
        return twin

    def touched(backend: Any, transact_items: list[dict[str, Any]]) -> list[tuple[str, Any, Any, Any]]:
        """(table, hash, range, a deep copy of the item or None) for each operation's item."""
        found = []
        for entry in transact_items:
            if len(entry) != 1:
                continue
            _, op = next(iter(entry.items()))
            table = backend.tables.get(op.get("TableName"))
            raw = op.get("Key") or op.get("Item") or {}
            if table is None or table.hash_key_attr not in raw:
                continue
            h = DynamoType(raw[table.hash_key_attr])
            r = DynamoType(raw[table.range_key_attr]) if table.range_key_attr in raw else None
            current = table.get_item(h, r) if (table.range_key_attr is None) == (r is None) else None
            found.append((table.name, h, r, copy.deepcopy(current)))
        return found

    def put_back(backend: Any, saved: list[tuple[str, Any, Any, Any]]) -> None:
        for name, h, r, item in saved:
            table = backend.tables[name]
            if r is None:
                if item is None:
                    table.items.pop(h, None)
                else:
                    table.items[h] = item
            elif item is None:
                table.items.get(h, {}).pop(r, None)
            else:
                table.items.setdefault(h, {})[r] = item

    original = DynamoDBBackend.transact_write_items

    def transact_write_items(self: Any, transact_items: list[dict[str, Any]]) -> None:
        marks = [(t.stream_shard, len(t.stream_shard.items)) for t in self.tables.values()
                 if t.stream_shard is not None]
        saved = touched(self, transact_items)
        try:
            original(self, transact_items)
        except Exception:
            put_back(self, saved)
            for shard, length in marks:
                del shard.items[length:]
            raise

    Table.__deepcopy__ = table_copy  # type: ignore[attr-defined]
    DynamoDBBackend.transact_write_items = transact_write_items  # type: ignore[method-assign]
    Table._light_transactions = True  # type: ignore[attr-defined]
