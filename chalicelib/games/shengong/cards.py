"""宫女 catalogue: every maid card a 妃子 can own, with its slot and effect.

Only R cards act in 深宫杀 (seed 玩法C ①: 「只有 R 卡在深宫杀里有实效，SR / SSR 不入牌库」); SR and SSR
exist in the collection and never enter a deck. The seed names one card, 「寻医问药」 (下毒命中 +10% per
level, seed ⑥); DECISIONS 深宫杀 #9 asks for at least 12 R cards covering every effect family of
seed ⑤. Magnitudes are per level (seed ⑥: 「效果一律 ×宫女等级」): hit bonuses in percentage points,
everything else in tenths of a point, because all 深宫杀 arithmetic is done in integer tenths.
"""

from __future__ import annotations

from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from chalicelib.games.shengong.numbers import fmt
from chalicelib.games.shengong.terms import ActionType, Attack


class Rarity(StrEnum):
    R = "R"
    SR = "SR"
    SSR = "SSR"


class Slot(StrEnum):
    """Seed ⑤: 进攻牌 / 防守牌 / 通用牌, each only in its own slot."""

    ATTACK = "attack"
    DEFENCE = "defence"
    GENERAL = "general"


class Effect(StrEnum):
    POISON_HIT = "poison_hit"
    """下毒命中 +pp per level."""
    ASSASSINATE_HIT = "assassinate_hit"
    """暗杀命中 +pp per level."""
    FRAME_HIT = "frame_hit"
    """诬告命中 +pp per level."""
    POISON_DAMAGE = "poison_damage"
    """下毒伤害 +tenths per level (each victim)."""
    ASSASSINATE_DAMAGE = "assassinate_damage"
    """暗杀伤害 +tenths per level."""
    FRAME_DAMAGE = "frame_damage"
    """诬告好感伤害 +tenths per level (each victim)."""
    GUARD_HP = "guard_hp"
    """减免所受气血伤害 tenths per level (this round, not below 0)."""
    GUARD_GRACE = "guard_grace"
    """减免所受好感伤害 tenths per level."""
    AFTER_HEAL = "after_heal"
    """战后回血: +tenths 气血 per level after the round's damage lands."""
    PALACE_HP = "palace_hp"
    """同宫全员气血 +tenths per level (everyone at her place, herself included)."""
    PALACE_GRACE = "palace_grace"
    """同宫全员好感 +tenths per level."""
    MEAL_GRACE = "meal_grace"
    """送膳所得好感 +tenths per level (only when her 送膳 earns 好感)."""


SLOT_OF_EFFECT: dict[Effect, Slot] = {
    Effect.POISON_HIT: Slot.ATTACK,
    Effect.ASSASSINATE_HIT: Slot.ATTACK,
    Effect.FRAME_HIT: Slot.ATTACK,
    Effect.POISON_DAMAGE: Slot.ATTACK,
    Effect.ASSASSINATE_DAMAGE: Slot.ATTACK,
    Effect.FRAME_DAMAGE: Slot.ATTACK,
    Effect.GUARD_HP: Slot.DEFENCE,
    Effect.GUARD_GRACE: Slot.DEFENCE,
    Effect.AFTER_HEAL: Slot.DEFENCE,
    Effect.PALACE_HP: Slot.GENERAL,
    Effect.PALACE_GRACE: Slot.GENERAL,
    Effect.MEAL_GRACE: Slot.GENERAL,
}


ACTION_OF_EFFECT: dict[Effect, ActionType] = {
    Effect.POISON_HIT: ActionType.POISON,
    Effect.POISON_DAMAGE: ActionType.POISON,
    Effect.ASSASSINATE_HIT: ActionType.ASSASSINATE,
    Effect.ASSASSINATE_DAMAGE: ActionType.ASSASSINATE,
    Effect.FRAME_HIT: ActionType.FRAME,
    Effect.FRAME_DAMAGE: ActionType.FRAME,
    Effect.MEAL_GRACE: ActionType.MEAL,
}
"""Effects that act with one action only; every other effect goes with any action."""

GUARD_EFFECTS = frozenset({Effect.GUARD_HP, Effect.GUARD_GRACE})
"""Effects that take off (减免): written with a minus."""

HIT_EFFECT: dict[Attack, Effect] = {
    Attack.POISON: Effect.POISON_HIT, Attack.ASSASSINATE: Effect.ASSASSINATE_HIT, Attack.FRAME: Effect.FRAME_HIT,
}
DAMAGE_EFFECT: dict[Attack, Effect] = {
    Attack.POISON: Effect.POISON_DAMAGE, Attack.ASSASSINATE: Effect.ASSASSINATE_DAMAGE,
    Attack.FRAME: Effect.FRAME_DAMAGE,
}


class MaidCard(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    id: str
    maid: str
    """The 宫女's name."""
    skill: str
    """The card's name as shown on the card."""
    rarity: Rarity
    effect: Effect
    per_level: int
    """Percentage points (hit effects) or tenths (all others), multiplied by the card's level."""
    text: str

    @property
    def slot(self) -> Slot:
        return SLOT_OF_EFFECT[self.effect]

    @property
    def in_deck(self) -> bool:
        return self.rarity is Rarity.R

    def magnitude(self, level: int) -> int:
        return self.per_level * level

    def text_at(self, level: int) -> str:
        """Her card's effect at its level, as it will act (「寻医问药」Lv.3: 下毒命中 +30%); the catalogue's
        `text` says it per level."""
        what = self.text.split(" ")[0]
        sign = "−" if self.effect in GUARD_EFFECTS else "+"
        amount = self.magnitude(level)
        figure = f"{amount}%" if self.effect in HIT_EFFECT.values() else fmt(amount)
        return f"{what} {sign}{figure}"


def _card(id: str, maid: str, skill: str, rarity: Rarity, effect: Effect, per_level: int, text: str) -> MaidCard:
    return MaidCard(id=id, maid=maid, skill=skill, rarity=rarity, effect=effect, per_level=per_level, text=text)


R, SR, SSR = Rarity.R, Rarity.SR, Rarity.SSR

CATALOGUE: dict[str, MaidCard] = {
    c.id: c
    for c in (
        # 进攻牌
        _card("xunyi", "采月", "寻医问药", R, Effect.POISON_HIT, 10, "下毒命中 +10%/级"),
        _card("xiuzhen", "佩儿", "袖里藏针", R, Effect.ASSASSINATE_HIT, 8, "暗杀命中 +8%/级"),
        _card("qiaoshe", "品儿", "巧舌如簧", R, Effect.FRAME_HIT, 8, "诬告命中 +8%/级"),
        _card("hedinghong", "宝鹃", "鹤顶红", R, Effect.POISON_DAMAGE, 2, "下毒伤害 +0.2/级"),
        _card("yexing", "颂芝", "夜行刺", R, Effect.ASSASSINATE_DAMAGE, 3, "暗杀伤害 +0.3/级"),
        _card("bufeng", "花穗", "捕风捉影", R, Effect.FRAME_DAMAGE, 2, "诬告好感伤害 +0.2/级"),
        _card("mizhao", "绘春", "密诏传讯", R, Effect.FRAME_HIT, 5, "诬告命中 +5%/级"),
        # 防守牌
        _card("tieshen", "小允子", "贴身护卫", R, Effect.GUARD_HP, 2, "所受气血伤害 −0.2/级"),
        _card("jinyan", "晶清", "谨言慎行", R, Effect.GUARD_GRACE, 2, "所受好感伤害 −0.2/级"),
        _card("shentang", "菊青", "参汤续命", R, Effect.AFTER_HEAL, 3, "战后回血 +0.3/级"),
        _card("yinzhen", "芳若", "银针试毒", R, Effect.GUARD_HP, 1, "所受气血伤害 −0.1/级"),
        # 通用牌
        _card("tongxin", "浣纱", "姐妹同心", R, Effect.PALACE_HP, 1, "同宫全员气血 +0.1/级"),
        _card("huayu", "红菱", "春风化雨", R, Effect.PALACE_GRACE, 1, "同宫全员好感 +0.1/级"),
        _card("chushou", "翠果", "御厨妙手", R, Effect.MEAL_GRACE, 2, "送膳所得好感 +0.2/级"),
        # 收藏卡: never in a deck
        _card("jinxi", "槿汐", "运筹帷幄", SR, Effect.POISON_HIT, 12, "收藏卡：深宫杀中无实效"),
        _card("liuzhu", "流朱", "以死护主", SR, Effect.GUARD_HP, 3, "收藏卡：深宫杀中无实效"),
        _card("jianqiu", "剪秋", "步步为营", SSR, Effect.ASSASSINATE_HIT, 12, "收藏卡：深宫杀中无实效"),
    )
}


def card(card_id: str) -> MaidCard:
    """The catalogue entry; KeyError for an unknown id (callers validate ids at the edge)."""
    return CATALOGUE[card_id]
