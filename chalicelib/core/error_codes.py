"""The platform's part of the closed error catalogue: every code the platform (not a game) answers
with, its one HTTP status, its generic Chinese message and what it means. Each game lists its own
codes on its `Game.errors`; `chalicelib.api.catalogue` merges them, serves them at GET /v1/errors,
and the contract's `ErrorOut.code` is the enum of all of them. A test checks that every code raised
anywhere in `chalicelib/` is listed once, with the status of the exception class that raises it."""

from __future__ import annotations

from chalicelib.core.errors import ErrorSpec


def _e(status: int, message: str, description: str) -> ErrorSpec:
    return ErrorSpec(status=status, message=message, description=description)


PLATFORM_ERRORS: dict[str, ErrorSpec] = {
    # -- the request itself ----------------------------------------------------------------------
    "BAD_REQUEST": _e(400, "请求有误", "The request could not be understood (API Gateway's generic 4xx)."),
    "MALFORMED_REQUEST": _e(400, "请求格式有误", "The request's parameters cannot be understood."),
    "MALFORMED_JSON": _e(400, "请求不是合法的 JSON", "The body is not a JSON object."),
    "BAD_CURSOR": _e(400, "分页游标无效，请从第一页重新开始",
                     "A page cursor that this list did not issue (tampered, foreign or garbage)."),
    "VALIDATION_FAILED": _e(422, "提交的内容不符合格式要求",
                            "The JSON parsed but does not fit the schema; `details.errors` lists where."),
    "BAD_ACTION": _e(422, "行动格式有误", "The action does not fit the game's action schema."),
    "BODY_TOO_LARGE": _e(413, "请求内容过大", "The body is larger than 16 KB."),
    "UNSUPPORTED_MEDIA_TYPE": _e(415, "请使用 JSON 格式提交", "The body must be sent as application/json."),
    "METHOD_NOT_ALLOWED": _e(405, "不支持这种请求方法", "The path exists but not with this HTTP method."),
    "NOT_FOUND": _e(404, "没有这个接口", "No such path (or a local-stage-only path on a deployed stage)."),
    "IDEMPOTENCY_KEY_REUSED": _e(422, "这个请求编号已用于另一个请求",
                                 "An Idempotency-Key was sent again with a different body."),
    # -- who is calling --------------------------------------------------------------------------
    "UNAUTHENTICATED": _e(401, "请先登录", "No token was sent."),
    "BAD_TOKEN": _e(401, "登录凭证无效，请重新登录", "The token is malformed, forged or signed by an unknown key."),
    "TOKEN_EXPIRED": _e(401, "登录已过期，请重新登录",
                        "The token expired: refresh it (POST /v1/auth/refresh) or log in again."),
    "BAD_REFRESH_TOKEN": _e(401, "登录已失效，请重新登录", "The refresh token is invalid or expired: log in again."),
    "FORBIDDEN": _e(403, "无权访问", "The caller may not do this (API Gateway's access denied)."),
    "ADMIN_ONLY": _e(403, "只有司礼可以这样做", "Only the 司礼 (admin) may do this."),
    # -- login -----------------------------------------------------------------------------------
    "WECHAT_DISABLED": _e(404, "微信登录未开启", "WeChat login is not configured on this stage."),
    "WECHAT_CODE_MISSING": _e(400, "微信登录码无效，请重新登录", "WeChat refused the wx.login code (40029 / 40163)."),
    "WECHAT_BAD_RESPONSE": _e(503, "微信服务繁忙，请稍后再试", "WeChat answered something we cannot read."),
    "WECHAT_HTTP_ERROR": _e(503, "微信服务繁忙，请稍后再试", "WeChat answered with an HTTP error."),
    "WECHAT_NOT_CONFIGURED": _e(503, "微信服务繁忙，请稍后再试", "This stage has no WeChat app id or secret."),
    "WECHAT_UNREACHABLE": _e(503, "微信服务繁忙，请稍后再试", "WeChat could not be reached in time."),
    "WECHAT_CODE_INVALID": _e(401, "微信登录凭证无效，请重新登录", "WeChat: the wx.login code is invalid (40029)."),
    "WECHAT_CODE_USED": _e(401, "微信登录凭证已使用，请重新登录", "WeChat: the wx.login code was used (40163)."),
    "WECHAT_RATE_LIMITED": _e(429, "登录太频繁，请稍后再试", "WeChat: too many logins (45011)."),
    "WECHAT_USER_BLOCKED": _e(403, "该微信账号存在风险，暂时无法登录", "WeChat risk control refused the user (40226)."),
    "WECHAT_BUSY": _e(503, "微信服务繁忙，请稍后再试", "WeChat is busy (-1)."),
    "WECHAT_ERROR": _e(503, "微信登录失败，请稍后再试", "WeChat answered an error we do not know."),
    "UPSTREAM_UNAVAILABLE": _e(503, "微信服务繁忙，请稍后再试", "A service we call failed; retry later."),
    # -- accounts and 妃子 ------------------------------------------------------------------------
    "USER_NOT_FOUND": _e(404, "找不到这个用户", "No such user."),
    "CONSORT_NOT_FOUND": _e(404, "找不到这位妃子", "No such 妃子."),
    "CONSORT_EXISTS": _e(409, "这个妃子已存在", "A 妃子 with this id exists already."),
    "CONSORT_TAKEN": _e(409, "这位妃子已被他人认领", "Another player claimed this 妃子."),
    "ALREADY_HAS_CONSORT": _e(409, "你已经认领了一位妃子", "Each player claims one 妃子."),
    "CLAIM_CONFLICT": _e(409, "认领冲突，请重试", "A concurrent claim changed the 妃子 or the user; retry."),
    "CARD_NOT_FOUND": _e(404, "没有这张宫女卡", "No such 宫女 card in the catalogue."),
    "BAD_LEVEL": _e(422, "宫女等级超出范围", "A 宫女 level outside the allowed range."),
    "NO_CONSORT": _e(403, "请先认领一位妃子，才能入局；也可以观战", "This game seats 妃子: claim one first."),
    # -- games and boards ------------------------------------------------------------------------
    "UNKNOWN_GAME": _e(404, "没有这个玩法", "No such game key."),
    "WRONG_FAMILY": _e(404, "这个房间不是这个玩法的房间",
                       "The room exists but belongs to another game family than the path names."),
    "MODE_LOCKED": _e(403, "该玩法暂未开放", "Players may not open this game yet (the 司礼 opens it)."),
    "BOARD_NOT_FOUND": _e(404, "没有这个榜单", "No such board (GET /v1/boards lists them)."),
    "STAGE_NOT_FOUND": _e(404, "没有这个关卡", "No fastest-clear board for this stage."),
    # -- rooms -----------------------------------------------------------------------------------
    "ROOM_NOT_FOUND": _e(404, "找不到这个房间", "No such room."),
    "ROOM_ID_TAKEN": _e(409, "房间号冲突，请重试", "The generated room id exists; retry the create."),
    "ROOM_NOT_OPEN": _e(409, "房间已开战或已关闭", "The room no longer takes players."),
    "ROOM_FULL": _e(409, "房间已满", "Every seat is taken."),
    "HOST_ONLY": _e(403, "只有主持人可以这样做", "Only the room's host (storyteller / tournament 司礼) may do this."),
    "NOT_ACTIVE": _e(409, "房间不在进行中", "The room is not running."),
    "NOTHING_TO_UNDO": _e(409, "没有可以撤销的说书人操作",
                          "The last transition is not a host press the game lets the host take back."),
    "NO_LATE_JOIN": _e(409, "这个玩法开局后不能加入", "The game seats nobody after the start."),
    "NO_SUCH_REQUEST": _e(409, "没有这个入座请求", "The player has not asked to join (or was declined)."),
    "BOTS_NOT_ALLOWED": _e(409, "这个玩法不能用机器人补位", "The game has no bots."),
    "HOST_CANNOT_SIT": _e(409, "主持人不入座", "The host (storyteller / tournament 司礼) does not take a seat."),
    "GAME_STARTED": _e(409, "对局已开始，不能离席", "Seats can only be left before the start."),
    "NOT_CREATOR": _e(403, "只有开房者可以这样做", "Only the room's creator (or host) may do this."),
    "NOT_IN_ROOM": _e(403, "你不在这个房间的座位上", "Only seated players and the host act in a room."),
    "PASSWORD_REQUIRED": _e(403, "这个房间设了暗号", "The room has a 暗号: send it to join or watch."),
    "WRONG_PASSWORD": _e(403, "暗号不对", "The 暗号 is wrong."),
    "PASSWORD_LOCKED": _e(429, "暗号错误次数过多，请十分钟后再试",
                          "Too many wrong 暗号 for this room in the last ten minutes."),
    "NOT_ENOUGH_PLAYERS": _e(409, "人数不足，还不能开战", "Too few seated players to start."),
    "TOO_MANY_PLAYERS": _e(409, "人数超过上限", "More seated players than the game allows."),
    "NOT_STARTED": _e(409, "游戏尚未开始", "The room has not started yet."),
    "GAME_OVER": _e(409, "本局已结束", "The game is over."),
    "NOT_FINISHED": _e(409, "对局结束后才能复盘", "The replay is published when the room is over."),
    # -- moves and actions -----------------------------------------------------------------------
    "STALE_STEP": _e(409, "这一步已经过去了，请刷新",
                     "The action names a step that is over and is not the action recorded for it; "
                     "`details.current_step` is where the room is now."),
    "STEP_AHEAD": _e(409, "房间还没到这一步，请刷新",
                     "The action names a step the room has not reached; `details.current_step` is now."),
    "ALREADY_SUBMITTED": _e(409, "本回合已经落子，不能更改", "A different sealed move was already stored."),
    "ROUND_CLOSED": _e(409, "本回合已结算", "The sealed round closed before this move arrived."),
    "NOT_IN_ROUND": _e(409, "本回合你无需落子", "This seat owes no move in the current round."),
    "NOT_SEALED_PHASE": _e(409, "当前不是落子阶段", "The game is not waiting for sealed moves."),
    "HURRY_NOT_ALLOWED": _e(409, "这个玩法不能催战，到时自动托管", "This game does not allow 催战."),
    "NOT_YOUR_TURN": _e(409, "还没轮到你", "Another seat acts now."),
    "NOT_TURN_BASED": _e(422, "本玩法每回合统一落子结算，没有单步操作", "This game has no turn actions."),
    "NO_SEALED_MOVES": _e(422, "本玩法没有暗选阶段", "This game has no sealed rounds."),
    "NO_TIMEOUT": _e(422, "本玩法没有超时处理", "This game sets no turn deadlines."),
    "STALE_VERSION": _e(409, "房间状态已变化，请刷新后重试", "A concurrent change won; re-read and retry."),
    "CONFLICT": _e(409, "当前状态不允许此操作", "The current state does not allow this."),
    "ILLEGAL_ACTION": _e(422, "不符合规则的操作", "Against the rules of the game in its current state."),
    # -- capacity and faults ---------------------------------------------------------------------
    "RATE_LIMITED": _e(429, "操作太频繁，请稍后再试", "Too many requests; wait for `Retry-After` seconds."),
    "BUSY": _e(429, "服务繁忙，请稍后再试", "The table is throttling; retry after `Retry-After` seconds."),
    "UNAVAILABLE": _e(503, "服务暂时不可用，请稍后再试",
                      "A storage fault survived our retries; nothing was half-written. Retry after `Retry-After`."),
    "MISCONFIGURED": _e(503, "服务暂时不可用，请稍后再试", "The deployment is missing a setting or secret."),
    "INTERNAL_ERROR": _e(500, "服务器开小差了，请稍后再试", "A bug: it is logged with the request id."),
}
