"""DynamoDB adapter for chat, notices and the WeChat access token (the one table; see docs/chat.md).

Items:
  ROOM#<id>    / CHATSEQ#<channel>             the channel's last seq (the message's place)
  ROOM#<id>    / CHAT#<channel>#<seq>          a message (with its speaker as the room showed her)
  ROOM#<id>    / CHATKEY#<user>#<key hash>     a post's Idempotency-Key -> its message (1 day)
  ROOM#<id>    / CHATRATE#<user>               a ring of the user's last N post times
  ROOM#<id>    / CHATMUTE#<user>               a mute, until when and by whom
  ROOM#<id>    / CHATREPORTED#<msg>#<reporter> one report per reporter and message
  CHATREPORTS  / <ms>#<room>#<msg>#<reporter>  the 司礼's list of reports, newest first
  ROOM#<id>    / NOTICE#<event>#<user>         a "your turn" notice sent (or skipped) once (7 days)
  USER#<uid>   / SUBSCRIBE#<template id>       one-time subscribe-message credits
  WECHAT       / TOKEN#<appid>                 the server access token, its expiry, the refresh lease

Every write that must not race is conditional: a message and its channel counter go together in
one transaction conditioned on the counter still holding what was read, so parallel posts get
gapless places in the order they were stored; the rate ring, credits, dedupe items and the token
lease are conditional updates. Faults become domain errors through `GuardedClient`, condition
failures are answered here.
"""

from __future__ import annotations

import hashlib
import random
import time
from collections.abc import Callable
from typing import Any

from botocore.exceptions import ClientError

from chalicelib.core.errors import RateLimited
from chalicelib.core.game import ViewerRole
from chalicelib.domain.chat_model import (
    CachedToken,
    Channel,
    ChatMessage,
    MessageDraft,
    Mute,
    Report,
    ReportReason,
    RequestKey,
    Speaker,
)
from chalicelib.domain.ports import Page
from chalicelib.observability import metrics_count
from chalicelib.store import codec
from chalicelib.store.codec import av
from chalicelib.store.cursors import Secret
from chalicelib.store.dynamodb import DynamoBase
from chalicelib.store.faults import error_code
from chalicelib.store.table import TTL_ATTRIBUTE

MESSAGE_RETENTION_S = 30 * 24 * 3600
KEY_RETENTION_S = 24 * 3600
NOTICE_RETENTION_S = 7 * 24 * 3600
APPEND_ATTEMPTS = 12
"""A post that keeps losing the race for its channel's next place gives up (429 BUSY) after this."""
REPORTS_PK = "CHATREPORTS"
CCF = "ConditionalCheckFailedException"


def key_hash(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()[:32]


def _room_pk(room_id: str) -> str:
    return f"ROOM#{room_id}"


def _message_sk(channel: Channel, seq: int) -> str:
    return f"CHAT#{channel.value}#{seq:09d}"


def message_values(m: ChatMessage) -> dict[str, Any]:
    return {"room": m.room_id, "channel": m.channel.value, "seq": m.seq, "at_ms": m.at_ms,
            "user": m.speaker.user, "role": m.speaker.role.value, "seat": m.speaker.seat,
            "name": m.speaker.name, "text": m.text, "phrase": m.phrase, "flagged": m.flagged}


def message_from(v: dict[str, Any]) -> ChatMessage:
    speaker = Speaker(user=str(v["user"]), role=ViewerRole(v["role"]),
                      seat=int(v["seat"]) if v.get("seat") is not None else None, name=str(v["name"]))
    return ChatMessage(room_id=str(v["room"]), channel=Channel(v["channel"]), seq=int(v["seq"]),
                       at_ms=int(v["at_ms"]), speaker=speaker, text=str(v["text"]), phrase=v.get("phrase"),
                       flagged=bool(v.get("flagged", False)))


def report_sk(report: Report) -> str:
    return f"{report.at_ms:013d}#{report.message.room_id}#{report.message.id}#{report.reporter}"


def report_from(v: dict[str, Any]) -> Report:
    return Report(message=message_from(v), reporter=str(v["reporter"]), reporter_name=str(v["reporter_name"]),
                  reason=ReportReason(v["reason"]), at_ms=int(v["reported_ms"]))


class DynamoChatStore(DynamoBase):
    """ChatStore + NoticeStore + TokenCache over the one table."""

    def __init__(self, client: Any, table: str, cursor_secret: Secret | Callable[[], Secret] = b"") -> None:
        super().__init__(client, table, cursor_secret)

    def _get(self, pk: str, sk: str, consistent: bool = True) -> dict[str, Any] | None:
        resp = self.client.get_item(TableName=self.table, Key={"pk": av(pk), "sk": av(sk)}, ConsistentRead=consistent)
        return codec.from_item(resp["Item"]) if "Item" in resp else None

    # -- messages ----------------------------------------------------------------------------------

    def append_message(self, room_id: str, draft: MessageDraft, request: RequestKey | None = None) -> ChatMessage:
        pk = _room_pk(room_id)
        counter_key = {"pk": av(pk), "sk": av(f"CHATSEQ#{draft.channel.value}")}
        for attempt in range(APPEND_ATTEMPTS):
            counter = self._get(pk, f"CHATSEQ#{draft.channel.value}")
            last = int(counter["seq"]) if counter else 0
            message = ChatMessage.of(room_id, last + 1, draft)
            values: dict[str, Any] = {":n": av(last + 1)}
            if last:
                values[":last"] = av(last)
            expires = draft.at_ms // 1000 + MESSAGE_RETENTION_S
            items: list[dict[str, Any]] = [
                {"Update": {"TableName": self.table, "Key": counter_key, "UpdateExpression": "SET seq = :n",
                            "ConditionExpression": "seq = :last" if last else "attribute_not_exists(seq)",
                            "ExpressionAttributeValues": values}},
                {"Put": {"TableName": self.table, "ConditionExpression": "attribute_not_exists(pk)",
                         "Item": codec.to_item({"pk": pk, "sk": _message_sk(draft.channel, message.seq),
                                                **message_values(message), TTL_ATTRIBUTE: expires})}},
            ]
            if request is not None:
                items.append({"Put": {"TableName": self.table, "ConditionExpression": "attribute_not_exists(pk)",
                                      "Item": codec.to_item({
                                          "pk": pk, "sk": f"CHATKEY#{request.user}#{key_hash(request.key)}",
                                          "channel": draft.channel.value, "seq": message.seq,
                                          "request_hash": request.request_hash,
                                          TTL_ATTRIBUTE: draft.at_ms // 1000 + KEY_RETENTION_S})}})
            try:
                self.client.transact_write_items(TransactItems=items)
                return message
            except ClientError as e:
                if error_code(e) != "TransactionCanceledException":
                    raise
                reasons = [r.get("Code", "None") for r in e.response.get("CancellationReasons", []) or []]
            if request is not None and len(reasons) > 2 and reasons[2] == "ConditionalCheckFailed":
                found = self.message_for_key(room_id, request.user, request.key)
                if found is not None:
                    return request.same_as(found)  # the same post, retried while its first attempt was being stored
            metrics_count("Conflicts")
            time.sleep(random.uniform(0, 0.004 * (attempt + 1)))
        raise RateLimited("发言的人太多了，请稍后再试", code="BUSY")

    def message_for_key(self, room_id: str, user: str, key: str) -> tuple[ChatMessage, str] | None:
        item = self._get(_room_pk(room_id), f"CHATKEY#{user}#{key_hash(key)}")
        if item is None:
            return None
        message = self.get_message(room_id, Channel(item["channel"]), int(item["seq"]))
        return (message, str(item["request_hash"])) if message is not None else None

    def get_message(self, room_id: str, channel: Channel, seq: int) -> ChatMessage | None:
        item = self._get(_room_pk(room_id), _message_sk(channel, seq))
        return message_from(item) if item is not None else None

    def list_messages(self, room_id: str, channel: Channel, after_seq: int | None, limit: int) -> list[ChatMessage]:
        kwargs: dict[str, Any] = {"TableName": self.table, "Limit": limit, "ConsistentRead": True}
        if after_seq is None:
            kwargs.update(KeyConditionExpression="pk = :pk AND begins_with(sk, :p)", ScanIndexForward=False,
                          ExpressionAttributeValues={":pk": av(_room_pk(room_id)),
                                                     ":p": av(f"CHAT#{channel.value}#")})
        else:
            kwargs.update(KeyConditionExpression="pk = :pk AND sk BETWEEN :lo AND :hi",
                          ExpressionAttributeValues={":pk": av(_room_pk(room_id)),
                                                     ":lo": av(_message_sk(channel, after_seq + 1)),
                                                     ":hi": av(_message_sk(channel, 999_999_999))})
        items = self.client.query(**kwargs).get("Items", [])
        messages = [message_from(codec.from_item(i)) for i in items]
        return messages[::-1] if after_seq is None else messages

    # -- limits and moderation ---------------------------------------------------------------------

    def take_rate_slot(self, room_id: str, user: str, now_ms: int, window_ms: int, limit: int) -> int:
        """A ring of `limit` post times: a post takes the oldest slot if it has left the window, with
        a write conditioned on the ring still being as read (slot pointer and slot value)."""
        pk, sk = _room_pk(room_id), f"CHATRATE#{user}"
        for _ in range(limit + 2):
            item = self._get(pk, sk)
            slot = int(item.get("p", 0)) % limit if item else 0
            oldest = int(item.get(f"s{slot}", 0)) if item else 0
            if oldest and oldest > now_ms - window_ms:
                return oldest + window_ms - now_ms
            values: dict[str, Any] = {":now": av(now_ms), ":next": av((slot + 1) % limit),
                                      ":ttl": av((now_ms + window_ms) // 1000 + 3600)}
            if item is None:
                condition = "attribute_not_exists(pk)"
            else:
                values[":p"] = av(int(item.get("p", 0)))
                condition = "#p = :p AND " + ("#s = :old" if oldest else "attribute_not_exists(#s)")
                if oldest:
                    values[":old"] = av(oldest)
            try:
                self.client.update_item(
                    TableName=self.table, Key={"pk": av(pk), "sk": av(sk)},
                    UpdateExpression="SET #s = :now, #p = :next, #ttl = :ttl", ConditionExpression=condition,
                    ExpressionAttributeNames={"#s": f"s{slot}", "#p": "p", "#ttl": TTL_ATTRIBUTE},
                    ExpressionAttributeValues=values)
                return 0
            except ClientError as e:
                if error_code(e) != CCF:
                    raise
        return max(1, window_ms // limit)  # lost every race: others just took the slots

    def get_mute(self, room_id: str, user: str) -> Mute | None:
        v = self._get(_room_pk(room_id), f"CHATMUTE#{user}")
        if v is None or not v.get("until_ms"):
            return None
        return Mute(user=user, until_ms=int(v["until_ms"]), by=str(v["by"]), at_ms=int(v["at_ms"]))

    def set_mute(self, room_id: str, mute: Mute) -> None:
        self.client.put_item(TableName=self.table, Item=codec.to_item({
            "pk": _room_pk(room_id), "sk": f"CHATMUTE#{mute.user}", "until_ms": mute.until_ms, "by": mute.by,
            "at_ms": mute.at_ms, TTL_ATTRIBUTE: mute.until_ms // 1000 + 3600}))

    def clear_mute(self, room_id: str, user: str) -> None:
        """Lifted by zeroing it (the API role has no DeleteItem); TTL removes the item within an hour."""
        try:
            self.client.update_item(
                TableName=self.table, Key={"pk": av(_room_pk(room_id)), "sk": av(f"CHATMUTE#{user}")},
                UpdateExpression="SET until_ms = :zero, #ttl = :soon", ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeNames={"#ttl": TTL_ATTRIBUTE},
                ExpressionAttributeValues={":zero": av(0), ":soon": av(int(time.time()) + 3600)})
        except ClientError as e:
            if error_code(e) != CCF:
                raise

    def add_report(self, report: Report) -> bool:
        m = report.message
        try:
            self.client.transact_write_items(TransactItems=[
                {"Put": {"TableName": self.table, "ConditionExpression": "attribute_not_exists(pk)",
                         "Item": codec.to_item({"pk": _room_pk(m.room_id),
                                                "sk": f"CHATREPORTED#{m.id}#{report.reporter}",
                                                "at_ms": report.at_ms})}},
                {"Put": {"TableName": self.table, "Item": codec.to_item({
                    "pk": REPORTS_PK, "sk": report_sk(report), **message_values(m), "reporter": report.reporter,
                    "reporter_name": report.reporter_name, "reason": report.reason.value,
                    "reported_ms": report.at_ms})}},
            ])
            return True
        except ClientError as e:
            if error_code(e) == "TransactionCanceledException":
                return False
            raise

    def list_reports(self, limit: int, cursor: str | None) -> Page[Report]:
        kwargs: dict[str, Any] = {"TableName": self.table, "KeyConditionExpression": "pk = :pk",
                                  "ExpressionAttributeValues": {":pk": av(REPORTS_PK)},
                                  "ScanIndexForward": False, "Limit": limit}
        start = self._cursors.decode(cursor, scope="chat-reports")
        if start:
            kwargs["ExclusiveStartKey"] = start
        resp = self.client.query(**kwargs)
        last = resp.get("LastEvaluatedKey")
        return Page(items=[report_from(codec.from_item(i)) for i in resp.get("Items", [])],
                    cursor=self._cursors.encode(last, scope="chat-reports") if last else None)

    # -- notices -----------------------------------------------------------------------------------

    def _credit_key(self, user: str, template_id: str) -> dict[str, Any]:
        return {"pk": av(f"USER#{user}"), "sk": av(f"SUBSCRIBE#{template_id}")}

    def add_credits(self, user: str, template_id: str, count: int, cap: int, consent: str | None = None) -> int:
        count = min(count, cap)
        key = self._credit_key(user, template_id)
        # a consent already counted on this item adds nothing (`last_consent`: the newest key counted)
        fresh = "attribute_not_exists(last_consent) OR last_consent <> :k"
        names: dict[str, Any] = {":k": av(key_hash(consent))} if consent is not None else {}
        try:
            resp = self.client.update_item(
                TableName=self.table, Key=key,
                UpdateExpression="ADD credits :n" + (" SET last_consent = :k" if consent is not None else ""),
                ConditionExpression="(attribute_not_exists(credits) OR credits <= :room)"
                                    + (f" AND ({fresh})" if consent is not None else ""),
                ExpressionAttributeValues={":n": av(count), ":room": av(cap - count), **names},
                ReturnValues="UPDATED_NEW")
            return int(codec.from_item(resp["Attributes"])["credits"])
        except ClientError as e:
            if error_code(e) != CCF:
                raise
        capped: dict[str, Any] = {"UpdateExpression": "SET credits = :cap"}
        if consent is not None:
            capped = {"UpdateExpression": "SET credits = :cap, last_consent = :k", "ConditionExpression": fresh}
        try:  # full (set to the cap), or this consent was counted already (the condition: nothing changes)
            self.client.update_item(TableName=self.table, Key=key,
                                    ExpressionAttributeValues={":cap": av(cap), **names}, **capped)
        except ClientError as e:
            if error_code(e) != CCF:
                raise
        return self.credits(user).get(template_id, 0)

    def take_credit(self, user: str, template_id: str) -> bool:
        try:
            self.client.update_item(
                TableName=self.table, Key=self._credit_key(user, template_id), UpdateExpression="ADD credits :m",
                ConditionExpression="credits > :zero", ExpressionAttributeValues={":m": av(-1), ":zero": av(0)})
            return True
        except ClientError as e:
            if error_code(e) == CCF:
                return False
            raise

    def refund_credit(self, user: str, template_id: str) -> None:
        self.client.update_item(TableName=self.table, Key=self._credit_key(user, template_id),
                                UpdateExpression="ADD credits :one", ExpressionAttributeValues={":one": av(1)})

    def clear_credits(self, user: str, template_id: str) -> None:
        self.client.update_item(TableName=self.table, Key=self._credit_key(user, template_id),
                                UpdateExpression="SET credits = :zero", ExpressionAttributeValues={":zero": av(0)})

    def credits(self, user: str) -> dict[str, int]:
        items = self._query_all(KeyConditionExpression="pk = :pk AND begins_with(sk, :p)",
                                ExpressionAttributeValues={":pk": av(f"USER#{user}"), ":p": av("SUBSCRIBE#")},
                                ConsistentRead=True)
        rows = (codec.from_item(i) for i in items)
        return {str(r["sk"]).removeprefix("SUBSCRIBE#"): int(r.get("credits", 0)) for r in rows}

    def _put_once(self, item: dict[str, Any]) -> bool:
        """Put if absent: False when the item was there already (a marker claimed before)."""
        try:
            self.client.put_item(TableName=self.table, ConditionExpression="attribute_not_exists(pk)",
                                 Item=codec.to_item(item))
            return True
        except ClientError as e:
            if error_code(e) == CCF:
                return False
            raise

    def claim_notice(self, room_id: str, event: str, user: str, now_ms: int) -> bool:
        return self._put_once({"pk": _room_pk(room_id), "sk": f"NOTICE#{event}#{user}", "at_ms": now_ms,
                               TTL_ATTRIBUTE: now_ms // 1000 + NOTICE_RETENTION_S})

    def openid_of(self, user: str) -> str | None:
        resp = self.client.get_item(TableName=self.table, Key={"pk": av(f"USER#{user}"), "sk": av("PROFILE")},
                                    ProjectionExpression="openid")
        openid = codec.from_item(resp["Item"]).get("openid") if "Item" in resp else None
        return openid if isinstance(openid, str) and openid else None

    # -- the WeChat access token -------------------------------------------------------------------

    def _token_key(self, app_id: str) -> dict[str, Any]:
        return {"pk": av("WECHAT"), "sk": av(f"TOKEN#{app_id}")}

    def get_token(self, app_id: str) -> CachedToken | None:
        v = self._get("WECHAT", f"TOKEN#{app_id}")
        if v is None:
            return None
        return CachedToken(token=v.get("token"), expires_ms=int(v.get("expires_ms", 0)),
                           generation=int(v.get("generation", 0)), lease_until_ms=int(v.get("lease_until", 0)),
                           holder=v.get("holder"))

    def claim_token_refresh(self, app_id: str, seen_generation: int, now_ms: int, lease_ms: int,
                            holder: str) -> bool:
        try:
            self.client.update_item(
                TableName=self.table, Key=self._token_key(app_id),
                UpdateExpression="SET lease_until = :until, holder = :h, generation = if_not_exists(generation, :g)",
                ConditionExpression=("attribute_not_exists(pk) OR (generation = :g AND "
                                     "(attribute_not_exists(lease_until) OR lease_until < :now))"),
                ExpressionAttributeValues={":until": av(now_ms + lease_ms), ":h": av(holder),
                                           ":g": av(seen_generation), ":now": av(now_ms)})
            return True
        except ClientError as e:
            if error_code(e) == CCF:
                return False
            raise

    def put_token(self, app_id: str, token: str, expires_ms: int, seen_generation: int, holder: str) -> bool:
        try:
            self.client.update_item(
                TableName=self.table, Key=self._token_key(app_id),
                UpdateExpression="SET #t = :t, expires_ms = :e, generation = :next REMOVE lease_until, holder",
                ConditionExpression="holder = :h AND generation = :g",
                ExpressionAttributeNames={"#t": "token"},
                ExpressionAttributeValues={":t": av(token), ":e": av(expires_ms), ":next": av(seen_generation + 1),
                                           ":h": av(holder), ":g": av(seen_generation)})
            return True
        except ClientError as e:
            if error_code(e) == CCF:
                return False
            raise

    def release_token_refresh(self, app_id: str, holder: str) -> None:
        try:
            self.client.update_item(TableName=self.table, Key=self._token_key(app_id),
                                    UpdateExpression="REMOVE lease_until, holder", ConditionExpression="holder = :h",
                                    ExpressionAttributeValues={":h": av(holder)})
        except ClientError as e:
            if error_code(e) != CCF:
                raise
