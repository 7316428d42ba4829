"""Helpers to play 宫斗杀 (玩法D) through the API."""

from __future__ import annotations

from tests.api.helpers import Player


def make_team(api, admin: Player, names: list[str], value: int = 80, maids: dict | None = None) -> list[Player]:
    """Players who each own a freshly created 妃子 with all four attributes = value."""
    team = []
    for name in names:
        cid = admin.ok("POST", "/v1/admin/consorts", {"name": name, "looks": value, "talent": value,
                                                      "favor": value, "power": value})["id"]
        for card, level in (maids or {}).items():
            admin.ok("POST", f"/v1/admin/consorts/{cid}/maids", {"card": card, "level": level})
        p = Player(api, f"u-{name}")
        p.ok("POST", f"/v1/consorts/{cid}/claim")
        p.consort = cid
        team.append(p)
    return team


def open_d_room(team: list[Player], stage: int) -> str:
    room_id = team[0].open_room("shengong_d", {"stage": stage})
    for p in team[1:]:
        p.ok("POST", f"/v1/rooms/{room_id}/join")
    return room_id


def play_out(team: list[Player], room_id: str, action: dict, max_rounds: int = 25) -> dict:
    """Every living player submits `action` each round (待机 when a boss's 暗杀 voided her move) until
    the game ends; returns the last view."""
    for _ in range(max_rounds):
        view = team[0].view(room_id)
        if view["room"]["status"] != "active":
            return view
        step = view["room"]["step"]
        for seat in view["pending"]["seats"]:
            voided = team[seat].view(room_id)["game"]["you"]["voided"]
            r = team[seat].act(room_id, {"type": "idle"} if voided else action, step=step)
            assert r.status_code == 200, r.body
    raise AssertionError("game did not end")


def absent_rounds(team: list[Player], room_id: str, rounds: int = 3) -> None:
    """安陵容 (seat 2) sends nothing for `rounds` rounds that waited for her; the creator presses 催战 each
    round. (A seat whose move a boss's 暗杀 voided is not waited for: she does not act, and a round that
    did not wait for 安陵容 neither counts her absent nor clears it.)"""
    done = 0
    while done < rounds:
        view = team[0].view(room_id)
        step, waiting = view["room"]["step"], view["pending"]["seats"]
        for seat, p in enumerate(team[:2]):
            if seat in waiting:
                assert p.act(room_id, {"type": "idle"}, step=step).status_code == 200
        if 2 in waiting:
            assert team[0].ok("POST", f"/v1/rooms/{room_id}/hurry", {"step": step})["current_step"] == step + 1
            done += 1
