"""The shape of one night step: who acts, whether she can, what she may choose, the truth, the effect.

A step is a small object with no state of its own. `night.py` walks the order and calls, for the
current step: `actor` → `disabled` → `slots` (validate the storyteller's targets) → `truth` →
`resolve` (the effect, skipped by the step itself when the actor is poisoned or drunk) → `deliver`
(information to the player: the storyteller's answer, by default the truth, or the suggested false
answer when the actor is poisoned or drunk: `suggest`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

from chalicelib.games.zhenhuan.board import Board, no
from chalicelib.games.zhenhuan.enums import Ability, AnswerKind, DeathCause, StatusKind, StepKey
from chalicelib.games.zhenhuan.events import Answer, SeatRole
from chalicelib.games.zhenhuan.roles import DEAD_TOKEN, ROLES, RoleKey
from chalicelib.games.zhenhuan.state import LastPick

ANSWER_TYPES: dict[AnswerKind, type] = {
    AnswerKind.YESNO: bool,
    AnswerKind.SUCCESS: bool,
    AnswerKind.NUMBER: int,
    AnswerKind.SEATS: tuple,
    AnswerKind.SEAT_ROLE: SeatRole,
}
DEAD = "已死亡"


@dataclass(frozen=True, slots=True)
class Slot:
    label: str
    allowed: tuple[int, ...]
    optional: bool = False
    greyed: tuple[tuple[int, str], ...] = field(default=())
    """Seats shown greyed with the reason: choosing one is the storyteller's logged override (`force`)."""


class Step:
    key: ClassVar[StepKey]
    role: ClassVar[RoleKey | None] = None
    label: ClassVar[str]
    prompt: ClassVar[str] = ""
    """The storyteller's reminder for the step, in the official reminder style."""
    info: ClassVar[AnswerKind | None] = None
    wakes_dead: ClassVar[bool] = False
    """年羹尧, 敬妃, 甄嬛: abilities that trigger on the holder's own death tonight (DECISIONS #9)."""
    suggests: ClassVar[bool] = False
    """An information ability: a poisoned or drunk actor gets a suggested false answer."""
    first_night: ClassVar[tuple[str, str] | None] = None
    later_nights: ClassVar[tuple[str, str] | None] = None
    """(label, prompt) on the first night and on the later ones, for a step that does different things
    (玉娆, 敬妃): tonight's plan and book say tonight's half; the catalogue keeps `label`, both halves."""

    def title(self, b: Board) -> str:
        """The step's name tonight."""
        return self._tonight(b)[0]

    def prompt_tonight(self, b: Board) -> str:
        """The storyteller's reminder tonight."""
        return self._tonight(b)[1]

    def _tonight(self, b: Board) -> tuple[str, str]:
        split = self.first_night if b.night.number == 1 else self.later_nights
        return split or (self.label, self.prompt)

    def actor(self, b: Board) -> int | None:
        """The first living holder; else one who died tonight (shown greyed, or woken by her death)."""
        if self.role is None:
            return None
        holders = b.holders(self.role)
        for seat in holders:
            if b.alive(seat):
                return seat
        for seat in holders:
            if b.died_tonight(seat):
                return seat
        return None

    def present(self, b: Board) -> bool:
        """Shown in tonight's plan at all (its role is in play, alive or dead since dusk)."""
        return self.actor(b) is not None

    def disabled(self, b: Board, actor: int | None) -> str | None:
        if actor is not None and not b.alive(actor) and not self.wakes_dead:
            return DEAD
        if actor is not None and b.has(actor, StatusKind.PINNED):
            return "被宠妃按住，本回合技能无法发动"
        return None

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return ()

    def validate(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> None:
        """Rules across slots (raise IllegalAction); each slot's own choices are checked already."""

    def info_kind(self, b: Board) -> AnswerKind | None:
        return self.info

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        return None

    def hint(self, b: Board, actor: int | None) -> str:
        """The true answer for the storyteller before she picks targets."""
        return ""

    def suggest(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        """A plausible false answer for these targets (seeded by the night's salt); None = none."""
        return None

    def suggest_hint(self, b: Board, actor: int | None) -> str:
        """The suggested false answer described before the targets are known."""
        return ""

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        """Apply the effect; return a note for the storyteller's book."""
        return ""

    def on_pass(self, b: Board) -> None:
        """The storyteller passed the step (or it was greyed)."""

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        return str(value)

    def deliver(self, b: Board, actor: int | None, targets: tuple[int | None, ...], value: Answer) -> None:
        if actor is not None:
            b.tell(actor, self.key, value, self.render(b, targets, value), targets)


def why_not(step: Step, b: Board, actor: int | None) -> str | None:
    """Why the step cannot be used now (None: it can); a role step whose holder is gone is greyed."""
    if step.role is not None and actor is None:
        return "无人可行动"
    return step.disabled(b, actor)


class StatusStep(Step):
    """One optional target who gets a status (华妃's 一丈红, 宠妃's pin, 果郡王's guard). With
    `no_repeat` the target is another living player, not the one chosen last time."""

    status: ClassVar[StatusKind]
    verb: ClassVar[str]
    slot_label: ClassVar[str]
    token: ClassVar[str]
    pick: ClassVar[Ability | None] = None
    until_dawn: ClassVar[bool] = False

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        allowed = tuple(b.living())
        if self.pick is not None:
            assert actor is not None
            blocked = last_pick_blocked(b, actor, self.pick)
            allowed = tuple(s for s in others(b, actor) if s != blocked)
        return (Slot(self.slot_label, allowed, optional=True),)

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None and self.role is not None
        (target,) = targets
        if target is None:
            return "未行动"
        if self.pick is not None:
            b.update_seat(actor, last_pick=LastPick(ability=self.pick, target=target))
        until = b.next_dawn() if self.until_dawn else b.next_dusk()
        b.remind(self.role, self.token, target, until)
        if impaired:
            return f"{self.verb}{no(target)}无效（{ROLES[self.role].name}中毒或醉酒）"
        b.add_status(target, self.status, self.role, by=actor, until=until)
        return f"{self.verb}{no(target)}"


# --- helpers shared by the step families -------------------------------------------------------
def others(b: Board, actor: int | None, *, living: bool = True) -> tuple[int, ...]:
    return tuple(
        s.seat for s in b.seats if s.seat != actor and not s.departed and (s.alive or not living)
    )


def everyone(b: Board) -> tuple[int, ...]:
    return tuple(b.present())


def demon_kill(b: Board, actor: int, target: int | None, impaired: bool, role: RoleKey) -> str:
    """The demon's kill: fails silently when the demon is impaired or the target protected; the
    victim is dead at once (DECISIONS #9)."""
    if target is None:
        return "未杀人"
    b.remind(role, DEAD_TOKEN, target)
    if impaired:
        return f"恶魔中毒或醉酒：对{no(target)}的击杀无效"
    if b.has(target, StatusKind.PROTECTED):
        return f"{no(target)}受果郡王保护，未死"
    if not b.alive(target):
        return f"{no(target)}已死亡"
    b.kill([target], DeathCause.DEMON, "恶魔击杀", by=actor)
    return f"恶魔杀死{no(target)}" if target != actor else f"恶魔自杀{no(target)}"


def last_pick_blocked(b: Board, actor: int, ability: Ability) -> int | None:
    pick = b.seat(actor).last_pick
    return pick.target if pick is not None and pick.ability is ability else None


def yes_no(value: Answer) -> str:
    return "是" if value else "否"


def role_of(b: Board, seat: int) -> str:
    return ROLES[b.seat(seat).role].name
