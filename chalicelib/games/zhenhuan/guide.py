"""怎么玩: 血染甄嬛传 as a player (and a first-time 说书人) reads it before the game begins.

Every number, and every list the engine keeps (the setup table, the roles that change it, the roles
woken after death, the win reasons), is written in from the module the game plays with, so the page
cannot say one thing while the game does another. The rules are the seed's as DECISIONS and
docs/rules/zhenhuan.md settle them. The page ends with the script itself (「角色一览」: every role by
team with the seed's ability text, as the catalogue serves it): a player has it to hand, as the script
sheet lies on a real table.
"""

from __future__ import annotations

from chalicelib.core.game import GuideSection
from chalicelib.games.zhenhuan.board import EMPRESS_MIN_ALIVE, EVIL_KNOW_EACH_OTHER_FROM, Board
from chalicelib.games.zhenhuan.ending import EVIL_WINS, GOOD_WINS
from chalicelib.games.zhenhuan.night import OTHER_NIGHTS, STEPS
from chalicelib.games.zhenhuan.roles import OUTSIDER_MODIFIERS, ROLES, ZHENHUAN, Alignment, Team
from chalicelib.games.zhenhuan.setup import BLUFFS, MAX_NON_TRAVELLERS, MAX_PLAYERS, MIN_PLAYERS, composition
from chalicelib.games.zhenhuan.state import GameState, SeatState
from chalicelib.games.zhenhuan.tools import MAX_SEATS
from chalicelib.games.zhenhuan.votes import CLOCK_BASE_S, CLOCK_PER_VOTER_S, threshold

SCRIPT_TEAMS = ((Team.TOWNSFOLK, "村民"), (Team.OUTSIDER, "外来者"), (Team.MINION, "爪牙"), (Team.DEMON, "恶魔"))
"""The script's teams in the order a script sheet lists them (travellers choose their own identity)."""
SCRIPT_TITLE = "角色一览"

BAR_EXAMPLES = (7, 8)
"""Living counts shown beside the execution bar: one odd, one even, so the rounding up shows."""


def guide_sections() -> tuple[GuideSection, ...]:
    """The 怎么玩 page (GET /v1/guides/zhenhuan), section by section."""
    return (
        GuideSection(title="一局怎么走", lines=_course()),
        GuideSection(title="阵营与人数", lines=_teams()),
        GuideSection(title="夜晚", lines=_night()),
        GuideSection(title="白天：提名、投票与处决", lines=_day()),
        GuideSection(title="死亡之后（幽灵票）", lines=_after_death()),
        GuideSection(title="胜负", lines=_winning()),
        GuideSection(title="旅行者", lines=_travellers()),
        GuideSection(title="说书人怎么用这个应用", lines=_storyteller()),
        *(GuideSection(title=f"{SCRIPT_TITLE} · {label}", lines=_script(team)) for team, label in SCRIPT_TEAMS),
    )


def _script(team: Team) -> tuple[str, ...]:
    """A team's roles as the script sheet has them: name (made in play, if so) and ability."""
    return tuple(f"{role.name}{'（局中产生）' if role.derived else ''}：{role.ability}"
                 for role in ROLES.values() if role.team is team)


def _course() -> tuple[str, ...]:
    return (
        f"说书人主持、不入座；{MIN_PLAYERS}–{MAX_PLAYERS} 名玩家按座位号围坐一圈，从第一夜起夜晚与白天交替。",
        "开局每人在手机上私下收到「你是」：自己的角色和阵营（能力见页末「角色一览」）；它和说书人告诉你的消息都收在「看身份 · 我得知的」里，点开才看得见。",
        "说书人是最终裁判：自动结算她都可改判，改判记入日志，终局后全员可见。",
    )


def _teams() -> tuple[str, ...]:
    modifiers = "、".join(ROLES[r].name for r in OUTSIDER_MODIFIERS)
    above = range(MAX_NON_TRAVELLERS + 1, MAX_PLAYERS + 1)
    travellers = f"{composition(above[0]).travellers}–{composition(above[-1]).travellers}"
    return (
        "善良：村民（能力帮好人）、外来者（好心却可能坏事）；邪恶：爪牙、恶魔。",
        "人数配置（外来者一栏按人数依次取值）：",
        *_composition_rows(),
        f"{above[0]}–{above[-1]} 人：按 {MAX_NON_TRAVELLERS} 人配置，多出的 {travellers} 人是旅行者。",
        f"{modifiers}在场时，各把一名村民换成外来者。",
    )


def _composition_rows() -> tuple[str, ...]:
    """The official table, one line per run of player counts that differ only in 外来者."""
    runs: list[list[int]] = []
    for players in range(MIN_PLAYERS, MAX_NON_TRAVELLERS + 1):
        if runs and _band(runs[-1][0]) == _band(players):
            runs[-1].append(players)
        else:
            runs.append([players])
    return tuple(_composition_row(run) for run in runs)


def _band(players: int) -> tuple[int, int, int]:
    c = composition(players)
    return c.townsfolk, c.minions, c.demons


def _composition_row(run: list[int]) -> str:
    first = composition(run[0])
    span = f"{run[0]}–{run[-1]}" if len(run) > 1 else f"{run[0]}"
    outsiders = "/".join(str(composition(players).outsiders) for players in run)
    return f"{span} 人：村民 {first.townsfolk} · 外来者 {outsiders} · 爪牙 {first.minions} · 恶魔 {first.demons}"


def _night() -> tuple[str, ...]:
    return (
        "全员闭眼；说书人按夜间顺序逐一唤醒有行动的角色，以手势交流。",
        "首夜恶魔不杀人；从第二夜起，恶魔每晚可杀一人。",
        (f"{EVIL_KNOW_EACH_OTHER_FROM} 人及以上（不计旅行者）：首夜爪牙与恶魔互认，"
         f"恶魔另知 {BLUFFS} 个不在场的角色；人少则互不相识。"),
        "夜里死去的人天亮才一并公布：按座位号，不说死因。",
        "中毒、醉酒的人能力悄悄失效：照常醒来和选择，得到的信息可能是假的。",
        "被宠妃按住的人，当夜和次日白天能力都发动不了。",
        "一次性能力在中毒或醉酒时用出也算用掉；被按住而发动不了的，不算（纯元皇后除外）。",
        "玩家看不到任何状态，连自己是否中毒、醉酒也不知道。",
    )


def _day() -> tuple[str, ...]:
    bars = "，".join(f"{living} 人存活需 {_execution_bar(living)} 票" for living in BAR_EXAMPLES)
    return (
        "每名存活玩家每天最多提名一次；每人每天最多被提名一次，死者也可被提名。",
        "提名可在自己手机上发起，或由说书人代录；上一个提名投完票才能提下一个。",
        f"投票计时默认 {CLOCK_BASE_S} 秒，每位可投票者另加 {CLOCK_PER_VOTER_S} 秒；举手即时公开，没投算不举。",
        f"票数达到存活人数（含旅行者）的一半、向上取整，即上处决台：{bars}。",
        "之后的人须票数更多才能取代台上的人；票数相同则台上清空，之后须多于这个票数才能上台。",
        "入夜时台上若有人且当天未处决，她就被处决；每天最多处决一人。",
        "当天处决之后不能再提名（流放旅行者除外）。",
        "纯元皇后首次被提名时，若提名者是村民，被处决的是提名者。",
    )


def _execution_bar(living: int) -> int:
    """The votes the engine itself asks of a day with `living` players alive (`votes.threshold`)."""
    seats = tuple(SeatState(seat=i, name="", role=ZHENHUAN, alignment=Alignment.GOOD) for i in range(living))
    return threshold(Board(GameState(seats=seats)))


def _after_death() -> tuple[str, ...]:
    # the roles whose night step still wakes them when they are dead: their ability triggers on death
    woken_dead = "、".join(ROLES[role].name for key in OTHER_NIGHTS
                           if STEPS[key].wakes_dead and (role := STEPS[key].role) is not None)
    return (
        "死者仍在局中、仍属原阵营：本阵营获胜，死者一同获胜。",
        f"死者不能提名，也不能发动能力；{woken_dead}这类死时触发的能力除外。",
        "每名死者有一张幽灵票：处决投票时举手即用掉，只能用一次。",
        "叶澜依祝福的死者天亮复活，一次性能力重置，并重新拿回幽灵票。",
    )


def _winning() -> tuple[str, ...]:
    return (
        f"善良获胜：{GOOD_WINS}（甄嬛反杀、太上皇让位、皇后继位都算新的恶魔）。",
        f"邪恶获胜：{EVIL_WINS}（旅行者不计）。",
        f"皇上死时若存活不少于 {EMPRESS_MIN_ALIVE} 人（含皇上，不计旅行者），皇后可继位为女皇。",
        "胧月被处决而死（且未中毒、醉酒或被按住），她所在的阵营失败。",
        "达成条件只是提示，说书人按「确认结束」才终局；终局后全员看到所有角色。",
    )


def _travellers() -> tuple[str, ...]:
    return (
        f"超过 {MAX_NON_TRAVELLERS} 人，多出的座位是旅行者；中途加入的人也是旅行者，只有旅行者能中途离开。",
        "旅行者的身份和能力由本人选定并公开；阵营由说书人秘密指定。",
        f"旅行者只能在天亮后或白天加入，坐在圈末；场上同时最多 {MAX_SEATS} 人。",
        "旅行者不被处决而被流放：任何人（含死者）都可提议，她每天至多被提议一次。",
        "流放人人可投，死者不耗幽灵票；票数达到在场人数（含死者）的一半、向上取整即流放。",
        f"旅行者计入处决的票数门槛，但不计入「仅剩两人」和皇后继位的 {EMPRESS_MIN_ALIVE} 人。",
    )


def _storyteller() -> tuple[str, ...]:
    return (
        f"开局前可重抽或手选角色，并定 {BLUFFS} 个不在场角色；与标准配置不同会提示，但允许。",
        "夜里应用按顺序列出每一步：唤醒谁、可选目标、真实答案；灰色步骤写明原因。",
        "行动者中毒、醉酒或被按住会标出；中毒或醉酒者的信息另附一个不穿帮的假答案。",
        "「天亮」随时可按，没做的步骤跳过并记录；「入夜」先处决台上的人（可赦免）。",
        "「死亡」随时可用（狂徒、一丈红等）：当场死亡，夜里按下则天亮才公布。",
        "「处决」每天一次：纯元皇后、太后、齐妃引出的处决也按它，之后再按「入夜」。",
        "「醉酒」不限次数、没有敦亲王也能用，醉到下一个白天开始；其他状态可手动增删。",
        "「撤销」收回你刚按的一步（「确认结束」除外）；玩家的提名与投票请更正或删除。",
    )
