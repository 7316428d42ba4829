"""Steps 8–9 of a settlement: everything lands at once, then who fell, who gets the kill, the stats.

Seed: 伤害与治疗最后一次性落账 —— 不存在「先下手把人砍了、对方这轮白打」的先手压制. A unit felled this
round still acted this round; healing and damage are netted together.
"""

from __future__ import annotations

from chalicelib.games.shengong.actions import AttackMove, Move
from chalicelib.games.shengong.events import (
    Acted,
    DecreeSettled,
    Event,
    Fell,
    Hit,
    Landed,
    OpponentActed,
    PassiveDone,
)
from chalicelib.games.shengong.ledger import Ref, Source, Via, credit
from chalicelib.games.shengong.modes import Foes
from chalicelib.games.shengong.scoring import assign_places
from chalicelib.games.shengong.state import Stats
from chalicelib.games.shengong.terms import ActionType, Bar, FallCause, Result, Side
from chalicelib.games.shengong.turn import Round


def land(rnd: Round) -> None:
    """Step 8. Net damage per unit (guards off the round's total, shared among sources); bars =
    start + own + bonuses − net damage; 战后回血 only if she still stands; then the caps."""
    landed: list[Event] = []
    for s in rnd.orders:
        p, me = rnd.snap.players[s], (Side.PLAYER, s)
        book, net = rnd.ledger.books[me], _net(rnd, me)
        taken = {bar: sum(net[bar].values()) for bar in Bar}
        hp = p.hp + book.own[Bar.HP] + book.bonus[Bar.HP] - taken[Bar.HP]
        grace = p.grace + book.own[Bar.GRACE] + book.bonus[Bar.GRACE] - taken[Bar.GRACE]
        down = hp <= 0 or grace <= 0
        hp = min(p.hp_max, hp + (0 if down else book.after_heal))
        if rnd.mode.grace_cap is not None:
            grace = min(rnd.mode.grace_cap, grace)
        rnd.bars[me] = (hp, grace)
        # a gain past her cap is lost: her own move's gain fills the room first (after the blows and
        # tolls), so her line says what of it landed
        caps = {Bar.HP: p.hp_max, Bar.GRACE: rnd.mode.grace_cap}
        starts = {Bar.HP: p.hp, Bar.GRACE: p.grace}
        rnd.own_landed[s] = {bar: _within_cap(book.own[bar], caps[bar], starts[bar] - taken[bar]
                                              + min(book.bonus[bar], 0)) for bar in Bar}
        landed.append(Landed(
            round=rnd.round_no, side=Side.PLAYER, index=s, hp_before=p.hp, hp_after=hp, grace_before=p.grace,
            grace_after=grace, taken_hp=taken[Bar.HP], taken_grace=taken[Bar.GRACE],
            absorbed=sum(rnd.ledger.gross(me, bar) - taken[bar] for bar in Bar), down=down,
        ))
    for o in rnd.snap.living_opponents():
        unit = (Side.OPPONENT, o.index)
        net = _net(rnd, unit)
        o_hp = o.hp - sum(net[Bar.HP].values())
        o_grace = None if o.grace is None else o.grace - sum(net[Bar.GRACE].values())
        rnd.bars[unit] = (o_hp, o_grace)
        landed.append(Landed(
            round=rnd.round_no, side=Side.OPPONENT, index=o.index, hp_before=o.hp, hp_after=o_hp,
            grace_before=o.grace, grace_after=o_grace, taken_hp=o.hp - o_hp,
            taken_grace=(o.grace or 0) - (o_grace or 0), down=o_hp <= 0 or (o_grace is not None and o_grace <= 0),
        ))
    rnd.events.extend(_record_moves(rnd))
    rnd.events.extend(landed)


def _within_cap(own: int, cap: int | None, base: int) -> int:
    """What of her own move's change landed: a gain up to her `cap` from `base` (her bar less what
    was taken from it), a cost in full."""
    if own <= 0 or cap is None:
        return own
    return min(own, max(0, cap - base))


def _net(rnd: Round, unit: Ref) -> dict[Bar, dict[Source, int]]:
    rnd.nets[unit] = {bar: rnd.ledger.net(unit, bar) for bar in Bar}
    return rnd.nets[unit]


def _hits(rnd: Round, source: Source) -> tuple[Hit, ...]:
    """Every unit this source reached, with the blow and what of it landed."""
    out = []
    for unit, book in rnd.ledger.books.items():
        hp, grace = book.hits[Bar.HP].get(source), book.hits[Bar.GRACE].get(source)
        if hp is None and grace is None:
            continue
        side, idx = unit
        healing = side is Side.PLAYER and rnd.orders[idx].does(ActionType.HEAL)
        out.append(Hit(side=side, index=idx, hp=hp or 0, grace=grace or 0, hp_net=rnd.nets[unit][Bar.HP].get(source, 0),
                       grace_net=rnd.nets[unit][Bar.GRACE].get(source, 0), healing=healing))
    return tuple(out)


def _record_moves(rnd: Round) -> list[Event]:
    """Each move's result (seat order), each opponent's, each place that acted, the 圣意."""
    r, out = rnd.round_no, list[Event]()
    for s, o in rnd.orders.items():
        deed = rnd.deeds[s]
        aim = o.action.place if isinstance(o.action, AttackMove | Move) else None
        out.append(Acted(
            round=r, seat=s, action=o.action.type, place=rnd.snap.players[s].place, aim=aim, target=deed.target,
            chance=deed.chance, result=Result.VOIDED if o.voided else deed.result, defaulted=o.defaulted,
            refused=o.refused, hits=_hits(rnd, ((Side.PLAYER, s), Via.ACTION)), own_hp=rnd.own_landed[s][Bar.HP],
            own_grace=rnd.own_landed[s][Bar.GRACE], won=tuple(deed.won),
        ))
    for idx, plan in rnd.plans.items():
        deed = rnd.boss_deeds[idx]
        out.append(OpponentActed(
            round=r, opponent=idx, tactic=plan.tactic, label=plan.label, attack=plan.attack,
            group=plan.attack is not None and plan.target is None, tower=plan.tower, chance=deed.chance,
            result=deed.result, aimed=rnd.aimed.get(idx, ()), hits=_hits(rnd, ((Side.OPPONENT, idx), Via.ACTION)),
        ))
    for s in rnd.passives:
        out.append(PassiveDone(round=r, seat=s, place=rnd.snap.players[s].place,
                               hits=_hits(rnd, ((Side.PLAYER, s), Via.PASSIVE)),
                               own_grace=-rnd.mode.rule(rnd.snap.players[s].place).occupant_grace))
    if rnd.snap.decree:
        out.append(DecreeSettled(round=r, dims=rnd.snap.decree, winners=rnd.winners))
    return out


def fall(rnd: Round) -> None:
    """Step 9. Who is down (气血 ≤ 0 or 好感 ≤ 0), kill credit (DECISIONS #7, in D against opponents
    too, #12), stats, places of the fallen (A/B/C, DECISIONS #3), the next round's void flags (暗杀),
    arrivals of 移动, the 养生 streak."""
    dealt = {s: dict.fromkeys(Bar, 0) for s in rnd.orders}
    for nets in rnd.nets.values():
        for bar, per in nets.items():
            for ((side, idx), _via), n in per.items():
                if side is Side.PLAYER:
                    dealt[idx][bar] += n
    kills = dict.fromkeys(rnd.orders, 0)
    fallen: dict[Ref, tuple[FallCause, tuple[int, ...]]] = {}
    for unit in rnd.nets:
        hp, grace = rnd.bars[unit]
        fatal = tuple(bar for bar, down in ((Bar.HP, hp <= 0), (Bar.GRACE, grace is not None and grace <= 0)) if down)
        if not fatal:
            continue
        killers = tuple(i for s, i in credit(rnd.ledger.books[unit], rnd.nets[unit], fatal) if s is Side.PLAYER)
        for k in killers:
            kills[k] += 1
        fallen[unit] = (FallCause.BOTH if len(fatal) == 2 else FallCause(fatal[0].value), killers)
    for s, o in rnd.orders.items():
        p, alive = rnd.players[s], (Side.PLAYER, s) not in fallen
        st, net = p.stats, rnd.nets[(Side.PLAYER, s)]
        hp, grace = rnd.bars[(Side.PLAYER, s)]
        rnd.players[s] = p.model_copy(update={
            "hp": hp, "grace": grace, "alive": alive, "out_round": None if alive else rnd.round_no,
            "place": o.action.place if alive and not o.voided and isinstance(o.action, Move) else p.place,
            "heal_streak": p.heal_streak + 1 if o.does(ActionType.HEAL) else 0, "voided": alive and s in rnd.voids,
            "stats": Stats(kills=st.kills + kills[s], hp_damage=st.hp_damage + dealt[s][Bar.HP],
                           grace_damage=st.grace_damage + dealt[s][Bar.GRACE],
                           taken=st.taken + sum(sum(per.values()) for per in net.values()),
                           moves=st.moves + (0 if o.defaulted else 1)),
        })
    for opp in rnd.snap.living_opponents():
        hp, grace = rnd.bars[(Side.OPPONENT, opp.index)]
        down = (Side.OPPONENT, opp.index) in fallen
        rnd.opponents[opp.index] = opp.model_copy(update={
            "hp": hp, "grace": grace, "alive": not down, "out_round": rnd.round_no if down else None})
    _place_and_report(rnd, fallen)


def _place_and_report(rnd: Round, fallen: dict[Ref, tuple[FallCause, tuple[int, ...]]]) -> None:
    places: dict[int, int] = {}
    seats = [idx for side, idx in fallen if side is Side.PLAYER]
    if rnd.mode.foes is Foes.SEATS and seats:
        survivors = sum(1 for p in rnd.players if p.alive)
        places = assign_places([rnd.players[s] for s in seats], survivors + 1)
        for s, place in places.items():
            rnd.players[s] = rnd.players[s].model_copy(update={"placement": place})
    for (side, idx), (cause, killers) in sorted(fallen.items(), key=lambda f: (f[0][0] is Side.OPPONENT, f[0][1])):
        rnd.events.append(Fell(round=rnd.round_no, side=side, index=idx, cause=cause,
                               placement=places.get(idx) if side is Side.PLAYER else None, killers=killers))
