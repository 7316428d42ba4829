"""The night: its order, 入夜 (dusk automation), walking the steps, and 天亮 (dawn: deaths land together).

The order is written in docs/rules/zhenhuan.md and pinned by a test.
"""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.actions import Dusk, NightStep
from chalicelib.games.zhenhuan.board import Board, no, nos
from chalicelib.games.zhenhuan.day import execute
from chalicelib.games.zhenhuan.events import AnnounceEvent, Answer, PhaseEvent, SeatRole
from chalicelib.games.zhenhuan.roles import GUOJUNWANG, HUANBI, HUANGSHANG, NVHUANG, ROLES, Alignment
from chalicelib.games.zhenhuan.state import DayState, NightState, Phase, StatusKind, StepRecord
from chalicelib.games.zhenhuan.stepbase import ANSWER_TYPES, Step
from chalicelib.games.zhenhuan.steps_evil import (
    Anlingrong,
    Chongfei,
    DemonInfo,
    Huafei,
    Huanghou,
    Huangshang,
    MinionInfo,
    Nvhuang,
    Taishanghuang,
)
from chalicelib.games.zhenhuan.steps_good import (
    Guojunwang,
    Huanbi,
    Jingfei,
    Jinxi,
    Niangengyao,
    Qiguiren,
    Sanage,
    Sundaying,
    Wentaiyi,
    Yelanyi,
    Yurao,
    Zhenhuan,
)

FIRST_NIGHT: tuple[str, ...] = (
    "minion_info",
    "demon_info",
    "anlingrong",
    "huafei",
    "guojunwang",
    "huangshang",
    "chongfei",
    "yurao",
    "huanbi",
    "jingfei",
    "jinxi",
    "wentaiyi",
)
OTHER_NIGHTS: tuple[str, ...] = (
    "qiguiren",
    "chongfei",
    "anlingrong",
    "huafei",
    "guojunwang",
    "huanghou",
    "huangshang",
    "taishanghuang",
    "nvhuang",
    "zhenhuan",
    "sanage",
    "yelanyi",
    "niangengyao",
    "yurao",
    "sundaying",
    "jingfei",
    "jinxi",
    "wentaiyi",
)
_ALL_STEPS: tuple[Step, ...] = (
    MinionInfo(), DemonInfo(), Anlingrong(), Huafei(), Chongfei(), Huanghou(), Huangshang(), Taishanghuang(),
    Nvhuang(), Qiguiren(), Guojunwang(), Zhenhuan(), Sanage(), Yelanyi(), Niangengyao(), Yurao(), Sundaying(),
    Jingfei(), Jinxi(), Wentaiyi(), Huanbi(),
)  # fmt: skip
STEPS: dict[str, Step] = {s.key: s for s in _ALL_STEPS}


def order_for(number: int) -> tuple[str, ...]:
    return FIRST_NIGHT if number == 1 else OTHER_NIGHTS


def current(b: Board) -> tuple[str, Step] | None:
    night = b.night
    steps = order_for(night.number)
    if night.cursor >= len(steps):
        return None
    return steps[night.cursor], STEPS[steps[night.cursor]]


def _first_present(b: Board, start: int) -> int:
    steps = order_for(b.night.number)
    i = start
    while i < len(steps) and not STEPS[steps[i]].present(b):
        i += 1
    return i


def start_night(b: Board, number: int) -> None:
    b.update(phase=Phase.NIGHT, night_no=number, night=NightState(number=number), day=None)
    b.emit(PhaseEvent(phase="night", number=number, text=f"入夜：第{number}夜"))


def open_steps(b: Board) -> None:
    b.update_night(cursor=_first_present(b, 0))


def begin(b: Board) -> None:
    """Lock setup: 浣碧 beside 果郡王 is drunk for good; the first night starts."""
    for h in b.holders(HUANBI):
        if any(b.seat(n).role == GUOJUNWANG for n in b.neighbours(h)):
            b.add_status(h, StatusKind.DRUNK, HUANBI, by=h, until=None)
            b.host(f"浣碧{no(h)}坐在果郡王身边：永久醉酒")
    b.host("开局：" + "；".join(f"{no(s.seat)}{ROLES[s.role].name}" for s in b.seats))
    start_night(b, 1)
    open_steps(b)


def dusk(b: Board, action: Dusk, rng: Rng) -> None:
    """入夜: execute the block if asked; expire until-dusk statuses; curse deaths; 祺贵人's accusation."""
    day = b.state.day
    if day is None:
        raise IllegalAction("只有白天才能入夜", code="NOT_DAY")
    if day.block is not None and not day.executed_done:
        if action.execute_block:
            execute(b, day.block)
            if b.state.phase is Phase.OVER:
                return
        else:
            b.host(f"说书人决定不处决处决台上的{no(day.block)}", override=True)
    number = b.state.night_no + 1
    start_night(b, number)
    cursed = [
        s.seat
        for s in b.state.statuses
        if s.kind is StatusKind.CURSED and s.until and s.until.night == number
    ]
    # poison is lifted before the curse kills (seed: 先解除下毒状态，然后诅咒致人死亡)
    b.expire("dusk", number)
    dead = b.kill_now(cursed, "诅咒")
    qiguiren: tuple[int, int] | None = None
    for acc in day.accusations:
        if not acc.effective:
            continue
        if acc.correct:
            pool = [s for s in b.living() if s != acc.by]
            if pool:
                qiguiren = (acc.by, rng.choice(pool))
        else:
            dead += b.kill_now([acc.by], "祺贵人检举错误")
    b.update_night(dusk_deaths=tuple(dead), qiguiren=qiguiren)
    b.update(unannounced=tuple(dead))
    open_steps(b)


def night_step(b: Board, action: NightStep) -> None:
    """Resolve the current step.

    Raises:
        IllegalAction: not night, no step left, the wrong step, bad targets or a bad answer.
    """
    now = current(b)
    if now is None:
        raise IllegalAction("今晚的步骤已全部完成，请天亮", code="NIGHT_STEPS_DONE")
    key, step = now
    if action.step != key:
        raise IllegalAction(f"当前步骤是「{step.label}」", code="STEP_MISMATCH")
    actor = step.actor(b)
    reason = step.disabled(b, actor)
    number = b.night.number
    if reason is not None or action.skip:
        if action.targets and any(t is not None for t in action.targets) or action.answer is not None:
            raise IllegalAction("此步骤不可用或已跳过，不能选择目标", code="STEP_DISABLED")
        _record(b, StepRecord(step=key, actor=actor, skipped=action.skip, disabled=reason))
        b.host(
            f"第{number}夜「{step.label}」" + (f"不可用：{reason}" if reason else "：说书人跳过"),
            override=reason is None,
        )
        b.update_night(cursor=_first_present(b, b.night.cursor + 1))
        return
    targets = _check_targets(b, step, actor, action.targets)
    kind = step.info_kind(b)
    if action.answer is not None:
        if kind is None:
            raise IllegalAction("此步骤没有需要告知的信息", code="NO_ANSWER_HERE")
        _check_answer(b, kind, action.answer)
    impaired = actor is not None and b.poisoned_or_drunk(actor)
    truth = step.truth(b, actor, targets) if kind else None
    note = step.resolve(b, actor, targets, impaired)
    given = None
    if kind is not None:
        given = action.answer if action.answer is not None else truth
        assert given is not None
        step.deliver(b, actor, targets, given)
    who = f"{no(actor)}" if actor is not None else ""
    line = f"第{number}夜「{step.label}」{who}" + (f"：{note}" if note else "")
    if kind is not None:
        line += f"；真实信息：{_plain(truth)}；告知：{_plain(given)}" + ("（中毒或醉酒）" if impaired else "")
    b.host(line, override=kind is not None and given != truth and not impaired)
    _record(
        b,
        StepRecord(
            step=key, actor=actor, targets=targets, impaired=impaired, truth=truth, given=given, note=note
        ),
    )
    b.update_night(cursor=_first_present(b, b.night.cursor + 1))


def _record(b: Board, record: StepRecord) -> None:
    b.update_night(records=b.night.records + (record,))


def _check_targets(
    b: Board, step: Step, actor: int | None, given: tuple[int | None, ...]
) -> tuple[int | None, ...]:
    slots = step.slots(b, actor)
    if len(given) > len(slots):
        raise IllegalAction("目标数量过多", code="TOO_MANY_TARGETS")
    targets = tuple(given) + (None,) * (len(slots) - len(given))
    for slot, t in zip(slots, targets, strict=True):
        if t is None:
            if not slot.optional:
                raise IllegalAction(f"请选择：{slot.label}", code="TARGET_REQUIRED")
        elif t not in slot.allowed:
            raise IllegalAction(f"{no(t)}不能作为「{slot.label}」的目标", code="TARGET_NOT_ALLOWED")
    step.validate(b, actor, targets)
    return targets


def _check_answer(b: Board, kind: str, answer: Answer) -> None:
    want = ANSWER_TYPES[kind]
    ok = type(answer) is want
    if ok and isinstance(answer, tuple):
        ok = all(type(s) is int and 0 <= s < len(b.seats) for s in answer)
    if ok and isinstance(answer, SeatRole):
        ok = 0 <= answer.seat < len(b.seats) and answer.role in ROLES
    if ok and kind == "number":
        ok = isinstance(answer, int) and answer >= 0
    if not ok:
        raise IllegalAction("告知的信息格式不对", code="BAD_ANSWER")


def _plain(value: Answer | None) -> str:
    if isinstance(value, bool):
        return "是" if value else "否"
    if isinstance(value, tuple):
        return nos(value)
    if isinstance(value, SeatRole):
        return f"{no(value.seat)}{ROLES[value.role].name}"
    return str(value)


def dawn(b: Board) -> None:
    """天亮: the night's deaths land together, then 甄嬛/太上皇 successions, 皇后, 叶澜依, the announcement."""
    night = b.night
    n = night.number
    steps = order_for(n)
    left = [STEPS[k].label for k in steps[night.cursor :] if STEPS[k].present(b)]
    if left:
        b.host(f"第{n}夜未进行的步骤：{'、'.join(left)}", override=True)
    roles_at = {p.seat: b.seat(p.seat).role for p in night.pending}
    deaths = [s for s in dict.fromkeys(p.seat for p in night.pending) if b.die(s)]
    for p in night.pending:
        if p.seat in deaths:
            b.host(
                f"{no(p.seat)}死亡，原因：{_CAUSES.get(p.cause, p.cause)}"
                + (f"（{no(p.by)}）" if p.by is not None else "")
            )
    if night.counter_kill:
        zhenhuan, killer = night.counter_kill
        if b.alive(zhenhuan) and not b.alive(killer):
            b.change_role(zhenhuan, NVHUANG, Alignment.EVIL, why="（反杀）")
    if night.succession:
        old, heir = night.succession
        if not b.alive(old) and b.alive(heir):
            b.change_role(heir, HUANGSHANG, Alignment.EVIL, why="（太上皇让位）")
    b.after_deaths(deaths, roles_at)
    revived: tuple[int, ...] = tuple(x for x in b.state.unannounced_revivals if b.alive(x))
    if night.revive is not None and not b.alive(night.revive):
        revived = tuple(sorted((*revived, night.revive)))
        b.update_seat(night.revive, alive=True, ghost_vote=True, spent=frozenset())
        b.host(f"{no(night.revive)}被叶澜依复活，技能重置")
    b.expire("dawn", n)
    announced = tuple(sorted(set(b.state.unannounced) | set(deaths)))
    b.update(phase=Phase.DAY, night=None, day=DayState(number=n), unannounced=(), unannounced_revivals=())
    b.emit(PhaseEvent(phase="day", number=n, text=f"天亮：第{n}天"))
    text = f"昨夜死亡：{nos(announced)}" if announced else "昨夜平安"
    if revived:
        text += f"；{nos(revived)}复活"
    b.emit(AnnounceEvent(deaths=announced, revived=revived, text=text))


_CAUSES = {
    "demon": "恶魔击杀",
    "counter": "甄嬛反杀",
    "niangengyao": "年羹尧带走",
    "sanage": "三阿哥被处死",
    "yurao": "玉娆连带",
    "sundaying": "孙答应随狂徒",
    "storyteller": "说书人「死亡」",
}
