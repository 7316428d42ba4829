"""The formulas of 深宫杀, one of each for every mode: hit chances, a blow, 养生.

Each takes plain numbers or frozen models and returns tenths (bars) or whole percentage points
(chances); the resolver, the views and the bots all call these, so they can never disagree.
"""

from __future__ import annotations

from chalicelib.games.shengong.bosses import SPECS
from chalicelib.games.shengong.cards import HIT_EFFECT
from chalicelib.games.shengong.effects import Mods
from chalicelib.games.shengong.modes import Mode
from chalicelib.games.shengong.numbers import (
    ASSASSINATE_ON_HEALING,
    ATTR_DIVISOR,
    BASE_HIT,
    DAMAGE,
    HEAL_DECAY,
    HEAL_FLOOR,
    HEAL_HIGH,
    HEAL_LOW,
    HEAL_LOW_BELOW,
    HIT_CAP,
    SPLASH,
)
from chalicelib.games.shengong.state import Opponent, Player
from chalicelib.games.shengong.terms import Attack


def capped(chance: int) -> int:
    """DECISIONS #14: every chance is clipped to [0, 95] after every bonus."""
    return max(0, min(HIT_CAP, chance))


def attribute_bonus(player: Player, attack: Attack) -> int:
    """D② 权势/20 (下毒), 才情/20 (暗杀), 圣宠/20 (诬告), rounded down to whole points (DECISIONS #14)."""
    value = {Attack.POISON: player.power, Attack.ASSASSINATE: player.talent, Attack.FRAME: player.favor}[attack]
    return value // ATTR_DIVISOR


def player_chance(mode: Mode, player: Player, attack: Attack, mods: Mods | None = None,
                  target: Opponent | None = None) -> int:
    """Her chance this round: the table's base, + attribute (D), + her snapshot place (醉江南), +
    宫女 (`mods`), capped at 95; then an opponent's defence (石露 诬告防守 20) comes off."""
    chance = BASE_HIT[attack] + mode.rule(player.place).hit + (mods or {}).get(HIT_EFFECT[attack], 0)
    if mode.attribute_hits:
        chance += attribute_bonus(player, attack)
    defence = SPECS[target.key].frame_defence if target is not None and attack is Attack.FRAME else 0
    return max(0, capped(chance) - defence)


def opponent_chance(opponent: Opponent, attack: Attack) -> int:
    """D⑥: the table's base + her 命中 bonus, capped at 95."""
    return capped(BASE_HIT[attack] + SPECS[opponent.key].hit_bonus.get(attack, 0))


def blow(attack: Attack, *, full: bool, healing: bool, bonus: int = 0) -> int:
    """What one attack deals one victim, in tenths.

    `full`: a single target or a group's highest (−2 / −3 / −2), else 其余各 −1; `bonus`: cards,
    places, an opponent's 杀伤. On a victim who 养生s this round: 下毒 is halved (rounded down to a
    tenth), 暗杀 deals only −1 whatever the bonus (DECISIONS #6).
    """
    if attack is Attack.ASSASSINATE and healing:
        return ASSASSINATE_ON_HEALING
    amount = (DAMAGE[attack] if full else SPLASH) + bonus
    if attack is Attack.POISON and healing:
        amount //= 2
    return amount


def heal_amount(hp: int, hp_max: int, streak: int, place_bonus: int = 0) -> int:
    """养生：回血 +1.5（气血<8）／+0.8（below her cap）；连养每轮递减 0.3（下限 +0.2）; + her place's bonus
    (D 太医院 +1). At her cap it heals nothing."""
    if hp >= hp_max:
        return 0
    base = HEAL_LOW if hp < HEAL_LOW_BELOW else HEAL_HIGH
    return max(HEAL_FLOOR, base - HEAL_DECAY * streak) + place_bonus
