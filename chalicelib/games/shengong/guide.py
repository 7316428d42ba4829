"""怎么玩: each 深宫杀 mode's rules as a player reads them before she sits down.

Every number is written from the tables the game settles with (numbers.py, places.py, modes.py,
bosses.py, deck.py, cards.py), so the page cannot say one thing while the game does another; the
rules themselves are the seed's and DECISIONS' (docs/rules/shengong.md says where each comes from).
"""

from __future__ import annotations

from chalicelib.core.game import ABSENT_ROUNDS, GuideSection
from chalicelib.games.shengong import bosses
from chalicelib.games.shengong.cards import CATALOGUE
from chalicelib.games.shengong.deck import COPIES_PER_MAID, FROZEN_ROUNDS, HAND_SIZE, MAX_DISCARDS
from chalicelib.games.shengong.modes import Foes, MaidUse, Mode
from chalicelib.games.shengong.numbers import (
    ASSASSINATE_ON_HEALING,
    ATTR_DIVISOR,
    BASE_HIT,
    CLEAR_BONUS_BASE,
    CLEAR_BONUS_PER_ROUND,
    COST_GRACE,
    COST_HP,
    DAMAGE,
    DECREE_SIZE,
    GRACE_DAMAGE_POINTS,
    GRACE_REGEN,
    HEAL_DECAY,
    HEAL_FLOOR,
    HEAL_HIGH,
    HEAL_LOW,
    HEAL_LOW_BELOW,
    HIT_CAP,
    HP_DAMAGE_POINTS,
    IDLE_GUARD,
    IDLE_SELF,
    IDLE_SHARE,
    KILL_POINTS,
    MEAL_ABSENT_GRACE,
    MEAL_EMPTY_HP,
    MEAL_GRACE,
    PLACE_POINTS,
    SPLASH,
    SURVIVAL_POINTS,
    TAKEN_POINTS,
    fmt,
)
from chalicelib.games.shengong.places import ORDINARY, STAGE_PLACES
from chalicelib.games.shengong.terms import ACTION_ZH, ActionType, Attack, BossKey, Place

EXAMPLE_CARD, EXAMPLE_LEVEL = CATALOGUE["xunyi"], 3
"""The seed's own example of ⑥ 「Lv.3 的『寻医问药』＝下毒命中 +30%」."""


def guide_for(mode: Mode, turn_seconds: int) -> tuple[GuideSection, ...]:
    """The page for one mode; `turn_seconds` is the round timer a room gets unless its creator sets one."""
    stage = mode.foes is Foes.BOSSES
    sections = [
        GuideSection(title="一局怎么走", lines=_course(mode, turn_seconds)),
        GuideSection(title="气血与好感", lines=_bars(mode)),
        GuideSection(title="行动", lines=_stage_actions() if stage else _palace_actions(mode)),
        GuideSection(title="地点", lines=_places(mode)),
        GuideSection(title="同时结算", lines=_simultaneous(mode)),
    ]
    if stage:
        sections.append(GuideSection(title="关卡与对手", lines=_stages()))
    sections.append(GuideSection(title="宫女", lines=_maids(mode)))
    sections.append(GuideSection(title="计分与战绩", lines=_stage_score() if stage else _palace_score(mode)))
    return tuple(sections)


def action_effects(mode: Mode) -> dict[ActionType, str]:
    """What each action of the mode does, one sentence each: the page's 「行动」 lines are written from
    these, and the button she picks shows the same words."""
    effects = _stage_effects() if mode.foes is Foes.BOSSES else _palace_effects()
    return {kind: text for kind, text in {**effects, **_common_effects()}.items() if kind in mode.actions}


def _course(mode: Mode, turn_seconds: int) -> tuple[str, ...]:
    start = (f"三人组队：房主开房时选关卡，满 {mode.seats} 人自动开战。" if mode.foes is Foes.BOSSES
             else f"{mode.seats} 人各以自己的妃子入席，人齐后由开房者「开战」。")
    return (
        start,
        "每回合每人选一个行动（与目标）「落子」，全员落定即同时结算。",
        f"每回合限时（开房时定，默认 {turn_seconds} 秒）；到时未落子按「待机」。",
        "有人迟迟不动，开房者可「催战」，未落子者按待机处理。",
        f"终局：{mode.end_text}。",
        "还没有妃子？先在「我的」认领一位。" + ("" if mode.foes is Foes.BOSSES else "人不齐时，开房者可用机器人补满空位。"),
        (f"有人连续 {ABSENT_ROUNDS} 回合未落子，开房者可提议交给机器人代打，其余在座的人过半同意即交出；"
         "她一落子，座位就回到她手里。"),
    )


def _bars(mode: Mode) -> tuple[str, ...]:
    if mode.hp_from_looks:
        assert mode.grace_cap is not None  # D: 好感 never exceeds its start
        lines = [
            f"气血 ＝ 容貌/10 ＋ 10（也是上限）；好感 {fmt(mode.grace_start)}（上限 {fmt(mode.grace_cap)}）。",
            (f"命中：下毒 {BASE_HIT[Attack.POISON]}% ＋ 权势/{ATTR_DIVISOR}，暗杀 {BASE_HIT[Attack.ASSASSINATE]}% ＋ "
             f"才情/{ATTR_DIVISOR}，诬告 {BASE_HIT[Attack.FRAME]}% ＋ 圣宠/{ATTR_DIVISOR}（取整）。"),
        ]
    else:
        lines = [f"开局气血 {fmt(mode.hp_start)}（上限 {fmt(mode.hp_cap)}），好感 {fmt(mode.grace_start)}。"]
    return (
        *lines,
        f"每回合自然回复好感 ＋{fmt(GRACE_REGEN)}。命中率加上各种加成，最高 {HIT_CAP}%。",
        "气血或好感归零即倒下，本局不再落子。",
    )


def _targets(mode: Mode, attack: Attack) -> str:
    extra = "、".join(p.value for p in sorted(mode.targets[attack] - set(ORDINARY)))
    return f"六处或{extra}" if extra else "六处"


def _palace_effects() -> dict[ActionType, str]:
    poison, stab, frame = Attack.POISON, Attack.ASSASSINATE, Attack.FRAME
    return {
        ActionType.POISON: (f"目标地气血最高者 −{fmt(DAMAGE[poison])}，其余各 −{fmt(SPLASH)}；养生者减半。"
                            f"自身好感 −{fmt(COST_GRACE[poison])}。"),
        ActionType.ASSASSINATE: (f"只打气血最高 1 人 −{fmt(DAMAGE[stab])}，并令她下回合行动作废；"
                                 f"对养生者仅 −{fmt(ASSASSINATE_ON_HEALING)}。自身好感 −{fmt(COST_GRACE[stab])}。"),
        ActionType.FRAME: (f"目标地好感最高者 −{fmt(DAMAGE[frame])}，其余各 −{fmt(SPLASH)}；令人好感归零算你击败。"
                           f"自身气血 −{fmt(COST_HP[frame])}。"),
        ActionType.MEAL: (f"圣意每回合随机 {DECREE_SIZE} 维（容/宠/才/权），各维居首的送膳者 ＋{fmt(MEAL_GRACE)} 好感，"
                          f"并列随机取。{_MEAL_MISS}"),
    }


_MEAL_MISS = (f"一维都未居首＝落空，气血 −{fmt(MEAL_EMPTY_HP)}；不在{Place.HALL.value}而送＝失仪，"
              f"好感 −{fmt(MEAL_ABSENT_GRACE)}。")
"""送膳's cost: on the page a line of its own, on the button part of what 送膳 does."""


def _stage_effects() -> dict[ActionType, str]:
    poison, stab, frame = Attack.POISON, Attack.ASSASSINATE, Attack.FRAME
    return {
        ActionType.POISON: f"对手气血 −{fmt(DAMAGE[poison])}，自身好感 −{fmt(COST_GRACE[poison])}。",
        ActionType.ASSASSINATE: f"对手气血 −{fmt(DAMAGE[stab])}，自身好感 −{fmt(COST_GRACE[stab])}。",
        ActionType.FRAME: f"对手好感 −{fmt(DAMAGE[frame])}（只打有好感的对手），自身气血 −{fmt(COST_HP[frame])}。",
    }


def _common_effects() -> dict[ActionType, str]:
    return {
        ActionType.HEAL: (f"气血低于 {fmt(HEAL_LOW_BELOW)} 回 ＋{fmt(HEAL_LOW)}，否则 ＋{fmt(HEAL_HIGH)}（满了不回）；"
                          f"连养每回合少 {fmt(HEAL_DECAY)}，最少 ＋{fmt(HEAL_FLOOR)}。"),
        ActionType.IDLE: (f"自身气血、好感各 ＋{fmt(IDLE_SELF)}，同宫者各 ＋{fmt(IDLE_SHARE)}，"
                          f"本回合所受气血伤害 −{fmt(IDLE_GUARD)}。"),
        ActionType.MOVE: "本回合定下，下回合抵达（本回合仍在原地）。",
        ActionType.STAY: "原地不动，无加成。",
    }


def _palace_actions(mode: Mode) -> tuple[str, ...]:
    said = _palace_effects()
    name = ACTION_ZH
    aims = {kind: f"（{_targets(mode, attack)}，命中 {BASE_HIT[attack]}%）"
            for kind, attack in ((ActionType.POISON, Attack.POISON), (ActionType.ASSASSINATE, Attack.ASSASSINATE),
                                 (ActionType.FRAME, Attack.FRAME))}
    return (
        *(f"{name[kind]}{aim}：{said[kind]}" for kind, aim in aims.items()),
        "攻击只伤目标地的其他人；自身代价，落空也照付。",
        f"{name[ActionType.MEAL]}（须身处{Place.HALL.value}）：{said[ActionType.MEAL].removesuffix(_MEAL_MISS)}",
        f"{name[ActionType.MEAL]}{_MEAL_MISS}",
        *_common_actions(),
    )


def _stage_actions() -> tuple[str, ...]:
    said = _stage_effects()
    return (
        "进攻不选目标地，只在「目标对手」里挑打谁；不选则打第一个还站着的。",
        *(f"{ACTION_ZH[kind]}：{text}" for kind, text in said.items()),
        "自身代价，落空也照付。宫斗杀没有送膳。",
        *_common_actions(),
        "行动被作废的那一回合你不必落子：自动待机（无加成），同伴不用等你。",
    )


def _common_actions() -> tuple[str, ...]:
    said, name = _common_effects(), ACTION_ZH
    return (
        f"{name[ActionType.HEAL]}：{said[ActionType.HEAL]}",
        f"{name[ActionType.IDLE]}：{said[ActionType.IDLE]}",
        f"{name[ActionType.MOVE]}：{said[ActionType.MOVE].removesuffix('。')}；「{name[ActionType.STAY]}」{said[ActionType.STAY]}",
        "被暗杀作废的一回合只能待机，且没有待机的加成。",
    )


def _places(mode: Mode) -> tuple[str, ...]:
    if mode.start_place is not None:
        head = f"开局都在{mode.start_place.value}；去别处用「移动」。"
    else:
        head = f"六处：{'、'.join(p.value for p in ORDINARY)}，开局散坐其间。"
    special = [f"{place.value}：{rule.text.replace('：', '，')}。" for place, rule in mode.places.items() if place not in ORDINARY]
    aimed = set().union(*mode.targets.values()) if mode.targets else set(mode.places)
    safe = [p.value for p in mode.places if p not in aimed]
    shelter = [f"{'、'.join(safe)}不是任何攻击的目标地：身在那里，别人打不到你。"] if safe else []
    return (head, *special, *shelter, "地点的规则按回合开始时所在之处算。")


def _simultaneous(mode: Mode) -> tuple[str, ...]:
    lines = [
        "一切按回合开始时的局面（快照）判定：谁在哪、打中谁、谁在养生（减伤）。",
        "伤害与治疗最后一次性落账：没有「先下手，对方这回合白打」的先手压制。",
    ]
    if mode.foes is Foes.SEATS:
        lines += [
            "看不见的手：别人的行动与目标根本不下发，你只看得到自己的。",
            "战报里与你有关的给全文，无关的只作匿名播报（「有人下毒，2 人受伤」）。",
            "没入席的可「观战」，只见结果与匿名播报；司礼可全局观战。",
        ]
    return tuple(lines)


def _tactics(key: BossKey) -> str:
    return " · ".join(f"{weight}% {bosses.TACTIC_ZH[tactic]}" for tactic, weight in bosses.TACTICS[key])


def _opponent(spec: bosses.OpponentSpec) -> str:
    bars = f"气血 {fmt(spec.hp)}" + (f"、好感 {fmt(spec.grace)}" if spec.grace is not None else "")
    bonuses = sorted(set(spec.hit_bonus.values()))
    if len(spec.hit_bonus) == len(Attack) and len(bonuses) == 1:
        hits = f"命中 ＋{bonuses[0]}%"
    else:
        hits = "、".join(f"{_ATTACK_ZH[a]}命中 ＋{v}%" for a, v in spec.hit_bonus.items())
    extra = "".join((f"、诬告防守 {spec.frame_defence}%" if spec.frame_defence else "",
                     f"、暗杀杀伤 ＋{fmt(spec.assassinate_bonus)}" if spec.assassinate_bonus else ""))
    return f"{bars}，{hits}{extra}；{_tactics(spec.key)}"


_ATTACK_ZH = {Attack.POISON: "下毒", Attack.ASSASSINATE: "暗杀", Attack.FRAME: "诬告"}


def _stages() -> tuple[str, ...]:
    lines = [
        f"直取＝暗杀一人（−{fmt(DAMAGE[Attack.ASSASSINATE])}，并令她下回合行动作废）；领头羊是气血最多者。",
        (f"群毒、群诬打全队：最高者 −{fmt(DAMAGE[Attack.POISON])}、其余各 −{fmt(SPLASH)}；"
         f"登摘星楼诬告是群诬，每人再 −{fmt(STAGE_PLACES[Place.TOWER].damage[Attack.FRAME])}；护主不出手。"),
        "对手每回合各出手一次，按下列概率择一打法：",
    ]
    for stage, keys in bosses.STAGES.items():
        boss, *followers = keys
        lines.append(f"{bosses.STAGE_TITLES[stage]}：{_opponent(bosses.SPECS[boss])}")
        lines += [f"关卡{stage} 随从 · {bosses.SPECS[k].name}：{_opponent(bosses.SPECS[k])}" for k in followers]
    return (
        *lines,
        "对手倒下的那一回合也照样出手；须将对手尽数放倒方算通关。",
        "挑战关卡 N 须全队三人都通关关卡 N−1；没打通的人入席时会被点名。",
    )


def _maids(mode: Mode) -> tuple[str, ...]:
    if mode.maids is MaidUse.NONE:
        return ("竞技局屏蔽宫女，纯拼策略。",)
    if mode.maids is MaidUse.PASSIVE:
        return (
            "你名下每位 R 卡宫女，每回合按她的等级被动生效一次，不用出牌。",
            "进攻类宫女只随对应的攻击生效，送膳类只随送膳；SR / SSR 不入局。",
        )
    example = EXAMPLE_CARD.magnitude(EXAMPLE_LEVEL)
    lines = [
        f"牌库＝你名下的 R 卡宫女，每位计 {COPIES_PER_MAID} 张（SR / SSR 只作收藏）；没有 R 卡便无牌可出。",
        f"开局发 {HAND_SIZE} 张，每回合结算后补满 {HAND_SIZE} 张。",
        "落子时最多出三张：进攻位、防守位、通用位各 1 张，各归各位；进攻牌须合你的攻击。",
        f"每回合最多弃 {MAX_DISCARDS} 张，弃掉的立刻回牌库；用过的牌冻结 {FROZEN_ROUNDS} 回合。",
        f"效果一律 ×宫女等级：Lv.{EXAMPLE_LEVEL} 的「{EXAMPLE_CARD.skill}」＝下毒命中 ＋{example}%。",
        "手牌只有自己（与司礼）看得见；战报里别人出牌只说「有人打出进攻牌」。",
    ]
    if mode.foes is Foes.BOSSES:
        lines.append("送膳牌在宫斗杀里用不上，只能弃。")
    return tuple(lines)


def _palace_score(mode: Mode) -> tuple[str, ...]:
    places = f"第 1–{len(PLACE_POINTS)} 名 {'/'.join(str(p) for p in PLACE_POINTS)}，其后 0"
    board = "卡牌局另设一榜" if mode.maids is MaidUse.HAND else "竞技局与宫女局同榜，卡牌局另设一榜"
    return (
        (f"积分 ＝ 击败×{KILL_POINTS} ＋ 气血伤害×{HP_DAMAGE_POINTS} ＋ 好感伤害×{GRACE_DAMAGE_POINTS}"
         f" − 承伤×{TAKEN_POINTS} ＋ 名次分（{places}）。"),
        "名次按坚持到最后的先后排定：同回合倒下或打满回合的，先比气血、再比好感。",
        "击败：致命那一击里伤得最多的人记一次（并列各记），自己的代价不算谁的。",
        f"妃子开房为自由赛，司礼开房为锦标赛，分榜统计；{board}。",
        "战绩跨局累计：胜率 · KD（击败÷倒下）· 场均杀伤 · 总积分。",
    )


def _stage_score() -> tuple[str, ...]:
    return (
        f"积分 ＝ 输出伤害 ＋ 存活 {SURVIVAL_POINTS} ＋ 通关奖励（{CLEAR_BONUS_BASE} − 回合×{CLEAR_BONUS_PER_ROUND}，不为负）。",
        "每关一张最快击杀榜：回合少者在前，同回合先通关者在前；保留三人姓名与积分。",
        "从没亲自落子的座位（全程待机或被催战）只显示结果，不计战绩、不解锁关卡。",
    )
