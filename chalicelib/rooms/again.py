"""再战: the table that just finished plays again, together. The first of them who asks opens the new
room (same game, same settings, the stage she chose); everyone else who asks joins that same room.

The new room's id is derived from the finished room, the choice and the opening's number, so two
teammates tapping at the same instant both reach one room (one creates it, the other finds it and
joins); the finished room then names it (`Room.again`), which also tells the others' screens.

The first opening is free (one per finished game); each one after it (the one before closed unstarted,
or went on without her) is charged to its opener's ration of openings (P15, `lobby.reserve_opening`):
else 再战 and 离席 in a loop took a fresh 房号 on every turn."""

from __future__ import annotations

import base64
import hashlib
from typing import Any

from chalicelib.core.errors import Conflict, Forbidden, NotFound, RateLimited, StaleVersion
from chalicelib.core.game import AnyGame
from chalicelib.core.identity import Caller
from chalicelib.domain.model import AgainLink, AgainOf, Competition, Room, RoomStatus, Teammate
from chalicelib.games import get_game
from chalicelib.observability import metrics_count
from chalicelib.rooms.deps import JOIN_ATTEMPTS, RoomDeps
from chalicelib.rooms.engine import parse_model
from chalicelib.rooms.lobby import create_coded, join_room, reserve_opening, seat_bots, seat_for
from chalicelib.rooms.mine import noted

SAME = "same"
"""The choice of a game without stages: the same settings again."""


def again_room_id(room_id: str, choice: str, n: int) -> str:
    digest = hashlib.sha256(f"again\x00{room_id}\x00{choice}\x00{n}".encode()).digest()
    return base64.b32encode(digest[:10]).decode().lower()


def play_again(deps: RoomDeps, caller: Caller, room_id: str, stage: int | None) -> Room:
    """Open the 再战 room for `room_id`'s table (at `stage`, or the same settings), or join it if a
    teammate opened it first; answers the new room. Safe to retry: she is seated once.

    Raises:
        Conflict: NOT_ENDED (the game is still on or never started), AGAIN_HOST_OPENS (a hosted
            game's next room is the host's to open), ROOM_NOT_OPEN / ROOM_FULL (the 再战 room has
            started or filled without her).
        Forbidden: NOT_IN_ROOM (only the table's people and its host), MODE_LOCKED, NO_CONSORT, ADMIN_ONLY (a
            锦标赛's next room, by a 司礼 no longer).
        ValidationFailed: a stage this game does not have.
        RateLimited: TOO_MANY_ROOMS (an opening after the first: her ration of openings is spent, P15).
    """
    old = deps.rooms.get_room(room_id)
    hosting = old.host == caller.user_id
    seat = old.seat_of(caller.user_id)
    if not hosting and (seat is None or not seat.person):  # a player a bot played for (handover) is one
        raise Forbidden("只有这一局的玩家可以再战", code="NOT_IN_ROOM")
    if old.status not in (RoomStatus.FINISHED, RoomStatus.ABANDONED):
        raise Conflict("这一局结束后才能再战", code="NOT_ENDED")
    game = get_game(old.game)
    raw = dict(old.options) if stage is None else {**old.options, "stage": stage}
    options = parse_model(game.options_model, raw, "房间设置").model_dump(mode="json")
    choice = str(options["stage"]) if "stage" in options else SAME
    table = {s.user for s in old.seats if s.person}
    for _ in range(JOIN_ATTEMPTS):
        link = old.again.get(choice)
        playing = dict(link.playing or {}) if link else {}
        if link is not None:
            earlier = _earlier_room(deps, caller, old.id, choice, link)
            if earlier is not None:
                return earlier  # she came in time for an earlier opening: that one is hers
            entered, room = _enter(deps, caller, deps.rooms.get_room(link.room))
            if entered is not None:
                return entered
            # the 再战 room closed before it started (its opener left, or it stood idle), or it went
            # on without her (full, started): the next opening replaces it — she opens it. Those it
            # went on with are playing there: the link keeps that (their taps answer their game).
            if room.status.live:
                playing.update({s.user: room.id for s in room.seats if s.user in table})
        if old.host is not None and not hosting:
            raise Conflict("新的一局由主持人来开，请稍候", code="AGAIN_HOST_OPENS")
        n = link.n + 1 if link else 1
        new = _open(deps, caller, old, game, options, again_room_id(old.id, choice, n), charged=n > 1)
        opener = new.seats[0].name if new.seats and new.host is None else new.creator_name
        again_link = AgainLink(room=new.id, by=opener, user=new.creator, n=n, playing=playing)
        linked = old.model_copy(update={"again": {**old.again, choice: again_link}, "version": old.version + 1})
        try:
            deps.rooms.save_room(linked, old.version)
        except StaleVersion:  # a teammate linked hers first (or the same one): decide again on what she left
            metrics_count("Retries")
            old = deps.rooms.get_room(room_id)
            continue
        entered, _ = _enter(deps, caller, new)
        if entered is not None:
            return entered
        old = deps.rooms.get_room(room_id)  # closed the moment it was linked: open the next
    raise StaleVersion()


def _enter(deps: RoomDeps, caller: Caller, room: Room) -> tuple[Room | None, Room]:
    """Her place in the 再战 room: she opened (or hosts) it already, or she sits down now. None: a
    next one is due — it closed before it started, or (a players' room) it went on without her; then
    also the room as it was found (read again if it changed as she sat down).

    Raises:
        Conflict: ROOM_NOT_OPEN (a hosted room started without her: a 再战 seats the table before the
            start, also in a game that seats late entrants otherwise; only its host opens another).
    """
    if room.status is RoomStatus.EXPIRED:
        return None, room
    if room.takes_part(caller.user_id):
        return noted(deps, caller.user_id, room), room
    if room.status is not RoomStatus.OPEN or room.full:
        if room.host is None:
            return None, room  # the ones who came are playing: the late ones make the next table
        raise Conflict("再战的房间已经开局，请从大厅观战或等下一局", code="ROOM_NOT_OPEN")
    try:
        entered = join_room(deps, caller, room.id, None, vouched=True)
        return entered, entered
    except Conflict as e:
        if e.code in ("ROOM_NOT_OPEN", "ROOM_FULL") and room.host is None:
            return None, deps.rooms.get_room(room.id)  # it filled, started or closed as she sat down
        raise


def _earlier_room(deps: RoomDeps, caller: Caller, room_id: str, choice: str, link: AgainLink) -> Room | None:
    """The room of an earlier opening that she sits in (or hosts) and that has not ended: a late
    teammate's new opening replaced the link, not her seat (her retried tap must not seat her a second
    time). The link names the opening she went on in (`AgainLink.playing`): at most one read, however
    many openings came before (it read every one of them on every tap, hundreds after a long loop)."""
    if link.playing is None:  # a link kept before it named them: the opening before it, as most likely
        earlier = again_room_id(room_id, choice, link.n - 1) if link.n > 1 else None
    else:
        earlier = link.playing.get(caller.user_id)
    if earlier is None:
        return None
    try:
        room = deps.rooms.get_room(earlier)
    except NotFound:
        return None
    if room.status.live and room.takes_part(caller.user_id):
        return noted(deps, caller.user_id, room)
    return None


def _open(deps: RoomDeps, caller: Caller, old: Room, game: AnyGame, options: dict[str, Any], room_id: str,
          *, charged: bool) -> Room:
    """The 再战 room, written now or already there (a teammate's, or her own retried). `charged`: an
    opening after the first, taken from her ration (P15) unless it is there already.

    Raises:
        RateLimited: TOO_MANY_ROOMS.
    """
    if not caller.is_admin and not deps.is_open(game.key):
        raise Forbidden("该玩法暂未开放", code="MODE_LOCKED")
    if old.competition is Competition.TOURNAMENT and not caller.is_admin:  # a 司礼 no longer
        raise Forbidden("只有司礼可以开锦标赛", code="ADMIN_ONLY")
    now = deps.clock.now_ms()
    if charged and not caller.is_admin:
        made = _made(deps, room_id)
        if made is not None:
            return made  # a teammate's twin tap, or her own retry: no opening of hers
        try:
            reserve_opening(deps, caller, room_id, False, now)
        except RateLimited:
            made = _made(deps, room_id)  # a teammate's twin tap made it meanwhile: hers to join
            if made is None:
                raise
            return made
    parsed = game.parse_options(options)
    hosted = old.host is not None
    room = Room(
        id=room_id, game=old.game, title=game.room_title(parsed), status=RoomStatus.OPEN,
        creator=caller.user_id, creator_name=caller.name, host=caller.user_id if hosted else None,
        competition=old.competition, seats=() if hosted else (seat_for(deps, caller, game, 0, parsed),),
        max_seats=game.max_seats, min_seats=game.min_seats, options=options,
        # the same 暗号 keeps strangers out; the table itself comes in without it (`vouched`)
        password_hash=old.password_hash, created_ms=now, updated_ms=now, active_ms=now,
        again_of=AgainOf(room=old.id, people=tuple(Teammate(user=s.user, name=s.name) for s in old.seats if s.person)),
    )
    created = create_coded(deps, room)
    if created is None:
        return deps.rooms.get_room(room_id)
    metrics_count("RoomsCreated")
    # the bots the table played with come along (a practice table plays again as it was); its people
    # take the seats they leave, as they tap
    bots = [s.bot for s in old.seats if s.bot is not None and not s.person]
    return seat_bots(deps, created, bots) if bots and game.bots and game.bot_fill else created


def _made(deps: RoomDeps, room_id: str) -> Room | None:
    """The room of this id, if it is written already."""
    try:
        return deps.rooms.get_room(room_id)
    except NotFound:
        return None
