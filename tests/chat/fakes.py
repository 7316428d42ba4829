"""Two fake games for chat: `parlour` (player-opened, turns, everyone chats at one table, no phrases
of its own) and `masque` (run by a storyteller who does not sit, sealed rounds with secrets,
spectators chat apart, its own 心战 phrases)."""

from __future__ import annotations

from tests.fakes.games import Relay, Tally


class Parlour(Relay):
    key = "parlour"
    family = "parlour"
    title = "Parlour"


class Masque(Tally):
    key = "masque"
    family = "masque"
    title = "Masque"
    auto_start = False
    host_runs = True
    spectators_chat_apart = True
    quick_phrases = ("本宫乏了", "姐姐请", "这宫里，谁都不可信")


PARLOUR = Parlour()
MASQUE = Masque()
