"""From committed changes to notices: the DynamoDB stream handler's work.

The table's stream (NEW_AND_OLD_IMAGES) delivers every committed write; only three kinds matter
(`wanted`, which is also the event source mapping's filter, so nothing else invokes the function):

- a room item (`ROOM#R / ROOM`) inserted or modified: its new image is the room as committed;
- a log entry inserted (`ROOM#R / LOG#n`, in the same transaction as the room): it names what caused
  the transition (催战 …), which the chat helper's notices need;
- a sealed move inserted (`ROOM#R / MOVE#step#seat`): who has sealed, told as it stands (below).

A sealed move (`MOVE#…`, inserted) changes only who has submitted, which every viewer of the round
sees (`pending.submitted`: who, never what). It is told to every subscriber who sees the step counter
but the one whose move it is, as `{"type": "sealed", "room": R, "step": S, "seat": k}`: the round's
step and the seat, nothing her own view does not show, and nothing that asks her to fetch — her page
marks the seat in the view it holds, if that view is of step S. A viewer from whom the steps are hidden
(血染's players) is told nothing of it. Nor is a move of a round already settled (its settlement, a new
version, told everyone), nor a placeholder written at the settlement, nor a bot's move written with
the room by the transaction that opened its round (that round's notice makes her fetch it). This is also what 催战 needs
(her button waits for someone to have sealed and someone not), so the creator is sent nothing else.

For each changed room, every subscription is looked at (one Query in the room's own partition). A
viewer who sees the step counter is sent `{"type": "changed", "room": R, "version": V}` for every
version newer than her subscription (her view shows V anyway; her phone skips a version it already
holds). A viewer from whom the steps are hidden has her view worked out from the committed room exactly
as `GET` would show it (`rooms.views.view_tag`) and is sent `{"type": "changed", "room": R}`, with no
version, only when its tag differs from the last one sent on that subscription: a 血染甄嬛传 player hears
nothing of the storyteller's night steps that do not change what she sees, so notices cannot be
counted to learn them — the socket tells her no more than polling her own view would. Connections
the gateway reports gone (410) are removed with all their subscriptions; expired ones are closed.

Where the stage pushes views for the room's game (`PushDeps.pushed_views`, the PUSH_VIEWS setting),
the notice also carries the subscriber's own view, exactly as her `GET` would answer it, and its ETag
(`rooms.views.pushed_view`): her phone shows it without asking. It is her projection, worked out for
her alone, so it tells her nothing her own `GET` would not; a view that would make the message larger
than `MAX_PUSHED_VIEW_BYTES` is left out (she fetches it as before).

Then the chat helper's hook runs for the transition (`send_notices(old, new, trigger, is_watching)`)
with presence = the user has a live subscription to the room.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field, replace
from typing import TYPE_CHECKING, Any

from chalicelib.core.errors import DomainError
from chalicelib.core.game import PendingKind
from chalicelib.domain.model import MoveRecord, MoveSource, Room, Trigger
from chalicelib.domain.ports import PushStore, RoomStore, Subscription
from chalicelib.observability import logger, metrics_count
from chalicelib.push.service import PushDeps, caller_of

if TYPE_CHECKING:
    from chalicelib.core.identity import Caller
    from chalicelib.rooms.deps import RoomDeps
    from chalicelib.rooms.views import RoomView

CHANGED = "changed"
SEALED = "sealed"
MAX_PUSHED_VIEW_BYTES = 32 * 1024
"""A notice with a view stays within one billed WebSocket message (API Gateway bills per 32 KB; it
refuses more than 128 KB)."""

FILTER_PATTERNS: tuple[dict[str, Any], ...] = (
    {"dynamodb": {"Keys": {"sk": {"S": ["ROOM"]}}}},
    {"eventName": ["INSERT"], "dynamodb": {"Keys": {"sk": {"S": [{"prefix": "LOG#"}]}}}},
    {"eventName": ["INSERT"], "dynamodb": {"Keys": {"sk": {"S": [{"prefix": "MOVE#"}]}}}},
)
"""The stream records the handler needs, as Lambda event-filter patterns (infra/template.py puts
them on the event source mapping; the local poller applies `wanted`, the same rule)."""


def _part(parent: Any, name: str) -> Any:
    """`parent[name]` when `parent` is a mapping, else None: a stream record may be any shape."""
    return parent.get(name) if isinstance(parent, Mapping) else None


def _key(record: Mapping[str, Any], name: str) -> str:
    value = _part(_part(_part(_part(record, "dynamodb"), "Keys"), name), "S")
    return value if isinstance(value, str) else ""


def wanted(record: Mapping[str, Any]) -> bool:
    """`FILTER_PATTERNS` in Python."""
    sk = _key(record, "sk")
    if sk == "ROOM":
        return True
    return record.get("eventName") == "INSERT" and sk.startswith(("LOG#", "MOVE#"))


@dataclass
class FanoutReport:
    records: int = 0
    rooms: int = 0
    notices: int = 0
    gone: int = 0
    expired: int = 0
    errors: int = 0
    answered: int = 0
    """Notices not sent: a round settled by her own move, whose answer carried the version."""
    watching: dict[str, set[str]] = field(default_factory=dict)
    """room -> users with a live subscription (presence for the chat helper)."""


class _Reads:
    """The room store for one room's fan-out: the step's moves read once for every subscriber, and
    the 暗号 check answered from the subscriptions (read for real only when they do not say)."""

    def __init__(self, rooms: RoomStore, subs: Sequence[Subscription]) -> None:
        self._rooms = rooms
        self._moves: dict[tuple[str, int], dict[int, MoveRecord]] = {}
        self._watchers = {s.user for s in subs if s.watcher}
        self._checked: dict[tuple[str, str], bool] = {}

    def list_moves(self, room_id: str, step: int) -> dict[int, MoveRecord]:
        if (room_id, step) not in self._moves:
            self._moves[(room_id, step)] = self._rooms.list_moves(room_id, step)
        return self._moves[(room_id, step)]

    def is_watcher(self, room_id: str, user: str) -> bool:
        if user in self._watchers:
            return True
        if (room_id, user) not in self._checked:
            self._checked[(room_id, user)] = self._rooms.is_watcher(room_id, user)
        return self._checked[(room_id, user)]

    def __getattr__(self, name: str) -> Any:
        return getattr(self._rooms, name)


def fan_out(deps: PushDeps, room: Room, report: FanoutReport, *, newest: bool = True,
            settled_by: str | None = None) -> None:
    """Tell every subscriber of `room` whose view of it changed; `room` is a committed image.

    A viewer who sees the step counter sees every version: she is told of each image newer than
    the one she subscribed with, and nothing is written. A viewer from whom the steps are hidden
    is told only when her view's tag changed, and that tag is kept on the subscription.

    Views are carried (where the game's family pushes them) only on the newest image of the room,
    `newest`, the last in its batch (her phone takes the burst's older notices in with it; it compares
    versions and keeps the newer). A viewer from whom the steps are hidden is sent her view of the room
    as it stands (read once), never of this image, and its tag is what is kept: her views carry no
    version, so one from a late image could replace a newer view her phone has fetched meanwhile — and
    whether a view came must not depend on what the storyteller pressed after it (a step she cannot
    see).

    `settled_by`: the player whose sealed move settled the round in this image's transaction. Her move's
    answer carried this very version, so her phone would skip the notice: she is not sent it — when
    this is her only subscription to the room (a second one may be another phone, which needs it).
    """
    from chalicelib.games import get_game
    from chalicelib.rooms.access import viewer_for
    from chalicelib.rooms.engine import hides_steps
    from chalicelib.rooms.views import view_tag

    store = deps.store
    subs = store.subscriptions(room.id)
    report.rooms += 1
    alive: dict[str, str] = {}
    report.watching[room.id] = set()
    if not subs:
        return
    now_s = deps.rooms.clock.now_ms() // 1000
    room_deps = replace(deps.rooms, rooms=_Reads(deps.rooms.rooms, subs))
    game = get_game(room.game)
    family_views = game.family in deps.pushed_views
    pushes_views = newest and family_views
    standing: list[Room | None] = []
    """The room as it stands, read once, for hidden-step viewers' views."""
    answered = settled_by if settled_by is not None and sum(s.user == settled_by for s in subs) == 1 else None
    for sub in subs:
        if sub.expires_s <= now_s:
            report.expired += 1
            deps.sender.close(sub.connection_id)
            _forget(store, room.id, sub.connection_id)
            continue
        caller = caller_of(sub)
        pushed: RoomView | None = None
        told = room.version
        try:
            viewer = viewer_for(room_deps, caller, room)
            alive[sub.connection_id] = sub.user
            if room.version < sub.version:
                continue  # older than what she subscribed with or was last told of (a late or redelivered record)
            hidden = hides_steps(game, viewer)
            if not hidden and room.version == sub.version:
                continue  # the very version she subscribed with
            if not hidden and sub.user == answered:
                report.answered += 1
                continue  # her own move settled the round: its answer carried this version
            if hidden and family_views:
                current = _standing(deps, room, standing, report)
                pushed = _pushed(room_deps, caller, current, report) if current is not None else None
                if pushed is not None and current is not None:
                    told = current.version  # her tag is of the room as it stands
            elif pushes_views:
                pushed = _pushed(room_deps, caller, room, report)
            tag = (pushed.etag if pushed is not None else view_tag(room_deps, caller, room)) if hidden else None
        except DomainError:
            # she may no longer view it (a 暗号 room she left): the subscription ends, and she is told so
            store.unsubscribe(sub.connection_id, room.id)
            if not deps.sender.send(sub.connection_id, {"type": "unsubscribed", "room": room.id}):
                _forget(store, room.id, sub.connection_id)
            continue
        except Exception:  # noqa: BLE001 - one bad view must not stop the others' notices
            report.errors += 1
            metrics_count("PushErrors")
            logger.exception("push view failed", extra={"room": room.id})
            continue
        if hidden and tag == sub.tag:
            continue
        # the version only to whom her view shows it anyway: her phone skips a notice of a version it
        # already holds (its own action's answer carried that view); a hidden-step viewer gets none
        notice: dict[str, Any] = {"type": CHANGED, "room": room.id}
        if not hidden:
            notice["version"] = room.version
        if pushed is not None:
            notice.update(view=pushed.body, etag=pushed.etag)
        if not deps.sender.send(sub.connection_id, notice):
            report.gone += 1
            alive.pop(sub.connection_id, None)
            _forget(store, room.id, sub.connection_id)
            continue
        report.notices += 1
        metrics_count("PushNotices")
        if tag is not None:
            store.set_tag(room.id, sub.connection_id, tag, told)
    report.watching[room.id] = set(alive.values())


def _standing(deps: PushDeps, image: Room, cache: list[Room | None], report: FanoutReport) -> Room | None:
    """The room as it stands (never older than `image`), read once per fan-out; None if it cannot be
    read (she then gets the plain notice)."""
    if not cache:
        try:
            cache.append(deps.rooms.rooms.get_room(image.id))
        except Exception:  # noqa: BLE001 - the plain notice still goes
            report.errors += 1
            metrics_count("PushErrors")
            logger.exception("push room read failed: a plain notice instead", extra={"room": image.id})
            cache.append(None)
    current = cache[0]
    return image if current is not None and current.version < image.version else current


def _pushed(deps: RoomDeps, caller: Caller, room: Room, report: FanoutReport) -> RoomView | None:
    """Her view and its ETag for a notice; None when it would not fit in one message, or could not be
    worked out — then she is sent the plain notice and fetches, as without views (a view that fails
    must neither silence her nor end her subscription)."""
    from chalicelib.push.sender import encode
    from chalicelib.rooms.views import pushed_view

    try:
        pushed = pushed_view(deps, caller, room)
        size = len(encode({"view": pushed.body, "etag": pushed.etag}).encode())
    except Exception:  # noqa: BLE001 - the plain notice still goes
        report.errors += 1
        metrics_count("PushErrors")
        logger.exception("push view failed: a plain notice instead", extra={"room": room.id})
        return None
    if size > MAX_PUSHED_VIEW_BYTES - 200:  # the notice's own fields
        metrics_count("PushViewsTooLarge")
        return None
    return pushed


def _forget(store: PushStore, room_id: str, connection_id: str) -> None:
    """The connection is gone (410) or expired: it goes with its subscriptions. A subscription whose
    connection record went first (a subscribe that raced the disconnect) is deleted by itself, or
    every change of the room would post to it again until its TTL."""
    if store.delete_connection(connection_id) is None:
        store.unsubscribe(connection_id, room_id)


def _image(record: Mapping[str, Any], which: str) -> dict[str, Any] | None:
    image = _part(_part(record, "dynamodb"), which)
    return dict(image) if isinstance(image, Mapping) and image else None


def handle_records(deps: PushDeps, records: Sequence[Mapping[str, Any]]) -> FanoutReport:
    """One batch of stream records (Lambda's `event["Records"]`, oldest first). Never raises: a
    failure is logged, counted (`PushErrors`) and the batch goes on — a missed notice costs the
    client one fetch later, a retried batch would notify everyone twice."""
    from chalicelib.store import codec

    report = FanoutReport()
    changes: list[tuple[Room | None, Room]] = []
    triggers: dict[tuple[str, int], Trigger | None] = {}
    sealed: dict[str, set[tuple[int, int]]] = {}
    """room -> the (step, seat) of each sealed move in the batch (not the placeholders of a settlement)."""
    bots: set[tuple[str, int, int]] = set()
    players: dict[tuple[str, int], list[int]] = {}
    """(room, step) -> the seats whose players' own moves of that step are in the batch."""
    for record in records:
        report.records += 1
        pk, sk = _key(record, "pk"), _key(record, "sk")
        if not pk.startswith("ROOM#") or not wanted(record):
            continue
        try:
            if sk.startswith("MOVE#"):
                _, step, seat = sk.split("#")
                # only its key and who wrote it are read: the move itself is never looked at
                by = _part(_part(_image(record, "NewImage"), "by"), "S")
                if by != MoveSource.DEFAULT:
                    sealed.setdefault(pk.removeprefix("ROOM#"), set()).add((int(step), int(seat)))
                if by == MoveSource.BOT:
                    bots.add((pk.removeprefix("ROOM#"), int(step), int(seat)))
                if by == MoveSource.PLAYER:
                    players.setdefault((pk.removeprefix("ROOM#"), int(step)), []).append(int(seat))
                continue
            image = _image(record, "NewImage")
            if image is None:
                continue
            if sk == "ROOM":
                before = _image(record, "OldImage")
                changes.append((codec.room_from_item(before) if before else None, codec.room_from_item(image)))
            else:
                log = codec.log_from_item(image)
                triggers[(pk.removeprefix("ROOM#"), log.step)] = log.trigger
        except Exception:  # noqa: BLE001 - an item we cannot read is skipped, not the batch
            report.errors += 1
            metrics_count("PushErrors")
            logger.exception("push record unreadable", extra={"sk": sk.split("#")[0]})
    last = {new.id: new.version for _, new in changes}  # oldest first: the last image of each room
    for old, new in changes:
        try:
            fan_out(deps, new, report, newest=new.version >= last[new.id], settled_by=_settler(old, new, players, triggers))
        except Exception:  # noqa: BLE001
            report.errors += 1
            metrics_count("PushErrors")
            logger.exception("push fan-out failed", extra={"room": new.id})
        if old is not None and deps.notices is not None and new.version > old.version:
            _notices(deps, report, old, new, triggers)
    # the bots' moves written by the transaction that opened their round: its own notice makes each
    # phone fetch that round's view, which shows them sealed already
    opened = {(new.id, new.step) for _, new in changes}
    for room_id, moves in sealed.items():
        moves = {(step, seat) for step, seat in moves if not ((room_id, step) in opened and (room_id, step, seat) in bots)}
        if not moves:
            continue
        try:
            _sealed(deps, room_id, moves, report)
        except Exception:  # noqa: BLE001
            report.errors += 1
            metrics_count("PushErrors")
            logger.exception("push sealed-move notice failed", extra={"room": room_id})
    return report


def _settler(old: Room | None, new: Room, players: dict[tuple[str, int], list[int]],
             triggers: dict[tuple[str, int], Trigger | None]) -> str | None:
    """The player whose own sealed move settled the round in this change's transaction: the round's one
    player move in the batch (the settling move is written with the room), its log entry in the batch
    saying a player's move caused it. None when the round did not settle here, when something else
    settled it (催战, the clock: a move sealed earlier in the batch did not carry that version back), or
    when the batch holds more than one of its players' moves (which one settled it is then not known):
    then everyone is told."""
    if old is None or new.step <= old.step or triggers.get((new.id, old.step)) is not Trigger.PLAYER:
        return None
    seats = players.get((new.id, old.step), [])
    if len(seats) != 1:
        return None
    return next((s.user for s in new.seats if s.seat == seats[0] and s.bot is None), None)


def _sealed(deps: PushDeps, room_id: str, moves: set[tuple[int, int]], report: FanoutReport) -> None:
    """Tell the room's subscribers who has sealed a move of the round in progress: every one who sees
    the step counter (a player, the host, a spectator: each one's view shows `pending.submitted`), but
    the seat's own player (her move's answer showed it). The room is read as it stands: a move of a
    round already settled is not told (the settlement's notice made her fetch the round that followed).
    The notice names the step and the seat only, so it asks no fetch: her page marks the seat in the
    view it holds when that view is of the same step."""
    from chalicelib.games import get_game
    from chalicelib.rooms.access import viewer_for
    from chalicelib.rooms.engine import hides_steps

    subs = deps.store.subscriptions(room_id)
    room = deps.rooms.rooms.get_room(room_id) if subs else None
    if room is None or room.pending is None or room.pending.kind is not PendingKind.SEALED:
        return
    seats = sorted(seat for step, seat in moves if step == room.step)
    if not seats:
        return
    game = get_game(room.game)
    now_s = deps.rooms.clock.now_ms() // 1000
    room_deps = replace(deps.rooms, rooms=_Reads(deps.rooms.rooms, subs))
    owners = {s.seat: s.user for s in room.seats if s.bot is None}  # a bot's move is news to her too
    for sub in subs:
        if sub.expires_s <= now_s:
            continue  # closed by the room's next change
        try:
            viewer = viewer_for(room_deps, caller_of(sub), room)
        except DomainError:
            continue  # she may no longer view it: the room's next change tells her so
        if hides_steps(game, viewer):
            continue  # no step, no submissions: nothing to count
        for seat in seats:
            if owners.get(seat) == sub.user:
                continue  # her own move: its answer showed it
            notice = {"type": SEALED, "room": room.id, "step": room.step, "seat": seat}
            if not deps.sender.send(sub.connection_id, notice):
                report.gone += 1
                _forget(deps.store, room.id, sub.connection_id)
                break
            report.notices += 1
            metrics_count("PushNotices")


def _notices(deps: PushDeps, report: FanoutReport, old: Room, new: Room,
             triggers: dict[tuple[str, int], Trigger | None]) -> None:
    assert deps.notices is not None
    try:
        if (new.id, old.step) in triggers:
            trigger = triggers[(new.id, old.step)]
        elif new.step > old.step:
            log = deps.rooms.rooms.get_log(new.id, old.step)
            trigger = log.trigger if log is not None else None
        else:
            trigger = None
        watching = report.watching.get(new.id, set())
        deps.notices(old, new, trigger, lambda room_id, user: room_id == new.id and user in watching)
    except Exception:  # noqa: BLE001 - a notice is best effort; the socket fan-out is done already
        report.errors += 1
        metrics_count("PushErrors")
        logger.exception("chat notices failed", extra={"room": new.id})
