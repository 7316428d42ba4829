"""Setup: the official composition table, the seeded proposal, hand-picking and the demon's bluffs."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from chalicelib.core.errors import IllegalAction
from chalicelib.core.game import Entrant
from chalicelib.core.rng import Rng
from chalicelib.games.zhenhuan.board import EVIL_KNOW_EACH_OTHER_FROM
from chalicelib.games.zhenhuan.roles import (
    DEALT,
    DEMONS,
    GOOD_ROLES,
    MINIONS,
    OUTSIDER_MODIFIERS,
    OUTSIDERS,
    ROLES,
    TOWNSFOLK,
    TRAVELLER,
    Alignment,
    RoleKey,
    Team,
)
from chalicelib.games.zhenhuan.state import GameState, SeatState, ZhenhuanOptions

MIN_PLAYERS, MAX_PLAYERS, MAX_NON_TRAVELLERS = 5, 20, 15
BLUFFS = 3

# players -> (村民, 外来者, 爪牙, 恶魔): the official table (research/botc.md §3.1)
_BASE = {
    5: (3, 0, 1, 1),
    6: (3, 1, 1, 1),
    7: (5, 0, 1, 1),
    8: (5, 1, 1, 1),
    9: (5, 2, 1, 1),
    10: (7, 0, 2, 1),
    11: (7, 1, 2, 1),
    12: (7, 2, 2, 1),
    13: (9, 0, 3, 1),
    14: (9, 1, 3, 1),
    15: (9, 2, 3, 1),
}


@dataclass(frozen=True, slots=True)
class Composition:
    townsfolk: int
    outsiders: int
    minions: int
    demons: int
    travellers: int

    def as_dict(self) -> dict[str, int]:
        return {
            "townsfolk": self.townsfolk,
            "outsiders": self.outsiders,
            "minions": self.minions,
            "demons": self.demons,
            "travellers": self.travellers,
        }


def composition(players: int, *, modifiers: int = 0) -> Composition:
    """Team counts for `players` seats with `modifiers` of 苏培盛/太上皇 in play (each: 村民-1, 外来者+1).

    Raises:
        IllegalAction: fewer than 5 or more than 20 players.
    """
    if not MIN_PLAYERS <= players <= MAX_PLAYERS:
        raise IllegalAction("血染甄嬛传需要5到20名玩家", code="BAD_PLAYER_COUNT")
    t, o, m, d = _BASE[min(players, MAX_NON_TRAVELLERS)]
    return Composition(t - modifiers, o + modifiers, m, d, max(0, players - MAX_NON_TRAVELLERS))


def modifiers_in(roles: Sequence[RoleKey]) -> int:
    return sum(1 for r in OUTSIDER_MODIFIERS if r in roles)


def draw_roles(players: int, rng: Rng) -> tuple[RoleKey, ...]:
    """A legal role for each seat: the demon and minions first (they fix the modifiers), then the good
    roles; travellers take the last seats (the ones who joined last volunteer)."""
    base = composition(players)
    demon = rng.choice(DEMONS)
    minions = rng.sample(MINIONS, base.minions)
    comp = composition(players, modifiers=modifiers_in((demon, *minions)))
    dealt = (
        demon,
        *minions,
        *rng.sample(OUTSIDERS, comp.outsiders),
        *rng.sample(TOWNSFOLK, comp.townsfolk),
    )
    return rng.shuffled(dealt) + (TRAVELLER,) * comp.travellers


def draw_bluffs(roles: Sequence[RoleKey], rng: Rng) -> tuple[RoleKey, ...]:
    free = [r for r in GOOD_ROLES if r not in roles]
    return rng.sample(free, min(BLUFFS, len(free)))


def new_game(entrants: Sequence[Entrant], options: ZhenhuanOptions, rng: Rng) -> GameState:
    roles = draw_roles(len(entrants), rng)
    seats = tuple(
        SeatState(
            seat=i,
            name=e.name,
            role=r,
            alignment=ROLES[r].alignment,
            traveller_identity="旅行者" if r == TRAVELLER else None,
        )
        for i, (e, r) in enumerate(zip(entrants, roles, strict=True))
    )
    return GameState(options=options, seats=seats, bluffs=draw_bluffs(roles, rng))


def reroll(state: GameState, rng: Rng) -> GameState:
    roles = draw_roles(len(state.seats), rng)
    seats = tuple(_with_role(s, r) for s, r in zip(state.seats, roles, strict=True))
    return state.model_copy(update={"seats": seats, "bluffs": draw_bluffs(roles, rng)})


def _with_role(seat: SeatState, role: RoleKey) -> SeatState:
    if role == TRAVELLER:
        identity = seat.traveller_identity or "旅行者"
        alignment = seat.alignment if seat.role == TRAVELLER else Alignment.GOOD
        return seat.model_copy(update={"role": role, "traveller_identity": identity, "alignment": alignment})
    return seat.model_copy(
        update={
            "role": role,
            "alignment": ROLES[role].alignment,
            "traveller_identity": None,
            "traveller_ability": "",
            "traveller_female": False,
        }
    )


def assign(state: GameState, seat: int, role: RoleKey) -> GameState:
    """Give `seat` the role; whoever held it takes the seat's old role.

    Raises:
        IllegalAction: unknown seat or a role setup cannot deal (宠妃, 女皇).
    """
    check_seat(state, seat)
    if role not in DEALT and role != TRAVELLER:
        raise IllegalAction("这个角色不能在开局分配", code="ROLE_NOT_DEALT")
    seats = list(state.seats)
    old = seats[seat].role
    if role != TRAVELLER:
        for i, s in enumerate(seats):
            if i != seat and s.role == role:
                seats[i] = _with_role(s, old)
    seats[seat] = _with_role(seats[seat], role)
    return state.model_copy(update={"seats": tuple(seats), "bluffs": _bluffs_kept_out_of_play(state.bluffs, seats)})


def _bluffs_kept_out_of_play(bluffs: Sequence[RoleKey], seats: Sequence[SeatState]) -> tuple[RoleKey, ...]:
    """Decision: a role dealt by hand that was a bluff leaves the bluffs; its place goes to the first
    good role (in the role table's order) neither in play nor a bluff — the storyteller may still
    choose others. Bluffs must be out of play (set_bluffs), and a stale list went unnoticed."""
    in_play = {s.role for s in seats}
    kept = [r for r in bluffs if r not in in_play]
    spare = (r for r in GOOD_ROLES if r not in in_play and r not in kept)
    return tuple(kept + [r for _, r in zip(range(len(bluffs) - len(kept)), spare, strict=False)])


def set_bluffs(state: GameState, roles: Sequence[RoleKey]) -> GameState:
    """Raises IllegalAction unless three distinct good roles, none of them in play."""
    in_play = {s.role for s in state.seats}
    if len(roles) != BLUFFS or len(set(roles)) != BLUFFS:
        raise IllegalAction("请选择三个不同的角色", code="BAD_BLUFFS")
    for r in roles:
        if not ROLES[r].good or r in in_play:
            raise IllegalAction("伪装角色须是不在场的善良角色", code="BAD_BLUFFS")
    return state.model_copy(update={"bluffs": tuple(roles)})


def set_traveller(
    state: GameState, seat: int, identity: str, alignment: Alignment, female: bool, ability: str
) -> GameState:
    """Raises IllegalAction unless the seat is a traveller still in the game."""
    check_seat(state, seat)
    s = state.seats[seat]
    if s.role != TRAVELLER or s.departed:
        raise IllegalAction("该座位不是旅行者", code="NOT_TRAVELLER")
    seats = list(state.seats)
    seats[seat] = s.model_copy(
        update={"traveller_identity": identity, "alignment": alignment, "traveller_female": female,
                "traveller_ability": ability}
    )
    return state.model_copy(update={"seats": tuple(seats)})


def composition_issues(state: GameState) -> tuple[str, ...]:
    """Where the seats differ from the table: empty = a standard setup, otherwise it is custom."""
    roles = [s.role for s in state.seats if not s.admitted]
    comp = composition(len(roles), modifiers=modifiers_in(roles))
    have = Counter(ROLES[r].team for r in roles)
    want = {
        Team.TOWNSFOLK: (comp.townsfolk, "村民"),
        Team.OUTSIDER: (comp.outsiders, "外来者"),
        Team.MINION: (comp.minions, "爪牙"),
        Team.DEMON: (comp.demons, "恶魔"),
        Team.TRAVELLER: (comp.travellers, "旅行者"),
    }
    issues = [f"{label}应为{n}人，现为{have[team]}人" for team, (n, label) in want.items() if have[team] != n]
    return tuple(issues)


def check_begin(state: GameState) -> None:
    """Raises IllegalAction when the game cannot start: no demon, or bad bluffs for 7+ players."""
    if not any(ROLES[s.role].team is Team.DEMON for s in state.seats):
        raise IllegalAction("至少需要一名恶魔", code="NO_DEMON")
    if sum(1 for s in state.seats if s.role != TRAVELLER) >= EVIL_KNOW_EACH_OTHER_FROM:
        set_bluffs(state, state.bluffs)


def check_seat(state: GameState, seat: int) -> None:
    if not 0 <= seat < len(state.seats):
        raise IllegalAction(f"没有{seat + 1}号座位", code="NO_SUCH_SEAT")
