"""怎么玩 for 保皇: the rules card a player reads before she sits down (GET /v1/guides/baohuang).

Every number on the card that the game keeps as a constant is written in from that constant (deck
sizes, hand sizes, the throne's rounds, 抢独's jokers, the timer, the scores, the 逃跑 penalty), and
the scoring example is worked out by `scoring.score` itself, so the card cannot drift from what the
engine does. Numbers the code holds only as literals (a call of three copies, the ×2 doublings) are
plain text here and pinned by `tests/unit/games/baohuang/test_guide.py`. Pure: no I/O, no clock.
"""

from __future__ import annotations

from chalicelib.core.game import GuideSection
from chalicelib.games.baohuang.cards import BIG, COPIES, RANK_LABELS, SIX, Variant, label, lowest_rank, pack
from chalicelib.games.baohuang.declare import GRAB_JOKERS
from chalicelib.games.baohuang.model import QUIT_PENALTY, SEATS, Options, Solo
from chalicelib.games.baohuang.scoring import HIDDEN_SOLO, OPEN_SOLO, PLACE_NAMES, PLACE_POINTS, score
from chalicelib.games.baohuang.throne import CLASSIC_PASSES_BEFORE_FORCED, SIMPLE_PASSES_BEFORE_REDEAL

SIMPLE_DECK = len(pack(Variant.SIMPLE))
CLASSIC_DECK = len(pack(Variant.CLASSIC))
ALLIES = 2
"""Emperor and guard: the side of two (the seed's 二人联手)."""
REBEL_SIDE = SEATS - ALLIES
OTHERS = SEATS - 1
"""Everyone but the emperor: who declares, and whom a lone emperor faces."""
CALL_COPIES = COPIES - 1
"""Classic: the emperor calls a face she holds this many of; the last copy names her guard."""


def signed(points: int) -> str:
    """Points as a score board writes them: "+6", "-3", "0"."""
    return f"{points:+d}" if points else "0"


def rank_order(high: int, low: int) -> str:
    """Ranks from `high` down to `low`, as "大王＞小王＞2＞…"."""
    return "＞".join(label(value) for value in range(high, low - 1, -1))


def hand_sizes(variant: Variant) -> str:
    """How a mode's deck splits over the five seats when dealt one card at a time from the dealer."""
    base, extra = divmod(len(pack(variant)), SEATS)
    if extra == 0:
        return f"每人{base}张"
    if extra == 1:
        return f"发牌人{base + 1}张，其余每人{base}张"
    return f"发牌人及其后{extra - 1}家各{base + 1}张，其余各{base}张"


def turn_seconds() -> tuple[int, int, int]:
    """The room option's default, lowest and highest seconds per step."""
    schema = Options.model_json_schema()["properties"]["turn_seconds"]
    return int(schema["default"]), int(schema["minimum"]), int(schema["maximum"])


SIMPLE_LOW = lowest_rank(Variant.SIMPLE)
CLASSIC_LOW = lowest_rank(Variant.CLASSIC)
REMOVED_RANKS = "、".join(RANK_LABELS[value] for value in range(CLASSIC_LOW, SIMPLE_LOW))
"""The ranks 简明 leaves out: 3、4、5."""


def _flow() -> GuideSection:
    return GuideSection(title="一局怎么走", lines=(
        f"{SEATS}人一桌：皇帝与侍卫二人一伙，对抗其余{REBEL_SIDE}人；皇帝也可独保，一人敌{OTHERS}家。",
        f"简明玩法：{COPIES}副牌去掉{REMOVED_RANKS}，共{SIMPLE_DECK}张；{hand_sizes(Variant.SIMPLE)}。",
        f"经典玩法：{COPIES}副整牌，共{CLASSIC_DECK}张；{hand_sizes(Variant.CLASSIC)}。",
        "首局由一号座（桌上最左边）起发，以后由上局皇帝起发，一张一张按出牌顺序发完。",
        "每局依次：选皇帝（登基或让位）→ 其余人密封声明 → 皇帝领出 → 算分。",
        "先出完的名次在前；胜负一旦注定，这一局当即结束，没出完的按剩牌少者在前。",
    ))


def _roles() -> GuideSection:
    return GuideSection(title="身份：皇帝、侍卫（保子）与平民", lines=(
        "皇牌是一张标「皇」字的大王（权杖），出牌时和别的大王一样大。",
        "简明：侍卫牌是一张标「卫」字的小王（宝剑），抓到它的人就是侍卫（保子），侍卫牌不能让。",
        (f"经典：皇帝登基时叫一张她有{CALL_COPIES}张的牌（同花色同点数），持第{COPIES}张的人是侍卫；"
         "叫的牌在手里标「叫」，宝剑小王只是普通小王。"),
        "叫的是哪张牌人人看得见；侍卫是谁，起初只有侍卫自己知道（暗保）。",
        f"皇帝定下后，其余{OTHERS}人同时密封声明，选项人人一样：侍卫声明为明保，平民声明为造反。",
        "造反的人亮出锄头标记「锄」（人人看得见），输了也不摘；两人以上造反，侍卫被迫亮明身份。",
        "侍卫打出侍卫牌（经典：打出所叫的那张牌）时，身份也就亮了。",
    ))


def _throne() -> GuideSection:
    simple_rounds = SIMPLE_PASSES_BEFORE_REDEAL // SEATS
    classic_rounds = CLASSIC_PASSES_BEFORE_FORCED // SEATS
    return GuideSection(title="登基与让位", lines=(
        "抓到皇牌的人先选：登基，或让位给上家（不换牌）；上家再选，依次往上家传。",
        f"简明：传满{simple_rounds}轮（{SIMPLE_PASSES_BEFORE_REDEAL}次让位）仍无人登基，重新发牌，发牌人不变。",
        f"经典：传满{classic_rounds}轮回到皇牌主人，她有{CALL_COPIES}张同牌可叫就必须登基。",
        f"经典：那时她若没有{CALL_COPIES}张同牌可叫（只有{COPIES}张同牌的，不逼她独保），就重新发牌。",
    ))


def _variants() -> GuideSection:
    return GuideSection(title="简明与经典的区别：叫侍卫、暗独保、明独保、抢独", lines=(
        f"独保：皇帝自己兼侍卫，一人对抗其余{OTHERS}家。",
        "简明：登基者手里有侍卫牌（让来的皇位也算）就是独保；登基时亮明为明独保，不亮为暗独保。",
        f"经典：登基须叫一张牌或声明明独保；叫一张自己{COPIES}张全有的牌，就是暗独保。",
        (f"明独保一开始就公开；暗独保起初只有皇帝知道，她打出侍卫牌（经典：第{COPIES}张所叫的牌）"
         "或有两人以上造反时露底。"),
        f"抢独（仅经典）：没抓到皇牌的人，有{GRAB_JOKERS}张王（不分大小）和{COPIES}张同牌，可在声明时抢独。",
        "皇帝明独保时不能抢；皇帝暗独保时抢独落空，只有抢的人自己知道。",
        "多人抢独，皇帝上家方向离皇帝最近者得；成功即明独保，先出牌，原皇帝与侍卫成平民。",
    ))


def _combos() -> GuideSection:
    return GuideSection(title="牌型与大小", lines=(
        (f"由大到小：{rank_order(BIG, SIMPLE_LOW)}；经典在{label(SIMPLE_LOW)}之下还有"
         f"{rank_order(SIMPLE_LOW - 1, CLASSIC_LOW)}。"),
        f"不论花色：{COPIES}张大王一样大，{COPIES}张小王一样大。",
        "能出的牌：同点数的一套（6、77、888、9999……），可挂任意张大小王，也可只出王。",
        "不能出顺子；2不是百搭，不能拿来配牌。",
        "跟牌张数要相同，两手各自从小排到大，每一张都要大过对面那一张。",
        "例：8888压7777；小王+777压6666；大王+3张小王压AAAA；经典里大王+6666压小王+5555。",
        "套牌压不住同张数的王挂牌（9999压不了小王+888）；带大王的牌谁也压不住。",
    ))


def _play() -> GuideSection:
    baoliu_default = "开" if Options().baoliu else "不开"
    return GuideSection(title="出牌", lines=(
        "皇帝领出第一手，之后按逆时针轮到下家；领出的人必须出牌。",
        "跟牌可以不出，过牌准上：这一轮不出，再轮到时还能出。",
        "其余有牌的人都连着不出，这一轮归最后出牌的人，由她再领出。",
        "没人压得住时（带大王，或别家的牌都比这手少），这一轮当即归她。",
        "接风：收这一轮的人已出完，由她下家起第一个还有牌的人领出。",
        (f"保六（开房可选，默认{baoliu_default}）：所有{SIX}要留到最后一手一次出完，不能带王；"
         f"手里没{SIX}的不受影响。"),
    ))


def _tuoguan() -> GuideSection:
    default, lowest, highest = turn_seconds()
    return GuideSection(title="托管与计时", lines=(
        f"每一步限时{default}秒（开房可设{lowest}–{highest}秒）：选皇帝、声明、出牌、继续都算。",
        "选皇帝或出牌超时，或自己点托管，就进入托管，直到你再操作；托管不扣分。",
        "声明超时或在托管中，都算不声明；两局之间没点继续的，超时自动继续。",
        f"托管选皇帝：简明登基（同握侍卫牌则让位）；经典叫最小的{CALL_COPIES}张同牌，没有就让位；托管不替你独保。",
        "托管出牌：领出最小的一手；跟最小能压的牌，已知队友收着这一轮时不出。",
        f"{SEATS}人都已托管（机器人座位也算）时，打完这一局本桌结束。",
        "但最后一位在玩的人若是超时进的托管（不是自己点的），这一局打完后本桌等她回来点继续，不替她开下一局。",
        "整局托管的玩家，开房者可提议交给机器人代打，其余在座的人过半同意即交出；她一操作，座位就回到她手里。",
    ))


def _scoring() -> GuideSection:
    example, _ = score(tuple(range(SEATS)), emperor=0, guard=1, solo=Solo.NONE)
    hidden_others = HIDDEN_SOLO // OTHERS
    open_others = OPEN_SOLO // OTHERS
    places = "、".join(signed(points) for points in PLACE_POINTS)
    return GuideSection(title="计分", lines=(
        f"名次分：{'、'.join(PLACE_NAMES)}依次为{places}。",
        "二打三：皇帝与侍卫的名次分相加为底分；皇帝得2倍，侍卫得1倍，平民每人扣1倍。",
        (f"例：皇帝头名、侍卫第二，皇帝{signed(example[0])}，侍卫{signed(example[1])}，"
         f"平民各{signed(example[2])}。"),
        (f"暗独保：皇帝头名{signed(HIDDEN_SOLO)}、其余各{signed(-hidden_others)}；皇帝第二名不输不赢；"
         f"再往后{signed(-HIDDEN_SOLO)}、其余各{signed(hidden_others)}。"),
        (f"明独保（含抢独）：皇帝头名{signed(OPEN_SOLO)}、其余各{signed(-open_others)}；"
         f"不是头名就{signed(-OPEN_SOLO)}、其余各{signed(open_others)}。"),
        "翻倍相乘：明保×2；造反成功（平民一方得分）×2；平局0分。全桌每局得分相加为0。",
        f"逃跑：牌局中强退或被司礼踢出扣{QUIT_PENALTY}分，其余人不计分，本桌结束；两局之间离桌不扣分。",
    ))


def guide_sections() -> tuple[GuideSection, ...]:
    """The 保皇 rules card, section by section, in the order a player reads them."""
    return (_flow(), _roles(), _throne(), _variants(), _combos(), _play(), _tuoguan(), _scoring())
