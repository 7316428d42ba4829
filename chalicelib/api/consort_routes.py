"""妃子 (consorts): the 司礼 creates them and grants 宫女; a player claims one (认领)."""

from __future__ import annotations

from typing import Any

from chalice import Blueprint

from chalicelib.accounts import service as accounts
from chalicelib.api.routing import idempotency_key, route
from chalicelib.api.schemas import (
    ConsortCreate,
    ConsortList,
    ConsortOut,
    ConsortRecordsOut,
    MaidCatalogueOut,
    MaidGrant,
)
from chalicelib.core.identity import Caller
from chalicelib.records import service as records
from chalicelib.wiring import services

bp = Blueprint(__name__)


@route(bp, "/v1/consorts", response=ConsortList, tag="consorts", summary="妃子名册", errors=(401,))
def list_consorts(caller: Caller) -> dict[str, Any]:
    return {"consorts": accounts.list_consorts(services().account_deps(), caller)}


@route(bp, "/v1/consorts/{consort_id}", response=ConsortOut, tag="consorts", summary="一位妃子",
       errors=(401, 404))
def get_consort(caller: Caller, consort_id: str) -> dict[str, Any]:
    return accounts.get_consort(services().account_deps(), caller, consort_id)


@route(bp, "/v1/consorts/{consort_id}/claim", "POST", response=ConsortOut, tag="consorts",
       summary="认领妃子（每人一位；重复认领自己的是安全的重试）", errors=(401, 404, 409))
def claim_consort(caller: Caller, consort_id: str) -> dict[str, Any]:
    return accounts.claim_consort(services().account_deps(), caller, consort_id)


@route(bp, "/v1/consorts/{consort_id}/records", response=ConsortRecordsOut, tag="records",
       summary="群芳战绩：一位妃子在各榜的累计战绩与名次", errors=(401, 404))
def consort_records(caller: Caller, consort_id: str) -> dict[str, Any]:
    services().accounts.get_consort(consort_id)  # 404 CONSORT_NOT_FOUND: no empty record for a name never made
    return records.consort_records(services().records, consort_id)


@route(bp, "/v1/maids", response=MaidCatalogueOut, tag="consorts", summary="宫女图鉴", errors=(401,))
def maid_catalogue(caller: Caller) -> dict[str, Any]:
    from chalicelib.games.shengong.cards import CATALOGUE

    return {"cards": [{**c.model_dump(mode="json"), "slot": c.slot.value, "in_deck": c.in_deck}
                      for c in CATALOGUE.values()]}


@route(bp, "/v1/admin/consorts", "POST", body=ConsortCreate, response=ConsortOut, tag="admin",
       headers=("Idempotency-Key",), summary="司礼：新建妃子（带 Idempotency-Key 重试安全）",
       errors=(400, 401, 403, 409, 422))
def create_consort(caller: Caller, body: ConsortCreate) -> dict[str, Any]:
    key = idempotency_key(bp.current_request)
    return accounts.create_consort(services().account_deps(), caller, body.name, body.looks, body.talent,
                                   body.favor, body.power, key)


@route(bp, "/v1/admin/consorts/{consort_id}/maids", "POST", body=MaidGrant, response=ConsortOut, tag="admin",
       summary="司礼：授予宫女（同一宫女再次授予即设定等级）", errors=(400, 401, 403, 404, 422))
def grant_maid(caller: Caller, consort_id: str, body: MaidGrant) -> dict[str, Any]:
    return accounts.grant_maid(services().account_deps(), caller, consort_id, body.card, body.level)
