"""The shape of one night step: who acts, whether she can, what she may choose, the truth, the effect.

A step is a small object with no state of its own. `night.py` walks the order and calls, for the
current step: `actor` → `disabled` → `slots` (validate the storyteller's targets) → `truth` →
`resolve` (the effect, skipped by the step itself when the actor is poisoned or drunk) → `deliver`
(information to the player: the storyteller's answer, by default the truth).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, Literal

from chalicelib.games.zhenhuan.board import Board, no
from chalicelib.games.zhenhuan.events import Answer, SeatRole
from chalicelib.games.zhenhuan.roles import ROLES
from chalicelib.games.zhenhuan.state import LastPick, PendingDeath, StatusKind

AnswerKind = Literal["yesno", "number", "seats", "seat_role", "success"]

ANSWER_TYPES: dict[str, type] = {
    "yesno": bool,
    "success": bool,
    "number": int,
    "seats": tuple,
    "seat_role": SeatRole,
}


@dataclass(frozen=True, slots=True)
class Slot:
    label: str
    allowed: tuple[int, ...]
    optional: bool = False


class Step:
    key: ClassVar[str]
    role: ClassVar[str | None] = None
    label: ClassVar[str]
    info: ClassVar[AnswerKind | None] = None
    wakes_dead: ClassVar[bool] = False
    """年羹尧, 敬妃: a player who died at the start of this night still acts."""

    def actor(self, b: Board) -> int | None:
        if self.role is None:
            return None
        holders = b.holders(self.role)
        for seat in holders:
            if b.alive(seat):
                return seat
        if self.wakes_dead:
            for seat in holders:
                if seat in b.night.dusk_deaths:
                    return seat
        return None

    def present(self, b: Board) -> bool:
        """Shown in tonight's plan at all (its role is in play and able to wake)."""
        return self.actor(b) is not None

    def disabled(self, b: Board, actor: int | None) -> str | None:
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

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        """Apply the effect; return a note for the storyteller's book."""
        return ""

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        return str(value)

    def deliver(self, b: Board, actor: int | None, targets: tuple[int | None, ...], value: Answer) -> None:
        if actor is not None:
            b.tell(actor, self.key, value, self.render(b, targets, value))


class StatusStep(Step):
    """One optional target who gets a status (华妃's 一丈红, 宠妃's pin, 果郡王's guard). With
    `no_repeat` the target is another living player, not the one chosen last time."""

    status: ClassVar[StatusKind]
    verb: ClassVar[str]
    slot_label: ClassVar[str]
    no_repeat: ClassVar[bool] = False
    until_dawn: ClassVar[bool] = False

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        allowed = tuple(b.living())
        if self.no_repeat:
            assert actor is not None
            blocked = last_pick_blocked(b, actor, self.key)
            allowed = tuple(s for s in others(b, actor) if s != blocked)
        return (Slot(self.slot_label, allowed, optional=True),)

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None and self.role is not None
        (target,) = targets
        if target is None:
            return "未行动"
        if self.no_repeat:
            b.update_seat(actor, last_pick=LastPick(ability=self.key, target=target))
        if impaired:
            return f"{self.verb}{no(target)}无效（{ROLES[self.role].name}中毒或醉酒）"
        until = b.next_dawn() if self.until_dawn else b.next_dusk()
        b.add_status(target, self.status, self.role, by=actor, until=until)
        return f"{no(target)}：{self.verb}"


# --- helpers shared by the step families -------------------------------------------------------
def others(b: Board, actor: int | None, *, living: bool = True) -> tuple[int, ...]:
    return tuple(s.seat for s in b.seats if s.seat != actor and (s.alive or not living))


def everyone(b: Board) -> tuple[int, ...]:
    return tuple(s.seat for s in b.seats)


def add_pending(b: Board, seat: int, cause: str, by: int | None = None) -> None:
    b.update_night(pending=b.night.pending + (PendingDeath(seat=seat, cause=cause, by=by),))


def remove_pending(b: Board, seat: int, cause: str) -> None:
    b.update_night(pending=tuple(p for p in b.night.pending if not (p.seat == seat and p.cause == cause)))


def demon_kill(b: Board, actor: int, target: int | None, impaired: bool) -> str:
    """The demon's kill: fails silently when the demon is impaired or the target protected."""
    if target is None:
        return "未杀人"
    if impaired:
        return f"恶魔中毒或醉酒：对{no(target)}的击杀无效"
    if b.has(target, StatusKind.PROTECTED):
        return f"{no(target)}受果郡王保护，未死"
    if not b.alive(target):
        return f"{no(target)}已死亡"
    add_pending(b, target, "demon", actor)
    return f"恶魔杀死{no(target)}（天亮生效）" if target != actor else f"恶魔自杀{no(target)}（天亮生效）"


def last_pick_blocked(b: Board, actor: int, ability: str) -> int | None:
    pick = b.seat(actor).last_pick
    return pick.target if pick is not None and pick.ability == ability else None


def yes_no(value: Answer) -> str:
    return "是" if value else "否"


def role_of(b: Board, seat: int) -> str:
    return ROLES[b.seat(seat).role].name
