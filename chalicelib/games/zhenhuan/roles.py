"""The 血染甄嬛传 character catalogue: team, sex and a one-line ability per role (seed 002).

Sex follows the drama: 太监 (苏培盛) and the 太医 (温太医) are not female. Two seed rules read it:
安陵容's 香粉 and 皇上's 雨露均沾 work only on female characters; 敬妃 counts female players "不排除太监、
太医", i.e. 苏培盛 and 温太医 are counted with the women (`counts_for_jingfei`).
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum


class Team(StrEnum):
    TOWNSFOLK = "townsfolk"
    """村民: good, ability helps good."""
    OUTSIDER = "outsider"
    """外来者: good, ability hurts good."""
    MINION = "minion"
    """爪牙: evil helpers."""
    DEMON = "demon"
    """恶魔: evil, kills at night (not on the first night)."""
    TRAVELLER = "traveller"
    """旅行者: seats above 15; identity public, alignment set by the storyteller."""


class Alignment(StrEnum):
    GOOD = "good"
    EVIL = "evil"


class Sex(StrEnum):
    FEMALE = "female"
    MALE = "male"
    EUNUCH = "eunuch"


@dataclass(frozen=True, slots=True)
class Role:
    key: str
    name: str
    team: Team
    sex: Sex
    ability: str
    derived: bool = False
    """Made during play (宠妃, 女皇); never dealt at setup."""

    @property
    def female(self) -> bool:
        return self.sex is Sex.FEMALE

    @property
    def counts_for_jingfei(self) -> bool:
        """敬妃's count: women, plus 太监 and 太医 ("不排除太监、太医")."""
        return self.sex is not Sex.MALE or self.key == WENTAIYI

    @property
    def good(self) -> bool:
        return self.team in (Team.TOWNSFOLK, Team.OUTSIDER)

    @property
    def alignment(self) -> Alignment:
        return Alignment.EVIL if self.team in (Team.MINION, Team.DEMON) else Alignment.GOOD


F, M, E = Sex.FEMALE, Sex.MALE, Sex.EUNUCH
T, O, MI, D = Team.TOWNSFOLK, Team.OUTSIDER, Team.MINION, Team.DEMON

ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, QIGUIREN = "zhenhuan", "jinxi", "guojunwang", "wentaiyi", "qiguiren"
YURAO, HUANBI, JINGFEI, SANAGE, NIANGENGYAO = "yurao", "huanbi", "jingfei", "sanage", "niangengyao"
CHUNYUAN, TAIHOU, YELANYI = "chunyuan", "taihou", "yelanyi"
QIFEI, DUNQINWANG, LONGYUE, SUNDAYING, KUANGTU = "qifei", "dunqinwang", "longyue", "sundaying", "kuangtu"
SUPEISHENG, ANLINGRONG, HUAFEI, HUANGHOU, CHONGFEI = (
    "supeisheng",
    "anlingrong",
    "huafei",
    "huanghou",
    "chongfei",
)
HUANGSHANG, TAISHANGHUANG, NVHUANG = "huangshang", "taishanghuang", "nvhuang"
TRAVELLER = "traveller"

_ALL = (
    Role(ZHENHUAN, "甄嬛", T, F, "夜晚被皇上或皇后（女皇）杀死时，可以反杀并成为女皇。"),
    Role(JINXI, "瑾汐姑姑", T, F, "每晚选择两名玩家（可含自己），得知其中是否有恶魔。"),
    Role(GUOJUNWANG, "果郡王", T, M, "每晚保护除自己外的一名玩家，免刀免睡；不可连续保护同一人。"),
    Role(WENTAIYI, "温太医", T, M, "每晚查验一名玩家，得知其是否中毒或醉酒。"),
    Role(QIGUIREN, "祺贵人", T, F, "白天检举一名玩家的身份：猜对则下一夜开始时死一人，猜错则自己死亡。"),
    Role(YURAO, "玉娆", T, F, "首夜得知一名善良玩家及其身份；恶魔杀死此人时你也死亡。"),
    Role(HUANBI, "浣碧", T, F, "首夜得知恶魔与最近爪牙的间距；坐在果郡王身边则永久醉酒。"),
    Role(JINGFEI, "敬妃", T, F, "首夜得知女性玩家数；夜晚被杀死时得知存活的邪恶玩家。"),
    Role(SANAGE, "三阿哥", T, M, "除首夜外每晚染指一名相邻的存活玩家，得知成功或失败。"),
    Role(NIANGENGYAO, "年羹尧", T, M, "夜晚死亡时当晚可带走一名玩家（全局一次）。"),
    Role(CHUNYUAN, "纯元皇后", T, F, "首次被提名时，若提名者是村民，提名者直接被处决。"),
    Role(TAIHOU, "太后", T, F, "一次提名投票后，不论票数强制处决被提名者（全局一次）。"),
    Role(YELANYI, "叶澜依", T, F, "夜晚祝福一名死亡玩家，天亮时其复活并重置技能（全局一次）。"),
    Role(QIFEI, "齐妃", O, F, "每个白天禁言一名玩家，不配合则强制处决；不可连续选同一人。"),
    Role(DUNQINWANG, "敦亲王", O, M, "每个白天令一名玩家醉酒一天。"),
    Role(LONGYUE, "胧月", O, F, "若你因处决而死，你所在阵营失败。"),
    Role(SUNDAYING, "孙答应", O, F, "狂徒死亡时你也死亡；你死亡后全场醉酒。"),
    Role(KUANGTU, "狂徒", O, M, "随时可能死亡，由说书人决定。"),
    Role(SUPEISHENG, "苏培盛", MI, E, "在场时外来者+1（村民-1）。"),
    Role(ANLINGRONG, "安陵容", MI, F, "每晚对一名女性下毒至下一个黄昏，并可诅咒一名玩家于下一夜开始时死亡。"),
    Role(HUAFEI, "华妃", MI, F, "每晚赐一名玩家一丈红：其次日白天发起提名则死亡。"),
    Role(HUANGHOU, "皇后", MI, F, "皇上死亡时若存活≥5人且从无女皇，变为女皇。"),
    Role(
        CHONGFEI, "宠妃", MI, F, "每晚按住一名玩家，其本回合技能无法发动；不可连续按住同一人。", derived=True
    ),
    Role(HUANGSHANG, "皇上", D, M, "每晚杀一人；全局一次雨露均沾：令一名女性角色变为宠妃。"),
    Role(TAISHANGHUANG, "太上皇", D, M, "每晚杀一人；自杀则让位，说书人选定的玩家成为皇上。在场时外来者+1。"),
    Role(NVHUANG, "女皇", D, F, "每晚杀一人。", derived=True),
    Role(TRAVELLER, "旅行者", Team.TRAVELLER, M, "身份由玩家自选，阵营由说书人决定。"),
)

ROLES: dict[str, Role] = {r.key: r for r in _ALL}
TOWNSFOLK = tuple(r.key for r in _ALL if r.team is T)
OUTSIDERS = tuple(r.key for r in _ALL if r.team is O)
MINIONS = tuple(r.key for r in _ALL if r.team is MI and not r.derived)
DEMONS = tuple(r.key for r in _ALL if r.team is D and not r.derived)
DEALT = TOWNSFOLK + OUTSIDERS + MINIONS + DEMONS
"""Roles that setup may deal (everything but 宠妃, 女皇 and 旅行者)."""
OUTSIDER_MODIFIERS = (SUPEISHENG, TAISHANGHUANG)
"""Each in play turns one 村民 into one 外来者."""

SANAGE_FAILS = frozenset({TAIHOU, QIFEI, LONGYUE, ANLINGRONG, HUAFEI, HUANGHOU})
"""三阿哥's touch fails on these (and on every man): 太后, 齐妃 (his mother), 胧月, the female minions."""
SANAGE_DIES = frozenset({NVHUANG, ZHENHUAN})
"""Touching 女皇 or 甄嬛 is 大逆不道: he dies."""


def role(key: str) -> Role:
    return ROLES[key]


def role_name(key: str) -> str:
    return ROLES[key].name
