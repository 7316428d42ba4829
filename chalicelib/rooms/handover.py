"""Handing an absent player's seat to a bot, and taking it back.

A seat qualifies when its player is gone: the game says so (保皇: in 托管 for a whole deal), or, in a
sealed-round game, the seat sent nothing for the last `ABSENT_ROUNDS` rounds (`Room.missed`, counted as
each round settles). The creator (or host) proposes; the other seated players vote; a majority of them
hands the seat to a bot of the proposed level (with no other human at the table, the proposal alone
does). The bot plays through the same paths as any bot (`autoplay`). The moment the player acts again,
the seat is hers: the bot flag is cleared in the same request, before her action.

The room's view tells the creator which seats she may offer (`offers`) and every player the open vote
as it concerns her (`vote_view`), so the app shows both without a rule of its own.
"""

from __future__ import annotations

from typing import Any

from chalicelib.core.errors import Conflict, Forbidden, StaleVersion
from chalicelib.core.game import ABSENT_ROUNDS, AnyGame, BotLevel
from chalicelib.core.identity import Caller
from chalicelib.domain.model import HandoverVote, Room, RoomStatus, SeatEntry
from chalicelib.games import get_game
from chalicelib.observability import metrics_count
from chalicelib.rooms.access import is_host
from chalicelib.rooms.autoplay import run_bots
from chalicelib.rooms.deps import RoomDeps
from chalicelib.rooms.engine import load_state

ATTEMPTS = 4


def _absent(game: AnyGame, room: Room, state: Any, seat: int) -> bool:
    return room.missed.get(str(seat), 0) >= ABSENT_ROUNDS or (state is not None and game.seat_absent(state, seat))


def offers(room: Room, state: Any, caller: Caller) -> list[int]:
    """The seats the caller may propose to hand to a bot now (none unless she created or hosts the
    room, it is under way in a game bots can play, and no vote is open): played by no bot, their
    player gone (`state`: the game's, None when it is not at hand — then only missed rounds count)."""
    game = get_game(room.game)
    if (room.creator != caller.user_id and not is_host(caller, room)) or room.status is not RoomStatus.ACTIVE \
            or not game.bots or room.handover is not None:
        return []
    return [s.seat for s in room.seats
            if s.bot is None and s.user != caller.user_id and _absent(game, room, state, s.seat)]


def vote_view(room: Room, caller: Caller) -> dict[str, Any] | None:
    """The open vote as the caller reads it: whose seat, how it stands, whether and how she voted."""
    vote = room.handover
    if vote is None:
        return None
    entry = next((s for s in room.seats if s.seat == vote.seat), None)
    me = room.seat_of(caller.user_id)
    return {**vote.model_dump(mode="json"), "name": entry.name if entry else "",
            "voters": len(_humans(room, vote.seat)), "can_vote": _voter(me, vote.seat),
            "my_vote": None if me is None else "yes" if me.seat in vote.yes else "no" if me.seat in vote.no else None}


def _humans(room: Room, but: int) -> list[SeatEntry]:
    """Who votes on handing seat `but` over: the people playing their own seats, but her. A player
    whose seat a bot already plays is away (her return takes it back) and does not vote."""
    return [s for s in room.seats if s.bot is None and s.seat != but]


def _voter(entry: SeatEntry | None, seat: int) -> bool:
    """She votes on handing `seat` over (one of `_humans(room, seat)`)."""
    return entry is not None and entry.bot is None and entry.seat != seat


def _save(deps: RoomDeps, room: Room, changed: Room) -> Room:
    deps.rooms.save_room(changed, room.version)
    return changed


def _decide(room: Room, vote: HandoverVote) -> Room:
    """Apply the vote's outcome if it is decided: a majority of the other humans for, or against."""
    voters = len(_humans(room, vote.seat))
    if voters == 0 or 2 * len(vote.yes) > voters:
        seats = tuple(s.model_copy(update={"bot": vote.level}) if s.seat == vote.seat else s for s in room.seats)
        metrics_count("Handovers")
        return room.model_copy(update={"seats": seats, "handover": None, "bot_played": True})
    if 2 * len(vote.no) >= voters:
        return room.model_copy(update={"handover": None})
    return room.model_copy(update={"handover": vote})


def propose(deps: RoomDeps, caller: Caller, room_id: str, seat: int, level: BotLevel) -> Room:
    """The creator proposes handing `seat` to a bot.

    Raises:
        Forbidden: NOT_CREATOR; Conflict: NOT_ACTIVE, BOTS_NOT_ALLOWED, SEAT_NOT_ABSENT, HANDOVER_OPEN.
    """
    for _ in range(ATTEMPTS):
        room = deps.rooms.get_room(room_id)
        if room.creator != caller.user_id and not is_host(caller, room):
            raise Forbidden("只有开房者可以提议由机器人代打", code="NOT_CREATOR")
        if room.status is not RoomStatus.ACTIVE:
            raise Conflict("房间不在进行中", code="NOT_ACTIVE")
        if not get_game(room.game).bots:
            raise Conflict("这个玩法不能用机器人代打", code="BOTS_NOT_ALLOWED")
        entry = next((s for s in room.seats if s.seat == seat), None)
        if entry is not None and entry.bot is not None and reclaimable(room, entry.user):
            return room  # handed over already: this proposal, decided at once, retried (or voted through)
        if entry is None or entry.bot is not None:
            raise Conflict("这个座位不需要代打", code="SEAT_NOT_ABSENT")
        if room.handover is not None:
            if room.handover.seat == seat:
                return room  # the same proposal, retried
            raise Conflict("已有一个代打投票在进行", code="HANDOVER_OPEN")
        game = get_game(room.game)
        if not _absent(game, room, load_state(game, room), seat):
            raise Conflict(f"{entry.name}并未离开（托管整局或连续 {ABSENT_ROUNDS} 回合未落子才可代打）",
                           code="SEAT_NOT_ABSENT")
        me = room.seat_of(caller.user_id)
        # her proposal is her yes only if she has a vote (not on her own seat: she may hand it over
        # when she must go, but the others decide)
        vote = HandoverVote(seat=seat, level=level, yes=(me.seat,) if me and _voter(me, seat) else (), no=(),
                            opened_ms=deps.clock.now_ms())
        changed = _decide(room, vote).model_copy(update={"version": room.version + 1,
                                                         "updated_ms": deps.clock.now_ms()})
        try:
            return run_bots(deps, _save(deps, room, changed))
        except StaleVersion:
            continue
    raise StaleVersion()


def vote(deps: RoomDeps, caller: Caller, room_id: str, yes: bool, seat: int | None = None) -> Room:
    """A seated player's vote on the open handover (changing her mind is allowed until it is decided).
    `seat`: the seat she votes about; once that vote is decided (perhaps by this very vote, whose
    answer was lost) a retry answers the room as it stands.

    Raises:
        Forbidden: NOT_IN_ROOM / HANDOVER_NOT_YOURS; Conflict: NOT_ACTIVE, NO_HANDOVER.
    """
    for _ in range(ATTEMPTS):
        room = deps.rooms.get_room(room_id)
        me = room.seat_of(caller.user_id)
        if me is None:
            raise Forbidden("你不在这个房间的座位上", code="NOT_IN_ROOM")
        if room.status is not RoomStatus.ACTIVE:
            raise Conflict("房间不在进行中", code="NOT_ACTIVE")  # a vote left open must not touch a result
        open_vote = room.handover
        if (open_vote is None or open_vote.seat != seat) and seat is not None:
            return room  # the vote on that seat is over
        if open_vote is None:
            raise Conflict("没有进行中的代打投票", code="NO_HANDOVER")
        if me.seat == open_vote.seat:
            raise Forbidden("被提议代打的玩家不投票：你一行动，座位就回到你手里", code="HANDOVER_NOT_YOURS")
        if not _voter(me, open_vote.seat):
            raise Forbidden("你的座位正由机器人代打，不参与投票：你一行动，座位就回到你手里", code="HANDOVER_NOT_YOURS")
        others = tuple(s for s in open_vote.yes if s != me.seat), tuple(s for s in open_vote.no if s != me.seat)
        updated = open_vote.model_copy(update={"yes": (*others[0], me.seat) if yes else others[0],
                                               "no": others[1] if yes else (*others[1], me.seat)})
        changed = _decide(room, updated).model_copy(update={"version": room.version + 1,
                                                            "updated_ms": deps.clock.now_ms()})
        try:
            return run_bots(deps, _save(deps, room, changed))
        except StaleVersion:
            continue
    raise StaleVersion()


def reclaimable(room: Room, user: str) -> bool:
    """A bot plays this user's seat, which her next accepted action takes back."""
    seat = room.seat_of(user)
    return seat is not None and seat.bot is not None and seat.person


def returning(room: Room, user: str) -> bool:
    """Her next accepted action shows she is back: a bot plays her seat, or a vote to hand it to one
    is open (which her return closes: it must not take the seat from a player who is playing)."""
    seat = room.seat_of(user)
    return reclaimable(room, user) or (seat is not None and room.handover is not None
                                       and room.handover.seat == seat.seat)


def reclaim(deps: RoomDeps, room: Room, user: str) -> Room:
    """The player of a seat a bot plays, or one a vote would hand to a bot, is back: the seat is hers
    again and the vote closed (before her action applies). Returns the room unchanged otherwise."""
    seat = room.seat_of(user)
    if seat is None or not returning(room, user):
        return room
    seats = tuple(s.model_copy(update={"bot": None}) if s.seat == seat.seat else s for s in room.seats)
    if seat.bot is not None:
        metrics_count("SeatsReclaimed")
    # the vote on her seat closes; one on another seat goes on (its voters now include her)
    vote = None if room.handover is None or room.handover.seat == seat.seat else room.handover
    return _save(deps, room, room.model_copy(update={"seats": seats, "handover": vote, "version": room.version + 1,
                                                     "updated_ms": deps.clock.now_ms()}))
