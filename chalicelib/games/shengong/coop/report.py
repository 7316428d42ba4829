"""The battle report of one settlement, projected for one viewer (seed 看不见的手, 玩法C ⑦).

* A player reads her own action in full (with her cards), every opponent attack aimed at her in
  full, everything else as anonymous lines (「有人下毒：命中」, 「有人打出进攻牌」) that name no
  player, no target and no card, plus the public results (bars before → after, who fell, scores).
* A spectator reads the anonymous lines and the results only.
* The host (司礼) reads every line in full.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.shengong.coop.actions import ACTION_ZH
from chalicelib.games.shengong.coop.events import (
    Event,
    GameEnded,
    OpponentActed,
    OpponentLanded,
    PlayerActed,
    PlayerLanded,
    Result,
)
from chalicelib.games.shengong.coop.state import ATTACK_ZH, Attack, CoopState, PlayerState
from chalicelib.games.shengong.deck import CardPlay, copy_card

Scope = Literal["own", "you", "anonymous", "result", "host"]


class ReportLine(BaseModel):
    """One line of a battle report. `scope`: own (her action), you (aimed at her), anonymous,
    result (public outcome), host (the 司礼's full line)."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    scope: Scope
    text: str


def pts(t: int) -> str:
    """Tenths as the seed writes numbers: 25 -> "2.5", 30 -> "3", -5 -> "-0.5"."""
    sign, a = ("-" if t < 0 else ""), abs(t)
    return f"{sign}{a // 10}" if a % 10 == 0 else f"{sign}{a // 10}.{a % 10}"


_SLOT_ZH = {"attack": "进攻", "defence": "防守", "general": "通用"}


def _cards_full(who: str, p: PlayerState, cards: CardPlay) -> str | None:
    parts = []
    for slot in ("attack", "defence", "general"):
        copy = getattr(cards, slot)
        if copy is not None:
            c = copy_card(copy)
            parts.append(f"{_SLOT_ZH[slot]}位「{c.skill}」Lv.{p.levels.get(c.id, 1)}")
    if cards.discard:
        names = "、".join(f"「{copy_card(c).skill}」" for c in cards.discard)
        parts.append(f"弃牌 {names}")
    return f"{who}打出：{'；'.join(parts)}" if parts else None


def _cards_anonymous(cards: CardPlay) -> list[str]:
    return [f"有人打出{_SLOT_ZH[s]}牌" for s in ("attack", "defence", "general") if getattr(cards, s) is not None]


def _player_full(state: CoopState, ev: PlayerActed, who: str) -> str:
    place = ev.place.value
    if ev.result is Result.VOID:
        return f"{who}的落子不合规（{ev.void_code}），按待机处理"
    if ev.action in ("poison", "assassinate", "frame"):
        opp = state.opponents[ev.target or 0].name
        verb = ACTION_ZH[ev.action]
        bar = "好感" if ev.action == "frame" else "气血"
        head = f"{who}在{place}{verb}{opp}（命中率 {ev.chance}%）："
        body = f"命中，{opp}{bar} −{pts(ev.damage)}" if ev.result is Result.HIT else "落空"
        cost = f"气血 −{pts(ev.cost_hp)}" if ev.cost_hp else f"好感 −{pts(ev.cost_favor)}"
        return f"{head}{body}；{who}自身{cost}"
    if ev.action == "heal":
        return f"{who}在{place}养生，气血 +{pts(ev.heal)}"
    if ev.action == "move":
        return f"{who}从{place}动身前往{ev.destination.value if ev.destination else ''}，下回合抵达"
    if ev.defaulted:
        return f"{who}未落子，按待机处理"
    return f"{who}在{place}待机"


def _player_anonymous(ev: PlayerActed) -> str:
    if ev.result is Result.VOID:
        return "有人待机"
    if ev.action in ("poison", "assassinate", "frame"):
        verb = ACTION_ZH[ev.action]
        return f"有人{verb}：命中，一名对手受创" if ev.result is Result.HIT else f"有人{verb}：落空"
    if ev.action == "move":
        return "有人动身换了地方"
    return f"有人{ACTION_ZH[ev.action]}"


def _victim_text(state: CoopState, ev: OpponentActed, seat: int, who: str) -> str:
    v = next(v for v in ev.victims if v.seat == seat)
    bar, amount = ("好感", v.favor) if ev.attack is Attack.FRAME else ("气血", v.hp)
    note = ""
    if v.resting and ev.attack is Attack.POISON:
        note = "（养生减半）"
    elif v.resting and ev.attack is Attack.ASSASSINATE:
        note = "（养生中，仅 −1）"
    return f"{who}{bar} −{pts(amount)}{note}"


def _opponent_head(state: CoopState, ev: OpponentActed) -> str:
    assert ev.attack is not None
    opp = state.opponents[ev.opponent].name
    return f"{opp}{ev.label}（{ATTACK_ZH[ev.attack]}，命中率 {ev.chance}%）："


def _opponent_lines(state: CoopState, ev: OpponentActed, viewer: Viewer) -> list[ReportLine]:
    if ev.attack is None:
        text = f"{state.opponents[ev.opponent].name}{ev.label}，按兵不动"
        return [ReportLine(round=ev.round, scope="host" if viewer.is_host else "anonymous", text=text)]
    head, hit = _opponent_head(state, ev), ev.result is Result.HIT
    count = f"{len(ev.victims)} 人受{'累' if ev.attack is Attack.FRAME else '伤'}"
    if viewer.is_host:
        body = "；".join(_victim_text(state, ev, v.seat, state.players[v.seat].name) for v in ev.victims)
        return [ReportLine(round=ev.round, scope="host", text=head + (f"命中，{body}" if hit else "落空"))]
    if viewer.role is ViewerRole.PLAYER and any(v.seat == viewer.seat for v in ev.victims):
        assert viewer.seat is not None
        target = "你们" if ev.group else "你"
        body = _victim_text(state, ev, viewer.seat, "你") if hit else "落空"
        tail = f"（共 {count}）" if hit and ev.group else ""
        return [ReportLine(round=ev.round, scope="you", text=f"{head}冲{target}而来，{'命中，' if hit else ''}{body}{tail}")]
    return [ReportLine(round=ev.round, scope="anonymous", text=head + (f"命中，{count}" if hit else "落空"))]


def _bar(before: int, after: int) -> str:
    return f"{pts(max(before, 0))} → {pts(max(after, 0))}"


def _landed_text(state: CoopState, ev: PlayerLanded) -> str:
    p = state.players[ev.seat]
    parts = []
    if ev.hp_after != ev.hp_before:
        parts.append(f"气血 {_bar(ev.hp_before, ev.hp_after)}")
    if ev.favor_after != ev.favor_before:
        parts.append(f"好感 {_bar(ev.favor_before, ev.favor_after)}")
    text = f"{p.name}：{'，'.join(parts) or '无变化'}"
    return text + ("，倒下" if ev.down else "")


def _opp_landed_text(state: CoopState, ev: OpponentLanded) -> str | None:
    o = state.opponents[ev.opponent]
    parts = []
    if ev.hp_after != ev.hp_before:
        parts.append(f"气血 {_bar(ev.hp_before, ev.hp_after)}")
    if ev.favor_before is not None and ev.favor_after != ev.favor_before:
        parts.append(f"好感 {_bar(ev.favor_before, ev.favor_after or 0)}")
    if not parts and not ev.down:
        return None
    return f"{o.name}：{'，'.join(parts) or '无变化'}" + ("，倒下" if ev.down else "")


_END_ZH = {"clear": "通关！第 {r} 回合放倒全部对手", "wipe": "全队倒下，第 {r} 回合闯关失败", "limit": "{r} 回合已满，未能通关"}


def _end_lines(state: CoopState, ev: GameEnded) -> list[ReportLine]:
    lines = [ReportLine(round=ev.round, scope="result", text=_END_ZH[ev.reason].format(r=ev.rounds))]
    for s in ev.scores:
        name = state.players[s.seat].name
        text = (f"{name} 积分 {s.score:g}（输出 {pts(s.damage)} ＋ 存活 {30 if s.survived else 0}"
                f" ＋ 通关奖励 {s.bonus}）")
        lines.append(ReportLine(round=ev.round, scope="result", text=text))
    return lines


def report(state: CoopState, events: Sequence[Event], viewer: Viewer) -> list[ReportLine]:
    """The lines of one transition's events that `viewer` may read, in event order."""
    lines: list[ReportLine] = []
    for ev in events:
        if isinstance(ev, PlayerActed):
            p = state.players[ev.seat]
            if viewer.is_host:
                lines.append(ReportLine(round=ev.round, scope="host", text=_player_full(state, ev, p.name)))
                cards = _cards_full(p.name, p, ev.cards)
                if cards:
                    lines.append(ReportLine(round=ev.round, scope="host", text=cards))
            elif viewer.role is ViewerRole.PLAYER and viewer.seat == ev.seat:
                lines.append(ReportLine(round=ev.round, scope="own", text=_player_full(state, ev, "你")))
                cards = _cards_full("你", p, ev.cards)
                if cards:
                    lines.append(ReportLine(round=ev.round, scope="own", text=cards))
            else:
                lines.append(ReportLine(round=ev.round, scope="anonymous", text=_player_anonymous(ev)))
                lines.extend(ReportLine(round=ev.round, scope="anonymous", text=t) for t in _cards_anonymous(ev.cards))
        elif isinstance(ev, OpponentActed):
            lines.extend(_opponent_lines(state, ev, viewer))
        elif isinstance(ev, PlayerLanded):
            lines.append(ReportLine(round=ev.round, scope="result", text=_landed_text(state, ev)))
        elif isinstance(ev, OpponentLanded):
            text = _opp_landed_text(state, ev)
            if text:
                lines.append(ReportLine(round=ev.round, scope="result", text=text))
        else:
            lines.extend(_end_lines(state, ev))
    return lines
