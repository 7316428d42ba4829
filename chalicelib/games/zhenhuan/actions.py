"""Actions of 血染甄嬛传: a union on `type`. Seats are 0-based.

Every action comes from the storyteller, except `nominate` and `vote`, which a player may also send
from her phone for herself (see `game.check`).
"""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import AfterValidator, BaseModel, ConfigDict, Field, TypeAdapter

from chalicelib.core.text import at_most, typed_text
from chalicelib.games.zhenhuan.enums import StatusKind, StepKey, TellCard, Until
from chalicelib.games.zhenhuan.events import Answer
from chalicelib.games.zhenhuan.roles import Alignment, RoleKey

TEXT_MAX = 200

Shown = Annotated[str, AfterValidator(typed_text)]
"""Text the storyteller or a traveller types that players read: nothing hidden or reordered in it.
Each field says its length limit twice: `max_length` on what was sent, `at_most` on the text as kept
(NFC may lengthen it threefold)."""
ShownText = Annotated[Shown, at_most(TEXT_MAX, "文字")]
"""A longer text (a 告知's words, a note, a traveller's ability): at most `TEXT_MAX` as kept."""
ShownLabel = Annotated[Shown, at_most(20, "文字")]
"""A short label (a traveller's identity, a reminder token): at most 20 characters as kept."""


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
    role: RoleKey


class SetBluffs(_A):
    type: Literal["set_bluffs"] = "set_bluffs"
    roles: tuple[RoleKey, ...]


class TravellerDetails(_A):
    """A traveller's public identity and ability (picked by the player), her secret alignment (the
    storyteller's choice) and sex. Also the `admit_model` of a traveller joining the running game."""

    identity: ShownLabel = Field(min_length=1, max_length=20)
    ability: ShownText = Field(default="", max_length=TEXT_MAX)
    alignment: Alignment = Alignment.GOOD
    female: bool = False


class SetTraveller(TravellerDetails):
    type: Literal["set_traveller"] = "set_traveller"
    seat: int


class Begin(_A):
    """Lock the setup and start the first night."""

    type: Literal["begin"] = "begin"


# --- night ----------------------------------------------------------------------------------------
class NightStep(_A):
    """Resolve the current night step. `targets` fill the step's slots in order (null = none).
    `answer` is what the storyteller told the player (default: the true answer); `use_suggestion`
    gives the suggested false answer instead (only for a poisoned or drunk actor). `force` lets a
    greyed seat be chosen (logged override). `skip` passes the step without using it."""

    type: Literal["night_step"] = "night_step"
    step: StepKey
    targets: tuple[int | None, ...] = ()
    answer: Answer | None = None
    use_suggestion: bool = False
    force: bool = False
    skip: bool = False


class ReopenStep(_A):
    """Reopen a step passed tonight: it becomes the current step until resolved or passed again."""

    type: Literal["reopen_step"] = "reopen_step"
    step: StepKey


class Dawn(_A):
    """天亮: announce the night's deaths; steps not done yet are skipped."""

    type: Literal["dawn"] = "dawn"


# --- day ------------------------------------------------------------------------------------------
class Nominate(_A):
    """A nomination (or, on a traveller, a call to exile). A player sends it for herself."""

    type: Literal["nominate"] = "nominate"
    nominator: int
    nominee: int


class OpenVote(_A):
    """Start the vote clock on the open nomination; default length: 15 s + 3 s per voter."""

    type: Literal["open_vote"] = "open_vote"
    seconds: int | None = Field(default=None, ge=5, le=600)


class Vote(_A):
    """A player: her own hand during an open vote (`yes`). The storyteller: `votes` = every raised
    hand (records the open nomination's vote and closes it), or `seat` + `yes` to enter or correct
    one player's hand during an open vote."""

    type: Literal["vote"] = "vote"
    votes: tuple[int, ...] | None = None
    seat: int | None = None
    yes: bool = True


class CloseVote(_A):
    """End the open vote now (seats that did not vote count as no)."""

    type: Literal["close_vote"] = "close_vote"


class EditVote(_A):
    """Correct today's recorded vote `index` (0 = the day's first nomination): the raised hands."""

    type: Literal["edit_vote"] = "edit_vote"
    index: int
    votes: tuple[int, ...]


class DeleteNomination(_A):
    """Delete today's nomination `index` (a mistaken entry) and its vote."""

    type: Literal["delete_nomination"] = "delete_nomination"
    index: int


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
    role: RoleKey


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
    """「死亡」: dead at once; by day the public sees it at once, at night at dawn."""

    type: Literal["kill"] = "kill"
    seat: int


class Tell(_A):
    """「告知」: a card (with its roles / seats / alignment) and/or free text, to one player."""

    type: Literal["tell"] = "tell"
    seat: int
    card: TellCard = TellCard.TEXT
    text: ShownText = Field(default="", max_length=TEXT_MAX)
    roles: tuple[RoleKey, ...] = ()
    seats: tuple[int, ...] = ()
    alignment: Alignment | None = None


class AddReminder(_A):
    """Place a reminder token on a seat (`role` None: the storyteller's own token)."""

    type: Literal["add_reminder"] = "add_reminder"
    seat: int
    token: ShownLabel = Field(min_length=1, max_length=20)
    role: RoleKey | None = None


class RemoveReminder(_A):
    type: Literal["remove_reminder"] = "remove_reminder"
    id: int


class SetNote(_A):
    """The storyteller's free note on a seat (empty text removes it)."""

    type: Literal["set_note"] = "set_note"
    seat: int
    text: ShownText = Field(default="", max_length=TEXT_MAX)


class Depart(_A):
    """A traveller leaves the game (any time)."""

    type: Literal["depart"] = "depart"
    seat: int


class SetStatus(_A):
    type: Literal["set_status"] = "set_status"
    seat: int
    status: StatusKind
    until: Until = Until.DUSK


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
    role: RoleKey
    alignment: Alignment | None = None


class SetAlignment(_A):
    """The player learns it at the night's 「阵营改变」 step."""

    type: Literal["set_alignment"] = "set_alignment"
    seat: int
    alignment: Alignment


class SetGhostVote(_A):
    type: Literal["set_ghost_vote"] = "set_ghost_vote"
    seat: int
    has: bool


DEFAULT_REASON = "说书人宣布结果"
"""A declared result's reason when the storyteller types none (ours: no content check needed)."""


class DeclareWinner(_A):
    """The storyteller's word on the winner: proposed like a met win condition, then 「确认结束」."""

    type: Literal["declare_winner"] = "declare_winner"
    winner: Alignment
    reason: Annotated[Shown, at_most(60, "理由")] = Field(default=DEFAULT_REASON, max_length=60)


class ConfirmEnd(_A):
    """「确认结束」: end the game with the proposed winner."""

    type: Literal["confirm_end"] = "confirm_end"


class WithdrawEnd(_A):
    """「撤回裁定」: take back her own word on the winner (a mis-tap, or the table plays on); a win the
    board meets is proposed again as it is met."""

    type: Literal["withdraw_end"] = "withdraw_end"


Action = Annotated[
    Reroll | Assign | SetBluffs | SetTraveller | Begin | NightStep | ReopenStep | Dawn | Nominate | OpenVote
    | Vote | CloseVote | EditVote | DeleteNomination | Execute | Dusk | Accuse | Silence | Toast
    | ForceExecution | Drunk | Kill | Tell | AddReminder | RemoveReminder | SetNote | Depart | SetStatus
    | ClearStatus | SetAlive | SetRole | SetAlignment | SetGhostVote | DeclareWinner | ConfirmEnd | WithdrawEnd,
    Field(discriminator="type"),
]  # fmt: skip
action_adapter: TypeAdapter[Action] = TypeAdapter(Action)
