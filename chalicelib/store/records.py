"""DynamoDB adapter for 战绩 records and leaderboards. Reads only: writes happen inside room commits."""

from __future__ import annotations

from typing import Any

from chalicelib.domain.model import Competition
from chalicelib.domain.ports import BoardRow
from chalicelib.store import codec
from chalicelib.store.codec import av
from chalicelib.store.dynamodb import DynamoBase
from chalicelib.store.table import clear_pk


class DynamoRecordStore(DynamoBase):
    def top(self, board: str, limit: int) -> list[BoardRow]:
        resp = self.client.query(
            TableName=self.table, IndexName="board",
            KeyConditionExpression="board_pk = :p",
            ExpressionAttributeValues={":p": av(f"BOARD#{board}")},
            ScanIndexForward=False, Limit=limit,
        )
        return [BoardRow.of(codec.from_item(i)) for i in resp.get("Items", [])]

    def record(self, board: str, subject: str) -> dict[str, Any] | None:
        resp = self.client.get_item(
            TableName=self.table, Key={"pk": av(f"RECORD#{board}"), "sk": av(f"SUBJECT#{subject}")},
        )
        return codec.from_item(resp["Item"]) if "Item" in resp else None

    def count_above(self, board: str, score: float) -> int:
        """How many subjects on the board have a strictly higher score (COUNT query on the index)."""
        kwargs: dict[str, Any] = {
            "IndexName": "board",
            "KeyConditionExpression": "board_pk = :p AND board_sk > :s",
            "ExpressionAttributeValues": {":p": av(f"BOARD#{board}"), ":s": av(score)},
            "Select": "COUNT",
        }
        total = 0
        while True:
            resp = self.client.query(TableName=self.table, **kwargs)
            total += int(resp["Count"])
            if "LastEvaluatedKey" not in resp:
                return total
            kwargs["ExclusiveStartKey"] = resp["LastEvaluatedKey"]

    def fastest(self, stage: int, limit: int, competition: Competition = Competition.FREE) -> list[dict[str, Any]]:
        resp = self.client.query(
            TableName=self.table,
            KeyConditionExpression="pk = :p",
            ExpressionAttributeValues={":p": av(clear_pk(stage, competition))},
            Limit=limit,
        )
        return [codec.from_item(i) for i in resp.get("Items", [])]
