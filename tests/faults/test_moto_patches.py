"""The patches in `infra.moto_speedups` change nothing moto answers. `partition_queries` makes moto's
Query read only the queried partition: every kind of Query the store sends (a room's partition with
and without a sort-key condition, forwards and backwards, paged by Limit and ExclusiveStartKey,
filtered, and the GSIs) must answer exactly what moto answers without it. `lighter_items` sums a new
item's size once: items are refused at the same size."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError
from moto.dynamodb.models.table import Table


def _fill(ddb, table):
    for room in ("r1", "r2", "r3"):
        for n in range(12):
            item = {"pk": {"S": f"ROOM#{room}"}, "sk": {"S": f"LOG#{n:04d}"}, "n": {"N": str(n)}}
            if n % 3 == 0:  # some items on the 'due' index, in a few partitions of it
                item |= {"due_pk": {"S": f"DUE#{n % 2}"}, "due_sk": {"N": str(100 - n)}}
            ddb.put_item(TableName=table, Item=item)
        ddb.put_item(TableName=table, Item={"pk": {"S": f"ROOM#{room}"}, "sk": {"S": "META"}})


QUERIES = [
    {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "ROOM#r2"}}},
    {"KeyConditionExpression": "pk = :p AND sk > :c",
     "ExpressionAttributeValues": {":p": {"S": "ROOM#r1"}, ":c": {"S": "LOG#0004"}}},
    {"KeyConditionExpression": "pk = :p AND begins_with(sk, :l)", "ScanIndexForward": False, "Limit": 5,
     "ExpressionAttributeValues": {":p": {"S": "ROOM#r3"}, ":l": {"S": "LOG#"}}},
    {"KeyConditionExpression": "pk = :p AND sk BETWEEN :a AND :b", "FilterExpression": "n > :two",
     "ExpressionAttributeValues": {":p": {"S": "ROOM#r1"}, ":a": {"S": "LOG#0001"},
                                   ":b": {"S": "LOG#0009"}, ":two": {"N": "2"}}},
    {"KeyConditionExpression": "pk = :p", "ExpressionAttributeValues": {":p": {"S": "ROOM#none"}}},
    {"IndexName": "due", "KeyConditionExpression": "due_pk = :d",
     "ExpressionAttributeValues": {":d": {"S": "DUE#0"}}},
    {"IndexName": "due", "KeyConditionExpression": "due_pk = :d AND due_sk < :t", "Limit": 2,
     "ExpressionAttributeValues": {":d": {"S": "DUE#1"}, ":t": {"N": "99"}}},
]


def _all_pages(ddb, table, query):
    pages, start = [], None
    while True:
        page = ddb.query(TableName=table, **query, **({"ExclusiveStartKey": start} if start else {}))
        pages.append((page["Items"], page["Count"], page.get("LastEvaluatedKey")))
        start = page.get("LastEvaluatedKey")
        if not start:
            return pages


@pytest.mark.parametrize("query", QUERIES, ids=range(len(QUERIES)))
def test_a_narrowed_query_answers_what_moto_answers(ddb, query):
    from tests.conftest import TABLE

    _fill(ddb, TABLE)
    narrowed = _all_pages(ddb, TABLE, query)
    patched = Table.all_items, Table.query
    Table.all_items, Table.query = Table._partition_queries
    try:
        plain = _all_pages(ddb, TABLE, query)
    finally:
        Table.all_items, Table.query = patched
    assert narrowed == plain
    assert narrowed[0][0] or query["ExpressionAttributeValues"].get(":p") == {"S": "ROOM#none"}


@pytest.mark.parametrize("pad", [404_000, 406_000])
def test_an_item_is_refused_past_moto_s_size_limit_exactly_as_before(ddb, pad):
    """`lighter_items` sums a new item's size once; moto refused an item when, adding its attributes
    one by one, the sum passed 405,000 bytes. Both ways on either side of the limit, for a put and
    inside a transaction."""
    from moto.dynamodb.models import dynamo_type

    from tests.conftest import TABLE

    item = {"pk": {"S": "big"}, "sk": {"S": "1"}, "blob": {"S": "x" * pad}, "n": {"N": "7"}}
    outcomes = []
    lighter = dynamo_type.Item.__init__
    for init in (lighter, dynamo_type.Item._lighter):
        dynamo_type.Item.__init__ = init
        try:
            ddb.delete_item(TableName=TABLE, Key={"pk": item["pk"], "sk": item["sk"]})
            for call in (lambda: ddb.put_item(TableName=TABLE, Item=item),
                         lambda: ddb.transact_write_items(TransactItems=[{"Put": {"TableName": TABLE, "Item": item}}])):
                try:
                    call()
                    outcomes.append("stored")
                except ClientError as e:
                    outcomes.append(e.response["Error"]["Code"])
        finally:
            dynamo_type.Item.__init__ = lighter
    assert outcomes[:2] == outcomes[2:]
    assert outcomes[0] == ("stored" if pad < 405_000 else "ValidationException")
