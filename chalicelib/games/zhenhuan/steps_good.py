"""Night steps of the good team (and 祺贵人's start-of-night death chosen by the storyteller)."""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan.board import Board, no, nos
from chalicelib.games.zhenhuan.events import Answer, SeatRole
from chalicelib.games.zhenhuan.roles import (
    CHONGFEI,
    GUOJUNWANG,
    HUANBI,
    HUANGHOU,
    HUANGSHANG,
    JINGFEI,
    JINXI,
    KUANGTU,
    NIANGENGYAO,
    NVHUANG,
    QIGUIREN,
    ROLES,
    SANAGE,
    SANAGE_DIES,
    SANAGE_FAILS,
    SUNDAYING,
    TRAVELLER,
    WENTAIYI,
    YELANYI,
    YURAO,
    ZHENHUAN,
    Alignment,
    Team,
)
from chalicelib.games.zhenhuan.state import StatusKind
from chalicelib.games.zhenhuan.stepbase import (
    AnswerKind,
    Slot,
    StatusStep,
    Step,
    add_pending,
    everyone,
    others,
    remove_pending,
    role_of,
)

REVIVE, TAKE = "revive", "take"


class Qiguiren(Step):
    key, role, label = "qiguiren", QIGUIREN, "祺贵人检举正确：说书人选择一名玩家死亡（夜晚开始时）"

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
        dead = b.kill_now([targets[0]], "祺贵人检举正确")
        b.update_night(dusk_deaths=b.night.dusk_deaths + tuple(dead))
        b.update(unannounced=b.state.unannounced + tuple(dead))
        return f"{no(targets[0])}在夜晚开始时死亡"


class Guojunwang(StatusStep):
    key, role, label = "guojunwang", GUOJUNWANG, "果郡王：保护一名玩家（免刀免睡）"
    status, verb, slot_label = StatusKind.PROTECTED, "保护", "保护（不可是自己，不可连续同一人）"
    no_repeat, until_dawn = True, True


def _counter_killer(b: Board, zhenhuan: int) -> int | None:
    """Her killer tonight if he is 皇上 or a 女皇 who was 皇后 (太上皇 does not trigger it)."""
    for p in b.night.pending:
        if p.seat == zhenhuan and p.cause == "demon" and p.by is not None and p.by != zhenhuan:
            killer = b.seat(p.by)
            if killer.role == HUANGSHANG or (killer.role == NVHUANG and killer.original_role == HUANGHOU):
                return p.by
    return None


class Zhenhuan(Step):
    key, role, label = "zhenhuan", ZHENHUAN, "甄嬛：被皇上或皇后（女皇）杀死时反杀，成为女皇"

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        if _counter_killer(b, actor) is None:
            return "今晚未被皇上或皇后所化女皇杀死"
        if b.impaired(actor):
            return f"甄嬛{b.impairment_text(actor)}：不会反杀"
        return None

    def hint(self, b: Board, actor: int | None) -> str:
        killer = _counter_killer(b, actor) if actor is not None else None
        return f"反杀{no(killer)}，天亮时甄嬛成为女皇（跳过=不反杀）" if killer is not None else ""

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        killer = _counter_killer(b, actor)
        assert killer is not None
        remove_pending(b, actor, "demon")
        add_pending(b, killer, "counter", actor)
        b.update_night(counter_kill=(actor, killer))
        return f"甄嬛{no(actor)}反杀{no(killer)}，天亮时成为女皇"


def touch(b: Board, target: int) -> tuple[bool, bool, bool, str]:
    """三阿哥's touch on `target`: (success, he dies, a 宠妃 is restored, note)."""
    seat = b.seat(target)
    if b.has(target, StatusKind.PROTECTED):
        return False, False, False, "目标受果郡王保护，染指无效"
    if target == b.night.conversion:
        return False, True, False, "与皇上同晚染指同一人，被捉奸处死"
    if seat.role in SANAGE_DIES:
        return False, True, False, f"染指{ROLES[seat.role].name}，大逆不道，处死"
    if not b.female(target) or seat.role in SANAGE_FAILS:
        return False, False, False, f"染指{ROLES[seat.role].name}失败"
    restore = seat.role == CHONGFEI and seat.original_role is not None
    return True, False, restore, "染指成功" + ("，宠妃恢复原来的角色与阵营" if restore else "")


class Sanage(Step):
    key, role, label, info = "sanage", SANAGE, "三阿哥：染指相邻的存活玩家", "success"

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        assert actor is not None
        return (Slot("染指（左右第一个存活玩家）", b.neighbours(actor)),)

    def hint(self, b: Board, actor: int | None) -> str:
        assert actor is not None
        return "；".join(f"{no(n)}：{touch(b, n)[3]}" for n in b.neighbours(actor))

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        assert targets[0] is not None
        return touch(b, targets[0])[0]

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None and targets[0] is not None
        target = targets[0]
        _, dies, restore, note = touch(b, target)
        if impaired:
            return f"三阿哥中毒或醉酒：染指{no(target)}不生效（真实结果：{note}）"
        if dies:
            add_pending(b, actor, "sanage")
        if restore:
            seat = b.seat(target)
            assert seat.original_role is not None
            b.change_role(
                target, seat.original_role, seat.original_alignment, keep_spent=True, why="（三阿哥染指）"
            )
        return f"染指{no(target)}：{note}"

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        return f"染指{no(targets[0] or 0)}：{'成功' if value else '失败'}"


class Yelanyi(Step):
    key, role, label = "yelanyi", YELANYI, "叶澜依：祝福一名死亡玩家，天亮复活（全局一次）"

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        return "技能已用过" if REVIVE in b.seat(actor).spent else super().disabled(b, actor)

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (Slot("祝福的玩家（选中活人也算用过）", others(b, actor, living=False)),)

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None and targets[0] is not None
        target = targets[0]
        b.spend(actor, REVIVE)
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
        "niangengyao",
        NIANGENGYAO,
        "年羹尧：夜晚死亡时带走一名玩家（全局一次）",
        True,
    )

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        if TAKE in b.seat(actor).spent:
            return "技能已用过"
        if not b.dying_tonight(actor):
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
        if impaired:
            return f"年羹尧中毒或醉酒：{no(target)}不会死亡，技能已用"
        add_pending(b, target, "niangengyao", actor)
        return f"带走{no(target)}（天亮生效）"


class Yurao(Step):
    key, role, label = "yurao", YURAO, "玉娆：首夜得知一名善良玩家及其身份；此后其被恶魔杀死时连带死亡"

    def info_kind(self, b: Board) -> AnswerKind | None:
        return "seat_role" if b.night.number == 1 else None

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        if b.night.number == 1:
            return None  # pinned: no information, but the link still exists
        link = b.seat(actor).link
        if link is None:
            return "没有绑定的玩家"
        if not b.dying_tonight(link, "demon"):
            return f"绑定的{no(link)}今晚未被恶魔杀死"
        if b.impaired(actor):
            return f"玉娆{b.impairment_text(actor)}：不会连带死亡"
        return None

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        if b.night.number != 1:
            return ()
        good = tuple(s.seat for s in b.seats if s.alignment is Alignment.GOOD and s.seat != actor)
        return (Slot("告知的善良玩家（绑定）", good),)

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        if b.night.number != 1 or targets[0] is None:
            return None
        return SeatRole(seat=targets[0], role=b.seat(targets[0]).role)

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        if b.night.number == 1:
            assert targets[0] is not None
            b.update_seat(actor, link=targets[0])
            pinned = " 玉娆被按住：不告知信息" if b.has(actor, StatusKind.PINNED) else ""
            return f"绑定{no(targets[0])}（{role_of(b, targets[0])}）{pinned}"
        add_pending(b, actor, "yurao")
        return "绑定的玩家被恶魔杀死：玉娆连带死亡（天亮生效）"

    def deliver(self, b: Board, actor: int | None, targets: tuple[int | None, ...], value: Answer) -> None:
        if actor is not None and not b.has(actor, StatusKind.PINNED):
            super().deliver(b, actor, targets, value)

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        assert isinstance(value, SeatRole)
        return f"{no(value.seat)}是善良玩家「{ROLES[value.role].name}」"


class Sundaying(Step):
    key, role, label = "sundaying", SUNDAYING, "孙答应：狂徒已死则随之死亡"

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        if not any(not b.alive(k) or b.dying_tonight(k) for k in b.holders(KUANGTU)):
            return "狂徒未死亡"
        if b.impaired(actor):
            return f"孙答应{b.impairment_text(actor)}：本晚不会死亡，下一夜再判断"
        return None

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        add_pending(b, actor, "sundaying")
        return "孙答应随狂徒死亡（天亮生效，全场醉酒）"


class Jingfei(Step):
    key, role, label, wakes_dead = (
        "jingfei",
        JINGFEI,
        "敬妃：首夜得知女性玩家数；夜晚被杀时得知存活的邪恶玩家",
        True,
    )

    def info_kind(self, b: Board) -> AnswerKind | None:
        return "number" if b.night.number == 1 else "seats"

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        if b.night.number != 1 and not b.dying_tonight(actor):
            return "今晚未被杀死"
        return super().disabled(b, actor)

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        if b.night.number == 1:
            return sum(1 for s in b.seats if _counts_as_woman(b, s.seat))
        return tuple(s.seat for s in b.seats if s.alive and s.alignment is Alignment.EVIL)

    def hint(self, b: Board, actor: int | None) -> str:
        value = self.truth(b, actor, ())
        assert value is not None
        return self.render(b, (), value)

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        if isinstance(value, tuple):
            return f"存活的邪恶阵营玩家：{nos(value)}"
        return f"场上女性玩家数：{value}"


def _counts_as_woman(b: Board, seat: int) -> bool:
    s = b.seat(seat)
    return s.traveller_female if s.role == TRAVELLER else ROLES[s.role].counts_for_jingfei


class Jinxi(Step):
    key, role, label, info = "jinxi", JINXI, "瑾汐姑姑：选择两名玩家，得知其中是否有恶魔", "yesno"

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (Slot("玩家一（可选自己）", everyone(b)), Slot("玩家二", everyone(b)))

    def validate(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> None:
        if targets[0] == targets[1]:
            raise IllegalAction("请选择两名不同的玩家", code="SAME_TARGET_TWICE")

    def hint(self, b: Board, actor: int | None) -> str:
        return f"恶魔：{nos(s.seat for s in b.seats if ROLES[s.role].team is Team.DEMON)}"

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        return any(t is not None and b.is_demon(t) for t in targets)

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        a, c = (t or 0 for t in targets)
        return f"{no(a)}与{no(c)}之中{'有' if value else '没有'}恶魔"


class Wentaiyi(Step):
    key, role, label, info = "wentaiyi", WENTAIYI, "温太医：查验一名玩家是否中毒或醉酒", "yesno"

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (Slot("查验的玩家", everyone(b)),)

    def hint(self, b: Board, actor: int | None) -> str:
        return f"中毒或醉酒：{nos(s.seat for s in b.seats if b.poisoned_or_drunk(s.seat))}"

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        return targets[0] is not None and b.poisoned_or_drunk(targets[0])

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        return f"{no(targets[0] or 0)}{'中毒或醉酒' if value else '未中毒也未醉酒'}"


class Huanbi(Step):
    key, role, label, info = "huanbi", HUANBI, "浣碧：得知恶魔与最近爪牙的间距", "number"

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        demons = [s.seat for s in b.seats if b.is_demon(s.seat)]
        minions = [s.seat for s in b.seats if b.is_minion(s.seat)]
        return min((b.distance(d, m) for d in demons for m in minions), default=0)

    def hint(self, b: Board, actor: int | None) -> str:
        return f"间距：{self.truth(b, actor, ())}"

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        return f"恶魔与最近的爪牙间距为{value}"
