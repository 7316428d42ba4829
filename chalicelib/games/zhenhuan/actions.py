"""Storyteller actions of 血染甄嬛传: a union on `type`. Seats are 0-based."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter

from chalicelib.games.zhenhuan.events import Answer
from chalicelib.games.zhenhuan.roles import Alignment
from chalicelib.games.zhenhuan.state import StatusKind


class _A(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


# --- setup ----------------------------------------------------------------------------------------
class Reroll(_A):
    """Redraw every role and the bluffs with the seeded generator."""

    type: Literal["reroll"] = "reroll"


class Assign(_A):
    """Hand-pick: give `seat` the role; a seat already holding it gets this seat's old role (swap)."""

    type: Literal["assign"] = "assign"
    seat: int
    role: str


class SetBluffs(_A):
    type: Literal["set_bluffs"] = "set_bluffs"
    roles: tuple[str, ...]


class SetTraveller(_A):
    """A traveller's public identity (picked by the player), secret alignment and sex."""

    type: Literal["set_traveller"] = "set_traveller"
    seat: int
    identity: str = Field(min_length=1, max_length=20)
    alignment: Alignment = Alignment.GOOD
    female: bool = False


class Begin(_A):
    """Lock the setup and start the first night."""

    type: Literal["begin"] = "begin"


# --- night ----------------------------------------------------------------------------------------
class NightStep(_A):
    """Resolve the current night step. `targets` fill the step's slots in order (null = none).
    `answer` is what the storyteller told the player (default: the true answer). `skip` passes the
    step without using it (a disabled step is passed with or without `skip`)."""

    type: Literal["night_step"] = "night_step"
    step: str
    targets: tuple[int | None, ...] = ()
    answer: Answer | None = None
    skip: bool = False


class Dawn(_A):
    """天亮: apply the night's deaths together; steps not done yet are skipped."""

    type: Literal["dawn"] = "dawn"


# --- day ------------------------------------------------------------------------------------------
class Nominate(_A):
    type: Literal["nominate"] = "nominate"
    nominator: int
    nominee: int


class Vote(_A):
    """The hands raised on the open nomination."""

    type: Literal["vote"] = "vote"
    votes: tuple[int, ...]


class Execute(_A):
    """处决 (at most one a day): the chopping block, or a forced execution (纯元皇后, 太后, 齐妃)."""

    type: Literal["execute"] = "execute"
    seat: int


class Dusk(_A):
    """入夜. With `execute_block`, the player on the chopping block is executed first if nobody was."""

    type: Literal["dusk"] = "dusk"
    execute_block: bool = True


class Accuse(_A):
    """祺贵人 检举: `by` says `target` is `role`."""

    type: Literal["accuse"] = "accuse"
    by: int
    target: int
    role: str


class Silence(_A):
    """齐妃: 翠果，打烂她的嘴."""

    type: Literal["silence"] = "silence"
    by: int
    target: int


class Toast(_A):
    """敦亲王: 给本王炫一个 (the target is drunk for a day)."""

    type: Literal["toast"] = "toast"
    by: int
    target: int


class ForceExecution(_A):
    """太后: after a nomination's vote, force the nominee's execution (once a game)."""

    type: Literal["force_execution"] = "force_execution"
    by: int
    nominee: int


class Drunk(_A):
    """「醉酒」 button (day, unlimited): drunk until the start of the next day."""

    type: Literal["drunk"] = "drunk"
    seat: int


# --- any time ---------------------------------------------------------------------------------------
class Kill(_A):
    """「死亡」: in the day the player dies now; at night she dies at dawn with the others."""

    type: Literal["kill"] = "kill"
    seat: int


class SetStatus(_A):
    type: Literal["set_status"] = "set_status"
    seat: int
    status: StatusKind
    until: Literal["dusk", "dawn", "never"] = "dusk"


class ClearStatus(_A):
    type: Literal["clear_status"] = "clear_status"
    seat: int
    status: StatusKind


class SetAlive(_A):
    type: Literal["set_alive"] = "set_alive"
    seat: int
    alive: bool


class SetRole(_A):
    type: Literal["set_role"] = "set_role"
    seat: int
    role: str
    alignment: Alignment | None = None


class SetAlignment(_A):
    type: Literal["set_alignment"] = "set_alignment"
    seat: int
    alignment: Alignment


class SetGhostVote(_A):
    type: Literal["set_ghost_vote"] = "set_ghost_vote"
    seat: int
    has: bool


class DeclareWinner(_A):
    type: Literal["declare_winner"] = "declare_winner"
    winner: Alignment
    reason: str = Field(default="说书人宣布结果", max_length=60)


Action = Annotated[
    Reroll
    | Assign
    | SetBluffs
    | SetTraveller
    | Begin
    | NightStep
    | Dawn
    | Nominate
    | Vote
    | Execute
    | Dusk
    | Accuse
    | Silence
    | Toast
    | ForceExecution
    | Drunk
    | Kill
    | SetStatus
    | ClearStatus
    | SetAlive
    | SetRole
    | SetAlignment
    | SetGhostVote
    | DeclareWinner,
    Field(discriminator="type"),
]
action_adapter: TypeAdapter[Action] = TypeAdapter(Action)
