"""Night steps around death: 祺贵人's start-of-night victim, 甄嬛's counter-kill, 叶澜依's blessing,
年羹尧's last act and 孙答应 following 狂徒. Every death here is at once (DECISIONS #9)."""

from __future__ import annotations

from chalicelib.games.zhenhuan.board import Board, no
from chalicelib.games.zhenhuan.enums import Ability, DeathCause, StepKey
from chalicelib.games.zhenhuan.roles import (
    HUANGHOU,
    HUANGSHANG,
    KUANGTU,
    NIANGENGYAO,
    NVHUANG,
    QIGUIREN,
    SUNDAYING,
    YELANYI,
    ZHENHUAN,
)
from chalicelib.games.zhenhuan.stepbase import Slot, Step, others

REVIVE, TAKE = Ability.REVIVE, Ability.TAKE


class Qiguiren(Step):
    key, role, label = StepKey.QIGUIREN, QIGUIREN, "祺贵人检举正确：说书人选择一名玩家死亡（夜晚开始时）"
    prompt = "祺贵人昨日检举正确：选择一名玩家在夜晚开始时死亡（可参考随机抽中的人选），按「死亡」。"

    def actor(self, b: Board) -> int | None:
        q = b.night.qiguiren
        return q[0] if q else None

    def disabled(self, b: Board, actor: int | None) -> str | None:
        return None

    def hint(self, b: Board, actor: int | None) -> str:
        q = b.night.qiguiren
        return f"随机抽中：{no(q[1])}" if q else ""

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (Slot("死亡的玩家（「死亡」）", tuple(b.living())),)

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert targets[0] is not None
        b.kill([targets[0]], DeathCause.QIGUIREN, "祺贵人检举正确")
        return f"{no(targets[0])}在夜晚开始时死亡"


def counter_killer(b: Board, zhenhuan: int) -> int | None:
    """Her killer tonight if he is 皇上 or a 女皇 who was 皇后 (太上皇 does not trigger it)."""
    if not b.died_tonight(zhenhuan, DeathCause.DEMON):
        return None
    for d in b.night.deaths:
        if d.seat == zhenhuan and d.cause is DeathCause.DEMON and d.by is not None and d.by != zhenhuan:
            killer = b.seat(d.by)
            if killer.role == HUANGSHANG or (killer.role == NVHUANG and killer.original_role == HUANGHOU):
                return d.by
    return None


class Zhenhuan(Step):
    key, role, label, wakes_dead = (
        StepKey.ZHENHUAN, ZHENHUAN, "甄嬛：被皇上或皇后（女皇）杀死时反杀，成为女皇", True,
    )  # fmt: skip
    prompt = "如果甄嬛今晚被皇上或皇后所化的女皇杀死、且状态正常：她可以反杀，杀手死亡，甄嬛天亮时成为女皇。"

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        if counter_killer(b, actor) is None:
            return "今晚未被皇上或皇后所化女皇杀死"
        if b.impaired(actor):
            return f"甄嬛{b.impairment_text(actor)}：不会反杀"
        return None

    def hint(self, b: Board, actor: int | None) -> str:
        killer = counter_killer(b, actor) if actor is not None else None
        return f"反杀{no(killer)}，天亮时甄嬛成为女皇（跳过=不反杀）" if killer is not None else ""

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        killer = counter_killer(b, actor)
        assert killer is not None
        b.update_seat(actor, alive=True)
        b.revived(actor)
        b.update_night(deaths=tuple(d for d in b.night.deaths if d.seat != actor))
        b.unseen_at_night(actor, alive=True)
        b.update_night(counter_kill=(actor, killer), counter_kill_alive=b.living_players())
        b.remind(ZHENHUAN, "反杀", killer)
        b.kill([killer], DeathCause.COUNTER, "甄嬛反杀", by=actor)
        return f"甄嬛{no(actor)}反杀{no(killer)}：{no(killer)}死亡，甄嬛天亮时成为女皇"


class Yelanyi(Step):
    key, role, label = StepKey.YELANYI, YELANYI, "叶澜依：祝福一名死亡玩家，天亮复活（全局一次）"
    prompt = "唤醒叶澜依。她可以指向一名死亡玩家：天亮时该玩家复活并重置技能（全局一次；选中活人也算用过）。"

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        return "技能已用过" if REVIVE in b.seat(actor).spent else super().disabled(b, actor)

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (Slot("祝福的玩家（选中活人也算用过）", others(b, actor, living=False)),)

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None and targets[0] is not None
        target = targets[0]
        b.spend(actor, REVIVE)
        b.remind(YELANYI, "祝福", target)
        if impaired:
            return f"叶澜依中毒或醉酒：{no(target)}不会复活，技能已用"
        if b.alive(target):
            return f"{no(target)}未死亡：技能已用"
        if b.is_demon(target):
            return f"{no(target)}是已死亡的恶魔：复活失效，技能已用"
        b.update_night(revive=target)
        return f"{no(target)}天亮时复活并重置技能"


class Niangengyao(Step):
    key, role, label, wakes_dead = (
        StepKey.NIANGENGYAO, NIANGENGYAO, "年羹尧：夜晚死亡时带走一名玩家（全局一次）", True,
    )  # fmt: skip
    prompt = "如果年羹尧今晚死亡：唤醒他，他可以指向一名玩家带走（全局一次，果郡王的守护无效）。"

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        if TAKE in b.seat(actor).spent:
            return "技能已用过"
        if not b.died_tonight(actor):
            return "今晚未死亡"
        return super().disabled(b, actor)

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (Slot("带走（果郡王的保护无效）", others(b, actor), optional=True),)

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        (target,) = targets
        if target is None:
            return "未发动"
        b.spend(actor, TAKE)
        b.remind(NIANGENGYAO, "带走", target)
        if impaired:
            return f"年羹尧中毒或醉酒：{no(target)}不会死亡，技能已用"
        b.kill([target], DeathCause.NIANGENGYAO, "年羹尧带走", by=actor)
        return f"带走{no(target)}：{no(target)}死亡"


class Sundaying(Step):
    key, role, label = StepKey.SUNDAYING, SUNDAYING, "孙答应：狂徒已死则随之死亡"
    prompt = "如果狂徒已死亡：孙答应死亡，随即全场醉酒（一夜一天）。"

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        dead = super().disabled(b, actor)
        if dead is not None and not b.alive(actor):
            return dead
        if not any(not b.alive(k) for k in b.holders(KUANGTU)):
            return "狂徒未死亡"
        if b.impaired(actor):
            return f"孙答应{b.impairment_text(actor)}：本晚不会死亡，下一夜再判断"
        return None

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        b.kill([actor], DeathCause.SUNDAYING, "孙答应随狂徒")
        return "孙答应随狂徒死亡（全场醉酒）"
