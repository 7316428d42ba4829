"""Steps 1–4 of a settlement: opponents' plans, own costs, players' attacks, opponents' attacks.

Victims, chances and 养生 immunity are judged on the snapshot (seed: 命中、受害者、养生免疫一律按快照判定);
every blow is only noted in the ledger. Random draws, always in this order: each living opponent's
tactic (index order), then each attacking seat's roll and, for a tied 暗杀, the pick (seat order),
then each opponent's roll (index order).
"""

from __future__ import annotations

from chalicelib.games.shengong import bosses
from chalicelib.games.shengong.actions import AttackMove
from chalicelib.games.shengong.bosses import BossAction
from chalicelib.games.shengong.cards import DAMAGE_EFFECT
from chalicelib.games.shengong.check import resolve_target
from chalicelib.games.shengong.formulas import blow, opponent_chance, player_chance
from chalicelib.games.shengong.ledger import Source, Via
from chalicelib.games.shengong.modes import Foes
from chalicelib.games.shengong.numbers import COST_GRACE, COST_HP
from chalicelib.games.shengong.terms import ActionType, Attack, Bar, Place, Result, Side, bar_of
from chalicelib.games.shengong.turn import Deed, Order, Round


def plan_opponents(rnd: Round) -> None:
    """Step 1 (D). Each living opponent picks her tactic on the snapshot (seed D⑤ 三位各按自身战术
    出手一次)."""
    rnd.plans = {o.index: bosses.choose(rnd.snap, o, rnd.rng) for o in rnd.snap.living_opponents()}


def pay_costs(rnd: Round) -> None:
    """Step 2. Own costs, paid on a miss too: 下毒 / 暗杀 好感 −0.5; 诬告 气血 −1, or her place's own
    cost (A/B/C 摘星楼: −2 in all, DECISIONS #13)."""
    for o in rnd.orders.values():
        attack = o.attack
        if attack is None:
            continue
        me = (Side.PLAYER, o.seat)
        frame_cost = rnd.mode.rule(rnd.snap.players[o.seat].place).frame_cost
        hp_cost = frame_cost if attack is Attack.FRAME and frame_cost is not None else COST_HP.get(attack, 0)
        rnd.ledger.own(me, Bar.HP, -hp_cost)
        rnd.ledger.own(me, Bar.GRACE, -COST_GRACE.get(attack, 0))


def strike_players(rnd: Round) -> None:
    """Step 3. Players' attacks, seat order: one roll each on her snapshot chance."""
    for o in rnd.orders.values():
        attack = o.attack
        if attack is None or not isinstance(o.action, AttackMove):
            continue
        if rnd.mode.foes is Foes.BOSSES:
            _strike_opponent(rnd, o, attack)
        else:
            _strike_place(rnd, o, attack, o.action.place)


def _bonus(rnd: Round, o: Order, attack: Attack) -> int:
    """Her 伤害 bonus: 宫女 and her snapshot place (D 御膳房 下毒 +1, 摘星楼 诬告 +1)."""
    place = rnd.snap.players[o.seat].place
    return o.mods.get(DAMAGE_EFFECT[attack], 0) + rnd.mode.rule(place).damage.get(attack, 0)


def _strike_place(rnd: Round, o: Order, attack: Attack, aim: Place | None) -> None:
    """A/B/C: everyone else at the target place (目标地所有人). 下毒 / 诬告: the highest on the snapshot
    (气血 / 好感; all tied) −2, the others −1. 暗杀: only the highest 气血 −3 (a tie picked at random),
    and her next move is void."""
    deed = rnd.deeds[o.seat]
    victims = [v for v in rnd.at(aim) if v != o.seat] if aim is not None else []
    if not victims:
        deed.result = Result.NO_TARGET
        return
    deed.chance = player_chance(rnd.mode, rnd.snap.players[o.seat], attack, o.mods)
    if rnd.rng.below(100) >= deed.chance:
        deed.result = Result.MISS
        return
    deed.result = Result.HIT
    source: Source = ((Side.PLAYER, o.seat), Via.ACTION)
    bar, bonus = bar_of(attack), _bonus(rnd, o, attack)

    def value(seat: int) -> int:
        p = rnd.snap.players[seat]
        return p.hp if bar is Bar.HP else p.grace

    top = max(value(v) for v in victims)
    tied = [v for v in victims if value(v) == top]
    if attack is Attack.ASSASSINATE:
        victim = tied[0] if len(tied) == 1 else rnd.rng.choice(tied)
        _hit_player(rnd, victim, source, attack, full=True, bonus=bonus)
        rnd.voids.add(victim)
        return
    for v in victims:
        _hit_player(rnd, v, source, attack, full=v in tied, bonus=bonus)


def _strike_opponent(rnd: Round, o: Order, attack: Attack) -> None:
    """D: the named opponent (or the first living one) takes the full blow; a player's 暗杀 does not
    void an opponent's next action (DECISIONS #12)."""
    assert isinstance(o.action, AttackMove)
    deed = rnd.deeds[o.seat]
    target = resolve_target(rnd.snap, attack, o.action.target)
    deed.target = target.index
    deed.chance = player_chance(rnd.mode, rnd.snap.players[o.seat], attack, o.mods, target)
    if rnd.rng.below(100) >= deed.chance:
        deed.result = Result.MISS
        return
    deed.result = Result.HIT
    amount = blow(attack, full=True, healing=False, bonus=_bonus(rnd, o, attack))
    rnd.ledger.hit((Side.OPPONENT, target.index), ((Side.PLAYER, o.seat), Via.ACTION), bar_of(attack), amount)


def _hit_player(rnd: Round, seat: int, source: Source, attack: Attack, *, full: bool, bonus: int) -> None:
    healing = rnd.orders[seat].does(ActionType.HEAL)
    rnd.ledger.hit((Side.PLAYER, seat), source, bar_of(attack), blow(attack, full=full, healing=healing, bonus=bonus))


def strike_opponents(rnd: Round) -> None:
    """Step 4 (D). Each opponent's attack, index order: one roll; a single target takes the full blow,
    a group attack reaches every living player (the snapshot's top −2, the others −1). An opponent's
    暗杀 hit voids the player's next move (DECISIONS #12). 护主 draws no roll."""
    for idx, plan in rnd.plans.items():
        deed = rnd.boss_deeds[idx] = Deed(target=plan.target)
        if plan.attack is None:
            continue
        o = rnd.snap.opponents[idx]
        living = [p.seat for p in rnd.snap.living()]
        rnd.aimed[idx] = tuple(living if plan.target is None else [plan.target])
        deed.chance = opponent_chance(o, plan.attack)
        if rnd.rng.below(100) >= deed.chance:
            deed.result = Result.MISS
            continue
        deed.result = Result.HIT
        source: Source = ((Side.OPPONENT, idx), Via.ACTION)
        for seat in rnd.aimed[idx]:
            _hit_player(rnd, seat, source, plan.attack, full=seat in _tops(rnd, plan),
                        bonus=_opponent_bonus(rnd, idx, plan))
            if plan.attack is Attack.ASSASSINATE:
                rnd.voids.add(seat)


def _tops(rnd: Round, plan: BossAction) -> set[int]:
    """Who takes the full blow: the single target, or everyone tied on top of the snapshot (好感 for
    诬告, 气血 otherwise) in a group attack — the base rule 「最高者 −2，其余各 −1」."""
    if plan.target is not None:
        return {plan.target}
    living = rnd.snap.living()
    bar = bar_of(plan.attack) if plan.attack is not None else Bar.HP
    top = max(p.grace if bar is Bar.GRACE else p.hp for p in living)
    return {p.seat for p in living if (p.grace if bar is Bar.GRACE else p.hp) == top}


def _opponent_bonus(rnd: Round, idx: int, plan: BossAction) -> int:
    """石露 登摘星楼: the 摘星楼 bonus on her 诬告; 石露 暗杀杀伤 +1."""
    spec = bosses.SPECS[rnd.snap.opponents[idx].key]
    if plan.attack is Attack.FRAME and plan.tower:
        return rnd.mode.rule(Place.TOWER).damage.get(Attack.FRAME, 0)
    return spec.assassinate_bonus if plan.attack is Attack.ASSASSINATE else 0
