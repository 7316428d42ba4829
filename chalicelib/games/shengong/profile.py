"""What a seat brings into a 深宫杀 game: her 妃子's attributes and 宫女, snapshotted at start."""

from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field

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
