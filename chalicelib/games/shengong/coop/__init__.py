"""玩法D · 宫斗杀: three players co-operate against a stage's boss (and, from 关卡3, her 随从).

Modules: `state` (places, stats, state models, setup), `actions` (the sealed move union and its
check), `bosses` (stage table and each opponent's tactic as a pure policy), `resolve` (the
simultaneous settlement, written as numbered steps), `events`, `scoring`, `report` (battle report
per viewer), `views` (board per viewer) and `game` (the `Game` object the registry loads).
The full rules with every number live in docs/rules/shengong.md.
"""
