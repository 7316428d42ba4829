"""`report(mode, state, events, viewer)`: one settlement's battle report (战报) for one viewer.

Seed 看不见的手: 战报里与你有关的给全文，无关的只作匿名播报（「有人下毒，2 人受伤」）; 玩法C ⑦ 战报里他人出牌
只显示「有人打出进攻牌」. Every line has its Chinese `text` and the structured fields behind it. Scopes:

* own         her own move, cards, passive, kills, in full (she may read her victims' names);
* about_you   something struck her: what and how much — an opponent's name in D, never a seat's;
* anonymous   everybody else's moves as 「有人…」 lines: no seat, no target, no place, no card name;
              sorted by text so their order says nothing about who acted, quiet moves only counted;
* public      what everyone may know: opponents' tactics (D), 圣意, bars after the round, who fell,
              the end and the scores;
* host        everything with names (司礼).

Spectators get public and anonymous lines only. Killers are named only to the killer and the host.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from enum import StrEnum
from typing import Any

from pydantic import BaseModel, ConfigDict

from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.games.shengong import wording as W
from chalicelib.games.shengong.cards import Slot
from chalicelib.games.shengong.deck import CardPlay
from chalicelib.games.shengong.events import (
    Acted,
    CardsPlayed,
    DecreeSettled,
    Ended,
    Event,
    Fell,
    Landed,
    OpponentActed,
    PassiveDone,
    RoundSettled,
)
from chalicelib.games.shengong.modes import Foes, Mode
from chalicelib.games.shengong.numbers import (
    GRACE_DAMAGE_POINTS,
    HP_DAMAGE_POINTS,
    KILL_POINTS,
    SURVIVAL_POINTS,
    TAKEN_POINTS,
    points,
    score_text,
)
from chalicelib.games.shengong.scoring import clear_bonus, place_points
from chalicelib.games.shengong.state import State
from chalicelib.games.shengong.terms import (
    ACTION_ZH,
    CAUSE_ZH,
    DIM_ZH,
    ActionType,
    Attack,
    Place,
    Result,
    Side,
    attack_of,
)


class Scope(StrEnum):
    OWN = "own"
    ABOUT_YOU = "about_you"
    ANONYMOUS = "anonymous"
    PUBLIC = "public"
    HOST = "host"


class LineKind(StrEnum):
    ACTION = "action"
    CARDS = "cards"
    STRIKE = "strike"
    """An opponent's tactic (D)."""
    HIT = "hit"
    """Someone's move struck you."""
    PASSIVE = "passive"
    QUIET = "quiet"
    DECREE = "decree"
    TALLY = "tally"
    FELL = "fell"
    KILL = "kill"
    ROUND = "round"
    END = "end"
    SCORE = "score"


class ReportLine(BaseModel):
    """One line of a battle report. Fields a scope must not reveal are None: an anonymous line never
    carries a seat, a place, a target or a card."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    round: int
    scope: Scope
    kind: LineKind
    text: str
    seat: int | None = None
    """The seat the line is about (never on anonymous lines)."""
    opponent: int | None = None
    action: ActionType | None = None
    result: Result | None = None
    place: Place | None = None
    slot: Slot | None = None
    cards: tuple[str, ...] = ()
    hp: float | None = None
    """A change to 气血 (points): hers on own / about_you / tally lines."""
    grace: float | None = None
    count: int | None = None
    placement: int | None = None
    score: float | None = None


class _Writer:
    def __init__(self, mode: Mode, state: State, viewer: Viewer, rnd: int) -> None:
        self.mode, self.state, self.rnd = mode, state, rnd
        self.host = viewer.role is ViewerRole.HOST
        self.me = viewer.seat if viewer.role is ViewerRole.PLAYER else None
        self.lines: list[ReportLine] = []
        self.anon: list[ReportLine] = []
        self.about: list[ReportLine] = []
        self.quiet: Counter[str] = Counter()

    @property
    def next_round(self) -> bool:
        """A round follows the one reported (the game did not end with it): only then is a move voided."""
        return not (self.state.over and self.rnd >= self.state.round)

    def add(self, scope: Scope, kind: LineKind, text: str, **fields: Any) -> None:
        line = ReportLine(round=self.rnd, scope=scope, kind=kind, text=text, **fields)
        # what others did to her is held back and told after her own lines, sorted: where it would
        # fall among them in event (seat) order could tell whose seat it came from
        (self.about if scope is Scope.ABOUT_YOU else self.lines).append(line)

    def anonymous(self, kind: LineKind, text: str, **fields: Any) -> None:
        self.anon.append(ReportLine(round=self.rnd, scope=Scope.ANONYMOUS, kind=kind, text=text, **fields))

    def flush(self) -> None:
        self.lines.extend(sorted(self.about, key=lambda ln: ln.text))
        # others' cards, one line per slot with how many played one (an 8-seat round listed each apart:
        # 15 lines of 「有人打出进攻牌」 in a 31-line report); the count was told line by line already
        played = Counter(ln.slot for ln in self.anon if ln.kind is LineKind.CARDS and ln.slot is not None)
        grouped = [ReportLine(round=self.rnd, scope=Scope.ANONYMOUS, kind=LineKind.CARDS, slot=slot, count=n,
                              text=f"{'有人' if n == 1 else f'{n} 人'}打出{W.SLOT_ZH[slot]}牌")
                   for slot, n in played.items()]
        rest = [ln for ln in self.anon if ln.kind is not LineKind.CARDS]
        self.lines.extend(sorted(rest + grouped, key=lambda ln: ln.text))
        if self.quiet:
            text = "另有 " + "，".join(f"{n} 人{W.QUIET_ZH[k]}" for k, n in sorted(self.quiet.items()))
            self.add(Scope.ANONYMOUS, LineKind.QUIET, text, count=sum(self.quiet.values()))
        self.anon.clear()
        self.about.clear()
        self.quiet.clear()

    def full(self, seat: int) -> tuple[Scope, str] | None:
        """Her own line or the host's: the scope and how she is called; None for anyone else."""
        if self.host:
            return Scope.HOST, self.state.players[seat].name
        return (Scope.OWN, "你") if seat == self.me else None


def _cards(w: _Writer, e: CardsPlayed) -> None:
    play = CardPlay(attack=e.attack, defence=e.defence, general=e.general, discard=e.discard)
    full = w.full(e.seat)
    if full is not None:
        w.add(full[0], LineKind.CARDS, W.cards_text(full[1], w.state, e.seat, play), seat=e.seat,
              cards=(*play.used(), *play.discard))
        return
    for slot, copy in ((Slot.ATTACK, e.attack), (Slot.DEFENCE, e.defence), (Slot.GENERAL, e.general)):
        if copy is not None:
            w.anonymous(LineKind.CARDS, f"有人打出{W.SLOT_ZH[slot]}牌", slot=slot)


def _acted(w: _Writer, e: Acted) -> None:
    full = w.full(e.seat)
    if full is not None:
        w.add(full[0], LineKind.ACTION, W.acted_text(w.state, e, full[1], w.me, held=w.host), seat=e.seat, action=e.action,
              result=e.result, place=e.aim or e.place, opponent=e.target, hp=points(e.own_hp),
              grace=points(e.own_grace))
        return
    attack = attack_of(e.action)
    mine = next((h for h in e.hits if h.side is Side.PLAYER and h.index == w.me), None)
    if mine is not None and attack is not None:
        text = f"有人{ACTION_ZH[e.action]}，你{W.blow_text(mine, attack, held=True)}"
        if attack is Attack.ASSASSINATE and w.next_round:
            text += "，你下回合的行动作废"
        w.add(Scope.ABOUT_YOU, LineKind.HIT, text, action=e.action, hp=-points(mine.hp_net),
              grace=-points(mine.grace_net))
    anonymous = W.acted_anonymous(e)
    if anonymous is None:
        w.quiet[W.quiet_key(e)] += 1
    else:
        w.anonymous(LineKind.ACTION, anonymous, action=e.action, result=e.result,
                    count=sum(1 for h in e.hits if W.landed(h)))


def _opponent(w: _Writer, e: OpponentActed) -> None:
    head, fields = W.opponent_head(w.state, e), dict(opponent=e.opponent, result=e.result)
    action = ActionType(e.attack.value) if e.attack is not None else None
    if e.attack is None:
        w.add(Scope.HOST if w.host else Scope.PUBLIC, LineKind.STRIKE, head, **fields)
        return
    hurt = f"{sum(1 for h in e.hits if W.landed(h))} 人受{'累' if e.attack is Attack.FRAME else '伤'}"
    hit = e.result is Result.HIT
    if w.host:
        w.add(Scope.HOST, LineKind.STRIKE, head + (f"命中，{W.victims(w.state, e.hits, e.attack, held=True)}" if hit else "落空"),
              action=action, **fields)
        return
    mine = next((h for h in e.hits if h.index == w.me), None)
    if w.me in e.aimed:
        body = f"命中，你{W.blow_text(mine, e.attack, held=True)}" if hit and mine else "落空"
        if hit and mine and e.attack is Attack.ASSASSINATE and w.next_round:
            body += "，你下回合的行动作废"  # seed: 暗杀 … 并令其下回合行动作废 (DECISIONS 深宫杀 #12)
        tail = f"，共 {hurt}" if hit and e.group else ""  # a clause: her blow's own （…） may end the body
        w.add(Scope.ABOUT_YOU, LineKind.STRIKE, f"{head}冲{'你们' if e.group else '你'}而来，{body}{tail}",
              action=action, hp=-points(mine.hp_net) if mine else None, grace=-points(mine.grace_net) if mine else None,
              **fields)
        return
    w.add(Scope.PUBLIC, LineKind.STRIKE, head + (f"命中，{hurt}" if hit else "落空"), action=action,
          count=sum(1 for h in e.hits if W.landed(h)), **fields)


def _passive(w: _Writer, e: PassiveDone) -> None:
    hurt = sum(1 for h in e.hits if W.landed(h))
    whom = "养生/待机者" if w.mode.rule(e.place).hurts_heal_idle else "待机者与乾清宫送膳者"
    full = w.full(e.seat)
    if full is not None:
        own = f"，好感 {W.signed(e.own_grace)}" if e.own_grace else ""
        names = f"：{W.victims(w.state, e.hits, None, w.me, held=True)}" if w.host and e.hits else ""
        w.add(full[0], LineKind.PASSIVE, f"{full[1]}身处{e.place}{own}；{whom} {hurt} 人受损{names}", seat=e.seat,
              place=e.place, grace=points(e.own_grace), count=hurt)
        return
    mine = next((h for h in e.hits if h.index == w.me), None)
    if mine is not None:
        w.add(Scope.ABOUT_YOU, LineKind.HIT, f"{e.place}有人作祟，你{W.blow_text(mine, None, held=True)}",
              hp=-points(mine.hp_net), grace=-points(mine.grace_net))
    if hurt:  # nobody hurt: nothing to tell the others (at 摘星楼 it would only say that its occupant framed)
        w.anonymous(LineKind.PASSIVE, f"{e.place}有人作祟，{hurt} 名{whom}受损", count=hurt)


def _decree(w: _Writer, e: DecreeSettled) -> None:
    dims = "、".join(DIM_ZH[d] for d in e.dims)
    if w.host:
        won = "，".join(f"{DIM_ZH[d]}：{w.state.players[s].name if s is not None else '无人'}"
                       for d, s in zip(e.dims, e.winners, strict=False))
        w.add(Scope.HOST, LineKind.DECREE, f"圣意（{dims}）— {won}")
    else:
        w.add(Scope.PUBLIC, LineKind.DECREE, f"本回合圣意：{dims}")


def _landed(w: _Writer, e: Landed) -> None:
    w.flush()
    name = W.unit_name(w.state, e.side, e.index, w.me)
    parts = []
    if e.hp_after != e.hp_before:
        parts.append(f"气血 {W.bar_move(e.hp_before, e.hp_after)}")
    if e.grace_before is not None and e.grace_after is not None and e.grace_after != e.grace_before:
        parts.append(f"好感 {W.bar_move(e.grace_before, e.grace_after)}")
    if e.side is Side.OPPONENT and not parts and not e.down:
        return
    grace = None if e.grace_before is None or e.grace_after is None else points(e.grace_after - e.grace_before)
    w.add(Scope.PUBLIC, LineKind.TALLY, f"{name}：{'，'.join(parts) or '无变化'}" + ("，倒下" if e.down else ""),
          seat=e.index if e.side is Side.PLAYER else None, opponent=e.index if e.side is Side.OPPONENT else None,
          hp=points(e.hp_after - e.hp_before), grace=grace)


def _fell(w: _Writer, e: Fell) -> None:
    w.flush()
    name = W.unit_name(w.state, e.side, e.index, w.me)
    where = f"出局（{CAUSE_ZH[e.cause]}），名列第 {e.placement}" if e.placement else f"倒下（{CAUSE_ZH[e.cause]}）"
    seat = e.index if e.side is Side.PLAYER else None
    w.add(Scope.PUBLIC, LineKind.FELL, f"{name}{where}", seat=seat, placement=e.placement,
          opponent=e.index if e.side is Side.OPPONENT else None)
    victim = W.unit_name(w.state, e.side, e.index)
    if w.host and e.killers:
        killers = "、".join(w.state.players[k].name for k in e.killers)
        w.add(Scope.HOST, LineKind.KILL, f"{victim} 的击败计入：{killers}", seat=seat)
    elif w.me is not None and w.me in e.killers:
        w.add(Scope.OWN, LineKind.KILL, f"你击败了{victim}", seat=w.me)


def _round(w: _Writer, e: RoundSettled) -> None:
    w.flush()
    text = f"第 {e.round} 回合结算完毕"
    if e.next_round is not None and e.next_decree:
        text += f"；第 {e.next_round} 回合圣意：{'、'.join(DIM_ZH[d] for d in e.next_decree)}"
    w.add(Scope.PUBLIC, LineKind.ROUND, text)


def _ended(w: _Writer, e: Ended) -> None:
    w.flush()
    w.add(Scope.PUBLIC, LineKind.END, W.end_text(w.mode.foes is Foes.BOSSES, e.reason, e.round))
    bonus = clear_bonus(w.state.cleared, w.state.round)
    order = sorted(range(len(e.scores)), key=lambda s: (e.placements[s] or 0, s))
    for s in order:
        p, place = w.state.players[s], e.placements[s]
        if w.mode.foes is Foes.BOSSES:
            dealt = p.stats.hp_damage + p.stats.grace_damage
            # every figure in points with the result table's two decimals (counts and factors stay whole)
            text = (f"{p.name} 积分 {score_text(e.scores[s])}（输出 {score_text(points(dealt))} ＋ 存活 "
                    f"{score_text(SURVIVAL_POINTS if p.alive else 0)} ＋ 通关奖励 {score_text(bonus)}）")
        else:  # how the score is made up (the table shows the sum; 名次 comes from who lasted longest)
            st = p.stats
            text = (f"第 {place} 名 {p.name} 积分 {score_text(e.scores[s])}（击败 {st.kills}×{KILL_POINTS} ＋ "
                    f"气血伤害 {score_text(points(st.hp_damage))}×{HP_DAMAGE_POINTS:g} ＋ 好感伤害 "
                    f"{score_text(points(st.grace_damage))}×{GRACE_DAMAGE_POINTS:g} − 承伤 {score_text(points(st.taken))}×"
                    f"{TAKEN_POINTS:g} ＋ 名次分 {score_text(place_points(place or 0))}）")
        w.add(Scope.PUBLIC, LineKind.SCORE, text, seat=s, placement=place, score=e.scores[s])


def build_report(mode: Mode, state: State, events: Sequence[Event], viewer: Viewer) -> list[ReportLine]:
    """The lines of one transition's events that `viewer` may read, in event order."""
    w = _Writer(mode, state, viewer, events[0].round if events else state.round)
    for e in events:
        match e:
            case CardsPlayed():
                _cards(w, e)
            case Acted():
                _acted(w, e)
            case OpponentActed():
                _opponent(w, e)
            case PassiveDone():
                _passive(w, e)
            case DecreeSettled():
                _decree(w, e)
            case Landed():
                _landed(w, e)
            case Fell():
                _fell(w, e)
            case RoundSettled():
                _round(w, e)
            case Ended():
                _ended(w, e)
    w.flush()
    return w.lines
