"""Who reads and posts in which channel, and who moderates: pure rules over the room and the viewer.

In a game where spectators chat apart (`Game.spectators_chat_apart`, e.g. hidden roles: a watcher
sees what the players must not learn), the players never see the spectators' channel and the
spectators never post into the players'; spectators may still read the table (what the players
say to each other is no secret from the gallery), and the host, who knows everything anyway, reads
and posts in both. Elsewhere everyone shares the table.
"""

from __future__ import annotations

from chalicelib.core.game import Viewer, ViewerRole
from chalicelib.core.identity import Caller
from chalicelib.domain.chat_model import Channel
from chalicelib.domain.model import Room

TABLE_ONLY = (Channel.TABLE,)
BOTH = (Channel.TABLE, Channel.WATCH)


def readable(apart: bool, viewer: Viewer) -> tuple[Channel, ...]:
    """The channels a viewer reads."""
    if not apart or viewer.role is ViewerRole.PLAYER:
        return TABLE_ONLY
    return BOTH


def postable(apart: bool, viewer: Viewer) -> tuple[Channel, ...]:
    """The channels a viewer posts in, her default first."""
    if not apart or viewer.role is ViewerRole.PLAYER:
        return TABLE_ONLY
    if viewer.role is ViewerRole.SPECTATOR:
        return (Channel.WATCH,)
    return BOTH


def is_moderator(caller: Caller, room: Room) -> bool:
    """Who may mute: the creator of a player-opened room, the host of a hosted room, any 司礼."""
    if caller.is_admin:
        return True
    if room.host is not None:
        return room.host == caller.user_id
    return room.creator == caller.user_id


def moderators(room: Room) -> frozenset[str]:
    """The room's own moderator (not the 司礼, who is everywhere): nobody may mute her."""
    return frozenset({room.host if room.host is not None else room.creator})
