"""No hidden information on a socket: a notice is `{"type": "changed", "room": R}` (with the room's
`version` only for a viewer whose own view shows it) and nothing else,
and it comes exactly when what that viewer may see changed — so in 血染甄嬛传 a player's notices
cannot be counted to learn how many steps the storyteller took at night."""

from __future__ import annotations

import json
from typing import Any

import pytest

from chalicelib.core.identity import Caller
from chalicelib.rooms import lobby, play
from tests.push.harness import harness
from tests.push.zhenhuan import ST, Table

SEED = bytes([6]) + bytes(31)


def _strings(value: Any) -> list[str]:
    """Every string in a JSON value, keys and values."""
    if isinstance(value, dict):
        return [s for k, v in value.items() for s in (k, *_strings(v))]
    if isinstance(value, list):
        return [s for v in value for s in _strings(v)]
    return [value] if isinstance(value, str) else []


@pytest.mark.parametrize("views", [frozenset(), frozenset({"zhenhuan"})], ids=["bare", "with-views"])
def test_a_players_notices_do_not_count_the_storytellers_night_steps(fake_games, views):
    """Two 5-player games that differ only in the minion: 华妃 wakes on the first night, 皇后 does not,
    so the storyteller presses a different number of times. After every press, every seat's socket
    got a notice exactly when her own view (its ETag, as GET answers it) changed; 1号 (敬妃 in both) is
    told of one change tonight — her own step — in both games, and cannot tell them apart. Where the
    notices carry views (the default for 血染), each is her own view as her GET answers it: no grimoire,
    no other seat's role."""
    heard = []
    for minion in ("huafei", "huanghou"):
        h = harness(seed=SEED)
        h.push.pushed_views = views
        t = Table.open(h)
        roles = ["jingfei", "huangshang", "sanage", minion, "taihou"]
        t.deal(roles)
        t.do({"type": "begin"})
        cids = [h.socket(p, t.room) for p in t.players]
        tags = [t.view(p).etag for p in t.players]
        night = []
        while t.step_night():
            h.pump()
            told = []
            for seat, (p, cid) in enumerate(zip(t.players, cids, strict=True)):
                got = h.sockets.changes(cid, views=bool(views))
                assert h.sockets.versions(cid) == [None] * len(got)  # no version to whom steps are hidden
                now = t.view(p)
                tag = now.etag
                assert len(got) == int(tag != tags[seat]), (minion, seat, got)
                for notice in h.sockets.seen[cid]:
                    assert ("view" in notice) == bool(views)
                    if views:
                        assert notice["etag"] == tag and notice["view"] == json.loads(json.dumps(now.body))
                        assert notice["view"]["game"]["grimoire"] is None
                        others = {r for i, r in enumerate(roles) if i != seat}
                        assert not others & set(_strings(notice)), (seat, others)
                tags[seat] = tag
                told.append(bool(got))
            night.append(told)
        mine = [told[0] for told in night]
        assert mine.count(True) == 1 and len(mine) > 1  # her own step, among steps she was not told of
        heard.append((len(night), mine.count(True), [told.count(True) for told in zip(*night, strict=True)]))
    assert heard[0][0] != heard[1][0]  # the storyteller's step count differs …
    assert heard[0][1] == heard[1][1] == 1  # … and 1号's notices do not


def test_the_storyteller_hears_every_press_and_a_spectator_only_the_public_board(fake_games):
    h = harness(seed=SEED)
    t = Table.open(h)
    t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
    host, spectator = h.socket(ST, t.room), h.socket(Caller(user_id="x", name="看客"), t.room)
    t.presses = 0
    t.do({"type": "begin"})
    while t.step_night():
        pass
    h.pump()
    assert h.sockets.changes(host) == [t.room] * t.presses  # she sees the step counter: every version
    assert h.sockets.versions(host) == sorted(h.sockets.versions(host)) and None not in h.sockets.versions(host)
    assert h.sockets.changes(spectator) == [t.room]  # the night began; nothing public since


def test_the_hidden_steps_of_a_hosted_game_are_not_announced_to_the_players(fake_games):
    """The fake hosted game `ledger`: the host tells 乙 a secret four times; 甲 hears nothing of it,
    乙 hears each, and a public note reaches both — a single notice each."""
    h = harness()
    a, b = Caller(user_id="a", name="甲"), Caller(user_id="b", name="乙")
    room = lobby.create_room(h.rooms, ST, "ledger", {}, None, None).id
    for p in (a, b):
        lobby.join_room(h.rooms, p, room, None)
    lobby.start_room(h.rooms, ST, room)
    ca, cb = h.socket(a, room), h.socket(b, room)
    for i in range(4):
        play.act(h.rooms, ST, room, h.store.get_room(room).step, {"type": "tell", "seat": 1, "secret": f"秘{i}"})
    h.pump()
    assert (h.sockets.changes(ca), h.sockets.changes(cb)) == ([], [room] * 4)
    play.act(h.rooms, ST, room, h.store.get_room(room).step, {"type": "note", "text": "天亮了"})
    h.pump()
    assert (h.sockets.changes(ca), h.sockets.changes(cb)) == ([room], [room])


def test_subscribing_with_her_views_etag_says_only_whether_it_is_still_hers(fake_games):
    """A phone that fetched its view and then (re)subscribes could miss a change in between; sent with
    the view's ETag, `subscribed` says `changed` exactly when her view (as GET answers it) differs —
    so for a 血染 player, a night step that does not touch her view reads as unchanged, like polling."""
    h = harness(seed=SEED)
    t = Table.open(h)
    t.deal(["jingfei", "huangshang", "sanage", "huafei", "taihou"])
    t.do({"type": "begin"})
    player, host = t.players[0], ST  # 1号, 敬妃: one step of the night is hers
    held = {who.user_id: t.view(who).etag for who in (player, host)}
    answers = []
    while t.step_night():
        for who in (player, host):
            cid = h.connect(who)
            got = h.say(cid, {"action": "subscribe", "room": t.room, "etag": held[who.user_id]})
            assert set(got) == {"type", "room", "changed"} and got["type"] == "subscribed"
            assert got["changed"] == (t.view(who).etag != held[who.user_id])
            answers.append((who.user_id, got["changed"]))
    steps = len(answers) // 2
    assert [c for u, c in answers if u == host.user_id] == [True] * steps  # every press changes her view
    assert 0 < sum(c for u, c in answers if u == player.user_id) < steps  # some presses are not hers to see
    cid = h.connect(player)
    assert h.say(cid, {"action": "subscribe", "room": t.room, "etag": t.view(player).etag})["changed"] is False
    assert h.say(cid, {"action": "subscribe", "room": t.room, "etag": "x" * 81})["code"] == "MALFORMED_REQUEST"
