"""Every error code the 深宫杀 package raises, with its one status (the exception class that raises it)
and its messages. `tests/unit/games/shengong/test_errors.py` checks the raise sites against this."""

from __future__ import annotations

from chalicelib.core.errors import ErrorSpec

_UNPROCESSABLE, _CONFLICT, _FORBIDDEN = 422, 409, 403

ERRORS: dict[str, ErrorSpec] = {
    # ---- start ---------------------------------------------------------------------------------
    "BAD_SEATS": ErrorSpec(_UNPROCESSABLE, "座次有误", "Seats must be numbered 0..n-1."),
    "BAD_PROFILE": ErrorSpec(_UNPROCESSABLE, "妃子资料有误",
                             "A seat has no persona, or its attributes or maid levels are out of range."),
    "STAGE_LOCKED": ErrorSpec(_UNPROCESSABLE, "全队须先通关上一关",
                              "D: stage N needs every player to have cleared stage N-1; the message and the "
                              "`players` detail name who has not."),
    # ---- who may move --------------------------------------------------------------------------
    "GAME_OVER": ErrorSpec(_CONFLICT, "本局已结束", "The game has ended; no more moves."),
    "HOST_CANNOT_ACT": ErrorSpec(_FORBIDDEN, "司礼与观战者不入局，不能落子",
                                 "Only seated players submit moves."),
    "NOT_SEATED": ErrorSpec(_FORBIDDEN, "你不在本局", "The seat does not exist in this game."),
    "ELIMINATED": ErrorSpec(_CONFLICT, "你已倒下，本局不能再落子", "A fallen seat never moves again."),
    # ---- the move --------------------------------------------------------------------------------
    "ACTION_NOT_IN_MODE": ErrorSpec(_UNPROCESSABLE, "本玩法没有这个行动",
                                    "The mode has no such action (送膳 `meal` does not exist in D)."),
    "FIELD_NOT_USED": ErrorSpec(_UNPROCESSABLE, "本玩法不用这个字段",
                                "D attacks name an opponent (`target`) and no `place`; A/B/C attacks name a "
                                "`place` and no `target`."),
    "PLACE_REQUIRED": ErrorSpec(_UNPROCESSABLE, "须选目标地", "A/B/C attacks need a target `place`."),
    "ACTION_VOIDED": ErrorSpec(_UNPROCESSABLE, "本回合行动已被暗杀作废，只能待机",
                               "Her move this round is void (暗杀 last round): only `idle`, discards allowed."),
    "NO_TARGET": ErrorSpec(_UNPROCESSABLE, "没有可攻击的对手", "D: no living opponent can take this attack."),
    "BAD_TARGET": ErrorSpec(_UNPROCESSABLE, "目标不可选",
                            "D: no opponent with this index; A/B/C: the place is not a target of this attack."),
    "TARGET_DOWN": ErrorSpec(_UNPROCESSABLE, "对手已经倒下", "D: the named opponent is down."),
    "NO_GRACE": ErrorSpec(_UNPROCESSABLE, "对手没有好感，诬告无从下手",
                          "D: 诬告 (`frame`) on a 随从 who has no 好感."),
    "BAD_PLACE": ErrorSpec(_UNPROCESSABLE, "本玩法没有这个地点", "The 移动 destination is not a place of this mode."),
    "ALREADY_THERE": ErrorSpec(_UNPROCESSABLE, "你已身在此处", "移动 to where she stands; send `stay` instead."),
    "ENTRY_THRESHOLD": ErrorSpec(_UNPROCESSABLE, "未达准入条件",
                                 "A/B/C special places: 御膳房 好感≥6, 摘星楼 气血≥6, 乾清宫 好感≥5."),
    # ---- cards -----------------------------------------------------------------------------------
    "CARDS_NOT_ALLOWED": ErrorSpec(_UNPROCESSABLE, "本玩法不能出牌", "Cards are played in C and D only."),
    "CARD_NOT_IN_HAND": ErrorSpec(_UNPROCESSABLE, "手中没有这张牌", "A played or discarded copy is not in hand."),
    "CARD_WRONG_SLOT": ErrorSpec(_UNPROCESSABLE, "牌须各归其位", "A card placed in another slot than its own."),
    "CARD_REUSED": ErrorSpec(_UNPROCESSABLE, "同一张牌不能用两次", "The same copy named twice in one move."),
    "CARD_NO_EFFECT": ErrorSpec(_UNPROCESSABLE, "这张牌对该行动无效",
                                "An attack or 送膳 card played with a move it does not act on (discard it instead)."),
}
