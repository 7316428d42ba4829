"""Night steps of the evil team: first-night evil info, 安陵容, 华妃, 宠妃, 皇后 and the demons."""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan.board import Board, no, nos
from chalicelib.games.zhenhuan.roles import (
    ANLINGRONG,
    CHONGFEI,
    HUAFEI,
    HUANGHOU,
    HUANGSHANG,
    NVHUANG,
    ROLES,
    TAISHANGHUANG,
    Alignment,
    Team,
)
from chalicelib.games.zhenhuan.setup import EVIL_KNOW_EACH_OTHER_FROM
from chalicelib.games.zhenhuan.state import StatusKind
from chalicelib.games.zhenhuan.stepbase import Slot, StatusStep, Step, demon_kill, others

CONVERT = "convert"


def _minions(b: Board) -> tuple[int, ...]:
    return tuple(s.seat for s in b.seats if ROLES[s.role].team is Team.MINION)


def _demons(b: Board) -> tuple[int, ...]:
    return tuple(s.seat for s in b.seats if ROLES[s.role].team is Team.DEMON)


class MinionInfo(Step):
    key, label = "minion_info", "爪牙信息：爪牙得知恶魔与彼此"

    def present(self, b: Board) -> bool:
        return len(b.seats) >= EVIL_KNOW_EACH_OTHER_FROM and bool(_minions(b))

    def disabled(self, b: Board, actor: int | None) -> str | None:
        return None

    def hint(self, b: Board, actor: int | None) -> str:
        return f"恶魔：{nos(_demons(b))}；爪牙：{nos(_minions(b))}"

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        demons, minions = _demons(b), _minions(b)
        for m in minions:
            b.tell(m, self.key, demons, f"恶魔是{nos(demons)}；爪牙：{nos(minions)}")
        return f"爪牙{nos(minions)}得知恶魔{nos(demons)}"


class DemonInfo(Step):
    key, label = "demon_info", "恶魔信息：恶魔得知爪牙与三个不在场角色"

    def actor(self, b: Board) -> int | None:
        demons = _demons(b)
        return demons[0] if demons else None

    def present(self, b: Board) -> bool:
        return len(b.seats) >= EVIL_KNOW_EACH_OTHER_FROM and self.actor(b) is not None

    def disabled(self, b: Board, actor: int | None) -> str | None:
        return None

    def hint(self, b: Board, actor: int | None) -> str:
        return f"爪牙：{nos(_minions(b))}；伪装：{'、'.join(ROLES[r].name for r in b.state.bluffs)}"

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        bluffs = "、".join(ROLES[r].name for r in b.state.bluffs)
        for d in _demons(b):
            b.tell(d, self.key, _minions(b), f"你的爪牙：{nos(_minions(b))}；不在场的角色：{bluffs}")
        return f"恶魔得知爪牙{nos(_minions(b))}与伪装角色{bluffs}"


def _women(b: Board) -> str:
    return f"女性：{nos(s for s in b.living() if b.female(s))}"


def _protected(b: Board) -> str:
    return f"受保护：{nos(s.seat for s in b.seats if b.has(s.seat, StatusKind.PROTECTED))}"


class Anlingrong(Step):
    key, role, label = "anlingrong", ANLINGRONG, "安陵容：香粉下毒（女性）与诅咒"

    def hint(self, b: Board, actor: int | None) -> str:
        return _women(b)

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        living = tuple(b.living())
        return (
            Slot("香粉下毒（仅女性有效）", living, optional=True),
            Slot("诅咒（下一夜开始时死亡）", living, optional=True),
        )

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        poison, curse = targets
        notes = []
        if poison is not None:
            if impaired:
                notes.append(f"香粉{no(poison)}无效（安陵容中毒或醉酒）")
            elif not b.female(poison):
                notes.append(f"香粉{no(poison)}无效（非女性角色）")
            else:
                b.add_status(poison, StatusKind.POISONED, ANLINGRONG, by=actor, until=b.next_dusk())
                notes.append(f"{no(poison)}中毒至下一个黄昏")
        if curse is not None:
            if impaired:
                notes.append(f"诅咒{no(curse)}无效（安陵容中毒或醉酒）")
            else:
                b.add_status(curse, StatusKind.CURSED, ANLINGRONG, by=actor, until=b.next_dusk())
                notes.append(f"{no(curse)}被诅咒，下一夜开始时死亡")
        return "；".join(notes) or "未行动"


class Huafei(StatusStep):
    key, role, label = "huafei", HUAFEI, "华妃：赐一丈红"
    status, verb, slot_label = StatusKind.MARKED, "一丈红", "一丈红（明日发起提名则死亡）"


class Chongfei(StatusStep):
    key, role, label = "chongfei", CHONGFEI, "宠妃：按住一名玩家"
    status, verb, slot_label, no_repeat = StatusKind.PINNED, "按住", "按住（不可连续按住同一人）", True


class Huanghou(Step):
    key, role, label = "huanghou", HUANGHOU, "皇后：得知自己成为女皇"

    def actor(self, b: Board) -> int | None:
        notice = b.state.empress_notice
        if notice is not None and b.alive(notice):
            return notice
        return super().actor(b)

    def disabled(self, b: Board, actor: int | None) -> str | None:
        if actor is not None and actor == b.state.empress_notice:
            return None
        if not b.holders(HUANGSHANG):
            return "不能变为女皇：本局没有皇上"
        if any(b.alive(s) for s in b.holders(HUANGSHANG)):
            return "不能变为女皇：皇上仍在世"
        return f"不能变为女皇：{b.empress_block() or '条件未满足'}"

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        b.tell(actor, self.key, True, "皇上已死，你已成为女皇（恶魔），今晚起每晚杀一人")
        b.update(empress_notice=None)
        return f"{no(actor)}得知自己已成为女皇"


class _Demon(Step):
    def hint(self, b: Board, actor: int | None) -> str:
        return f"{_protected(b)}；{_women(b)}"

    def kill_slot(self, b: Board) -> Slot:
        first = b.night.number == 1
        return Slot(
            "杀人（首夜不杀人）" if first else "杀人", () if first else tuple(b.living()), optional=True
        )


class Huangshang(_Demon):
    key, role, label = "huangshang", HUANGSHANG, "皇上：雨露均沾（全局一次）与杀人"

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        assert actor is not None
        spent = CONVERT in b.seat(actor).spent
        return (
            self.kill_slot(b),
            Slot("雨露均沾（女性角色变为宠妃）", () if spent else others(b, actor), optional=True),
        )

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        kill, convert = targets
        notes = [convert_note(b, actor, convert, impaired)] if convert is not None else []
        notes.append(demon_kill(b, actor, kill, impaired))
        return "；".join(notes)


def convert_note(b: Board, actor: int, target: int, impaired: bool) -> str:
    """雨露均沾: spent unless it failed on a man or a protected player (then he may try again)."""
    if not b.female(target):
        return f"雨露均沾{no(target)}失败（非女性角色），可再用"
    if b.has(target, StatusKind.PROTECTED):
        return f"雨露均沾{no(target)}失败（受果郡王保护），可再用"
    b.spend(actor, CONVERT)
    if impaired:
        return f"雨露均沾{no(target)}无效（皇上中毒或醉酒），技能已用"
    b.change_role(target, CHONGFEI, Alignment.EVIL, keep_spent=True, why="（雨露均沾）")
    b.update_night(conversion=target)
    return f"{no(target)}成为宠妃，加入邪恶阵营"


class Taishanghuang(_Demon):
    key, role, label = "taishanghuang", TAISHANGHUANG, "太上皇：杀人；自杀则让位"

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (
            self.kill_slot(b),
            Slot("自杀时：继位为皇上的玩家（说书人决定）", others(b, actor), optional=True),
        )

    def validate(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> None:
        kill, successor = targets
        if successor is not None and kill != actor:
            raise IllegalAction("只有太上皇自杀时才选择继位者", code="SUCCESSOR_WITHOUT_SELF_KILL")
        if successor is None and kill == actor:
            raise IllegalAction("太上皇自杀：请选择继位为皇上的玩家", code="SUCCESSOR_REQUIRED")

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        kill, successor = targets
        note = demon_kill(b, actor, kill, impaired)
        if kill == actor and b.dying_tonight(actor, "demon"):
            assert successor is not None
            b.update_night(succession=(actor, successor))
            note += f"；天亮时{no(successor)}继位为皇上"
        return note


class Nvhuang(_Demon):
    key, role, label = "nvhuang", NVHUANG, "女皇：杀人"

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (self.kill_slot(b),)

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        return demon_kill(b, actor, targets[0], impaired)
