"""心战 quick phrases: a fixed list per game, in court style, sent with one tap by id.

A game declares its own (`Game.quick_phrases`); a game with none gets the court phrases every game
shares. A phrase's id is derived from its text, so reordering a list keeps ids,
and a message stores the text it showed, so changing a list never changes what was said."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from chalicelib.core.errors import ValidationFailed
from chalicelib.core.game import AnyGame

COURT: tuple[str, ...] = (
    "本宫乏了", "姐姐请", "妹妹好手段", "臣妾遵旨", "谢主隆恩", "承让了", "且慢", "恭送姐姐",
)
"""What every game may say: greetings, thanks, 告退 (seed 001: 「XX姐姐好」「恭送XX」「姐姐慢走」)."""

@dataclass(frozen=True, slots=True)
class Phrase:
    id: str
    text: str


def phrase_id(text: str) -> str:
    return "q" + hashlib.sha256(text.encode()).hexdigest()[:6]


def phrase_texts(game: AnyGame) -> tuple[str, ...]:
    return game.quick_phrases or COURT


def phrases_for(game: AnyGame) -> tuple[Phrase, ...]:
    return tuple(Phrase(phrase_id(t), t) for t in phrase_texts(game))


def find_phrase(game: AnyGame, pid: str) -> Phrase:
    """The phrase with this id in the game's list.

    Raises:
        ValidationFailed: CHAT_UNKNOWN_PHRASE.
    """
    for phrase in phrases_for(game):
        if phrase.id == pid:
            return phrase
    raise ValidationFailed("没有这句心战短语，请刷新短语列表", code="CHAT_UNKNOWN_PHRASE")
