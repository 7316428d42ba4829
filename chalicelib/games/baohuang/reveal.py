"""The moment the partnership becomes public (亮明身份): by 明保, forced by two or more 造反, or by
playing the guard card. Shared by the declaration (`declare`) and the tricks (`play`)."""

from __future__ import annotations

from chalicelib.games.baohuang.events import GuardRevealed
from chalicelib.games.baohuang.model import Act, RevealHow, Solo
from chalicelib.games.baohuang.step import Step


def reveal(step: Step, seat: int, how: RevealHow) -> None:
    """Make the partnership public: `seat` is the guard (the emperor herself in a hidden solo)."""
    solo = step.deal.solo is not Solo.NONE
    step.set_deal(revealed=True)
    step.log(seat, Act.REVEAL, note=how.value)
    called = step.deal.called if how is RevealHow.CARD else None
    step.emit(GuardRevealed(seat=seat, how=how, solo=solo, called=called))
