"""深宫杀: one core for its four modes — 玩法D 宫斗杀 (three players against a stage's bosses) and
玩法A/B/C (eight seats, a free-for-all in the palace: 宫女 blocked / passive / cards in hand).

Modules, in reading order: `terms` (the vocabulary), `numbers`, `places`, `modes` (what differs per
mode, as data), `cards` and `deck` (宫女), `profile`, `state`, `actions`, `check`, `bosses`, `effects`,
`formulas` (hit chances, blows, 养生), `ledger`, the resolver (`resolve` and its steps in `turn`,
`strikes`, `court`, `landing`), `scoring`, `events`, `report` and `wording` (battle reports), `views`,
the bots (`bots`, `bot_simple`, `bot_advanced`), `errors` and `game` (the registry's four games).
Every rule and number is in docs/rules/shengong.md.
"""
