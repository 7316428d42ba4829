"""Every error code the 血染甄嬛传 package raises, with its one HTTP status (that of the exception class
that raises it) and its messages. `tests/unit/games/zhenhuan/test_errors.py` checks this table against
the package source."""

from __future__ import annotations

from chalicelib.core.errors import ErrorSpec

_ILLEGAL, _CONFLICT, _FORBIDDEN = 422, 409, 403


def _i(message: str, description: str) -> ErrorSpec:
    return ErrorSpec(_ILLEGAL, message, description)


ERRORS: dict[str, ErrorSpec] = {
    # --- who may act ----------------------------------------------------------------------------------
    "STORYTELLER_ONLY": ErrorSpec(_FORBIDDEN, "只有说书人可以操作",
                                  "Only the storyteller may send this action (players: nominate and vote only)."),
    "NOT_YOUR_SEAT": ErrorSpec(_FORBIDDEN, "只能为自己提名或投票",
                               "A player may nominate and vote only for herself."),
    "DEPARTED": ErrorSpec(_FORBIDDEN, "你已离开游戏", "This traveller has left the game."),
    "GAME_OVER": ErrorSpec(_CONFLICT, "本局已结束", "The game has ended."),
    "VOTE_ALREADY_CLOSED": ErrorSpec(_CONFLICT, "投票已经结束",
                                     "The vote clock ran out but the vote was closed meanwhile."),
    # --- setup ----------------------------------------------------------------------------------------
    "BAD_PLAYER_COUNT": _i("血染甄嬛传需要5到20名玩家", "The game needs 5 to 20 players."),
    "SETUP_LOCKED": _i("开局已锁定", "Setup actions are only allowed before the game begins."),
    "NOT_BEGUN": _i("请先完成开局设置并开始游戏", "The storyteller has not begun the game (setup is still open)."),
    "ROLE_NOT_DEALT": _i("这个角色不能在开局分配", "Roles made in play (宠妃, 女皇) cannot be dealt."),
    "BAD_BLUFFS": _i("伪装角色须是三个不在场的善良角色", "Bluffs must be three distinct good roles not in play."),
    "NO_DEMON": _i("至少需要一名恶魔", "The game cannot begin without a demon."),
    "NO_SUCH_SEAT": _i("没有这个座位", "No such seat."),
    "NOT_TRAVELLER": _i("该座位不是在场的旅行者", "The seat is not a traveller still in the game."),
    "TRAVELLER_ROLE": _i("旅行者请用「旅行者」设置", "Use set_traveller for travellers, not set_role (a traveller's role is not changed to another, nor another's to traveller)."),
    "TRAVELLER_JOINS_BY_DAY": _i("旅行者只能在天亮后或白天加入",
                                 "A traveller joins the running game only at dawn or by day."),
    "SEAT_MISMATCH": _i("新座位号应为当前座位数", "A joining traveller takes the next seat index."),
    "TABLE_FULL": _i("在场玩家已满", "At most 20 players may be in the game at once."),
    "NOT_PRESENT": _i("该玩家已离开游戏", "The seat belongs to a traveller who has left."),
    # --- night ----------------------------------------------------------------------------------------
    "NOT_NIGHT": _i("现在不是夜晚", "Night actions only at night."),
    "NIGHT_STEPS_DONE": _i("今晚的步骤已全部完成，请天亮", "Every step of the night is done: press dawn."),
    "STEP_MISMATCH": _i("这不是当前步骤", "The action names another step than the current one."),
    "STEP_DISABLED": _i("此步骤不可用或已跳过，不能选择目标",
                        "A greyed or skipped step takes no targets and no answer."),
    "STEP_NOT_PASSED": _i("只能重新打开今晚已跳过的步骤", "Only a step passed tonight can be reopened."),
    "TOO_MANY_TARGETS": _i("目标数量过多", "More targets than the step has slots."),
    "TARGET_REQUIRED": _i("请选择目标", "A required slot of the step is empty."),
    "TARGET_NOT_ALLOWED": _i("不能选择这个目标", "The seat cannot be chosen for this slot."),
    "TARGET_GREYED": _i("该目标不可选，如需强制请使用 force",
                        "The seat is greyed for this slot; choose it only with force (logged override)."),
    "SAME_TARGET_TWICE": _i("请选择两名不同的玩家", "The two targets must differ."),
    "SUCCESSOR_REQUIRED": _i("太上皇自杀：请选择继位为皇上的玩家", "太上皇's self-kill needs a successor."),
    "SUCCESSOR_WITHOUT_SELF_KILL": _i("只有太上皇自杀时才选择继位者",
                                      "A successor is only chosen when 太上皇 kills himself."),
    "NO_ANSWER_HERE": _i("此步骤没有需要告知的信息", "The step gives no information, so it takes no answer."),
    "BAD_ANSWER": _i("告知的信息格式不对", "The answer does not have the step's answer kind."),
    "ANSWER_AND_SUGGESTION": _i("请在自定义回答与建议的假信息之间二选一",
                                "Send either an answer or use_suggestion, not both."),
    "NO_SUGGESTION": _i("此步骤没有建议的假信息",
                        "No suggested false answer: the acting player is not poisoned or drunk."),
    # --- day ------------------------------------------------------------------------------------------
    "NOT_DAY": _i("现在不是白天", "Day actions only by day."),
    "VOTE_PENDING": _i("请先完成正在进行的投票", "A nomination is waiting for its vote."),
    "VOTE_OPEN": _i("投票正在进行", "A vote clock is running: close it first."),
    "DEAD_NOMINATOR": _i("死亡的玩家不能提名", "Dead players cannot nominate (exile calls excepted)."),
    "ALREADY_NOMINATED_TODAY": _i("该玩家今天已经提名过", "Each player nominates at most once a day."),
    "ALREADY_NOMINEE_TODAY": _i("该玩家今天已经被提名过", "Each player is nominated at most once a day."),
    "ALREADY_EXECUTED": _i("今日已处决，请入夜", "At most one execution a day."),
    "NO_OPEN_NOMINATION": _i("没有待投票的提名", "No nomination is waiting for its vote."),
    "NO_OPEN_VOTE": _i("现在没有进行中的投票", "No vote clock is running."),
    "ALREADY_VOTED": _i("你已经投过票了", "A player votes once per vote."),
    "BAD_VOTE": _i("请指明投票的玩家", "The storyteller's single hand needs a seat."),
    "DUPLICATE_VOTER": _i("同一玩家不能投两票", "A seat appears twice among the hands."),
    "NO_GHOST_VOTE": _i("该玩家已没有幽灵票", "A dead player without her ghost vote cannot vote."),
    "NOT_A_VOTER": _i("该玩家不能投票", "The seat cannot vote on this nomination."),
    "NO_SUCH_NOMINATION": _i("今天没有这一次提名", "No nomination with this index today."),
    "NOT_COUNTED": _i("这次提名还没有计票", "The nomination has no counted vote to edit."),
    "NOT_AFTER_VOTE": _i("只能在该玩家的提名投票之后发动", "太后 acts only after the nominee's vote."),
    "ABILITY_SPENT": _i("技能已经用过", "The once-per-game ability is spent."),
    "WRONG_ROLE": _i("该玩家不是这个角色", "The acting seat does not hold the role."),
    "DEAD_ACTOR": _i("死亡的玩家不能发动技能", "Dead players cannot use day abilities."),
    "USED_TODAY": _i("今天已经用过这个技能", "The day ability was used today."),
    "BAD_ACCUSATION": _i("请检举另一名玩家的角色", "祺贵人 accuses another player."),
    "BAD_TARGET": _i("请选择另一名存活玩家", "The target must be another living player."),
    "SAME_TARGET_AGAIN": _i("不可以连续选择同一玩家", "Not the same player as last time."),
    # --- any time -------------------------------------------------------------------------------------
    "ALREADY_DEAD": _i("该玩家已经死亡", "The player is dead already."),
    "NO_CHANGE": _i("该玩家已经是这个状态", "The player is already alive (or dead)."),
    "NO_SUCH_STATUS": _i("该玩家没有这个状态", "The player does not have this status."),
    "BAD_TELL": _i("告知的内容不完整", "The card lacks what it shows (seats, roles, alignment or text)."),
    "NO_SUCH_REMINDER": _i("没有这个提示标记", "No reminder token with this id."),
    "NO_PROPOSED_END": _i("没有待确认的结束条件", "Nothing to confirm: no win condition is proposed."),
}  # fmt: skip
