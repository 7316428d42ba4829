"""One contract, two stores: every test here runs against the in-memory store and the DynamoDB
adapters (on moto). The room service relies on exactly these semantics: put-if-absent creates and
moves, version-guarded saves and all-or-nothing commits, the sparse indexes, signed cursors."""

from __future__ import annotations

from dataclasses import replace

import pytest

from chalicelib.core.errors import Conflict, MalformedRequest, NotFound, RoomCodeTaken, StaleVersion
from chalicelib.core.game import PendingKind
from chalicelib.domain.model import (
    IDLE_OPEN_S,
    ROOM_CODE_LIFE_S,
    Competition,
    LogKind,
    LogRecord,
    MoveRecord,
    MoveSource,
    PendingInfo,
    Room,
    RoomStatus,
    SeatEntry,
)
from chalicelib.domain.ports import (
    ClearEntry,
    Consort,
    MoveSlot,
    RecordIncrement,
    ResultWrite,
    StageCleared,
    User,
)
from chalicelib.store.memory import MemoryStore


class Stores:
    """The three ports of one backing store."""

    def __init__(self, rooms, accounts, records):
        self.rooms, self.accounts, self.records = rooms, accounts, records


@pytest.fixture(params=["memory", "dynamodb"])
def store(request):
    if request.param == "memory":
        mem = MemoryStore(cursor_secret=b"k" * 32)
        return Stores(mem, mem, mem)
    ddb = request.getfixturevalue("ddb")
    from chalicelib.store.accounts import DynamoAccountStore
    from chalicelib.store.dynamodb import DynamoRoomStore
    from chalicelib.store.records import DynamoRecordStore
    from tests.conftest import TABLE

    return Stores(DynamoRoomStore(ddb, TABLE, cursor_secret=b"k" * 32), DynamoAccountStore(ddb, TABLE),
                  DynamoRecordStore(ddb, TABLE))


def room(rid="r1", *, version=0, status=RoomStatus.OPEN, created=1000, game="tally", deadline=None,
         title="T") -> Room:
    pending = PendingInfo(kind=PendingKind.SEALED, seats=(0, 1), deadline_ms=deadline) if deadline else None
    return Room(id=rid, game=game, title=title, status=status, version=version, creator="u0", creator_name="甲",
                max_seats=3, min_seats=2, created_ms=created, updated_ms=created, active_ms=created,
                seats=(SeatEntry(seat=0, user="u0", name="甲"),), pending=pending)


def log(step: int, at: int = 5) -> LogRecord:
    return LogRecord(step=step, kind=LogKind.APPLY, at_ms=at, events=[{"kind": "x", "n": step}])


def move(step: int, seat: int, by=MoveSource.PLAYER, action=None) -> MoveRecord:
    return MoveRecord(step=step, seat=seat, action=action if action is not None else {"type": "pick", "n": seat + 1},
                      by=by, at_ms=7)


# -- rooms ----------------------------------------------------------------------------------------

def test_create_is_put_if_absent_and_get_reads_it_back(store):
    r = room()
    assert store.rooms.create_room(r) is True
    assert store.rooms.create_room(replace_room(r, title="other")) is False
    assert store.rooms.get_room("r1") == r
    with pytest.raises(NotFound) as e:
        store.rooms.get_room("nope")
    assert e.value.code == "ROOM_NOT_FOUND"


def replace_room(r: Room, **update) -> Room:
    return r.model_copy(update=update)


def test_a_hosted_room_keeps_why_undo_cannot_take_back_its_last_transition(store):
    """Platform P4: the reason 撤销 is greyed is kept with the room (no log read for a view)."""
    r = replace_room(room(), undo_block="还没有可以撤销的操作")
    assert store.rooms.create_room(r) is True
    assert store.rooms.get_room("r1").undo_block == "还没有可以撤销的操作"
    store.rooms.save_room(replace_room(r, version=1, undo_block=None), 0)
    assert store.rooms.get_room("r1").undo_block is None


def test_a_room_takes_its_code_with_it_and_a_held_code_writes_nothing(store):
    first = replace_room(room("r1"), code="482913")
    assert store.rooms.create_room(first) is True
    assert store.rooms.find_code("482913") == "r1" and store.rooms.get_room("r1").code == "482913"
    with pytest.raises(RoomCodeTaken):
        store.rooms.create_room(replace_room(room("r2", created=2000), code="482913"))
    with pytest.raises(NotFound):
        store.rooms.get_room("r2")  # the room was not written without its code
    assert store.rooms.find_code("482913") == "r1"
    # the same create again (its id exists): a retry, whatever code it drew this time
    assert store.rooms.create_room(replace_room(room("r1"), code="111111")) is False
    assert store.rooms.find_code("111111") is None and store.rooms.get_room("r1").code == "482913"
    assert store.rooms.find_code("999999") is None


def test_a_users_rooms_come_back_newest_first_as_they_stand_without_their_state(store):
    """「我的对局」 (GET /v1/me/rooms): notes are puts (a second note of a room changes nothing), read
    newest first up to a limit, each room as it stands now — but not its game state or seed, which a
    list has no use for (and a 血染 room's state is the storyteller's grimoire)."""
    for rid, created in (("r1", 1000), ("r2", 3000), ("r3", 2000)):
        store.rooms.create_room(room(rid, created=created))
        store.rooms.add_member("u0", store.rooms.get_room(rid))
    store.rooms.add_member("u0", store.rooms.get_room("r1"))  # noted again (a retried join)
    store.rooms.add_member("u9", store.rooms.get_room("r3"))
    started = replace_room(store.rooms.get_room("r2"), status=RoomStatus.ACTIVE, version=1, state={"secret": 1},
                           seed=b"s" * 32, pending=PendingInfo(kind=PendingKind.SEALED, seats=(0, 2), deadline_ms=9))
    store.rooms.save_room(started, 0)
    rooms = store.rooms.member_rooms("u0", 10)
    assert [r.id for r in rooms] == ["r2", "r3", "r1"]
    assert rooms[0].status is RoomStatus.ACTIVE and rooms[0].version == 1  # as it stands, not as noted
    assert rooms[0].state is None and rooms[0].seed is None
    assert rooms[0].pending == started.pending  # whom it waits on (her 「轮到你」)
    assert rooms[0].seats == started.seats and rooms[0].title == "T" and rooms[0].max_seats == 3
    assert [r.id for r in store.rooms.member_rooms("u0", 2)] == ["r2", "r3"]
    assert [r.id for r in store.rooms.member_rooms("u9", 10)] == ["r3"]
    assert store.rooms.member_rooms("nobody", 10) == []


def test_a_users_notes_marked_done_leave_room_for_live_ones_and_a_new_note_revives_one(store):
    """「我的对局」 after many games: notes of ended rooms are marked done when the list finds them, so
    her 20 newest finished rooms never hide an older live one; joining a room again revives its note.
    More notes than one page (50) are looked through."""
    for i in range(60):
        store.rooms.create_room(room(f"r{i:02d}", created=1000 + i))
        store.rooms.add_member("u0", store.rooms.get_room(f"r{i:02d}"))
    for i in range(1, 60):  # all but the oldest ended; the list found them and marked them
        store.rooms.member_done("u0", store.rooms.get_room(f"r{i:02d}"))
    assert [r.id for r in store.rooms.member_rooms("u0", 20)] == ["r00"]
    store.rooms.add_member("u0", store.rooms.get_room("r30"))  # she joins r30 again
    assert [r.id for r in store.rooms.member_rooms("u0", 20)] == ["r30", "r00"]
    store.rooms.member_done("u0", room("never-noted"))  # nothing to mark: nothing written
    assert [r.id for r in store.rooms.member_rooms("u0", 1)] == ["r30"]


def test_a_list_looks_through_so_many_notes_in_both_stores(store):
    """MEMBER_SCAN notes, done ones included, are looked through (DynamoDB pages count before their
    filter): the same in both stores, so the service cannot rely on more in one of them."""
    from chalicelib.store.table import MEMBER_SCAN

    store.rooms.create_room(room("live", created=1000))
    store.rooms.add_member("u0", store.rooms.get_room("live"))
    for i in range(MEMBER_SCAN):
        store.rooms.create_room(room(f"d{i:03d}", created=2000 + i))
        store.rooms.add_member("u0", store.rooms.get_room(f"d{i:03d}"))
        store.rooms.member_done("u0", store.rooms.get_room(f"d{i:03d}"))
    assert store.rooms.member_rooms("u0", 20) == []  # behind MEMBER_SCAN done notes (they expire soon)


def test_a_code_older_than_its_life_is_given_to_a_new_room(store):
    store.rooms.create_room(replace_room(room("r1", created=1_000_000), code="482913"))
    life_ms = ROOM_CODE_LIFE_S * 1000
    with pytest.raises(RoomCodeTaken):  # its last second
        store.rooms.create_room(replace_room(room("r2", created=1_000_000 + life_ms), code="482913"))
    assert store.rooms.create_room(replace_room(room("r3", created=1_000_000 + life_ms + 1000), code="482913"))
    assert store.rooms.find_code("482913") == "r3" and store.rooms.get_room("r1").code == "482913"


def test_save_is_guarded_by_the_version(store):
    store.rooms.create_room(room())
    store.rooms.save_room(room(version=1, title="v1"), expected_version=0)
    with pytest.raises(StaleVersion):
        store.rooms.save_room(room(version=2, title="lost"), expected_version=0)
    assert store.rooms.get_room("r1").title == "v1"


def test_a_move_is_written_once_and_the_first_one_is_returned_to_a_second_writer(store):
    assert store.rooms.put_move("r1", move(3, 0)) is None
    first = move(3, 0)
    second = move(3, 0, action={"type": "pick", "n": 3})
    assert store.rooms.put_move("r1", second) == first
    store.rooms.put_move("r1", move(3, 1, by=MoveSource.DEFAULT, action={}))
    store.rooms.put_move("r1", move(4, 0))
    got = store.rooms.list_moves("r1", 3)
    assert sorted(got) == [0, 1] and got[0] == first and got[1].by is MoveSource.DEFAULT


def test_moves_made_answers_which_slots_hold_a_submitted_move_in_one_read(store):
    """「我的对局」's 「轮到你」 in a sealed round: her own slot in each of her rooms, read together; a
    placeholder written as a round closed is not a move she made."""
    store.rooms.put_move("r1", move(3, 0))
    store.rooms.put_move("r1", move(3, 1, by=MoveSource.DEFAULT, action={}))
    store.rooms.put_move("r2", move(7, 2, by=MoveSource.BOT))
    slots = [MoveSlot("r1", 3, 0), MoveSlot("r1", 3, 1), MoveSlot("r1", 3, 2), MoveSlot("r1", 4, 0),
             MoveSlot("r2", 7, 2), MoveSlot("r9", 3, 0), MoveSlot("r1", 3, 0)]
    assert store.rooms.moves_made(slots) == {MoveSlot("r1", 3, 0), MoveSlot("r2", 7, 2)}
    assert store.rooms.moves_made([]) == set()
    many = [MoveSlot(f"q{i:03d}", 1, 0) for i in range(150)]  # more than one BatchGetItem takes
    for slot in many[::50]:
        store.rooms.put_move(slot.room_id, move(1, 0))
    assert store.rooms.moves_made(many) == set(many[::50])


def test_commit_writes_room_log_moves_and_side_writes_together(store):
    store.rooms.create_room(room(status=RoomStatus.ACTIVE))
    store.accounts.create_consort(Consort(id="c1", name="甄嬛", looks=1, talent=2, favor=3, power=4))
    store.rooms.commit(
        room(version=1, status=RoomStatus.FINISHED), 0, log(1), moves=(move(1, 1, MoveSource.DEFAULT, {}),),
        side_writes=(ResultWrite(unit="game", outcome={"reason": "done"}, step=1),
                     RecordIncrement(board="tally-free", subject="c1", subject_name="甄嬛",
                                     counters={"games": 1.0, "wins": 1.0}, score_delta=12.5),
                     ClearEntry(stage=1, rounds=6, ended_ms=99, room_id="r1", team=({"seat": 0, "name": "甲"},)),
                     StageCleared(consort_id="c1", stage=1)),
    )
    assert store.rooms.get_room("r1").status is RoomStatus.FINISHED
    assert store.rooms.get_log("r1", 1) == log(1)
    assert store.rooms.list_moves("r1", 1)[1].by is MoveSource.DEFAULT
    assert store.rooms.list_results("r1") == [{"reason": "done"}]
    rec = store.records.record("tally-free", "c1")
    assert (rec["games"], rec["wins"], rec["score"], rec["subject_name"]) == (1, 1, 12.5, "甄嬛")
    assert store.records.fastest(1, 10)[0]["rounds"] == 6
    assert store.accounts.get_consort("c1").cleared_stages == frozenset({1})


@pytest.mark.parametrize("clash", ["version", "log", "move", "result", "consort"])
def test_a_commit_that_fails_any_condition_writes_nothing(store, clash):
    store.rooms.create_room(room(status=RoomStatus.ACTIVE))
    store.accounts.create_consort(Consort(id="c1", name="甄嬛", looks=1, talent=2, favor=3, power=4))
    if clash == "log":
        store.rooms.commit(room(version=1, status=RoomStatus.ACTIVE), 0, log(1))
    if clash == "move":
        store.rooms.put_move("r1", move(1, 1))
    if clash == "result":
        store.rooms.commit(room(version=1, status=RoomStatus.ACTIVE), 0, log(0),
                           side_writes=(ResultWrite(unit="game", outcome={"first": True}),))
        assert store.rooms.list_results("r1") == [{"first": True}]
    version = store.rooms.get_room("r1").version
    expected = version + 7 if clash == "version" else version
    before = store.rooms.get_room("r1")
    with pytest.raises(StaleVersion):
        store.rooms.commit(
            room(version=version + 1, status=RoomStatus.FINISHED, title="new"), expected,
            log(1), moves=(move(1, 1, MoveSource.DEFAULT, {}),),
            side_writes=(ResultWrite(unit="game", outcome={"second": True}),
                         RecordIncrement(board="tally-free", subject="c1", subject_name="甄嬛",
                                         counters={"games": 1.0}, score_delta=5.0),
                         StageCleared(consort_id="c1" if clash != "consort" else "ghost", stage=2)),
        )
    assert store.rooms.get_room("r1") == before
    assert store.records.record("tally-free", "c1") is None
    assert store.accounts.get_consort("c1").cleared_stages == frozenset()
    assert {"second": True} not in store.rooms.list_results("r1")


def test_the_log_lists_in_step_order_after_a_step_with_a_limit(store):
    store.rooms.create_room(room(status=RoomStatus.ACTIVE))
    for step in range(1, 6):
        store.rooms.commit(room(version=step, status=RoomStatus.ACTIVE), step - 1, log(step))
    assert [entry.step for entry in store.rooms.list_log("r1", 2, None)] == [3, 4, 5]
    assert [entry.step for entry in store.rooms.list_log("r1", -1, 2)] == [1, 2]
    assert store.rooms.get_log("r1", 9) is None


def test_results_list_in_the_order_they_happened(store):
    store.rooms.create_room(room(status=RoomStatus.ACTIVE))
    for step, unit in [(1, "deal-2"), (2, "deal-10"), (3, "deal-3")]:
        store.rooms.commit(room(version=step, status=RoomStatus.ACTIVE), step - 1, log(step),
                           side_writes=(ResultWrite(unit=unit, outcome={"unit": unit}, step=step),))
    assert [r["unit"] for r in store.rooms.list_results("r1")] == ["deal-2", "deal-10", "deal-3"]


def test_the_lobby_lists_open_rooms_newest_first_in_signed_pages(store):
    for i in range(5):
        store.rooms.create_room(room(f"r{i}", created=1000 + i))
    store.rooms.create_room(room("other-game", game="relay", created=5000))
    store.rooms.create_room(room("started", status=RoomStatus.ACTIVE, created=6000))
    store.rooms.create_room(room("over", status=RoomStatus.FINISHED, created=7000))
    first = store.rooms.list_lobby("tally", RoomStatus.OPEN, 2, None)
    assert [c.id for c in first.items] == ["r4", "r3"] and first.cursor
    assert first.items[0].seat_count == 1 and first.items[0].game == "tally"
    second = store.rooms.list_lobby("tally", RoomStatus.OPEN, 2, first.cursor)
    assert [c.id for c in second.items] == ["r2", "r1"]
    third = store.rooms.list_lobby("tally", RoomStatus.OPEN, 2, second.cursor)
    assert [c.id for c in third.items] == ["r0"]
    tampered = first.cursor[:-2] + ("AA" if not first.cursor.endswith("AA") else "BB")
    for bad in (tampered, "x", "a.b.c", "%%%", "e30.AAAA"):
        with pytest.raises(MalformedRequest) as e:
            store.rooms.list_lobby("tally", RoomStatus.OPEN, 2, bad)
        assert e.value.code == "BAD_CURSOR"
    with pytest.raises(MalformedRequest):  # a cursor is only good for the list it came from
        store.rooms.list_lobby("relay", RoomStatus.OPEN, 2, first.cursor)
    with pytest.raises(MalformedRequest):
        store.rooms.list_lobby("tally", RoomStatus.ACTIVE, 2, first.cursor)


def test_the_lobby_lists_rooms_under_way_apart_and_drops_them_when_they_end(store):
    store.rooms.create_room(room("waiting", created=1000))
    store.rooms.create_room(room("playing", status=RoomStatus.ACTIVE, created=2000))
    live = store.rooms.list_lobby("tally", RoomStatus.ACTIVE, 10, None)
    assert [(c.id, c.status) for c in live.items] == [("playing", "active")] and live.cursor is None
    playing = store.rooms.get_room("playing")
    store.rooms.commit(playing.model_copy(update={"status": RoomStatus.FINISHED, "version": playing.version + 1}),
                       playing.version, log(1))
    assert store.rooms.list_lobby("tally", RoomStatus.ACTIVE, 10, None).items == []
    assert [c.id for c in store.rooms.list_lobby("tally", RoomStatus.OPEN, 10, None).items] == ["waiting"]


def test_due_rooms_are_active_rooms_past_their_deadline(store):
    store.rooms.create_room(room("due", status=RoomStatus.ACTIVE, deadline=500))
    store.rooms.create_room(room("later", status=RoomStatus.ACTIVE, deadline=5000))
    store.rooms.create_room(room("open", deadline=100))
    store.rooms.create_room(room("none", status=RoomStatus.ACTIVE))
    assert store.rooms.due_rooms(1000, 10) == ["due"]


def test_idle_rooms_are_live_rooms_past_their_bucketed_idle_expiry(store):
    store.rooms.create_room(room("idle", created=0))
    store.rooms.create_room(room("fresh", created=10 * 60 * 1000 * 1000))
    store.rooms.create_room(room("done", status=RoomStatus.FINISHED, created=0))
    now = IDLE_OPEN_S * 1000 + 5 * 60 * 1000
    assert store.rooms.idle_rooms(now, 10) == ["idle"]


def test_watchers(store):
    assert not store.rooms.is_watcher("r1", "u1")
    store.rooms.add_watcher("r1", "u1", 5)
    assert store.rooms.is_watcher("r1", "u1") and not store.rooms.is_watcher("r1", "u2")


def test_password_checks_are_limited_per_sliding_window(store):
    window, t0 = 600_000, 10**12
    reserve = store.rooms.reserve_password_check
    # None: taken; a number: refused, and how long until the oldest check leaves the window
    assert [reserve("r1", "u1", t0 + i * 1000, window, 3) for i in range(5)] == [
        None, None, None, window - 3000, window - 4000]
    assert reserve("r1", "u2", t0, window, 3) is None  # per user
    assert reserve("r2", "u1", t0, window, 3) is None  # per room
    # the window slides: the first check leaves it 10 minutes after it was made, then the second…
    assert reserve("r1", "u1", t0 + window - 1, window, 3) == 1
    assert reserve("r1", "u1", t0 + window + 1, window, 3) is None
    assert reserve("r1", "u1", t0 + window + 2, window, 3) == 998
    assert reserve("r1", "u1", t0 + window + 1001, window, 3) is None


def test_room_openings_are_limited_per_user_and_sliding_window(store):
    window, t0 = 3_600_000, 10**12
    reserve = store.rooms.reserve_room_opening
    assert [reserve("u1", f"r{i}", t0 + i * 1000, window, 2) for i in range(3)] == [None, None, window - 2000]
    assert reserve("u1", "r1", t0 + 5000, window, 2) is None  # r1's opening, asked again: a retry, not a third
    assert reserve("u2", "r0", t0, window, 2) is None  # per user
    assert store.rooms.reserve_password_check("r1", "u1", t0, window, 1) is None  # apart from her 暗号 checks
    assert reserve("u1", "r3", t0 + window + 1, window, 2) is None  # the first opening left the hour
    assert reserve("u1", "r4", t0 + window + 2, window, 2) == 998  # r1's (t0 + 1 s) is still in it


def test_content_checked_texts_are_limited_per_user_and_sliding_window(store):
    window, t0 = 300_000, 10**12
    reserve = store.rooms.reserve_text_check
    assert [reserve("u1", t0 + i * 1000, window, 2) for i in range(3)] == [None, None, window - 2000]
    assert reserve("u2", t0, window, 2) is None  # per user (whatever room she types in: one ring)
    # apart from her 暗号 checks and her openings
    assert store.rooms.reserve_password_check("r1", "u1", t0 + 3000, window, 1) is None
    assert store.rooms.reserve_room_opening("u1", "r9", t0 + 3000, window, 1) is None
    assert reserve("u1", t0 + 3000, window, 2) == window - 3000  # and they took none of hers
    assert reserve("u1", t0 + window + 1, window, 2) is None  # the first left the window
    assert reserve("u1", t0 + window + 2, window, 2) == 998  # the second (t0 + 1 s) is still in it


# -- accounts -------------------------------------------------------------------------------------

def test_a_user_keeps_her_consort_when_she_logs_in_again(store):
    u = store.accounts.ensure_user(User(id="u1", name="甲", role="player", created_ms=5), "oid")
    assert u.consort is None and store.accounts.get_user("u1") == u
    store.accounts.create_consort(Consort(id="c1", name="甄嬛", looks=1, talent=2, favor=3, power=4))
    store.accounts.claim_consort("c1", u)
    again = store.accounts.ensure_user(User(id="u1", name="甲2", role="admin", created_ms=9), "oid")
    assert (again.name, again.role, again.consort, again.created_ms) == ("甲2", "admin", "c1", 5)
    unnamed = store.accounts.ensure_user(User(id="u1", name="宫人0001", role="player", created_ms=9), "oid",
                                         keep_name=True)
    assert (unnamed.name, unnamed.role, unnamed.consort) == ("甲2", "player", "c1")  # her name stays
    new = store.accounts.ensure_user(User(id="u9", name="宫人0009", role="player", created_ms=9), "o9", keep_name=True)
    assert new.name == "宫人0009" == store.accounts.get_user("u9").name
    assert store.accounts.get_user("nobody") is None


def test_consorts_are_created_once_claimed_once_and_granted_maids(store):
    c = Consort(id="c1", name="甄嬛", looks=60, talent=70, favor=80, power=50, maids={"xunyi": 1})
    store.accounts.create_consort(c)
    with pytest.raises(Conflict) as e:
        store.accounts.create_consort(c)
    assert e.value.code == "CONSORT_EXISTS"
    store.accounts.create_consort(replace(c, id="c2", name="华妃"))
    a = store.accounts.ensure_user(User(id="ua", name="甲", role="player"), "a")
    b = store.accounts.ensure_user(User(id="ub", name="乙", role="player"), "b")
    store.accounts.claim_consort("c1", a)
    store.accounts.claim_consort("c1", a)  # retried: fine
    with pytest.raises(Conflict) as e:
        store.accounts.claim_consort("c1", b)
    assert e.value.code == "CONSORT_TAKEN"
    with pytest.raises(Conflict) as e:
        store.accounts.claim_consort("c2", a)
    assert e.value.code == "ALREADY_HAS_CONSORT"
    with pytest.raises(NotFound):
        store.accounts.claim_consort("ghost", b)
    granted = store.accounts.grant_maid("c1", "zhenzhu", 3)
    assert granted.maids == {"xunyi": 1, "zhenzhu": 3} and granted.owner == "ua"
    with pytest.raises(NotFound):
        store.accounts.grant_maid("ghost", "zhenzhu", 1)
    assert [x.id for x in store.accounts.list_consorts()] == ["c1", "c2"]
    assert set(store.accounts.get_consorts(["c1", "c1", "ghost"])) == {"c1"}


def test_open_games_setting(store):
    assert store.accounts.get_open_games() is None
    assert store.accounts.update_open_games({"tally": False}) == {"tally": False}
    assert store.accounts.get_open_games() == {"tally": False}


def test_open_games_changes_merge_key_by_key(store):
    """Two admins who each read the settings and then change a different game: both changes stay
    (the old whole-map write kept only the last)."""
    store.accounts.update_open_games({"tally": False, "relay": False})
    assert store.accounts.update_open_games({"tally": True}) == {"tally": True, "relay": False}
    assert store.accounts.update_open_games({"relay": True}) == {"tally": True, "relay": True}
    assert store.accounts.get_open_games() == {"tally": True, "relay": True}


# -- records --------------------------------------------------------------------------------------

def test_boards_rank_by_score_and_count_who_is_above(store):
    store.rooms.create_room(room(status=RoomStatus.ACTIVE))
    scores = {"a": 10.0, "b": 30.5, "c": 20.0, "d": 20.0}
    writes = tuple(RecordIncrement(board="tally-free", subject=s, subject_name=s.upper(),
                                   counters={"games": 1.0, "kills": 2.0}, score_delta=v) for s, v in scores.items())
    store.rooms.commit(room(version=1, status=RoomStatus.ACTIVE), 0, log(1), side_writes=writes)
    store.rooms.commit(room(version=2, status=RoomStatus.ACTIVE), 1, log(2), side_writes=(
        RecordIncrement(board="tally-free", subject="a", subject_name="A", counters={"games": 1.0},
                        score_delta=15.0),))
    top = store.records.top("tally-free", 3)
    assert [(r.subject, r.score, r.games) for r in top[:1]] == [("b", 30.5, 1)]
    assert {r.subject for r in top} == {"b", "a"} | ({"c"} if top[2].subject == "c" else {"d"})
    assert top[1].subject == "a" and top[1].games == 2 and top[1].kills == 2.0
    assert store.records.count_above("tally-free", 20.0) == 2
    assert store.records.count_above("tally-free", 99.0) == 0
    assert store.records.top("other", 3) == []


def test_fastest_clears_rank_by_rounds_then_time(store):
    store.rooms.create_room(room(status=RoomStatus.ACTIVE))
    clears = [ClearEntry(stage=2, rounds=r, ended_ms=t, room_id=f"x{r}{t}", team=({"seat": 0, "name": "甲"},))
              for r, t in [(9, 1), (5, 20), (5, 10), (12, 0)]]
    store.rooms.commit(room(version=1, status=RoomStatus.ACTIVE), 0, log(1), side_writes=tuple(clears))
    assert [(c["rounds"], c["ended_ms"]) for c in store.records.fastest(2, 3)] == [(5, 10), (5, 20), (9, 1)]
    assert store.records.fastest(1, 3) == []
    assert store.records.fastest(2, 3, Competition.TOURNAMENT) == []  # 自由赛 clears stay on their board


def test_a_tournament_clear_is_on_the_tournament_board_only(store):
    store.rooms.create_room(room(status=RoomStatus.ACTIVE))
    clear = ClearEntry(stage=1, rounds=4, ended_ms=7, room_id="t1", team=({"seat": 0, "name": "甲"},),
                       competition=Competition.TOURNAMENT)
    store.rooms.commit(room(version=1, status=RoomStatus.ACTIVE), 0, log(1), side_writes=(clear,))
    assert [c["room"] for c in store.records.fastest(1, 3, Competition.TOURNAMENT)] == ["t1"]
    assert store.records.fastest(1, 3) == []


def test_a_cursor_signed_before_a_key_rotation_still_pages():
    """Cursors are signed with the current key and verified with every key of the ring."""
    from chalicelib.store.cursors import CursorCodec

    old, new = b"o" * 32, b"n" * 32
    before = CursorCodec(old).encode({"k": 1}, scope="lobby:x")
    assert CursorCodec([new, old]).decode(before, scope="lobby:x") == {"k": 1}
    with pytest.raises(MalformedRequest):
        CursorCodec([new]).decode(before, scope="lobby:x")


def test_a_deferred_room_leaves_the_due_rooms_until_then_or_until_it_changes(store):
    store.rooms.create_room(room("r-due", version=2, status=RoomStatus.ACTIVE, deadline=1_000))
    due = store.rooms.get_room("r-due")
    assert store.rooms.due_rooms(2_000, 10) == ["r-due"]
    store.rooms.defer_due("r-due", 1, 9_000)  # a stale version defers nothing
    assert store.rooms.due_rooms(2_000, 10) == ["r-due"]
    store.rooms.defer_due("r-due", 2, 9_000)
    assert store.rooms.due_rooms(2_000, 10) == []
    assert store.rooms.due_rooms(9_000, 10) == ["r-due"]
    store.rooms.save_room(due.model_copy(update={"version": 3}), 2)  # its next save: back at its deadline
    assert store.rooms.due_rooms(2_000, 10) == ["r-due"]
    store.rooms.defer_due("ghost", 1, 9_000)  # no such room: nothing happens
