"""The 血染甄嬛传 character catalogue: team, sex, the seed's ability text and reminder tokens per role.

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
    """旅行者: late joiners, early leavers, seats above 15; identity public, alignment secret."""


class Alignment(StrEnum):
    GOOD = "good"
    EVIL = "evil"


class Sex(StrEnum):
    FEMALE = "female"
    MALE = "male"
    EUNUCH = "eunuch"


class RoleKey(StrEnum):
    ZHENHUAN = "zhenhuan"
    JINXI = "jinxi"
    GUOJUNWANG = "guojunwang"
    WENTAIYI = "wentaiyi"
    QIGUIREN = "qiguiren"
    YURAO = "yurao"
    HUANBI = "huanbi"
    JINGFEI = "jingfei"
    SANAGE = "sanage"
    NIANGENGYAO = "niangengyao"
    CHUNYUAN = "chunyuan"
    TAIHOU = "taihou"
    YELANYI = "yelanyi"
    QIFEI = "qifei"
    DUNQINWANG = "dunqinwang"
    LONGYUE = "longyue"
    SUNDAYING = "sundaying"
    KUANGTU = "kuangtu"
    SUPEISHENG = "supeisheng"
    ANLINGRONG = "anlingrong"
    HUAFEI = "huafei"
    HUANGHOU = "huanghou"
    CHONGFEI = "chongfei"
    HUANGSHANG = "huangshang"
    TAISHANGHUANG = "taishanghuang"
    NVHUANG = "nvhuang"
    TRAVELLER = "traveller"


K = RoleKey
ZHENHUAN, JINXI, GUOJUNWANG, WENTAIYI, QIGUIREN = K.ZHENHUAN, K.JINXI, K.GUOJUNWANG, K.WENTAIYI, K.QIGUIREN
YURAO, HUANBI, JINGFEI, SANAGE, NIANGENGYAO = K.YURAO, K.HUANBI, K.JINGFEI, K.SANAGE, K.NIANGENGYAO
CHUNYUAN, TAIHOU, YELANYI = K.CHUNYUAN, K.TAIHOU, K.YELANYI
QIFEI, DUNQINWANG, LONGYUE, SUNDAYING, KUANGTU = K.QIFEI, K.DUNQINWANG, K.LONGYUE, K.SUNDAYING, K.KUANGTU
SUPEISHENG, ANLINGRONG, HUAFEI, HUANGHOU, CHONGFEI = K.SUPEISHENG, K.ANLINGRONG, K.HUAFEI, K.HUANGHOU, K.CHONGFEI
HUANGSHANG, TAISHANGHUANG, NVHUANG, TRAVELLER = K.HUANGSHANG, K.TAISHANGHUANG, K.NVHUANG, K.TRAVELLER


@dataclass(frozen=True, slots=True)
class Role:
    key: RoleKey
    name: str
    team: Team
    sex: Sex
    motto: str
    """The seed's tag line under the name (「注意隐藏身份」)."""
    ability: str
    """The ability as the seed words it (players see it in the catalogue and in their own view)."""
    reminders: tuple[str, ...] = ()
    """Reminder tokens the storyteller may place for this role (some are placed automatically)."""
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
DEAD_TOKEN = "死亡"

_ALL = (
    Role(ZHENHUAN, "甄嬛", T, F, "注意隐藏身份",
         "被动:当你在夜晚被皇上皇后杀死, 你可以反杀成女皇。", ("反杀",)),
    Role(JINXI, "瑾汐姑姑", T, F, "打听小道消息",
         "每晚选择场上两名玩家，可得知玩家中是否有恶魔乔装。", ("查验",)),
    Role(GUOJUNWANG, "果郡王", T, M, "守护",
         "每晚可以保护除自己外一个人。被保护的人，免刀免睡(即染指与雨露均沾)。", ("受保护",)),
    Role(WENTAIYI, "温太医", T, M, "太医", "每晚可以查验一个人，得知其是否醉酒或者中毒", ("查验",)),
    Role(QIGUIREN, "祺贵人", T, F, "瓜六",
         "白天可检举一名玩家身份。猜对则夜晚随机死一个人；否则自己在夜晚暴毙。", ("检举",)),
    Role(YURAO, "玉娆", T, F, "姐妹影分身",
         "首夜得知一个善良玩家的身份。如果恶魔杀死了这名玩家，则你也会死亡。", ("绑定",)),
    Role(HUANBI, "浣碧", T, F, "首席丫鬟",
         "首夜，得知恶魔与爪牙的间距。（当你坐在果郡王身边时，你会醉酒）", ("醉酒",)),
    Role(JINGFEI, "敬妃", T, F, "砖妃数砖",
         "首夜得知场上女性玩家数量(不排除太监、太医)。你当晚被杀死，可知道当前场上存活的邪恶阵营玩家。"),
    Role(SANAGE, "三阿哥", T, M, "弘时染指",
         "除首夜外每个晚上可以染指相邻的存活玩家，即左右手边各第一个存活玩家。"
         "说书人在三阿哥选择完之后告知其染指成功或者失败。", ("染指",)),
    Role(NIANGENGYAO, "年羹尧", T, M, "护国大将军",
         "当你晚上死亡时，当晚可以带走一名玩家。（全局仅一次）", ("带走",)),
    Role(CHUNYUAN, "纯元皇后", T, F, "白月光", "首次被提名时，如果提名者是村民，则直接被处决。", ("已被提名",)),
    Role(TAIHOU, "太后", T, F, "上届宫斗冠军",
         "在一名玩家提名投票后不论票数，发起强制处决。（全局仅一次）", ("强制处决",)),
    Role(YELANYI, "叶澜依", T, F, "异域妃子",
         "夜晚祝福一名死亡玩家，白天该玩家复活并重置其技能。（全局仅一次）", ("祝福",)),
    Role(QIFEI, "齐妃", O, F, "禁言",
         "每个白天可用一次，说出“翠果”打烂他的嘴，禁言一名玩家。若玩家不配合，则强制处决该玩家。"
         "（不可以连续选择同一玩家）", ("禁言",)),
    Role(DUNQINWANG, "敦亲王", O, M, "喝个痛快",
         "每个白天选择一名角色把酒言欢，喊出：“xx，给本王炫一个”强制一名玩家醉酒一天。", ("醉酒",)),
    Role(LONGYUE, "胧月", O, F, "皇女", "若你因处决而死，则你所在阵营失败。"),
    Role(SUNDAYING, "孙答应", O, F, "后妃", "当狂徒死亡，你也会死亡；你死亡后，导致全场醉酒。", ("全场醉酒",)),
    Role(KUANGTU, "狂徒", O, M, "惑乱后宫", "随时可能死亡。由说书人决定。"),
    Role(SUPEISHENG, "苏培盛", MI, E, "太监", "当苏公公在场时，外来者+1"),
    Role(ANLINGRONG, "安陵容", MI, F, "扎个小人",
         "每晚可以对一名女性玩家使用香粉下毒。中毒到下一个黄昏。夜晚选择一名玩家诅咒，该玩家在下个夜晚开始时死去。"
         "（两个技能可以在同一夜使用）", ("中毒", "诅咒")),
    Role(HUAFEI, "华妃", MI, F, "贱人就是矫情",
         "每晚可赐一名玩家一丈红，被赐予一丈红的玩家如果第二天白天发起提名则会死亡。", ("一丈红",)),
    Role(HUANGHOU, "皇后", MI, F, "掌管后宫",
         "皇上死亡时，场上玩家大于等于5人存活，且之前无女皇。皇后会变为女皇。"),
    Role(CHONGFEI, "宠妃", MI, F, "皇上雨露均沾触发角色",
         "每回合可以按住一个玩家，玩家本回合技能无法发动。不可连续按住同一个人。", ("按住",), derived=True),
    Role(HUANGSHANG, "皇上", D, M, "一言九鼎",
         "每晚可以杀一个玩家。雨露均沾：可选择一名女性角色的玩家，该角色加入你的阵营变为宠妃。（全局仅限一次）",
         (DEAD_TOKEN, "雨露均沾")),
    Role(TAISHANGHUANG, "太上皇", D, M, "心狠手辣",
         "每晚可以杀一个玩家。自杀，则会让位给上一个白天和说书人私聊过的玩家，成为下一任皇上（人选由说书人决定）。"
         "太上皇在场时，外来者+1。", (DEAD_TOKEN, "私聊", "继位")),
    Role(NVHUANG, "女皇", D, F, "皇后或甄嬛可变身角色", "每晚可以杀一个玩家。", (DEAD_TOKEN,), derived=True),
    Role(TRAVELLER, "旅行者", Team.TRAVELLER, M, "临时加入或提前退出",
         "具体身份由玩家自行选择，具体阵营所属由说书人根据场上局势进行分配。其他玩家知晓旅行者身份和技能，"
         "但不知晓其阵营所属。"),
)  # fmt: skip

ROLES: dict[RoleKey, Role] = {r.key: r for r in _ALL}
TOWNSFOLK = tuple(r.key for r in _ALL if r.team is T)
OUTSIDERS = tuple(r.key for r in _ALL if r.team is O)
MINIONS = tuple(r.key for r in _ALL if r.team is MI and not r.derived)
DEMONS = tuple(r.key for r in _ALL if r.team is D and not r.derived)
DEALT = TOWNSFOLK + OUTSIDERS + MINIONS + DEMONS
"""Roles that setup may deal (everything but 宠妃, 女皇 and 旅行者)."""
GOOD_ROLES = TOWNSFOLK + OUTSIDERS
OUTSIDER_MODIFIERS = (SUPEISHENG, TAISHANGHUANG)
"""Each in play turns one 村民 into one 外来者."""

SANAGE_FAILS = frozenset({TAIHOU, QIFEI, LONGYUE, ANLINGRONG, HUAFEI, HUANGHOU})
"""三阿哥's touch fails on these (and on every man): 太后, 齐妃 (his mother), 胧月, the female minions."""
SANAGE_DIES = frozenset({NVHUANG, ZHENHUAN})
"""Touching 女皇 or 甄嬛 is 大逆不道: he dies."""


def role(key: RoleKey) -> Role:
    return ROLES[key]


def role_name(key: RoleKey) -> str:
    return ROLES[key].name
