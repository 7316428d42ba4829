"""Night steps of the evil team: 安陵容, 华妃, 宠妃, 皇后 and the demons 皇上, 太上皇, 女皇."""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan.board import Board, no, nos
from chalicelib.games.zhenhuan.enums import Ability, DeathCause, OwedKind, StatusKind, StepKey
from chalicelib.games.zhenhuan.roles import (
    ANLINGRONG,
    CHONGFEI,
    HUAFEI,
    HUANGHOU,
    HUANGSHANG,
    NVHUANG,
    TAISHANGHUANG,
    Alignment,
)
from chalicelib.games.zhenhuan.stepbase import DEAD, Slot, StatusStep, Step, demon_kill, others

CONVERT = Ability.CONVERT


def _women(b: Board) -> str:
    return f"女性：{nos(s for s in b.living() if b.female(s))}"


def _protected(b: Board) -> str:
    return f"受保护：{nos(s.seat for s in b.seats if b.has(s.seat, StatusKind.PROTECTED))}"


class Anlingrong(Step):
    key, role, label = StepKey.ANLINGRONG, ANLINGRONG, "安陵容：香粉下毒（女性）与诅咒"
    prompt = "唤醒安陵容。她可以指向一名女性玩家下香粉（中毒至下一个黄昏），并可以指向一名玩家诅咒（下个夜晚开始时死去）。"

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
            b.remind(ANLINGRONG, "中毒", poison, b.next_dusk())
            if impaired:
                notes.append(f"香粉{no(poison)}无效（安陵容中毒或醉酒）")
            elif not b.female(poison):
                notes.append(f"香粉{no(poison)}无效（非女性角色）")
            else:
                b.add_status(poison, StatusKind.POISONED, ANLINGRONG, by=actor, until=b.next_dusk())
                notes.append(f"{no(poison)}中毒至下一个黄昏")
        if curse is not None:
            b.remind(ANLINGRONG, "诅咒", curse, b.next_dusk())
            if impaired:
                notes.append(f"诅咒{no(curse)}无效（安陵容中毒或醉酒）")
            else:
                b.add_status(curse, StatusKind.CURSED, ANLINGRONG, by=actor, until=b.next_dusk())
                notes.append(f"{no(curse)}被诅咒，下一夜开始时死亡")
        return "；".join(notes) or "未行动"


class Huafei(StatusStep):
    key, role, label = StepKey.HUAFEI, HUAFEI, "华妃：赐一丈红"
    prompt = "唤醒华妃。她指向一名玩家赐一丈红：该玩家若在明天白天发起提名，则会死亡。"
    status, verb, slot_label, token = StatusKind.MARKED, "赐一丈红给", "一丈红（明日发起提名则死亡）", "一丈红"


class Chongfei(StatusStep):
    key, role, label = StepKey.CHONGFEI, CHONGFEI, "宠妃：按住一名玩家"
    prompt = "唤醒宠妃。她指向一名玩家（不可与上次相同）：该玩家本回合（今晚与明天白天）技能无法发动。"
    status, verb, slot_label, token = StatusKind.PINNED, "按住", "按住（不可连续按住同一人）", "按住"
    pick = Ability.PIN


class Huanghou(Step):
    key, role, label = StepKey.HUANGHOU, HUANGHOU, "皇后：得知自己成为女皇"
    prompt = "如果皇后已成为女皇：唤醒她，展示「你是」女皇卡。"

    def actor(self, b: Board) -> int | None:
        notice = b.state.empress_notice
        if notice is not None and b.alive(notice):
            return notice
        return super().actor(b)

    def disabled(self, b: Board, actor: int | None) -> str | None:
        if actor is not None and actor == b.state.empress_notice:
            return None
        if actor is not None and not b.alive(actor):
            return DEAD
        if not b.holders(HUANGSHANG):
            return "不能变为女皇：本局没有皇上"
        if any(b.alive(s) for s in b.holders(HUANGSHANG)):
            return "不能变为女皇：皇上仍在世"
        # the reason given when 皇上 died; else (no succession was tried: 甄嬛's counter-kill) today's
        why = b.state.succession_refused or b.empress_block(b.living_players() + 1)
        return f"不能变为女皇：{why or '皇上死亡时条件未满足'}"

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
    key, role, label = StepKey.HUANGSHANG, HUANGSHANG, "皇上：雨露均沾（全局一次）与杀人"
    prompt = (
        "唤醒皇上。首夜之外，他指向一名玩家：该玩家死亡。若尚未用过雨露均沾，他可以另指一名女性角色：该玩家"
        "加入邪恶阵营成为宠妃（全局一次）。"
    )

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        assert actor is not None
        if CONVERT in b.seat(actor).spent:
            return (self.kill_slot(b), Slot("雨露均沾（已用过）", (), optional=True))
        pool = tuple(s for s in others(b, actor) if not b.traveller(s))
        same_team = b.seat(actor).alignment
        greyed = tuple((s, "与皇上同阵营") for s in pool if b.seat(s).alignment is same_team)
        allowed = tuple(s for s in pool if b.seat(s).alignment is not same_team)
        return (self.kill_slot(b), Slot("雨露均沾（女性角色变为宠妃，旅行者除外）", allowed, optional=True, greyed=greyed))

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        kill, convert = targets
        notes = [convert_note(b, actor, convert, impaired)] if convert is not None else []
        if b.night.number > 1:
            notes.append(demon_kill(b, actor, kill, impaired, HUANGSHANG))
        # the first night has no kill to miss: 「未杀人」 read as if he could have
        return "；".join(notes) or "未用雨露均沾"


def convert_note(b: Board, actor: int, target: int, impaired: bool) -> str:
    """雨露均沾: spent unless it failed on a man or a protected player (then he may try again). An
    impaired 皇上's is spent whomever he aimed it at (DECISIONS #5): he used it, and it failed for
    his state before anything about the target could matter. Its token marks the one he used it on,
    as every token marks a choice even when the ability failed (an impaired 皇上's too); a try that
    leaves it unused (可再用) marks nobody — the token, which stays, would read as a 宠妃 made — and the
    record says whom he tried."""
    if impaired:
        b.remind(HUANGSHANG, "雨露均沾", target)
        b.spend(actor, CONVERT)
        return f"雨露均沾{no(target)}无效（皇上中毒或醉酒），技能已用"
    if not b.female(target):
        return f"雨露均沾{no(target)}失败（非女性角色），可再用"
    if b.has(target, StatusKind.PROTECTED):
        return f"雨露均沾{no(target)}失败（受果郡王保护），可再用"
    b.remind(HUANGSHANG, "雨露均沾", target)
    b.spend(actor, CONVERT)
    b.change_role(target, CHONGFEI, Alignment.EVIL, keep_spent=True, why="（雨露均沾）")
    b.update_night(conversion=target)
    if b.evil_know_each_other():
        b.owe(OwedKind.CHONGFEI, target)
    return f"{no(target)}成为宠妃，加入邪恶阵营"


class Taishanghuang(_Demon):
    key, role, label = StepKey.TAISHANGHUANG, TAISHANGHUANG, "太上皇：杀人；自杀则让位"
    prompt = (
        "唤醒太上皇。他指向一名玩家：该玩家死亡。若他指向自己，由说书人选定上一个白天与说书人私聊过的玩家，"
        "天亮时该玩家成为皇上。"
    )

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (
            self.kill_slot(b),
            Slot("自杀时：继位为皇上的玩家（说书人决定，旅行者除外）",
                 tuple(s for s in others(b, actor) if not b.traveller(s)), optional=True),
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
        note = demon_kill(b, actor, kill, impaired, TAISHANGHUANG)
        if kill == actor and b.died_tonight(actor, DeathCause.DEMON):
            assert successor is not None
            b.update_night(succession=(actor, successor))
            b.remind(TAISHANGHUANG, "继位", successor)
            note += f"；天亮时{no(successor)}继位为皇上"
        return note


class Nvhuang(_Demon):
    key, role, label = StepKey.NVHUANG, NVHUANG, "女皇：杀人"
    prompt = "唤醒女皇。她指向一名玩家：该玩家死亡。"

    def disabled(self, b: Board, actor: int | None) -> str | None:
        # one demon kill a night: a 皇后 who succeeded when 皇上 killed himself tonight kills from tomorrow
        # (a step greyed for a demon already dead, 「已死亡」, has no target: nobody was killed by it)
        if any(r.step in _OTHER_DEMONS and not r.passed and r.targets[:1] not in ((), (None,))
               for r in b.night.records):
            return "今晚恶魔已杀过人：女皇明晚起杀人"
        return super().disabled(b, actor)

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (self.kill_slot(b),)

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        return demon_kill(b, actor, targets[0], impaired, NVHUANG)


_OTHER_DEMONS = frozenset({StepKey.HUANGSHANG, StepKey.TAISHANGHUANG})
