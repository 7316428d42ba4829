"""A working copy of the state for one transition: reads, small writes, the shared death and win rules.

Every rule module takes a `Board`, changes it through these methods and emits events; `freeze()`
returns the new frozen state with the events appended to the log.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from chalicelib.core.errors import IllegalAction
from chalicelib.games.zhenhuan.enums import (
    Ability,
    DeathCause,
    ExpiryAt,
    OwedKind,
    Phase,
    StatusKind,
    StepKey,
    TellCard,
)
from chalicelib.games.zhenhuan.events import (
    Answer,
    DeathEvent,
    Event,
    HostEvent,
    InfoEvent,
    TellEvent,
    YouAreEvent,
)
from chalicelib.games.zhenhuan.roles import (
    DEAD_TOKEN,
    GUOJUNWANG,
    HUANBI,
    HUANGHOU,
    HUANGSHANG,
    NVHUANG,
    ROLES,
    SUNDAYING,
    TRAVELLER,
    Alignment,
    Role,
    RoleKey,
    Team,
)
from chalicelib.games.zhenhuan.state import (
    Expiry,
    GameState,
    NightDeath,
    NightState,
    Owed,
    Reminder,
    SeatState,
    Status,
)

EMPRESS_MIN_ALIVE = 5
NO_HUANGHOU = "本局没有皇后"
EVIL_KNOW_EACH_OTHER_FROM = 7
"""7 players and more: minions and the demon learn each other, the demon learns 3 bluffs."""
_IMPAIRMENTS = ((StatusKind.POISONED, "中毒"), (StatusKind.DRUNK, "醉酒"), (StatusKind.PINNED, "被按住"))
_IMPAIRING = frozenset(kind for kind, _ in _IMPAIRMENTS)
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
        self.in_step = False
        """A night step is resolving: its own line says whom it killed (`kill_together` adds none)."""

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

    def present_seat(self, i: int) -> SeatState:
        """The seat, which must still be in the game (a traveller who left is no one's target)."""
        s = self.seat(i)
        if s.departed:
            raise IllegalAction(f"{no(i)}已离开游戏", code="NOT_PRESENT")
        return s

    def role(self, i: int) -> Role:
        return ROLES[self.seat(i).role]

    def holders(self, role: RoleKey) -> list[int]:
        return [s.seat for s in self.seats if s.role == role and not s.departed]

    def alive(self, i: int) -> bool:
        return self.seat(i).alive

    def living(self) -> list[int]:
        """Living seats still in the game (a traveller who left counts nowhere, alive or not)."""
        return [s.seat for s in self.seats if s.alive and not s.departed]

    def present(self) -> list[int]:
        """Seats still in the game (departed travellers are not)."""
        return [s.seat for s in self.seats if not s.departed]

    def living_players(self) -> int:
        """Living players for 皇后's ≥5 and evil's "two alive": travellers do not count."""
        return sum(1 for s in self.seats if s.alive and not s.departed and s.role != TRAVELLER)

    def table_size(self) -> int:
        """Players in the composition table (travellers are extra)."""
        return sum(1 for s in self.seats if s.role != TRAVELLER)

    def evil_know_each_other(self) -> bool:
        return self.table_size() >= EVIL_KNOW_EACH_OTHER_FROM

    def female(self, i: int) -> bool:
        s = self.seat(i)
        return s.traveller_female if s.role == TRAVELLER else ROLES[s.role].female

    def traveller(self, i: int) -> bool:
        """Her identity is public (the seed: 其他玩家知晓旅行者身份和技能), so no ability may make her
        another role in secret: the table would still see a traveller the engine no longer treats as one."""
        return self.seat(i).role == TRAVELLER

    def is_demon(self, i: int) -> bool:
        return self.role(i).team is Team.DEMON

    def is_minion(self, i: int) -> bool:
        return self.role(i).team is Team.MINION

    def demons(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if ROLES[s.role].team is Team.DEMON and not s.departed)

    def minions(self) -> tuple[int, ...]:
        return tuple(s.seat for s in self.seats if ROLES[s.role].team is Team.MINION and not s.departed)

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

    def seated_beside(self, i: int) -> tuple[int, ...]:
        """The seat on each side, dead or alive (a traveller who left no longer sits between): where
        someone sits, not who is still in the game."""
        n = len(self.seats)
        found: list[int] = []
        for step in (-1, 1):
            j = (i + step) % n
            while j != i and self.seats[j].departed:
                j = (j + step) % n
            if j != i and j not in found:
                found.append(j)
        return tuple(found)

    def distance(self, a: int, b: int) -> int:
        n = len(self.seats)
        d = abs(a - b) % n
        return min(d, n - d)

    def died_tonight(self, i: int, cause: DeathCause | None = None) -> bool:
        """Dead now, having died during this night (dusk included), of `cause` if given."""
        night = self.state.night
        if night is None or self.alive(i):
            return False
        return any(d.seat == i and (cause is None or d.cause is cause) for d in night.deaths)

    # --- time ---------------------------------------------------------------------------------------
    def next_dusk(self) -> Expiry:
        return Expiry(at=ExpiryAt.DUSK, night=self.state.night_no + 1)

    def next_dawn(self) -> Expiry:
        n = self.state.night_no
        return Expiry(at=ExpiryAt.DAWN, night=n if self.state.phase is Phase.NIGHT else n + 1)

    def night_and_day(self) -> Expiry:
        """One night and one day from now (DECISIONS #10): at night, the rest of it and the next day;
        by day (or at dusk, before the night's steps), the coming night and the day after it."""
        at_night = self.state.phase is Phase.NIGHT
        return Expiry(at=ExpiryAt.DUSK, night=self.state.night_no + (1 if at_night else 2))

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

    def host(self, text: str, *, override: bool = False, restates: int = 0) -> None:
        """A storyteller-only line; `restates`: it says again the lines just emitted before it (see
        `HostEvent.restates`)."""
        self.emit(HostEvent(text=text, override=override, restates=restates))

    def tell(self, seat: int, step: StepKey, value: Answer, text: str, targets: Iterable[int | None] = ()) -> None:
        chosen = tuple(t for t in targets if t is not None)
        self.emit(InfoEvent(seat=seat, night=self.state.night_no, step=step, value=value, text=text, targets=chosen))

    def you_are(self, seat: int) -> None:
        s = self.seat(seat)
        name = ROLES[s.role].name if s.role != TRAVELLER else f"旅行者『{s.traveller_identity}』"
        text = f"你是「{name}」（{ALIGNMENT_NAMES[s.alignment]}阵营）"
        self.emit(YouAreEvent(seat=seat, role=s.role, alignment=s.alignment, text=text))

    def show_demon_to_evil_traveller(self, seat: int) -> None:
        """An evil traveller learns who the demon is (research/botc.md §3.2), whenever she becomes one:
        seated at setup, admitted later, or turned evil by the storyteller."""
        s = self.seat(seat)
        demons = self.demons()
        if s.role == TRAVELLER and s.alignment is Alignment.EVIL and demons:
            text = f"说书人告知：这是恶魔：{nos(demons)}"
            night, day = self.told_when()
            self.emit(TellEvent(seat=seat, card=TellCard.DEMON, seats=demons, text=text, night=night, day=day))

    def told_when(self) -> tuple[int | None, int | None]:
        """(night, day): when a 告知 is given, for her phone to say (第2夜, 第1天)."""
        st = self.state
        return (st.night_no if st.phase is Phase.NIGHT else None,
                st.day.number if st.phase is Phase.DAY and st.day is not None else None)

    def add_status(
        self, seat: int, kind: StatusKind, source: RoleKey | None, *, by: int | None = None,
        until: Expiry | None = None,
    ) -> None:
        status = Status(seat=seat, kind=kind, source=source, source_seat=by, until=until)
        self.update(statuses=self.state.statuses + (status,))

    def huanbi_beside_guojunwang(self, seat: int) -> None:
        """「如果位置与果郡王相邻，则浣碧醉酒。此醉酒为永久效果。」: part of her ability, while she is 浣碧."""
        if any(self.seat(n).role == GUOJUNWANG for n in self.seated_beside(seat)):
            self.add_status(seat, StatusKind.DRUNK, HUANBI, by=seat, until=None)
            self.remind(HUANBI, "醉酒", seat)
            self.host(f"浣碧{no(seat)}坐在果郡王身边：永久醉酒")

    def huanbi_sober(self, seat: int) -> None:
        """Decision: that drunk is 浣碧's own ability, so it ends when she stops being 浣碧 (雨露均沾 makes
        her 宠妃); 三阿哥 restoring her beside 果郡王 makes her drunk again."""
        mine = [st for st in self.state.statuses if st.seat == seat and st.source == HUANBI and st.source_seat == seat]
        if not mine:
            return
        self.update(statuses=tuple(st for st in self.state.statuses if st not in mine),
                    reminders=tuple(r for r in self.state.reminders
                                    if not (r.auto and r.role == HUANBI and r.token == "醉酒" and r.seat == seat)))
        self.host(f"{no(seat)}不再是浣碧：坐在果郡王身边的醉酒随之结束")

    def clear_status(self, seat: int, kind: StatusKind) -> None:
        self.update(statuses=tuple(s for s in self.state.statuses if not (s.seat == seat and s.kind is kind)))

    def expire(self, at: ExpiryAt, night: int) -> None:
        def due(until: Expiry | None) -> bool:
            return until is not None and until.at is at and until.night == night

        self.update(statuses=tuple(s for s in self.state.statuses if not due(s.until)),
                    reminders=tuple(r for r in self.state.reminders if not due(r.until)))

    def spend(self, seat: int, ability: Ability) -> None:
        self.update_seat(seat, spent=self.seat(seat).spent | {ability})

    def remind(self, role: RoleKey, token: str, seat: int, until: Expiry | None = None) -> None:
        """Place (or move) the role's reminder token on a seat, as the storyteller would; a timed one
        comes off at `until`."""
        keep = tuple(r for r in self.state.reminders if not (r.auto and r.role == role and r.token == token))
        item = Reminder(id=self.state.next_reminder, seat=seat, role=role, token=token, auto=True, until=until)
        self.update(reminders=keep + (item,), next_reminder=self.state.next_reminder + 1)

    def revived(self, seat: int) -> None:
        """She lives again: the engine's 死亡 tokens on her come off (the storyteller's own stay)."""
        self.update(reminders=tuple(r for r in self.state.reminders
                                    if not (r.auto and r.seat == seat and r.token == DEAD_TOKEN)))

    def unseen_at_night(self, seat: int, *, alive: bool) -> None:
        """At night the public board stays as the day left it (DECISIONS #9): a seat that dies tonight
        is shown alive until dawn (`unannounced`), one that lives again is shown dead
        (`unannounced_revivals`); a change that undoes tonight's earlier one (dead again after a night
        revival, alive again after a night death) leaves her as the public saw her, nothing to announce."""
        hidden, revivals = self.state.unannounced, self.state.unannounced_revivals
        if alive:
            self.update(unannounced=tuple(x for x in hidden if x != seat),
                        unannounced_revivals=revivals + (() if seat in hidden or seat in revivals else (seat,)))
        else:
            self.update(unannounced_revivals=tuple(x for x in revivals if x != seat),
                        unannounced=hidden + (() if seat in revivals or seat in hidden else (seat,)))

    def owe(self, kind: OwedKind, seat: int) -> None:
        if Owed(kind=kind, seat=seat) not in self.state.owed:
            self.update(owed=self.state.owed + (Owed(kind=kind, seat=seat),))

    def change_role(
        self, seat: int, role: RoleKey, alignment: Alignment | None = None, *, keep_spent: bool = False,
        why: str = "", override: bool = False,
    ) -> None:
        """A new role (and alignment), told at once with the 「你是」 card. A new demon made by the rules
        is also owed her minions and bluffs, and the minions the new demon (7+ players)."""
        s = self.seat(seat)
        new_alignment = alignment or ROLES[role].alignment
        self.update_seat(
            seat, role=role, alignment=new_alignment, original_role=s.role, original_alignment=s.alignment,
            spent=s.spent if keep_spent else frozenset(), last_pick=None,
        )
        if role == NVHUANG:
            self.update(empress_ever=True)
        if s.role == HUANBI and role != HUANBI:
            self.huanbi_sober(seat)
        elif role == HUANBI and s.role != HUANBI:
            self.huanbi_beside_guojunwang(seat)
        self.you_are(seat)
        self.host(
            f"{no(seat)}由{ROLES[s.role].name}变为{ROLES[role].name}（{ALIGNMENT_NAMES[new_alignment]}）{why}",
            override=override, restates=1,
        )
        if not override and ROLES[role].team is Team.DEMON and self.evil_know_each_other():
            self.owe(OwedKind.NEW_DEMON, seat)
            self.owe(OwedKind.MINIONS_NEW_DEMON, seat)

    # --- deaths -------------------------------------------------------------------------------------
    def die(self, seat: int) -> bool:
        """The seat dies now (no chain effects: see `after_deaths`). False if she was already dead."""
        if not self.seat(seat).alive:
            return False
        self.update_seat(seat, alive=False, ghost_vote=True)
        return True

    def kill(self, seats: Iterable[int], cause: DeathCause, why: str, *, by: int | None = None) -> list[int]:
        """These seats die now, together (see `kill_together`)."""
        return self.kill_together([(s, cause, by) for s in seats], why)

    def kill_together(
        self, victims: Iterable[tuple[int, DeathCause, int | None]], why: str | Mapping[DeathCause, str],
    ) -> list[int]:
        """These seats die now, at one moment. At night each death is recorded with its cause and stays
        hidden from the public until dawn (DECISIONS #9); by day the public sees it at once. The chains
        follow at once. `why` says why in the storyteller's record: one reason for all, or one per cause.
        Her record says each death once: this line (by day in place of the public one), or, inside a
        night step, the step's own line (「恶魔杀死6号」)."""
        batch = {seat: (cause, by) for seat, cause, by in victims}
        alive_before = self.living_players()
        roles = {s: self.seat(s).role for s in batch}
        ghost_votes = {s: self.seat(s).ghost_vote for s in batch}
        dead = [s for s in batch if self.die(s)]
        if not dead:
            return dead
        if self.state.phase is Phase.NIGHT:
            records = tuple(NightDeath(seat=s, cause=batch[s][0], by=batch[s][1]) for s in dead)
            self.update_night(deaths=self.night.deaths + records)
            for s in dead:
                if s in self.state.unannounced_revivals:
                    # revived unseen tonight and dead again: the public never saw her alive, so her
                    # ghost vote stays the one it saw (a death's fresh one would give a spent one back)
                    self.update_seat(s, ghost_vote=ghost_votes[s])
                self.unseen_at_night(s, alive=False)
        if isinstance(why, str):
            line = f"{nos(dead)}死亡（{why}）"
        else:
            line = "；".join(f"{nos(seats)}死亡（{why[cause]}）" for cause in why
                            if (seats := [d for d in dead if batch[d][0] is cause]))
        if self.state.phase is not Phase.NIGHT:
            for s in sorted(dead):
                self.emit(DeathEvent(seat=s, text=f"{no(s)}死亡"))
            self.host(line, restates=len(dead))
        elif not self.in_step:
            self.host(line)
        counter = all(batch[s][0] is DeathCause.COUNTER for s in dead)
        self.after_deaths(dead, roles, alive_before, succession=not counter)
        return dead

    def after_deaths(
        self, dead: list[int], roles_at_death: dict[int, RoleKey], alive_before: int, *, succession: bool = True
    ) -> None:
        """Chains that follow deaths together: 皇后 becoming 女皇 first (counting the living just before,
        皇上 included: DECISIONS #8), then 孙答应's 全场醉酒."""
        if succession and any(roles_at_death[s] == HUANGSHANG for s in dead):
            self.maybe_empress(alive_before)
        for seat in dead:
            if roles_at_death[seat] == SUNDAYING and not self.impaired(seat):
                self.mass_drunk(seat)

    def mass_drunk(self, sundaying: int) -> None:
        """Every other living player, the demon included, is drunk for one night and one day (#10)."""
        until = self.night_and_day()
        hit = [s.seat for s in self.seats if s.alive and s.seat != sundaying]
        for seat in hit:
            self.add_status(seat, StatusKind.DRUNK, SUNDAYING, by=sundaying, until=until)
        self.remind(SUNDAYING, "全场醉酒", sundaying)
        # her death has its own line: this one says what it brings
        self.host(f"孙答应{no(sundaying)}之死，全场醉酒：{nos(hit)}，至第{until.night}夜入夜")

    def empress_block(self, alive_before: int) -> str | None:
        """Why no 皇后 can become 女皇 when 皇上 dies with `alive_before` alive (None: one can)."""
        if self.state.empress_ever:
            return "本局已有过女皇"
        if not self.holders(HUANGHOU):
            return NO_HUANGHOU
        queens = [q for q in self.holders(HUANGHOU) if self.alive(q)]
        if not queens:
            return "皇后已死亡"
        if all(self._impaired_for_succession(q) for q in queens):
            return "皇后中毒、醉酒或被按住"
        if alive_before < EMPRESS_MIN_ALIVE:
            return f"皇上死亡时存活玩家不足{EMPRESS_MIN_ALIVE}人"
        return None

    def _impaired_for_succession(self, queen: int) -> bool:
        """Impaired, except by 孙答应's 全场醉酒 from a death announced at the same dawn as 皇上's:
        the succession is decided first (DECISIONS #8), wherever in the night the two deaths fell."""
        same_dawn = set(self.state.unannounced)
        return any(
            st.seat == queen and st.kind in _IMPAIRING
            and not (st.kind is StatusKind.DRUNK and st.source == SUNDAYING and st.source_seat in same_dawn)
            for st in self.state.statuses
        )  # fmt: skip

    def maybe_empress(self, alive_before: int) -> None:
        why = self.empress_block(alive_before)
        if why == NO_HUANGHOU:
            # a game without 皇后 has no succession to speak of (kept for a 皇后 the storyteller deals later)
            self.update(succession_refused=f"皇上死亡时{why}")
            return
        if why is not None:
            self.update(succession_refused=why)
            self.host(f"皇上死亡，皇后未变为女皇：{why}")
            return
        queen = next(q for q in self.holders(HUANGHOU) if self.alive(q) and not self._impaired_for_succession(q))
        self.change_role(queen, NVHUANG, Alignment.EVIL, why="（皇上死亡，皇后继位）")
        self.update(empress_notice=queen)

    def freeze(self) -> GameState:
        return self.state.model_copy(update={"log": self.state.log + tuple(self.events)})
