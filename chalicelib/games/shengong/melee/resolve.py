"""The simultaneous resolver: every sealed order of one round, resolved at once.

Seed 「同时结算」: 回合初统一快照，命中、受害者、养生免疫一律按快照判定，伤害与治疗最后一次性落账. Every
step below reads the start-of-round snapshot (places, 气血, 好感, effective orders) and only adds
to per-seat accumulators; nothing lands until STEP 9, so the order of the steps never matters to
the outcome and no seat moves first. Random draws happen in a fixed order (hit rolls by seat,
暗杀 ties, 圣意 ties, card refills by seat, next 圣意) so a game replays exactly.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field

from chalicelib.core.errors import DomainError
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.cards import Effect
from chalicelib.games.shengong.deck import CardPlay, refill, spend
from chalicelib.games.shengong.melee import places as P
from chalicelib.games.shengong.melee.actions import IDLE, Action
from chalicelib.games.shengong.melee.cards_effects import Mods, card_mods, passive_mods
from chalicelib.games.shengong.melee.events import (
    ActionDone,
    CardsPlayed,
    DecreeSettled,
    Eliminated,
    Ended,
    Event,
    Hit,
    PassiveDone,
    Result,
    RoundSettled,
    Tally,
)
from chalicelib.games.shengong.melee.rules import check_order
from chalicelib.games.shengong.melee.scoring import assign_places, score
from chalicelib.games.shengong.melee.state import MeleeState, Mode, Player, Stats

VOID = "void"
ACTION, PASSIVE = "a", "p"
Key = tuple[int, str]
"""A damage source: (seat, ACTION | PASSIVE)."""


@dataclass(slots=True)
class _Seat:
    p: Player
    kind: str
    target: str | None
    defaulted: bool
    play: CardPlay | None
    mods: Mods
    hp_hits: dict[Key, int] = field(default_factory=dict)
    grace_hits: dict[Key, int] = field(default_factory=dict)
    hp_self: int = 0
    grace_self: int = 0
    hp_guard: int = 0
    grace_guard: int = 0
    act_hp: int = 0
    act_grace: int = 0
    result: Result = Result.OK
    won: list[str] = field(default_factory=list)


def split_net(gross: Mapping[Key, int], net: int) -> dict[Key, int]:
    """Share a victim's net damage among its sources in proportion to their gross damage.

    Floors first, then the leftover tenths go to the largest remainders (then larger gross, then
    lower key), so the shares always add up to `net` exactly.
    """
    total = sum(gross.values())
    if net >= total:
        return dict(gross)
    if net <= 0:
        return {k: 0 for k in gross}
    shares = {k: g * net // total for k, g in gross.items()}
    left = net - sum(shares.values())
    for k in sorted(gross, key=lambda k: (-(gross[k] * net % total), -gross[k], k))[:left]:
        shares[k] += 1
    return shares


def rest_heal(hp: int, streak: int) -> int:
    """养生 回血 +1.5（气血<8）／+0.8（气血<12）；连养每轮递减 0.3（下限 +0.2）."""
    if hp < P.REST_LOW_BELOW:
        base = P.REST_LOW
    elif hp < P.HP_CAP:
        base = P.REST_HIGH
    else:
        return 0
    return max(P.REST_FLOOR, base - P.REST_DECAY * streak)


def _snapshot(state: MeleeState, moves: Mapping[int, Action]) -> dict[int, _Seat]:
    seats: dict[int, _Seat] = {}
    for p in state.players:
        if not p.alive:
            continue
        action = moves.get(p.seat)
        defaulted = action is None
        if action is not None:
            try:
                check_order(state, p.seat, action)
            except DomainError:
                action, defaulted = None, True
        if action is None:
            action = IDLE
        play = action.cards if state.mode is Mode.C and not action.cards.empty else None
        kind = VOID if p.voided else action.type
        if state.mode is Mode.B:
            mods = passive_mods(p.maids, kind)
        elif play is not None:
            mods = card_mods(p.maids, play)
        else:
            mods = {}
        seats[p.seat] = _Seat(p, kind, getattr(action, "place", None), defaulted, play, mods)
    return seats


def settle_round(state: MeleeState, moves: Mapping[int, Action], rng: Rng) -> tuple[MeleeState, list[Event]]:
    """Resolve one round. Returns the next state and the round's events (see events.py)."""
    r = state.round
    # STEP 0. SNAPSHOT: effective orders (missing or invalid -> 待机, voided -> VOID), places.
    seats = _snapshot(state, moves)
    order = sorted(seats)
    at: dict[str, list[int]] = {}
    for s in order:
        at.setdefault(seats[s].p.place, []).append(s)
    events: list[Event] = []
    for s in order:
        play = seats[s].play
        if play is not None:
            events.append(CardsPlayed(round=r, seat=s, attack=play.attack, defence=play.defence,
                                      general=play.general, discard=play.discard))

    # STEP 1. OWN COSTS: 下毒/暗杀 好感 −0.5; 诬告 气血 −1 (−2 when she stands at 摘星楼).
    for s in order:
        a = seats[s]
        if a.kind in ("poison", "assassinate"):
            a.act_grace -= P.POISON_COST_GRACE if a.kind == "poison" else P.ASSASSINATE_COST_GRACE
        elif a.kind == "frame":
            a.act_hp -= P.FRAME_COST_HP_AT_TOWER if a.p.place == P.TOWER else P.FRAME_COST_HP

    # STEP 2. ATTACKS: roll, pick victims on the snapshot, add gross damage.
    voids: set[int] = set()
    for s in order:
        a = seats[s]
        if a.kind not in ("poison", "assassinate", "frame"):
            continue
        victims = [v for v in at.get(a.target or "", ()) if v != s]
        if not victims:
            a.result = Result.NO_TARGET
            continue
        base, hit_fx = {
            "poison": (P.POISON_HIT, Effect.POISON_HIT),
            "assassinate": (P.ASSASSINATE_HIT, Effect.ASSASSINATE_HIT),
            "frame": (P.FRAME_HIT, Effect.FRAME_HIT),
        }[a.kind]
        if rng.below(100) >= min(P.HIT_CAP, base + a.mods.get(hit_fx, 0)):
            a.result = Result.MISS
            continue
        a.result = Result.HIT
        key = (s, ACTION)
        if a.kind == "poison":
            top = max(seats[v].p.hp for v in victims)
            bonus = a.mods.get(Effect.POISON_DAMAGE, 0)
            for v in victims:
                dmg = (P.POISON_TOP if seats[v].p.hp == top else P.POISON_OTHER) + bonus
                if seats[v].kind == "rest":
                    dmg //= 2  # 正在养生者伤害减半 (rounded down to a tenth)
                seats[v].hp_hits[key] = seats[v].hp_hits.get(key, 0) + dmg
        elif a.kind == "assassinate":
            top = max(seats[v].p.hp for v in victims)
            tied = [v for v in victims if seats[v].p.hp == top]
            v = tied[0] if len(tied) == 1 else rng.choice(tied)
            dmg = P.ASSASSINATE_VS_REST if seats[v].kind == "rest" else (
                P.ASSASSINATE_DAMAGE + a.mods.get(Effect.ASSASSINATE_DAMAGE, 0))
            seats[v].hp_hits[key] = seats[v].hp_hits.get(key, 0) + dmg
            voids.add(v)
        else:
            top = max(seats[v].p.grace for v in victims)
            bonus = a.mods.get(Effect.FRAME_DAMAGE, 0)
            for v in victims:
                dmg = (P.FRAME_TOP if seats[v].p.grace == top else P.FRAME_OTHER) + bonus
                seats[v].grace_hits[key] = seats[v].grace_hits.get(key, 0) + dmg

    # STEP 3. 送膳 and 圣意: top of each dimension among the servers at 乾清宫, ties at random.
    servers = [s for s in order if seats[s].kind == "meal" and seats[s].p.place == P.HALL]
    for s in order:
        if seats[s].kind == "meal" and seats[s].p.place != P.HALL:
            seats[s].result = Result.FAILED
            seats[s].act_grace -= P.MEAL_ABSENT_GRACE
    winners: list[int | None] = []
    for dim in state.decree:
        if not servers:
            winners.append(None)
            continue
        best = max(getattr(seats[s].p, dim) for s in servers)
        tied = [s for s in servers if getattr(seats[s].p, dim) == best]
        w = tied[0] if len(tied) == 1 else rng.choice(tied)
        winners.append(w)
        seats[w].won.append(dim)
    for s in servers:
        a = seats[s]
        if a.won:
            a.result = Result.HIT
            a.act_grace += P.MEAL_FAVOUR * len(a.won) + a.mods.get(Effect.MEAL_FAVOR, 0)
        else:
            a.result = Result.EMPTY
            a.act_hp -= P.MEAL_EMPTY_HP
    if state.decree:
        events_decree = DecreeSettled(round=r, dims=state.decree, winners=tuple(winners))
    else:
        events_decree = None

    # STEP 4. SPECIAL-PLACE PASSIVES (everyone, everywhere; each source counts once per round).
    passives: list[tuple[int, str, int, int]] = []
    for s in order:
        a = seats[s]
        if a.p.place == P.KITCHEN:
            for v in order:
                if v != s and seats[v].kind in ("rest", "idle"):
                    seats[v].hp_hits[(s, PASSIVE)] = P.KITCHEN_HIT_HP
            passives.append((s, P.KITCHEN, 0, -P.KITCHEN_SELF_GRACE))
        elif a.p.place == P.TOWER and a.kind == "frame":
            for v in order:
                b = seats[v]
                if v != s and (b.kind == "idle" or (b.kind == "meal" and b.p.place == P.HALL)):
                    b.grace_hits[(s, PASSIVE)] = P.TOWER_HIT_GRACE
            passives.append((s, P.TOWER, 0, 0))

    # STEP 5. HEALING AND BONUSES: 养生, 待机 (+同宫), palace cards, guards.
    for s in order:
        a = seats[s]
        if a.kind == "rest":
            a.act_hp += rest_heal(a.p.hp, a.p.rest_streak)
        elif a.kind == "idle":
            a.act_hp += P.IDLE_HP
            a.act_grace += P.IDLE_GRACE
            a.hp_guard += P.IDLE_GUARD
            for v in at[a.p.place]:
                if v != s:
                    seats[v].hp_self += P.IDLE_NEIGHBOUR
                    seats[v].grace_self += P.IDLE_NEIGHBOUR
        for fx, attr in ((Effect.PALACE_HP, "hp_self"), (Effect.PALACE_FAVOR, "grace_self")):
            mag = a.mods.get(fx, 0)
            if mag:
                for v in at[a.p.place]:
                    setattr(seats[v], attr, getattr(seats[v], attr) + mag)
        a.hp_guard += a.mods.get(Effect.GUARD_HP, 0)
        a.grace_guard += a.mods.get(Effect.GUARD_FAVOR, 0)

    # STEP 6. NET DAMAGE: guards (待机 −1, defence cards) off the total, shared among sources.
    dealt: dict[Key, dict[int, list[int]]] = {}
    net_hp: dict[int, dict[Key, int]] = {}
    net_grace: dict[int, dict[Key, int]] = {}
    for v in order:
        b = seats[v]
        net_hp[v] = split_net(b.hp_hits, sum(b.hp_hits.values()) - b.hp_guard)
        net_grace[v] = split_net(b.grace_hits, sum(b.grace_hits.values()) - b.grace_guard)
        for key, n in net_hp[v].items():
            dealt.setdefault(key, {}).setdefault(v, [0, 0])[0] += n
        for key, n in net_grace[v].items():
            dealt.setdefault(key, {}).setdefault(v, [0, 0])[1] += n

    # STEP 7. LAND: everything at once; 好感 +0.2; 战后回血 for survivors; 气血 cap 12.
    passive_self = {s: g for s, _, _, g in passives}
    new_hp: dict[int, int] = {}
    new_grace: dict[int, int] = {}
    taken: dict[int, tuple[int, int]] = {}
    for v in order:
        b = seats[v]
        th, tg = sum(net_hp[v].values()), sum(net_grace[v].values())
        taken[v] = (th, tg)
        hp = b.p.hp + b.act_hp + b.hp_self - th
        grace = b.p.grace + b.act_grace + b.grace_self + passive_self.get(v, 0) - tg + P.GRACE_REGEN
        if hp > 0 and grace > 0:
            hp += b.mods.get(Effect.AFTER_HEAL, 0)
        new_hp[v], new_grace[v] = min(P.HP_CAP, hp), grace

    # STEP 8. PER-ORDER RESULTS.
    for s in order:
        a = seats[s]
        hits = tuple(Hit(seat=v, hp=h, grace=g) for v, (h, g) in sorted(dealt.get((s, ACTION), {}).items()))
        events.append(ActionDone(
            round=r, seat=s, action=VOID if a.kind == VOID else a.kind,
            place=None if a.kind == VOID else a.target,
            result=Result.VOID if a.kind == VOID else a.result, defaulted=a.defaulted, hits=hits,
            self_hp=a.act_hp, self_grace=a.act_grace, won=tuple(a.won),
        ))
    for s, place, sh, sg in passives:
        hits = tuple(Hit(seat=v, hp=h, grace=g) for v, (h, g) in sorted(dealt.get((s, PASSIVE), {}).items()))
        events.append(PassiveDone(round=r, seat=s, place=place, hits=hits, self_hp=sh, self_grace=sg))
    if events_decree is not None:
        events.append(events_decree)

    # STEP 9. ELIMINATION, KILL CREDIT (DECISIONS #7), STATS.
    stat_hp = {s: 0 for s in order}
    stat_grace = {s: 0 for s in order}
    for (src, _), per in dealt.items():
        for h, g in per.values():
            stat_hp[src] += h
            stat_grace[src] += g
    kills = {s: 0 for s in order}
    fallen: dict[int, tuple[str, tuple[int, ...]]] = {}
    for v in order:
        dead_hp, dead_grace = new_hp[v] <= 0, new_grace[v] <= 0
        if not (dead_hp or dead_grace):
            continue
        by_src: dict[int, int] = {}
        for net, dead in ((net_hp[v], dead_hp), (net_grace[v], dead_grace)):
            if dead:
                for (src, _), n in net.items():
                    by_src[src] = by_src.get(src, 0) + n
        most = max(by_src.values(), default=0)
        killers = tuple(sorted(src for src, n in by_src.items() if n == most)) if most > 0 else ()
        for k in killers:
            kills[k] += 1
        cause = "both" if dead_hp and dead_grace else ("hp" if dead_hp else "grace")
        fallen[v] = (cause, killers)

    players = list(state.players)
    for s in order:
        a = seats[s]
        st = a.p.stats
        alive = s not in fallen
        players[s] = a.p.model_copy(update={
            "hp": new_hp[s], "grace": new_grace[s], "alive": alive,
            "out_round": None if alive else r,
            "place": a.target if alive and a.kind == "move" and a.target else a.p.place,
            "rest_streak": a.p.rest_streak + 1 if a.kind == "rest" else 0,
            "voided": alive and s in voids,
            "stats": Stats(kills=st.kills + kills[s], hp_damage=st.hp_damage + stat_hp[s],
                           favor_damage=st.favor_damage + stat_grace[s],
                           taken=st.taken + taken[s][0] + taken[s][1]),
        })
        events.append(Tally(round=r, seat=s, hp_before=a.p.hp, hp_after=new_hp[s], grace_before=a.p.grace,
                            grace_after=new_grace[s], taken_hp=taken[s][0], taken_grace=taken[s][1]))
    survivors = [s for s in order if s not in fallen]
    if fallen:
        for v, place in sorted(assign_places((players[v] for v in fallen), len(survivors) + 1).items()):
            players[v] = players[v].model_copy(update={"placement": place})
            events.append(Eliminated(round=r, seat=v, cause=fallen[v][0], placement=place, killers=fallen[v][1]))

    # STEP 10. CARDS (玩法C): used cards freeze 3 rounds, discards go back, survivors refill to 5.
    over = len(survivors) <= 1 or r >= state.round_limit
    if state.mode is Mode.C:
        for s in order:
            p = players[s]
            deck = p.deck
            if deck is None:
                continue
            if seats[s].play is not None:
                deck = spend(deck, seats[s].play, r)  # type: ignore[arg-type]
            if p.alive and not over:
                deck = refill(deck, r + 1, rng)
            if deck is not p.deck:
                players[s] = p.model_copy(update={"deck": deck})

    # STEP 11. NEXT ROUND OR THE END.
    if not over:
        decree = draw_decree(rng)
        events.append(RoundSettled(round=r, next_round=r + 1, next_decree=decree))
        return state.model_copy(update={"round": r + 1, "decree": decree, "players": tuple(players)}), events
    reason = "last_standing" if len(survivors) <= 1 else "limit"
    for s, place in assign_places((players[s] for s in survivors), 1).items():
        players[s] = players[s].model_copy(update={"placement": place})
    final = state.model_copy(update={"players": tuple(players), "over": True, "reason": reason})
    events.append(RoundSettled(round=r))
    events.append(Ended(
        round=r, reason=reason,
        placements=tuple(p.placement or 0 for p in final.players),
        scores=tuple(score(p.stats, p.placement or 0) for p in final.players),
    ))
    return final, events


def draw_decree(rng: Rng) -> tuple[str, ...]:
    """每轮圣意随机 2 维（容/宠/才/权）: two distinct dimensions, shown in 容宠才权 order."""
    picked = set(rng.sample(P.DECREE_DIMS, P.DECREE_SIZE))
    return tuple(d for d in P.DECREE_DIMS if d in picked)
