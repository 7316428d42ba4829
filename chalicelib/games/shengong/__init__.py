"""深宫杀: shared pieces (consort profile, 宫女 catalogue, decks) and the two engines:
`coop` (玩法D 宫斗杀, 3 players vs stage bosses) and `melee` (玩法A/B/C, 8-seat free-for-all)."""
