"""Steps 5–7 of a settlement: 送膳 and 圣意, the places' passives, then healing, bonuses and guards.

All on the snapshot, all into the ledger. The only random draws: a tie for the top of a 圣意
dimension among the 送膳-ers (dimension order).
"""

from __future__ import annotations

from chalicelib.games.shengong.cards import Effect
from chalicelib.games.shengong.formulas import heal_amount
from chalicelib.games.shengong.ledger import Via
from chalicelib.games.shengong.numbers import (
    GRACE_REGEN,
    IDLE_GUARD,
    IDLE_SELF,
    IDLE_SHARE,
    MEAL_ABSENT_GRACE,
    MEAL_EMPTY_HP,
    MEAL_GRACE,
)
from chalicelib.games.shengong.state import Player
from chalicelib.games.shengong.terms import ActionType, Bar, Dim, Result, Side
from chalicelib.games.shengong.turn import Round


def attribute(player: Player, dim: Dim) -> int:
    return {Dim.LOOKS: player.looks, Dim.FAVOR: player.favor, Dim.TALENT: player.talent, Dim.POWER: player.power}[dim]


def serve_meals(rnd: Round) -> None:
    """Step 5 (A/B/C). 送膳: 须身处乾清宫（不在而送＝失仪 −1 好感）；每轮圣意随机 2 维，各维居首者 +1 好感，
    并列随机取; a server at 乾清宫 who tops neither dimension: 落空 −1 气血."""
    servers: list[int] = []
    for o in rnd.orders.values():
        if not o.does(ActionType.MEAL):
            continue
        if rnd.mode.rule(rnd.snap.players[o.seat].place).court:
            servers.append(o.seat)
        else:
            rnd.deeds[o.seat].result = Result.FAILED
            rnd.ledger.own((Side.PLAYER, o.seat), Bar.GRACE, -MEAL_ABSENT_GRACE)
    winners: list[int | None] = []
    for dim in rnd.snap.decree:
        if not servers:
            winners.append(None)
            continue
        best = max(attribute(rnd.snap.players[s], dim) for s in servers)
        tied = [s for s in servers if attribute(rnd.snap.players[s], dim) == best]
        winner = tied[0] if len(tied) == 1 else rnd.rng.choice(tied)
        winners.append(winner)
        rnd.deeds[winner].won.append(dim)
    rnd.winners = tuple(winners)
    for s in servers:
        deed, me = rnd.deeds[s], (Side.PLAYER, s)
        if deed.won:
            deed.result = Result.HIT
            rnd.ledger.own(me, Bar.GRACE, MEAL_GRACE * len(deed.won) + rnd.orders[s].mods.get(Effect.MEAL_GRACE, 0))
        else:
            deed.result = Result.EMPTY
            rnd.ledger.own(me, Bar.HP, -MEAL_EMPTY_HP)


def place_passives(rnd: Round) -> None:
    """Step 6 (A/B/C). 身处御膳房 → 自己 −1 好感，并让所有养生/待机的人 −1 气血; 身处摘星楼行诬告 → …让待机者
    与在乾清宫送膳者 −1 好感. Each occupant is a source of her own (score and kill credit)."""
    for o in rnd.orders.values():
        rule = rnd.mode.rule(rnd.snap.players[o.seat].place)
        source = ((Side.PLAYER, o.seat), Via.PASSIVE)
        if rule.occupant_grace or rule.hurts_heal_idle:
            rnd.ledger.bonus((Side.PLAYER, o.seat), Bar.GRACE, -rule.occupant_grace)
            for v, other in rnd.orders.items():
                if v != o.seat and (other.does(ActionType.HEAL) or other.does(ActionType.IDLE)):
                    rnd.ledger.hit((Side.PLAYER, v), source, Bar.HP, rule.hurts_heal_idle)
            rnd.passives.append(o.seat)
        elif rule.frame_hurts and o.does(ActionType.FRAME):
            for v, other in rnd.orders.items():
                at_court = rnd.mode.rule(rnd.snap.players[v].place).court
                if v != o.seat and (other.does(ActionType.IDLE) or (other.does(ActionType.MEAL) and at_court)):
                    rnd.ledger.hit((Side.PLAYER, v), source, Bar.GRACE, rule.frame_hurts)
            rnd.passives.append(o.seat)


def support(rnd: Round) -> None:
    """Step 7. The daily 好感 +0.2; 养生; 待机 (+0.5 / +0.5, her place's bonus, 同宫者各 +0.1, this round's
    气血 damage −1); palace cards for everyone at her place; defence cards; 战后回血 (noted)."""
    for o in rnd.orders.values():
        p = rnd.snap.players[o.seat]
        me, rule, ledger = (Side.PLAYER, o.seat), rnd.mode.rule(p.place), rnd.ledger
        ledger.bonus(me, Bar.GRACE, GRACE_REGEN)
        if o.does(ActionType.HEAL):
            ledger.own(me, Bar.HP, heal_amount(p.hp, p.hp_max, p.heal_streak, rule.heal))
        if o.does(ActionType.IDLE):
            ledger.own(me, Bar.HP, IDLE_SELF + rule.idle)
            ledger.own(me, Bar.GRACE, IDLE_SELF + rule.idle)
            ledger.guard(me, Bar.HP, IDLE_GUARD)
            for mate in rnd.at(p.place):
                if mate != o.seat:
                    ledger.bonus((Side.PLAYER, mate), Bar.HP, IDLE_SHARE)
                    ledger.bonus((Side.PLAYER, mate), Bar.GRACE, IDLE_SHARE)
        for mate in rnd.at(p.place):
            ledger.bonus((Side.PLAYER, mate), Bar.HP, o.mods.get(Effect.PALACE_HP, 0))
            ledger.bonus((Side.PLAYER, mate), Bar.GRACE, o.mods.get(Effect.PALACE_GRACE, 0))
        ledger.guard(me, Bar.HP, o.mods.get(Effect.GUARD_HP, 0))
        ledger.guard(me, Bar.GRACE, o.mods.get(Effect.GUARD_GRACE, 0))
        ledger.books[me].after_heal = o.mods.get(Effect.AFTER_HEAL, 0)
