"""`report(state, events, viewer)`: one settlement's battle report for one viewer.

Seed 「看不见的手」: 战报里与你有关的给全文，无关的只作匿名播报（「有人下毒，2 人受伤」）. Scopes:

* self      her own order, cards, passive and tally, in full (she may read her victims' names);
* about_you something hit her: what kind of thing and how much, never who or from where;
* anon      everybody else's orders as 「有人…」 lines: no names, no seats, sorted by text so their
            order says nothing about who acted; others' cards only as 「有人打出进攻牌」;
* public    圣意, eliminations (name, cause, placement) and final results;
* host      everything with names (司礼).

Spectators get public and anon lines only. Killers are named only to the killer and the host.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Literal

from pydantic import BaseModel, ConfigDict

from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.shengong.deck import copy_card
from chalicelib.games.shengong.melee.actions import ZH
from chalicelib.games.shengong.melee.events import (
    ActionDone,
    CardsPlayed,
    DecreeSettled,
    Eliminated,
    Ended,
    Event,
    PassiveDone,
    Result,
    RoundSettled,
    Tally,
)
from chalicelib.games.shengong.melee.places import DECREE_ZH, KITCHEN, fmt
from chalicelib.games.shengong.melee.state import MeleeState

Scope = Literal["self", "about_you", "anon", "public", "host"]
SLOT_ZH = {"attack": "进攻", "defence": "防守", "general": "通用"}
CAUSE_ZH = {"hp": "气血耗尽", "grace": "好感归零", "both": "气血耗尽、好感归零"}
QUIET = {"rest": "养生", "idle": "待机", "move": "移驾", "stay": "驻留", "void": "行动作废"}


class ReportLine(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    scope: Scope
    text: str


def _signed(v: int) -> str:
    return f"+{fmt(v)}" if v >= 0 else f"−{fmt(-v)}"


def _changes(hp: int, grace: int, sep: str = "，") -> str:
    parts = []
    if hp:
        parts.append(f"气血 {_signed(hp)}")
    if grace:
        parts.append(f"好感 {_signed(grace)}")
    return sep.join(parts)


def _self_costs(e: ActionDone | PassiveDone) -> str:
    return _changes(e.self_hp, e.self_grace)


def _hits(e: ActionDone | PassiveDone, names: Sequence[str]) -> str:
    return "；".join(f"{names[h.seat]} {_changes(-h.hp, -h.grace, '、') or '无损'}" for h in e.hits)


def _action_text(e: ActionDone, who: str, names: Sequence[str]) -> str:
    costs = _self_costs(e)
    tail = f"（自身 {costs}）" if costs else ""
    if e.result is Result.VOID:
        return f"{who}的行动被暗杀作废"
    if e.action in ("poison", "assassinate", "frame"):
        verdict = {Result.HIT: "命中", Result.MISS: "未中", Result.NO_TARGET: "此处无他人"}[e.result]
        body = f"{who}对{e.place}{ZH[e.action]}：{verdict}"
        if e.hits:
            body += "，" + _hits(e, names)
        if e.action == "assassinate" and e.result is Result.HIT:
            body += "，其下回合行动作废"
        return body + tail
    if e.action == "meal":
        if e.result is Result.FAILED:
            return f"{who}不在乾清宫而送膳，失仪{tail}"
        if e.result is Result.EMPTY:
            return f"{who}送膳落空{tail}"
        return f"{who}送膳得宠（{'、'.join(DECREE_ZH[d] for d in e.won)}）{tail}"
    if e.action == "move":
        return f"{who}起驾前往{e.place}，下回合起身处{e.place}"
    if e.action == "stay":
        return f"{who}继续驻留"
    pre = f"{who}未落子，按待机处理" if e.defaulted else f"{who}{ZH[e.action]}"
    return pre + tail


def _anon_action(e: ActionDone) -> str | None:
    if e.action in ("poison", "assassinate", "frame"):
        if e.result is Result.MISS:
            return f"有人{ZH[e.action]}，未中"
        if e.result is Result.NO_TARGET:
            return f"有人{ZH[e.action]}，扑空"
        n = sum(1 for h in e.hits if h.hp or h.grace)
        hurt = "好感受损" if e.action == "frame" else "受伤"
        return f"有人{ZH[e.action]}，{n} 人{hurt}" if n else f"有人{ZH[e.action]}，无人受伤"
    if e.action == "meal":
        return {Result.HIT: "有人送膳得宠", Result.EMPTY: "有人送膳落空", Result.FAILED: "有人送膳失仪"}.get(e.result)
    return None


def _about_you(e: ActionDone | PassiveDone, me: int) -> str | None:
    for h in e.hits:
        if h.seat != me:
            continue
        what = f"有人{ZH[e.action]}" if isinstance(e, ActionDone) else f"{e.place}有人作祟"
        loss = _changes(-h.hp, -h.grace, "、")
        text = f"{what}，你{loss or '安然无损'}"
        if isinstance(e, ActionDone) and e.action == "assassinate":
            text += "，你下回合的行动作废"
        return text
    return None


def build_report(state: MeleeState, events: Sequence[Event], viewer: Viewer) -> list[ReportLine]:
    names = [p.name for p in state.players]
    host = viewer.role is ViewerRole.HOST
    me = viewer.seat if viewer.role is ViewerRole.PLAYER else None
    out: list[ReportLine] = []
    anon: list[str] = []
    quiet: Counter[str] = Counter()
    rnd = events[0].round if events else state.round

    def add(scope: Scope, text: str) -> None:
        out.append(ReportLine(round=rnd, scope=scope, text=text))

    def flush_anon() -> None:
        for text in sorted(anon):
            add("anon", text)
        if quiet:
            add("anon", "另有 " + "，".join(f"{n} 人{QUIET[k]}" for k, n in sorted(quiet.items())))
        anon.clear()
        quiet.clear()

    for e in events:
        if isinstance(e, CardsPlayed):
            used = [(slot, c) for slot, c in (("attack", e.attack), ("defence", e.defence), ("general", e.general)) if c]
            if host or e.seat == me:
                who = names[e.seat] if host else "你"
                shown = "、".join(f"{SLOT_ZH[s]}·{copy_card(c).skill}" for s, c in used) or "无"
                drop = f"；弃 {'、'.join(copy_card(c).skill for c in e.discard)}" if e.discard else ""
                add("host" if host else "self", f"{who}打出 {shown}{drop}")
            else:
                anon.extend(f"有人打出{SLOT_ZH[s]}牌" for s, _ in used)
        elif isinstance(e, ActionDone):
            if host:
                add("host", _action_text(e, names[e.seat], names))
            elif e.seat == me:
                add("self", _action_text(e, "你", names))
            else:
                if me is not None and (line := _about_you(e, me)):
                    add("about_you", line)
                text = _anon_action(e)
                if text:
                    anon.append(text)
                else:
                    quiet[e.action] += 1
        elif isinstance(e, PassiveDone):
            n = sum(1 for h in e.hits if h.hp or h.grace)
            victims = "养生/待机者" if e.place == KITCHEN else "待机者与乾清宫送膳者"
            if host or e.seat == me:
                who = names[e.seat] if host else "你"
                costs = _self_costs(e)
                add("host" if host else "self",
                    f"{who}身处{e.place}{'，' + costs if costs else ''}；{victims} {n} 人受损"
                    + (f"：{_hits(e, names)}" if host and e.hits else ""))
            else:
                if me is not None and (line := _about_you(e, me)):
                    add("about_you", line)
                anon.append(f"{e.place}有人作祟，{n} 名{victims}受损")
        elif isinstance(e, DecreeSettled):
            dims = "、".join(DECREE_ZH[d] for d in e.dims)
            if host:
                won = "，".join(f"{DECREE_ZH[d]}：{names[w] if w is not None else '无人'}" for d, w in zip(e.dims, e.winners))
                add("host", f"圣意（{dims}）— {won}")
            else:
                add("public", f"本回合圣意：{dims}")
        elif isinstance(e, Tally):
            if host or e.seat == me:
                who = names[e.seat] if host else "你"
                add("host" if host else "self",
                    f"{who}：气血 {fmt(max(e.hp_before, 0))} → {fmt(max(e.hp_after, 0))}，"
                    f"好感 {fmt(max(e.grace_before, 0))} → {fmt(max(e.grace_after, 0))}")
        elif isinstance(e, Eliminated):
            flush_anon()
            who = "你" if e.seat == me else names[e.seat]
            add("public", f"{who}出局（{CAUSE_ZH[e.cause]}），名列第 {e.placement}")
            if host and e.killers:
                add("host", f"{names[e.seat]} 的击败计入：{'、'.join(names[k] for k in e.killers)}")
            elif me is not None and me in e.killers:
                add("self", f"你击败了{names[e.seat]}")
        elif isinstance(e, RoundSettled):
            flush_anon()
            if e.next_round is not None:
                dims = "、".join(DECREE_ZH[d] for d in e.next_decree)
                add("public", f"第 {e.round} 回合结算完毕；第 {e.next_round} 回合圣意：{dims}")
            else:
                add("public", f"第 {e.round} 回合结算完毕")
        elif isinstance(e, Ended):
            flush_anon()
            add("public", "终局：" + ("只剩一人" if e.reason == "last_standing" else f"打满 {state.round_limit} 回合"))
            for seat in sorted(range(len(e.placements)), key=lambda s: (e.placements[s], s)):
                add("public", f"第 {e.placements[seat]} 名 {names[seat]}，得分 {e.scores[seat]:g}")
    flush_anon()
    return out
