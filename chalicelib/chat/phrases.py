"""心战 quick phrases: a fixed list per game, in court style, sent with one tap by id.

A game declares its own (`Game.quick_phrases`). Until it does, the defaults below apply, keyed by
contract family (they are meant to move onto the games); a family with none here gets the court
phrases every game shares. A phrase's id is derived from its text, so reordering a list keeps ids,
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

FAMILY_DEFAULTS: dict[str, tuple[str, ...]] = {
    # 深宫杀: 心战 across the table while moves are sealed
    "shengong": ("本宫乏了", "姐姐请", "妹妹好手段", "这宫里，谁都不可信", "今日之仇，来日必报",
                 "臣妾冤枉", "且慢", "承让了", "快些落子吧", "本宫记下了"),
    # 保皇: the emperor, his guard and the rebels
    "baohuang": ("皇上吉祥", "臣护驾来迟", "侍卫何在", "这一手，朕准了", "姐姐请", "过", "好牌",
                 "快些出牌吧", "承让了", "臣等叩见吾皇万岁万岁万万岁"),
    # 血染甄嬛传: talk by day, then the vote
    "zhenhuan": ("臣妾冤枉", "请皇上明察", "此人可疑", "我以性命担保", "且听我一言", "本宫信你",
                 "姐姐请", "天色已晚", "本宫乏了", "承让了"),
}
"""Until the games declare `quick_phrases` (to be moved onto the games by the lead)."""


@dataclass(frozen=True, slots=True)
class Phrase:
    id: str
    text: str


def phrase_id(text: str) -> str:
    return "q" + hashlib.sha256(text.encode()).hexdigest()[:6]


def phrase_texts(game: AnyGame) -> tuple[str, ...]:
    return game.quick_phrases or FAMILY_DEFAULTS.get(game.family, COURT)


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
