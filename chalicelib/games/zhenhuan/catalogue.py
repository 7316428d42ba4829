"""The role catalogue served to everyone (GET /v1/games/zhenhuan/catalogue): every role with the
seed's ability text and reminder tokens, and both night orders with the storyteller's prompts."""

from __future__ import annotations

from functools import cache

from chalicelib.games.zhenhuan.enums import StepKey
from chalicelib.games.zhenhuan.night import FIRST_NIGHT, OTHER_NIGHTS, STEPS
from chalicelib.games.zhenhuan.roles import ROLES, RoleKey, Sex, Team
from chalicelib.games.zhenhuan.state import Frozen


class RoleCard(Frozen):
    key: RoleKey
    name: str
    team: Team
    sex: Sex
    motto: str
    ability: str
    reminders: tuple[str, ...]
    derived: bool
    """Made in play (宠妃, 女皇): never dealt."""
    first_night: int | None
    """Position in the first night's order (1-based), None if it does not wake then."""
    other_nights: int | None


class StepCard(Frozen):
    key: StepKey
    role: RoleKey | None
    label: str
    prompt: str


class ZhenhuanCatalogue(Frozen):
    roles: tuple[RoleCard, ...]
    first_night: tuple[StepCard, ...]
    other_nights: tuple[StepCard, ...]


def _position(order: tuple[StepKey, ...], role: RoleKey) -> int | None:
    return next((i + 1 for i, k in enumerate(order) if STEPS[k].role == role), None)


def _steps(order: tuple[StepKey, ...]) -> tuple[StepCard, ...]:
    return tuple(
        StepCard(key=k, role=STEPS[k].role, label=STEPS[k].label, prompt=STEPS[k].prompt) for k in order
    )


@cache
def catalogue() -> ZhenhuanCatalogue:
    roles = tuple(
        RoleCard(
            key=r.key, name=r.name, team=r.team, sex=r.sex, motto=r.motto, ability=r.ability,
            reminders=r.reminders, derived=r.derived, first_night=_position(FIRST_NIGHT, r.key),
            other_nights=_position(OTHER_NIGHTS, r.key),
        )
        for r in ROLES.values()
    )  # fmt: skip
    return ZhenhuanCatalogue(roles=roles, first_night=_steps(FIRST_NIGHT), other_nights=_steps(OTHER_NIGHTS))
