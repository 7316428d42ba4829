"""Reports read incrementally: `cursor=<next_cursor>` answers only what is new, reading the log with
Queries bounded by the cursor — nothing but the room item when nothing is new (no Query: the room's
step says no log entry can be newer). For a viewer who must
not count the steps (血染甄嬛传's players) the cursor is sealed: she cannot read it, it is new on
every answer whether or not steps passed, and it works for her alone. (Service level on the
in-memory store, counting the items each read returns; the DynamoDB figures are in the benchmark.)"""

from __future__ import annotations

import pytest

from chalicelib.core.errors import MalformedRequest
from chalicelib.rooms import views
from tests.push.harness import harness
from tests.push.zhenhuan import ST, Table

SEED = bytes([2]) + bytes(31)


class Reads:
    """Items the room store returns to the reports endpoint (rooms and log entries), and the log
    Queries it sends."""

    def __init__(self, store) -> None:
        self.items = {"room": 0, "log": 0, "queries": 0}
        get_room, list_log = store.get_room, store.list_log

        def counted_room(room_id):
            self.items["room"] += 1
            return get_room(room_id)

        def counted_log(room_id, after_step, limit):
            out = list_log(room_id, after_step, limit)
            self.items["log"] += len(out)
            self.items["queries"] += 1
            return out

        store.get_room, store.list_log = counted_room, counted_log

    def during(self, fn):
        self.items = {"room": 0, "log": 0, "queries": 0}
        return fn(), dict(self.items)


@pytest.fixture
def table(fake_games):
    t = Table.open(harness(seed=SEED))
    t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
    t.do({"type": "begin"})
    while t.step_night():
        pass
    t.do({"type": "dawn"})
    return t


def read(t: Table, who, cursor: str | None = None, after: int = 0, limit: int = 100) -> dict:
    return views.reports(t.h.rooms, who, t.room, "zhenhuan", after, limit, cursor)


def test_a_sealed_cursor_reads_only_what_is_new(table):
    t, me = table, table.players[0]
    reads = Reads(t.h.store)
    first, cost = reads.during(lambda: read(t, me))
    assert [r["step"] for r in first["reports"]] == list(range(1, len(first["reports"]) + 1))
    assert first["next_after"] == len(first["reports"]) and first["next_cursor"].startswith("r1.")
    assert read(t, me, after=0)["reports"] == first["reports"]  # as the count-only way numbers them

    again, cost = reads.during(lambda: read(t, me, first["next_cursor"]))
    assert again["reports"] == [] and again["next_after"] == first["next_after"]
    assert cost == {"room": 1, "log": 0, "queries": 0}  # nothing new: the room item alone
    assert again["next_cursor"] != first["next_cursor"]

    cursor, seen = again["next_cursor"], first["next_after"]
    log_size = len(t.h.store.list_log(t.room, -1, None))
    for nominator, nominee in ((0, 3), (4, 2)):
        t.do({"type": "nominate", "nominator": nominator, "nominee": nominee})
        t.do({"type": "vote", "votes": [1, 2]})
        new, cost = reads.during(lambda c=cursor: read(t, me, c))
        assert [r["step"] for r in new["reports"]] == list(range(seen + 1, new["next_after"] + 1))
        assert len(new["reports"]) == 2 and cost == {"room": 1, "log": 2, "queries": 1}  # the two new entries only
        cursor, seen = new["next_cursor"], new["next_after"]
    assert log_size > 10  # the whole log is bigger than what each read touched
    # a small page goes on exactly where the last one stopped
    pages, cursor = [], None
    while True:
        page = read(t, me, cursor, limit=3)
        if not page["reports"]:
            break
        pages += page["reports"]
        cursor = page["next_cursor"]
    assert pages == read(t, me)["reports"] and [r["step"] for r in pages] == list(range(1, seen + 1))


def test_a_cursor_moved_over_silent_steps_looks_like_one_that_did_not(table):
    """Night steps with no line for her move her cursor on, so the next read starts after them — but
    every answer is sealed afresh: a cursor that moved looks like one that did not."""
    t, me = table, table.players[2]  # 三阿哥: nothing for her at night
    t.do({"type": "dusk", "execute_block": True})
    start = read(t, me)
    idle = read(t, me, start["next_cursor"])
    steps = 0
    while t.step_night():
        steps += 1
    assert steps > 1
    moved = read(t, me, idle["next_cursor"])
    assert moved["reports"] == [] and moved["next_after"] == idle["next_after"] == start["next_after"]
    assert len({start["next_cursor"], idle["next_cursor"], moved["next_cursor"]}) == 3
    assert {len(c) for c in (start["next_cursor"], idle["next_cursor"], moved["next_cursor"])} == {
        len(start["next_cursor"])}
    reads = Reads(t.h.store)
    later, cost = reads.during(lambda: read(t, me, moved["next_cursor"]))
    assert later["reports"] == [] and cost == {"room": 1, "log": 0, "queries": 0}  # the silent steps are not read again


def test_a_cursor_is_hers_and_cannot_be_forged(table):
    t = table
    mine = read(t, t.players[0])["next_cursor"]
    flipped = mine[:-2] + ("AA" if not mine.endswith("AA") else "BB")
    for who, cursor in ((t.players[1], mine), (t.players[0], flipped), (t.players[0], "r1.garbage"),
                        (t.players[0], "12"), (t.players[0], "r1." + "A" * 50)):
        with pytest.raises(MalformedRequest) as e:
            read(t, who, cursor)
        assert e.value.code == "BAD_CURSOR", cursor
    # the storyteller sees the steps: her cursor is the step itself
    host = read(t, ST)
    assert host["next_cursor"] == str(host["next_after"]) == str(host["reports"][-1]["step"])
    assert read(t, ST, host["next_cursor"])["reports"] == []
    with pytest.raises(MalformedRequest):
        read(t, ST, mine)
