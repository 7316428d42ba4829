"""The closed sets of names 血染甄嬛传 uses in its state, actions, events and views (JSON strings)."""

from __future__ import annotations

from enum import StrEnum


class Phase(StrEnum):
    SETUP = "setup"
    NIGHT = "night"
    DAY = "day"
    OVER = "over"


class StatusKind(StrEnum):
    POISONED = "poisoned"
    """中毒 (安陵容's 香粉, or the storyteller)."""
    DRUNK = "drunk"
    """醉酒 (敦亲王, the 「醉酒」 button, 浣碧 beside 果郡王, 孙答应's death)."""
    PINNED = "pinned"
    """按住 (宠妃): the player's abilities do not work this round (the night and the next day)."""
    PROTECTED = "protected"
    """保护 (果郡王): immune tonight to the demon's kill, 雨露均沾 and 三阿哥's touch."""
    MARKED = "marked"
    """一丈红 (华妃): dies if she nominates tomorrow (the storyteller presses 「死亡」)."""
    CURSED = "cursed"
    """诅咒 (安陵容): dies at the start of the next night."""
    SILENCED = "silenced"
    """禁言 (齐妃): if she speaks, the storyteller may execute her."""


STATUS_NAMES = {
    StatusKind.POISONED: "中毒",
    StatusKind.DRUNK: "醉酒",
    StatusKind.PINNED: "按住",
    StatusKind.PROTECTED: "保护",
    StatusKind.MARKED: "一丈红",
    StatusKind.CURSED: "诅咒",
    StatusKind.SILENCED: "禁言",
}


class ExpiryAt(StrEnum):
    DUSK = "dusk"
    """The dusk (入夜) that starts night n."""
    DAWN = "dawn"
    """The dawn (天亮) that ends night n."""


class Until(StrEnum):
    """How long a status set by the storyteller lasts."""

    DUSK = "dusk"
    DAWN = "dawn"
    NEVER = "never"


class DeathCause(StrEnum):
    """Why a player died during a night (for the storyteller's book; never shown to players)."""

    DEMON = "demon"
    COUNTER = "counter"
    NIANGENGYAO = "niangengyao"
    SANAGE = "sanage"
    YURAO = "yurao"
    SUNDAYING = "sundaying"
    STORYTELLER = "storyteller"
    CURSE = "curse"
    QIGUIREN = "qiguiren"


class Ability(StrEnum):
    """Abilities tracked per seat: once-per-game ones (`spent`), day ones (`used` today), no-repeat picks."""

    CONVERT = "convert"
    REVIVE = "revive"
    TAKE = "take"
    FORCE = "force_execution"
    CHUNYUAN = "chunyuan"
    ACCUSE = "accuse"
    SILENCE = "silence"
    TOAST = "toast"
    PROTECT = "guojunwang"
    PIN = "chongfei"


class StepKey(StrEnum):
    MINION_INFO = "minion_info"
    DEMON_INFO = "demon_info"
    NEW_DEMON_INFO = "new_demon_info"
    NEW_MINION_INFO = "new_minion_info"
    CHONGFEI_INFO = "chongfei_info"
    ALIGNMENT_INFO = "alignment_info"
    QIGUIREN = "qiguiren"
    CHONGFEI = "chongfei"
    ANLINGRONG = "anlingrong"
    HUAFEI = "huafei"
    GUOJUNWANG = "guojunwang"
    HUANGHOU = "huanghou"
    HUANGSHANG = "huangshang"
    TAISHANGHUANG = "taishanghuang"
    NVHUANG = "nvhuang"
    ZHENHUAN = "zhenhuan"
    SANAGE = "sanage"
    YELANYI = "yelanyi"
    NIANGENGYAO = "niangengyao"
    YURAO = "yurao"
    SUNDAYING = "sundaying"
    JINGFEI = "jingfei"
    JINXI = "jinxi"
    WENTAIYI = "wentaiyi"
    HUANBI = "huanbi"


class AnswerKind(StrEnum):
    YESNO = "yesno"
    SUCCESS = "success"
    NUMBER = "number"
    SEATS = "seats"
    SEAT_ROLE = "seat_role"


class OwedKind(StrEnum):
    """Information the rules owe a player after a change, given at the matching night step."""

    NEW_DEMON = "new_demon"
    """A new demon learns her minions and three bluffs."""
    MINIONS_NEW_DEMON = "minions_new_demon"
    """The minions learn the new demon (the seat is the new demon)."""
    CHONGFEI = "chongfei"
    """A new 宠妃 learns her 皇上."""
    ALIGNMENT = "alignment"
    """A player whose alignment changed learns it."""


class TellCard(StrEnum):
    """What the storyteller shows with 「告知」 (the official info cards)."""

    TEXT = "text"
    """Free text only."""
    ROLE = "role"
    """「你是」 a role."""
    ALIGNMENT = "alignment"
    """「你的阵营是」."""
    SEATS = "seats"
    """「这些玩家」 (one or more seats)."""
    SEAT_ROLE = "seat_role"
    """「这名玩家是」 a seat and a role."""
    DEMON = "demon"
    """「这是恶魔」."""
    MINIONS = "minions"
    """「这些是你的爪牙」."""
    BLUFFS = "bluffs"
    """「这些角色不在场」."""


class StepState(StrEnum):
    DONE = "done"
    CURRENT = "current"
    UPCOMING = "upcoming"


class ButtonKind(StrEnum):
    ACCUSE = "accuse"
    SILENCE = "silence"
    TOAST = "toast"
    FORCE = "force_execution"
    NOMINATE = "nominate"
    OPEN_VOTE = "open_vote"
    CLOSE_VOTE = "close_vote"
    VOTE = "vote"
    EXECUTE = "execute"
    DRUNK = "drunk"
    KILL = "kill"
    DUSK = "dusk"
    CONFIRM_END = "confirm_end"
