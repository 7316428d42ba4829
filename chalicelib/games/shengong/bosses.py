"""Stages, opponents' numbers and their tactics (seed D⑤⑥).

Each opponent acts once per round by her own tactic: a small pure function `(snapshot, rng) ->
BossAction` that draws one integer in [0, 100) and, for a single-target row, one choice among the
players tied for the criterion. The snapshot is the frozen state at the start of the round, so
victims are chosen on it (seed: 受害者…一律按快照判定). The weights are in `TACTICS`, which the rules
document and the statistical tests read.

Seed numbers: 关卡1 高明珠 气血 24 / 好感 20, 命中 +10%, 六成直取气血最少者; 关卡2 石露 气血 35 /
好感 30, 命中 +20%, 诬告防守 20%, 暗杀杀伤 +1, 四成登摘星楼诬告; 关卡3 高明珠 (24/20) 携 西域间谍
气血 23, 下毒命中 +30%, 五成群毒 and 石露的哑巴宫女 气血 22, 暗杀命中 +30%, 五成随机直取.
Everything else in the tables below (the remaining probability mass) is this project's choice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from pydantic import BaseModel, ConfigDict

from chalicelib.core.rng import Rng
from chalicelib.games.shengong.numbers import tenths
from chalicelib.games.shengong.state import Opponent, State
from chalicelib.games.shengong.terms import Attack, BossKey


class Tactic(StrEnum):
    STRIKE_WEAKEST = "strike_weakest"
    """直取气血最少者 (暗杀)."""
    STRIKE_LEADER = "strike_leader"
    """暗杀领头羊 (the most 气血)."""
    STRIKE_RANDOM = "strike_random"
    """随机直取 (暗杀 a uniformly random living player)."""
    GROUP_POISON = "group_poison"
    """群毒."""
    GROUP_FRAME = "group_frame"
    """群诬."""
    TOWER_FRAME = "tower_frame"
    """登摘星楼诬告 (group 诬告, +1 each)."""
    GUARD = "guard"
    """护主: no attack, no roll."""


TACTIC_ZH: dict[Tactic, str] = {
    Tactic.STRIKE_WEAKEST: "直取气血最少者", Tactic.STRIKE_LEADER: "暗杀领头羊", Tactic.STRIKE_RANDOM: "随机直取",
    Tactic.GROUP_POISON: "群毒", Tactic.GROUP_FRAME: "群诬", Tactic.TOWER_FRAME: "登摘星楼诬告",
    Tactic.GUARD: "护主",
}


class BossAction(BaseModel):
    """What one opponent does this round."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tactic: Tactic
    label: str
    """The row's Chinese name, for reports."""
    attack: Attack | None
    """None: 护主 — she stays by her mistress and does not attack this round."""
    target: int | None
    """The victim's seat for a single-target attack (full blow); None = group attack on every
    living player: whoever tops the snapshot (气血 for 下毒 / 暗杀, 好感 for 诬告; all tied) takes the
    full blow, every other −1."""
    tower: bool = False
    """石露 登摘星楼: her 诬告 deals +1 to each victim (the 摘星楼 bonus)."""


Policy = Callable[[State, Rng], BossAction]


# ---- victim selectors (snapshot only; one rng choice among the tied, even a single one) ---------

def least_hp(snap: State, rng: Rng) -> int:
    low = min(p.hp for p in snap.living())
    return rng.choice([p.seat for p in snap.living() if p.hp == low])


def most_hp(snap: State, rng: Rng) -> int:
    high = max(p.hp for p in snap.living())
    return rng.choice([p.seat for p in snap.living() if p.hp == high])


def anyone(snap: State, rng: Rng) -> int:
    return rng.choice([p.seat for p in snap.living()])


def _single(tactic: Tactic, attack: Attack, seat: int) -> BossAction:
    return BossAction(tactic=tactic, label=TACTIC_ZH[tactic], attack=attack, target=seat)


def _group(tactic: Tactic, attack: Attack, *, tower: bool = False) -> BossAction:
    return BossAction(tactic=tactic, label=TACTIC_ZH[tactic], attack=attack, target=None, tower=tower)


GUARD = BossAction(tactic=Tactic.GUARD, label=TACTIC_ZH[Tactic.GUARD], attack=None, target=None)
"""A 随从's other half: she stays by her mistress and does not attack."""


# ---- the four opponents' tactics -----------------------------------------------------------------

TACTICS: dict[BossKey, tuple[tuple[Tactic, int], ...]] = {
    BossKey.GAO_MINGZHU: ((Tactic.STRIKE_WEAKEST, 60), (Tactic.GROUP_POISON, 25), (Tactic.GROUP_FRAME, 15)),
    BossKey.SHI_LU: ((Tactic.TOWER_FRAME, 40), (Tactic.STRIKE_LEADER, 35), (Tactic.GROUP_POISON, 25)),
    BossKey.XIYU_SPY: ((Tactic.GROUP_POISON, 50), (Tactic.GUARD, 50)),
    BossKey.MUTE_MAID: ((Tactic.STRIKE_RANDOM, 50), (Tactic.GUARD, 50)),
}
"""Opponent -> (tactic, weight in %) in draw order; each row sums to 100."""


def gao_mingzhu(snap: State, rng: Rng) -> BossAction:
    """高明珠: 六成直取气血最少者 (暗杀); 25% 群毒; 15% 群诬."""
    roll = rng.below(100)
    if roll < 60:
        return _single(Tactic.STRIKE_WEAKEST, Attack.ASSASSINATE, least_hp(snap, rng))
    if roll < 85:
        return _group(Tactic.GROUP_POISON, Attack.POISON)
    return _group(Tactic.GROUP_FRAME, Attack.FRAME)


def shi_lu(snap: State, rng: Rng) -> BossAction:
    """石露: 四成登摘星楼诬告 (group, +1 each); 35% 暗杀气血最多者 (专治领头羊); 25% 群毒."""
    roll = rng.below(100)
    if roll < 40:
        return _group(Tactic.TOWER_FRAME, Attack.FRAME, tower=True)
    if roll < 75:
        return _single(Tactic.STRIKE_LEADER, Attack.ASSASSINATE, most_hp(snap, rng))
    return _group(Tactic.GROUP_POISON, Attack.POISON)


def xiyu_spy(snap: State, rng: Rng) -> BossAction:
    """西域间谍: 五成群毒; 五成护主 (no attack)."""
    if rng.below(100) < 50:
        return _group(Tactic.GROUP_POISON, Attack.POISON)
    return GUARD


def mute_maid(snap: State, rng: Rng) -> BossAction:
    """石露的哑巴宫女: 五成随机直取 (暗杀 a uniformly random living player); 五成护主. Mute: never 诬告."""
    if rng.below(100) < 50:
        return _single(Tactic.STRIKE_RANDOM, Attack.ASSASSINATE, anyone(snap, rng))
    return GUARD


@dataclass(frozen=True, slots=True)
class OpponentSpec:
    """An opponent's fixed numbers (tenths for bars, points for hit bonuses)."""

    key: BossKey
    name: str
    hp: int
    grace: int | None
    policy: Policy
    hit_bonus: Mapping[Attack, int] = field(default_factory=dict)
    frame_defence: int = 0
    """Points taken off players' 诬告 chance against her (石露 诬告防守 20%), after the cap."""
    assassinate_bonus: int = 0
    """Tenths added to her 暗杀 (石露 暗杀杀伤 +1)."""


_ALL_TEN = {Attack.POISON: 10, Attack.ASSASSINATE: 10, Attack.FRAME: 10}

SPECS: dict[BossKey, OpponentSpec] = {
    s.key: s
    for s in (
        OpponentSpec(BossKey.GAO_MINGZHU, "高明珠", tenths(24), tenths(20), gao_mingzhu, hit_bonus=_ALL_TEN),
        OpponentSpec(
            BossKey.SHI_LU, "石露", tenths(35), tenths(30), shi_lu,
            hit_bonus={a: 20 for a in Attack}, frame_defence=20, assassinate_bonus=tenths(1),
        ),
        OpponentSpec(BossKey.XIYU_SPY, "西域间谍", tenths(23), None, xiyu_spy, hit_bonus={Attack.POISON: 30}),
        OpponentSpec(
            BossKey.MUTE_MAID, "石露的哑巴宫女", tenths(22), None, mute_maid, hit_bonus={Attack.ASSASSINATE: 30},
        ),
    )
}

STAGES: dict[int, tuple[BossKey, ...]] = {
    1: (BossKey.GAO_MINGZHU,),
    2: (BossKey.SHI_LU,),
    3: (BossKey.GAO_MINGZHU, BossKey.XIYU_SPY, BossKey.MUTE_MAID),
}
"""Seed D⑥: the three stages. Index 0 is the boss (本体), then her 随从."""

STAGE_TITLES: dict[int, str] = {1: "关卡1 · 高明珠", 2: "关卡2 · 石露", 3: "关卡3 · 高明珠（携二随从）"}


def opponents_for(stage: int) -> tuple[Opponent, ...]:
    """The stage's opponents at full bars, in acting order."""
    return tuple(
        Opponent(index=i, key=key, name=SPECS[key].name, hp=SPECS[key].hp, hp_max=SPECS[key].hp,
                 grace=SPECS[key].grace, grace_max=SPECS[key].grace)
        for i, key in enumerate(STAGES[stage])
    )


def choose(snap: State, opponent: Opponent, rng: Rng) -> BossAction:
    """The opponent's action this round by her tactic."""
    return SPECS[opponent.key].policy(snap, rng)
