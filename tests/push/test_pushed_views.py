"""Where the stage pushes views (PUSH_VIEWS), a room notice carries the subscriber's own view, exactly
as her own `GET` answers it (body and ETag), so her phone need not ask: her projection, worked out for
her alone — never another seat's hand or role, never the storyteller's truth."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from chalicelib.config import DEFAULT_PUSH_VIEWS, load_settings
from chalicelib.push.service import PUSHED_VIEW_FAMILIES
from tests.api.baohuang_driver import Policy, Table, waiting_seat
from tests.push import harness as push_harness
from tests.push.test_stream_integration import Gateway
from tests.push.zhenhuan import ST
from tests.push.zhenhuan import Table as ZhenhuanTable

SEED = bytes([6]) + bytes(31)


def _without_clock(body: dict) -> dict:
    return {k: v for k, v in body.items() if k != "server_time"}


@pytest.fixture
def settings_env(settings_env):
    return {**settings_env, "PUSH_VIEWS": "baohuang"}  # one game named: the others get bare notices


@pytest.fixture
def gateway(svc, ddb):
    from chalicelib.push.build import use_sender
    from infra.local_push import StreamPoller, enable_stream, stream_function, streams_client
    from tests.conftest import TABLE

    sockets = push_harness.Sockets()
    use_sender(sockets)
    poller = StreamPoller(streams_client(ddb), enable_stream(ddb, TABLE), stream_function())
    yield Gateway(sockets, poller)
    use_sender(None)


def test_a_baohuang_notice_carries_her_own_view_as_her_get_answers_it(api, svc, gateway):
    """Over the deployed path (moto's stream, the stream function): after each of the first plays of a
    deal, each of the five phones holds, from its notices alone, the body and ETag its own GET gives —
    her own hand and only hers (every other seat's cards appear only as a count)."""
    table = Table.open(api, svc, ["赵", "钱", "孙", "李", "周"], variant="classic")
    cids = []
    for p in table.players:
        _, cid = gateway.connect(p.token)
        assert gateway.say(cid, {"action": "subscribe", "room": table.room_id}) == {
            "type": "subscribed", "room": table.room_id}
        cids.append(cid)
    policy, versions = Policy(), 0
    while versions < 10:
        view = table.view(0)
        seat = waiting_seat(view)
        mine = table.view(seat)
        before = table.stored().version
        table.do(seat, policy.choose(mine), mine["room"]["step"])
        moved = table.stored().version != before  # a declaration in the throne's round is only sealed
        versions += moved
        sealed_round = mine["pending"]["kind"] == "sealed"
        gateway.poller.poll()
        for s, (p, cid) in enumerate(zip(table.players, cids, strict=True)):
            got = gateway.sockets.take(cid)
            if moved and sealed_round and s == seat:
                assert got == [], got  # her declaration settled the round: her answer carried the view
                continue
            if not moved:
                # a sealed declaration: who declared, told to the others by step and seat, nothing more
                assert got == ([] if s == seat else [
                    {"type": "sealed", "room": table.room_id, "step": mine["room"]["step"], "seat": seat}]), got
                continue
            assert len(got) == 1 and set(got[0]) == {"type", "room", "version", "view", "etag"}, got
            answer = p.api.http.get(table.game_path, headers={"Authorization": f"Bearer {p.token}"})
            notice = got[0]
            assert notice["etag"] == answer.headers["ETag"]
            assert _without_clock(notice["view"]) == _without_clock(json.loads(answer.body))
            assert notice["version"] == notice["view"]["room"]["version"] == table.stored().version
            game = notice["view"]["game"]
            assert game["hand"] == table.view(s)["game"]["hand"] and game.get("hands") is None
            assert all(set(seat) & {"hand", "hands"} == set() for seat in game["seats"])


def test_a_view_too_large_for_one_message_is_left_out(api, svc, gateway, monkeypatch):
    """A notice whose view would pass one billed message (32 KB) says only that the room changed."""
    from chalicelib.push import fanout

    table = Table.open(api, svc, ["赵", "钱", "孙", "李", "周"], start=False, variant="classic")
    _, cid = gateway.connect(table.players[1].token)
    gateway.say(cid, {"action": "subscribe", "room": table.room_id})
    table.start()
    gateway.poller.poll()
    assert [set(m) for m in gateway.sockets.take(cid)] == [{"type", "room", "version", "view", "etag"}]
    monkeypatch.setattr(fanout, "MAX_PUSHED_VIEW_BYTES", 600)
    seat = waiting_seat(table.view(0))
    mine = table.view(seat)
    table.do(seat, Policy().choose(mine), mine["room"]["step"])
    gateway.poller.poll()
    got = gateway.sockets.take(cid)
    assert got and all(set(m) == {"type", "room", "version"} for m in got), got


def test_a_hidden_step_players_pushed_view_comes_only_when_it_changed(fake_games):
    """血染甄嬛传 with views pushed: a player is told, with her view, exactly when her own view's ETag
    changed (never on the storyteller's other night steps), no version; the view is hers as GET
    shows it (no other seat's role); the storyteller's notices carry her grimoire."""
    h = push_harness.harness(seed=SEED)
    h.push.pushed_views = frozenset({"zhenhuan"})
    t = ZhenhuanTable.open(h)
    t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
    t.do({"type": "begin"})
    cids = [h.socket(p, t.room) for p in t.players]
    host = h.socket(ST, t.room)
    tags = [t.view(p).etag for p in t.players]
    steps = 0
    while t.step_night():
        steps += 1
        h.pump()
        for seat, (p, cid) in enumerate(zip(t.players, cids, strict=True)):
            got = h.sockets.take(cid)
            now = t.view(p)
            assert len(got) == int(now.etag != tags[seat])
            for m in got:
                assert set(m) == {"type", "room", "view", "etag"}, m  # no version: her steps are hidden
                assert m["etag"] == now.etag and _without_clock(m["view"]) == _without_clock(now.body)
                assert m["view"]["game"]["grimoire"] is None and m["view"]["viewer"]["seat"] == seat
            tags[seat] = now.etag
        told = h.sockets.take(host)
        assert len(told) == 1 and told[0]["view"]["game"]["grimoire"]["seats"][3]["role"] == "huafei"
    assert steps > 1


def test_without_push_views_a_notice_is_only_room_and_version(fake_games):
    h = push_harness.harness(seed=SEED)
    t = ZhenhuanTable.open(h)
    host = h.socket(ST, t.room)
    t.do({"type": "begin"})
    h.pump()
    assert h.sockets.changes(host) == [t.room]


def test_push_views_keeps_only_games_whose_page_takes_a_view_and_reports_any_other_name():
    """A typo (or 深宫杀, whose page fetches its view with its 战报 anyway) is counted as a push error
    (alarmed) and ignored: views are a saving, and a bad name must not stop every notice."""
    from chalicelib.observability import COUNTS
    from chalicelib.push.build import pushed_views

    base = {"STAGE": "local"}
    assert load_settings({**base, "PUSH_VIEWS": " baohuang, zhenhuan "}).push_views == {"baohuang", "zhenhuan"}
    assert load_settings({**base, "PUSH_VIEWS": "baohuang"}).push_views == {"baohuang"}
    errors = COUNTS["PushErrors"]
    assert pushed_views(frozenset({"baohuang", "zhenhuan"})) == {"baohuang", "zhenhuan"}
    assert COUNTS["PushErrors"] == errors
    assert pushed_views(frozenset({"baohuang", "mahjong", "shengong"})) == {"baohuang"}
    assert COUNTS["PushErrors"] == errors + 1


def test_views_travel_by_default_for_every_page_that_takes_one_and_none_turns_them_off():
    """Issue #13's target (a fifth of polling's cost) holds for 保皇 only with views on the socket, so they
    are the default; an empty PUSH_VIEWS (a stack deployed before that default) is the default too."""
    base = {"STAGE": "local"}
    assert DEFAULT_PUSH_VIEWS == PUSHED_VIEW_FAMILIES == {"baohuang", "zhenhuan"}
    assert load_settings(base).push_views == DEFAULT_PUSH_VIEWS
    assert load_settings({**base, "PUSH_VIEWS": " "}).push_views == DEFAULT_PUSH_VIEWS
    assert load_settings({**base, "PUSH_VIEWS": "none"}).push_views == frozenset()


def test_the_pages_that_take_a_pushed_view_are_the_families_push_views_may_name():
    """The server's list and the client's pages agree: a page takes a view a notice carries only where
    its own request is that plain view."""
    pages = Path(__file__).resolve().parents[2] / "client" / "src" / "pages"
    taking = {p.parent.name.removeprefix("room-") for p in pages.glob("room-*/index.tsx")
              if "takesPushed: true" in p.read_text(encoding="utf-8")}
    assert taking == PUSHED_VIEW_FAMILIES


def test_a_view_that_fails_is_a_plain_notice_and_her_subscription_stays(fake_games, monkeypatch):
    """A view the stream function cannot work out (a bug in a game's projection, even one raising a
    domain error) must neither silence her nor end her subscription: she gets the plain notice and
    fetches; the others still get theirs with their views."""
    from chalicelib.core.errors import Conflict
    from chalicelib.rooms import views

    h = push_harness.harness(seed=SEED)
    h.push.pushed_views = frozenset({"zhenhuan"})
    t = ZhenhuanTable.open(h)
    host, seat0 = h.socket(ST, t.room), h.socket(t.players[0], t.room)
    original = views.pushed_view

    def failing(deps, caller, room):
        if caller.user_id == ST.user_id:
            raise Conflict("坏了", code="BROKEN_VIEW")
        return original(deps, caller, room)

    monkeypatch.setattr(views, "pushed_view", failing)
    t.do({"type": "begin"})
    report = h.pump()
    told = h.sockets.take(host)
    assert [set(m) for m in told] == [{"type", "room", "version"}] and report.errors == 1
    assert [s.connection_id for s in h.push.store.subscriptions(t.room) if s.connection_id == host] == [host]
    assert [set(m) for m in h.sockets.take(seat0)] == [{"type", "room", "view", "etag"}]


def test_only_the_newest_image_of_a_room_carries_views(fake_games):
    """Several presses in one batch: a notice for each version, the view only on the last (a phone
    shows it once, not twice)."""
    h = push_harness.harness(seed=SEED)
    h.push.pushed_views = frozenset({"zhenhuan"})
    t = ZhenhuanTable.open(h)
    t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
    host = h.socket(ST, t.room)
    t.do({"type": "begin"})
    assert t.step_night()
    h.pump()
    told = h.sockets.take(host)
    assert len(told) == 2 and ["view" in m for m in told] == [False, True]
    assert [m["version"] for m in told] == sorted(m["version"] for m in told)


def test_a_hidden_step_player_is_sent_her_view_of_the_room_as_it_stands(fake_games):
    """An image the room has moved past by the time the stream function sees it (the storyteller
    pressed again meanwhile): a 血染 player is sent her view of the room as it stands — never of the
    late image, which could replace a newer view her phone fetched meanwhile — and the notices' shape
    is the same as without the later press, which she cannot see: nothing about it can be learnt from
    her socket. The later press's own records then tell her nothing more."""
    shapes = []
    for later_press in (False, True):
        h = push_harness.harness(seed=SEED)
        h.push.pushed_views = frozenset({"zhenhuan"})
        t = ZhenhuanTable.open(h)
        t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
        cids = [h.socket(p, t.room) for p in t.players]
        t.do({"type": "begin"})  # the night begins: every player's view changes
        late = [r for r in h.store.stream if push_harness.wanted(r)]
        h.store.stream.clear()
        if later_press:
            assert t.step_night()  # committed before the begin's records reach the stream function
        push_harness.handle_records(h.push, late)
        got = [h.sockets.take(cid) for cid in cids]
        shapes.append([[sorted(m) for m in g] for g in got])
        for p, g in zip(t.players, got, strict=True):
            now = t.view(p)
            assert len(g) == 1 and g[0]["etag"] == now.etag  # her view as it stands, as her GET answers
            assert _without_clock(g[0]["view"]) == _without_clock(now.body)
        h.pump()
        assert all(h.sockets.take(cid) == [] for cid in cids)  # told already of what she may see
    assert shapes[0] == shapes[1] == [[["etag", "room", "type", "view"]]] * 5


def test_a_game_not_named_in_push_views_gets_plain_notices(fake_games):
    h = push_harness.harness(seed=SEED)
    h.push.pushed_views = frozenset({"baohuang"})
    t = ZhenhuanTable.open(h)
    host = h.socket(ST, t.room)
    t.do({"type": "begin"})
    h.pump()
    assert h.sockets.changes(host) == [t.room]  # asserts the plain shape
