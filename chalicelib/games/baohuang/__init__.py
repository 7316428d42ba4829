"""保皇 (Shandong 5-player card game): a pure rules engine. `game.GAME` plugs into the rooms."""
