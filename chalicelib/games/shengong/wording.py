"""Chinese text of battle-report lines (pure string building; `report.py` decides who reads what)."""

from __future__ import annotations

from collections.abc import Sequence

from chalicelib.games.shengong.cards import Slot
from chalicelib.games.shengong.deck import CardPlay, copy_card
from chalicelib.games.shengong.errors import ERRORS
from chalicelib.games.shengong.events import Acted, Hit, OpponentActed
from chalicelib.games.shengong.numbers import fmt
from chalicelib.games.shengong.state import State
from chalicelib.games.shengong.terms import (
    ACTION_ZH,
    ATTACK_ZH,
    DIM_ZH,
    ActionType,
    Attack,
    Reason,
    Result,
    Side,
    attack_of,
)

SLOT_ZH: dict[Slot, str] = {Slot.ATTACK: "进攻", Slot.DEFENCE: "防守", Slot.GENERAL: "通用"}
QUIET_ZH: dict[str, str] = {
    ActionType.HEAL: "养生", ActionType.IDLE: "待机", ActionType.MOVE: "移动", ActionType.STAY: "驻留",
    Result.VOIDED: "待机（行动作废）",
}
"""Others' quiet moves as counted: a voided turn reads as the 待机 it is sealed as (「另有 1 人待机（行动作废）」)."""


def paren(*notes: str) -> str:
    """One pair of （） holding the notes that are given, 「；」 between them ("" for none): a line never
    runs two parentheticals together (「气血 −1（养生减半）（挡下 气血 1）」 read as a doubled bracket)."""
    said = [n for n in notes if n]
    return f"（{'；'.join(said)}）" if said else ""


def signed(value: int) -> str:
    return f"+{fmt(value)}" if value >= 0 else f"−{fmt(-value)}"


def changes(hp: int, grace: int, sep: str = "，") -> str:
    parts = []
    if hp:
        parts.append(f"气血 {signed(hp)}")
    if grace:
        parts.append(f"好感 {signed(grace)}")
    return sep.join(parts)


def bar_move(before: int, after: int) -> str:
    return f"{fmt(max(before, 0))} → {fmt(max(after, 0))}"


def unit_name(state: State, side: Side, index: int, you: int | None = None) -> str:
    if side is Side.OPPONENT:
        return state.opponents[index].name
    return "你" if index == you else state.players[index].name


def cards_text(who: str, state: State, seat: int, play: CardPlay) -> str:
    maids = state.players[seat].maids
    parts = []
    for slot, copy in ((Slot.ATTACK, play.attack), (Slot.DEFENCE, play.defence), (Slot.GENERAL, play.general)):
        if copy is not None:
            c = copy_card(copy)
            parts.append(f"{SLOT_ZH[slot]}位「{c.skill}」Lv.{maids.get(c.id, 1)}")
    # a discard is no card played (seed C③ 也可弃牌): 「你弃掉「…」」 alone, after the plays 「，弃掉「…」」
    dropped = "、".join(f"「{copy_card(c).skill}」" for c in play.discard)
    if not parts:
        return f"{who}弃掉{dropped}"
    return f"{who}打出：{'；'.join(parts)}" + (f"，弃掉{dropped}" if dropped else "")


def landed(h: Hit) -> bool:
    """Something of this blow got through her guards."""
    return bool(h.hp_net or h.grace_net)


def blow_text(h: Hit, attack: Attack | None, *, held: bool = False) -> str:
    """What landed on one victim from this source: her guards (待机, defence cards) off, so the report
    agrees with the bars and with the score, which counts damage dealt net. `held`: the victim's own
    line (and the host's) also says what her guards took off."""
    note = ""
    if h.healing and attack is Attack.POISON:
        note = "养生减半"
    elif h.healing and attack is Attack.ASSASSINATE:
        note = "养生中，仅 −1"
    off = changes(h.hp - h.hp_net, h.grace - h.grace_net, "、").replace("+", "") if held else ""
    return (changes(-h.hp_net, -h.grace_net, "、") or "无损") + paren(note, f"挡下 {off}" if off else "")


def victims(state: State, hits: Sequence[Hit], attack: Attack | None, you: int | None = None, *,
            held: bool = False) -> str:
    return "；".join(f"{unit_name(state, h.side, h.index, you)} {blow_text(h, attack, held=held)}" for h in hits)


def refusal_text(code: str) -> str:
    """Why a sealed move was turned into 待机, in words (the check's message, said of whoever it was),
    never its code: a report line is read by players, not by developers."""
    spec = ERRORS.get(code)
    return spec.message.removeprefix("你") if spec else "落子无法识别"


def acted_text(state: State, e: Acted, who: str, you: int | None, *, held: bool = False) -> str:
    """Her move in full (her own line, or the host's: `held`, what each victim's guards took off)."""
    place, own = e.place.value, changes(e.own_hp, e.own_grace)
    own = f"自身 {own}" if own else ""
    tail = paren(own)
    attack = attack_of(e.action)
    if e.result is Result.VOIDED:
        return f"{who}的行动被暗杀作废，按待机处理（无加成）"
    if e.defaulted:
        why = f"的落子不合规（{refusal_text(e.refused)}）" if e.refused else "未落子"
        return f"{who}{why}，按待机处理{tail}"
    if attack is not None:
        what = state.opponents[e.target].name if e.target is not None else (e.aim.value if e.aim else "")
        # her own cost goes with the act (paid on a miss too), beside its odds, not after the victims
        odds = paren(f"命中率 {e.chance}%" if e.chance is not None else "", own)
        verdict = {Result.HIT: "命中", Result.MISS: "未中", Result.NO_TARGET: "此处无他人"}.get(e.result, "")
        body = f"{who}在{place}对{what}{ATTACK_ZH[attack]}{odds}：{verdict}"
        if e.hits:
            body += "，" + victims(state, e.hits, attack, you, held=held)
        if attack is Attack.ASSASSINATE and e.result is Result.HIT and e.target is None \
                and not (state.over and e.round >= state.round):  # the last round voids nothing
            body += "，其下回合行动作废"
        return body
    if e.action is ActionType.MEAL:
        if e.result is Result.HIT:
            return f"{who}送膳得宠{paren('、'.join(DIM_ZH[d] for d in e.won), own)}"
        return {Result.FAILED: f"{who}不在乾清宫而送膳，失仪", Result.EMPTY: f"{who}送膳落空"}.get(
            e.result, f"{who}送膳") + tail
    if e.action is ActionType.MOVE:
        return f"{who}从{place}动身前往{e.aim.value if e.aim else ''}，下回合抵达"
    return f"{who}在{place}{ACTION_ZH[e.action]}{tail}"


def acted_anonymous(e: Acted) -> str | None:
    """Someone else's move, naming nobody, no target, no place (None: a quiet move, only counted)."""
    attack = attack_of(e.action)
    if attack is not None and e.result is not Result.VOIDED and not e.defaulted:
        verb = ATTACK_ZH[attack]
        if e.result is Result.MISS:
            return f"有人{verb}，未中"
        if e.result is Result.NO_TARGET:
            return f"有人{verb}，扑空"
        if e.target is not None:
            return f"有人{verb}，命中一名对手"
        hurt = sum(1 for h in e.hits if landed(h))
        return f"有人{verb}，{hurt} 人{'好感受损' if attack is Attack.FRAME else '受伤'}"
    if e.action is ActionType.MEAL and e.result is not Result.VOIDED:
        return {Result.HIT: "有人送膳得宠", Result.EMPTY: "有人送膳落空", Result.FAILED: "有人送膳失仪"}.get(e.result)
    return None


def quiet_key(e: Acted) -> str:
    return Result.VOIDED if e.result is Result.VOIDED else e.action


def opponent_head(state: State, e: OpponentActed) -> str:
    name = state.opponents[e.opponent].name
    if e.attack is None:
        return f"{name}{e.label}，按兵不动"
    return f"{name}{e.label}（{ATTACK_ZH[e.attack]}，命中率 {e.chance}%）："


END_ZH: dict[Reason, str] = {
    Reason.CLEAR: "通关！第 {r} 回合放倒全部对手", Reason.WIPE: "全队倒下，第 {r} 回合闯关失败",
    Reason.LIMIT: "{r} 回合已满，终局", Reason.LAST_STANDING: "终局：只剩一人（第 {r} 回合）",
}
"""The end, as the 战报's last line and the result's sentence (`end_text`)."""
STAGE_LIMIT_ZH = "{r} 回合已满，对手仍未倒下，闯关失败"
"""玩法D at the round limit: the team did not clear the stage, said as plainly as a wipe's line."""

VERDICT_ZH: dict[Reason, str] = {
    Reason.CLEAR: "通关", Reason.WIPE: "全军覆没", Reason.LIMIT: "回合已满", Reason.LAST_STANDING: "一人独存",
}
"""The end in a seal's few words, on the result's head (`verdict`)."""
STAGE_LIMIT_VERDICT = "闯关失败"
"""玩法D at the round limit: 「回合已满」 alone read as a neutral end; the team failed the stage."""


def end_text(stage: bool, reason: Reason, rounds: int) -> str:
    """The end in a sentence (the 战报's END line, `OutcomeExtra.ending`); `stage`: 玩法D."""
    return (STAGE_LIMIT_ZH if stage and reason is Reason.LIMIT else END_ZH[reason]).format(r=rounds)


def verdict(stage: bool, reason: Reason) -> str:
    """The end in a seal's few words (`OutcomeExtra.verdict`); `stage`: 玩法D."""
    return STAGE_LIMIT_VERDICT if stage and reason is Reason.LIMIT else VERDICT_ZH[reason]
