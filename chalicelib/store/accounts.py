"""DynamoDB adapter for users, 妃子 (consorts) and runtime settings."""

from __future__ import annotations

from typing import Any

from botocore.exceptions import ClientError

from chalicelib.core.errors import Conflict, NotFound, StaleVersion
from chalicelib.domain.ports import Consort, User
from chalicelib.store import codec
from chalicelib.store.codec import av
from chalicelib.store.dynamodb import DynamoBase
from chalicelib.store.faults import error_code


def _consort_key(cid: str) -> dict[str, Any]:
    return {"pk": av("CONSORTS"), "sk": av(f"CONSORT#{cid}")}


def _user_key(uid: str) -> dict[str, Any]:
    return {"pk": av(f"USER#{uid}"), "sk": av("PROFILE")}


def _consort(item: dict[str, Any]) -> Consort:
    v = codec.from_item(item)
    return Consort(
        id=v["id"], name=v["name"], looks=v["looks"], talent=v["talent"], favor=v["favor"], power=v["power"],
        owner=v.get("owner"), owner_name=v.get("owner_name"), maids=dict(v.get("maids", {})),
        cleared_stages=frozenset(int(s) for s in v.get("cleared_stages", set())), created_ms=v.get("created_ms", 0),
    )


def _user(item: dict[str, Any]) -> User:
    v = codec.from_item(item)
    return User(id=v["id"], name=v["name"], role=v["role"], consort=v.get("consort"), created_ms=v["created_ms"],
                openid=v.get("openid"))


class DynamoAccountStore(DynamoBase):
    def get_user(self, uid: str) -> User | None:
        # strongly consistent: she sits down with the 妃子 she claimed a moment ago
        resp = self.client.get_item(TableName=self.table, Key=_user_key(uid), ConsistentRead=True)
        return _user(resp["Item"]) if "Item" in resp else None

    def ensure_user(self, user: User, openid: str, *, keep_name: bool = False) -> User:
        """Create the user on first login; afterwards keep her record and refresh role and name (the
        name only on creation, with `keep_name`)."""
        name = "if_not_exists(#n, :n)" if keep_name else ":n"
        resp = self.client.update_item(
            TableName=self.table,
            Key=_user_key(user.id),
            UpdateExpression=f"SET #n = {name}, #r = :r, openid = :o, id = :id, "
                             "created_ms = if_not_exists(created_ms, :c)",
            ExpressionAttributeNames={"#n": "name", "#r": "role"},
            ExpressionAttributeValues={
                ":n": av(user.name), ":r": av(user.role), ":o": av(openid), ":id": av(user.id),
                ":c": av(user.created_ms),
            },
            ReturnValues="ALL_NEW",
        )
        return _user(resp["Attributes"])

    def create_consort(self, consort: Consort) -> None:
        try:
            self.client.put_item(
                TableName=self.table,
                Item=codec.to_item({
                    "pk": "CONSORTS", "sk": f"CONSORT#{consort.id}", "id": consort.id, "name": consort.name,
                    "looks": consort.looks, "talent": consort.talent, "favor": consort.favor, "power": consort.power,
                    "maids": dict(consort.maids), "created_ms": consort.created_ms,
                }),
                ConditionExpression="attribute_not_exists(pk)",
            )
        except ClientError as e:
            if error_code(e) == "ConditionalCheckFailedException":
                raise Conflict("这个妃子已存在", code="CONSORT_EXISTS") from e
            raise

    def get_consort(self, cid: str) -> Consort:
        resp = self.client.get_item(TableName=self.table, Key=_consort_key(cid), ConsistentRead=True)
        if "Item" not in resp:
            raise NotFound("找不到这位妃子", code="CONSORT_NOT_FOUND")
        return _consort(resp["Item"])

    def get_consorts(self, cids: list[str]) -> dict[str, Consort]:
        if not cids:
            return {}
        resp = self.client.batch_get_item(RequestItems={
            self.table: {"Keys": [_consort_key(c) for c in dict.fromkeys(cids)], "ConsistentRead": True}
        })
        found = {c.id: c for c in map(_consort, resp.get("Responses", {}).get(self.table, []))}
        # A batch may return some keys as unprocessed under load: fetch those one by one.
        for key in resp.get("UnprocessedKeys", {}).get(self.table, {}).get("Keys", []):
            c = self.get_consort(key["sk"]["S"].removeprefix("CONSORT#"))
            found[c.id] = c
        return found

    def list_consorts(self) -> list[Consort]:
        items = self._query_all(
            KeyConditionExpression="pk = :p", ExpressionAttributeValues={":p": av("CONSORTS")},
        )
        return [_consort(i) for i in items]

    def claim_consort(self, cid: str, user: User) -> None:
        """One 妃子 per user and one owner per 妃子, both guarded in one transaction (retry-safe)."""
        try:
            self.client.transact_write_items(TransactItems=[
                {"Update": {
                    "TableName": self.table, "Key": _consort_key(cid),
                    "UpdateExpression": "SET #o = :u, owner_name = :n",
                    "ConditionExpression": "attribute_exists(pk) AND (attribute_not_exists(#o) OR #o = :u)",
                    "ExpressionAttributeNames": {"#o": "owner"},
                    "ExpressionAttributeValues": {":u": av(user.id), ":n": av(user.name)},
                }},
                {"Update": {
                    "TableName": self.table, "Key": _user_key(user.id),
                    "UpdateExpression": "SET consort = :c",
                    "ConditionExpression": "attribute_exists(pk) AND (attribute_not_exists(consort) OR consort = :c)",
                    "ExpressionAttributeValues": {":c": av(cid)},
                }},
            ])
        except ClientError as e:
            if error_code(e) != "TransactionCanceledException":
                raise
            reasons = [r.get("Code") for r in e.response.get("CancellationReasons", [])]
            if reasons and reasons[0] == "ConditionalCheckFailed":
                self.get_consort(cid)  # NotFound if it does not exist
                raise Conflict("这位妃子已被他人认领", code="CONSORT_TAKEN") from e
            if len(reasons) > 1 and reasons[1] == "ConditionalCheckFailed":
                raise Conflict("你已经认领了一位妃子", code="ALREADY_HAS_CONSORT") from e
            raise Conflict("认领冲突，请重试", code="CLAIM_CONFLICT") from e

    def grant_maid(self, cid: str, card: str, level: int) -> Consort:
        try:
            resp = self.client.update_item(
                TableName=self.table, Key=_consort_key(cid),
                UpdateExpression="SET maids.#c = :l",
                ConditionExpression="attribute_exists(pk)",
                ExpressionAttributeNames={"#c": card},
                ExpressionAttributeValues={":l": av(level)},
                ReturnValues="ALL_NEW",
            )
        except ClientError as e:
            if error_code(e) == "ConditionalCheckFailedException":
                raise NotFound("找不到这位妃子", code="CONSORT_NOT_FOUND") from e
            raise
        return _consort(resp["Attributes"])

    def get_open_games(self) -> dict[str, bool] | None:
        resp = self.client.get_item(TableName=self.table, Key={"pk": av("SETTINGS"), "sk": av("MODES")})
        return codec.from_item(resp["Item"])["open"] if "Item" in resp else None

    def update_open_games(self, changes: dict[str, bool]) -> dict[str, bool]:
        key = {"pk": av("SETTINGS"), "sk": av("MODES")}
        names = {"#open": "open", **{f"#g{i}": game for i, game in enumerate(changes)}}
        values = {f":v{i}": av(on) for i, on in enumerate(changes.values())}
        for _ in range(2):  # the item may be created by another admin between the two writes
            try:
                resp = self.client.update_item(
                    TableName=self.table, Key=key, ConditionExpression="attribute_exists(#open)",
                    UpdateExpression="SET " + ", ".join(f"#open.#g{i} = :v{i}" for i in range(len(changes))),
                    ExpressionAttributeNames=names, ExpressionAttributeValues=values, ReturnValues="ALL_NEW",
                )
                stored: dict[str, bool] = codec.from_item(resp["Attributes"])["open"]
                return stored
            except ClientError as e:
                if error_code(e) != "ConditionalCheckFailedException":
                    raise
            try:
                self.client.put_item(TableName=self.table, ConditionExpression="attribute_not_exists(pk)",
                                     Item=codec.to_item({"pk": "SETTINGS", "sk": "MODES", "open": changes}))
                return dict(changes)
            except ClientError as e:
                if error_code(e) != "ConditionalCheckFailedException":
                    raise
        raise StaleVersion()
