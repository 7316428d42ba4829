"""During the game: a player's move (落子) or action, 催战, and the deadline. The shared
transitions (apply, submit, settle, commit) are in `transitions`; after each one the bots the game
waits for act (`autoplay`)."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from chalicelib.core.errors import (
    Conflict,
    DomainError,
    Forbidden,
    GameOver,
    NotFound,
    StaleVersion,
    ValidationFailed,
)
from chalicelib.core.game import AnyGame, PendingKind, Viewer, ViewerRole
from chalicelib.core.identity import Caller
from chalicelib.domain.model import LogKind, LogRecord, MoveRecord, Room, RoomStatus, Trigger
from chalicelib.games import get_game
from chalicelib.observability import metrics_count
from chalicelib.rooms.access import actor_for, check_typed_texts, may_hurry
from chalicelib.rooms.autoplay import run_bots
from chalicelib.rooms.deps import RoomDeps, request_hash
from chalicelib.rooms.engine import (
    hides_steps,
    load_state,
    parse_action,
    viewer_json,
)
from chalicelib.rooms.handover import reclaim, returning
from chalicelib.rooms.transitions import apply_action, commit_transition, settle_now, submit_move

ACT_ATTEMPTS = 4
"""How often an action is decided again when another change wins the room's write."""


@dataclass(frozen=True)
class ActOutcome:
    room: Room
    settled: bool
    """True when this request applied a transition (a turn action, or the round it completed)."""
    step: int
    """The step the action belongs to (an old step when a retry found it already recorded)."""
    moves: dict[int, MoveRecord] | None = None
    """A sealed move that left the round waiting: the round's moves as read just after it."""


def _require_active(room: Room) -> None:
    if room.status is RoomStatus.ACTIVE:
        return
    if room.status is RoomStatus.OPEN:
        raise Conflict("游戏尚未开始", code="NOT_STARTED")
    raise GameOver()


def _step_details(game: AnyGame, actor: Viewer, room: Room) -> dict[str, Any]:
    """Where the room is now, for a client that is behind, unless the step count is secret to her."""
    return {} if hides_steps(game, actor) else {"current_step": room.step}


def _retried(deps: RoomDeps, game: AnyGame, room: Room, actor: Viewer, step: int, action: Any) -> ActOutcome:
    """A request for an earlier step: fine if it is the very action already recorded (a phone retry)."""
    wanted = game.dump_action(action)
    log = deps.rooms.get_log(room.id, step) if 0 < step < room.step else None
    if log is not None:
        mine_sealed = log.kind is LogKind.SETTLE and (log.moves or {}).get(str(actor.seat)) == wanted
        mine_applied = log.kind is LogKind.APPLY and log.actor == viewer_json(actor) and log.action == wanted
        if (mine_sealed and actor.role is ViewerRole.PLAYER) or mine_applied:
            return ActOutcome(room=room, settled=False, step=step)
        if log.kind is LogKind.APPLY and actor.role is ViewerRole.PLAYER and actor.seat is not None:
            # her sealed move was stored at that step, then another's action closed the round and
            # carried it on (保皇: a declaration, then someone's 托管): it was accepted all the same
            stored = deps.rooms.list_moves(room.id, step).get(actor.seat)
            if stored is not None and stored.by.submitted and stored.action == wanted:
                return ActOutcome(room=room, settled=False, step=step)
    raise Conflict("这一步已经过去了，请刷新", code="STALE_STEP", **_step_details(game, actor, room))


def _ended_retry(deps: RoomDeps, game: AnyGame, room: Room, actor: Viewer, step: int, raw_action: Any) -> ActOutcome:
    """The game-ending action whose answer was lost, sent again: found in the log, it is answered as
    the first attempt was (rule P7); anything else is GAME_OVER."""
    try:
        return _retried(deps, game, room, actor, step, parse_action(game, raw_action))
    except DomainError:
        raise GameOver() from None


def acted_digest(request_key: str, raw_action: Any) -> str:
    """What `Room.acted` keeps of a player's last keyed action: its key's digest and its body's."""
    return f"{request_hash(request_key)}.{request_hash(raw_action)}"


def _keyed_retry(room: Room, caller: Caller, request_key: str | None, raw_action: Any) -> bool:
    """A player who sends no step: this request (by its Idempotency-Key) is her last applied action
    sent again (refused with IDEMPOTENCY_KEY_REUSED when the key came with another body)."""
    if request_key is None:
        return False
    stored = room.acted.get(caller.user_id)
    if stored == request_hash(request_key, raw_action):  # kept before key and body were apart
        return True
    return _her_last_action(stored, acted_digest(request_key, raw_action))


def _her_last_action(stored: str | None, digest: str) -> bool:
    """True: this request is her last action sent again. Refused: her last action's key with another
    body (a key names one request; reused for another, the phone has lost track of what it sent)."""
    if stored is None:
        return False
    key, _, body = stored.partition(".")
    if key != digest.partition(".")[0]:
        return False
    if body != digest.partition(".")[2]:
        raise ValidationFailed("这个请求编号（Idempotency-Key）已用于另一个行动", code="IDEMPOTENCY_KEY_REUSED")
    return True


def act(deps: RoomDeps, caller: Caller, room_id: str, step: int | None, raw_action: Any,
        family: str | None = None, precheck: Callable[[Room, AnyGame, Viewer], None] | None = None,
        request_key: str | None = None) -> ActOutcome:
    """One action (or sealed move) by the caller for `step` (None: the current step, only where the
    step count is hidden from her; there her `request_key`, the Idempotency-Key, tells a retry of her
    last action from a new one). `precheck` refuses, before anything is written, what would make
    the answer fail (e.g. its reports cursor): a refused request writes nothing.

    Raises:
        Conflict: STEP_AHEAD / STALE_STEP / NOT_STARTED / GAME_OVER …; ValidationFailed: BAD_ACTION;
        whatever `precheck` raises.
    """
    checked: set[tuple[str, ...]] = set()
    for _ in range(ACT_ATTEMPTS):
        try:
            return _act_once(deps, caller, room_id, step, raw_action, family, precheck, request_key, checked)
        except StaleVersion:
            # Another change won the room's write: decide again on the room as it is now. A phone's
            # retry that overlapped its own first attempt then finds its action in the log (answered
            # as the first was, not 409), another's action makes this one STALE_STEP, and a player who
            # sends no step must not learn that something she cannot see (a storyteller's press at
            # night) happened at that moment.
            metrics_count("Retries")
    raise StaleVersion()


def _act_once(deps: RoomDeps, caller: Caller, room_id: str, step: int | None, raw_action: Any,
              family: str | None, precheck: Callable[[Room, AnyGame, Viewer], None] | None,
              request_key: str | None, checked: set[tuple[str, ...]]) -> ActOutcome:
    """One attempt of `act` (StaleVersion when another change won the write). `checked`: the typed
    texts an earlier attempt of this request passed through content security already."""
    room = deps.rooms.get_room(room_id)
    game = get_game(room.game)
    if family is not None and game.family != family:
        raise NotFound(f"这个房间是{game.title}的房间", code="WRONG_FAMILY", family=game.family)
    actor = actor_for(caller, room)
    hidden = hides_steps(game, actor)
    if room.status is RoomStatus.FINISHED and step is not None and 0 < step < room.step:
        return _ended_retry(deps, game, room, actor, step, raw_action)
    if room.status is RoomStatus.FINISHED and hidden and step is None and _keyed_retry(room, caller, request_key,
                                                                                      raw_action):
        return ActOutcome(room=room, settled=False, step=room.step)  # her last action, retried after the end
    _require_active(room)
    action = parse_action(game, raw_action)
    if precheck is not None:
        precheck(room, game, actor)
    acted: tuple[str, str] | None = None
    if hidden:
        if step is not None:  # the same answer for any value: trying steps must not find the count
            raise ValidationFailed("现在不必带 step，直接发送行动即可", code="STEP_HIDDEN")
        step = room.step
        if request_key is not None:
            acted = (caller.user_id, acted_digest(request_key, raw_action))
            if _keyed_retry(room, caller, request_key, raw_action):
                return ActOutcome(room=room, settled=False, step=step)  # her last action, retried
    elif step is None:
        raise ValidationFailed("请带上房间当前的 step", code="VALIDATION_FAILED",
                               errors=[{"loc": ["step"], "type": "missing", "msg": "Field required"}])
    if step > room.step:
        raise Conflict("房间还没到这一步，请刷新", code="STEP_AHEAD", **_step_details(game, actor, room))
    if step < room.step:
        return _retried(deps, game, room, actor, step, action)
    state = load_state(game, room)
    pending = game.pending(state)
    if pending is None:
        raise GameOver()
    texts = game.free_texts(action)
    if texts:
        # her right to send it first: the content check must not judge text for an action she may not
        # send (it would spend the app's WeChat quota for her, and be an oracle that skips chat's limits)
        game.check(state, actor, action)
        if texts not in checked:  # decided again after a lost write: checked, and counted, once
            check_typed_texts(deps, caller, texts)  # refused text is never stored nor shown
            checked.add(texts)
    if returning(room, caller.user_id):  # a player whose seat a bot plays (or a vote would hand over) is back ...
        game.check(state, actor, action)  # ... with an action the game accepts (a refusal writes nothing)
        room = reclaim(deps, room, caller.user_id)
    sealed = pending.kind is PendingKind.SEALED
    if sealed and actor.role is ViewerRole.PLAYER and not game.immediate(state, actor, action):
        assert actor.seat is not None
        done = submit_move(deps, game, room, state, pending.seats, actor.seat, action)
        if not done.settled:
            return ActOutcome(room=done.room, settled=False, step=room.step, moves=done.moves)
        after = done.room
    else:
        trigger = Trigger.HOST if actor.is_host else Trigger.PLAYER
        after = apply_action(deps, game, room, state, pending, actor, action, trigger, acted)
    return ActOutcome(room=run_bots(deps, after), settled=True, step=room.step)


@dataclass(frozen=True)
class Checked:
    refusal: DomainError | None
    """The refusal it would get (None: it would be accepted)."""
    preview: str | None = None
    """What it would tell, for the host (`Game.preview`)."""


def check_only(deps: RoomDeps, caller: Caller, room_id: str, raw_action: Any, family: str) -> Checked:
    """Would this action be accepted now, and what would it tell? Without storing or applying
    anything — so a phone can explain an illegal selection before sending it.

    Raises:
        what the request itself may not do (NOT_IN_ROOM, WRONG_FAMILY, BAD_ACTION …): those are errors
        of the question, not answers to it.
    """
    room = deps.rooms.get_room(room_id)
    game = get_game(room.game)
    if game.family != family:
        raise NotFound(f"这个房间是{game.title}的房间", code="WRONG_FAMILY", family=game.family)
    actor = actor_for(caller, room)
    _require_active(room)
    action = parse_action(game, raw_action)
    state = load_state(game, room)
    try:
        game.check(state, actor, action)
    except DomainError as e:
        return Checked(e)
    return Checked(None, game.preview(state, actor, action, room.rng()))


@dataclass(frozen=True)
class Hurried:
    room: Room
    settled: bool
    """True only when this 催战 settled the round (not a retry, nor one that another settle beat)."""


def hurry(deps: RoomDeps, caller: Caller, room_id: str, step: int) -> Hurried:
    """催战: the creator settles the round now; seats that have not submitted act as the default (待机)."""
    room = deps.rooms.get_room(room_id)
    if not may_hurry(caller, room):
        raise Forbidden("只有开房者可以催战", code="NOT_CREATOR")
    game = get_game(room.game)
    if not game.allows_hurry:
        raise Conflict(f"{game.title}不能催战", code="HURRY_NOT_ALLOWED")
    if 0 <= step < room.step:
        # already settled: a retried 催战 (also the one that ended the game, whose answer was lost)
        return Hurried(room, settled=False)
    _require_active(room)
    if step > room.step:
        raise Conflict("房间还没到这一步，请刷新", code="STEP_AHEAD", current_step=room.step)
    settled, mine = settle_now(deps, room, trigger=Trigger.HURRY)
    return Hurried(run_bots(deps, settled), settled=mine)


def run_timeout(deps: RoomDeps, room: Room, now_ms: int) -> Room | None:
    """The scheduler's action for one room whose deadline has passed: settle, or the game's on_timeout.
    None when there was nothing to do (not due, or someone else settled it first).

    Raises:
        StaleVersion: a turn game's room changed under us (the next sweep looks again).
    """
    if room.status is not RoomStatus.ACTIVE or room.pending is None:
        return None
    deadline = room.pending.deadline_ms
    if deadline is None or deadline > now_ms:
        return None
    if room.bot_seats.keys() & set(room.pending.seats):
        moved = run_bots(deps, room)  # bots a request left owing act first; the deadline still holds
        if moved.version != room.version:
            return moved
    if room.pending.kind is PendingKind.SEALED:
        settled, mine = settle_now(deps, room, trigger=Trigger.DEADLINE)
        return run_bots(deps, settled) if mine else None
    game = get_game(room.game)
    state = load_state(game, room)
    tr = game.on_timeout(state, room.rng())
    log = LogRecord(step=room.step, kind=LogKind.TIMEOUT, label=room.pending.label, trigger=Trigger.DEADLINE,
                    events=game.dump_events(tr.events), at_ms=deps.clock.now_ms())
    new_room = commit_transition(deps, game, room, tr, log)
    metrics_count("Timeouts")
    return run_bots(deps, new_room)
