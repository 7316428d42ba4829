"""`infra.moto_speedups.light_transactions` makes moto's transactions copy only what they touch: a refused
transaction must still leave every item and the stream exactly as before, as DynamoDB does."""

from __future__ import annotations

import pytest
from botocore.exceptions import ClientError

from infra.local_push import enable_stream, streams_client


def _items(ddb, table):
    return sorted((i["pk"]["S"], i["sk"]["S"], i.get("n", {}).get("N")) for i in ddb.scan(TableName=table)["Items"])


def test_a_refused_transaction_leaves_items_and_stream_as_they_were(ddb):
    from tests.conftest import TABLE

    arn = enable_stream(ddb, TABLE)
    streams = streams_client(ddb)
    shard = streams.describe_stream(StreamArn=arn)["StreamDescription"]["Shards"][0]["ShardId"]
    ddb.put_item(TableName=TABLE, Item={"pk": {"S": "a"}, "sk": {"S": "1"}, "n": {"N": "1"}})
    before = _items(ddb, TABLE)

    def records():
        it = streams.get_shard_iterator(StreamArn=arn, ShardId=shard, ShardIteratorType="TRIM_HORIZON")
        return len(streams.get_records(ShardIterator=it["ShardIterator"])["Records"])

    seen = records()
    with pytest.raises(ClientError) as e:
        ddb.transact_write_items(TransactItems=[
            {"Update": {"TableName": TABLE, "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}},
                        "UpdateExpression": "SET n = :two", "ExpressionAttributeValues": {":two": {"N": "2"}}}},
            {"Put": {"TableName": TABLE, "Item": {"pk": {"S": "b"}, "sk": {"S": "1"}}}},
            {"Put": {"TableName": TABLE, "Item": {"pk": {"S": "a"}, "sk": {"S": "2"}},
                     "ConditionExpression": "attribute_exists(pk)"}},  # refused: the item is not there
        ])
    assert e.value.response["Error"]["Code"] == "TransactionCanceledException"
    assert _items(ddb, TABLE) == before  # the update and the first put were rolled back
    assert records() == seen  # and the stream forgot them
    ddb.transact_write_items(TransactItems=[
        {"Update": {"TableName": TABLE, "Key": {"pk": {"S": "a"}, "sk": {"S": "1"}},
                    "UpdateExpression": "SET n = :two", "ExpressionAttributeValues": {":two": {"N": "2"}}}},
        {"Put": {"TableName": TABLE, "Item": {"pk": {"S": "b"}, "sk": {"S": "1"}}}},
    ])
    assert _items(ddb, TABLE) == [("a", "1", "2"), ("b", "1", None)]
    assert records() == seen + 2
