"""The closed error catalogue: the platform's codes and every game's, each with one status."""

from __future__ import annotations

from functools import cache

from chalicelib.core.error_codes import PLATFORM_ERRORS
from chalicelib.core.errors import ErrorSpec
from chalicelib.games import game_keys, get_game


@cache
def catalogue() -> dict[str, ErrorSpec]:
    """Every error code the API answers with, sorted by code.

    Raises:
        ValueError: two places define one code with different statuses (a test keeps this from shipping).
    """
    merged: dict[str, ErrorSpec] = dict(PLATFORM_ERRORS)
    for key in game_keys():
        for code, spec in get_game(key).errors.items():
            known = merged.get(code)
            if known is not None and known.status != spec.status:
                raise ValueError(f"{code} is {known.status} and {spec.status} ({key})")
            merged.setdefault(code, spec)
    return dict(sorted(merged.items()))
