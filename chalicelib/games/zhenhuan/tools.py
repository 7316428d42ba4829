"""The storyteller's tools: 「告知」 (a card or free text to one player), reminder tokens and notes per
seat (grimoire only), and travellers joining and leaving the running game (DECISIONS #13)."""

from __future__ import annotations

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Entrant
from chalicelib.games.zhenhuan import actions as A
from chalicelib.games.zhenhuan.board import ALIGNMENT_NAMES, Board, no, nos
from chalicelib.games.zhenhuan.enums import Phase, TellCard
from chalicelib.games.zhenhuan.events import ArrivalEvent, DepartureEvent, TellEvent
from chalicelib.games.zhenhuan.roles import ROLES, TRAVELLER
from chalicelib.games.zhenhuan.state import Note, Reminder, SeatState
from chalicelib.games.zhenhuan.votes import open_nomination

MAX_SEATS = 20
"""Players in the game at once, travellers included."""
MAX_BLUFFS = 3


def _card_text(b: Board, a: A.Tell) -> str:
    roles = "、".join(f"「{ROLES[r].name}」" for r in a.roles)
    match a.card:
        case TellCard.TEXT:
            return ""
        case TellCard.ROLE:
            return f"你是{roles}"
        case TellCard.ALIGNMENT:
            assert a.alignment is not None
            return f"你的阵营是{ALIGNMENT_NAMES[a.alignment]}"
        case TellCard.SEATS:
            return f"这些玩家：{nos(a.seats)}"
        case TellCard.SEAT_ROLE:
            return f"{no(a.seats[0])}是{roles}"
        case TellCard.DEMON:
            return f"这是恶魔：{nos(a.seats)}"
        case TellCard.MINIONS:
            return f"这些是你的爪牙：{nos(a.seats)}"
        case TellCard.BLUFFS:
            return f"这些角色不在场：{roles}"


def _check_tell(b: Board, a: A.Tell) -> None:
    """Raises IllegalAction (BAD_TELL) when the card lacks what it shows."""
    need_seats = a.card in (TellCard.SEATS, TellCard.SEAT_ROLE, TellCard.DEMON, TellCard.MINIONS)
    need_roles = {TellCard.ROLE: 1, TellCard.SEAT_ROLE: 1}.get(a.card)
    ok = {
        TellCard.TEXT: bool(a.text.strip()),
        TellCard.ALIGNMENT: a.alignment is not None,
        TellCard.BLUFFS: 1 <= len(a.roles) <= MAX_BLUFFS,
    }.get(a.card, True)
    ok = ok and (not need_seats or bool(a.seats)) and (need_roles is None or len(a.roles) == need_roles)
    ok = ok and (a.card is not TellCard.SEAT_ROLE or len(a.seats) == 1)
    if not ok or not all(0 <= s < len(b.seats) for s in a.seats):
        raise IllegalAction("告知的内容不完整", code="BAD_TELL")


def tell(b: Board, a: A.Tell) -> None:
    """「告知」: a private message; it changes nothing in the grimoire (the storyteller may lie)."""
    b.present_seat(a.seat)
    _check_tell(b, a)
    body = _card_text(b, a)
    note = a.text.strip()
    text = "说书人告知：" + "；".join(x for x in (body, note) if x)
    night, day = b.told_when()
    b.emit(TellEvent(
        seat=a.seat, card=a.card, roles=a.roles, seats=a.seats, alignment=a.alignment, note=note, text=text,
        night=night, day=day,
    ))  # fmt: skip
    b.host(f"告知{no(a.seat)}：{text.removeprefix('说书人告知：')}", restates=1)


def add_reminder(b: Board, a: A.AddReminder) -> None:
    b.seat(a.seat)
    item = Reminder(id=b.state.next_reminder, seat=a.seat, role=a.role, token=a.token)
    b.update(reminders=b.state.reminders + (item,), next_reminder=b.state.next_reminder + 1)
    b.host(f"提示标记：{no(a.seat)}「{a.token}」")


def remove_reminder(b: Board, a: A.RemoveReminder) -> None:
    if not any(r.id == a.id for r in b.state.reminders):
        raise IllegalAction("没有这个提示标记", code="NO_SUCH_REMINDER")
    b.update(reminders=tuple(r for r in b.state.reminders if r.id != a.id))
    b.host("移除提示标记")


def set_note(b: Board, a: A.SetNote) -> None:
    b.seat(a.seat)
    text = a.text.strip()
    notes = tuple(n for n in b.state.notes if n.seat != a.seat)
    b.update(notes=notes + ((Note(seat=a.seat, text=text),) if text else ()))
    b.host(f"备注{no(a.seat)}：{text or '（清除）'}")


def admit(b: Board, entrant: Entrant, details: A.TravellerDetails) -> None:
    """A traveller joins at dawn or by day: a new seat at the end of the circle. Her identity and
    ability are public; her alignment is the storyteller's secret (an evil one learns the demon).

    Raises:
        IllegalAction: at night or before the game began, a seat index that is not the next one, or
            a full table.
    """
    if b.state.phase is not Phase.DAY:
        raise IllegalAction("旅行者只能在天亮后或白天加入", code="TRAVELLER_JOINS_BY_DAY")
    if entrant.seat != len(b.seats):
        raise IllegalAction("新座位号应为当前座位数", code="SEAT_MISMATCH")
    if len(b.present()) >= MAX_SEATS:
        raise IllegalAction(f"最多{MAX_SEATS}名玩家同时在场", code="TABLE_FULL")
    seat = SeatState(
        seat=entrant.seat, name=entrant.name, role=TRAVELLER, alignment=details.alignment,
        traveller_identity=details.identity, traveller_ability=details.ability,
        traveller_female=details.female, admitted=True,
    )  # fmt: skip
    b.update(seats=b.seats + (seat,))
    text = f"旅行者{no(entrant.seat)}{entrant.name}加入游戏，身份「{details.identity}」"
    b.emit(ArrivalEvent(
        seat=entrant.seat, name=entrant.name, identity=details.identity, ability=details.ability, text=text,
    ))  # fmt: skip
    b.you_are(entrant.seat)
    # her record: the alignment she gave, in place of the 「你是」 the traveller was shown
    b.host(f"旅行者{no(entrant.seat)}：{details.identity}（{ALIGNMENT_NAMES[details.alignment]}）", restates=1)
    b.show_demon_to_evil_traveller(entrant.seat)


def depart(b: Board, a: A.Depart) -> None:
    """A traveller leaves (any time, public at once): her seat stays, she counts nowhere any more."""
    s = b.seat(a.seat)
    if s.role != TRAVELLER or s.departed:
        raise IllegalAction("只有在场的旅行者可以离开", code="NOT_TRAVELLER")
    day = b.state.day
    nom = open_nomination(day) if day is not None and b.state.phase is Phase.DAY else None
    if nom is not None and a.seat in (nom.nominee, nom.nominator):
        raise IllegalAction("请先完成与她有关的投票", code="VOTE_PENDING")
    b.update_seat(a.seat, departed=True, alive=False, ghost_vote=False)
    b.update(
        unannounced=tuple(x for x in b.state.unannounced if x != a.seat),
        unannounced_revivals=tuple(x for x in b.state.unannounced_revivals if x != a.seat),
    )
    b.emit(DepartureEvent(seat=a.seat, text=f"旅行者{no(a.seat)}离开了游戏"))
    night = b.state.night
    if night is not None and night.revive == a.seat:
        # 叶澜依's blessing (spent) has nobody left to bring back at dawn
        b.update_night(revive=None)
        b.host(f"{no(a.seat)}已离开游戏：叶澜依的祝福落空，天亮时不复活")
