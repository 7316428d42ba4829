"""Who is calling: the identity our token carries (checked by the API authorizer)."""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Role(StrEnum):
    PLAYER = "player"
    ADMIN = "admin"
    """司礼: creates 妃子, grants 宫女, opens/locks modes, hosts tournaments, sees everything."""


@dataclass(frozen=True, slots=True)
class Caller:
    user_id: str
    name: str
    role: Role = Role.PLAYER

    @property
    def is_admin(self) -> bool:
        return self.role is Role.ADMIN
