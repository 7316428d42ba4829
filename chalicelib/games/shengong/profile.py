"""What a seat brings into a 深宫杀 game: her 妃子's attributes and 宫女, read from the room's Persona."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Entrant

ATTRIBUTE_MAX = 100
MAID_LEVEL_MAX = 5


class MaidHolding(BaseModel):
    """One 宫女 card owned by a 妃子: catalogue id and level. Rarity comes from the catalogue."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    card: str
    level: int = Field(ge=1, le=MAID_LEVEL_MAX)


class ConsortProfile(BaseModel):
    """A 妃子 as the rules see her. 容貌 looks, 才情 talent, 圣宠 favor, 权势 power (0-100 each)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    consort_id: str
    name: str
    looks: int = Field(ge=0, le=ATTRIBUTE_MAX)
    talent: int = Field(ge=0, le=ATTRIBUTE_MAX)
    favor: int = Field(ge=0, le=ATTRIBUTE_MAX)
    power: int = Field(ge=0, le=ATTRIBUTE_MAX)
    maids: tuple[MaidHolding, ...] = ()
    cleared_stages: frozenset[int] = frozenset()


def profile_of(entrant: Entrant) -> ConsortProfile:
    """The entrant's Persona as this game's profile.

    Raises:
        IllegalAction: BAD_PROFILE (no 妃子, or attributes / 宫女 levels out of range).
    """
    persona = entrant.persona
    if persona is None:
        raise IllegalAction(f"{entrant.name} 没有带妃子入局", code="BAD_PROFILE")
    try:
        return ConsortProfile(
            consort_id=persona.consort_id, name=persona.name, looks=persona.looks, talent=persona.talent,
            favor=persona.favor, power=persona.power,
            maids=tuple(MaidHolding(card=c, level=lv) for c, lv in sorted(persona.maids.items())),
            cleared_stages=frozenset(persona.cleared_stages),
        )
    except ValidationError as err:
        raise IllegalAction(f"{entrant.name} 的妃子资料有误", code="BAD_PROFILE") from err
