"""Leaderboards: top N and "my rank" per board, and the 宫斗杀 fastest-clear board per stage."""

from __future__ import annotations

from typing import Any

from chalice import Blueprint
from pydantic import Field

from chalicelib.api.routing import route
from chalicelib.api.schemas import BoardOut, BoardsOut, Body, FastestOut, MyRankOut
from chalicelib.core.errors import NotFound
from chalicelib.core.identity import Caller
from chalicelib.domain.model import Competition
from chalicelib.records import service as records
from chalicelib.wiring import services

bp = Blueprint(__name__)


class LimitQuery(Body):
    limit: int = Field(default=20, ge=1, le=100)


class FastestQuery(LimitQuery):
    competition: Competition = Field(default=Competition.FREE, description="自由赛 free 或锦标赛 tournament：两榜不相混")


@route(bp, "/v1/boards", response=BoardsOut, tag="records", summary="所有榜单（名字即 /v1/boards/{board} 的 board）",
       errors=(401,))
def list_boards(caller: Caller) -> dict[str, Any]:
    return records.board_list()


@route(bp, "/v1/boards/{board}", query=LimitQuery, response=BoardOut, tag="records",
       summary="排行榜（自由赛、锦标赛、卡牌局等分榜，互不相混）", errors=(400, 401, 404, 422))
def board_top(caller: Caller, board: str, query: LimitQuery) -> dict[str, Any]:
    return records.top(services().records, board, query.limit)


@route(bp, "/v1/boards/{board}/me", response=MyRankOut, tag="records", summary="我在此榜的名次",
       errors=(401, 404))
def board_me(caller: Caller, board: str) -> dict[str, Any]:
    svc = services()
    return records.my_rank(svc.records, svc.accounts, caller, board)


@route(bp, "/v1/stages/{stage}/fastest", query=FastestQuery, response=FastestOut, tag="records",
       summary="宫斗杀最快击杀榜（回合少者在前，同回合先通关者在前）", errors=(400, 401, 404, 422))
def fastest(caller: Caller, stage: str, query: FastestQuery) -> dict[str, Any]:
    # only ASCII digits, and few of them: "²", "①" or a 4,301-digit number is no stage (and no crash)
    if not (stage.isascii() and stage.isdigit() and len(stage) <= 3):
        raise NotFound("没有这个关卡", code="STAGE_NOT_FOUND")
    return records.fastest(services().records, int(stage), query.limit, query.competition)
