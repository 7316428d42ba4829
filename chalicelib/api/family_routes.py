"""The per-game API: one literal path per game family (/v1/games/shengong/…, /v1/games/baohuang/…,
/v1/games/zhenhuan/…), so the contract gives each family its own typed action, view, report lines,
results and replay, and a client generated from it cannot send one game's move to another's room.

The routes are made from the registry's families at import; no game module is imported until a
request (or the contract generator) needs it."""

from __future__ import annotations

from typing import Any

from chalice import Blueprint
from pydantic import Field

from chalicelib.api.room_routes import ack
from chalicelib.api.routing import idempotency_key, route
from chalicelib.api.schemas import (
    ActBody,
    ActViewOut,
    AdmitBody,
    Body,
    CatalogueOut,
    CheckBody,
    CheckOut,
    ReplayOut,
    ReportsOut,
    ResultsOut,
    RoomSummaryOut,
    RoomViewOut,
)
from chalicelib.core.identity import Caller
from chalicelib.games import CATALOGUE_FAMILIES, LATE_JOIN_FAMILIES, families, get_game
from chalicelib.rooms import host, play, views
from chalicelib.wiring import services

bp = Blueprint(__name__)


class ViewQuery(Body):
    reports_after: int | None = Field(default=None, ge=-1, description=(
        "同时取 step 大于它的新战报（用上次的 next_after），放在回答的 reports 里"))
    reports_cursor: str | None = Field(default=None, max_length=100,
                                       description="同时取这个游标之后的新战报（上次的 next_cursor；有它时不看 reports_after）")

    def ask(self) -> views.ReportsAsk | None:
        if self.reports_after is None and self.reports_cursor is None:
            return None
        return views.ReportsAsk(after=self.reports_after or 0, cursor=self.reports_cursor)


class ReportsQuery(Body):
    after: int = Field(default=0, ge=-1, description="只返回 step 大于它的战报（用上次的 next_after）")
    limit: int = Field(default=20, ge=1, le=100)
    cursor: str | None = Field(default=None, max_length=100,
                               description="上次的 next_cursor：只读它之后的记录（有它时不看 after）")


def register(family: str, late_join: bool, has_catalogue: bool) -> None:
    base = f"/v1/games/{family}/rooms/{{room_id}}"

    if has_catalogue:
        @route(bp, f"/v1/games/{family}/catalogue", response=CatalogueOut, tag=family, family=family,
               name=f"{family}_catalogue", summary="玩法图鉴（如全部角色与能力原文、夜晚顺序）", errors=(401,))
        def catalogue(caller: Caller) -> dict[str, Any]:
            game = get_game(families()[family][0])
            book = game.catalogue()
            return {"catalogue": book.model_dump(mode="json") if book is not None else {}}

    if late_join:
        @route(bp, f"{base}/admit", "POST", body=AdmitBody, response=RoomSummaryOut, tag=family, family=family,
               name=f"{family}_admit", summary="主持人让请求中途加入的玩家入座（如旅行者），并定下她的身份设置",
               errors=(400, 401, 403, 404, 409, 413, 422))
        def admit(caller: Caller, room_id: str, body: AdmitBody) -> views.RoomView:
            deps = services().room_deps()
            views.family_room(deps, room_id, family)
            room = host.admit(deps, caller, room_id, body.user, body.details)
            return views.render_view(deps, caller, room, with_game=False)

    @route(bp, base, query=ViewQuery, response=RoomViewOut, tag=family, etag=True, family=family,
           name=f"{family}_view", errors=(400, 401, 403, 404, 422),
           summary="房间与局面（按观看者投影）。带 If-None-Match 轮询，未变化返回 304；带 reports_after 时一并取新战报")
    def view(caller: Caller, room_id: str, query: ViewQuery) -> views.RoomView:
        return views.room_view(services().room_deps(), caller, room_id, family, query.ask())

    @route(bp, f"{base}/actions", "POST", body=ActBody, query=ViewQuery, response=ActViewOut, tag=family,
           family=family, name=f"{family}_act", headers=("Idempotency-Key",),
           summary=("落子 / 行动（同一 step 的同一行动重试是安全的；看不到 step 的玩家带 Idempotency-Key 重试安全）；"
                    "回答带行动后的视图（带 reports_after 时含新战报）"),
           errors=(400, 401, 403, 404, 409, 413, 422))
    def act(caller: Caller, room_id: str, body: ActBody, query: ViewQuery) -> dict[str, Any]:
        """In a sealed round the move is stored hidden and the round settles when every seat it waits
        for has moved; in turn-based and storyteller games the action applies at once. The answer
        carries her view after it, as GET with the same query would (a sealed move is not announced on
        the socket, and her own action's notice names a version her screen then holds: without it,
        and the round's reports in it, her screen would have to ask again)."""
        deps = services().room_deps()
        ask = query.ask()
        outcome = play.act(deps, caller, room_id, body.step, body.action, family,
                           precheck=lambda room, game, actor: views.check_reports_ask(room, game, actor,
                                                                                       caller.user_id, ask),
                           request_key=idempotency_key(bp.current_request))
        seen = views.render_view(deps, caller, outcome.room, reports=ask, settle=False, moves=outcome.moves)
        return {**ack(outcome, caller), "view": seen.body, "view_etag": seen.etag}

    @route(bp, f"{base}/check", "POST", body=CheckBody, response=CheckOut, tag=family, family=family,
           name=f"{family}_check", summary="试问：这个行动现在合法吗？（不提交；不合法时给出原因）",
           errors=(400, 401, 403, 404, 409, 413, 422))
    def check(caller: Caller, room_id: str, body: CheckBody) -> dict[str, Any]:
        checked = play.check_only(services().room_deps(), caller, room_id, body.action, family)
        refusal = checked.refusal
        if refusal is None:
            return {"legal": True, "code": None, "message": None, "preview": checked.preview}
        return {"legal": False, "code": refusal.code, "message": refusal.message, "preview": None}

    @route(bp, f"{base}/reports", query=ReportsQuery, response=ReportsOut, tag=family, family=family,
           name=f"{family}_reports", summary="战报（与你有关的全文，其余匿名播报）", errors=(400, 401, 403, 404, 422))
    def reports(caller: Caller, room_id: str, query: ReportsQuery) -> dict[str, Any]:
        return views.reports(services().room_deps(), caller, room_id, family, query.after, query.limit,
                             query.cursor)

    @route(bp, f"{base}/result", response=ResultsOut, tag=family, family=family, name=f"{family}_result",
           summary="终局结果（保皇每副牌一条）", errors=(401, 403, 404))
    def result(caller: Caller, room_id: str) -> dict[str, Any]:
        return views.results(services().room_deps(), caller, room_id, family)

    @route(bp, f"{base}/replay", response=ReplayOut, tag=family, family=family, name=f"{family}_replay",
           summary="复盘：终局后公布种子与完整行动记录，可据此复算（以妃子入局的玩法：同桌与司礼）", errors=(401, 403, 404, 409))
    def replay(caller: Caller, room_id: str) -> dict[str, Any]:
        return views.replay(services().room_deps(), caller, room_id, family)


for _family in families():
    register(_family, _family in LATE_JOIN_FAMILIES, _family in CATALOGUE_FAMILIES)
