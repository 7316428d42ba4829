"""DynamoDB adapter for WebSocket connections and room subscriptions, in the one table.

Items (no new index: a room's subscribers live in the room's own partition, so the fan-out finds
them with one Query next to the room it has just read):

  CONN#<connection id> / CONN          who connected (user, role), until when, the rooms subscribed
  ROOM#<room id>       / SUB#<conn id> one subscription: user, role, 暗号 given, last view tag

Both carry `expires_at` (the token's expiry, at most the gateway's 2-hour connection limit), so a
connection that vanished without a disconnect (a Lambda crash, a lost $disconnect) is garbage-
collected by TTL; until then the fan-out skips expired subscriptions and removes the ones whose
connection the gateway reports gone (410).
"""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from chalicelib.domain.ports import Connection, Subscription
from chalicelib.store import codec
from chalicelib.store.codec import av
from chalicelib.store.dynamodb import DynamoBase
from chalicelib.store.faults import error_code
from chalicelib.store.table import TTL_ATTRIBUTE


def conn_key(connection_id: str) -> dict[str, Any]:
    return {"pk": av(f"CONN#{connection_id}"), "sk": av("CONN")}


def sub_key(room_id: str, connection_id: str) -> dict[str, Any]:
    return {"pk": av(f"ROOM#{room_id}"), "sk": av(f"SUB#{connection_id}")}


def _conn(item: dict[str, Any]) -> Connection:
    v = codec.from_item(item)
    return Connection(id=v["pk"].removeprefix("CONN#"), user=v["user"], name=v.get("name", ""), role=v["role"],
                      connected_ms=int(v["connected_ms"]), expires_s=int(v[TTL_ATTRIBUTE]),
                      rooms=frozenset(v.get("rooms", ())))


def _sub(item: dict[str, Any]) -> Subscription:
    v = codec.from_item(item)
    return Subscription(room_id=v["pk"].removeprefix("ROOM#"), connection_id=v["sk"].removeprefix("SUB#"),
                        user=v["user"], role=v["role"], expires_s=int(v[TTL_ATTRIBUTE]),
                        watcher=bool(v.get("watcher", False)), tag=v.get("tag"),
                        version=int(v.get("version", 0)))


class DynamoPushStore(DynamoBase):
    def put_connection(self, conn: Connection) -> None:
        self.client.put_item(TableName=self.table, Item=codec.to_item({
            "pk": f"CONN#{conn.id}", "sk": "CONN", "user": conn.user, "name": conn.name, "role": conn.role,
            "connected_ms": conn.connected_ms, TTL_ATTRIBUTE: conn.expires_s,
        }))

    def get_connection(self, connection_id: str) -> Connection | None:
        resp = self.client.get_item(TableName=self.table, Key=conn_key(connection_id), ConsistentRead=True)
        return _conn(resp["Item"]) if "Item" in resp else None

    def delete_connection(self, connection_id: str) -> Connection | None:
        resp = self.client.delete_item(TableName=self.table, Key=conn_key(connection_id), ReturnValues="ALL_OLD")
        if "Attributes" not in resp:
            return None
        conn = _conn(resp["Attributes"])
        for room_id in sorted(conn.rooms):
            self.client.delete_item(TableName=self.table, Key=sub_key(room_id, connection_id))
        return conn

    def subscribe(self, sub: Subscription, max_rooms: int) -> bool:
        # the connection first (it must exist, and hold room for one more): a subscription never
        # outlives the record that lets the disconnect find it
        try:
            self.client.update_item(
                TableName=self.table, Key=conn_key(sub.connection_id),
                UpdateExpression="ADD rooms :r",
                ConditionExpression="attribute_exists(pk) AND (attribute_not_exists(rooms) OR size(rooms) < :max "
                                    "OR contains(rooms, :room))",
                ExpressionAttributeValues={":r": {"SS": [sub.room_id]}, ":max": av(max_rooms),
                                           ":room": av(sub.room_id)},
            )
        except ClientError as e:
            if error_code(e) == "ConditionalCheckFailedException":
                return False
            raise
        self.client.put_item(TableName=self.table, Item=codec.to_item({
            "pk": f"ROOM#{sub.room_id}", "sk": f"SUB#{sub.connection_id}", "user": sub.user, "role": sub.role,
            "watcher": sub.watcher or None, "tag": sub.tag, "version": sub.version,
            TTL_ATTRIBUTE: sub.expires_s,
        }))
        return True

    def unsubscribe(self, connection_id: str, room_id: str) -> None:
        self.client.delete_item(TableName=self.table, Key=sub_key(room_id, connection_id))
        try:
            self.client.update_item(
                TableName=self.table, Key=conn_key(connection_id), UpdateExpression="DELETE rooms :r",
                ConditionExpression="attribute_exists(pk)", ExpressionAttributeValues={":r": {"SS": [room_id]}},
            )
        except ClientError as e:
            if error_code(e) != "ConditionalCheckFailedException":
                raise

    def subscriptions(self, room_id: str) -> list[Subscription]:
        items = self._query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :p)",
            ExpressionAttributeValues={":pk": av(f"ROOM#{room_id}"), ":p": av("SUB#")},
            ConsistentRead=True,
        )
        return [_sub(i) for i in items]

    def set_tag(self, room_id: str, connection_id: str, tag: str, version: int) -> bool:
        try:
            self.client.update_item(
                TableName=self.table, Key=sub_key(room_id, connection_id),
                UpdateExpression="SET tag = :t, version = :v", ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeValues={":t": av(tag), ":v": av(version)},
            )
            return True
        except ClientError as e:
            if error_code(e) == "ConditionalCheckFailedException":
                return False
            raise
