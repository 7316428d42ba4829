"""Stages, opponents' numbers and their tactics (seed D⑤⑥).

Each opponent acts once per round by her own tactic: a small pure function
`(snapshot, rng) -> BossAction` that draws one integer in [0, 100) and, for a single-target row,
one choice among the players tied for the criterion. The snapshot is the frozen state at the start of the round, so victims are
chosen on it (seed: 受害者…一律按快照判定). The weights are in `TACTICS`, which the rules document
and the statistical tests read.

Seed numbers: 关卡1 高明珠 气血 24 / 好感 20, 命中 +10%, 六成直取气血最少者; 关卡2 石露 气血 35 /
好感 30, 命中 +20%, 诬告防守 20%, 暗杀杀伤 +1, 四成登摘星楼诬告; 关卡3 高明珠 (24/20) 携 西域间谍
气血 23, 下毒命中 +30%, 五成群毒 and 石露的哑巴宫女 气血 22, 暗杀命中 +30%, 五成随机直取.
Everything else in the tables below (the remaining probability mass) is this project's choice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field

from pydantic import BaseModel, ConfigDict

from chalicelib.core.rng import Rng
from chalicelib.games.shengong.coop.state import Attack, CoopState, OpponentState, PlayerState
from chalicelib.games.shengong.numbers import tenths


class BossAction(BaseModel):
    """What one opponent does this round."""

    model_config = ConfigDict(frozen=True, extra="forbid")

    tactic: str
    """Stable code of the tactic row (see TACTICS)."""
    label: str
    """The row's Chinese name, for reports."""
    attack: Attack | None
    """None: 护主 — she stays by her mistress and does not attack this round."""
    target: int | None
    """The victim's seat for a single-target attack (full blow); None = group attack on every
    living player: whoever tops the snapshot (气血 for 下毒, 好感 for 诬告; all tied) takes the full
    blow, every other −1."""
    tower: bool = False
    """石露 登摘星楼: her 诬告 deals +1 to each victim (the 摘星楼 bonus)."""


Snapshot = CoopState
Policy = Callable[[Snapshot, Rng], BossAction]


# ---- victim selectors (snapshot only; ties broken by one rng choice among the tied) --------------

def _living(snap: Snapshot) -> tuple[PlayerState, ...]:
    return snap.living_players()


def least_hp(snap: Snapshot, rng: Rng) -> int:
    low = min(p.hp for p in _living(snap))
    return rng.choice([p.seat for p in _living(snap) if p.hp == low])


def most_hp(snap: Snapshot, rng: Rng) -> int:
    high = max(p.hp for p in _living(snap))
    return rng.choice([p.seat for p in _living(snap) if p.hp == high])


def anyone(snap: Snapshot, rng: Rng) -> int:
    return rng.choice([p.seat for p in _living(snap)])


def _single(code: str, label: str, attack: Attack, seat: int) -> BossAction:
    return BossAction(tactic=code, label=label, attack=attack, target=seat)


def _group(code: str, label: str, attack: Attack, *, tower: bool = False) -> BossAction:
    return BossAction(tactic=code, label=label, attack=attack, target=None, tower=tower)


# ---- the four opponents' tactics -----------------------------------------------------------------

TACTICS: dict[str, tuple[tuple[str, int], ...]] = {
    "gao_mingzhu": (("strike_weakest", 60), ("group_poison", 25), ("group_frame", 15)),
    "shi_lu": (("tower_frame", 40), ("strike_leader", 35), ("group_poison", 25)),
    "xiyu_spy": (("group_poison", 50), ("guard", 50)),
    "mute_maid": (("strike_random", 50), ("guard", 50)),
}
"""Opponent key -> (tactic code, weight in %) in draw order; each row sums to 100."""


def gao_mingzhu(snap: Snapshot, rng: Rng) -> BossAction:
    """高明珠: 六成直取气血最少者 (暗杀); 25% 群毒; 15% 群诬."""
    roll = rng.below(100)
    if roll < 60:
        return _single("strike_weakest", "直取气血最少者", Attack.ASSASSINATE, least_hp(snap, rng))
    if roll < 85:
        return _group("group_poison", "群毒", Attack.POISON)
    return _group("group_frame", "群诬", Attack.FRAME)


def shi_lu(snap: Snapshot, rng: Rng) -> BossAction:
    """石露: 四成登摘星楼诬告 (group, +1 each); 35% 暗杀气血最多者 (专治领头羊); 25% 群毒."""
    roll = rng.below(100)
    if roll < 40:
        return _group("tower_frame", "登摘星楼诬告", Attack.FRAME, tower=True)
    if roll < 75:
        return _single("strike_leader", "暗杀领头羊", Attack.ASSASSINATE, most_hp(snap, rng))
    return _group("group_poison", "群毒", Attack.POISON)


GUARD = BossAction(tactic="guard", label="护主", attack=None, target=None)
"""A 随从's other half: she stays by her mistress and does not attack."""


def xiyu_spy(snap: Snapshot, rng: Rng) -> BossAction:
    """西域间谍: 五成群毒; 五成护主 (no attack)."""
    if rng.below(100) < 50:
        return _group("group_poison", "群毒", Attack.POISON)
    return GUARD


def mute_maid(snap: Snapshot, rng: Rng) -> BossAction:
    """石露的哑巴宫女: 五成随机直取 (暗杀 a uniformly random living player); 五成护主. Mute: never 诬告."""
    if rng.below(100) < 50:
        return _single("strike_random", "随机直取", Attack.ASSASSINATE, anyone(snap, rng))
    return GUARD


@dataclass(frozen=True, slots=True)
class OpponentSpec:
    """An opponent's fixed numbers (tenths for bars, points for hit bonuses)."""

    key: str
    name: str
    hp: int
    favor: int | None
    policy: Policy
    hit_bonus: Mapping[Attack, int] = field(default_factory=dict)
    frame_defence: int = 0
    """Points taken off players' 诬告 chance against her (石露 诬告防守 20%), after the cap."""
    assassinate_bonus: int = 0
    """Tenths added to her 暗杀 (石露 暗杀杀伤 +1)."""


_ALL = {Attack.POISON: 10, Attack.ASSASSINATE: 10, Attack.FRAME: 10}

SPECS: dict[str, OpponentSpec] = {
    s.key: s
    for s in (
        OpponentSpec("gao_mingzhu", "高明珠", tenths(24), tenths(20), gao_mingzhu, hit_bonus=_ALL),
        OpponentSpec(
            "shi_lu", "石露", tenths(35), tenths(30), shi_lu,
            hit_bonus={a: 20 for a in Attack}, frame_defence=20, assassinate_bonus=tenths(1),
        ),
        OpponentSpec("xiyu_spy", "西域间谍", tenths(23), None, xiyu_spy, hit_bonus={Attack.POISON: 30}),
        OpponentSpec("mute_maid", "石露的哑巴宫女", tenths(22), None, mute_maid, hit_bonus={Attack.ASSASSINATE: 30}),
    )
}

STAGES: dict[int, tuple[str, ...]] = {
    1: ("gao_mingzhu",),
    2: ("shi_lu",),
    3: ("gao_mingzhu", "xiyu_spy", "mute_maid"),
}
"""Seed D⑥: the three stages. Index 0 is the boss (本体), then her 随从."""

STAGE_TITLES: dict[int, str] = {1: "关卡1 · 高明珠", 2: "关卡2 · 石露", 3: "关卡3 · 高明珠（携二随从）"}


def opponents_for(stage: int) -> tuple[OpponentState, ...]:
    """The stage's opponents at full bars, in acting order."""
    out = []
    for i, key in enumerate(STAGES[stage]):
        s = SPECS[key]
        out.append(OpponentState(index=i, key=key, name=s.name, hp_max=s.hp, hp=s.hp, favor_max=s.favor, favor=s.favor))
    return tuple(out)


def choose(snap: Snapshot, opponent: OpponentState, rng: Rng) -> BossAction:
    """The opponent's action this round by her tactic."""
    return SPECS[opponent.key].policy(snap, rng)
