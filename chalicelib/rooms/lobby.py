"""Before the game: open (开房), list, join (加入), leave, spectate (观战) and start (开战)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import replace
from typing import Any

from chalicelib.core.errors import (
    Conflict,
    Forbidden,
    NotFound,
    RateLimited,
    RoomCodeTaken,
    StaleVersion,
    ValidationFailed,
)
from chalicelib.core.game import AnyGame, BotLevel, Entrant, Persona
from chalicelib.core.identity import Caller
from chalicelib.core.rng import Rng, seed_digest
from chalicelib.domain.model import (
    BOT_USER_PREFIX,
    Competition,
    LogKind,
    LogRecord,
    MoveRecord,
    Room,
    RoomStatus,
    SeatEntry,
    Trigger,
)
from chalicelib.domain.ports import Consort, LobbyCard, Page
from chalicelib.games import get_game
from chalicelib.observability import metrics_count
from chalicelib.rooms.access import check_password, is_host
from chalicelib.rooms.autoplay import run_bots
from chalicelib.rooms.bot_moves import sealed_moves
from chalicelib.rooms.deps import JOIN_ATTEMPTS, RoomDeps, contended_tries, request_hash, room_id_for_request
from chalicelib.rooms.engine import dump_state, parse_model, pending_info
from chalicelib.rooms.history import NOTHING_YET, entrant_json
from chalicelib.rooms.host import request_join
from chalicelib.rooms.mine import noted
from chalicelib.rooms.passwords import hash_password, verify_password


def seat_for(deps: RoomDeps, caller: Caller, game: AnyGame, seat_no: int, options: Any) -> SeatEntry:
    """The seat a caller takes; in games played with a 妃子 she sits as her 妃子 (whose attributes
    and 宫女 are read afresh when the game starts), if the game lets her (`Game.check_seat`)."""
    if not game.seats_consorts:
        return SeatEntry(seat=seat_no, user=caller.user_id, name=caller.name)
    user = deps.accounts.get_user(caller.user_id)
    if user is None or user.consort is None:
        raise Forbidden("请先认领一位妃子，才能入局；也可以观战", code="NO_CONSORT")
    consort = deps.accounts.get_consort(user.consort)
    game.check_seat(Entrant(seat=seat_no, name=consort.name, persona=persona(consort)), options)
    return SeatEntry(seat=seat_no, user=caller.user_id, name=consort.name, consort=consort.id)


def option_locks(deps: RoomDeps, caller: Caller, games: Sequence[AnyGame]) -> dict[str, Mapping[str, Mapping[str, str]]]:
    """Per game key, the room options this caller could not open a room with, each with its reason
    (`Game.option_locks` for the 妃子 she would sit as, `seat_for`'s check at 开房 in advance). A 司礼
    hosts her rooms without a seat, and a player without a 妃子 is refused any room of these games
    (NO_CONSORT, which the lobby says already): neither has a choice locked."""
    wanting = [g for g in games if g.seats_consorts]
    if caller.is_admin or not wanting:
        return {}
    user = deps.accounts.get_user(caller.user_id)
    if user is None or user.consort is None:
        return {}
    consort = deps.accounts.get_consort(user.consort)
    entrant = Entrant(seat=0, name=consort.name, persona=persona(consort))
    return {g.key: locks for g in wanting if (locks := g.option_locks(entrant))}


def create_room(
    deps: RoomDeps, caller: Caller, game_key: str, raw_options: dict[str, Any], password: str | None,
    request_key: str | None,
) -> Room:
    game = get_game(game_key)
    if not caller.is_admin and not deps.is_open(game.key):
        raise Forbidden("该玩法暂未开放", code="MODE_LOCKED")
    options = parse_model(game.options_model, raw_options, "房间设置")
    tournament = caller.is_admin
    host = caller.user_id if (game.host_runs or tournament) else None
    seats: tuple[SeatEntry, ...] = ()
    if host is None:
        seats = (seat_for(deps, caller, game, 0, options),)
    now = deps.clock.now_ms()
    room_id = room_id_for_request(caller.user_id, request_key) if request_key else deps.new_id()
    # whether a 暗号 was given (True), never the 暗号 itself: the room keeps it only as its salted hash (a
    # fast hash over a short 暗号, read from the table, would give it away); a retry's is checked against
    # that. Without one the hash is what it always was (None).
    given = True if password is not None else None
    request = request_hash(game.key, options.model_dump(mode="json"), given) if request_key else None
    room = Room(
        id=room_id, game=game.key, title=game.room_title(options), status=RoomStatus.OPEN, creator=caller.user_id,
        creator_name=caller.name, host=host,
        competition=Competition.TOURNAMENT if tournament else Competition.FREE,
        seats=seats, max_seats=game.max_seats, min_seats=game.min_seats,
        options=options.model_dump(mode="json"),
        password_hash=hash_password(password) if password else None,
        created_ms=now, updated_ms=now, active_ms=now, request_hash=request,
    )
    if not caller.is_admin:
        reserve_opening(deps, caller, room_id, request_key is not None, now)
    created = create_coded(deps, room)
    if created is not None:
        metrics_count("RoomsCreated")
        return noted(deps, caller.user_id, created)
    existing = deps.rooms.get_room(room_id)
    if existing.creator != caller.user_id:
        raise Conflict("房间号冲突，请重试", code="ROOM_ID_TAKEN")
    if existing.request_hash != room.request_hash or not _same_password(password, existing.password_hash):
        raise ValidationFailed("这个请求编号（Idempotency-Key）已用于另一个开房请求", code="IDEMPOTENCY_KEY_REUSED")
    return noted(deps, caller.user_id, existing)  # the same create, retried (its note may have been lost)


OPENINGS_PER_HOUR = 20
"""Rooms one player may open in any hour (decision, docs/rules/platform.md P15): each holds a 房号 for
three days whatever becomes of it, so one account opening and dropping rooms without end could take
every code. A 司礼 (tournaments) is not limited; a finished game's first 再战 room is not counted, the
ones opened after it closed unstarted are (P13, `again.play_again`)."""


def reserve_opening(deps: RoomDeps, caller: Caller, room_id: str, keyed: bool, now: int) -> None:
    """Take one of her openings this hour, for this room, or refuse (429). The opening is tagged with
    the room's id, so a second ask for the same room within the hour (a retry or a twin tap while the
    first is on its way) takes none. A retried create (keyed: its room id comes from its
    Idempotency-Key) finds its room made (one read): a retry opens nothing new, even one sent over an
    hour later. (A 再战 room's id comes from its table and opening: `again._open` reads it first.)

    Raises:
        RateLimited: TOO_MANY_ROOMS, with how long until an opening is free again.
    """
    if keyed:
        try:
            if deps.rooms.get_room(room_id).creator == caller.user_id:
                return
        except NotFound:
            pass
    wait_ms = deps.rooms.reserve_room_opening(caller.user_id, room_id, now, 3_600_000, OPENINGS_PER_HOUR)
    if wait_ms is None:
        return
    metrics_count("RoomOpeningsLimited")
    raise RateLimited.waiting(wait_ms, f"开房太频繁：一小时内最多开 {OPENINGS_PER_HOUR} 个房间，"
                                       f"请{-(-wait_ms // 60_000)}分钟后再试", code="TOO_MANY_ROOMS")


def _same_password(password: str | None, stored: str | None) -> bool:
    """A retried create names the 暗号 the room was opened with (or none, as it was)."""
    if password is None or stored is None:
        return password is None and stored is None
    return verify_password(password, stored)


CODE_DRAWS = 8
"""房号 drawn before giving up: with 900,000 codes and only the last 3 days' rooms holding them, eight
draws all taken means the code space is nearly full (a 409 the `RoomCodeTaken` metric shows coming)."""


def create_coded(deps: RoomDeps, room: Room) -> Room | None:
    """Write the new room with a free 房号 (None: this create was already done, a retry)."""
    for _ in range(CODE_DRAWS):
        coded = room.model_copy(update={"code": deps.new_code()})
        try:
            return coded if deps.rooms.create_room(coded) else None
        except RoomCodeTaken:
            metrics_count("RoomCodeTaken")
    raise RoomCodeTaken()


def find_by_code(deps: RoomDeps, code: str) -> Room:
    """The room a friend's 房号 leads to: the one that holds it now (a code older than its life leads
    nowhere, even before a new room takes it)."""
    if not (len(code) == 6 and code.isascii() and code.isdigit() and code[0] != "0"):
        raise ValidationFailed("房号是六位数字", code="BAD_ROOM_CODE")
    room_id = deps.rooms.find_code(code)
    room = _get_or_none(deps, room_id) if room_id else None
    if room is None or room.code_at(deps.clock.now_ms()) != code:
        raise NotFound("没有这个房号（或已过期）", code="ROOM_CODE_NOT_FOUND")
    return room


def _get_or_none(deps: RoomDeps, room_id: str) -> Room | None:
    try:
        return deps.rooms.get_room(room_id)
    except NotFound:
        return None


def list_rooms(deps: RoomDeps, game_key: str, status: RoomStatus, limit: int, cursor: str | None) -> Page[LobbyCard]:
    """The lobby: a game's rooms waiting for players, or those under way (to watch; a player who left
    her running game finds it here too)."""
    get_game(game_key)  # 404 for an unknown game
    return deps.rooms.list_lobby(game_key, status, limit, cursor)


def persona(consort: Consort) -> Persona:
    return Persona(
        consort_id=consort.id, name=consort.name, looks=consort.looks, talent=consort.talent,
        favor=consort.favor, power=consort.power, maids=dict(consort.maids), cleared_stages=consort.cleared_stages,
    )


def start_transition(deps: RoomDeps, game: AnyGame, room: Room,
                     trigger: Trigger) -> tuple[Room, LogRecord, tuple[MoveRecord, ...]]:
    """Set the game up: fresh personas, the start check, a secret seed; the room becomes ACTIVE.
    With it, the bots' moves for a first round that is sealed (written in the same transaction)."""
    options = game.parse_options(room.options)
    personas: dict[int, Persona] = {}
    if game.seats_consorts:
        consorts = deps.accounts.get_consorts([s.consort for s in room.seats if s.consort and s.bot is None])
        personas = {s.seat: persona(consorts[s.consort]) for s in room.seats if s.consort in consorts}
        for s in room.seats:
            bot_persona = game.bot_persona(s.seat, s.bot) if s.bot is not None and s.consort is None else None
            if bot_persona is not None:
                personas[s.seat] = replace(bot_persona, name=s.name)
    entrants = [Entrant(seat=s.seat, name=s.name, persona=personas.get(s.seat), bot=s.bot is not None)
                for s in room.seats]
    game.check_start(entrants, options)
    seed = deps.new_seed()
    state = game.setup(entrants, options, Rng(seed, 0))
    now = deps.clock.now_ms()
    started = room.model_copy(update={
        "status": RoomStatus.ACTIVE, "seed": seed, "seed_hash": seed_digest(seed), "state": dump_state(state),
        "step": 1, "version": room.version + 1, "pending": pending_info(game.pending(state), now),
        "updated_ms": now, "active_ms": now, "undo_block": None if room.host is None else NOTHING_YET,
    })
    log = LogRecord(
        step=0, kind=LogKind.SETUP, at_ms=now, trigger=trigger,
        action={"entrants": [entrant_json(e) for e in entrants], "options": room.options},
    )
    return started, log, sealed_moves(game, started, state, game.pending(state), set(), now)


def join_room(deps: RoomDeps, caller: Caller, room_id: str, password: str | None, *, vouched: bool = False) -> Room:
    """`vouched`: she comes from the table this room plays again (再战), which its 暗号 does not keep out."""
    checked_password = vouched
    for _ in contended_tries(JOIN_ATTEMPTS):
        room = deps.rooms.get_room(room_id)
        if room.seat_of(caller.user_id) is not None:
            return noted(deps, caller.user_id, room)  # already seated: a retried join
        if room.host == caller.user_id:
            raise Conflict("主持人不入座", code="HOST_CANNOT_SIT")
        if room.status is RoomStatus.ACTIVE and get_game(room.game).late_join:
            return request_join(deps, caller, room, password)  # the host decides (血染 travellers)
        if room.status is not RoomStatus.OPEN:
            raise Conflict("房间已开战或已关闭", code="ROOM_NOT_OPEN")
        if room.full:
            raise Conflict("房间已满", code="ROOM_FULL")
        if not checked_password:
            check_password(deps, caller, room, password)
            checked_password = True
        game = get_game(room.game)
        seat = seat_for(deps, caller, game, len(room.seats), game.parse_options(room.options))
        now = deps.clock.now_ms()
        joined = room.model_copy(update={
            "seats": (*room.seats, seat), "version": room.version + 1, "updated_ms": now, "active_ms": now,
        })
        try:
            return noted(deps, caller.user_id, _save_or_start(deps, game, room, joined))
        except StaleVersion:
            metrics_count("Retries")
            continue
    raise StaleVersion()


def _save_or_start(deps: RoomDeps, game: AnyGame, room: Room, changed: Room) -> Room:
    """Save a room whose seats changed; if that filled a game that starts by itself, start it in the
    same conditional write (then let the bots that must move first do so)."""
    if game.auto_start and changed.full:
        started, log, moves = start_transition(deps, game, changed, trigger=Trigger.AUTO)
        deps.rooms.commit(started, room.version, log, moves)
        metrics_count("GamesStarted")
        return run_bots(deps, started)
    deps.rooms.save_room(changed, room.version)
    return changed


def add_bots(deps: RoomDeps, caller: Caller, room_id: str, level: BotLevel, count: int | None,
             seated: int | None = None) -> Room:
    """The creator (or a 司礼) fills empty seats with bots (机器人): `count` of them, or all.
    `seated`: how many were seated on her screen; a bot seated after them means this request (or
    one like it) was carried out already, and a retry answers the room as it stands, even started.

    Raises:
        Forbidden: NOT_CREATOR; Conflict: ROOM_NOT_OPEN / ROOM_FULL / BOTS_NOT_ALLOWED.
    """
    for _ in range(JOIN_ATTEMPTS):
        room = deps.rooms.get_room(room_id)
        if room.creator != caller.user_id and not is_host(caller, room):
            raise Forbidden("只有开房者可以添加机器人", code="NOT_CREATOR")
        if seated is not None and any(s.bot is not None for s in room.seats[seated:]):
            return room
        game = get_game(room.game)
        if not (game.bots and game.bot_fill):
            raise Conflict(f"{game.title}不能用机器人补位", code="BOTS_NOT_ALLOWED")
        if room.status is not RoomStatus.OPEN:
            raise Conflict("房间已开战或已关闭", code="ROOM_NOT_OPEN")
        free = room.max_seats - len(room.seats)
        if free <= 0:
            raise Conflict("房间已满", code="ROOM_FULL")
        n = free if count is None else min(count, free)
        changed = with_bots(deps, room, [level] * n)
        try:
            return _save_or_start(deps, game, room, changed)
        except StaleVersion:
            metrics_count("Retries")
    raise StaleVersion()


def with_bots(deps: RoomDeps, room: Room, levels: list[BotLevel]) -> Room:
    """`room` with a bot of each of `levels` seated after its people (the next version, not saved)."""
    seats = list(room.seats)
    number = _next_bot_number(room)
    names = get_game(room.game).bot_names
    for level in levels:
        name = f"{names[number % len(names)]}（机器人）"
        seats.append(SeatEntry(seat=len(seats), user=f"{BOT_USER_PREFIX}{room.id}:{number}", name=name, bot=level))
        number += 1
    now = deps.clock.now_ms()
    return room.model_copy(update={"seats": tuple(seats), "version": room.version + 1, "updated_ms": now,
                                   "active_ms": now})


def seat_bots(deps: RoomDeps, room: Room, levels: list[BotLevel]) -> Room:
    """Seat bots of these levels in an open room as its creator would (`add_bots`), starting a game that
    starts by itself once full. A room that moved on meanwhile is read again; one no longer open, or
    without the seats, is answered as it stands."""
    game = get_game(room.game)
    for _ in range(JOIN_ATTEMPTS):
        free = room.max_seats - len(room.seats)
        if room.status is not RoomStatus.OPEN or free <= 0 or not levels:
            return room
        try:
            return _save_or_start(deps, game, room, with_bots(deps, room, levels[:free]))
        except StaleVersion:
            metrics_count("Retries")
            room = deps.rooms.get_room(room.id)
    raise StaleVersion()


def _next_bot_number(room: Room) -> int:
    """A number no bot in the room has: a bot's user id must name one seat, and seats are renumbered
    when a person leaves (numbering by seat alone gave two bots the same id)."""
    prefix = f"{BOT_USER_PREFIX}{room.id}:"
    taken = [int(s.user.removeprefix(prefix)) for s in room.seats
             if s.user.startswith(prefix) and s.user.removeprefix(prefix).isdigit()]
    return max(len(room.seats), 1 + max(taken, default=-1))


def leave_room(deps: RoomDeps, caller: Caller, room_id: str) -> Room:
    for _ in range(JOIN_ATTEMPTS):
        room = deps.rooms.get_room(room_id)
        if room.seat_of(caller.user_id) is None or not room.status.live:
            return room  # nothing to leave: not seated, or the room is over (a retried 离席 after the end)
        if room.status is not RoomStatus.OPEN:
            raise Conflict("对局已开始，不能离席", code="GAME_STARTED")
        rest = [s for s in room.seats if s.user != caller.user_id]
        seats = tuple(s.model_copy(update={"seat": i}) for i, s in enumerate(rest))
        now = deps.clock.now_ms()
        update: dict[str, Any] = {"seats": seats, "version": room.version + 1, "updated_ms": now, "active_ms": now}
        if room.creator == caller.user_id and room.host is None:
            heir = room.heir(caller.user_id)
            if heir is not None:  # the room passes to the next seated person
                update.update(creator=heir.user, creator_name=heir.name)
            else:  # only bots would be left, waiting for nobody
                update.update(status=RoomStatus.EXPIRED, ended_ms=now)
        try:
            left = room.model_copy(update=update)
            deps.rooms.save_room(left, room.version)
            return left
        except StaleVersion:
            continue
    raise StaleVersion()


def spectate_room(deps: RoomDeps, caller: Caller, room_id: str, password: str | None) -> Room:
    room = deps.rooms.get_room(room_id)
    outsider = room.seat_of(caller.user_id) is None and not is_host(caller, room)
    if room.has_password and outsider and not deps.rooms.is_watcher(room.id, caller.user_id):
        check_password(deps, caller, room, password)
        deps.rooms.add_watcher(room.id, caller.user_id, deps.clock.now_ms())
    return room


def start_room(deps: RoomDeps, caller: Caller, room_id: str) -> Room:
    room = deps.rooms.get_room(room_id)
    game = get_game(room.game)
    for _ in range(JOIN_ATTEMPTS):
        if room.creator != caller.user_id and not is_host(caller, room):
            raise Forbidden("只有开房者可以开战", code="NOT_CREATOR")
        if room.status is RoomStatus.ACTIVE:
            return room  # a retried 开战, or one that raced it and won
        if room.status is not RoomStatus.OPEN:
            raise Conflict("房间已关闭", code="ROOM_NOT_OPEN")
        started, log, moves = start_transition(deps, game, room, trigger=Trigger.CREATOR)
        try:
            deps.rooms.commit(started, room.version, log, moves)
        except StaleVersion:  # a join, a leave or another 开战 came first: decide again on what it left
            metrics_count("Retries")
            room = deps.rooms.get_room(room_id)
            continue
        metrics_count("GamesStarted")
        return run_bots(deps, started)
    raise StaleVersion()
