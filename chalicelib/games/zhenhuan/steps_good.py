"""Night steps of the good information and protection roles: 果郡王, 三阿哥, 瑾汐姑姑, 温太医, 浣碧,
玉娆 and 敬妃. The information steps suggest a false answer when their actor is poisoned or drunk."""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan import falseinfo
from chalicelib.games.zhenhuan.board import Board, no, nos
from chalicelib.games.zhenhuan.enums import Ability, AnswerKind, DeathCause, StatusKind, StepKey
from chalicelib.games.zhenhuan.events import Answer, SeatRole
from chalicelib.games.zhenhuan.roles import (
    CHONGFEI,
    GUOJUNWANG,
    HUANBI,
    JINGFEI,
    JINXI,
    ROLES,
    SANAGE,
    SANAGE_DIES,
    SANAGE_FAILS,
    TRAVELLER,
    WENTAIYI,
    YURAO,
    Alignment,
)
from chalicelib.games.zhenhuan.stepbase import Slot, StatusStep, Step, everyone, others, role_of


class Guojunwang(StatusStep):
    key, role, label = StepKey.GUOJUNWANG, GUOJUNWANG, "果郡王：保护一名玩家（免刀免睡）"
    prompt = "唤醒果郡王。他指向除自己外的一名玩家（不可与上次相同）：该玩家今晚免刀免睡。"
    status, verb, slot_label, token = StatusKind.PROTECTED, "保护", "保护（不可是自己，不可连续同一人）", "受保护"
    pick, until_dawn = Ability.PROTECT, True


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
    key, role, label, info = StepKey.SANAGE, SANAGE, "三阿哥：染指相邻的存活玩家", AnswerKind.SUCCESS
    prompt = "唤醒三阿哥。他指向左右第一个存活的邻座之一；告知他染指成功（点头）或失败（摇头）。"
    suggests = True

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        assert actor is not None
        return (Slot("染指（左右第一个存活玩家）", b.neighbours(actor)),)

    def hint(self, b: Board, actor: int | None) -> str:
        assert actor is not None
        return "；".join(f"{no(n)}：{touch(b, n)[3]}" for n in b.neighbours(actor))

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        assert targets[0] is not None
        return touch(b, targets[0])[0]

    def suggest(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        return not self.truth(b, actor, targets)

    def suggest_hint(self, b: Board, actor: int | None) -> str:
        return "告知与真实结果相反（成功↔失败）"

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None and targets[0] is not None
        target = targets[0]
        b.remind(SANAGE, "染指", target)
        _, dies, restore, note = touch(b, target)
        if impaired:
            return f"三阿哥中毒或醉酒：染指{no(target)}不生效（真实结果：{note}）"
        if dies:
            b.kill([actor], DeathCause.SANAGE, "三阿哥被处死")
        if restore:
            seat = b.seat(target)
            assert seat.original_role is not None
            b.change_role(
                target, seat.original_role, seat.original_alignment, keep_spent=True, why="（三阿哥染指）"
            )
        return f"染指{no(target)}：{note}"

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        return f"染指{no(targets[0] or 0)}：{'成功' if value else '失败'}"


class Jinxi(Step):
    key, role, label, info = StepKey.JINXI, JINXI, "瑾汐姑姑：选择两名玩家，得知其中是否有恶魔", AnswerKind.YESNO
    prompt = "唤醒瑾汐姑姑。她指向两名玩家（可含自己）：如果其中有恶魔，点头示意；否则摇头。"
    suggests = True

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (Slot("玩家一（可选自己）", everyone(b)), Slot("玩家二", everyone(b)))

    def validate(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> None:
        if targets[0] == targets[1]:
            raise IllegalAction("请选择两名不同的玩家", code="SAME_TARGET_TWICE")

    def hint(self, b: Board, actor: int | None) -> str:
        return f"恶魔：{nos(b.demons())}"

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        return any(t is not None and b.is_demon(t) for t in targets)

    def suggest(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        assert actor is not None
        return falseinfo.fake_demon(b, actor) in targets

    def suggest_hint(self, b: Board, actor: int | None) -> str:
        assert actor is not None
        return f"把{no(falseinfo.fake_demon(b, actor))}当作恶魔来回答（与此前告知她的信息一致）"

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        a, c = (t or 0 for t in targets)
        return f"{no(a)}与{no(c)}之中{'有' if value else '没有'}恶魔"


class Wentaiyi(Step):
    key, role, label, info = StepKey.WENTAIYI, WENTAIYI, "温太医：查验一名玩家是否中毒或醉酒", AnswerKind.YESNO
    prompt = "唤醒温太医。他指向一名玩家：如果该玩家中毒或醉酒，点头示意；否则摇头。"
    suggests = True

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        return (Slot("查验的玩家", everyone(b)),)

    def hint(self, b: Board, actor: int | None) -> str:
        return f"中毒或醉酒：{nos(s.seat for s in b.seats if b.poisoned_or_drunk(s.seat))}"

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        return targets[0] is not None and b.poisoned_or_drunk(targets[0])

    def suggest(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        return not self.truth(b, actor, targets)

    def suggest_hint(self, b: Board, actor: int | None) -> str:
        return "告知与真实情况相反"

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        return f"{no(targets[0] or 0)}{'中毒或醉酒' if value else '未中毒也未醉酒'}"


class Huanbi(Step):
    key, role, label, info = StepKey.HUANBI, HUANBI, "浣碧：得知恶魔与最近爪牙的间距", AnswerKind.NUMBER
    prompt = "唤醒浣碧，用手指比出恶魔与离他最近的爪牙之间的间距（相邻为1）。"
    suggests = True

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> int:
        return min((b.distance(d, m) for d in b.demons() for m in b.minions()), default=0)

    def suggest(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        return falseinfo.other_number(b, self.truth(b, actor, ()), 1, max(1, len(b.seats) // 2))

    def suggest_hint(self, b: Board, actor: int | None) -> str:
        return f"间距：{self.suggest(b, actor, ())}"

    def hint(self, b: Board, actor: int | None) -> str:
        return f"间距：{self.truth(b, actor, ())}"

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        return f"恶魔与最近的爪牙间距为{value}"


class Yurao(Step):
    key, role, label = StepKey.YURAO, YURAO, "玉娆：首夜得知一名善良玩家及其身份；此后其被恶魔杀死时连带死亡"
    prompt = "首夜：唤醒玉娆，展示一名善良玩家及其角色（二人绑定）。此后：若绑定的玩家今晚被恶魔杀死，玉娆也死亡。"
    first_night = ("玉娆：得知一名善良玩家及其身份", "唤醒玉娆，展示一名善良玩家及其角色（二人绑定）。")
    later_nights = ("玉娆：绑定的玩家被恶魔杀死时连带死亡", "若与玉娆绑定的玩家今晚被恶魔杀死，玉娆也死亡。")
    suggests = True

    def info_kind(self, b: Board) -> AnswerKind | None:
        return AnswerKind.SEAT_ROLE if b.night.number == 1 else None

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        if not b.alive(actor):
            return super().disabled(b, actor)
        if b.night.number == 1:
            return None  # pinned: linked, not told
        link = b.seat(actor).link
        if link is None:
            return "没有绑定的玩家"
        if not b.died_tonight(link, DeathCause.DEMON):
            return f"绑定的{no(link)}今晚未被恶魔杀死"
        if b.impaired(actor):
            return f"玉娆{b.impairment_text(actor)}：不会连带死亡"
        return None

    def slots(self, b: Board, actor: int | None) -> tuple[Slot, ...]:
        if b.night.number != 1:
            return ()
        good = tuple(s for s in others(b, actor, living=False) if b.seat(s).alignment is Alignment.GOOD)
        return (Slot("告知的善良玩家（绑定）", good),)

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        if b.night.number != 1 or targets[0] is None:
            return None
        return SeatRole(seat=targets[0], role=b.seat(targets[0]).role)

    def suggest(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        if b.night.number != 1 or targets[0] is None:
            return None
        return falseinfo.wrong_good_role(b, targets[0])

    def suggest_hint(self, b: Board, actor: int | None) -> str:
        return f"告知所选玩家是「{ROLES[falseinfo.fake_good_role(b)].name}」（若恰是其真实角色则换一个）"

    def resolve(self, b: Board, actor: int | None, targets: tuple[int | None, ...], impaired: bool) -> str:
        assert actor is not None
        if b.night.number == 1:
            assert targets[0] is not None
            b.update_seat(actor, link=targets[0])
            b.remind(YURAO, "绑定", targets[0])
            pinned = " 玉娆被按住：不告知信息" if b.has(actor, StatusKind.PINNED) else ""
            return f"绑定{no(targets[0])}（{role_of(b, targets[0])}）{pinned}"
        b.kill([actor], DeathCause.YURAO, "玉娆连带")
        return "绑定的玩家被恶魔杀死：玉娆连带死亡"

    def deliver(self, b: Board, actor: int | None, targets: tuple[int | None, ...], value: Answer) -> None:
        if actor is not None and not b.has(actor, StatusKind.PINNED):
            super().deliver(b, actor, targets, value)

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        assert isinstance(value, SeatRole)
        return f"{no(value.seat)}是善良玩家「{ROLES[value.role].name}」"


class Jingfei(Step):
    key, role, label, wakes_dead = (
        StepKey.JINGFEI, JINGFEI, "敬妃：首夜得知女性玩家数；夜晚被杀时得知存活的邪恶玩家", True,
    )  # fmt: skip
    prompt = "首夜：唤醒敬妃，比出场上女性玩家的数量（含太监、太医）。此后：若她今晚被杀死，唤醒她并指出所有存活的邪恶玩家。"
    first_night = ("敬妃：得知女性玩家数", "唤醒敬妃，比出场上女性玩家的数量（含太监、太医）。")
    later_nights = ("敬妃：夜晚被杀时得知存活的邪恶玩家", "若敬妃今晚被杀死，唤醒她并指出所有存活的邪恶玩家。")
    suggests = True

    def info_kind(self, b: Board) -> AnswerKind | None:
        return AnswerKind.NUMBER if b.night.number == 1 else AnswerKind.SEATS

    def disabled(self, b: Board, actor: int | None) -> str | None:
        assert actor is not None
        if b.night.number != 1 and not b.died_tonight(actor):
            return "今晚未被杀死"
        return super().disabled(b, actor)

    def truth(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer:
        if b.night.number == 1:
            return sum(1 for s in b.present() if _counts_as_woman(b, s))
        return tuple(s.seat for s in b.seats if s.alive and s.alignment is Alignment.EVIL)

    def suggest(self, b: Board, actor: int | None, targets: tuple[int | None, ...]) -> Answer | None:
        truth = self.truth(b, actor, ())
        if isinstance(truth, tuple):
            return falseinfo.other_seats(b, truth, [s for s in b.living() if s != actor])
        assert isinstance(truth, int)
        least = 1 if actor is not None and _counts_as_woman(b, actor) else 0  # she counts herself
        return falseinfo.other_number(b, truth, max(least, truth - 2), min(len(b.present()), truth + 2))

    def suggest_hint(self, b: Board, actor: int | None) -> str:
        value = self.suggest(b, actor, ())
        assert value is not None
        return self.render(b, (), value)

    def hint(self, b: Board, actor: int | None) -> str:
        return self.render(b, (), self.truth(b, actor, ()))

    def render(self, b: Board, targets: tuple[int | None, ...], value: Answer) -> str:
        if isinstance(value, tuple):
            return f"存活的邪恶阵营玩家：{nos(value)}"
        return f"场上女性玩家数：{value}"


def _counts_as_woman(b: Board, seat: int) -> bool:
    s = b.seat(seat)
    return s.traveller_female if s.role == TRAVELLER else ROLES[s.role].counts_for_jingfei
