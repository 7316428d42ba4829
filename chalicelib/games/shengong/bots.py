"""Bots for 深宫杀: what a bot in a seat seals this round, seeing only that seat's view.

A bot gets `Game.view(state, Viewer.player(seat))` and nothing else: the public board, the mode's
rules as the view states them (actions, places, targets, entry thresholds, bonuses) and her own
private part (void flag, hit chances, 养生 now, 宫女, hand). Every random choice goes through the
`rng` passed in, so a game with bots replays exactly.

* 简单 SIMPLE: 养生 when low, 待机 when 好感 is low, otherwise attack the weakest visible opponent.
* 进阶 ADVANCED (`bot_advanced.py`): weighs every legal move by its expected worth in score.
"""

from __future__ import annotations

from chalicelib.core.game import BotLevel
from chalicelib.core.rng import Rng
from chalicelib.games.shengong.actions import Action, Idle
from chalicelib.games.shengong.bot_advanced import advanced
from chalicelib.games.shengong.bot_simple import simple
from chalicelib.games.shengong.views import ShengongView


def decide(view: ShengongView, seat: int, level: BotLevel, rng: Rng) -> Action | None:
    """The move of a bot in `seat` (None when she has nothing to do: the game is over or she fell).

    A voided seat can only 待机 (seed: 并令其下回合行动作废)."""
    you = view.you
    if view.over or you is None or you.seat != seat or not view.players[seat].alive:
        return None
    if you.voided:
        return Idle()
    return simple(view, seat, rng) if level is BotLevel.SIMPLE else advanced(view, seat, rng)
