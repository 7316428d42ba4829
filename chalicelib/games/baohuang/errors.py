"""Every error code 保皇 raises, with its one HTTP status (`Game.errors`; the platform serves the
closed catalogue at GET /v1/errors). A unit test reads the package source and checks that each
`code="…"` raised is listed here with the status of the exception class that raises it."""

from __future__ import annotations

from chalicelib.core.errors import ErrorSpec
from chalicelib.games.baohuang.model import QUIT_PENALTY

_BAD_REQUEST, _FORBIDDEN, _NOT_FOUND, _CONFLICT, _UNPROCESSABLE = 400, 403, 404, 409, 422

ERRORS: dict[str, ErrorSpec] = {
    # -- the table (any phase) -------------------------------------------------------------------
    "GAME_OVER": ErrorSpec(_CONFLICT, "本桌已结束", "The table has ended; no action is possible."),
    "NOT_SEATED": ErrorSpec(_FORBIDDEN, "观战者不能操作", "Only a seated player (or the host, to kick) may act."),
    "HOST_ONLY": ErrorSpec(_FORBIDDEN, "只有司礼可以踢人", "`kick` is for the host (司礼) only."),
    "HOST_ONLY_KICKS": ErrorSpec(_UNPROCESSABLE, "司礼只能踢出玩家", "The host may only `kick`."),
    "WRONG_PHASE": ErrorSpec(_UNPROCESSABLE, "现在不能这样操作",
                             "The action belongs to another phase (throne, declaration, play)."),
    "NOT_YOUR_TURN": ErrorSpec(_CONFLICT, "还没轮到你", "Another seat is to act (throne offer or trick)."),
    "ALREADY_AUTO": ErrorSpec(_UNPROCESSABLE, "已在托管中", "`auto` sent while the seat is already in 托管."),
    "NOT_AUTO": ErrorSpec(_UNPROCESSABLE, "你没有被托管", "`resume` sent while the seat is not in 托管."),
    "MID_DEAL": ErrorSpec(_UNPROCESSABLE, f"牌局进行中，只能强退（扣{QUIT_PENALTY}分）",
                          "`leave` / `next_deal` are for between deals; mid-deal only `quit` (−30) leaves."),
    "ALREADY_READY": ErrorSpec(_UNPROCESSABLE, "已经准备好了", "`next_deal` sent twice between the same deals."),
    "SEALED_MOVE": ErrorSpec(_UNPROCESSABLE, "声明是密封操作，由房间统一结算",
                             "Declarations are sealed moves: submit them; they are settled together."),
    "NO_REPLAY": ErrorSpec(_NOT_FOUND, "没有这一局的回放",
                           "The state keeps only the last finished deal's record (each result carries its own)."),
    # -- the throne (选皇帝, 叫牌) -----------------------------------------------------------------
    "NO_CALL_IN_SIMPLE": ErrorSpec(_UNPROCESSABLE, "简明玩法不叫牌",
                                   "Simple mode calls no card: the 侍卫 card's holder is the guard."),
    "OPEN_SOLO_NEEDS_GUARD_CARD": ErrorSpec(_UNPROCESSABLE, "没有侍卫牌，不能明独保",
                                            "Simple mode: 明独保 needs the 侍卫 card in the emperor's hand."),
    "CALL_OR_OPEN_SOLO": ErrorSpec(_UNPROCESSABLE, "叫牌与明独保只能选一项",
                                   "Classic: take the throne with a call or with 明独保, not both."),
    "CALL_REQUIRED": ErrorSpec(_UNPROCESSABLE, "登基须叫一张牌或声明明独保",
                               "Classic: taking the throne needs a called face or 明独保."),
    "CALL_NEEDS_THREE": ErrorSpec(_UNPROCESSABLE, "只能叫自己有三张或四张的牌",
                                  "Classic: the called face must be one she holds three (or four) copies of."),
    "BAD_CALL": ErrorSpec(_BAD_REQUEST, "无法识别的叫牌", "The call is not a face code such as \"HA\" (jokers cannot be called)."),
    "MUST_TAKE_THRONE": ErrorSpec(_UNPROCESSABLE, "皇位已传完一轮，必须登基",
                                  "Classic: the throne came back round to its holder, who must take it."),
    # -- the sealed declaration (明保, 造反, 抢独) ---------------------------------------------------
    "EMPEROR_DOES_NOT_DECLARE": ErrorSpec(_UNPROCESSABLE, "皇帝无需声明", "The emperor has no declaration to make."),
    "NO_GRAB_IN_SIMPLE": ErrorSpec(_UNPROCESSABLE, "简明玩法不能抢独", "Classic mode only: 抢独 does not exist in simple mode."),
    "HOLDER_CANNOT_GRAB": ErrorSpec(_UNPROCESSABLE, "抓到皇牌的人不能抢独",
                                    "The seat dealt the 皇 card cannot 抢独 (a throne passed on is not grabbed back)."),
    "EMPEROR_OPEN_SOLO": ErrorSpec(_UNPROCESSABLE, "皇帝已明独保，不能抢独", "No 抢独 against an emperor's 明独保."),
    "GRAB_NOT_ELIGIBLE": ErrorSpec(_UNPROCESSABLE, "抢独需要三张王和四张同花色同点数的牌",
                                   "A 抢独 needs three jokers and four copies of one face."),
    # -- tricks ------------------------------------------------------------------------------------
    "BAD_CARD": ErrorSpec(_BAD_REQUEST, "无法识别的牌", "A card code that is not in this mode's pack."),
    "DUPLICATE_CARD": ErrorSpec(_BAD_REQUEST, "同一张牌不能出两次", "The same card code appears twice in a play."),
    "CARD_NOT_IN_HAND": ErrorSpec(_UNPROCESSABLE, "你手中没有这张牌", "A played card is not in her hand."),
    "NOT_A_SET": ErrorSpec(_UNPROCESSABLE, "只能出同点数的牌（可带大小王）",
                           "A play is cards of one rank plus any jokers; no straights or mixed ranks."),
    "WRONG_SIZE": ErrorSpec(_UNPROCESSABLE, "跟牌须出相同张数", "A follow must have as many cards as the play on the table."),
    "DOES_NOT_BEAT": ErrorSpec(_UNPROCESSABLE, "每张牌都须大过上一手对应的牌",
                               "Sorted, every card must be strictly higher than its counterpart on the table."),
    "BAOLIU_SIXES_LAST": ErrorSpec(_UNPROCESSABLE, "保六：6 须留到最后一手一次出完",
                                   "With 保六 on, sixes go only as the last play, all together, without jokers."),
    "MUST_LEAD": ErrorSpec(_UNPROCESSABLE, "首家出牌不能不出", "The seat leading a trick must play."),
}
