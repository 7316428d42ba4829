"""Who may see and do what in a room: viewer and actor resolution, the 暗号 check, and the ration of
texts that pass content security."""

from __future__ import annotations

from collections.abc import Sequence

from chalicelib.core.errors import Forbidden, RateLimited
from chalicelib.core.game import Viewer
from chalicelib.core.identity import Caller
from chalicelib.domain.model import Room
from chalicelib.games import get_game
from chalicelib.observability import metrics_count
from chalicelib.rooms.deps import RoomDeps
from chalicelib.rooms.passwords import verify_password

PASSWORD_WINDOW_MS = 10 * 60 * 1000
PASSWORD_MAX_CHECKS = 5
"""暗号 checks per user and room in any 10 minutes (a sliding window)."""
TEXTS_WINDOW_MS = 5 * 60 * 1000
TEXTS_PER_WINDOW = 30
"""Actions carrying typed text for content security (a 告知's words, a note, her own reminder token, a
traveller's identity and ability, a declared reason) one person may send in any 5 minutes, all her rooms together
(a sliding window; decision, docs/rules/platform.md P16): each spends calls of the app's WeChat
content-security quota. A storyteller types one every few seconds at most, and far fewer for long."""


def is_host(caller: Caller, room: Room) -> bool:
    """The room's host (storyteller / tournament 司礼), or any 司礼: the admin may watch and host anywhere."""
    return room.host == caller.user_id or caller.is_admin


def may_hurry(caller: Caller, room: Room) -> bool:
    """Who may 催战 (settle a sealed round now): the room's creator, its host, any 司礼."""
    return caller.user_id == room.creator or is_host(caller, room)


def viewer_for(deps: RoomDeps, caller: Caller, room: Room) -> Viewer:
    seat = room.seat_of(caller.user_id)
    if seat is not None:
        return Viewer.player(seat.seat)
    if is_host(caller, room):
        return Viewer.host()
    if room.has_password and not deps.rooms.is_watcher(room.id, caller.user_id):
        # the family (public in the lobby anyway) lets a phone that opened the room by its id alone
        # ask for the 暗号 on the right game's page
        raise Forbidden("这个房间设了暗号，请先报号入席观战", code="PASSWORD_REQUIRED",
                        family=get_game(room.game).family)
    return Viewer.spectator()


def actor_for(caller: Caller, room: Room) -> Viewer:
    seat = room.seat_of(caller.user_id)
    if seat is not None:
        return Viewer.player(seat.seat)
    if is_host(caller, room):
        return Viewer.host()
    raise Forbidden("你不在这个房间的座位上", code="NOT_IN_ROOM")


def check_password(deps: RoomDeps, caller: Caller, room: Room, password: str | None) -> None:
    if room.password_hash is None:
        return
    if password is None or password == "":
        raise Forbidden("这个房间设了暗号", code="PASSWORD_REQUIRED", family=get_game(room.game).family)
    # every check takes a slot first, atomically: parallel guesses cannot get more checks than allowed
    wait_ms = deps.rooms.reserve_password_check(room.id, caller.user_id, deps.clock.now_ms(), PASSWORD_WINDOW_MS,
                                                PASSWORD_MAX_CHECKS)
    if wait_ms is not None:
        metrics_count("PasswordLockouts")
        # Retry-After: when the oldest check leaves the window
        raise RateLimited.waiting(wait_ms, f"暗号错误次数过多，请{-(-wait_ms // 60_000)}分钟后再试", code="PASSWORD_LOCKED")
    if not verify_password(password, room.password_hash):
        raise Forbidden("暗号不对", code="WRONG_PASSWORD")


def check_typed_texts(deps: RoomDeps, caller: Caller, texts: Sequence[str]) -> None:
    """Content security for `texts`, typed by the caller for others to read, after one of her
    typed-text slots is taken (one per action, whatever number of texts it carries, in any room), atomically:
    parallel presses cannot spend more checks than allowed. No texts: nothing taken, nothing checked.

    Raises:
        RateLimited: TOO_MANY_TEXTS, saying when a slot is free again; what `deps.check_text` raises.
    """
    if not texts:
        return
    wait_ms = deps.rooms.reserve_text_check(caller.user_id, deps.clock.now_ms(), TEXTS_WINDOW_MS, TEXTS_PER_WINDOW)
    if wait_ms is not None:
        metrics_count("TextChecksLimited")
        after = f"{-(-wait_ms // 1000)}秒" if wait_ms <= 60_000 else f"{-(-wait_ms // 60_000)}分钟"
        raise RateLimited.waiting(wait_ms, f"发送文字太频繁：{TEXTS_WINDOW_MS // 60_000}分钟内最多发送 "
                                           f"{TEXTS_PER_WINDOW} 次，请{after}后再试", code="TOO_MANY_TEXTS")
    for text in texts:
        deps.check_text(text, caller.user_id)  # refused text is never stored nor shown
