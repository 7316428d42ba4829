"""Whether a seat may seal a move, in one fixed order for every mode:

game over → a seated player → alive → the mode has this action → the fields the mode uses → not
voided → the target (an opponent in D, a place in A/B/C) → the 移动 destination → the cards.

Everything is judged on the state as it is when she submits: the start-of-round snapshot (nothing
changes before the settlement), so the settlement runs the same checks as a safety net.
"""

from __future__ import annotations

from chalicelib.core.errors import DomainError, Forbidden, GameOver, IllegalAction, NotYourTurn
from chalicelib.core.game import Actor, ViewerRole
from chalicelib.games.shengong.actions import Action, AttackMove, Move
from chalicelib.games.shengong.deck import Deck, check_play
from chalicelib.games.shengong.effects import check_cards_fit
from chalicelib.games.shengong.modes import Foes, MaidUse, Mode
from chalicelib.games.shengong.numbers import fmt
from chalicelib.games.shengong.state import Opponent, Player, State
from chalicelib.games.shengong.terms import ACTION_ZH, BAR_ZH, ActionType, Attack, Bar, Place

EMPTY_DECK = Deck()


VOIDED_REASON = "你本回合的行动已被暗杀作废，只能待机（无加成）"
"""Why a voided seat's moves other than 待机 are refused (her view says it once too)."""

VOIDED_SITS_OUT = "：本回合不必落子，自动待机"
"""宫斗杀 (D): the round does not wait for a voided seat (`waits_for`); her move is the void by itself."""

VOIDED_EFFECT = "行动作废，按待机处理（无加成）：不加气血、好感，不减所受伤害"
"""What her one possible move does in a voided round (her 待机 option's `effect`, not 待机's own)."""


def voided_reason(mode: Mode) -> str:
    """VOIDED_REASON as her mode has it: in D she seals nothing (`VOIDED_SITS_OUT`); in C she seals her
    待机 and may discard with it (「可弃牌」); A and B have no hand."""
    if mode.foes is Foes.BOSSES:
        return VOIDED_REASON + VOIDED_SITS_OUT
    return VOIDED_REASON + ("，可弃牌" if mode.maids is MaidUse.HAND else "")


def waits_for(mode: Mode, player: Player) -> bool:
    """Whether the round waits for this living seat's move. 宫斗杀 (D): not for a voided seat — her
    move can only be the void, and her team would wait on a button with one choice. A/B/C: every living
    seat, voided or not: the void is hers alone to know (a rival must not learn from the round's public
    waiting list whom a 暗杀 hit), and in C she may still discard."""
    return player.alive and not (player.voided and mode.foes is Foes.BOSSES)


def check(mode: Mode, state: State, actor: Actor, action: Action) -> None:
    """Validate a sealed move before the room stores it.

    Raises:
        GameOver: GAME_OVER.
        Forbidden: HOST_CANNOT_ACT (the 司礼 and spectators do not play).
        NotYourTurn / IllegalAction: see `check_move`.
    """
    if state.over:
        raise GameOver("本局已结束", code="GAME_OVER")
    if actor.role is not ViewerRole.PLAYER or actor.seat is None:
        raise Forbidden("司礼与观战者不入局，不能落子", code="HOST_CANNOT_ACT")
    check_move(mode, state, actor.seat, action)


def check_move(mode: Mode, state: State, seat: int, action: Action) -> None:
    """Everything asked of one seat's move.

    Raises:
        Forbidden: NOT_SEATED.
        NotYourTurn: ELIMINATED.
        IllegalAction: ACTION_NOT_IN_MODE, FIELD_NOT_USED, PLACE_REQUIRED, ACTION_VOIDED, the target
            codes of `resolve_target` and `_check_place`, the 移动 codes of `_check_destination`,
            CARDS_NOT_ALLOWED and the card codes (CARD_NOT_IN_HAND, CARD_WRONG_SLOT, CARD_REUSED,
            CARD_NO_EFFECT).
    """
    if not 0 <= seat < len(state.players):
        raise Forbidden("你不在本局", code="NOT_SEATED")
    player = state.players[seat]
    if not player.alive:
        raise NotYourTurn("你已倒下，本局不能再落子", code="ELIMINATED")
    if action.type not in mode.actions:
        raise IllegalAction(f"{mode.title}没有「{ACTION_ZH[action.type]}」", code="ACTION_NOT_IN_MODE")
    _check_fields(mode, action)
    if player.voided and (action.type is not ActionType.IDLE or action.cards.used()
                          or (not waits_for(mode, player) and not action.cards.empty)):
        raise IllegalAction(voided_reason(mode), code="ACTION_VOIDED")
    if isinstance(action, AttackMove):
        if mode.foes is Foes.BOSSES:
            resolve_target(state, Attack(action.type.value), action.target)
        else:
            _check_place(mode, Attack(action.type.value), action)
    if isinstance(action, Move):
        _check_destination(mode, player, action)
    _check_cards(mode, player, action)


def _check_fields(mode: Mode, action: Action) -> None:
    if mode.maids is not MaidUse.HAND and not action.cards.empty:
        raise IllegalAction(f"{mode.title}不能出牌", code="CARDS_NOT_ALLOWED")
    if not isinstance(action, AttackMove):
        return
    if mode.foes is Foes.BOSSES and action.place is not None:
        raise IllegalAction("宫斗杀的攻击只选目标对手（target），不选地点", code="FIELD_NOT_USED")
    if mode.foes is Foes.SEATS and action.target is not None:
        raise IllegalAction("本玩法的攻击以地点为目标（place），不选人", code="FIELD_NOT_USED")
    if mode.foes is Foes.SEATS and action.place is None:
        raise IllegalAction(f"{ACTION_ZH[action.type]}须选目标地（place）", code="PLACE_REQUIRED")


def _can_take(opponent: Opponent, attack: Attack) -> bool:
    return opponent.alive and (attack is not Attack.FRAME or opponent.grace is not None)


def resolve_target(state: State, attack: Attack, target: int | None) -> Opponent:
    """D: the opponent an attack hits — the named one, or the first living one that can take it
    (seed D④ 不选则打存活中的第一个; for 诬告, the first with 好感).

    Raises:
        IllegalAction: NO_TARGET (nobody left to hit), BAD_TARGET (no such opponent), TARGET_DOWN,
            NO_GRACE (诬告 on a 随从 without 好感).
    """
    if target is None:
        for o in state.opponents:
            if _can_take(o, attack):
                return o
        what = "可诬告的对手（随从没有好感）" if attack is Attack.FRAME else "还站着的对手"
        raise IllegalAction(f"没有{what}", code="NO_TARGET")
    if not 0 <= target < len(state.opponents):
        raise IllegalAction(f"没有第 {target + 1} 位对手", code="BAD_TARGET")
    o = state.opponents[target]
    if not o.alive:
        raise IllegalAction(f"{o.name} 已经倒下", code="TARGET_DOWN")
    if attack is Attack.FRAME and o.grace is None:
        raise IllegalAction(f"{o.name} 没有好感，诬告无从下手", code="NO_GRACE")
    return o


def _check_place(mode: Mode, attack: Attack, action: AttackMove) -> None:
    """A/B/C 可选目标: 下毒 / 暗杀 六处 + 御膳房, 诬告 六处 + 摘星楼.

    Raises:
        IllegalAction: BAD_TARGET.
    """
    if action.place not in mode.targets[attack]:
        raise IllegalAction(f"{ACTION_ZH[action.type]}不能以{action.place}为目标", code="BAD_TARGET")


def _check_destination(mode: Mode, player: Player, action: Move) -> None:
    """移动 to another place of this mode, past its 准入 threshold (judged on her bars now).

    Raises:
        IllegalAction: BAD_PLACE, ALREADY_THERE, ENTRY_THRESHOLD.
    """
    if action.place not in mode.places:
        raise IllegalAction(f"{mode.title}没有{action.place}", code="BAD_PLACE")
    if action.place is player.place:
        raise IllegalAction(f"你已身在{player.place}；留在原地请选「继续驻留」", code="ALREADY_THERE")
    short = _shortfall(mode, player, action.place)
    if short is not None:
        bar, have, minimum = short
        raise IllegalAction(f"{action.place} 须{bar}≥{fmt(minimum)}方可进入（你的{bar} {fmt(have)}）",
                            code="ENTRY_THRESHOLD")


def _shortfall(mode: Mode, player: Player, place: Place) -> tuple[str, int, int] | None:
    """The bar she lacks to enter `place` (its name, her value, the minimum), or None."""
    entry = mode.rule(place).entry
    if entry is None:
        return None
    have = player.hp if entry.bar is Bar.HP else player.grace
    return (BAR_ZH[entry.bar], have, entry.minimum) if have < entry.minimum else None


def shut_words(mode: Mode, player: Player, place: Place, err: DomainError) -> str:
    """Why 移动 may not go to `place`, in a tile's few words: 「好感 5＜6」 below its 准入, 「你在此处」,
    「行动作废」; any other refusal as its message."""
    short = _shortfall(mode, player, place) if err.code == "ENTRY_THRESHOLD" else None
    if short is not None:
        bar, have, minimum = short
        return f"{bar} {fmt(have)}＜{fmt(minimum)}"
    return {"ALREADY_THERE": "你在此处", "ACTION_VOIDED": "行动作废"}.get(err.code, err.message)


def _check_cards(mode: Mode, player: Player, action: Action) -> None:
    """玩法C ③⑤ (C and D): cards from her hand, each in its slot, fitting her move."""
    if mode.maids is MaidUse.HAND:
        check_play(player.deck or EMPTY_DECK, action.cards)
        check_cards_fit(action.cards, action.type)
