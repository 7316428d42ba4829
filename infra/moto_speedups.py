"""Patches that make moto, our embedded DynamoDB for local runs and tests, fast enough to play
whole games on. None changes what moto answers or stores (`tests/faults/test_fast_moto.py`,
`test_moto_rollback.py` and `test_moto_patches.py` check them; `tests/push/test_stream_integration.py`
plays games with them); a deployed stage never imports this.
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


def partition_queries() -> None:
    """Make moto's Query read the partition it names, not the whole table.

    moto's `Table.query` starts from `all_items()`: every item of the table, sorted by key with
    moto's `DynamoType` comparisons, and only then keeps the queried partition. A test's table
    holds every room it played, so each Query cost O(table · log table) (a 8-seat game spent a
    third of its time there). While a Query runs, `all_items()` here answers just the queried
    partition, in order and cut to the sort-key condition (a table query), or the items unsorted (an
    index query, which moto sorts again by the index's full key anyway); the result is the same list in the same order, as DynamoDB keeps
    range keys unique within a partition. The narrowing is per thread, so the local server's
    concurrent requests do not see each other's. Idempotent; a deployed stage never calls it.
    """
    try:
        from moto.dynamodb.models.table import Table
    except ImportError:  # pragma: no cover - moto is a dev dependency
        return
    if getattr(Table, "_partition_queries", False):
        return
    import threading

    narrowed = threading.local()
    all_items = Table.all_items
    query = Table.query

    def narrowed_all_items(self: Any) -> Any:
        current = getattr(narrowed, "items", None)
        if current is not None and current[0] is self:
            return current[1]
        return all_items(self)

    def partition_query(self: Any, hash_key: Any, *args: Any, **kwargs: Any) -> Any:
        index_name = args[6] if len(args) > 6 else kwargs.get("index_name")
        if index_name:
            items = [item for part in self.items.values()
                     for item in (part.values() if self.range_key_attr else [part])]
        elif self.range_key_attr:
            # sorted once with plain values (moto's own sort then finds them in order), and cut
            # to the sort-key condition, which is all moto's loop would keep of the others
            items = sorted(self.items.get(hash_key, {}).values() if hash_key is not None else [],
                           key=lambda item: item.range_key.cast_value)
            if args and args[0]:
                items = [item for item in items if item.range_key.compare(args[0], args[1])]
        else:
            items = [self.items[hash_key]] if hash_key in self.items else []
        previous = getattr(narrowed, "items", None)
        narrowed.items = (self, items)
        try:
            return query(self, hash_key, *args, **kwargs)
        finally:
            narrowed.items = previous

    Table.all_items = narrowed_all_items  # type: ignore[method-assign]
    Table.query = partition_query  # type: ignore[method-assign]
    Table._partition_queries = (all_items, query)  # type: ignore[attr-defined] # moto's own, for the test


def lighter_items() -> None:
    """Two per-request costs of moto that grow with what a request carries, cut.

    * Building an item (every put, every transaction's put, every copy moto makes of one) adds its
      attributes one by one to a dict that, on each addition, re-sums the size of everything already
      in it to enforce DynamoDB's 400 KB limit: O(attributes²) size walks. Here a new item sums its
      size once and refuses exactly when moto would (at the last addition the sum moto checks is the
      whole item's); later changes (update expressions) still go through moto's own check.
    * Each request lists its handler class's methods with `inspect.getmembers` to find the action;
      the list of a class is computed once (our patches replace methods, never add them).

    Idempotent; a deployed stage never calls it."""
    try:
        from moto.core import responses
        from moto.dynamodb.exceptions import ItemSizeTooLarge
        from moto.dynamodb.models import dynamo_type
        from moto.dynamodb.models.utilities import bytesize
    except ImportError:  # pragma: no cover - moto is a dev dependency
        return
    Item = dynamo_type.Item
    if getattr(Item, "_lighter", False):
        return
    import functools

    DynamoType, LimitedSizeDict = dynamo_type.DynamoType, dynamo_type.LimitedSizeDict

    def item_init(self: Any, hash_key: Any, range_key: Any, attrs: dict[str, Any]) -> None:
        self.hash_key = hash_key
        self.range_key = range_key
        values = {key: DynamoType(value) for key, value in attrs.items()}
        if sum(bytesize(key) + value.size() for key, value in values.items()) > 405000:
            raise ItemSizeTooLarge
        self.attrs = LimitedSizeDict()
        dict.update(self.attrs, values)

    moto_init = Item.__init__
    Item.__init__ = item_init  # type: ignore[method-assign]
    responses.method_names_from_class = functools.cache(responses.method_names_from_class)
    Item._lighter = moto_init  # type: ignore[attr-defined] # moto's own, for the test


def install() -> None:
    """The patches that stay for the rest of the process (the test suite's, the local server's and the
    benchmarks' moto; answers written with `json.dumps` are installed apart: `plain_json_answers`).
    Idempotent."""
    light_transactions()  # transactions roll back only what they touched: linear in time with a stream on
    partition_queries()  # a Query reads its room's partition, not every room the process has seen
    lighter_items()  # an item's size summed once, a handler's method list listed once
