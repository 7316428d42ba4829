"""Request and response bodies: the contract of the HTTP API (openapi/ is generated from these).

Requests are validated with these models; in tests every response is validated against its model
too, so the published spec cannot drift from what the service returns.
"""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt

from chalicelib.api.fields import ConsortName, PersonName
from chalicelib.core.game import ABSENT_ROUNDS, BotLevel, PendingKind, ViewerRole
from chalicelib.domain.model import Competition, LogKind, RoomStatus, Trigger


# defer_build: validators are built on first use, not at import (cold starts import every route)
class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


# ---- errors -------------------------------------------------------------------------------------

class ErrorOut(Out):
    """Every error, whatever the status: `code` is stable English (one of GET /v1/errors), `message`
    is for the player."""

    code: str = Field(json_schema_extra={"x-slot": "error_code"})
    message: str
    details: dict[str, Any] | None = None


class ErrorSpecOut(Out):
    code: str
    status: int
    message: str = Field(description="通用中文提示（具体错误可能说得更细）")
    description: str = Field(description="English: what it means for a client")


class ErrorCatalogueOut(Out):
    errors: list[ErrorSpecOut]


# ---- auth ---------------------------------------------------------------------------------------

class WeChatLogin(Body):
    code: str = Field(min_length=1, max_length=128, pattern=r"^[\x21-\x7e]+$", description="wx.login() 返回的 code")
    nickname: PersonName | None = None


class DevLogin(Body):
    name: PersonName


class UserOut(Out):
    id: str
    name: str
    role: str
    consort: str | None


class LoginOut(Out):
    token: str = Field(description="放在 Authorization 头里；2 小时有效")
    expires_at: int = Field(description="token 过期时刻（epoch 秒）")
    refresh_token: str = Field(description="token 过期后用它换新的一对（POST /v1/auth/refresh）；7 天有效")
    refresh_expires_at: int
    user: UserOut


class RefreshBody(Body):
    refresh_token: str = Field(min_length=1, max_length=2048)


# ---- consorts -----------------------------------------------------------------------------------

class MaidOut(Out):
    card: str
    level: int


class ConsortOut(Out):
    id: str
    name: str
    looks: int
    talent: int
    favor: int
    power: int
    claimed: bool
    owner_name: str | None
    mine: bool
    maids: list[MaidOut] | None = Field(description="她的宫女：只有本人与司礼看得到（对局里是她的暗牌与被动加成），他人为 null")
    cleared_stages: list[int]


class MeOut(Out):
    user: UserOut
    consort: ConsortOut | None


class ConsortCreate(Body):
    name: ConsortName
    looks: StrictInt = Field(ge=0, le=100, description="容貌")
    talent: StrictInt = Field(ge=0, le=100, description="才情")
    favor: StrictInt = Field(ge=0, le=100, description="圣宠")
    power: StrictInt = Field(ge=0, le=100, description="权势")


class ConsortList(Out):
    consorts: list[ConsortOut]


class MaidGrant(Body):
    card: str = Field(min_length=1, max_length=32, pattern=r"^[a-z0-9_]+$")
    level: StrictInt = Field(ge=1, le=5)


class MaidCardOut(Out):
    id: str
    maid: str
    skill: str
    rarity: str
    slot: str
    effect: str
    per_level: int
    text: str
    in_deck: bool


class MaidCatalogueOut(Out):
    cards: list[MaidCardOut]


# ---- games and modes ----------------------------------------------------------------------------

class GameOut(Out):
    key: str = Field(json_schema_extra={"x-slot": "game_key"})
    family: str = Field(description="契约族：该玩法的房间、行动与局面接口在 /v1/games/{family}/… 之下",
                        json_schema_extra={"x-slot": "family"})
    title: str
    min_seats: int
    max_seats: int
    open: bool = Field(description="玩家可否开这个玩法的房间（司礼在后台开/封）")
    locked_reason: str | None
    can_open: bool = Field(description="此刻的调用者可否开房：开放的玩法人人可开；司礼任何玩法都可开（锦标赛）")
    host_runs: bool
    auto_start: bool
    options_schema: dict[str, Any] = Field(description=(
        "开房设置的 JSON Schema；某项的 x-labels 为各选项的名称，x-locked 为此刻的调用者还开不了的选项及缘由"
        "（如宫斗杀尚未解锁的关卡：选项值 → 开房时会得到的拒绝原文），未列出的选项皆可开"))
    fixed_rules: dict[str, Any] = Field(description="开房时只读展示的固定规则（如回合上限）")
    bots: bool = Field(description="可否用机器人补位")
    needs_consort: bool = Field(description="入席须先认领一位妃子（以妃子入局；没有时只能观战）；司礼开房主持、不入席，为 false")


class GamesOut(Out):
    games: list[GameOut]


class GuideSectionOut(Out):
    title: str
    lines: list[str] = Field(description="每行一条规则，按玩家读的顺序")


class GuideOut(Out):
    key: str = Field(json_schema_extra={"x-slot": "game_key"})
    title: str
    sections: list[GuideSectionOut]


class ModesUpdate(Body):
    open: dict[str, bool] = Field(description="玩法 key -> 是否开放")


# ---- rooms --------------------------------------------------------------------------------------
# Fields marked with an "x-slot" are game-specific: the contract has one copy of the model per game
# family (e.g. ShengongRoomViewOut) with the slot replaced by that family's own schema, so a client
# generated from it types every game exactly (see infra/openapi_gen.py and docs/architecture.md).

def _slot(name: str, description: str) -> Any:
    return Field(description=description, json_schema_extra={"x-slot": name})


class RoomCreate(Body):
    game: str = _slot("game_key", "玩法 key，见 GET /v1/games")
    options: dict[str, Any] = Field(default_factory=dict, description="玩法设置，见 /v1/games 的 options_schema",
                                    json_schema_extra={"x-slot": "options"})
    password: str | None = Field(default=None, min_length=1, max_length=16, description="房间暗号")


class PasswordBody(Body):
    password: str | None = Field(default=None, min_length=1, max_length=16)


class AgainBody(Body):
    stage: StrictInt | None = Field(default=None, ge=1, le=99, description=(
        "再战的关卡（宫斗杀：再战此关、或挑战新解锁的关卡）；不带则用这一局的设置"))


class AgainOut(Out):
    stage: int | None = Field(description="这间再战房的关卡；没有关卡的玩法为 null（同样的设置）")
    room_id: str
    by: str = Field(description="谁开的（她在这一局的名字）")
    by_me: bool = Field(description="是她自己开的（再点即回到这间房）")


class StepBody(Body):
    step: StrictInt = Field(ge=0, description="客户端看到的房间 step；重试同一请求是安全的")


class ActBody(Body):
    step: StrictInt | None = Field(default=None, ge=0, description=(
        "行动所属的 step（房间视图里的 room.step）；重发同一请求是安全的。"
        "只有房间对你隐藏步数时（血染甄嬛传的玩家）才可省略"))
    action: dict[str, Any] = _slot("action", "该玩法的一个行动")


class SeatOut(Out):
    seat: int
    name: str
    consort: str | None
    is_me: bool
    bot: BotLevel | None = Field(description="机器人座位（简单 simple / 进阶 advanced）；真人为 null")


class AdmitBody(Body):
    user: str = Field(min_length=1, max_length=64, description="请求入座者的 user（见 room.requests）")
    details: dict[str, Any] = _slot("admit_details", "该玩法入座时由主持人决定的设置（如旅行者的身份与阵营）")


class UserBody(Body):
    user: str = Field(min_length=1, max_length=64)


class BotsBody(Body):
    level: BotLevel = Field(description="机器人水平：simple 简单（托管的打法），advanced 进阶")
    count: StrictInt | None = Field(default=None, ge=1, le=8, description="补几个；不填则补满空位")
    seated: StrictInt | None = Field(default=None, ge=0, le=20, description=(
        "你的屏幕上已入座的人数（room.seats 的长度）。带上它，重试时发现这次的机器人已入座，就原样返回房间"))


class HandoverOut(Out):
    seat: int = Field(description="提议交给机器人代打的座位")
    name: str = Field(description="这个座位上的玩家")
    level: BotLevel
    yes: list[int] = Field(description="投同意的座位")
    no: list[int] = Field(description="投不同意的座位")
    voters: int = Field(description="有票的人数：亲自在座的玩家，除了被提议的那位；过半同意即交出，半数不同意即作罢")
    can_vote: bool = Field(description="你有票（被提议的本人没有：她一行动，座位就回到她手里）")
    my_vote: Literal["yes", "no"] | None = Field(description="你投的票（可改，直到投票结束）")
    opened_ms: int


class HandoverBody(Body):
    seat: StrictInt = Field(ge=0, le=31)
    level: BotLevel


class VoteBody(Body):
    yes: bool
    seat: StrictInt | None = Field(default=None, ge=0, le=19, description=(
        "投票针对的座位（handover.seat）。带上它，投票结束后的重试返回房间而不是 NO_HANDOVER"))


class JoinRequestOut(Out):
    user: str
    name: str
    at_ms: int


class UndoOut(Out):
    disabled: str | None = Field(description="撤销此刻为何不可用（如「还没有可以撤销的操作」）；null：可以撤销上一步")


class LeaveEffectOut(Out):
    closes: bool = Field(description="她一走房间就散了（没有别人、或只剩机器人）")
    passes_to: str | None = Field(description="她是房主时，房主交给谁（下一位在座的人）")


class RoomOut(Out):
    id: str
    code: str | None = Field(description="房号：六位数字，念给朋友、在大厅「输入房号」即可找到本房（开房三日内、对局未结束时才有）",
                             examples=["482913"])
    game: str = _slot("game_key", "玩法 key")
    title: str
    status: RoomStatus
    version: int | None = Field(description="房间版本；隐藏步数的玩法（血染甄嬛传）对玩家为 null")
    step: int | None = Field(description="落子/行动时带上的 step；隐藏步数的玩法对玩家为 null")
    competition: Competition
    creator_name: str
    is_creator: bool
    hosted: bool
    seats: list[SeatOut]
    max_seats: int
    min_seats: int
    has_password: bool
    options: dict[str, Any] = _slot("options", "开房时的玩法设置")
    seed_hash: str | None = Field(description="本局随机种子的 SHA-256，开局即公布")
    seed: str | None = Field(description="随机种子（十六进制），终局后公布，可据此与行动记录复算全局")
    results: list[str]
    requests: list[JoinRequestOut] | None = Field(description="请求中途加入的玩家（只给主持人看；其他人为 null）")
    undo: UndoOut | None = Field(default=None, description=(
        "主持人的「撤销」（POST /v1/rooms/{room_id}/undo）：只给有主持人的房间的主持人，对局进行中才有；其他人为 null"))
    handover: HandoverOut | None = Field(description="进行中的代打投票：把离开的玩家的座位交给机器人")
    handover_offer: list[int] = Field(description=(
        "你此刻可以提议交给机器人代打的座位（POST /v1/rooms/{room_id}/handover）：只给开房者或主持人，"
        f"对局进行中、没有进行中的投票时，玩家已离开（连续 {ABSENT_ROUNDS} 回合未落子，或保皇整局托管）的座位；其他人为空"))
    practice: bool = Field(description="练习局：有机器人在座或曾代打，结果照常显示，但不计入榜单、战绩与最速通关")
    again: list[AgainOut] = Field(description=(
        "这一局结束后，同桌开的再战房（POST /v1/rooms/{room_id}/again 开或加入）；按关卡各一间"))
    awaited: list[str] = Field(description="再战房开局前：上一局同桌（不含机器人）中还没来的人，按她在上一局的名字；其他时候为空")
    board: str | None = Field(description="这个房间的结果计入的榜单（如 cards-free）；不设榜的玩法为 null")
    leave: LeaveEffectOut | None = Field(
        default=None, description="她此刻离席会怎样（开战前、她在座时才有）：房间散场，或房主交给谁")


class ViewerOut(Out):
    role: ViewerRole
    seat: int | None


class PendingOut(Out):
    kind: PendingKind
    seats: list[int]
    deadline_ms: int | None = Field(description="截止时刻（毫秒，服务器时钟）；与 server_time 相减得剩余时间")
    label: str
    clock: str | None = Field(default=None, description="计时的名字：同一个计时内截止时刻不变（如一次投票）")
    submitted: list[int] | None = Field(default=None, description="暗选回合：已落子的席位（只说谁，不说什么）")
    my_move: dict[str, Any] | None = Field(default=None, description="暗选回合：我自己已落的子",
                                           json_schema_extra={"x-slot": "action"})


class RoomSummaryOut(Out):
    """The room without its game: seats, status, whom it waits for (the lobby and waiting room)."""

    room: RoomOut
    viewer: ViewerOut
    pending: PendingOut | None
    server_time: int = Field(description="服务器当前时刻（毫秒），手机据此显示倒计时，不必信任本机时钟")


class RoomViewOut(RoomSummaryOut):
    """The room and the game as this viewer may see it."""

    game: dict[str, Any] | None = _slot("view", "该玩法为此观看者投影的局面（开战前为 null）")
    reports: ReportsOut | None = Field(default=None, description=(
        "带 reports_after（或 reports_cursor）请求时：此后的新战报，与 /reports 的回答相同（一次请求代替两次）；"
        "未带时不出现。有新战报时即使 ETag 未变也返回 200"))


class CatalogueOut(Out):
    catalogue: dict[str, Any] = _slot("catalogue", "该玩法的图鉴")


class RoomCodeOut(Out):
    """Where a 房号 leads: the room's id and game (its page, which asks for the 暗号 if it has one)."""

    room_id: str
    game: str = _slot("game_key", "玩法 key")
    has_password: bool


class LeaveOut(Out):
    room_id: str
    left: bool = Field(description="你已不在这个房间的座位上（重发是安全的）")


class LobbyRoomOut(Out):
    id: str
    game: str = _slot("game_key", "玩法 key")
    title: str
    status: RoomStatus
    seat_count: int
    max_seats: int
    creator_name: str
    has_password: bool
    competition: Competition


class RoomListOut(Out):
    rooms: list[LobbyRoomOut]
    cursor: str | None = Field(description="下一页的游标（不透明、带签名）；没有下一页为 null")


class MyRoomOut(Out):
    room_id: str
    game: str = _slot("game_key", "玩法 key")
    title: str
    status: RoomStatus = Field(description="open（候场）或 active（对局中）：结束的房间不在此列")
    seat: int | None = Field(description="她的座位（0 起）；她主持（说书人、司礼）时为 null")
    hosting: bool = Field(description="她是这个房间的主持人（不入座）")
    seat_count: int
    max_seats: int
    my_turn: bool = Field(description="对局正等她：她的座位在待行动之列，且（密封回合）她尚未出招；主持人不标")


class MyRoomsOut(Out):
    rooms: list[MyRoomOut] = Field(description="她在座或主持、尚未结束的房间：正等她的在前，其余新开的在前（至多 20 间）")


class CheckBody(Body):
    action: dict[str, Any] = _slot("action", "要检查的行动（不会提交）")


class CheckOut(Out):
    legal: bool = Field(description="现在提交会不会被接受")
    code: str | None = Field(description="不被接受时的错误代码（见 GET /v1/errors）",
                             json_schema_extra={"x-slot": "error_code"})
    message: str | None = Field(description="不被接受时给玩家看的原因")
    preview: str | None = Field(default=None, description="说书人：按下后会告诉玩家的话（血染夜晚信息步骤，按所选目标）；其余为 null")


class ActOut(Out):
    accepted: bool
    settled: bool = Field(description="本次请求是否结算/推进了对局")
    step: int | None = Field(description="这次行动所属的 step（重发旧行动时是它当时的 step）；隐藏步数的玩法对玩家为 null")
    current_step: int | None = Field(description="房间现在的 step；隐藏步数的玩法对玩家为 null")
    version: int | None
    status: RoomStatus


class ReportOut(Out):
    step: int = Field(description="转换的 step（隐藏步数的玩法中为该观看者自己的战报序号）")
    label: str
    kind: LogKind
    trigger: Trigger | None
    at_ms: int
    lines: list[dict[str, Any]] = _slot("report_lines", "与你有关的全文，其余匿名播报；每行都有 text")


class ReportsOut(Out):
    reports: list[ReportOut]
    next_after: int = Field(description="下次请求带上 after=它，只取新的战报")
    next_cursor: str | None = Field(description="下次请求带上 cursor=它：只读新的记录（隐藏步数的玩法中是不透明的密文）")


class ActViewOut(ActOut):
    """A game action's answer, with the actor's view after it: her screen needs no second request."""

    view: RoomViewOut = Field(description="行动后你的房间视图（与 GET 该房间的回答相同），手机据此立即刷新")
    view_etag: str = Field(description="这份视图的 ETag：之后轮询时作 If-None-Match")


class SeatResultOut(Out):
    seat: int
    name: str | None
    consort: str | None
    place: int | None
    score: float
    won: bool
    stats: dict[str, float]
    played: bool = Field(default=True, description="她在本局至少亲自落过一次子；否则（全程待机）结果照示，不计入榜单与战绩")


class StageClearOut(Out):
    stage: int
    rounds: int


class OutcomeOut(Out):
    unit: str = Field(description="结束的是什么：game，或保皇的 deal-N")
    reason: str
    results: list[SeatResultOut]
    clear: StageClearOut | None = None
    extra: dict[str, Any] = _slot("outcome_extra", "该玩法的终局细节")


class ResultsOut(Out):
    room_id: str
    status: RoomStatus
    results: list[OutcomeOut]


class LogEntryOut(Out):
    step: int
    kind: LogKind
    label: str
    actor: ViewerOut | None
    action: dict[str, Any] | None = _slot("log_action", "这一步的行动（apply）；中途入座（admit）时为入座者与设置")
    moves: dict[str, dict[str, Any]] | None = _slot("action_map", "暗选回合：席位 -> 行动（只含落了子的席位）")
    at_ms: int
    trigger: Trigger | None
    setup: dict[str, Any] | None = Field(default=None, description="step 0：入局者与设置")
    ply: int | None = Field(default=None, description="这一步在有效历史中的位置（随机数用 Rng(seed, ply)）")
    undoes: int | None = Field(default=None, description="撤销：被撤回的那一步的 step")


class ReplayOut(Out):
    room_id: str
    game: str = _slot("game_key", "玩法 key")
    seed: str
    seed_hash: str | None
    log: list[LogEntryOut]


# ---- records ------------------------------------------------------------------------------------

class RecordOut(Out):
    subject: str | None
    name: str | None
    games: int
    wins: int
    win_rate: float
    kd: float
    avg_damage: float
    kills: float
    deaths: float
    damage: float
    score: float
    title: str


class BoardRowOut(RecordOut):
    rank: int


class BoardInfoOut(Out):
    board: str = Field(json_schema_extra={"x-slot": "board"})
    family: str = Field(description="榜单族（如 coop、melee、cards、baohuang）")
    competition: Competition
    subject: str = Field(description="consort：按妃子记（群芳战绩）；user：按玩家记")


class BoardsOut(Out):
    boards: list[BoardInfoOut]
    stages: list[int] = Field(description="有最快击杀榜的关卡")


class BoardOut(Out):
    board: str = Field(json_schema_extra={"x-slot": "board"})
    rows: list[BoardRowOut]


class MyRankOut(Out):
    board: str = Field(json_schema_extra={"x-slot": "board"})
    rank: int | None
    record: RecordOut | None


class ConsortBoardOut(RecordOut):
    rank: int


class ConsortRecordsOut(Out):
    consort: str
    boards: dict[str, ConsortBoardOut]


class ClearTeamMemberOut(Out):
    seat: int
    name: str
    consort: str | None
    score: float
    played: bool = Field(default=True, description="她在这局里出过手；未出手者（每回合默认待机）照列姓名，但不得战绩与解锁")


class ClearRowOut(Out):
    rank: int
    rounds: int
    ended_ms: int
    room: str
    team: list[ClearTeamMemberOut]


class FastestOut(Out):
    stage: int
    competition: Competition
    rows: list[ClearRowOut]


class HealthOut(Out):
    ok: bool
    stage: str
    checks: dict[str, Literal["ok", "unavailable"]] | None = Field(
        default=None, description="deep=true 时：table、token_keys、admins、wechat 各自能否读到")
