"""The one vocabulary of 深宫杀, for every mode (A/B/C/D), in code, API and docs.

好感 is `grace`, 气血 is `hp`, 养生 is `heal`: `favor` is the 妃子's attribute 圣宠 (looks / talent /
favor / power = 容貌 / 才情 / 圣宠 / 权势) and never 好感. Every closed set of strings is an enum here,
with its Chinese name beside it for report text.
"""

from __future__ import annotations

from enum import StrEnum


class ModeKey(StrEnum):
    A = "A"
    """竞技局: 宫女 blocked."""
    B = "B"
    """宫女局: every R 宫女 acts passively each round."""
    C = "C"
    """卡牌局: 宫女 become cards in hand."""
    D = "D"
    """宫斗杀: three players against a stage's boss (and her 随从)."""


class ActionType(StrEnum):
    """The `type` of a sealed move (seed 「行动」 table)."""

    POISON = "poison"
    """下毒."""
    ASSASSINATE = "assassinate"
    """暗杀."""
    FRAME = "frame"
    """诬告."""
    MEAL = "meal"
    """送膳 (A/B/C: at 乾清宫)."""
    HEAL = "heal"
    """养生."""
    MOVE = "move"
    """移动: there from the next round."""
    STAY = "stay"
    """继续驻留: stays put; no bonus, neither 养生 nor 待机."""
    IDLE = "idle"
    """待机 (also what a missing move becomes)."""


class Attack(StrEnum):
    """The three attacks, made by players and opponents alike."""

    POISON = "poison"
    ASSASSINATE = "assassinate"
    FRAME = "frame"


class Bar(StrEnum):
    HP = "hp"
    """气血."""
    GRACE = "grace"
    """好感."""


class Place(StrEnum):
    """Every place of every mode; a mode lists the ones it uses (`places.py`)."""

    JINGREN = "景仁宫"
    CHENGQIAN = "承乾宫"
    ZHONGCUI = "钟粹宫"
    YANXI = "延禧宫"
    YONGSHOU = "永寿宫"
    CHANGCHUN = "长春宫"
    KITCHEN = "御膳房"
    TOWER = "摘星楼"
    HALL = "乾清宫"
    GARDEN = "御花园"
    TAVERN = "醉江南"
    INFIRMARY = "太医院"


class Dim(StrEnum):
    """圣意 dimensions: the 妃子's four attributes."""

    LOOKS = "looks"
    FAVOR = "favor"
    TALENT = "talent"
    POWER = "power"


class BossKey(StrEnum):
    """玩法D opponents (seed D⑥)."""

    GAO_MINGZHU = "gao_mingzhu"
    """高明珠."""
    SHI_LU = "shi_lu"
    """石露."""
    XIYU_SPY = "xiyu_spy"
    """西域间谍 (高明珠's 随从)."""
    MUTE_MAID = "mute_maid"
    """石露的哑巴宫女 (高明珠's 随从)."""


class Side(StrEnum):
    PLAYER = "player"
    """A seated 妃子."""
    OPPONENT = "opponent"
    """A boss or 随从 (玩法D)."""


class Result(StrEnum):
    """What one move did (diplomacy-style order results)."""

    HIT = "hit"
    """The attack's roll succeeded; 送膳 topped at least one 圣意 dimension."""
    MISS = "miss"
    """The roll failed (the attacker's own cost is still paid)."""
    NO_TARGET = "no_target"
    """An attack on a place where nobody else stood (no roll)."""
    VOIDED = "voided"
    """Her move this round was voided by last round's 暗杀: no effect, no bonus."""
    FAILED = "failed"
    """送膳 from outside 乾清宫 (失仪)."""
    EMPTY = "empty"
    """送膳 at 乾清宫 that topped no dimension (落空)."""
    DONE = "done"
    """养生 / 待机 / 移动 / 继续驻留 carried out."""


class Reason(StrEnum):
    """Why a game ended."""

    CLEAR = "clear"
    """D: every opponent is down (通关)."""
    WIPE = "wipe"
    """D: every player is down."""
    LAST_STANDING = "last_standing"
    """A/B/C: one (or nobody) left."""
    LIMIT = "limit"
    """The round limit was reached."""


class FallCause(StrEnum):
    HP = "hp"
    GRACE = "grace"
    BOTH = "both"


ACTION_ZH: dict[ActionType, str] = {
    ActionType.POISON: "下毒", ActionType.ASSASSINATE: "暗杀", ActionType.FRAME: "诬告",
    ActionType.MEAL: "送膳", ActionType.HEAL: "养生", ActionType.MOVE: "移动",
    ActionType.STAY: "继续驻留", ActionType.IDLE: "待机",
}
ATTACK_ZH: dict[Attack, str] = {Attack.POISON: "下毒", Attack.ASSASSINATE: "暗杀", Attack.FRAME: "诬告"}
BAR_ZH: dict[Bar, str] = {Bar.HP: "气血", Bar.GRACE: "好感"}
DIM_ZH: dict[Dim, str] = {Dim.LOOKS: "容", Dim.FAVOR: "宠", Dim.TALENT: "才", Dim.POWER: "权"}
DIM_NAME_ZH: dict[Dim, str] = {Dim.LOOKS: "容貌", Dim.FAVOR: "圣宠", Dim.TALENT: "才情", Dim.POWER: "权势"}
CAUSE_ZH: dict[FallCause, str] = {
    FallCause.HP: "气血耗尽", FallCause.GRACE: "好感归零", FallCause.BOTH: "气血耗尽、好感归零",
}


def attack_of(kind: ActionType) -> Attack | None:
    """The Attack an action type makes, or None for the others."""
    try:
        return Attack(kind.value)
    except ValueError:
        return None


def bar_of(attack: Attack) -> Bar:
    """诬告 strikes 好感; 下毒 and 暗杀 strike 气血."""
    return Bar.GRACE if attack is Attack.FRAME else Bar.HP
