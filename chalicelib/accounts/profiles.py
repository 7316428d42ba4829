"""A stored 妃子 as the 深宫杀 rules see her."""

from __future__ import annotations

from chalicelib.games.shengong.profile import ConsortProfile, MaidHolding
from chalicelib.store.ports import Consort


def consort_profile(consort: Consort) -> ConsortProfile:
    return ConsortProfile(
        consort_id=consort.id,
        name=consort.name,
        looks=consort.looks,
        talent=consort.talent,
        favor=consort.favor,
        power=consort.power,
        maids=tuple(MaidHolding(card=c, level=lvl) for c, lvl in sorted(consort.maids.items())),
        cleared_stages=consort.cleared_stages,
    )
