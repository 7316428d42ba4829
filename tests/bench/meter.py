"""Counts DynamoDB requests per operation and estimates the capacity they consume.

moto does not meter capacity, so it is computed from the request and response items with the
published rules: a write is ceil(size / 1 KB) WCU per item (twice that inside a transaction), plus
one write per global secondary index the item is in (projected size); a read is ceil(size / 4 KB)
RCU (half that when eventually consistent; a Query rounds the total of what it read). Item size is
the sum of attribute name and value sizes (strings as UTF-8, numbers ~ digits/2 + 1, binary bytes).
"""

from __future__ import annotations

import math
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from typing import Any

from chalicelib.store.table import INDEXES


def _value_size(v: dict[str, Any]) -> int:
    (kind, val), = v.items()
    if kind == "S":
        return len(val.encode())
    if kind == "N":
        return len(str(val).lstrip("-").replace(".", "")) // 2 + 1
    if kind == "B":
        return len(val)
    if kind == "BOOL" or kind == "NULL":
        return 1
    if kind in ("SS", "NS", "BS"):
        return sum(_value_size({kind[0]: x}) for x in val)
    if kind == "L":
        return 3 + sum(_value_size(x) + 1 for x in val)
    if kind == "M":
        return 3 + sum(len(k.encode()) + _value_size(x) + 1 for k, x in val.items())
    return 0


def item_size(item: dict[str, Any]) -> int:
    return sum(len(k.encode()) + _value_size(v) for k, v in item.items())


def _projections(item: dict[str, Any]) -> dict[str, dict[str, Any]]:
    """What each index holds of this item (nothing when its keys are absent: sparse)."""
    out = {}
    for name, ix in INDEXES.items():
        if ix["pk"] in item and ix["sk"] in item:
            keep = {"pk", "sk", ix["pk"], ix["sk"], *(ix["projection"] or ())}
            out[name] = {k: v for k, v in item.items() if k in keep}
    return out


@dataclass
class Meter:
    calls: Counter[str] = field(default_factory=Counter)
    rcu: float = 0.0
    wcu: float = 0.0
    sizes: dict[str, list[int]] = field(default_factory=lambda: defaultdict(list))
    indexed: dict[tuple[str, str], dict[str, dict[str, Any]]] = field(default_factory=dict)
    """Last projection written per item and index: an index is written only when it changes."""

    def attach(self, client: Any) -> None:
        client.meta.events.register("provide-client-params.dynamodb", self._before)
        client.meta.events.register("after-call.dynamodb", self._after)

    def reset(self) -> None:
        self.calls.clear()
        self.rcu = self.wcu = 0.0

    def snapshot(self) -> tuple[Counter[str], float, float]:
        return Counter(self.calls), self.rcu, self.wcu

    def _write(self, item: dict[str, Any], factor: float = 1.0) -> None:
        pk, sk = item.get("pk", {}).get("S", ""), item.get("sk", {}).get("S", "")
        kind = pk.split("#")[0] if pk.startswith(("CLEAR", "RECORD", "USER", "SETTINGS")) else sk.split("#")[0]
        size = item_size(item)
        self.sizes[kind].append(size)
        self.wcu += factor * math.ceil(size / 1024)
        key = (pk, sk)
        before, after = self.indexed.get(key, {}), _projections(item)
        for name in before.keys() | after.keys():
            old, new = before.get(name), after.get(name)
            if old == new:
                continue  # unchanged key and projection: DynamoDB does not touch the index
            for projected in (old, new):  # a moved entry is a delete plus a put
                if projected is not None:
                    self.wcu += math.ceil(item_size(projected) / 1024)
        self.indexed[key] = after

    def _before(self, model: Any, params: dict[str, Any], **_: Any) -> None:
        op = model.name
        self.calls[op] += 1
        self._pending = (op, params)
        if op == "PutItem":
            self._write(params["Item"])
        elif op == "UpdateItem":
            self.wcu += 1  # small counters and consort updates: one unit
        elif op == "TransactWriteItems":
            for entry in params["TransactItems"]:
                if "Put" in entry:
                    self._write(entry["Put"]["Item"], 2.0)
                else:
                    self.wcu += 2.0

    def _after(self, model: Any, parsed: dict[str, Any], **_: Any) -> None:
        op, params = self._pending
        consistent = params.get("ConsistentRead", False)
        factor = 1.0 if consistent else 0.5
        if op == "GetItem" and "Item" in parsed:
            self.rcu += factor * math.ceil(item_size(parsed["Item"]) / 4096)
        elif op == "GetItem":
            self.rcu += factor
        elif op == "Query":
            total = sum(item_size(i) for i in parsed.get("Items", []))
            self.rcu += factor * max(1, math.ceil(total / 4096))
        elif op == "BatchGetItem":
            for items in parsed.get("Responses", {}).values():
                self.rcu += sum(factor * math.ceil(item_size(i) / 4096) for i in items)
