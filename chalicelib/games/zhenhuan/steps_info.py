"""Night steps that only tell the evil team (and converted players) who is who: the first-night minion
and demon info (7+ players), and the info the rules owe after a change: a new demon learns her minions
and three bluffs, the minions learn the new demon, a new 宠妃 learns her 皇上, a player whose alignment
changed learns it. These steps are never greyed by a pin: they are not abilities."""

from __future__ import annotations

from typing import ClassVar

from chalicelib.games.zhenhuan.board import ALIGNMENT_NAMES, Board, nos
from chalicelib.games.zhenhuan.enums import OwedKind, StepKey
from chalicelib.games.zhenhuan.events import Answer
from chalicelib.games.zhenhuan.roles import HUANGSHANG, ROLES, Team
from chalicelib.games.zhenhuan.stepbase import Step


def _bluffs(b: Board) -> str:
    return "、".join(ROLES[r].name for r in b.state.bluffs) or "无"


class MinionInfo(Step):
    key, label = StepKey.MINION_INFO, "爪牙信息：爪牙得知恶魔与彼此"
    prompt = "如果有七名或更多玩家：唤醒所有爪牙，展示「这是恶魔」并指向恶魔，让爪牙互相确认。"

    def present(self, b: Board) -> bool:
        return b.evil_know_each_other() and bool(b.minions())

    def disabled(self, b: Board, actor: int | None) -> str | None:
        return None

    def hint(self, b: Board, actor: int | None) -> str:
        return f"恶魔：{nos(b.demons())}；爪牙：{nos(b.minions())}"

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        demons, minions = b.demons(), b.minions()
        for m in minions:
            b.tell(m, self.key, demons, f"恶魔是{nos(demons)}；爪牙：{nos(minions)}")
        return f"爪牙{nos(minions)}得知恶魔{nos(demons)}"


class DemonInfo(Step):
    key, label = StepKey.DEMON_INFO, "恶魔信息：恶魔得知爪牙与三个不在场角色"
    prompt = (
        "如果有七名或更多玩家：唤醒恶魔，展示「这些是你的爪牙」并指向所有爪牙；"
        "展示「这些角色不在场」并给出三个不在场的善良角色。"
    )

    def actor(self, b: Board) -> int | None:
        demons = b.demons()
        return demons[0] if demons else None

    def present(self, b: Board) -> bool:
        return b.evil_know_each_other() and self.actor(b) is not None

    def disabled(self, b: Board, actor: int | None) -> str | None:
        return None

    def hint(self, b: Board, actor: int | None) -> str:
        return f"爪牙：{nos(b.minions())}；伪装：{_bluffs(b)}"

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        for d in b.demons():
            b.tell(d, self.key, b.minions(), f"你的爪牙：{nos(b.minions())}；不在场的角色：{_bluffs(b)}")
        return f"恶魔得知爪牙{nos(b.minions())}与伪装角色{_bluffs(b)}"


class _Owed(Step):
    """Deliver what the rules owe after a change; passing the step drops it (the storyteller's call)."""

    owed: ClassVar[OwedKind]

    def owed_seats(self, b: Board) -> tuple[int, ...]:
        return tuple(o.seat for o in b.state.owed if o.kind is self.owed)

    def recipients(self, b: Board) -> tuple[int, ...]:
        return tuple(s for s in self.owed_seats(b) if b.alive(s))

    def actor(self, b: Board) -> int | None:
        return None

    def present(self, b: Board) -> bool:
        return bool(self.recipients(b))

    def disabled(self, b: Board, actor: int | None) -> str | None:
        return None

    def on_pass(self, b: Board) -> None:
        b.update(owed=tuple(o for o in b.state.owed if o.kind is not self.owed))

    def message(self, b: Board, seat: int) -> tuple[Answer, str]:
        raise NotImplementedError

    def hint(self, b: Board, actor: int | None) -> str:
        return "；".join(f"{nos([s])}：{self.message(b, s)[1]}" for s in self.recipients(b))

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        told = self.recipients(b)
        said: dict[str, list[int]] = {}
        for seat in told:
            value, text = self.message(b, seat)
            b.tell(seat, self.key, value, text)
            said.setdefault(text, []).append(seat)
        self.on_pass(b)
        # in the words they were told: the storyteller's line stands for theirs in her record
        return "；".join(f"告知{nos(seats)}：{text}" for text, seats in said.items())


class NewDemonInfo(_Owed):
    key, owed, label = StepKey.NEW_DEMON_INFO, OwedKind.NEW_DEMON, "新恶魔：得知爪牙与三个不在场角色"
    prompt = (
        "唤醒新的恶魔，展示「这些是你的爪牙」并指向所有爪牙；展示「这些角色不在场」并给出三个不在场的善良角色。"
    )

    def recipients(self, b: Board) -> tuple[int, ...]:
        return tuple(s for s in self.owed_seats(b) if b.alive(s) and b.is_demon(s))

    def message(self, b: Board, seat: int) -> tuple[Answer, str]:
        return b.minions(), f"你的爪牙：{nos(b.minions())}；不在场的角色：{_bluffs(b)}"


class NewMinionInfo(_Owed):
    key, owed, label = StepKey.NEW_MINION_INFO, OwedKind.MINIONS_NEW_DEMON, "爪牙：得知新的恶魔"
    prompt = "唤醒所有爪牙，展示「这是恶魔」并指向新的恶魔。"

    def new_demons(self, b: Board) -> tuple[int, ...]:
        return tuple(s for s in self.owed_seats(b) if b.alive(s) and b.is_demon(s))

    def recipients(self, b: Board) -> tuple[int, ...]:
        if not self.new_demons(b):
            return ()
        return tuple(m for m in b.minions() if b.alive(m))

    def message(self, b: Board, seat: int) -> tuple[Answer, str]:
        demons = self.new_demons(b)
        return demons, f"新的恶魔是{nos(demons)}"


class ChongfeiInfo(_Owed):
    key, owed, label = StepKey.CHONGFEI_INFO, OwedKind.CHONGFEI, "宠妃：得知她的皇上"
    prompt = "唤醒新的宠妃，展示「你是」宠妃卡，再展示「这是恶魔」并指向她的皇上。"

    def recipients(self, b: Board) -> tuple[int, ...]:
        return tuple(s for s in self.owed_seats(b) if b.alive(s) and b.role(s).team is Team.MINION)

    def message(self, b: Board, seat: int) -> tuple[Answer, str]:
        kings = tuple(s for s in b.holders(HUANGSHANG) if b.alive(s))
        return kings, f"你的皇上是{nos(kings)}"


class AlignmentInfo(_Owed):
    key, owed, label = StepKey.ALIGNMENT_INFO, OwedKind.ALIGNMENT, "阵营改变：告知玩家现在的阵营"
    prompt = "唤醒阵营改变的玩家，展示「你是」卡，并告知她现在所属的阵营。"

    def recipients(self, b: Board) -> tuple[int, ...]:
        return self.owed_seats(b)

    def message(self, b: Board, seat: int) -> tuple[Answer, str]:
        alignment = b.seat(seat).alignment
        return alignment.value == "evil", f"你现在属于{ALIGNMENT_NAMES[alignment]}阵营"

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        told = self.recipients(b)
        for seat in told:
            b.you_are(seat)
            b.show_demon_to_evil_traveller(seat)
        self.on_pass(b)
        return f"告知{nos(told)}现在的阵营"
