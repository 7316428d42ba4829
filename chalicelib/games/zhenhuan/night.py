"""The night: its order, 入夜 (dusk automation), walking the steps, reopening a passed step, and 天亮
(dawn: the night's deaths are announced together, the successions happen).

The order is written in docs/rules/zhenhuan.md and pinned by a test.
"""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.actions import Dusk, NightStep, ReopenStep
from chalicelib.games.zhenhuan.board import ALIGNMENT_NAMES, Board, no, nos
from chalicelib.games.zhenhuan.day import execute
from chalicelib.games.zhenhuan.enums import (
    AnswerKind,
    DeathCause,
    ExpiryAt,
    Phase,
    StatusKind,
    StepKey,
)
from chalicelib.games.zhenhuan.events import AnnounceEvent, Answer, InfoEvent, PhaseEvent, SeatRole
from chalicelib.games.zhenhuan.roles import HUANBI, HUANGSHANG, NVHUANG, ROLES, TRAVELLER, Alignment
from chalicelib.games.zhenhuan.state import DayState, NightState, StepRecord
from chalicelib.games.zhenhuan.stepbase import ANSWER_TYPES, Slot, Step, why_not
from chalicelib.games.zhenhuan.steps_death import Niangengyao, Qiguiren, Sundaying, Yelanyi, Zhenhuan
from chalicelib.games.zhenhuan.steps_evil import (
    Anlingrong,
    Chongfei,
    Huafei,
    Huanghou,
    Huangshang,
    Nvhuang,
    Taishanghuang,
)  # fmt: skip
from chalicelib.games.zhenhuan.steps_good import Guojunwang, Huanbi, Jingfei, Jinxi, Sanage, Wentaiyi, Yurao
from chalicelib.games.zhenhuan.steps_info import (
    AlignmentInfo,
    ChongfeiInfo,
    DemonInfo,
    MinionInfo,
    NewDemonInfo,
    NewMinionInfo,
)  # fmt: skip

S = StepKey
FIRST_NIGHT: tuple[StepKey, ...] = (
    S.MINION_INFO, S.DEMON_INFO, S.ANLINGRONG, S.HUAFEI, S.GUOJUNWANG, S.HUANGSHANG, S.CHONGFEI_INFO,
    S.CHONGFEI, S.NIANGENGYAO, S.YURAO, S.SUNDAYING, S.HUANBI, S.JINGFEI, S.JINXI, S.WENTAIYI, S.ALIGNMENT_INFO,
)  # fmt: skip
OTHER_NIGHTS: tuple[StepKey, ...] = (
    S.QIGUIREN, S.CHONGFEI, S.ANLINGRONG, S.HUAFEI, S.GUOJUNWANG, S.HUANGHOU, S.NEW_DEMON_INFO,
    S.NEW_MINION_INFO, S.HUANGSHANG, S.CHONGFEI_INFO, S.TAISHANGHUANG, S.NVHUANG, S.ZHENHUAN, S.SANAGE,
    S.YELANYI, S.NIANGENGYAO, S.YURAO, S.SUNDAYING, S.JINGFEI, S.JINXI, S.WENTAIYI, S.ALIGNMENT_INFO,
)  # fmt: skip
_ALL_STEPS: tuple[Step, ...] = (
    MinionInfo(), DemonInfo(), NewDemonInfo(), NewMinionInfo(), ChongfeiInfo(), AlignmentInfo(), Anlingrong(),
    Huafei(), Chongfei(), Huanghou(), Huangshang(), Taishanghuang(), Nvhuang(), Qiguiren(), Guojunwang(),
    Zhenhuan(), Sanage(), Yelanyi(), Niangengyao(), Yurao(), Sundaying(), Jingfei(), Jinxi(), Wentaiyi(),
    Huanbi(),
)  # fmt: skip
STEPS: dict[StepKey, Step] = {s.key: s for s in _ALL_STEPS}
SALT_BITS = 31


def order_for(number: int) -> tuple[StepKey, ...]:
    return FIRST_NIGHT if number == 1 else OTHER_NIGHTS


def current(b: Board) -> tuple[StepKey, Step] | None:
    night = b.night
    if night.reopened is not None:
        return night.reopened, STEPS[night.reopened]
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


def _advance(b: Board, rng: Rng, start: int) -> None:
    """Move to the next step shown from `start`; a fresh salt for its false-answer suggestion."""
    b.update_night(reopened=None, cursor=_first_present(b, start), salt=rng.below(2**SALT_BITS))


def start_night(b: Board, number: int) -> None:
    b.update(phase=Phase.NIGHT, night_no=number, night=NightState(number=number), day=None)
    b.emit(PhaseEvent(phase=Phase.NIGHT, number=number, text=f"入夜：第{number}夜"))


def begin(b: Board, rng: Rng) -> None:
    """Lock setup: everyone learns her role; 浣碧 beside 果郡王 is drunk for good; night 1 starts."""
    for s in b.seats:
        b.you_are(s.seat)
    # her record: one line for all the 「你是」 just shown, in their place
    b.host("开局：" + "；".join(_dealt(b, s.seat) for s in b.seats), restates=len(b.seats))
    for h in b.holders(HUANBI):
        b.huanbi_beside_guojunwang(h)
    for s in b.seats:
        b.show_demon_to_evil_traveller(s.seat)
    start_night(b, 1)
    _advance(b, rng, 0)


def _dealt(b: Board, seat: int) -> str:
    """A seat as her 「你是」 told it: the role (which says the alignment), or a traveller's identity and
    the alignment the storyteller gave her."""
    s = b.seat(seat)
    if s.role == TRAVELLER:
        return f"{no(seat)}旅行者『{s.traveller_identity}』（{ALIGNMENT_NAMES[s.alignment]}）"
    return f"{no(seat)}{ROLES[s.role].name}"


def dusk(b: Board, action: Dusk, rng: Rng) -> None:
    """入夜: execute the block if asked; expire until-dusk statuses; curse and 祺贵人 deaths together."""
    day = b.state.day
    if day is None:
        raise IllegalAction("只有白天才能入夜", code="NOT_DAY")
    if day.clock is not None:
        raise IllegalAction("请先结束正在进行的投票", code="VOTE_OPEN")
    if day.block is not None and not day.executed_done:
        if action.execute_block:
            execute(b, day.block)
        else:
            b.host(f"说书人决定不处决处决台上的{no(day.block)}", override=True)
    number = b.state.night_no + 1
    start_night(b, number)
    cursed = [
        s.seat for s in b.state.statuses if s.kind is StatusKind.CURSED and s.until and s.until.night == number
    ]
    # poison is lifted before the curse kills (seed: 先解除下毒状态，然后诅咒致人死亡)
    b.expire(ExpiryAt.DUSK, number)
    wrong = [a.by for a in day.accusations if a.effective and not a.correct]
    victims = [(s, DeathCause.CURSE, None) for s in cursed] + [(s, DeathCause.QIGUIREN, None) for s in wrong]
    b.kill_together(victims, {DeathCause.CURSE: "受安陵容诅咒", DeathCause.QIGUIREN: "祺贵人检举错误"})
    qiguiren: tuple[int, int] | None = None
    for acc in day.accusations:
        pool = [s for s in b.living() if s != acc.by]
        if acc.effective and acc.correct and pool:
            qiguiren = (acc.by, rng.choice(pool))
    b.update_night(qiguiren=qiguiren)
    _advance(b, rng, 0)


def night_step(b: Board, action: NightStep, rng: Rng) -> None:
    """Resolve the current step.

    Raises:
        IllegalAction: no step left, the wrong step, bad targets or a bad answer.
    """
    now = current(b)
    if now is None:
        raise IllegalAction("今晚的步骤已全部完成，请天亮", code="NIGHT_STEPS_DONE")
    key, step = now
    if action.step is not key:
        raise IllegalAction(f"当前步骤是「{step.title(b)}」", code="STEP_MISMATCH")
    actor = step.actor(b)
    reason = why_not(step, b, actor)
    number = b.night.number
    reopened = b.night.reopened is not None
    if reason is not None or action.skip:
        if any(t is not None for t in action.targets) or action.answer is not None or action.use_suggestion:
            raise IllegalAction("此步骤不可用或已跳过，不能选择目标", code="STEP_DISABLED")
        step.on_pass(b)
        _record(b, StepRecord(step=key, actor=actor, skipped=action.skip, disabled=reason))
        b.host(
            f"第{number}夜「{step.title(b)}」" + (f"不可用：{reason}" if reason else "：说书人跳过"),
            override=reason is None,
        )
        _advance(b, rng, b.night.cursor + (0 if reopened else 1))
        return
    targets, forced = _check_targets(b, step, actor, action)
    kind = step.info_kind(b)
    if kind is None and (action.answer is not None or action.use_suggestion):
        raise IllegalAction("此步骤没有需要告知的信息", code="NO_ANSWER_HERE")
    if action.answer is not None and action.use_suggestion:
        raise IllegalAction("请在自定义回答与建议的假信息之间二选一", code="ANSWER_AND_SUGGESTION")
    if action.answer is not None and kind is not None:
        _check_answer(b, kind, action.answer)
    impaired = actor is not None and b.poisoned_or_drunk(actor)
    suggested = step.suggest(b, actor, targets) if kind and step.suggests and impaired else None
    if action.use_suggestion and suggested is None:
        raise IllegalAction("此步骤没有建议的假信息（行动者未中毒或醉酒）", code="NO_SUGGESTION")
    truth = step.truth(b, actor, targets) if kind else None
    mark = len(b.events)
    b.in_step = True  # the step's line says whom it killed: no separate death line
    note = step.resolve(b, actor, targets, impaired)
    b.in_step = False
    given = None
    if kind is not None:
        given = action.answer if action.answer is not None else suggested if action.use_suggestion else truth
        assert given is not None
        step.deliver(b, actor, targets, given)
    line = f"第{number}夜「{step.title(b)}」{no(actor) if actor is not None else ''}" + (f"：{note}" if note else "")
    if forced:
        line += "；说书人强制选择：" + "、".join(f"{no(s)}（{why}）" for s, why in forced)
    if given is not None:
        # in the words she was told (whom 瑾汐 pointed at, whom 温太医 checked), not a bare 是/否: the
        # storyteller reads it back by day when the player claims
        told = _told(step, b, targets, given, truth)
        line += f"；{told}" + ("（中毒或醉酒）" if impaired else "")
        line += "（采用建议的假信息）" if action.use_suggestion else ""
        # tonight's plan: a step with its own note (三阿哥's touch, 玉娆's bond) keeps what she was told
        # beside it when that differs from the truth (a lie, or false information to the impaired)
        if not note:
            note = told
        elif given != truth:
            note = f"{note}；{told}"
    # her record: the step's line in place of what its players were told (it says it, and the truth
    # beside it), before what followed from the step (a new role, 全场醉酒, …)
    said = b.events[mark:]
    infos = [e for e in said if isinstance(e, InfoEvent)]
    del b.events[mark:]
    b.events.extend(infos)
    b.host(line, override=bool(forced) or (kind is not None and given != truth and not impaired), restates=len(infos))
    b.events.extend(e for e in said if not isinstance(e, InfoEvent))
    _record(b, StepRecord(
        step=key, actor=actor, targets=targets, impaired=impaired, truth=truth, given=given, suggested=suggested,
        note=note,
    ))  # fmt: skip
    _advance(b, rng, b.night.cursor + (0 if reopened else 1))


def reopen(b: Board, action: ReopenStep, rng: Rng) -> None:
    """Reopen a step passed tonight: it becomes current (out of order) until resolved or passed again.

    Raises:
        IllegalAction: the step was not passed tonight, or it is current already.
    """
    night = b.night
    mine = [r for r in night.records if r.step is action.step]
    now = current(b)
    if not mine or not mine[-1].passed or (now is not None and now[0] is action.step):
        raise IllegalAction("只能重新打开今晚已跳过的步骤", code="STEP_NOT_PASSED")
    if not STEPS[action.step].present(b):
        raise IllegalAction("该步骤今晚已无人可行动", code="STEP_NOT_PASSED")
    b.update_night(reopened=action.step, salt=rng.below(2**SALT_BITS))
    b.host(f"说书人重新打开第{night.number}夜「{STEPS[action.step].title(b)}」", override=True)


def _record(b: Board, record: StepRecord) -> None:
    b.update_night(records=b.night.records + (record,))


def _check_targets(
    b: Board, step: Step, actor: int | None, action: NightStep
) -> tuple[tuple[int | None, ...], list[tuple[int, str]]]:
    slots: tuple[Slot, ...] = step.slots(b, actor)
    if len(action.targets) > len(slots):
        raise IllegalAction("目标数量过多", code="TOO_MANY_TARGETS")
    targets = tuple(action.targets) + (None,) * (len(slots) - len(action.targets))
    forced: list[tuple[int, str]] = []
    for slot, t in zip(slots, targets, strict=True):
        greyed = dict(slot.greyed)
        if t is None:
            if not slot.optional:
                raise IllegalAction(f"请选择：{slot.label}", code="TARGET_REQUIRED")
        elif t in greyed and action.force:
            forced.append((t, greyed[t]))
        elif t in greyed:
            raise IllegalAction(f"{no(t)}不可选（{greyed[t]}），如需强制请使用 force", code="TARGET_GREYED")
        elif t not in slot.allowed:
            raise IllegalAction(f"{no(t)}不能作为「{slot.label}」的目标", code="TARGET_NOT_ALLOWED")
    step.validate(b, actor, targets)
    return targets, forced


def _check_answer(b: Board, kind: AnswerKind, answer: Answer) -> None:
    ok = type(answer) is ANSWER_TYPES[kind]
    if ok and isinstance(answer, tuple):
        ok = all(type(s) is int and 0 <= s < len(b.seats) for s in answer)
    if ok and isinstance(answer, SeatRole):
        ok = 0 <= answer.seat < len(b.seats)
    if ok and kind is AnswerKind.NUMBER:
        ok = isinstance(answer, int) and answer >= 0
    if not ok:
        raise IllegalAction("告知的信息格式不对", code="BAD_ANSWER")


def _told(step: Step, b: Board, targets: tuple[int | None, ...], given: Answer, truth: Answer | None) -> str:
    """What the actor was told, as she was told it, and the truth beside it when it differs."""
    text = f"告知：{step.render(b, targets, given)}"
    if truth is not None and given != truth:
        text += f"（真实：{step.render(b, targets, truth)}）"
    return text


def dawn(b: Board) -> None:
    """天亮: 甄嬛/太上皇 successions, 叶澜依's revival, then the announcement of the night's deaths."""
    night = b.night
    n = night.number
    steps = order_for(n)
    left = [STEPS[k].title(b) for k in steps[night.cursor :] if STEPS[k].present(b)]
    if night.reopened is not None:
        left.insert(0, STEPS[night.reopened].title(b))
    if left:
        b.host(f"第{n}夜未进行的步骤：{'、'.join(left)}", override=True)
    if night.counter_kill:
        zhenhuan, killer = night.counter_kill
        if b.alive(zhenhuan) and not b.alive(killer):
            b.change_role(zhenhuan, NVHUANG, Alignment.EVIL, why="（反杀）")
        elif not b.alive(killer) and b.seat(killer).role == HUANGSHANG:
            # 甄嬛 cannot take the throne after all: 皇后 may, counted as at the counter-kill (#8)
            alive = night.counter_kill_alive
            b.maybe_empress(b.living_players() + 1 if alive is None else alive)
    if night.succession:
        old, heir = night.succession
        if not b.alive(old) and b.alive(heir):
            b.change_role(heir, HUANGSHANG, Alignment.EVIL, why="（太上皇让位）")
    hidden = set(b.state.unannounced)
    revived = {x for x in b.state.unannounced_revivals if b.alive(x)}
    if night.revive is not None and not b.alive(night.revive) and not b.seat(night.revive).departed:
        if night.revive not in hidden:  # died tonight and revived: the public never saw her dead
            revived.add(night.revive)
        b.update_seat(night.revive, alive=True, ghost_vote=True, spent=frozenset())
        b.revived(night.revive)
        b.host(f"{no(night.revive)}被叶澜依复活，技能重置")
    b.expire(ExpiryAt.DAWN, n)
    # each death was in her record when it happened, with its cause: the announcement names them
    announced = tuple(sorted(s for s in hidden if not b.alive(s)))
    b.update(phase=Phase.DAY, night=None, day=DayState(number=n), unannounced=(), unannounced_revivals=())
    b.emit(PhaseEvent(phase=Phase.DAY, number=n, text=f"天亮：第{n}天"))
    text = f"昨夜死亡：{nos(announced)}" if announced else "昨夜平安"
    if revived:
        text += f"；{nos(revived)}复活"
    b.emit(AnnounceEvent(deaths=announced, revived=tuple(sorted(revived)), text=text))
