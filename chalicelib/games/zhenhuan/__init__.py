"""血染甄嬛传: a storyteller-run Blood-on-the-Clocktower variant set in the 甄嬛传 palace (seed 002).

The rules are in docs/rules/zhenhuan.md; `game.GAME` is the registered `Game`.
"""
