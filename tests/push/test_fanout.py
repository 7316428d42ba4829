"""Committed changes reach the sockets through the stream handler: one notice per committed version
of a watched room, none for other rooms, none for an image older than what she was told of (a late
or redelivered record), gone and expired connections removed, the chat helper's hook called with
the transition's trigger and presence. (On the in-memory stores; the moto path is in
test_stream_integration.)"""

from __future__ import annotations

import json

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

    # one write at a time: a sealed move changes no version (its own notice, `sealed`, asks no fetch:
    # test_a_sealed_move_is_told_by_step_and_seat…); the last one settles the round, a new version,
    # which everyone hears of
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


def test_a_sealed_move_is_told_by_step_and_seat_to_every_viewer_but_its_own_player(h):
    """Who has sealed is in every viewer's view (`pending.submitted`), so each one who sees the step
    counter — the other players, the creator, a spectator — is told of each sealed move by the round's
    step and the seat, and nothing else: no version, so her phone fetches nothing, and no 催战 notice
    besides (her button is worked out from these). Not the mover (her move's answer showed it); not the
    round's last move, whose settlement is a new version that everyone hears of."""
    room = tally(h, A, B, C)
    creator, player, spectator, mover = h.socket(A, room), h.socket(B, room), h.socket(G, room), h.socket(C, room)
    h.pump()
    step = h.store.get_room(room).step
    for who, seat in ((A, 0), (B, 1)):  # after 乙 one seat is left: 丙, which 催战 is for
        move(h, who, room)
        h.pump()
        for cid, caller in ((creator, A), (player, B), (spectator, G), (mover, C)):
            assert h.sockets.sealed(cid) == ([] if caller == who else [(room, step, seat)])
            assert h.sockets.changes(cid) == []  # nothing to fetch, the creator included
    move(h, C, room)  # the last move settles the round: a new version, and no sealed notice
    h.pump()
    for cid in (creator, player, spectator, mover):  # (丙's own answer carried it: test_the_player_whose…)
        assert h.sockets.sealed(cid) == [] and h.sockets.changes(cid) == ([] if cid == mover else [room])
    # many moves in one batch: each told, with the room as it stands (a new round, step + 1)
    move(h, A, room)
    move(h, B, room)
    h.pump()
    assert h.sockets.sealed(spectator) == [(room, step + 1, 0), (room, step + 1, 1)]
    assert h.sockets.sealed(mover) == [(room, step + 1, 0), (room, step + 1, 1)]
    assert h.sockets.sealed(creator) == [(room, step + 1, 1)] and h.sockets.sealed(player) == [(room, step + 1, 0)]


def test_the_player_whose_move_settled_the_round_is_not_told_what_her_answer_carried(h):
    """The round's last move settles it in its own transaction, and her move's answer carries the view
    after it: a notice of that version would be skipped by her phone, and a WebSocket message is paid
    for. So she is not sent it — on her only subscription to the room; with a second one (another
    phone, or the lobby listening) both are told, as is everyone else. When a batch holds more than one
    player's move of the round, which one settled it is not known: everyone is told."""
    room = tally(h, A, B, C, rounds=6)
    a, b, c = h.socket(A, room), h.socket(B, room), h.socket(C, room)
    h.pump()
    move(h, A, room)
    move(h, B, room)
    h.pump()
    h.sockets.take(a), h.sockets.take(b), h.sockets.take(c)
    move(h, C, room)
    h.pump()
    assert (h.sockets.changes(a), h.sockets.changes(b), h.sockets.changes(c)) == ([room], [room], [])
    other_phone = h.socket(A, room)  # 甲 on two phones: each may need the notice
    h.pump()
    move(h, B, room)
    move(h, C, room)
    h.pump()
    h.sockets.take(a), h.sockets.take(b), h.sockets.take(c), h.sockets.take(other_phone)
    move(h, A, room)
    h.pump()
    assert [h.sockets.changes(x) for x in (a, other_phone, b, c)] == [[room]] * 4
    for who in (A, B, C):  # the whole round in one batch: whose move settled it is not known
        move(h, who, room)
    h.pump()
    assert [h.sockets.changes(x) for x in (a, other_phone, b, c)] == [[room]] * 4
    move(h, C, room)  # 丙 seals and, in the same batch, 甲's 催战 settles the round: 丙's answer did not
    play.hurry(h.rooms, A, room, h.store.get_room(room).step)  # carry that version, so she is told
    h.pump()
    assert h.sockets.changes(c) == [room]


def test_a_sealed_notice_carries_the_step_and_the_seat_and_never_the_move(h):
    """The stream record holds the whole move item (its action among it): the notice is built from its
    key alone. Exactly `{"type": "sealed", "room": R, "step": S, "seat": k}`."""
    room = tally(h, A, B, C)
    cid = h.socket(B, room)
    h.pump()
    step = h.store.get_room(room).step
    play.act(h.rooms, A, room, step, {"type": "pick", "n": 3})
    record = next(r for r in h.store.stream if r["dynamodb"]["Keys"]["sk"]["S"].startswith("MOVE#"))
    assert '"pick"' in record["dynamodb"]["NewImage"]["action"]["S"]  # the move is on the stream …
    h.pump()
    got = h.sockets.take(cid)
    assert got == [{"type": "sealed", "room": room, "step": step, "seat": 0}]  # … and not on the socket
    assert "pick" not in json.dumps(got) and "action" not in json.dumps(got)


def test_no_sealed_notice_of_a_settled_round_nor_of_a_placeholder(h):
    """A move whose round has settled by the time its record is read (the settlement's own notice told
    everyone), and the placeholders a settlement writes for the seats that did not move, tell nothing."""
    from chalicelib.push.fanout import handle_records

    room = tally(h, A, B, C)
    cid = h.socket(B, room)
    h.pump()
    step = h.store.get_room(room).step
    move(h, A, room)
    play.hurry(h.rooms, A, room, step)  # 催战: placeholders for 乙 and 丙, the round settles
    placeholders = [r for r in h.store.stream if r["dynamodb"]["Keys"]["sk"]["S"].startswith("MOVE#")
                    and r["dynamodb"]["NewImage"]["by"]["S"] == "default"]
    assert len(placeholders) == 2
    h.pump()
    assert h.sockets.sealed(cid) == [] and h.sockets.changes(cid) == [room]
    # a placeholder of the round in progress (a record read however late) is no sealed move either
    now = h.store.get_room(room).step
    late = json.loads(json.dumps(placeholders[0]))
    late["dynamodb"]["Keys"]["sk"]["S"] = f"MOVE#{now:06d}#02"
    assert handle_records(h.push, [late]).notices == 0
    assert h.sockets.take(cid) == []


def test_a_bots_move_written_with_the_round_it_opens_is_no_sealed_notice(h):
    """The transaction that opens a round writes the bots' moves with it: that round's notice makes her
    fetch its view, which shows them sealed already — no sealed notice besides. A player's move is told."""
    from chalicelib.core.game import BotLevel

    room = lobby.create_room(h.rooms, A, "tally", {"rounds": 3, "turn_seconds": 30}, None, None).id
    lobby.join_room(h.rooms, B, room, None)
    cid = h.socket(B, room)
    lobby.add_bots(h.rooms, A, room, BotLevel.SIMPLE, 1)  # the third seat: the game starts
    bots = [r for r in h.store.stream if r["dynamodb"]["Keys"]["sk"]["S"].startswith("MOVE#")]
    assert [r["dynamodb"]["NewImage"]["by"]["S"] for r in bots] == ["bot"]
    h.pump()
    assert h.sockets.sealed(cid) == [] and h.sockets.changes(cid) == [room]
    pending = h.store.get_room(room)
    assert 2 in {s for s, m in h.store.list_moves(room, pending.step).items() if m.by.submitted}
    move(h, A, room)
    h.pump()
    assert h.sockets.sealed(cid) == [(room, pending.step, 0)]


def test_no_sealed_notice_to_a_viewer_from_whom_the_steps_are_hidden(h, monkeypatch):
    """A viewer whose view shows no step counter is told nothing of a sealed move: the notice names the
    step, and counting notices must not tell her what polling her own view would not."""
    from chalicelib.games import get_game

    room = tally(h, A, B, C)
    player, spectator = h.socket(B, room), h.socket(G, room)
    h.pump()
    move(h, A, room)
    monkeypatch.setattr(type(get_game("tally")), "hidden_steps", True)  # as the fan-out reads it
    assert h.pump().notices == 0
    assert h.sockets.take(player) == [] and h.sockets.take(spectator) == []


def test_a_sealed_notice_skips_expired_and_forgets_gone_connections(h):
    room = tally(h, A, B, C)
    gone, fresh = h.socket(B, room), h.socket(G, room)
    h.pump()
    h.sockets.gone.add(gone)
    move(h, A, room)
    report = h.pump()
    assert report.gone == 1 and report.notices == 1
    assert h.push.store.get_connection(gone) is None and len(h.sockets.sealed(fresh)) == 1
    h.clock.advance(2 * 3600 + 1)  # past the token's life: nothing posted (the room's next change closes it)
    move(h, B, room)
    assert h.pump().notices == 0 and h.sockets.take(fresh) == []


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
