"""Request and response bodies: the contract of the HTTP API (openapi/ is generated from these).

Requests are validated with these models; in tests every response is validated against its model
too, so the published spec cannot drift from what the service returns.
"""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field


# defer_build: validators are built on first use, not at import (cold starts import every route)
class Body(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


class Out(BaseModel):
    model_config = ConfigDict(extra="forbid", defer_build=True)


# ---- errors -------------------------------------------------------------------------------------

class ErrorOut(Out):
    """Every error, whatever the status: `code` is stable English, `message` is for the player."""

    code: str
    message: str
    details: dict[str, Any] | None = None


# ---- auth ---------------------------------------------------------------------------------------

class WeChatLogin(Body):
    code: str = Field(min_length=1, max_length=128, description="wx.login() 返回的 code")
    nickname: str | None = Field(default=None, min_length=1, max_length=20)


class DevLogin(Body):
    name: str = Field(min_length=1, max_length=20, pattern=r"^[^\s:]+$")


class UserOut(Out):
    id: str
    name: str
    role: str
    consort: str | None


class LoginOut(Out):
    token: str
    expires_at: int
    user: UserOut


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
    maids: list[MaidOut]
    cleared_stages: list[int]


class MeOut(Out):
    user: UserOut
    consort: ConsortOut | None


class ConsortCreate(Body):
    name: str = Field(min_length=1, max_length=12)
    looks: int = Field(ge=0, le=100, description="容貌")
    talent: int = Field(ge=0, le=100, description="才情")
    favor: int = Field(ge=0, le=100, description="圣宠")
    power: int = Field(ge=0, le=100, description="权势")


class ConsortList(Out):
    consorts: list[ConsortOut]


class MaidGrant(Body):
    card: str = Field(min_length=1, max_length=32)
    level: int = Field(ge=1, le=5)


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
    key: str
    title: str
    min_seats: int
    max_seats: int
    open: bool
    locked_reason: str | None
    host_runs: bool
    auto_start: bool
    options_schema: dict[str, Any]
    fixed_rules: dict[str, Any] = Field(description="开房时只读展示的固定规则（如回合上限）")


class GamesOut(Out):
    games: list[GameOut]


class ModesUpdate(Body):
    open: dict[str, bool] = Field(description="玩法 key -> 是否开放")


# ---- rooms --------------------------------------------------------------------------------------

class RoomCreate(Body):
    game: str = Field(min_length=1, max_length=32)
    options: dict[str, Any] = Field(default_factory=dict, description="玩法设置，见 /v1/games 的 options_schema")
    password: str | None = Field(default=None, min_length=1, max_length=16, description="房间暗号")


class PasswordBody(Body):
    password: str | None = Field(default=None, min_length=1, max_length=16)


class StepBody(Body):
    step: int = Field(ge=0, description="客户端看到的房间 step；重试同一请求是安全的")


class ActBody(StepBody):
    action: dict[str, Any] = Field(description="玩法的行动（见各玩法的 action 结构）")


class SeatOut(Out):
    seat: int
    name: str
    consort: str | None
    is_me: bool


class RoomOut(Out):
    id: str
    game: str
    title: str
    status: str
    version: int | None = Field(description="房间版本；隐藏步数的玩法（血染甄嬛传）对玩家为 null")
    step: int | None = Field(description="落子/行动时带上的 step；隐藏步数的玩法对玩家为 null")
    competition: str
    creator_name: str
    is_creator: bool
    hosted: bool
    seats: list[SeatOut]
    max_seats: int
    min_seats: int
    has_password: bool
    options: dict[str, Any]
    seed_hash: str | None = Field(description="本局随机种子的 SHA-256，开局即公布")
    seed: str | None = Field(description="随机种子（十六进制），终局后公布，可据此与行动记录复算全局")
    results: list[str]


class ViewerOut(Out):
    role: str
    seat: int | None


class PendingOut(Out):
    kind: str
    seats: list[int]
    deadline_ms: int | None
    label: str
    submitted: list[int] | None = None
    my_move: dict[str, Any] | None = None


class RoomViewOut(Out):
    room: RoomOut
    viewer: ViewerOut
    pending: PendingOut | None
    game: dict[str, Any] | None = Field(description="该玩法为此观看者投影的局面")


class LobbyRoomOut(Out):
    id: str
    game: str
    title: str
    status: str
    seat_count: int
    max_seats: int
    creator_name: str
    has_password: bool
    competition: str


class RoomListOut(Out):
    rooms: list[LobbyRoomOut]
    cursor: str | None


class ActOut(Out):
    accepted: bool
    settled: bool = Field(description="本次请求是否结算/推进了对局")
    step: int
    version: int
    status: str


class ReportOut(Out):
    step: int = Field(description="转换的 step（隐藏步数的玩法中为该观看者自己的战报序号）")
    label: str
    kind: str
    trigger: str
    at_ms: int
    lines: list[dict[str, Any]]


class ReportsOut(Out):
    reports: list[ReportOut]
    next_after: int


class ResultsOut(Out):
    room_id: str
    status: str
    results: list[dict[str, Any]]


class ReplayOut(Out):
    room_id: str
    game: str
    seed: str
    seed_hash: str | None
    log: list[dict[str, Any]]


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


class BoardOut(Out):
    board: str
    rows: list[BoardRowOut]


class MyRankOut(Out):
    board: str
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


class ClearRowOut(Out):
    rank: int
    rounds: int
    ended_ms: int
    room: str
    team: list[ClearTeamMemberOut]


class FastestOut(Out):
    stage: int
    rows: list[ClearRowOut]


class HealthOut(Out):
    ok: bool
    stage: str
