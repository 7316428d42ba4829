"""The end of the game: win conditions are checked after every transition and only proposed; nothing
is final until the storyteller presses 「确认结束」 (DECISIONS #12)."""

from __future__ import annotations

from chalicelib.games.zhenhuan.board import ALIGNMENT_NAMES, Board
from chalicelib.games.zhenhuan.enums import Phase
from chalicelib.games.zhenhuan.events import GameOverEvent
from chalicelib.games.zhenhuan.roles import HUANGSHANG, ROLES, Alignment, Team
from chalicelib.games.zhenhuan.state import EndProposal

GOOD_WINS = "恶魔死亡，且没有新的恶魔"
EVIL_WINS = "仅剩两名玩家存活，恶魔仍在"


def demon_coming(b: Board) -> bool:
    """A new demon takes over at dawn (甄嬛's counter-kill, 太上皇's successor)."""
    night = b.state.night
    if night is None:
        return False
    counter = night.counter_kill is not None and b.alive(night.counter_kill[0])
    heir = night.succession is not None and b.alive(night.succession[1])
    return counter or heir or _empress_at_dawn(b)


def _empress_at_dawn(b: Board) -> bool:
    """甄嬛 killed 皇上 but died herself before dawn: 皇后 succeeds at dawn if she can (`night.dawn`
    asks the same question with the same count), so the demon's death does not end the game yet."""
    night = b.state.night
    if night is None or night.counter_kill is None:
        return False
    zhenhuan, killer = night.counter_kill
    if b.alive(zhenhuan) or b.alive(killer) or b.seat(killer).role != HUANGSHANG:
        return False
    alive = night.counter_kill_alive
    return b.empress_block(b.living_players() + 1 if alive is None else alive) is None


def check_win(b: Board) -> None:
    """Good: no living demon (none coming). Evil: two (or fewer) players alive, a demon among them."""
    if b.state.phase in (Phase.SETUP, Phase.OVER):
        return
    demon_alive = any(s.alive for s in b.seats if ROLES[s.role].team is Team.DEMON)
    current = b.state.end
    if not demon_alive and not demon_coming(b):
        propose(b, Alignment.GOOD, GOOD_WINS)
    elif demon_alive and b.living_players() <= 2:
        propose(b, Alignment.EVIL, EVIL_WINS)
    elif current is not None and _detected(current):
        b.update(end=None)  # the board changed back (胧月's proposal stays)
        b.host("结束条件不再满足，游戏继续")


def _detected(proposal: EndProposal) -> bool:
    """Proposed because the board met a win condition (so it goes when the board changes back), not
    by an event that ends the game whatever follows (胧月 executed) or by the storyteller's word."""
    return not proposal.declared and proposal.reason in (GOOD_WINS, EVIL_WINS)


def propose(b: Board, winner: Alignment, reason: str, *, declared: bool = False) -> None:
    """Ask the storyteller to confirm the end; a detected condition never replaces her own word nor
    胧月's loss (seed: 说书人在胧月被处决时直接结束本局游戏)."""
    current = b.state.end
    if current is not None and not _detected(current) and not declared:
        return
    proposal = EndProposal(winner=winner, reason=reason, declared=declared)
    if current != proposal:
        b.update(end=proposal)
        b.host(f"结束条件：{ALIGNMENT_NAMES[winner]}阵营获胜（{reason}）——请「确认结束」或继续游戏")


def end(b: Board, winner: Alignment, reason: str) -> None:
    b.update(phase=Phase.OVER, winner=winner, end_reason=reason, end=None)
    text = f"游戏结束：{ALIGNMENT_NAMES[winner]}阵营获胜（{reason}）"
    b.emit(GameOverEvent(winner=winner, reason=reason, text=text))
