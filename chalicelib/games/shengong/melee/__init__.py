"""深宫杀 玩法A 竞技局 / B 宫女局 / C 卡牌局: the 8-seat simultaneous hidden-move free-for-all.

One engine, three modes (`game.GAME_A`, `GAME_B`, `GAME_C`). The rules are written down, number by
number, in docs/rules/shengong-melee.md; each number is pinned by a test in
tests/unit/games/shengong/melee/.
"""
