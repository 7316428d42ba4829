"""Committed changes reach the sockets through the stream handler: one notice per committed version
of a watched room, none for other rooms, none for an image older than what she was told of (a late
or redelivered record), gone and expired connections removed, the chat helper's hook called with
the transition's trigger and presence. (On the in-memory stores; the moto path is in
test_stream_integration.)"""

from __future__ import annotations

from chalicelib.core.identity import Caller
from chalicelib.rooms import lobby, play

A, B, C, D, E, F, G = (Caller(user_id=f"u{i}", name=n) for i, n in enumerate("甲乙丙丁戊己庚"))


def tally(h, owner: Caller, *joiners: Caller, rounds: int = 3, password: str | None = None) -> str:
    room = lobby.create_room(h.rooms, owner, "tally", {"rounds": rounds, "turn_seconds": 30}, password, None)
    for c in joiners:
        lobby.join_room(h.rooms, c, room.id, password)
    return room.id


def move(h, who: Caller, rid: str, n: int = 1) -> None:
    play.act(h.rooms, who, rid, h.store.get_room(rid).step, {"type": "pick", "n": n})


def version(h, rid: str) -> int:
    return h.store.get_room(rid).version


def test_a_subscriber_hears_every_committed_version_of_its_room_and_nothing_of_another(h):
    room, other_room = tally(h, A, B, C), tally(h, D, E, F)
    player, spectator, other = h.socket(B, room), h.socket(G, room), h.socket(E, other_room)
    h.pump()
    assert [h.sockets.changes(c) for c in (player, spectator, other)] == [[], [], []]

    # one write at a time: a sealed move is not announced (it changes only who has submitted); the
    # last one settles the round, a new version, which everyone hears of
    before = version(h, room)
    for who, heard in ((A, []), (B, []), (C, [room])):
        move(h, who, room)
        h.pump()
        assert h.sockets.changes(player) == heard and h.sockets.changes(spectator) == heard
        assert h.sockets.changes(other) == []
    assert version(h, room) == before + 1
    # the settlement's notice names its version (her view shows it anyway): a phone that holds it skips it
    assert h.sockets.versions(player) == h.sockets.versions(spectator) == [before + 1]

    # many writes in one batch: one notice per committed version
    before, before_other = version(h, room), version(h, other_room)
    for who in (A, B, C):
        move(h, who, room)
    for who in (D, E, F):
        move(h, who, other_room)
    for who in (A, B, C):
        move(h, who, room)
    h.pump()
    assert version(h, room) - before == 2 and version(h, other_room) - before_other == 1
    assert h.sockets.changes(player) == [room] * 2 and h.sockets.changes(spectator) == [room] * 2
    assert h.sockets.changes(other) == [other_room]


def test_a_sealed_move_that_leaves_one_seat_to_move_is_told_only_to_whoever_may_hurry(h):
    """催战 is for the last seat still thinking: the move that leaves exactly one other seat to move is
    told to the creator (no version: the room's has not changed, her phone must ask), not to the other
    seats or spectators, who hear only the settlement. A move that leaves two, her own move, or one that
    leaves only her own seat is told to nobody."""
    room = tally(h, A, B, C)
    creator, player, spectator = h.socket(A, room), h.socket(B, room), h.socket(G, room)
    h.pump()
    for who, told in ((A, []), (B, [room])):  # after 甲 (her own) two seats are left; after 乙, one: 丙
        move(h, who, room)
        h.pump()
        assert h.sockets.changes(creator) == told and h.sockets.versions(creator) == [None] * len(told)
        assert h.sockets.changes(player) == h.sockets.changes(spectator) == []
    move(h, C, room)  # the last move settles the round: a new version, which everyone hears of
    h.pump()
    assert [h.sockets.changes(c) for c in (creator, player, spectator)] == [[room]] * 3
    assert h.sockets.versions(creator) == [version(h, room)]
    other = tally(h, A, B, C)
    mover = h.socket(A, other)
    move(h, B, other)
    move(h, C, other)  # one seat left, and it is hers: she knows
    h.pump()
    assert h.sockets.changes(mover) == []


def test_an_image_older_than_her_subscription_is_not_announced(h):
    room = tally(h, A, B)
    lobby.join_room(h.rooms, C, room, None)  # starts the game
    cid = h.socket(A, room)  # the opening is still on its way through the stream
    h.pump()
    assert h.sockets.changes(cid) == []
    for who in (A, B, C):
        move(h, who, room)
    h.pump()
    assert h.sockets.changes(cid) == [room]


def test_a_redelivered_batch_tells_a_hidden_step_viewer_nothing_twice(h):
    """Lambda retries a failed batch: whoever is told by her view's tag hears nothing twice (a viewer
    who sees every version may hear a retried batch again: one fetch, answered 304)."""
    host = Caller(user_id="st", name="说书人")
    room = lobby.create_room(h.rooms, host, "ledger", {}, None, None).id
    for p in (A, B):
        lobby.join_room(h.rooms, p, room, None)
    lobby.start_room(h.rooms, host, room)
    ca, cb = h.socket(A, room), h.socket(B, room)
    for text in ("一", "二"):
        play.act(h.rooms, host, room, h.store.get_room(room).step, {"type": "note", "text": text})
    batch = list(h.store.stream)
    h.pump()
    assert (h.sockets.changes(ca), h.sockets.changes(cb)) == ([room] * 2, [room] * 2)
    h.store.stream.extend(batch)
    assert h.pump().notices == 0
    assert (h.sockets.changes(ca), h.sockets.changes(cb)) == ([], [])


def test_a_gone_connection_is_removed_with_all_its_subscriptions(h):
    room, other_room = tally(h, A, B, C), tally(h, D, E, F)
    stale, fresh = h.socket(A, room, other_room), h.socket(B, room)
    h.sockets.gone.add(stale)  # the phone went away without a goodbye: the gateway answers 410
    for who in (A, B, C):
        move(h, who, room)
    report = h.pump()
    assert report.gone == 1
    assert h.push.store.get_connection(stale) is None
    assert [s.connection_id for s in h.push.store.subscriptions(room)] == [fresh]
    assert h.push.store.subscriptions(other_room) == []
    assert h.sockets.changes(fresh) == [room]


def test_a_subscription_left_without_its_connection_is_removed_at_its_first_410(h):
    """A subscribe that raced the disconnect can leave ROOM#r/SUB#c with no CONN#c to find it by: the
    first notice that meets 410 deletes the subscription itself, so no later change posts to it."""
    room = tally(h, A, B, C)
    orphan = h.socket(A, room)
    h.push.store.connections.pop(orphan)  # the connection record went first
    h.sockets.gone.add(orphan)
    for who in (A, B, C):
        move(h, who, room)
    assert h.pump().gone == 1 and h.push.store.subscriptions(room) == []
    for who in (A, B, C):
        move(h, who, room)
    assert h.pump().gone == 0


def test_an_odd_stream_record_is_skipped_and_the_batch_goes_on(h):
    """The stream handler never raises: a record it cannot read is counted, the others are announced."""
    from chalicelib.push.fanout import handle_records, wanted

    room = tally(h, A, B, C)
    cid = h.socket(B, room)
    for who in (A, B, C):  # the round settles: the room's image changes
        move(h, who, room)
    good = [r for r in h.store.stream if wanted(r)]
    odd = [
        {"eventName": "INSERT", "dynamodb": {"Keys": {"pk": {"S": f"ROOM#{room}"}, "sk": {"S": "MOVE#1"}}}},
        {"eventName": "INSERT", "dynamodb": {"Keys": {"pk": {"S": f"ROOM#{room}"}, "sk": {"S": "MOVE#x#y"}}}},
        {"eventName": "MODIFY", "dynamodb": None},
        {"eventName": "MODIFY", "dynamodb": {"Keys": {"pk": {"N": "1"}, "sk": "ROOM"}}},
    ]
    h.store.stream.clear()
    report = handle_records(h.push, [*odd, *good])
    assert report.errors == 2 and report.notices >= 1
    assert set(h.sockets.changes(cid)) == {room}


def test_an_expired_connection_is_closed_and_forgotten(h):
    room = tally(h, A, B, C)
    cid = h.socket(A, room)
    h.clock.advance(2 * 3600 + 1)  # past the token's life and the gateway's 2 hours
    play.hurry(h.rooms, A, room, h.store.get_room(room).step)
    report = h.pump()
    assert report.expired == 1 and h.sockets.closed == [cid]
    assert h.push.store.get_connection(cid) is None and h.push.store.subscriptions(room) == []
    assert h.sockets.take(cid) == []


def test_disconnect_forgets_the_connection_and_every_subscription(h):
    from chalicelib.push import service

    room, other_room = tally(h, A, B, C), tally(h, D, E, F)
    cid = h.socket(A, room, other_room)
    service.disconnect(h.push, cid)
    assert h.push.store.get_connection(cid) is None
    assert h.push.store.subscriptions(room) == [] and h.push.store.subscriptions(other_room) == []
    move(h, A, room)
    h.pump()
    assert h.sockets.take(cid) == []


def test_who_may_no_longer_watch_is_told_so_and_forgotten(h):
    room = tally(h, A, B, password="梅花")
    cid = h.socket(B, room)  # seated: no 暗号 needed to watch
    lobby.leave_room(h.rooms, B, room)
    h.pump()
    assert h.sockets.take(cid) == [{"type": "unsubscribed", "room": room}]
    assert h.push.store.subscriptions(room) == []


def test_the_chat_helpers_hook_gets_each_transition_with_its_trigger_and_presence(h):
    room = tally(h, A, B, C)
    h.socket(C, room)
    h.pump()
    assert h.notices[-1][2] == "auto"  # the third join started it
    h.notices.clear()
    step = h.store.get_room(room).step
    move(h, A, room)
    play.hurry(h.rooms, A, room, step)  # 催战
    h.pump()
    assert len(h.notices) == 1
    old, new, trigger, watching = h.notices[0]
    assert (new, trigger) == (old + 1, "hurry")
    assert watching == {"u0": False, "u1": False, "u2": True}


def test_a_change_fanned_out_while_she_subscribes_is_not_lost(h, monkeypatch):
    """Issue #13 (a subscriber receives a change notice for every committed version): a change committed
    and fanned out between subscribe's read of the room and the write of her subscription could reach
    nobody — so the answer looks again, and says `changed` (with or without the ETag she held)."""
    from chalicelib.rooms.views import view_tag
    from chalicelib.store.memory_push import MemoryPushStore

    rid = tally(h, A, B, C)
    move(h, A, rid)
    move(h, B, rid)
    held = view_tag(h.rooms, B, h.store.get_room(rid))  # the view B's phone holds
    real = MemoryPushStore.subscribe

    def late_write(self, sub, max_rooms):  # another Lambda: C's move settles the round, fanned out first
        if h.store.get_room(rid).step == 1:
            move(h, C, rid)
            h.pump()
        return real(self, sub, max_rooms)

    monkeypatch.setattr(MemoryPushStore, "subscribe", late_write)
    with_tag = h.say(h.connect(B), {"action": "subscribe", "room": rid, "etag": held})
    assert with_tag["changed"] is True and h.store.get_room(rid).step == 2
    monkeypatch.setattr(MemoryPushStore, "subscribe", real)
    assert h.say(h.connect(C), {"action": "subscribe", "room": rid}) == {"type": "subscribed", "room": rid}

    def late_write_again(self, sub, max_rooms):
        move(h, A, rid)  # a sealed move: the room moves on only when it is the last
        move(h, B, rid)
        move(h, C, rid)
        h.pump()
        return real(self, sub, max_rooms)

    monkeypatch.setattr(MemoryPushStore, "subscribe", late_write_again)
    assert h.say(h.connect(C), {"action": "subscribe", "room": rid})["changed"] is True  # without a tag too
