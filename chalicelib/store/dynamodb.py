"""DynamoDB adapter for rooms. Every state change is conditional; condition failures become domain
errors here, so nothing above this module sees botocore.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable, Sequence
from typing import Any

from botocore.exceptions import ClientError

from chalicelib.core.errors import NotFound, RoomCodeTaken, StaleVersion
from chalicelib.domain.model import ROOM_CODE_LIFE_S, LogRecord, MoveRecord, MoveSource, Room, RoomStatus
from chalicelib.domain.ports import (
    ClearEntry,
    LobbyCard,
    MoveSlot,
    Page,
    RecordIncrement,
    ResultWrite,
    SideWrite,
    StageCleared,
)
from chalicelib.observability import logger, metrics_count
from chalicelib.store import codec
from chalicelib.store.codec import av
from chalicelib.store.cursors import CursorCodec, Secret
from chalicelib.store.faults import GuardedClient, error_code
from chalicelib.store.table import MEMBER_SCAN, SHARDS, TTL_ATTRIBUTE, clear_pk, lobby_pk, lobby_scope

LOG_RETENTION_S = 60 * 24 * 3600
"""A room's log entries, sealed moves and watchers are removed by TTL this long after they were written:
twice a finished room's 30 days (`codec.FINISHED_RETENTION_S`), and far longer than any room runs (an
idle one closes within hours), so a live room's replay, undo and reports never miss an entry."""

MEMBER_PAGE = 50
BATCH_ATTEMPTS = 4
BATCH_KEYS = 100
"""BatchGetItem's most keys in one ask."""
"""Reads of a batch's unprocessed keys before the rest is left out (DynamoDB returns them when throttled)."""


class DynamoBase:
    def __init__(self, client: Any, table: str, cursor_secret: Secret | Callable[[], Secret] = b"") -> None:
        self.client = client if isinstance(client, GuardedClient) else GuardedClient(client)
        self.table = table
        self._cursors = CursorCodec(cursor_secret)

    def _query_all(self, **kwargs: Any) -> list[dict[str, Any]]:
        items: list[dict[str, Any]] = []
        while True:
            resp = self.client.query(TableName=self.table, **kwargs)
            items.extend(resp.get("Items", []))
            if "LastEvaluatedKey" not in resp:
                return items
            kwargs["ExclusiveStartKey"] = resp["LastEvaluatedKey"]


class DynamoRoomStore(DynamoBase):
    def create_room(self, room: Room) -> bool:
        if room.code is None:
            try:
                self.client.put_item(TableName=self.table, Item=codec.room_to_item(room),
                                     ConditionExpression="attribute_not_exists(pk)")
                return True
            except ClientError as e:
                if error_code(e) == "ConditionalCheckFailedException":
                    return False
                raise
        # the room and its 房号 together: a code is never held by a room that was not written
        created_s = room.created_ms // 1000
        try:
            self.client.transact_write_items(TransactItems=[
                {"Put": {"TableName": self.table, "Item": codec.room_to_item(room),
                         "ConditionExpression": "attribute_not_exists(pk)"}},
                {"Put": {"TableName": self.table,
                         "Item": codec.to_item({**codec.code_key_values(room.code), "room": room.id,
                                                TTL_ATTRIBUTE: created_s + ROOM_CODE_LIFE_S}),
                         # TTL deletes late (up to days): an expired code is free though still there
                         "ConditionExpression": "attribute_not_exists(pk) OR #ttl < :now",
                         "ExpressionAttributeNames": {"#ttl": TTL_ATTRIBUTE},
                         "ExpressionAttributeValues": {":now": av(created_s)}}},
            ])
            return True
        except ClientError as e:
            if error_code(e) != "TransactionCanceledException":
                raise
            reasons = [r.get("Code", "None") for r in e.response.get("CancellationReasons", [])]
            if reasons[:1] == ["ConditionalCheckFailed"]:
                return False  # the same create, retried: the room is there with its own code
            if reasons[:1] == ["TransactionConflict"] and self._room_exists(room.id):
                return False  # the same create sent twice at once (a double tap): the other one wrote it
            if reasons[1:2] in (["ConditionalCheckFailed"], ["TransactionConflict"]):
                raise RoomCodeTaken() from e  # held, or being taken by another create this instant
            raise StaleVersion() from e  # the twin create is still committing: the phone's retry finds it

    def _room_exists(self, room_id: str) -> bool:
        resp = self.client.get_item(TableName=self.table, Key=codec.room_key(room_id), ConsistentRead=True,
                                    ProjectionExpression="pk")
        return "Item" in resp

    def find_code(self, code: str) -> str | None:
        resp = self.client.get_item(TableName=self.table, Key=codec.code_key(code), ConsistentRead=True)
        return codec.from_item(resp["Item"])["room"] if "Item" in resp else None

    def get_room(self, room_id: str) -> Room:
        resp = self.client.get_item(TableName=self.table, Key=codec.room_key(room_id), ConsistentRead=True)
        if "Item" not in resp:
            raise NotFound("找不到这个房间", code="ROOM_NOT_FOUND")
        return codec.room_from_item(resp["Item"])

    def add_member(self, user: str, room: Room) -> None:
        self.client.put_item(TableName=self.table, Item=codec.to_item({
            **codec.member_key_values(user, room), "room": room.id,
            TTL_ATTRIBUTE: room.created_ms // 1000 + ROOM_CODE_LIFE_S,
        }))

    def member_rooms(self, user: str, limit: int) -> list[Room]:
        ids: list[str] = []
        query: dict[str, Any] = {
            "TableName": self.table, "KeyConditionExpression": "pk = :pk AND begins_with(sk, :p)",
            "FilterExpression": "attribute_not_exists(#done)", "ExpressionAttributeNames": {"#done": "done"},
            "ExpressionAttributeValues": {":pk": av(f"USER#{user}"), ":p": av("MEMBER#")},
            "ScanIndexForward": False, "Limit": MEMBER_PAGE, "ProjectionExpression": "room", "ConsistentRead": True,
        }
        for _ in range(MEMBER_SCAN // MEMBER_PAGE):  # notes are small: a page of 50 is ~2 RCU
            resp = self.client.query(**query)
            ids += [str(codec.from_item(item)["room"]) for item in resp.get("Items", [])]
            if len(ids) >= limit or "LastEvaluatedKey" not in resp:
                break
            query["ExclusiveStartKey"] = resp["LastEvaluatedKey"]
        ids = ids[:limit]
        names = {f"#a{i}": name for i, name in enumerate(codec.ROOM_CARD_ATTRIBUTES)}
        # strongly consistent, both: a room she joined a moment ago is on her list, with her seat
        ask: dict[str, Any] = {"Keys": [codec.room_key(i) for i in ids], "ProjectionExpression": ",".join(names),
                               "ExpressionAttributeNames": names, "ConsistentRead": True}
        found = {room.id: room for room in map(codec.room_from_item, self._batch_get(ask))}
        return [found[i] for i in ids if i in found]

    def _batch_get(self, ask: dict[str, Any]) -> list[dict[str, Any]]:
        """The items of one BatchGetItem ask (≤ 100 keys), those it left unprocessed asked again."""
        items: list[dict[str, Any]] = []
        for attempt in range(BATCH_ATTEMPTS):
            if not ask["Keys"]:
                break
            got = self.client.batch_get_item(RequestItems={self.table: ask})
            items += got.get("Responses", {}).get(self.table, [])
            ask = {**ask, "Keys": got.get("UnprocessedKeys", {}).get(self.table, {}).get("Keys", [])}
            if ask["Keys"]:  # throttled: the rest again, after a pause (as the SDKs advise)
                time.sleep(random.uniform(0, 0.05 * 2**attempt))
        return items

    def member_done(self, user: str, room: Room) -> None:
        try:
            self.client.update_item(
                TableName=self.table, Key={k: av(v) for k, v in codec.member_key_values(user, room).items()},
                # done, and gone with the next TTL sweep (the API deletes nothing itself)
                UpdateExpression="SET #done = :t, #ttl = :now", ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeNames={"#done": "done", "#ttl": TTL_ATTRIBUTE},
                ExpressionAttributeValues={":t": av(True), ":now": av(room.ended_ms // 1000 if room.ended_ms
                                                                       else room.created_ms // 1000)},
            )
        except ClientError as e:
            if error_code(e) != "ConditionalCheckFailedException":
                raise  # no such note (expired meanwhile): nothing to mark

    def save_room(self, room: Room, expected_version: int) -> None:
        try:
            self.client.put_item(
                TableName=self.table,
                Item=codec.room_to_item(room),
                ConditionExpression="version = :v",
                ExpressionAttributeValues={":v": av(expected_version)},
            )
        except ClientError as e:
            if error_code(e) == "ConditionalCheckFailedException":
                metrics_count("Conflicts")
                raise StaleVersion() from e
            raise

    def put_move(self, room_id: str, move: MoveRecord) -> MoveRecord | None:
        try:
            self.client.put_item(
                TableName=self.table,
                Item=codec.move_to_item(room_id, move, move.at_ms // 1000 + LOG_RETENTION_S),
                ConditionExpression="attribute_not_exists(pk)",
                ReturnValuesOnConditionCheckFailure="ALL_OLD",
            )
            return None
        except ClientError as e:
            if error_code(e) == "ConditionalCheckFailedException":
                return codec.move_from_item(e.response["Item"])
            raise

    def list_moves(self, room_id: str, step: int) -> dict[int, MoveRecord]:
        items = self._query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :prefix)",
            ExpressionAttributeValues={":pk": av(f"ROOM#{room_id}"), ":prefix": av(f"MOVE#{step:06d}#")},
            ConsistentRead=True,
        )
        moves = (codec.move_from_item(i) for i in items)
        return {m.seat: m for m in moves}

    def moves_made(self, slots: Sequence[MoveSlot]) -> set[MoveSlot]:
        made: set[MoveSlot] = set()
        keys = [codec.move_key(s.room_id, s.step, s.seat) for s in dict.fromkeys(slots)]
        for chunk in range(0, len(keys), BATCH_KEYS):
            ask = {"Keys": keys[chunk:chunk + BATCH_KEYS], "ProjectionExpression": "pk, sk, #by",
                   "ExpressionAttributeNames": {"#by": "by"}, "ConsistentRead": True}
            for item in self._batch_get(ask):
                if MoveSource(item["by"]["S"]).submitted:
                    made.add(codec.move_slot(item))
        return made

    def commit(
        self,
        room: Room,
        expected_version: int,
        log: LogRecord,
        moves: Sequence[MoveRecord] = (),
        side_writes: Sequence[SideWrite] = (),
    ) -> None:
        expires = log.at_ms // 1000 + LOG_RETENTION_S
        items: list[dict[str, Any]] = [
            {"Put": {
                "TableName": self.table,
                "Item": codec.room_to_item(room),
                "ConditionExpression": "version = :v",
                "ExpressionAttributeValues": {":v": av(expected_version)},
            }},
            {"Put": {
                "TableName": self.table,
                "Item": codec.log_to_item(room.id, log, expires),
                "ConditionExpression": "attribute_not_exists(pk)",
            }},
        ]
        for move in moves:
            items.append({"Put": {
                "TableName": self.table,
                "Item": codec.move_to_item(room.id, move, expires),
                "ConditionExpression": "attribute_not_exists(pk)",
            }})
        items.extend(self._side_write(room.id, w) for w in side_writes)
        try:
            self.client.transact_write_items(TransactItems=items)
        except ClientError as e:
            if error_code(e) == "TransactionCanceledException":
                reasons = [r.get("Code", "None") for r in e.response.get("CancellationReasons", [])]
                metrics_count("Conflicts")
                if "TransactionConflict" in reasons:
                    metrics_count("TransactionConflicts")
                logger.info("transaction cancelled", extra={"reasons": reasons})
                raise StaleVersion() from e
            raise

    def _side_write(self, room_id: str, w: SideWrite) -> dict[str, Any]:
        if isinstance(w, ResultWrite):
            return {"Put": {
                "TableName": self.table,
                "Item": codec.to_item({
                    "pk": f"ROOM#{room_id}", "sk": f"RESULT#{w.unit}", "unit": w.unit, "step": w.step,
                    "outcome": codec.pack_json(w.outcome),
                }),
                "ConditionExpression": "attribute_not_exists(pk)",
            }}
        if isinstance(w, RecordIncrement):
            names = {"#n": "subject_name", "#sc": "score", "#bk": "board_sk"}
            sets = ["#n = :name", "subject = :subject", "board_pk = :bpk",
                    "#sc = if_not_exists(#sc, :zero) + :ds", "#bk = if_not_exists(#sc, :zero) + :ds"]
            values: dict[str, Any] = {
                ":name": av(w.subject_name), ":subject": av(w.subject), ":bpk": av(f"BOARD#{w.board}"),
                ":zero": av(0), ":ds": av(w.score_delta),
            }
            adds = []
            for i, (counter, amount) in enumerate(sorted(w.counters.items())):
                names[f"#c{i}"] = counter
                values[f":c{i}"] = av(amount)
                adds.append(f"#c{i} :c{i}")
            expr = "SET " + ", ".join(sets) + (" ADD " + ", ".join(adds) if adds else "")
            return {"Update": {
                "TableName": self.table,
                "Key": {"pk": av(f"RECORD#{w.board}"), "sk": av(f"SUBJECT#{w.subject}")},
                "UpdateExpression": expr,
                "ExpressionAttributeNames": names,
                "ExpressionAttributeValues": values,
            }}
        if isinstance(w, ClearEntry):
            return {"Put": {
                "TableName": self.table,
                "Item": codec.to_item({
                    "pk": clear_pk(w.stage, w.competition),
                    "sk": f"{w.rounds:03d}#{w.ended_ms:013d}#{w.room_id}",
                    "stage": w.stage, "rounds": w.rounds, "ended_ms": w.ended_ms, "room": w.room_id,
                    "team": list(w.team),
                }),
                "ConditionExpression": "attribute_not_exists(pk)",
            }}
        if isinstance(w, StageCleared):
            return {"Update": {
                "TableName": self.table,
                "Key": {"pk": av("CONSORTS"), "sk": av(f"CONSORT#{w.consort_id}")},
                "UpdateExpression": "ADD cleared_stages :s",
                "ConditionExpression": "attribute_exists(pk)",
                "ExpressionAttributeValues": {":s": {"NS": [str(w.stage)]}},
            }}
        raise TypeError(f"unknown side write {w!r}")

    def get_log(self, room_id: str, step: int) -> LogRecord | None:
        # strongly consistent: it decides whether a retry's action was the one recorded, right after
        # the room item (read consistently) said the step had passed
        resp = self.client.get_item(
            TableName=self.table, Key={"pk": av(f"ROOM#{room_id}"), "sk": av(f"LOG#{step:06d}")},
            ConsistentRead=True,
        )
        return codec.log_from_item(resp["Item"]) if "Item" in resp else None

    def list_log(self, room_id: str, after_step: int, limit: int | None,
                 consistent: bool = False) -> list[LogRecord]:
        """Log entries after `after_step`, oldest first; all of them when limit is None."""
        kwargs: dict[str, Any] = {
            "KeyConditionExpression": "pk = :pk AND sk BETWEEN :lo AND :hi",
            "ExpressionAttributeValues": {
                ":pk": av(f"ROOM#{room_id}"), ":lo": av(f"LOG#{after_step + 1:06d}"), ":hi": av("LOG#999999"),
            },
            "ConsistentRead": consistent,
        }
        if limit is None:
            return [codec.log_from_item(i) for i in self._query_all(**kwargs)]
        resp = self.client.query(TableName=self.table, Limit=limit, **kwargs)
        return [codec.log_from_item(i) for i in resp.get("Items", [])]

    def list_results(self, room_id: str) -> list[dict[str, Any]]:
        items = self._query_all(
            KeyConditionExpression="pk = :pk AND begins_with(sk, :p)",
            ExpressionAttributeValues={":pk": av(f"ROOM#{room_id}"), ":p": av("RESULT#")},
        )
        rows = sorted((codec.from_item(i) for i in items), key=lambda r: (r.get("step", 0), r["unit"]))
        return [codec.unpack_json(r["outcome"]) for r in rows]

    def list_lobby(self, game: str, status: RoomStatus, limit: int, cursor: str | None) -> Page[LobbyCard]:
        scope = lobby_scope(game, status)
        kwargs: dict[str, Any] = {
            "IndexName": "lobby",
            "KeyConditionExpression": "lobby_pk = :p",
            "ExpressionAttributeValues": {":p": av(lobby_pk(game, status))},
            "ScanIndexForward": False,
            "Limit": limit,
        }
        start = self._cursors.decode(cursor, scope=scope)
        if start:
            kwargs["ExclusiveStartKey"] = start
        resp = self.client.query(TableName=self.table, **kwargs)
        cards = []
        for item in resp.get("Items", []):
            v = codec.from_item(item)
            cards.append(LobbyCard(
                id=v["pk"].removeprefix("ROOM#"), game=v["game"], title=v["title"], status=v["status"],
                seat_count=int(v["seat_count"]), max_seats=int(v["max_seats"]), creator_name=v["creator_name"],
                has_password=bool(v["has_password"]), competition=v["competition"]))
        last = resp.get("LastEvaluatedKey")
        return Page(items=cards, cursor=self._cursors.encode(last, scope=scope) if last else None)

    def _due(self, index: str, now_ms: int, limit: int) -> list[str]:
        ids: list[str] = []
        for shard in range(SHARDS):
            resp = self.client.query(
                TableName=self.table,
                IndexName=index,
                KeyConditionExpression=f"{index}_pk = :p AND {index}_sk <= :now",
                ExpressionAttributeValues={":p": av(f"{index.upper()}#{shard}"), ":now": av(now_ms)},
                Limit=limit,
            )
            ids.extend(i["pk"]["S"].removeprefix("ROOM#") for i in resp.get("Items", []))
        return ids

    def due_rooms(self, now_ms: int, limit: int) -> list[str]:
        return self._due("due", now_ms, limit)

    def idle_rooms(self, now_ms: int, limit: int) -> list[str]:
        return self._due("idle", now_ms, limit)

    def defer_due(self, room_id: str, version: int, until_ms: int) -> None:
        try:
            self.client.update_item(
                TableName=self.table, Key=codec.room_key(room_id), UpdateExpression="SET due_sk = :u", ConditionExpression="version = :v AND attribute_exists(due_pk)",
                ExpressionAttributeValues={":u": av(until_ms), ":v": av(version)},
            )
        except ClientError as e:
            if error_code(e) != "ConditionalCheckFailedException":
                raise

    def add_watcher(self, room_id: str, user: str, now_ms: int) -> None:
        self.client.put_item(TableName=self.table, Item=codec.to_item({
            "pk": f"ROOM#{room_id}", "sk": f"WATCH#{user}", "at_ms": now_ms,
            TTL_ATTRIBUTE: now_ms // 1000 + LOG_RETENTION_S,
        }))

    def is_watcher(self, room_id: str, user: str) -> bool:
        # strongly consistent: her phone asks for the view the moment /spectate answered that she is in
        resp = self.client.get_item(
            TableName=self.table, Key={"pk": av(f"ROOM#{room_id}"), "sk": av(f"WATCH#{user}")},
            ProjectionExpression="pk", ConsistentRead=True,
        )
        return "Item" in resp

    def reserve_password_check(self, room_id: str, user: str, now_ms: int, window_ms: int,
                               limit: int) -> int | None:
        return self._reserve(f"ROOM#{room_id}", f"PWCHECK#{user}", now_ms, window_ms, limit)

    def reserve_room_opening(self, user: str, room_id: str, now_ms: int, window_ms: int,
                             limit: int) -> int | None:
        return self._reserve(f"USER#{user}", "OPENINGS", now_ms, window_ms, limit, room_id)

    def reserve_text_check(self, user: str, now_ms: int, window_ms: int, limit: int) -> int | None:
        return self._reserve(f"USER#{user}", "TEXTS", now_ms, window_ms, limit)

    def _reserve(self, pk: str, sk: str, now_ms: int, window_ms: int, limit: int,
                 tag: str | None = None) -> int | None:
        """A ring of `limit` timestamps: a check takes the oldest slot, if it is older than the window,
        with a write conditional on the slot still holding what we read. Concurrent guesses race for
        the slot; at most `limit` can succeed within any window. With a `tag` (what the slot is for),
        a slot already taken for it within the window answers None without a write: a retry is not a
        second one."""
        key = {"pk": av(pk), "sk": av(sk)}
        for _ in range(limit + 2):
            resp = self.client.get_item(TableName=self.table, Key=key, ConsistentRead=True)
            item = codec.from_item(resp["Item"]) if "Item" in resp else {}
            if tag is not None and any(item.get(f"t{i}") == tag and int(item.get(f"s{i}", 0)) > now_ms - window_ms
                                       for i in range(limit)):
                return None
            slot = int(item.get("p", 0))
            oldest = int(item.get(f"s{slot}", 0))
            if oldest > now_ms - window_ms:
                return oldest + window_ms - now_ms
            held = "attribute_not_exists(#s)" if oldest == 0 else "#s = :old"
            values: dict[str, Any] = {":now": av(now_ms), ":next": av((slot + 1) % limit),
                                      ":ttl": av((now_ms + window_ms) // 1000 + 3600), ":tag": av(tag or "")}
            condition = f"attribute_not_exists(pk) OR ({held} AND #p = :p)"
            values[":p"] = av(slot)
            if oldest:
                values[":old"] = av(oldest)
            if "Item" not in resp:
                condition = "attribute_not_exists(pk)"
                values.pop(":p")
            try:
                self.client.update_item(
                    TableName=self.table, Key=key,
                    UpdateExpression="SET #s = :now, #t = :tag, #p = :next, #ttl = :ttl",
                    ConditionExpression=condition,
                    ExpressionAttributeNames={"#s": f"s{slot}", "#t": f"t{slot}", "#p": "p", "#ttl": TTL_ATTRIBUTE},
                    ExpressionAttributeValues=values,
                )
                return None
            except ClientError as e:
                if error_code(e) != "ConditionalCheckFailedException":
                    raise
        return window_ms  # lost every race: as many checks as allowed were just taken by others
