"""A working copy of the state for one transition: reads, small writes, the shared death and win rules.

Every rule module takes a `Board`, changes it through these methods and emits events; `freeze()`
returns the new frozen state with the events appended to the log.
"""

from __future__ import annotations

from collections.abc import Iterable

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan.events import Answer, Event, GameOverEvent, HostEvent, InfoEvent, YouAreEvent
from chalicelib.games.zhenhuan.roles import (
    HUANGHOU,
    HUANGSHANG,
    NVHUANG,
    ROLES,
    SUNDAYING,
    TRAVELLER,
    Alignment,
    Role,
    Team,
)
from chalicelib.games.zhenhuan.state import (
    Expiry,
    GameState,
    NightState,
    Phase,
    SeatState,
    Status,
    StatusKind,
)

EMPRESS_MIN_ALIVE = 5
GOOD_WINS = "恶魔死亡，且没有新的恶魔"
EVIL_WINS = "仅剩两名玩家存活，恶魔仍在"
_IMPAIRMENTS = ((StatusKind.POISONED, "中毒"), (StatusKind.DRUNK, "醉酒"), (StatusKind.PINNED, "被按住"))
ALIGNMENT_NAMES = {Alignment.GOOD: "善良", Alignment.EVIL: "邪恶"}


def no(seat: int) -> str:
    """1-based 几号 for Chinese text."""
    return f"{seat + 1}号"


def nos(seats: Iterable[int]) -> str:
    items = [no(s) for s in sorted(seats)]
    return "、".join(items) if items else "无"


class Board:
    def __init__(self, state: GameState) -> None:
        self.state = state
        self.events: list[Event] = []

    # --- reading ------------------------------------------------------------------------------------
    @property
    def seats(self) -> tuple[SeatState, ...]:
        return self.state.seats

    @property
    def night(self) -> NightState:
        if self.state.night is None:
            raise IllegalAction("现在不是夜晚", code="NOT_NIGHT")
        return self.state.night

    def seat(self, i: int) -> SeatState:
        if not 0 <= i < len(self.state.seats):
            raise IllegalAction(f"没有{i + 1}号座位", code="NO_SUCH_SEAT")
        return self.state.seats[i]

    def role(self, i: int) -> Role:
        return ROLES[self.seat(i).role]

    def holders(self, role: str) -> list[int]:
        return [s.seat for s in self.seats if s.role == role]

    def alive(self, i: int) -> bool:
        return self.seat(i).alive

    def living(self) -> list[int]:
        return [s.seat for s in self.seats if s.alive]

    def living_players(self) -> int:
        """Living players for 皇后's ≥5 and evil's "two alive": travellers do not count."""
        return sum(1 for s in self.seats if s.alive and s.role != TRAVELLER)

    def female(self, i: int) -> bool:
        s = self.seat(i)
        return s.traveller_female if s.role == TRAVELLER else ROLES[s.role].female

    def is_demon(self, i: int) -> bool:
        return self.role(i).team is Team.DEMON

    def is_minion(self, i: int) -> bool:
        return self.role(i).team is Team.MINION

    def has(self, i: int, kind: StatusKind) -> bool:
        return any(st.seat == i and st.kind is kind for st in self.state.statuses)

    def poisoned_or_drunk(self, i: int) -> bool:
        return self.has(i, StatusKind.POISONED) or self.has(i, StatusKind.DRUNK)

    def impaired(self, i: int) -> bool:
        """Poisoned, drunk or pinned: the ability silently fails (DECISIONS #5)."""
        return self.poisoned_or_drunk(i) or self.has(i, StatusKind.PINNED)

    def impairment_text(self, i: int) -> str:
        return "、".join(name for kind, name in _IMPAIRMENTS if self.has(i, kind))

    def neighbours(self, i: int) -> tuple[int, ...]:
        """The first living player on each side (left = lower seat number), without i itself."""
        n = len(self.seats)
        found: list[int] = []
        for step in (-1, 1):
            j = (i + step) % n
            while j != i and not self.seats[j].alive:
                j = (j + step) % n
            if j != i and j not in found:
                found.append(j)
        return tuple(found)

    def distance(self, a: int, b: int) -> int:
        n = len(self.seats)
        d = abs(a - b) % n
        return min(d, n - d)

    def dying_tonight(self, i: int, cause: str | None = None) -> bool:
        night = self.state.night
        if night is None:
            return False
        if cause is None and i in night.dusk_deaths:
            return True
        return any(p.seat == i and (cause is None or p.cause == cause) for p in night.pending)

    # --- time ---------------------------------------------------------------------------------------
    def next_dusk(self) -> Expiry:
        return Expiry(at="dusk", night=self.state.night_no + 1)

    def next_dawn(self) -> Expiry:
        n = self.state.night_no
        return Expiry(at="dawn", night=n if self.state.phase is Phase.NIGHT else n + 1)

    def dawn_after_next_night(self) -> Expiry:
        return Expiry(at="dawn", night=self.state.night_no + 1)

    # --- writing ------------------------------------------------------------------------------------
    def update(self, **changes: object) -> None:
        self.state = self.state.model_copy(update=changes)

    def update_seat(self, i: int, **changes: object) -> None:
        seats = list(self.state.seats)
        seats[i] = seats[i].model_copy(update=changes)
        self.update(seats=tuple(seats))

    def update_night(self, **changes: object) -> None:
        self.update(night=self.night.model_copy(update=changes))

    def emit(self, event: Event) -> None:
        self.events.append(event)

    def host(self, text: str, *, override: bool = False) -> None:
        self.emit(HostEvent(text=text, override=override))

    def tell(self, seat: int, step: str, value: Answer, text: str) -> None:
        self.emit(InfoEvent(seat=seat, night=self.state.night_no, step=step, value=value, text=text))

    def add_status(
        self, seat: int, kind: StatusKind, source: str, *, by: int | None = None, until: Expiry | None = None
    ) -> None:
        status = Status(seat=seat, kind=kind, source=source, source_seat=by, until=until)
        self.update(statuses=self.state.statuses + (status,))

    def clear_status(self, seat: int, kind: StatusKind) -> None:
        self.update(statuses=tuple(s for s in self.state.statuses if not (s.seat == seat and s.kind is kind)))

    def expire(self, at: str, night: int) -> None:
        keep = tuple(
            s for s in self.state.statuses if not (s.until and s.until.at == at and s.until.night == night)
        )
        self.update(statuses=keep)

    def spend(self, seat: int, ability: str) -> None:
        self.update_seat(seat, spent=self.seat(seat).spent | {ability})

    def change_role(
        self,
        seat: int,
        role: str,
        alignment: Alignment | None = None,
        *,
        keep_spent: bool = False,
        why: str = "",
        override: bool = False,
    ) -> None:
        s = self.seat(seat)
        new_alignment = alignment or ROLES[role].alignment
        self.update_seat(
            seat,
            role=role,
            alignment=new_alignment,
            original_role=s.role,
            original_alignment=s.alignment,
            spent=s.spent if keep_spent else frozenset(),
            last_pick=None,
        )
        if role == NVHUANG:
            self.update(empress_ever=True)
        name = ROLES[role].name
        self.emit(
            YouAreEvent(
                seat=seat,
                role=role,
                alignment=new_alignment.value,
                text=f"你现在是「{name}」（{ALIGNMENT_NAMES[new_alignment]}阵营）",
            )
        )
        self.host(
            f"{no(seat)}由{ROLES[s.role].name}变为{name}（{ALIGNMENT_NAMES[new_alignment]}）{why}",
            override=override,
        )

    # --- deaths -------------------------------------------------------------------------------------
    def die(self, seat: int) -> bool:
        """The seat dies now (no chain effects: see `after_deaths`). False if she was already dead."""
        if not self.seat(seat).alive:
            return False
        self.update_seat(seat, alive=False, ghost_vote=True)
        return True

    def after_deaths(self, dead: list[int], roles_at_death: dict[int, str]) -> None:
        """Chains that follow deaths: 孙答应's 全场醉酒, then 皇后 becoming 女皇."""
        for seat in dead:
            if roles_at_death[seat] == SUNDAYING and not self.impaired(seat):
                self.mass_drunk(seat)
        if any(roles_at_death[s] == HUANGSHANG for s in dead):
            self.maybe_empress()

    def kill_now(self, seats: list[int], why: str) -> list[int]:
        roles = {s: self.seat(s).role for s in seats}
        dead = [s for s in dict.fromkeys(seats) if self.die(s)]
        if dead:
            self.host(f"{nos(dead)}死亡（{why}）")
        self.after_deaths(dead, roles)
        return dead

    def mass_drunk(self, sundaying: int) -> None:
        good_only = self.state.options.mass_drunk_scope == "good"
        until = self.dawn_after_next_night()
        hit = [
            s.seat
            for s in self.seats
            if s.alive and s.seat != sundaying and not (good_only and s.alignment is Alignment.EVIL)
        ]
        for seat in hit:
            self.add_status(seat, StatusKind.DRUNK, SUNDAYING, by=sundaying, until=until)
        self.host(f"孙答应{no(sundaying)}死亡：全场醉酒（{nos(hit)}），至第{until.night}夜天亮")

    def empress_block(self) -> str | None:
        """Why no 皇后 can become 女皇 right now (None: one can)."""
        if self.state.empress_ever:
            return "本局已有过女皇"
        queens = [q for q in self.holders(HUANGHOU) if self.alive(q)]
        if not queens:
            return "皇后不在场或已死亡"
        if all(self.impaired(q) for q in queens):
            return "皇后中毒、醉酒或被按住"
        if self.living_players() < EMPRESS_MIN_ALIVE:
            return f"存活玩家不足{EMPRESS_MIN_ALIVE}人"
        return None

    def maybe_empress(self) -> None:
        why = self.empress_block()
        if why is not None:
            self.host(f"皇上死亡，皇后未变为女皇：{why}")
            return
        queen = next(q for q in self.holders(HUANGHOU) if self.alive(q) and not self.impaired(q))
        self.change_role(queen, NVHUANG, Alignment.EVIL, why="（皇上死亡，皇后继位）")
        self.update(empress_notice=queen)

    # --- the end ------------------------------------------------------------------------------------
    def check_win(self) -> None:
        """Good: no living demon. Evil: two (or fewer) players alive and a demon among them."""
        if self.state.phase in (Phase.SETUP, Phase.OVER):
            return
        proposed = self.state.proposed_winner
        if not any(s.alive and ROLES[s.role].team is Team.DEMON for s in self.seats):
            self.win(Alignment.GOOD, GOOD_WINS)
        elif self.living_players() <= 2:
            self.win(Alignment.EVIL, EVIL_WINS)
        elif proposed is not None and proposed[1] in (GOOD_WINS, EVIL_WINS):
            self.update(proposed_winner=None)  # the board changed back (胧月's proposal stays)

    def win(self, winner: Alignment, reason: str) -> None:
        if self.state.options.auto_end:
            self.end(winner, reason)
        elif self.state.proposed_winner != (winner, reason):
            self.update(proposed_winner=(winner, reason))
            self.host(f"建议结束：{ALIGNMENT_NAMES[winner]}阵营获胜（{reason}）")

    def end(self, winner: Alignment, reason: str) -> None:
        self.update(phase=Phase.OVER, winner=winner, end_reason=reason, proposed_winner=None)
        text = f"游戏结束：{ALIGNMENT_NAMES[winner]}阵营获胜（{reason}）"
        self.emit(GameOverEvent(winner=winner.value, reason=reason, text=text))

    def freeze(self) -> GameState:
        return self.state.model_copy(update={"log": self.state.log + tuple(self.events)})
